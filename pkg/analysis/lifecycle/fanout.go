package lifecycle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// A run of a kind that fans out (FanOutKind) is solved in parts, one per
// load case, so that more workers finish a run of many cases sooner. Its
// own task goes through the one lifecycle (Runner.execute) like any run:
// the kind plans the parts while the run is supervised, and instead of
// publishing, the lifecycle records the parts as pending (store.FanOut)
// and queues a sub-task for each, so that the task holds no worker while
// they are solved. Any idle worker takes a sub-task; the kind solves its
// part and stages the results, supervised as any run is (heartbeat,
// progress, cancel), and the part counts itself done. The sub-task that
// leaves no part pending completes the run: the kind gathers what the
// parts staged, and the results are published in one transaction, or the
// run ends Cancelled when a cancel came. A part that fails fails alone:
// the run completes with the others and warns.

// FanOutKind is the Handler of a kind whose runs fan out over the workers in parts. Its
// Run is Runner.RunFannedOut.
type FanOutKind interface {
	Handler
	// Plan reads and checks the job's model for the run of t, so that a
	// model the kind cannot analyse fails the run before any part is
	// queued, stages what the parts share (as part SharedPart), and
	// returns the parts.
	Plan(ctx context.Context, r *Runner, t Task, job model.Job, p *Progress) (FanOutPlan, error)
	// SolvePart solves part t.LoadCase and stages its results, or its
	// failure, reporting its iterations to p as they come. An error is
	// for another attempt (the worker stopping, the store failing); after
	// a cancel, whatever it returns, nothing of the part is kept.
	SolvePart(ctx context.Context, r *Runner, t Task, job model.Job, p *PartProgress) (PartOutcome, error)
	// Gather returns how to publish what the parts staged (by part;
	// SharedPart holds what Plan staged) and the warnings of the parts
	// that failed. It returns a model error (ModelError) when no part has
	// results, with the warnings all the same.
	Gather(ctx context.Context, r *Runner, t Task, job model.Job, staged map[int64]store.ResultSet) (Publisher, []string, error)
}

// SharedPart is the part under which a fanned-out run stages what its
// parts share (load case ids, the parts', start at 1).
const SharedPart = 0

// FanOutPlan is how a run fans out: its parts, ascending (load case
// ids), and what each part's sub-task carries besides.
type FanOutPlan struct {
	Parts []int64
	// Prepare, when set, completes the sub-task of part i (Parts[i]), as
	// the run's own task planned it, so that every attempt numbers alike.
	Prepare func(i int, sub *Task)
}

// PartOutcome is what the run record is told of a solved part: a warning
// when it failed, otherwise an information line; both empty when it was
// cancelled.
type PartOutcome struct {
	Failed, Info string
	// Points are iterations not yet in the run's convergence history.
	Points []model.ConvergencePoint
}

// fanOutSteps are the steps of a fanned-out run as the progress shows
// them.
var fanOutSteps = []string{"Reading the model", "Solving load cases", "Storing results"}

// fanOutSolve is the index of the step that solves the parts.
const fanOutSolve = 1

// SubTaskID is the queue id of the sub-task that solves part lc of run
// runID.
func SubTaskID(runID string, lc int64) string { return runID + "/" + strconv.FormatInt(lc, 10) }

// PartProgress gathers a part's iterations between the ticks that publish
// them into the run's convergence history. It is safe for concurrent use.
type PartProgress struct {
	mu     sync.Mutex
	points []model.ConvergencePoint
}

// Add records one iteration.
func (p *PartProgress) Add(pt model.ConvergencePoint) {
	p.mu.Lock()
	p.points = append(p.points, pt)
	p.mu.Unlock()
}

// take returns the points gathered since the last call.
func (p *PartProgress) take() []model.ConvergencePoint {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.points
	p.points = nil
	return out
}

// appendHistory appends pts to the run's convergence history, numbering
// them on from its last iteration and keeping the latest
// model.MaxConvergencePoints.
func appendHistory(run *model.Run, pts []model.ConvergencePoint) {
	next := 1
	if n := len(run.ConvergenceHistory); n > 0 {
		next = run.ConvergenceHistory[n-1].Iteration + 1
	}
	for _, p := range pts {
		p.Iteration = next
		next++
		run.ConvergenceHistory = append(run.ConvergenceHistory, p)
	}
	if over := len(run.ConvergenceHistory) - model.MaxConvergencePoints; over > 0 {
		run.ConvergenceHistory = append(run.ConvergenceHistory[:0:0], run.ConvergenceHistory[over:]...)
	}
}

