package lifecycle_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// admitKind is a kind whose solve admits need bytes, then fails with
// err (nil: it stops there with a model error, so nothing is published).
type admitKind struct {
	need   int64
	err    error
	solved *bool
}

func (k admitKind) Run(ctx context.Context, r *lifecycle.Runner, t lifecycle.Task) error {
	return r.Execute(ctx, t, []string{"Solving", "Storing results"},
		func(ctx context.Context, _ model.Job, lv *lifecycle.Progress) (lifecycle.Publisher, error) {
			*k.solved = true
			if err := r.Admit(ctx, t, lv, k.need, "a test"); err != nil {
				return nil, err
			}
			if k.err != nil {
				return nil, k.err
			}
			return nil, lifecycle.ModelError("stop after admission")
		})
}

func (k admitKind) Handler(model.AnalysisType) lifecycle.Handler { return k }
func (admitKind) Describe(t model.AnalysisType) string           { return string(t) }

// Admission against a budget of 1000 bytes: a run that needs more fails
// at once with the estimate and the budget, as a model error (not
// retried); one that fits runs. A run whose earlier attempt's worker was
// lost while it held half the budget or more is failed by the next
// attempt without being solved; one that held less runs again. An
// attempt that ends with an error to retry clears its reservation, so
// that the next attempt does not take it for a lost worker's.
func TestAdmit(t *testing.T) {
	const budget = 1000
	for _, tc := range []struct {
		name string
		need int64
		err  error
		// prior is the reservation a lost earlier attempt left; 0 for a
		// first attempt.
		prior     int64
		status    model.RunStatus
		msg       string // in the run's error message
		solved    bool
		retry     bool  // Run returns an error to retry
		reserved  int64 // in the record afterwards
		validated bool  // Run returns a model.KindValidation error
	}{
		{name: "too large", need: 1001, status: model.RunFailed, solved: true, validated: true,
			msg: "needs about 1 KiB of memory (a test), more than the 1 KiB this worker may use (WORKER_MEMORY)"},
		{name: "fits", need: 1000, status: model.RunFailed, solved: true, validated: true, reserved: 1000,
			msg: "stop after admission"},
		{name: "lost near the budget", need: 10, prior: 500, status: model.RunFailed, solved: false, reserved: 500,
			msg: "the worker of attempt 1 was lost while this run held 1 KiB of the 1 KiB it may use"},
		{name: "lost far below the budget", need: 10, prior: 499, status: model.RunFailed, solved: true, validated: true,
			reserved: 10, msg: "stop after admission"},
		{name: "retried attempt", need: 600, err: errors.New("redis went away"), status: model.RunRunning, solved: true,
			retry: true, reserved: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			r, runs := emptyJobRunner(t, "w")
			r.Memory = lifecycle.NewMemoryBudget(budget)
			solved := false
			r.Kinds = admitKind{need: tc.need, err: tc.err, solved: &solved}
			if err := runs.Start(ctx, "w", model.Run{RunID: "r1", AnalysisType: "Toy", Status: model.RunQueued, QueuedAt: time.Now()}); err != nil {
				t.Fatal(err)
			}
			if tc.prior > 0 {
				// What a worker that died after admitting the run leaves.
				if _, err := runs.Update(ctx, "w", "r1", store.AnyAttempt, func(run *model.Run) error {
					run.Status, run.Attempt, run.MemoryReserved, run.MemoryBudget = model.RunRunning, 1, tc.prior, budget
					return nil
				}); err != nil {
					t.Fatal(err)
				}
			}
			err := r.Run(ctx, lifecycle.Task{Workspace: "w", RunID: "r1", Kind: "Toy"})
			if got := model.KindOf(err) == model.KindValidation; got != tc.validated {
				t.Errorf("Run: %v, model error %v, want %v", err, got, tc.validated)
			}
			if got := err != nil && !tc.validated; got != tc.retry {
				t.Errorf("Run: %v, to retry %v, want %v", err, got, tc.retry)
			}
			run, err := runs.Run(ctx, "w", "r1")
			if err != nil {
				t.Fatal(err)
			}
			if run.Status != tc.status || !strings.Contains(run.ErrorMessage, tc.msg) {
				t.Errorf("run %s %q, want %s with %q", run.Status, run.ErrorMessage, tc.status, tc.msg)
			}
			if solved != tc.solved {
				t.Errorf("solved %v, want %v", solved, tc.solved)
			}
			if run.MemoryReserved != tc.reserved {
				t.Errorf("reservation recorded %d, want %d", run.MemoryReserved, tc.reserved)
			}
			if used := r.Memory.Used(); used != 0 {
				t.Errorf("%d bytes still reserved after the task ended", used)
			}
		})
	}
}
