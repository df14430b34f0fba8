package lifecycle

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// ModelError is a failure of the model, or of the settings against the
// model: the user must change something, and retrying cannot help. It is
// a model.KindValidation error; a run that returns one ends Failed with
// its message (settle), and the queue does not retry its task.
func ModelError(format string, args ...any) error {
	return model.E(model.KindValidation, format, args...)
}

// Publisher stores a run's results and completes the run in the same
// transaction, by Runner.Publish with complete, which is applied to the
// run record just before it is written. rev is the model revision read
// at the run's start. The lifecycle calls it again when the store could
// not be reached (Runner.Patience), so it must not consume what it
// stores.
type Publisher func(ctx context.Context, rev int64, complete Completion) error

// Completion is how a run is completed as its results are stored: the
// lifecycle hands one to a Publisher, which passes it on to
// Runner.Publish. It carries the attempt that solved the results, so that
// the store refuses them once another attempt holds the run
// (store.ErrRunSuperseded), whatever the kind does with it.
type Completion struct {
	attempt int
	apply   func(*model.Run)
}

// Solver is the part of a run that differs by kind: it analyses the job's
// model (moving lv along steps) and returns how to store the results.
type Solver func(ctx context.Context, job model.Job, lv *Progress) (Publisher, error)

// Execute carries a run through its life: it marks the run Running, keeps
// the run record current while solve works (progress, heartbeat, cancel
// requests), stores the results and completes the run, or ends it
// Cancelled or Failed. The last of steps is storing the results.
func (r *Runner) Execute(ctx context.Context, t Task, steps []string, solve Solver) error {
	return r.execute(ctx, t, steps, solve, nil)
}

// execute is Execute. With handOff set, the run does not end here: once
// solve has returned (its Publisher is not used) and the run record is no
// longer refreshed, handOff passes the run on (a fan-out queues its
// parts), unless a cancel came first.
func (r *Runner) execute(ctx context.Context, t Task, steps []string, solve Solver, handOff func(ctx context.Context, lv *Progress) error) error {
	lv := &Progress{percent: make([]float64, len(steps))}
	defer lv.releaseMemory()
	job, slot, err := r.Jobs.Job(ctx, t.Workspace)
	if model.KindOf(err) == model.KindNoJobOpen {
		_, err = r.finish(ctx, t, store.AnyAttempt, model.RunFailed, "the job was closed before the analysis started", nil)
		return err
	}
	if err != nil {
		return err
	}
	attempt, err := r.begin(ctx, t, job, func(run *model.Run) { lv.apply(run, steps) })
	if attempt == 0 || err != nil {
		return err
	}
	lv.attempt = attempt

	solveCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := make(chan struct{})
	supervised := r.supervise(ctx, t, attempt, func() func(*model.Run) { return func(run *model.Run) { lv.apply(run, steps) } }, cancel, stop)
	publish, err := solve(solveCtx, job, lv)
	// The supervisor stops before anything is published: the publish
	// transaction watches the run record, and a refresh landing while it
	// is under way would abort it (every time, once storing the results
	// takes longer than a tick). A cancel requested from here on reaches
	// the publish itself, which finds the run no longer Running.
	close(stop)
	stopped := <-supervised
	cancelled := errors.Is(stopped, store.ErrRunCancelled)
	switch {
	case errors.Is(stopped, store.ErrRunSuperseded):
		err = stopped // the solve was stopped for it: what it returned is of no use
	case err == nil && handOff == nil && cancelled:
		err = store.ErrRunCancelled // solved, but the cancel came first
	}
	if err == nil && handOff == nil {
		err = r.storeResults(ctx, t, attempt, steps, lv, slot.Rev, publish)
	}
	switch {
	case handOff != nil && cancelled:
		// Cancelled before the run was handed on, whatever the plan made
		// of it: nothing will use what it staged, and no part will end
		// the run, so it ends here.
		err = errors.Join(store.ErrRunCancelled, r.FanOut.Discard(ctx, t.Workspace, t.RunID))
	case handOff != nil && err == nil:
		err = handOff(ctx, lv)
	}
	// A superseded attempt comes here with nothing handed on: the later
	// attempt owns the run and its fan-out state, and settle ends only
	// this attempt.
	err = r.settle(ctx, t, attempt, err, cancelled, func(run *model.Run) { lv.apply(run, steps) })
	if err != nil && model.KindOf(err) != model.KindValidation && lv.heldMemory() {
		// The attempt ends here, not lost: the next one must not take
		// its reservation for that of a worker that died (begin).
		r.forgetReservation(ctx, t, attempt)
	}
	return err
}

