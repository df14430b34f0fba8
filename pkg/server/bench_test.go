package server

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/fem/static"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
)

// The service's own costs, measured side by side with the engine on the
// identical model: targets (issue "analysis service") are a grid-20 run
// through HTTP within 1.5× the engine's grid-20 time, node-displacements
// of all grid-30 nodes within 250 ms and member-intermediate-forces of
// 10,000 grid-30 members within 500 ms. Run with make bench.

// median returns the median of ds.
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// waitQuick polls a run every 2 ms until it has finished: the poll
// interval bounds the error of the measured run time.
func (s *stack) waitQuick(id string) model.Run {
	s.t.Helper()
	for {
		var run model.Run
		s.must(200, "GET", "/job/analysis/runs/"+id, nil).decode(s.t, &run)
		if run.Status.Finished() {
			return run
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// BenchmarkRunGrid20 times POST run-linear → Completed on grid-20 through
// HTTP, alternating with static.Analyze of the same model in the same
// process (A B A B …, so machine drift hits both), and reports the median
// times and the median of the pairwise ratios.
func BenchmarkRunGrid20(b *testing.B) {
	s := startStack(b, 1)
	s.upload(gridjob.File(20, 1))
	ctx := context.Background()
	m := newModel(s.redis.Client(b), nil)
	job, _, err := m.jobs.Job(ctx, "default")
	if err != nil {
		b.Fatal(err)
	}
	const pairs = 3
	var service, engine, ratio []time.Duration
	for range b.N {
		for range pairs {
			t0 := time.Now()
			if run := s.waitQuick(s.run(nil).RunID); run.Status != model.RunCompleted {
				b.Fatalf("run %s: %s", run.Status, run.ErrorMessage)
			}
			ts := time.Since(t0)
			// The engine's own time: the model as the worker converts it,
			// analysed with the worker's options.
			in, err := adapter.Build(ctx, m.source, "default", job.Settings)
			if err != nil {
				b.Fatal(err)
			}
			t2 := time.Now()
			if _, err := static.Analyze(ctx, in.Model, static.Options{TensionCompressionOnly: true, ReversalIterations: 20}); err != nil {
				b.Fatal(err)
			}
			te := time.Since(t2)
			service, engine = append(service, ts), append(engine, te)
			ratio = append(ratio, time.Duration(float64(ts)/float64(te)*1000))
		}
	}
	b.ReportMetric(median(service).Seconds(), "run-s")
	b.ReportMetric(median(engine).Seconds(), "engine-s")
	b.ReportMetric(float64(median(ratio))/1000, "run/engine")
}

// grid30 opens grid-30 with cases load cases and analyses it.
func grid30(b *testing.B, cases int) *stack {
	b.Helper()
	s := startStack(b, 1)
	s.upload(gridjob.File(30, cases))
	if run := s.waitUpTo(s.run(nil).RunID, 10*time.Minute); run.Status != model.RunCompleted {
		b.Fatalf("grid-30 run %s: %s", run.Status, run.ErrorMessage)
	}
	return s
}

// timeQuery returns the median time of five GETs of path and the body
// size of the last.
func timeQuery(b *testing.B, s *stack, path string) (time.Duration, int) {
	b.Helper()
	var ds []time.Duration
	size := 0
	for range 5 {
		t0 := time.Now()
		r := s.must(200, "GET", path, nil)
		ds = append(ds, time.Since(t0))
		size = len(r.body)
	}
	return median(ds), size
}

// BenchmarkQueryGrid30 times node-displacements of all 29,791 nodes and
// member-intermediate-forces of 10,000 members for one case of grid-30
// (10 cases stored), and reports the Redis memory each stored case takes.
func BenchmarkQueryGrid30(b *testing.B) {
	const cases = 10
	s := grid30(b, cases)
	for range b.N {
		d, n := timeQuery(b, s, "/job/query/analysis/static/node-displacements?loadCases=3")
		b.ReportMetric(float64(d.Milliseconds()), "node-disp-ms")
		b.ReportMetric(float64(n)/1e6, "node-disp-MB")
		d, n = timeQuery(b, s, "/job/query/analysis/static/member-intermediate-forces?loadCases=3&members=1-10000")
		b.ReportMetric(float64(d.Milliseconds()), "member-forces-ms")
		b.ReportMetric(float64(n)/1e6, "member-forces-MB")
	}
	ctx := context.Background()
	rdb := s.redis.Client(b)
	keys, err := rdb.SMembers(ctx, redisstore.WorkspaceKey("default", "res:keys")).Result()
	if err != nil {
		b.Fatal(err)
	}
	var total, shared int64
	for _, k := range keys {
		n, err := rdb.MemoryUsage(ctx, k).Result()
		if err != nil {
			b.Fatal(err)
		}
		total += n
		if !strings.Contains(k, ":c:") || strings.HasSuffix(k, ":c:nodes") || strings.HasSuffix(k, ":c:members") {
			shared += n
		}
	}
	b.ReportMetric(float64(total-shared)/cases/1e6, "redis-MB/case")
	b.ReportMetric(float64(shared)/1e6, "redis-MB-shared")
}
