package lifecycle_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// bigResultKinds serve a kind whose results are one column of size bytes.
func bigResultKinds(size int) solverKinds {
	return solverKinds{solverKind{func(r *lifecycle.Runner, t lifecycle.Task) lifecycle.Solver {
		return func(context.Context, model.Job, *lifecycle.Progress) (lifecycle.Publisher, error) {
			return func(ctx context.Context, _ int64, complete lifecycle.Completion) error {
				set := store.ResultSet{Meta: json.RawMessage(`{}`), Columns: map[string][]byte{"c": make([]byte, size)}}
				return r.Publish(ctx, t, "toy", set, nil, nil, complete)
			}, nil
		}
	}}}
}

// Results that do not fit in a full Redis end the run Failed, saying the
// storage is full, and release the workspace; the task is not returned
// for another attempt, which would solve again only to be refused again.
func TestResultsThatDoNotFitFailTheRun(t *testing.T) {
	ctx := context.Background()
	srv := redistest.StartSingle(t)
	r, runs := emptyJobRunnerOn(t, srv, "w")
	// 1 MiB of results against 256 KiB of room.
	r.Kinds = bigResultKinds(1 << 20)
	if err := runs.Start(ctx, "w", model.Run{RunID: "r1", AnalysisType: "Toy", Status: model.RunQueued, QueuedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	srv.SetMaxMemory(t, 256<<10)
	err := r.Run(ctx, lifecycle.Task{Workspace: "w", RunID: "r1", Kind: "Toy"})
	if err != nil && model.KindOf(err) != model.KindValidation {
		t.Errorf("Run returned %v: the queue would retry it", err)
	}
	run, err := runs.Run(ctx, "w", "r1")
	if err != nil || run.Status != model.RunFailed || !strings.Contains(run.ErrorMessage, "storage is full") {
		t.Fatalf("run %s %q (%v), want Failed saying the storage is full", run.Status, run.ErrorMessage, err)
	}
	if h, err := runs.Holder(ctx, "w"); h != "" || err != nil {
		t.Errorf("lock still held by %q (%v)", h, err)
	}
}

// A fanned-out run on a Redis that fills up while its parts are solved:
// each part's staged results are refused, and the part fails, saying the
// storage is full, instead of going back to the queue to be refused again
// (the task failed with the store's error before). The run then ends
// Failed with no part stored, releasing the workspace and leaving no
// fan-out state.
func TestFannedOutRunOnAFullRedis(t *testing.T) {
	e := newFanEnv(t, 2)
	run := e.start()
	if !e.work(run.RunID) { // the parent plans and queues the parts
		t.Fatal("no parent task")
	}
	e.srv.SetMaxMemory(t, -64<<10)
	e.drain()
	got := e.endState(run.RunID, model.RunFailed)
	full := 0
	for _, m := range got.Progress.Messages {
		if strings.Contains(m.Text, "storage is full") {
			full++
		}
	}
	if full != 2 {
		t.Errorf("%d messages say the storage is full, want one per part; messages %+v", full, got.Progress.Messages)
	}
}
