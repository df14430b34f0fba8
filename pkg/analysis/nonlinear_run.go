package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// A non-linear run solves each load case on its own, so it fans out: its
// own task (the parent) reads and checks the model, records the cases as
// pending (store.FanOut), queues one sub-task per case and returns, so
// that it holds no worker while the cases are solved. Any idle worker
// takes a sub-task; it solves its case, stages the results and counts the
// case done. The sub-task that leaves no case pending completes the run:
// it publishes the staged results in one transaction, or ends the run
// Cancelled when a cancel came. A case that does not converge fails alone:
// the run completes with the others and warns.

// Steps of a non-linear run as the progress shows them.
var nonlinearSteps = []string{"Reading the model", "Solving load cases", "Storing results"}

// Indexes of nonlinearSteps.
const (
	nlStepRead = iota
	nlStepSolve
	nlStepStore
)

// modelEntry is the staged entry of the model-wide columns (load case ids
// start at 1).
const modelEntry = 0

// SubTaskID is the queue id of the sub-task that solves load case lc of
// run runID.
func SubTaskID(runID string, lc int64) string { return runID + "/" + strconv.FormatInt(lc, 10) }

// stagedCase is the meta record a sub-task stages with its columns.
type stagedCase struct {
	Meta CaseMeta `json:"meta"`
	// Failed is the message of a case that has no results.
	Failed string `json:"failed,omitempty"`
}

// runNonLinear runs a non-linear task: the parent of a run, or one of its
// sub-tasks.
func (r *Runner) runNonLinear(ctx context.Context, t Task) error {
	if t.LoadCase != 0 {
		return r.runCase(ctx, t)
	}
	lv := &Progress{percent: make([]float64, len(nonlinearSteps))}
	job, _, err := r.Jobs.Job(ctx, t.Workspace)
	if model.KindOf(err) == model.KindNoJobOpen {
		_, err = r.finish(ctx, t, model.RunFailed, "the job was closed before the analysis started", nil)
		return err
	}
	if err != nil {
		return err
	}
	ok, err := r.begin(ctx, t, job, func(run *model.Run) { lv.apply(run, nonlinearSteps) })
	if !ok || err != nil {
		return err
	}
	plan, err := r.planCases(ctx, t, job, lv)
	if err == nil {
		err = r.dispatch(ctx, t, plan, lv)
	}
	return r.settle(ctx, t, err, false, func(run *model.Run) { lv.apply(run, nonlinearSteps) })
}

// MaxStepLoadCases bounds the Step load cases one non-linear run keeps
// (keepLoadSteps): load cases analysed times loadSteps.
const MaxStepLoadCases = 1000

// casePlan is what a run's own task decides for its sub-tasks: the load
// cases, ascending, and with keepLoadSteps the numbering of their Step
// load cases: the steps of ids[i] are stepBase+i·steps+1 … +steps.
type casePlan struct {
	ids      []int64
	steps    int
	stepBase int64
}

// planCases reads the model, picks the run's load cases and checks that
// the engine takes each of them, so that a model it cannot analyse fails
// the run before any case is queued; with keepLoadSteps it numbers the
// Step load cases above every load case that stays. It stages the
// model-wide columns.
func (r *Runner) planCases(ctx context.Context, t Task, job model.Job, lv *Progress) (casePlan, error) {
	s, err := RunSettings[model.StaticSettings](staticFamily, t, job)
	if err != nil {
		return casePlan{}, err
	}
	if err := CheckNonLinear(s); err != nil {
		return casePlan{}, modelError("%s", err.Error())
	}
	list, some := s.LoadCaseList()
	in, names, ids, err := r.readModel(ctx, t, job, caseChoice{list: list, some: some, raw: s.LoadCases,
		check: s.CheckNonExistentLoadCases}, s.SolverType, s.DrillingStiffness, lv)
	if err != nil {
		return casePlan{}, err
	}
	plan := casePlan{ids: ids}
	if s.KeepLoadSteps {
		if n := len(ids) * s.LoadSteps; n > MaxStepLoadCases {
			return casePlan{}, modelError("keepLoadSteps would keep %d load steps (%d load cases × loadSteps %d); a run keeps at most %d: "+
				"analyse fewer load cases at a time (loadCases) or take fewer steps", n, len(ids), s.LoadSteps, MaxStepLoadCases)
		}
		plan.steps, plan.stepBase = s.LoadSteps, in.LastCase
		if s.RetainLoadCases {
			// Steps kept by earlier runs may stay: number above them.
			for id := range in.StepCases {
				plan.stepBase = max(plan.stepBase, id)
			}
		}
		if last := plan.stepBase + int64(len(ids)*s.LoadSteps); last > model.MaxID {
			return casePlan{}, modelError("keepLoadSteps would number load steps up to %d, past the largest load case id %d: "+
				"renumber the load cases lower (the steps follow the largest id in use) or keep fewer steps", last, int64(model.MaxID))
		}
	}
	d, err := domain.Build(ctx, in.Model, domain.BuildOptions{})
	if err != nil {
		if ctx.Err() != nil {
			return casePlan{}, err
		}
		return casePlan{}, modelError("%s", engineMessage(err))
	}
	opts := nonlinearOptions(s)
	for _, name := range names {
		if err := nonlinear.Check(d, name, opts); err != nil {
			return casePlan{}, modelError("%s", engineMessage(err))
		}
	}
	lv.set(func(l *Progress) {
		l.warnings = append(l.warnings, d.Warnings...)
	})
	set := newStaticSet(in.Model)
	if err := r.FanOut.Stage(ctx, t.Workspace, t.RunID, modelEntry, store.ResultSet{Meta: json.RawMessage("{}"), Columns: set.columns}); err != nil {
		return casePlan{}, err
	}
	return plan, nil
}

