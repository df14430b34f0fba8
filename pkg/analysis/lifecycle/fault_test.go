package lifecycle_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/model"
)

// solverKind is a kind whose run is solve's solver, for the runner r and
// task t, carried through Execute.
type solverKind struct {
	solve func(r *lifecycle.Runner, t lifecycle.Task) lifecycle.Solver
}

func (k solverKind) Run(ctx context.Context, r *lifecycle.Runner, t lifecycle.Task) error {
	return r.Execute(ctx, t, []string{"Solving", "Storing results"}, k.solve(r, t))
}

// solverKinds serves solverKind under every type.
type solverKinds struct{ solverKind }

func (k solverKinds) Handler(model.AnalysisType) lifecycle.Handler { return k.solverKind }
func (solverKinds) Describe(t model.AnalysisType) string           { return string(t) }

// faultKinds serve a kind whose solve meets the fault err.
func faultKinds(err error) solverKinds {
	return solverKinds{solverKind{func(*lifecycle.Runner, lifecycle.Task) lifecycle.Solver {
		return func(context.Context, model.Job, *lifecycle.Progress) (lifecycle.Publisher, error) { return nil, err }
	}}}
}

// A fault of the solver fails the run at once, saying it is the service's
// fault and not the model's, and is logged as an error; the task is not
// returned for another attempt (the engine would fail alike). A model
// error fails the run with the engine's words and is not logged so.
func TestSolverFaultFailsTheRun(t *testing.T) {
	for _, tc := range []struct {
		name, msg string
		err       error
		logged    bool
	}{
		{"solver fault", "internal solver fault (please report it): factor stiffness: broken invariant",
			adapter.EngineError(errors.New("factor stiffness: broken invariant")), true},
		{"model error", "member 3 has zero length", adapter.EngineError(model.E(model.KindValidation, "member 3 has zero length")), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			r, runs := emptyJobRunner(t, "w")
			var log bytes.Buffer
			r.Log = slog.New(slog.NewTextHandler(&log, nil))
			r.Kinds = faultKinds(tc.err)
			if err := runs.Start(ctx, "w", model.Run{RunID: "r1", AnalysisType: "Toy", Status: model.RunQueued, QueuedAt: time.Now()}); err != nil {
				t.Fatal(err)
			}
			err := r.Run(ctx, lifecycle.Task{Workspace: "w", RunID: "r1", Kind: "Toy"})
			if err != nil && model.KindOf(err) != model.KindValidation {
				t.Errorf("Run returned %v: the queue would retry it", err)
			}
			run, rerr := runs.Run(ctx, "w", "r1")
			if rerr != nil || run.Status != model.RunFailed || run.ErrorMessage != tc.msg {
				t.Fatalf("run %s %q (%v), want Failed %q", run.Status, run.ErrorMessage, rerr, tc.msg)
			}
			if got := strings.Contains(log.String(), "level=ERROR msg=\"internal solver fault\""); got != tc.logged {
				t.Errorf("logged as an internal fault: %v, want %v; log:\n%s", got, tc.logged, log.String())
			}
		})
	}
}
