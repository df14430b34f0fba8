package lifecycle_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/testutil/logtest"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// stallingRuns is the real Redis run store, but once armed its next
// Update hangs until its context ends: a refresh of the run record caught
// in a network partition whose name lookups and dials time out one after
// another (seen in the compose partition scenario: about 80 s).
type stallingRuns struct {
	store.Runs
	mu      sync.Mutex
	armed   bool
	stalled chan struct{} // closed when an Update hangs
}

func (s *stallingRuns) Update(ctx context.Context, ws, id string, attempt int, fn func(*model.Run) error) (model.Run, error) {
	s.mu.Lock()
	stall := s.armed
	s.armed = false
	s.mu.Unlock()
	if stall {
		close(s.stalled)
		<-ctx.Done()
		return model.Run{}, ctx.Err()
	}
	return s.Runs.Update(ctx, ws, id, attempt, fn)
}

// A solve that ends while the supervisor's refresh of the run record
// hangs goes on to store its results at once: the refresh is abandoned
// (nothing is left to report once the solve has ended) instead of
// holding the results back until it returns. Before, the worker waited
// for the refresh, so a worker cut off from the network never tried to
// store its results while it was cut off.
func TestSolveEndsWhileARefreshHangs(t *testing.T) {
	srv := redistest.StartSingle(t)
	r, runs := emptyJobRunnerOn(t, srv, "w")
	stall := &stallingRuns{Runs: runs, stalled: make(chan struct{})}
	r.Runs = stall
	if err := runs.Start(context.Background(), "w", model.Run{RunID: "r1", AnalysisType: "Toy", Status: model.RunQueued,
		QueuedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	r.Name, r.Tick = "a", 5*time.Millisecond
	var log logtest.Buffer
	r.Log = slog.New(slog.NewTextHandler(&log, nil))
	r.Kinds = toyKinds(func(context.Context) error {
		stall.mu.Lock()
		stall.armed = true
		stall.mu.Unlock()
		<-stall.stalled // the supervisor's next refresh hangs
		return nil
	})
	err := await(t, goRun(context.Background(), r, lifecycle.Task{Workspace: "w", RunID: "r1", Kind: "Toy"}), "the task")
	if err != nil {
		t.Fatalf("the task: %v; log:\n%s", err, log.String())
	}
	run, err := runs.Run(context.Background(), "w", "r1")
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != model.RunCompleted || storedWorker(t, r.Results, "w") != "a" {
		t.Errorf("run %s with results of %q, want Completed with a's", run.Status, storedWorker(t, r.Results, "w"))
	}
}
