package lifecycle

import (
	"context"
	"errors"
	"time"

	"github.com/gusset/gusset/pkg/store"
)

// DefaultPatience is how long an attempt whose solve has ended keeps
// trying to store its results while the store cannot be reached
// (Runner.Patience). It outlasts the 1 to about 2 min 10 s the queue takes
// to hand a lost worker's task to another worker, so that a worker cut
// off from Redis for about that long learns, once it is reached again,
// whether its results still count: stored when the run is still its
// attempt's, refused by the fence when another attempt took the run. A
// worker cut off for longer gives its results up and returns the task,
// which the queue's retries settle.
const DefaultPatience = 5 * time.Minute

// The waits between the tries of a patient write: the first, doubled
// after each try, up to the last, so that a short blip costs little and a
// long outage few tries.
const (
	firstPatientWait = 250 * time.Millisecond
	lastPatientWait  = 5 * time.Second
)

// patiently makes write, and makes it again while it fails because the
// store cannot be reached (store.ErrUnreachable), waiting longer each
// time, until until has passed or ctx ends. Any other outcome, a refusal
// (a cancel, the fence) included, is returned at once.
func (r *Runner) patiently(ctx context.Context, t Task, until time.Time, write func(context.Context) error) error {
	wait := firstPatientWait
	for tries := 1; ; tries++ {
		err := write(ctx)
		if !errors.Is(err, store.ErrUnreachable) {
			if tries > 1 {
				r.Log.Info("store reached again", "workspace", t.Workspace, "run", t.RunID, "tries", tries, "err", err)
			}
			return err
		}
		left := time.Until(until)
		if tries == 1 {
			r.Log.Warn("the store cannot be reached: storing the results is tried again until the patience runs out",
				"workspace", t.Workspace, "run", t.RunID, "patience", max(left, 0).Round(time.Second), "err", err)
		}
		if left <= 0 {
			r.Log.Warn("the store could not be reached within the patience: the results are dropped", "workspace", t.Workspace,
				"run", t.RunID, "tries", tries, "err", err)
			return err
		}
		timer := time.NewTimer(min(wait, left))
		select {
		case <-ctx.Done():
			timer.Stop()
			return err
		case <-timer.C:
		}
		wait = min(2*wait, lastPatientWait)
	}
}

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