// storeResults shows the last of steps in t's run record, then stores the
// results and completes the run (publish), unless a cancel was accepted
// first. Both writes are made patiently (Runner.Patience), on a context
// that the task's does not cancel: the queue cancels the task's when the
// worker's lease on it runs out, as it does when the worker is cut off
// from the store, and a solve that ended then is not thrown away for it.
// Once the store is reached again the results are either stored (the
// run is still this attempt's) or refused by the fence (another attempt
// took the run meanwhile, or it ended). The task's deadline still holds.
func (r *Runner) storeResults(ctx context.Context, t Task, attempt int, steps []string, lv *Progress, rev int64, publish Publisher) error {
	deadline, bounded := ctx.Deadline()
	ctx = context.WithoutCancel(ctx)
	if bounded {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	until := time.Now().Add(r.Patience)
	last := len(steps) - 1
	lv.stage(last, 0)
	// The record shows the last step, with a fresh heartbeat, before
	// storing begins.
	err := r.patiently(ctx, t, until, func(ctx context.Context) error {
		_, err := r.Runs.Update(ctx, t.Workspace, t.RunID, attempt, func(run *model.Run) error {
			lv.apply(run, steps)
			now := r.Now().UTC()
			run.HeartbeatAt = &now
			return nil
		})
		return err
	})
	if errors.Is(err, store.ErrRunFinished) {
		return store.ErrRunCancelled // ended without this task: nothing to store
	}
	if err != nil {
		return err
	}
	// Storing the results completes the run in the same transaction,
	// unless a cancel was accepted first. The lock keeps the model from
	// changing during the run, so the revision read at its start is the
	// one the results belong to.
	var done model.Run
	complete := Completion{attempt: attempt, apply: func(run *model.Run) {
		lv.stage(last, 100)
		r.end(run, model.RunCompleted, "", func(run *model.Run) {
			lv.apply(run, steps)
			run.HeartbeatAt = run.CompletedAt
			run.Progress.StatusText = "Analysis completed"
		})
		done = *run
	}}
	err = r.patiently(ctx, t, until, func(ctx context.Context) error { return publish(ctx, rev, complete) })
	if err == nil {
		r.observe(t, done)
	}
	return err
}

// supervise keeps t's run record current, as attempt's (store.AnyAttempt
// for a fanned-out run's part), until stop is closed: every tick it calls
// next, once, and applies the change it returns to the record (which may
// take more than one try of the transaction), and refreshes the
// heartbeat. When a cancel is requested, or the run ended without this
// task (reaped as lost: its answer has nowhere to go), it cancels the
// solve; when another attempt holds the run, it cancels the solve and
// writes nothing more. The channel yields, once stop is closed, why it
// cancelled: store.ErrRunCancelled, store.ErrRunSuperseded, or nil. Every
// task of a run, a fanned-out run's parts included, is supervised so.
func (r *Runner) supervise(ctx context.Context, t Task, attempt int, next func() func(*model.Run), cancel context.CancelFunc,
	stop <-chan struct{}) <-chan error {
	out := make(chan error, 1)
	go func() {
		var stopped error
		tick := time.NewTicker(r.Tick)
		defer tick.Stop()
		// A refresh under way when stop is closed is abandoned, its
		// context cancelled: once the solve has ended nothing is left to
		// report, and a refresh caught in a partition (dials and name
		// lookups timing out one after another) would otherwise hold the
		// results back from being stored for as long. It lands at most
		// once more, which a publish's transaction survives by trying
		// again.
		uctx, abandon := context.WithCancel(ctx)
		defer abandon()
		type refreshed struct {
			run model.Run
			err error
		}
		for {
			select {
			case <-stop:
				out <- stopped
				return
			case <-tick.C:
			}
			if errors.Is(stopped, store.ErrRunSuperseded) {
				continue
			}
			update := next()
			done := make(chan refreshed, 1)
			go func() {
				run, err := r.Runs.Update(uctx, t.Workspace, t.RunID, attempt, func(run *model.Run) error {
					update(run)
					now := r.Now().UTC()
					run.HeartbeatAt = &now
					return nil
				})
				done <- refreshed{run, err}
			}()
			var res refreshed
			select {
			case <-stop:
				out <- stopped
				return
			case res = <-done:
			}
			run, err := res.run, res.err
			switch {
			case errors.Is(err, store.ErrRunSuperseded):
				// Also after a cancel: the later attempt ends the run.
				stopped = store.ErrRunSuperseded
				cancel()
			case stopped != nil:
			case errors.Is(err, store.ErrRunFinished), err == nil && run.Status == model.RunCancelling:
				stopped = store.ErrRunCancelled
				cancel()
			case err != nil && ctx.Err() == nil:
				r.Log.Warn("refresh run record", "run", t.RunID, "part", t.LoadCase, "err", err)
			}
		}
	}()
	return out
}

// settle ends t's run, as attempt's, by the error of its work: nil
// leaves it as the work left it; a cancel (cancelled, or the store
// refusing to publish after one) ends it Cancelled; a model error Failed,
// returned as model.KindValidation so that the queue does not retry it; a
// solver fault (adapter.SolverFault) Failed too, logged as an error; an
// interrupted context or any other error is returned for another attempt.
// fn is applied to the record of a run it ends. An attempt that another
// has superseded (store.ErrRunSuperseded, from its work or from ending
// the run) ends with nil and leaves the run to the later attempt: the
// queue must not run the task again for it.
func (r *Runner) settle(ctx context.Context, t Task, attempt int, err error, cancelled bool, fn func(*model.Run)) error {
	var me *model.Error
	var fault *adapter.SolverFault
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrRunSuperseded):
		// Nothing to end: the run is the later attempt's.
	case cancelled || errors.Is(err, store.ErrRunCancelled):
		_, err = r.finish(ctx, t, attempt, model.RunCancelled, "", fn)
	case errors.As(err, &me) && me.Kind == model.KindValidation:
		// The message without the operations that wrapped it: the user
		// reads what is wrong, not where the service noticed.
		msg := me.Msg
		if msg == "" {
			msg = me.Error()
		}
		_, ferr := r.finish(ctx, t, attempt, model.RunFailed, msg, fn)
		err = errors.Join(model.E(model.KindValidation, "%s", msg), ferr)
	case errors.As(err, &fault):
		// The engine is deterministic: another attempt would fail alike.
		r.Log.Error("internal solver fault", "workspace", t.Workspace, "run", t.RunID, "kind", string(t.Kind),
			"part", t.LoadCase, "err", fault.Err)
		_, err = r.finish(ctx, t, attempt, model.RunFailed, fault.Error(), fn)
	case ctx.Err() != nil:
		// The worker is stopping or lost its lease: another attempt runs it.
		return fmt.Errorf("run %s interrupted: %w", t.RunID, ctx.Err())
	default:
		return fmt.Errorf("run %s: %w", t.RunID, err)
	}
	if errors.Is(err, store.ErrRunSuperseded) {
		r.fenced(ctx, t, attempt, err)
		return nil
	}
	return err
}