// dispatch records the cases as pending and queues their sub-tasks. A
// repeated attempt starts the count afresh and re-queues them all: a case
// solved twice stages the same results.
func (r *Runner) dispatch(ctx context.Context, t Task, plan casePlan, lv *Progress) error {
	ids := plan.ids
	prev, err := r.Runs.Run(ctx, t.Workspace, t.RunID)
	if err != nil {
		return err
	}
	if !prev.FanOut {
		// Only the first attempt that gets this far records the cases: a
		// later one must not count again a case whose sub-task already
		// counted itself done (and may be finishing, its queue id taken).
		if err := r.FanOut.Begin(ctx, t.Workspace, t.RunID, ids); err != nil {
			return err
		}
	}
	lv.stage(nlStepSolve, 0)
	_, err = r.Runs.Update(ctx, t.Workspace, t.RunID, func(run *model.Run) error {
		lv.apply(run, nonlinearSteps)
		run.FanOut = true
		now := r.Now().UTC()
		run.HeartbeatAt = &now // the sub-tasks are not queued yet: not lost
		run.Progress.StatusText = fmt.Sprintf("Solving load cases: 0 of %d done", len(ids))
		return nil
	})
	if errors.Is(err, store.ErrRunFinished) {
		return nil // ended meanwhile
	}
	if err != nil {
		return err
	}
	// Queue the cases not done yet; a sub-task still queued or under way
	// stays as it is (Enqueue ignores its id).
	todo, err := r.FanOut.Pending(ctx, t.Workspace, t.RunID)
	if err != nil {
		return err
	}
	for _, lc := range todo {
		sub := t
		sub.LoadCase = lc
		if plan.steps > 0 {
			i, _ := slices.BinarySearch(ids, lc)
			sub.Steps, sub.StepBase = plan.steps, plan.stepBase+int64(i*plan.steps)
		}
		payload, err := json.Marshal(sub)
		if err != nil {
			return err
		}
		if err := r.Queue.Enqueue(ctx, SubTaskID(t.RunID, lc), payload); err != nil {
			return err
		}
	}
	return nil
}

// caseProgress is what a sub-task's solver goroutine reports and its
// ticker publishes: iterations not yet in the run record.
type caseProgress struct {
	mu     sync.Mutex
	points []model.ConvergencePoint
}

func (p *caseProgress) add(pt model.ConvergencePoint) {
	p.mu.Lock()
	p.points = append(p.points, pt)
	p.mu.Unlock()
}

// take returns the points gathered since the last call.
func (p *caseProgress) take() []model.ConvergencePoint {
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

// runCase runs the sub-task of one load case.
func (r *Runner) runCase(ctx context.Context, t Task) error {
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
		return r.caseDone(ctx, t, caseOutcome{})
	}
	job, _, err := r.Jobs.Job(ctx, t.Workspace)
	if err != nil {
		return err
	}
	out, err := r.solveCase(ctx, t, job)
	if err != nil {
		return err
	}
	return r.caseDone(ctx, t, out)
}

// caseOutcome is what the run record is told of a solved case: a warning
// when it failed, otherwise an information line (steps, iterations, time
// and worker); both empty when it was cancelled.
type caseOutcome struct {
	failed, info string
	// points are the iterations the ticker has not published yet.
	points []model.ConvergencePoint
}

