//go:build capacity

package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
)

// uploadTemplate opens file as workspace ws's job (new-from-template).
func (s *capStack) uploadTemplate(ws string, file []byte) (int, []byte) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	part, err := w.CreateFormFile("template", "job.gsj")
	if err != nil {
		s.t.Fatal(err)
	}
	_, _ = part.Write(file)
	_ = w.Close()
	return s.do(ws, "POST", "/job/new-from-template", &b, w.FormDataContentType())
}

// cpuHog keeps every core of the machine busy until the test ends, or
// until the function it returns is called: the publish of a large result
// set must not depend on an idle machine.
func cpuHog(t *testing.T) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := 1.0
			for ctx.Err() == nil {
				for range 1 << 16 {
					x = x*1.0000001 + 1e-9
				}
			}
			_ = x
		}()
	}
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); wg.Wait() }) }
	t.Cleanup(stop)
	return stop
}

// Finding 6: a linear run of 1000 load cases on a busy machine publishes
// its results. The worker's heartbeat wrote the run record that the
// publish transaction watches, every 250 ms; a publish that takes longer
// than that aborted every time, and the run ended Failed ("worker lost")
// with its worker alive.
func TestCapacityLargePublishUnderLoad(t *testing.T) {
	// One attempt: a publish that cannot succeed fails the run at once
	// instead of after every retry.
	attackLargePublish(startCapStack(t, capOptions{APIEnv: []string{"ANALYSIS_MAX_RETRY=0"}}))
}

// attackLargePublish is finding 6 by workspace a: its 1000-case run must
// complete with every case's results while every core is kept busy.
func attackLargePublish(s *capStack) {
	t := s.t
	t.Helper()
	// grid-7 (512 nodes, 1232 members) with 1000 cases: about 210 MB of
	// results, a publish of well over one heartbeat on a busy machine.
	const cases = 1000
	if st, b := s.uploadTemplate("a", gridjob.File(7, cases)); st != 200 {
		t.Fatalf("upload: %d %s", st, b)
	}
	defer cpuHog(t)()
	var run model.Run
	if err := json.Unmarshal(s.must(202, "a", "POST", "/job/analysis/static/run-linear", ""), &run); err != nil {
		t.Fatal(err)
	}
	poll(t, 15*time.Minute, "the 1000-case run to end", func() bool {
		_ = json.Unmarshal(s.must(200, "a", "GET", "/job/analysis/runs/"+run.RunID, ""), &run)
		return run.Status.Finished()
	})
	if run.Status != model.RunCompleted {
		t.Fatalf("run ended %s: %q", run.Status, run.ErrorMessage)
	}
	var info model.ResultsInfo
	if err := json.Unmarshal(s.must(200, "a", "GET", "/job/analysis/static/info", ""), &info); err != nil {
		t.Fatal(err)
	}
	analysed := 0
	for _, c := range info.LoadCases {
		if c.HasResults {
			analysed++
		}
	}
	if analysed != cases {
		t.Errorf("%d load cases have results, want %d", analysed, cases)
	}
	s.alive()
	s.must(200, "a", "POST", "/job/close", "")
}