// begin marks t's run Running, as a new attempt of a worker, with the
// job's header, then applies fn. It returns the attempt, which fences
// every later write of this task to the run (store.ErrRunSuperseded); 0
// when the run ended instead (cancelled before a worker took it, or
// finished meanwhile).
func (r *Runner) begin(ctx context.Context, t Task, job model.Job, fn func(*model.Run)) (int, error) {
	// resumed is set by the update function, which may run more than once
	// (optimistic transactions): only the attempt that was stored counts.
	var resumed bool
	var refused string
	started, err := r.Runs.Update(ctx, t.Workspace, t.RunID, store.AnyAttempt, func(run *model.Run) error {
		now := r.Now().UTC()
		resumed = false
		if refused = lostNearBudget(run); refused != "" && run.Status == model.RunRunning {
			r.end(run, model.RunFailed, refused, nil)
			return nil
		}
		refused = ""
		run.MemoryReserved, run.MemoryBudget = 0, 0
		if run.Status == model.RunCancelling {
			// Cancelled while this worker took the task: end it here, in
			// the same transaction that would have started it.
			run.Status, run.CompletedAt = model.RunCancelled, &now
			run.Progress.StatusText = "Cancelled before it started"
			return nil
		}
		run.Status, run.HeartbeatAt = model.RunRunning, &now
		if run.StartedAt == nil {
			run.StartedAt = &now
		}
		run.Attempt++
		run.Header = r.header(t.Kind, job.Headings)
		resumed = run.Attempt > 1
		if resumed {
			run.Progress.Messages = append(run.Progress.Messages, model.RunMessage{Level: "Warning",
				Text: fmt.Sprintf("attempt %d on %s: the previous attempt did not finish (its worker was stopped or lost)",
					run.Attempt, r.WorkerName()), Timestamp: now})
		}
		fn(run)
		return nil
	})
	if errors.Is(err, store.ErrRunFinished) || started.Status == model.RunCancelled {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if refused != "" {
		r.Log.Warn("run not resumed: its last worker was lost near its memory budget", "workspace", t.Workspace, "run", t.RunID,
			"kind", string(t.Kind), "reserved", started.MemoryReserved, "budget", started.MemoryBudget)
		r.observe(t, started)
		return 0, nil
	}
	if resumed && r.Resumed != nil {
		r.Resumed(t.Kind)
	}
	// Which worker solves which run, for operators reading the logs.
	r.Log.Info("run started", "workspace", t.Workspace, "run", t.RunID, "kind", string(t.Kind),
		"attempt", started.Attempt, "worker", r.WorkerName())
	return started.Attempt, nil
}

// Publish stores set as the results of kind, deletes the columns drop
// names and completes the run as complete says (store.Results.Publish,
// fenced by complete's attempt).
func (r *Runner) Publish(ctx context.Context, t Task, kind model.AnalysisFamily, set store.ResultSet, drop []string, rows []store.Op,
	complete Completion) error {
	err := r.Results.Publish(ctx, t.Workspace, t.RunID, complete.attempt, kind, set, drop, rows, complete.apply)
	if model.KindOf(err) == model.KindConflict && !errors.Is(err, store.ErrRunCancelled) && !errors.Is(err, store.ErrRunSuperseded) {
		if r.publishedBefore(ctx, t, complete.attempt) {
			return nil
		}
		// The run no longer holds the workspace (reaped as lost): nothing
		// is written, and nothing more to do.
		return ModelError("%s", err.Error())
	}
	if model.KindOf(err) == model.KindStorageFull {
		// Another attempt would solve again only to be refused again: the
		// run ends Failed, saying why, and nothing of its results is kept.
		return ModelError("the results could not be stored: %s; then run the analysis again", err.Error())
	}
	return err
}

// publishedBefore reports whether t's run was completed by attempt: the
// one write that completes a run of a fenced attempt is its publish, so a
// publish tried again after its reply was lost (the store cut off as it
// answered) finds its own results stored.
func (r *Runner) publishedBefore(ctx context.Context, t Task, attempt int) bool {
	if attempt == store.AnyAttempt {
		return false
	}
	run, err := r.Runs.Run(ctx, t.Workspace, t.RunID)
	return err == nil && run.Status == model.RunCompleted && run.Attempt == attempt
}

// mergeCases returns the case records a run stores (fresh, and with
// retain the old ones of cases it did not analyse), by load case, and the
// columns (of cols, per case) of the old cases it drops or replaces.
func MergeCases[C any](old, fresh []C, retain bool, cols []string, lc func(C) int64) ([]C, []string) {
	isFresh := map[int64]bool{}
	for _, c := range fresh {
		isFresh[lc(c)] = true
	}
	var out []C
	var drop []string
	for _, c := range old {
		if retain && !isFresh[lc(c)] {
			out = append(out, c)
			continue
		}
		for _, col := range cols {
			drop = append(drop, columns.CaseColumn(lc(c), col))
		}
	}
	out = append(out, fresh...)
	slices.SortFunc(out, func(a, b C) int { return cmp.Compare(lc(a), lc(b)) })
	return out, drop
}
