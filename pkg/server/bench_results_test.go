package server

import (
	"io"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
	"github.com/gusset/gusset/pkg/testutil/peak"
)

// BenchmarkResultAnswerMemory reads member-intermediate-forces of grid-5
// (480 members) over 100 load cases with no limit: 48,000 rows, about
// 70 MB of JSON. It reports the time to the first byte and to the last,
// the body size, the bytes the process allocated meanwhile and the peak
// of its heap in use above the heap before the request (sampled every
// 5 ms; api and worker share the process, the worker idle). Streaming
// bounds the peak whatever the body; a build that holds the answer peaks
// at a multiple of it. Run with make bench, or alone:
// go test -run '^$' -bench ResultAnswerMemory -benchtime 1x ./pkg/server/
func BenchmarkResultAnswerMemory(b *testing.B) {
	s := startStack(b, 1)
	s.upload(gridjob.File(5, 100))
	if run := s.waitUpTo(s.run(nil).RunID, 10*time.Minute); run.Status != model.RunCompleted {
		b.Fatalf("run %s: %s", run.Status, run.ErrorMessage)
	}
	for range b.N {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		// The heap in use, sampled every 5 ms.
		heap := peak.Start(5*time.Millisecond, func() (int64, bool) {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			return int64(m.HeapInuse), true
		}, 0, nil)
		t0 := time.Now()
		res, err := http.Get(s.base + "/job/query/analysis/static/member-intermediate-forces")
		if err != nil {
			b.Fatal(err)
		}
		first := time.Since(t0)
		n, err := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		total := time.Since(t0)
		top := heap.Stop()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if err != nil || res.StatusCode != 200 {
			b.Fatalf("%d after %d bytes: %v", res.StatusCode, n, err)
		}
		b.ReportMetric(float64(first.Milliseconds()), "first-byte-ms")
		b.ReportMetric(total.Seconds(), "answer-s")
		b.ReportMetric(float64(n)/1e6, "body-MB")
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/1e6, "alloc-MB")
		b.ReportMetric(float64(top-int64(before.HeapInuse))/1e6, "peak-heap-MB")
	}
}