// RunFannedOut runs a task of k: the run's own task (plan and queue the
// parts) or the sub-task of one part.
func (r *Runner) RunFannedOut(ctx context.Context, k FanOutKind, t Task) error {
	if t.LoadCase != 0 {
		return r.runPart(ctx, k, t)
	}
	var plan FanOutPlan
	return r.execute(ctx, t, fanOutSteps, func(ctx context.Context, job model.Job, lv *Progress) (Publisher, error) {
		var err error
		plan, err = k.Plan(ctx, r, t, job, lv)
		return nil, err
	}, func(ctx context.Context, lv *Progress) error { return r.dispatch(ctx, t, plan, lv) })
}

// dispatch records the parts as pending and queues their sub-tasks, as
// the attempt lv is of: an attempt that another has superseded records
// and queues nothing (store.ErrRunSuperseded). A repeated attempt
// re-queues the parts not done yet: a part solved twice stages the same
// results.
func (r *Runner) dispatch(ctx context.Context, t Task, plan FanOutPlan, lv *Progress) error {
	prev, err := r.Runs.Run(ctx, t.Workspace, t.RunID)
	if err != nil {
		return err
	}
	if !prev.FanOut {
		// Only the first attempt that gets this far records the parts: a
		// later one must not count again a part whose sub-task already
		// counted itself done (and may be finishing, its queue id taken).
		if err := r.FanOut.Begin(ctx, t.Workspace, t.RunID, lv.attempt, plan.Parts); err != nil {
			return err
		}
	}
	lv.stage(fanOutSolve, 0)
	_, err = r.Runs.Update(ctx, t.Workspace, t.RunID, lv.attempt, func(run *model.Run) error {
		lv.apply(run, fanOutSteps)
		run.FanOut = true
		now := r.Now().UTC()
		run.HeartbeatAt = &now // the sub-tasks are not queued yet: not lost
		run.Progress.StatusText = fmt.Sprintf("Solving load cases: 0 of %d done", len(plan.Parts))
		return nil
	})
	if errors.Is(err, store.ErrRunFinished) {
		return nil // ended meanwhile
	}
	if err != nil {
		return err
	}
	// Queue the parts not done yet; a sub-task still queued or under way
	// stays as it is (Enqueue ignores its id).
	todo, err := r.FanOut.Pending(ctx, t.Workspace, t.RunID)
	if err != nil {
		return err
	}
	index := make(map[int64]int, len(plan.Parts))
	for i, lc := range plan.Parts {
		index[lc] = i
	}
	for _, lc := range todo {
		sub := t
		sub.LoadCase = lc
		if i, ok := index[lc]; ok && plan.Prepare != nil {
			plan.Prepare(i, &sub)
		}
		payload, err := json.Marshal(sub)
		if err != nil {
			return err
		}
		if err := r.Queue.Enqueue(ctx, t.Workspace, SubTaskID(t.RunID, lc), payload); err != nil {
			return err
		}
	}
	return nil
}

// runPart runs the sub-task of one part: the kind solves it, supervised,
// and the part counts itself done, even when its run is being cancelled:
// the last part ends the run. A part's writes are not fenced by an
// attempt (store.AnyAttempt): the parts one attempt of the run's own task
// queued serve whichever attempt holds the run, and a later attempt
// queues only the parts not queued already. What keeps a part's stale
// duplicate (its sub-task handed to another worker while its first worker
// was cut off) from counting twice is FanOut.Done, and from completing a
// run twice, Publish's refusal of a finished run.
func (r *Runner) runPart(ctx context.Context, k FanOutKind, t Task) error {
	run, err := r.Runs.Run(ctx, t.Workspace, t.RunID)
	if model.KindOf(err) == model.KindNotFound {
		return nil
	}
	if err == nil && run.Status.Finished() {
		// Ended without this sub-task (reaped as lost, cancelled): its
		// fan-out state is of no more use.
		return r.FanOut.Discard(ctx, t.Workspace, t.RunID)
	}
	if err != nil {
		return err
	}
	if run.Status == model.RunCancelling {
		return r.partDone(ctx, k, t, PartOutcome{})
	}
	job, _, err := r.Jobs.Job(ctx, t.Workspace)
	if err != nil {
		return err
	}
	solveCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	pp := &PartProgress{}
	stop := make(chan struct{})
	supervised := r.supervise(ctx, t, store.AnyAttempt, func() func(*model.Run) {
		pts := pp.take()
		return func(run *model.Run) {
			appendHistory(run, pts)
			run.Progress.LoadCaseCount.ID = t.LoadCase
		}
	}, cancel, stop)
	out, err := k.SolvePart(solveCtx, r, t, job, pp)
	close(stop)
	if <-supervised != nil {
		out, err = PartOutcome{}, nil // a cancelled part keeps nothing
	}
	if model.KindOf(err) == model.KindStorageFull {
		// The store refused the part's results: another attempt would
		// solve again only to be refused again. The part fails alone,
		// saying why, as a part the engine cannot solve does.
		out, err = PartOutcome{Failed: fmt.Sprintf("load case %d: the results could not be stored: %v", t.LoadCase, err)}, nil
	}
	if err != nil {
		return err
	}
	out.Points = append(out.Points, pp.take()...)
	return r.partDone(ctx, k, t, out)
}

