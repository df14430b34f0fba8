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

// faultKind is a kind whose solve meets a fault of the solver.
type faultKind struct{ err error }

func (k faultKind) Run(ctx context.Context, r *lifecycle.Runner, t lifecycle.Task) error {
	return r.Execute(ctx, t, []string{"Solving", "Storing results"},
		func(context.Context, model.Job, *lifecycle.Progress) (lifecycle.Publisher, error) { return nil, k.err })
}

// faultKinds serves faultKind under every type.
type faultKinds struct{ faultKind }

func (k faultKinds) Handler(model.AnalysisType) lifecycle.Handler { return k.faultKind }
func (faultKinds) Describe(t model.AnalysisType) string           { return string(t) }

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
			r.Kinds = faultKinds{faultKind{tc.err}}
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
