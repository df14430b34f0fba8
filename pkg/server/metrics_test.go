package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/analysis/kinds"
	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/queue"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// gauges gathers reg and returns the value of every unlabelled gauge by
// name. A gather error fails the test: the API serves /metrics with
// promhttp's default, which answers 500 to the whole scrape on any
// collector error, so a collector must never report one.
func gauges(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatalf("gather: %v (a collector error fails the whole scrape)", err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetType().String() != "GAUGE" || len(mf.GetMetric()) != 1 {
			continue
		}
		out[mf.GetName()] = mf.GetMetric()[0].GetGauge().GetValue()
	}
	return out
}

// waitGauges gathers until cond holds, for values a worker's heartbeat
// publishes every few seconds, failing after patience.
func waitGauges(t *testing.T, reg *prometheus.Registry, what string, cond func(map[string]float64) bool) map[string]float64 {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		g := gauges(t, reg)
		if cond(g) {
			return g
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not seen within %v; last %v", what, patience, g)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// The queue collector tells how long the oldest waiting task has waited
// (0 when none waits, so that the alert on it clears) and how many
// workers are alive and busy, from asynq's own records in Redis.
func TestQueueCollectorOldestAndWorkers(t *testing.T) {
	rdb := redistest.Start(t).Client(t)
	qc := queue.NewClient(rdb)
	reg := prometheus.NewRegistry()
	reg.MustRegister(newQueueCollector(qc))

	g := gauges(t, reg)
	for name, want := range map[string]float64{"gusset_analysis_queue_depth": 0, "gusset_analysis_queue_oldest_seconds": 0,
		"gusset_analysis_workers": 0, "gusset_analysis_workers_busy": 0} {
		if got, ok := g[name]; !ok || got != want {
			t.Errorf("no task and no worker: %s = %v (present %v), want %v", name, got, ok, want)
		}
	}

	if err := qc.Enqueue(context.Background(), "default", "run-1", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	// The task's age grows while it waits: polled until it reaches 50 ms,
	// the task still the one in the queue.
	g = waitGauges(t, reg, "the waiting task 50 ms old", func(g map[string]float64) bool {
		return g["gusset_analysis_queue_depth"] != 1 || g["gusset_analysis_queue_oldest_seconds"] >= 0.05
	})
	if g["gusset_analysis_queue_depth"] != 1 || g["gusset_analysis_queue_oldest_seconds"] < 0.05 {
		t.Errorf("one task queued 50 ms ago: depth %v, oldest %v s", g["gusset_analysis_queue_depth"], g["gusset_analysis_queue_oldest_seconds"])
	}

	// A worker takes the task and holds it: the queue is empty again, and
	// the worker is counted, busy; once the task is done, idle.
	ctx, cancel := context.WithCancel(context.Background())
	taken, release := make(chan struct{}), make(chan struct{})
	w := queue.NewWorker(rdb, slog.New(slog.NewTextHandler(io.Discard, nil)), queue.Handler{TaskType: queue.TypeAnalysisRun,
		Handle: func(ctx context.Context, _ []byte) error {
			close(taken)
			select {
			case <-release:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}})
	stopped := make(chan error, 1)
	go func() { stopped <- w.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-stopped
	})
	select {
	case <-taken:
	case <-time.After(patience):
		t.Fatal("the worker did not take the task")
	}
	g = waitGauges(t, reg, "one busy worker", func(g map[string]float64) bool {
		return g["gusset_analysis_workers"] == 1 && g["gusset_analysis_workers_busy"] == 1
	})
	if g["gusset_analysis_queue_depth"] != 0 || g["gusset_analysis_queue_oldest_seconds"] != 0 {
		t.Errorf("task taken: depth %v, oldest %v s, want 0 and 0", g["gusset_analysis_queue_depth"], g["gusset_analysis_queue_oldest_seconds"])
	}
	close(release)
	waitGauges(t, reg, "one idle worker", func(g map[string]float64) bool {
		return g["gusset_analysis_workers"] == 1 && g["gusset_analysis_workers_busy"] == 0
	})
}

// The Redis collector reports memory while Redis answers, and up = 0
// with no memory sample once it is gone, without failing the scrape: the
// scrape is how the RedisDown alert learns of it. The queue collector,
// which reads Redis too, must not fail the scrape either. Every command
// of the Redis collector carries the scrape's deadline, at most
// scrapeTimeout away, so that a Redis that does not answer cannot hold
// the scrape longer (the queue collector's bound is within's, see
// TestWithinStopsWaitingWhenContextEnds).
func TestRedisCollectorUpAndDown(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	watched := srv.Client(t)
	deadlines := &deadlineHook{}
	watched.AddHook(deadlines)
	reg := prometheus.NewRegistry()
	reg.MustRegister(newRedisCollector(watched), newQueueCollector(queue.NewClient(rdb)))

	g := gauges(t, reg)
	if g["gusset_redis_up"] != 1 || g["gusset_redis_used_memory_bytes"] <= 0 {
		t.Fatalf("redis running: up %v, used memory %v", g["gusset_redis_up"], g["gusset_redis_used_memory_bytes"])
	}

	srv.Kill()
	g = gauges(t, reg)
	scraped := time.Now()
	if up, ok := g["gusset_redis_up"]; !ok || up != 0 {
		t.Errorf("redis killed: up = %v (present %v), want 0", up, ok)
	}
	for _, name := range []string{"gusset_redis_used_memory_bytes", "gusset_analysis_queue_depth", "gusset_analysis_workers"} {
		if v, ok := g[name]; ok {
			t.Errorf("redis killed: %s = %v, want no sample", name, v)
		}
	}
	if n, missing, late := deadlines.check(scraped.Add(scrapeTimeout)); n == 0 || missing > 0 || late > 0 {
		t.Errorf("of %d commands the Redis collector sent, %d had no deadline and %d one more than %v after the scrape", n, missing, late, scrapeTimeout)
	}
}

// deadlineHook records, for each command sent through the client it is
// added to, the deadline of the command's context.
type deadlineHook struct {
	mu        sync.Mutex
	deadlines []time.Time // the zero time: none
}

func (h *deadlineHook) record(ctx context.Context) {
	d, _ := ctx.Deadline()
	h.mu.Lock()
	h.deadlines = append(h.deadlines, d)
	h.mu.Unlock()
}

// check counts the commands, those without a deadline and those whose
// deadline is after latest.
func (h *deadlineHook) check(latest time.Time) (n, missing, late int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, d := range h.deadlines {
		switch {
		case d.IsZero():
			missing++
		case d.After(latest):
			late++
		}
	}
	return len(h.deadlines), missing, late
}

// DialHook implements redis.Hook; a dial is not a command.
func (h *deadlineHook) DialHook(next redis.DialHook) redis.DialHook { return next }

// ProcessHook implements redis.Hook, recording each command's deadline.
func (h *deadlineHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.record(ctx)
		return next(ctx, cmd)
	}
}

// ProcessPipelineHook implements redis.Hook, recording each pipeline's
// deadline.
func (h *deadlineHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.record(ctx)
		return next(ctx, cmds)
	}
}

// The queue collector's inspector takes no context, so within bounds the
// wait for it: once its context ends, within returns the context's error
// while fn still runs (fn here runs until the test ends); an fn that
// returns first gives nil.
func TestWithinStopsWaitingWhenContextEnds(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	returned := make(chan error, 1)
	go func() { returned <- within(ctx, func() { <-release }) }()
	cancel()
	select {
	case err := <-returned:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("within after its context ended = %v, want context.Canceled", err)
		}
	case <-time.After(patience):
		t.Fatal("within still waits for fn after its context ended")
	}
	if err := within(context.Background(), func() {}); err != nil {
		t.Errorf("within of an fn that returns = %v, want nil", err)
	}
}

