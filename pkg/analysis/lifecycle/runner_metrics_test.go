package lifecycle_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/analysis/service"
	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// events records the metric callbacks of a Runner or Service.
type events struct {
	mu       sync.Mutex
	observed []string
	resumed  []model.AnalysisType
	lost     []model.AnalysisType
	fenced   []model.AnalysisType
}

func (e *events) observe(ws string, kind model.AnalysisType, status model.RunStatus, _ int, _ time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.observed = append(e.observed, ws+"/"+string(kind)+"/"+string(status))
}

func (e *events) resume(kind model.AnalysisType) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.resumed = append(e.resumed, kind)
}

func (e *events) lose(kind model.AnalysisType) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.lost = append(e.lost, kind)
}

func (e *events) fence(kind model.AnalysisType) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.fenced = append(e.fenced, kind)
}

// A worker that takes over a run another worker had begun reports it as
// resumed (the WorkerLostMidRun alert counts these); a first attempt does
// not. Either way the outcome is observed with the run's workspace.
func TestRunnerReportsResumedAttempts(t *testing.T) {
	ctx := context.Background()
	r, runs := emptyJobRunner(t, "team-a")
	now := time.Now()
	var ev events
	r.Observe, r.Resumed = ev.observe, ev.resume

	for _, tc := range []struct {
		id          string
		prevAttempt int
		wantResumed int
	}{{"first", 0, 0}, {"taken-over", 1, 1}} {
		t.Run(tc.id, func(t *testing.T) {
			ev.resumed = nil
			// The run as a lost worker left it: Running, with its attempt
			// counted.
			status := model.RunQueued
			if tc.prevAttempt > 0 {
				status = model.RunRunning
			}
			if err := runs.Start(ctx, "team-a", model.Run{RunID: tc.id, AnalysisType: model.AnalysisType("LinearStaticAnalysis"), Status: status,
				QueuedAt: now, Attempt: tc.prevAttempt}); err != nil {
				t.Fatal(err)
			}
			// The job is empty: the attempt begins, then fails on the model.
			_ = r.Run(ctx, lifecycle.Task{Workspace: "team-a", RunID: tc.id, Kind: model.AnalysisType("LinearStaticAnalysis")})
			run, err := runs.Run(ctx, "team-a", tc.id)
			if err != nil || run.Attempt != tc.prevAttempt+1 || !run.Status.Finished() {
				t.Fatalf("run after the worker: attempt %d status %s (%v)", run.Attempt, run.Status, err)
			}
			if len(ev.resumed) != tc.wantResumed {
				t.Errorf("resumed reported %d times, want %d", len(ev.resumed), tc.wantResumed)
			}
			want := "team-a/" + string(model.AnalysisType("LinearStaticAnalysis")) + "/" + string(run.Status)
			if n := len(ev.observed); n == 0 || ev.observed[n-1] != want {
				t.Errorf("observed %v, want last %s", ev.observed, want)
			}
		})
	}
}

// lostQueue reports every task as lost, as after a worker died on each
// of its retries.
type lostQueue struct{}

func (lostQueue) Enqueue(context.Context, string, string, []byte) error { return nil }
func (lostQueue) Dequeue(context.Context, string, string) (bool, error) { return false, nil }
func (lostQueue) Lost(context.Context, string) (bool, error)            { return true, nil }

// The API reports a run it gives up as "worker lost" once, however many
// times the run is read afterwards.
func TestServiceReportsLostRunOnce(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Start(t).Client(t)
	now := time.Now()
	if _, err := redisstore.NewJobs(rdb, editor.Collections()).Open(ctx, "team-a", store.Snapshot{Job: model.NewJob()},
		model.State{OpenedAt: &now}); err != nil {
		t.Fatal(err)
	}
	runs := redisstore.NewRuns(rdb)
	var ev events
	s := &service.Service{Runs: runs, Queue: lostQueue{}, FanOut: redisstore.NewFanOut(rdb), Lost: ev.lose}
	if err := runs.Start(ctx, "team-a", model.Run{RunID: "r", AnalysisType: model.AnalysisType("BucklingAnalysis"), Status: model.RunRunning,
		QueuedAt: now.Add(-time.Hour), Attempt: 4}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		run, err := s.Get(ctx, "team-a", "r")
		if err != nil || run.Status != model.RunFailed {
			t.Fatalf("lost run read as %s (%v), want Failed", run.Status, err)
		}
	}
	if len(ev.lost) != 1 || ev.lost[0] != model.AnalysisType("BucklingAnalysis") {
		t.Errorf("lost reported %v, want one %s", ev.lost, model.AnalysisType("BucklingAnalysis"))
	}
}
