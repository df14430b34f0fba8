package lifecycle

import (
	"context"
	"time"
)

// fenced reports a write of t's attempt that the store refused because
// another attempt holds the run (store.ErrRunSuperseded), with the
// attempt the run is at now, so that an operator sees which worker's
// work stands; and counts it (Runner.Fenced).
func (r *Runner) fenced(ctx context.Context, t Task, attempt int, err error) {
	args := []any{"workspace", t.Workspace, "run", t.RunID, "kind", string(t.Kind), "part", t.LoadCase,
		"attempt", attempt, "worker", r.WorkerName()}
	// The refusal may come as the task's context ends (the queue gave the
	// task up): the run is read on a context of its own.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if run, rerr := r.Runs.Run(rctx, t.Workspace, t.RunID); rerr == nil {
		args = append(args, "current", run.Attempt, "status", string(run.Status))
	}
	r.Log.Warn("write refused: another attempt of the run holds it, so this attempt's work is dropped", append(args, "err", err)...)
	if r.Fenced != nil {
		r.Fenced(t.Kind)
	}
}