// On a Redis Cluster client the memory is the sum over the masters, read
// through ForEachMaster: a plain INFO would reach one node only. Three
// masters of about the same size make the difference visible.
func TestRedisCollectorCluster(t *testing.T) {
	cl := redistest.StartCluster(t)
	cc := cl.Client(t)
	reg := prometheus.NewRegistry()
	reg.MustRegister(newRedisCollector(cc))
	g := waitGauges(t, reg, "cluster up", func(g map[string]float64) bool { return g["gusset_redis_up"] == 1 })
	var largest float64
	for _, addr := range cl.Addrs() {
		c := redis.NewClient(&redis.Options{Addr: addr})
		info, err := c.Info(context.Background(), "memory").Result()
		_ = c.Close()
		if err != nil {
			t.Fatal(err)
		}
		n, _ := infoField(info, "used_memory")
		largest = max(largest, float64(n))
	}
	// Three nodes of about the same size: the sum is near three times
	// either, and well above what one node reports.
	if got := g["gusset_redis_used_memory_bytes"]; got < 1.5*largest {
		t.Errorf("cluster used memory %v, want the sum over the masters (each about %v)", got, largest)
	}
}

// The worker's series: the duration histogram carries the workspace, and
// the resumed, fenced and lost counters start at 0 for every analysis
// type, so that an alert's increase() sees the first event.
func TestAnalysisMetricsSeries(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := newAnalysisMetrics(reg, kinds.StandardKinds().Types(), false)
	lost := newRunsLost(reg, kinds.StandardKinds().Types())
	m.observe("team-a", model.AnalysisType("LinearStaticAnalysis"), model.RunCompleted, 120, 1500*time.Millisecond)
	m.resume(model.AnalysisType("NonLinearStaticAnalysis"))
	m.fence(model.AnalysisType("BucklingAnalysis"))
	lost(model.AnalysisType("BucklingAnalysis"))

	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	series := map[string]float64{}
	for _, mf := range mfs {
		for _, s := range mf.GetMetric() {
			key := mf.GetName()
			for _, l := range s.GetLabel() {
				key += fmt.Sprintf(",%s=%s", l.GetName(), l.GetValue())
			}
			switch {
			case s.GetCounter() != nil:
				series[key] = s.GetCounter().GetValue()
			case s.GetHistogram() != nil:
				series[key] = float64(s.GetHistogram().GetSampleCount())
			}
		}
	}
	for key, want := range map[string]float64{
		"gusset_analysis_duration_seconds,kind=LinearStaticAnalysis,outcome=Completed,workspace=team-a": 1,
		"gusset_analysis_attempts_resumed_total,kind=NonLinearStaticAnalysis":                           1,
		"gusset_analysis_attempts_resumed_total,kind=LinearStaticAnalysis":                              0,
		"gusset_analysis_writes_fenced_total,kind=BucklingAnalysis":                                     1,
		"gusset_analysis_writes_fenced_total,kind=LinearStaticAnalysis":                                 0,
		"gusset_analysis_runs_lost_total,kind=BucklingAnalysis":                                         1,
		"gusset_analysis_runs_lost_total,kind=DynamicFrequencyAnalysis":                                 0,
	} {
		if got, ok := series[key]; !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", key, got, ok, want)
		}
	}
}

// With METRICS_WORKSPACE_LABELS=false the worker's duration histogram
// names no workspace: every run counts under the hidden value.
func TestAnalysisMetricsHideWorkspaces(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := newAnalysisMetrics(reg, kinds.StandardKinds().Types(), true)
	for _, ws := range []string{"team-a", "team-b"} {
		m.observe(ws, model.AnalysisType("LinearStaticAnalysis"), model.RunCompleted, 120, time.Second)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]uint64{}
	for _, mf := range mfs {
		if mf.GetName() != "gusset_analysis_duration_seconds" {
			continue
		}
		for _, s := range mf.GetMetric() {
			for _, l := range s.GetLabel() {
				if l.GetName() == "workspace" {
					counts[l.GetValue()] += s.GetHistogram().GetSampleCount()
				}
			}
		}
	}
	if len(counts) != 1 || counts[httpapi.HiddenWorkspace] != 2 {
		t.Errorf("runs by workspace label %v, want both under %q", counts, httpapi.HiddenWorkspace)
	}
}