// solveCase solves the case of t and stages its results, or stages its
// failure. An error is for another attempt (the worker stopping, the
// store failing); a cancel stages nothing.
func (r *Runner) solveCase(ctx context.Context, t Task, job model.Job) (caseOutcome, error) {
	s, err := RunSettings[model.StaticSettings](staticFamily, t, job)
	if err != nil {
		return r.stageFailure(ctx, t, err.Error())
	}
	in, err := Build(ctx, r.Source, t.Workspace, job.Settings)
	if err != nil {
		return r.caseError(ctx, t, err)
	}
	in.Model.DrillingStiffness = s.DrillingStiffness
	d, err := domain.Build(ctx, in.Model, domain.BuildOptions{})
	if err != nil {
		return r.caseError(ctx, t, err)
	}
	name := strconv.FormatInt(t.LoadCase, 10)
	opts := nonlinearOptions(s)
	prog := &caseProgress{}
	opts.Progress = func(it nonlinear.Iteration) {
		prog.add(model.ConvergencePoint{Percentage: 100 * it.Measure, LoadCase: t.LoadCase, Step: it.Step,
			LoadFactor: it.LoadFactor, Converged: it.Converged})
	}
	kept := 0          // steps staged as Step load cases
	var stageErr error // the store failing to stage one: for another attempt
	if t.Steps > 0 {
		opts.Steps = t.Steps
		opts.Step = func(k int, res *nonlinear.Result) error {
			rows, err := nonlinearRows(in.Model, d, res)
			if err != nil {
				return fmt.Errorf("step %d: %w", k, err)
			}
			if stageErr = r.stageStep(ctx, t, rows, k, res.LoadFactor, secondOrderOf(opts), string(s.SolverType)); stageErr != nil {
				return stageErr
			}
			kept = k
			return nil
		}
	}
	solveCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := make(chan struct{})
	done := r.superviseCase(ctx, t, prog, cancel, stop)
	t0 := time.Now()
	res, err := nonlinear.Analyze(solveCtx, d, name, opts)
	took := time.Since(t0)
	close(stop)
	cancelled := <-done
	switch {
	case cancelled:
		return caseOutcome{}, nil
	case err != nil && ctx.Err() != nil:
		return caseOutcome{}, fmt.Errorf("run %s, load case %d interrupted: %w", t.RunID, t.LoadCase, ctx.Err())
	case stageErr != nil:
		return caseOutcome{}, fmt.Errorf("run %s, load case %d: stage a load step: %w", t.RunID, t.LoadCase, stageErr)
	case err != nil:
		msg := engineMessage(err)
		if kept > 0 {
			msg += fmt.Sprintf(" (its converged steps are kept as the Step load cases %s)", stepRange(t, kept))
		}
		out, serr := r.stageFailure(ctx, t, msg)
		out.points = prog.take()
		return out, serr
	}
	rows, err := nonlinearRows(in.Model, d, res)
	if err != nil {
		return r.stageFailure(ctx, t, err.Error())
	}
	meta, err := json.Marshal(stagedCase{Meta: CaseMeta{LoadCase: t.LoadCase, RunID: t.RunID, Solver: string(s.SolverType),
		IsNonLinear: true, AnalysedAt: r.Now().UTC(), SecondOrder: secondOrderOf(opts), Cables: rows.cable != nil}})
	if err != nil {
		return caseOutcome{}, err
	}
	set := &staticSet{columns: map[string][]byte{}}
	set.addCase(t.LoadCase, rows, CaseMeta{})
	steps := 0
	if n := len(res.History); n > 0 {
		steps = res.History[n-1].Step
	}
	info := fmt.Sprintf("load case %d: converged in %d step(s), %d iteration(s), solved in %.3f s by worker %s",
		t.LoadCase, steps, len(res.History), took.Seconds(), r.name())
	if kept > 0 {
		info += "; its steps are the Step load cases " + stepRange(t, kept)
	}
	return caseOutcome{info: info, points: prog.take()}, r.FanOut.Stage(ctx, t.Workspace, t.RunID, t.LoadCase, store.ResultSet{Meta: meta, Columns: set.columns})
}

// stageStep stages the state of step k of t's case as its Step load case.
func (r *Runner) stageStep(ctx context.Context, t Task, rows caseRows, k int, lambda float64, secondOrder, solver string) error {
	lc := t.StepBase + int64(k)
	meta, err := json.Marshal(stagedCase{Meta: CaseMeta{LoadCase: lc, RunID: t.RunID, Solver: solver, IsNonLinear: true,
		AnalysedAt: r.Now().UTC(), SecondOrder: secondOrder, StepOf: t.LoadCase, Step: k, LoadFactor: lambda, Cables: rows.cable != nil}})
	if err != nil {
		return err
	}
	set := &staticSet{columns: map[string][]byte{}}
	set.addCase(lc, rows, CaseMeta{})
	return r.FanOut.Stage(ctx, t.Workspace, t.RunID, lc, store.ResultSet{Meta: meta, Columns: set.columns})
}

