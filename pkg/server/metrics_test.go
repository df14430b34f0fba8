package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/analysis"
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
// publishes every few seconds.
func waitGauges(t *testing.T, reg *prometheus.Registry, what string, cond func(map[string]float64) bool) map[string]float64 {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		g := gauges(t, reg)
		if cond(g) {
			return g
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not seen within 20 s; last %v", what, g)
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

	if err := qc.Enqueue(context.Background(), "run-1", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	g = gauges(t, reg)
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
	case <-time.After(20 * time.Second):
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
// which reads Redis too, must not fail the scrape either.
func TestRedisCollectorUpAndDown(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	reg := prometheus.NewRegistry()
	reg.MustRegister(newRedisCollector(rdb), newQueueCollector(queue.NewClient(rdb)))

	g := gauges(t, reg)
	if g["gusset_redis_up"] != 1 || g["gusset_redis_used_memory_bytes"] <= 0 {
		t.Fatalf("redis running: up %v, used memory %v", g["gusset_redis_up"], g["gusset_redis_used_memory_bytes"])
	}

	srv.Kill()
	start := time.Now()
	g = gauges(t, reg)
	if up, ok := g["gusset_redis_up"]; !ok || up != 0 {
		t.Errorf("redis killed: up = %v (present %v), want 0", up, ok)
	}
	for _, name := range []string{"gusset_redis_used_memory_bytes", "gusset_analysis_queue_depth", "gusset_analysis_workers"} {
		if v, ok := g[name]; ok {
			t.Errorf("redis killed: %s = %v, want no sample", name, v)
		}
	}
	if d := time.Since(start); d > 2*scrapeTimeout+time.Second {
		t.Errorf("scrape with redis down took %v", d)
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
// the resumed and lost counters start at 0 for every analysis type, so
// that an alert's increase() sees the first event.
func TestAnalysisMetricsSeries(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := newAnalysisMetrics(reg, analysis.StandardKinds().Types())
	lost := newRunsLost(reg, analysis.StandardKinds().Types())
	m.observe("team-a", model.LinearStatic, model.RunCompleted, 120, 1500*time.Millisecond)
	m.resume(model.NonLinearStatic)
	lost(model.BucklingAnalysis)

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
		"gusset_analysis_runs_lost_total,kind=BucklingAnalysis":                                         1,
		"gusset_analysis_runs_lost_total,kind=DynamicFrequencyAnalysis":                                 0,
	} {
		if got, ok := series[key]; !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", key, got, ok, want)
		}
	}
}