// partDone counts t's part done, tells the run record its outcome and,
// when it was the last, completes the run.
func (r *Runner) partDone(ctx context.Context, k FanOutKind, t Task, out PartOutcome) error {
	left, removed, err := r.FanOut.Done(ctx, t.Workspace, t.RunID, t.LoadCase)
	if err != nil {
		return err
	}
	if removed {
		_, err := r.Runs.Update(ctx, t.Workspace, t.RunID, store.AnyAttempt, func(run *model.Run) error {
			now := r.Now().UTC()
			run.HeartbeatAt = &now
			appendHistory(run, out.Points)
			c := &run.Progress.LoadCaseCount
			c.Index = c.Count - left
			if c.Count > 0 && len(run.Progress.StepPercentages) > fanOutSolve {
				run.Progress.StepPercentages[fanOutSolve] = 100 * float64(c.Index) / float64(c.Count)
				run.Progress.IterationPercentage = run.Progress.StepPercentages[fanOutSolve]
			}
			if run.Status == model.RunRunning {
				run.Progress.StatusText = fmt.Sprintf("Solving load cases: %d of %d done", c.Index, c.Count)
			}
			if out.Failed != "" {
				run.Progress.Messages = append(run.Progress.Messages, model.RunMessage{Level: "Warning", Text: out.Failed, Timestamp: now})
			}
			if out.Info != "" {
				run.Progress.Messages = append(run.Progress.Messages, model.RunMessage{Level: "Information", Text: out.Info, Timestamp: now})
			}
			return nil
		})
		if err != nil && !errors.Is(err, store.ErrRunFinished) {
			return err
		}
	}
	if left > 0 {
		return nil
	}
	// Also when this attempt did not remove the part: an earlier attempt
	// that did may have died before completing the run.
	return r.complete(ctx, k, t)
}

// complete ends a run whose parts are all done: Cancelled after a cancel,
// Failed when no part has results, otherwise Completed with what the
// parts staged published, and the run warning about each part that
// failed.
func (r *Runner) complete(ctx context.Context, k FanOutKind, t Task) error {
	run, err := r.Runs.Run(ctx, t.Workspace, t.RunID)
	if err != nil {
		return err
	}
	if run.Status.Finished() {
		return r.FanOut.Discard(ctx, t.Workspace, t.RunID)
	}
	if run.Status == model.RunCancelling {
		if _, err := r.finish(ctx, t, store.AnyAttempt, model.RunCancelled, "", nil); err != nil {
			return err
		}
		return r.FanOut.Discard(ctx, t.Workspace, t.RunID)
	}
	job, slot, err := r.Jobs.Job(ctx, t.Workspace)
	if err != nil {
		return err
	}
	staged, err := r.FanOut.Staged(ctx, t.Workspace, t.RunID)
	if err != nil {
		return err
	}
	publish, warnings, err := k.Gather(ctx, r, t, job, staged)
	if err == nil {
		err = publish(ctx, slot.Rev, Completion{attempt: store.AnyAttempt, apply: func(run *model.Run) {
			r.end(run, model.RunCompleted, "", func(run *model.Run) {
				run.Warnings = append(run.Warnings, warnings...)
				for i := range run.Progress.StepPercentages {
					run.Progress.StepPercentages[i] = 100
				}
				run.Progress.TotalSteps = len(fanOutSteps)
				run.Progress.CurrentStep = len(fanOutSteps)
				run.Progress.IterationPercentage = 100
				run.HeartbeatAt = run.CompletedAt
				run.Progress.StatusText = "Analysis completed"
			})
		}})
		if err == nil {
			if done, rerr := r.Runs.Run(ctx, t.Workspace, t.RunID); rerr == nil {
				r.observe(t, done)
			}
		}
	}
	if err := r.settle(ctx, t, store.AnyAttempt, err, false, func(run *model.Run) { run.Warnings = append(run.Warnings, warnings...) }); err != nil &&
		model.KindOf(err) != model.KindValidation {
		return err
	}
	return r.FanOut.Discard(ctx, t.Workspace, t.RunID)
}