// stepRange names the Step load cases of the first n steps of t's case.
func stepRange(t Task, n int) string {
	if n == 1 {
		return strconv.FormatInt(t.StepBase+1, 10)
	}
	return fmt.Sprintf("%d–%d", t.StepBase+1, t.StepBase+int64(n))
}

// caseError stages the failure of a case whose model could not be read
// or built, unless the context ended (another attempt runs it).
func (r *Runner) caseError(ctx context.Context, t Task, err error) (caseOutcome, error) {
	if ctx.Err() != nil {
		return caseOutcome{}, err
	}
	return r.stageFailure(ctx, t, engineMessage(err))
}

// stageFailure stages the failure of t's case with msg.
func (r *Runner) stageFailure(ctx context.Context, t Task, msg string) (caseOutcome, error) {
	msg = fmt.Sprintf("load case %d has no results: %s", t.LoadCase, msg)
	meta, err := json.Marshal(stagedCase{Meta: CaseMeta{LoadCase: t.LoadCase}, Failed: msg})
	if err != nil {
		return caseOutcome{}, err
	}
	return caseOutcome{failed: msg}, r.FanOut.Stage(ctx, t.Workspace, t.RunID, t.LoadCase, store.ResultSet{Meta: meta})
}

// superviseCase publishes the case's iterations into the run record and
// keeps its heartbeat until stop is closed, and cancels the solve when
// the run is being cancelled. The channel it returns yields, once stop is
// closed, whether it cancelled.
func (r *Runner) superviseCase(ctx context.Context, t Task, prog *caseProgress, cancel context.CancelFunc, stop <-chan struct{}) <-chan bool {
	out := make(chan bool, 1)
	go func() {
		cancelled := false
		tick := time.NewTicker(r.Tick)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				out <- cancelled
				return
			case <-tick.C:
			}
			pts := prog.take()
			run, err := r.Runs.Update(ctx, t.Workspace, t.RunID, func(run *model.Run) error {
				appendHistory(run, pts)
				now := r.Now().UTC()
				run.HeartbeatAt = &now
				run.Progress.LoadCaseCount.ID = t.LoadCase
				return nil
			})
			if errors.Is(err, store.ErrRunFinished) && !cancelled {
				// The run ended without this case (reaped as lost): its
				// answer has nowhere to go.
				cancelled = true
				cancel()
				continue
			}
			if err != nil {
				if ctx.Err() == nil {
					r.Log.Warn("refresh run record", "run", t.RunID, "case", t.LoadCase, "err", err)
				}
				continue
			}
			if run.Status == model.RunCancelling && !cancelled {
				cancelled = true
				cancel()
			}
		}
	}()
	return out
}

// caseDone counts t's case done, tells the run record its outcome and,
// when it was the last, completes the run.
func (r *Runner) caseDone(ctx context.Context, t Task, out caseOutcome) error {
	left, removed, err := r.FanOut.Done(ctx, t.Workspace, t.RunID, t.LoadCase)
	if err != nil {
		return err
	}
	if removed {
		_, err := r.Runs.Update(ctx, t.Workspace, t.RunID, func(run *model.Run) error {
			now := r.Now().UTC()
			run.HeartbeatAt = &now
			appendHistory(run, out.points)
			c := &run.Progress.LoadCaseCount
			c.Index = c.Count - left
			if c.Count > 0 && len(run.Progress.StepPercentages) > nlStepSolve {
				run.Progress.StepPercentages[nlStepSolve] = 100 * float64(c.Index) / float64(c.Count)
				run.Progress.IterationPercentage = run.Progress.StepPercentages[nlStepSolve]
			}
			if run.Status == model.RunRunning {
				run.Progress.StatusText = fmt.Sprintf("Solving load cases: %d of %d done", c.Index, c.Count)
			}
			if out.failed != "" {
				run.Progress.Messages = append(run.Progress.Messages, model.RunMessage{Level: "Warning", Text: out.failed, Timestamp: now})
			}
			if out.info != "" {
				run.Progress.Messages = append(run.Progress.Messages, model.RunMessage{Level: "Information", Text: out.info, Timestamp: now})
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
	// Also when this attempt did not remove the case: an earlier attempt
	// that did may have died before completing the run.
	return r.complete(ctx, t)
}

// secondOrderOf returns the CaseMeta.SecondOrder of results found with
// opts: the Small theory's end actions hold the geometric forces of the
// initial geometry; those of the large-displacement theories are in each
// member's current chord frame, first order there.
func secondOrderOf(opts nonlinear.Options) string {
	if opts.Theory != nonlinear.Small {
		return ""
	}
	switch opts.PDelta {
	case nonlinear.PDeltaBoth:
		return secondOrderCurve
	case nonlinear.PDeltaChord:
		return secondOrderChord
	}
	return ""
}
