package statics

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
	"github.com/gusset/gusset/pkg/fem/sparse"
	"github.com/gusset/gusset/pkg/fem/static"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// A non-linear run solves each load case on its own, so it fans out
// (fanout.go): the kind plans the cases, solves each as a part and
// gathers what the parts staged.

// stagedCase is the meta record a part stages with its columns.
type stagedCase struct {
	Meta columns.CaseMeta `json:"meta"`
	// Failed is the message of a case that has no results.
	Failed string `json:"failed,omitempty"`
}

// Plan implements FanOutKind: it reads the model, picks the run's load
// cases and checks that the engine takes each of them; with keepLoadSteps
// it numbers the Step load cases above every load case that stays (the
// steps of the i-th case are stepBase+i·steps+1 … +steps). It stages the
// model-wide columns.
func (nonLinearStatic) Plan(ctx context.Context, r *lifecycle.Runner, t lifecycle.Task, job model.Job, lv *lifecycle.Progress) (lifecycle.FanOutPlan, error) {
	cp, err := runner{r}.planCases(ctx, t, job, lv)
	if err != nil {
		return lifecycle.FanOutPlan{}, err
	}
	plan := lifecycle.FanOutPlan{Parts: cp.ids}
	if cp.steps > 0 {
		plan.Prepare = func(i int, sub *lifecycle.Task) { sub.Steps, sub.StepBase = cp.steps, cp.stepBase+int64(i*cp.steps) }
	}
	return plan, nil
}

// casePlan is what Plan decides for the parts: the load cases, ascending,
// and with keepLoadSteps the numbering of their Step load cases.
type casePlan struct {
	ids      []int64
	steps    int
	stepBase int64
}

// planCases is Plan's reading and checking of the model.
func (r runner) planCases(ctx context.Context, t lifecycle.Task, job model.Job, lv *lifecycle.Progress) (casePlan, error) {
	s, err := analysis.RunSettings[model.StaticSettings](staticFamily, t, job)
	if err != nil {
		return casePlan{}, err
	}
	if err := CheckNonLinear(s); err != nil {
		return casePlan{}, lifecycle.ModelError("%s", err.Error())
	}
	list, some := s.LoadCaseList()
	in, ids, err := readModel(ctx, r, t, job, adapter.CaseChoice{List: list, Some: some, Raw: s.LoadCases,
		Check: s.CheckNonExistentLoadCases}, s.SolverType, s.DrillingStiffness, lv)
	if err != nil {
		return casePlan{}, err
	}
	plan := casePlan{ids: ids}
	if s.KeepLoadSteps {
		if err := checkStepCases(int64(len(ids)), s, stepCaseLimit(t)); err != nil {
			return casePlan{}, lifecycle.ModelError("%s", err.Error())
		}
		plan.steps, plan.stepBase = s.LoadSteps, in.LastCase
		if s.RetainLoadCases {
			// Steps kept by earlier runs may stay: number above them.
			for id := range in.StepCases {
				plan.stepBase = max(plan.stepBase, id)
			}
		}
		if last := plan.stepBase + int64(len(ids)*s.LoadSteps); last > model.MaxID {
			return casePlan{}, lifecycle.ModelError("keepLoadSteps would number load steps up to %d, past the largest load case id %d: "+
				"renumber the load cases lower (the steps follow the largest id in use) or keep fewer steps", last, int64(model.MaxID))
		}
	}
	d, err := domain.Build(ctx, in.Model, domain.BuildOptions{})
	if err != nil {
		if ctx.Err() != nil {
			return casePlan{}, err
		}
		return casePlan{}, adapter.EngineError(err)
	}
	opts := nonlinearOptions(s)
	for _, id := range ids {
		if err := nonlinear.Check(d, id, opts); err != nil {
			return casePlan{}, adapter.EngineError(err)
		}
	}
	lv.Warn(d.Warnings...)
	set := newStaticSet(in.Model)
	if err := r.FanOut.Stage(ctx, t.Workspace, t.RunID, lifecycle.SharedPart, store.ResultSet{Meta: json.RawMessage("{}"), Columns: set.columns}); err != nil {
		return casePlan{}, err
	}
	return plan, nil
}

// SolvePart implements FanOutKind: it solves the case of t and stages its
// results, or stages its failure.
func (nonLinearStatic) SolvePart(ctx context.Context, r *lifecycle.Runner, t lifecycle.Task, job model.Job, prog *lifecycle.PartProgress) (lifecycle.PartOutcome, error) {
	return runner{r}.solveCase(ctx, t, job, prog)
}

// solveCase is SolvePart.
func (r runner) solveCase(ctx context.Context, t lifecycle.Task, job model.Job, prog *lifecycle.PartProgress) (lifecycle.PartOutcome, error) {
	s, err := analysis.RunSettings[model.StaticSettings](staticFamily, t, job)
	if err != nil {
		return r.stageFailure(ctx, t, err.Error())
	}
	in, err := adapter.Build(ctx, r.Source, t.Workspace, job.Settings)
	if err != nil {
		return r.caseError(ctx, t, err)
	}
	in.Model.DrillingStiffness = s.DrillingStiffness
	d, err := domain.Build(ctx, in.Model, domain.BuildOptions{})
	if err != nil {
		return r.caseError(ctx, t, err)
	}
	name := t.LoadCase
	opts := nonlinearOptions(s)
	opts.Progress = func(it nonlinear.Iteration) {
		prog.Add(model.ConvergencePoint{Percentage: 100 * it.Measure, LoadCase: t.LoadCase, Step: it.Step,
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
	// The part reserves its memory from the worker's budget before its
	// first factorization: the model, the tangent and its factor, which
	// every iteration rebuilds in place.
	var admitErr error
	release := func() {}
	defer func() { release() }()
	opts.Admit = func(k *sparse.SymMatrix, sym *sparse.Symbolic) error {
		e := static.BaseEstimate(d, k, sym)
		rel, err := r.Reserve(ctx, e.Model+e.System+e.Factor, fmt.Sprintf("%d equations: %s for the factorization of the tangent",
			e.Equations, lifecycle.MiB(e.Factor)))
		if err != nil {
			admitErr = err
			return err
		}
		release = rel
		return nil
	}
	t0 := time.Now()
	res, err := nonlinear.Analyze(ctx, d, name, opts)
	took := time.Since(t0)
	switch {
	case admitErr != nil && model.KindOf(admitErr) == model.KindValidation:
		return r.stageFailure(ctx, t, admitErr.Error())
	case err != nil && ctx.Err() != nil:
		return lifecycle.PartOutcome{}, fmt.Errorf("run %s, load case %d interrupted: %w", t.RunID, t.LoadCase, ctx.Err())
	case stageErr != nil:
		return lifecycle.PartOutcome{}, fmt.Errorf("run %s, load case %d: stage a load step: %w", t.RunID, t.LoadCase, stageErr)
	case err != nil:
		msg := r.failure(t, err)
		if kept > 0 {
			msg += fmt.Sprintf(" (its converged steps are kept as the Step load cases %s)", stepRange(t, kept))
		}
		return r.stageFailure(ctx, t, msg)
	}
	rows, err := nonlinearRows(in.Model, d, res)
	if err != nil {
		return r.stageFailure(ctx, t, err.Error())
	}
	meta, err := json.Marshal(stagedCase{Meta: columns.CaseMeta{LoadCase: t.LoadCase, RunID: t.RunID, Solver: string(s.SolverType),
		IsNonLinear: true, AnalysedAt: r.Now().UTC(), SecondOrder: secondOrderOf(opts), Cables: rows.cable != nil}})
	if err != nil {
		return lifecycle.PartOutcome{}, err
	}
	set := &staticSet{columns: map[string][]byte{}}
	set.addCase(t.LoadCase, rows, columns.CaseMeta{})
	steps := 0
	if n := len(res.History); n > 0 {
		steps = res.History[n-1].Step
	}
	info := fmt.Sprintf("load case %d: converged in %d step(s), %d iteration(s), solved in %.3f s by worker %s",
		t.LoadCase, steps, len(res.History), took.Seconds(), r.WorkerName())
	if kept > 0 {
		info += "; its steps are the Step load cases " + stepRange(t, kept)
	}
	return lifecycle.PartOutcome{Info: info}, r.FanOut.Stage(ctx, t.Workspace, t.RunID, t.LoadCase, store.ResultSet{Meta: meta, Columns: set.columns})
}

// stageStep stages the state of step k of t's case as its Step load case.
func (r runner) stageStep(ctx context.Context, t lifecycle.Task, rows caseRows, k int, lambda float64, secondOrder, solver string) error {
	lc := t.StepBase + int64(k)
	meta, err := json.Marshal(stagedCase{Meta: columns.CaseMeta{LoadCase: lc, RunID: t.RunID, Solver: solver, IsNonLinear: true,
		AnalysedAt: r.Now().UTC(), SecondOrder: secondOrder, StepOf: t.LoadCase, Step: k, LoadFactor: lambda, Cables: rows.cable != nil}})
	if err != nil {
		return err
	}
	set := &staticSet{columns: map[string][]byte{}}
	set.addCase(lc, rows, columns.CaseMeta{})
	return r.FanOut.Stage(ctx, t.Workspace, t.RunID, lc, store.ResultSet{Meta: meta, Columns: set.columns})
}

// stepRange names the Step load cases of the first n steps of t's case.
func stepRange(t lifecycle.Task, n int) string {
	if n == 1 {
		return strconv.FormatInt(t.StepBase+1, 10)
	}
	return fmt.Sprintf("%d–%d", t.StepBase+1, t.StepBase+int64(n))
}

// caseError stages the failure of a case whose model could not be read
// or built, unless the context ended (another attempt runs it).
func (r runner) caseError(ctx context.Context, t lifecycle.Task, err error) (lifecycle.PartOutcome, error) {
	if ctx.Err() != nil {
		return lifecycle.PartOutcome{}, err
	}
	var me *model.Error
	if errors.As(err, &me) && me.Kind == model.KindValidation {
		// Reading the model: the service's own checks say what is wrong.
		return r.stageFailure(ctx, t, me.Error())
	}
	return r.stageFailure(ctx, t, r.failure(t, err))
}

// failure is the message the failure of t's case reads for the engine
// error err (adapter.EngineError); a solver fault is logged as an error
// too, as the lifecycle logs one that fails a whole run.
func (r runner) failure(t lifecycle.Task, err error) string {
	err = adapter.EngineError(err)
	var fault *adapter.SolverFault
	if errors.As(err, &fault) {
		r.Log.Error("internal solver fault", "workspace", t.Workspace, "run", t.RunID, "kind", string(t.Kind),
			"part", t.LoadCase, "err", fault.Err)
	}
	return err.Error()
}

// stageFailure stages the failure of t's case with msg.
func (r runner) stageFailure(ctx context.Context, t lifecycle.Task, msg string) (lifecycle.PartOutcome, error) {
	msg = fmt.Sprintf("load case %d has no results: %s", t.LoadCase, msg)
	meta, err := json.Marshal(stagedCase{Meta: columns.CaseMeta{LoadCase: t.LoadCase}, Failed: msg})
	if err != nil {
		return lifecycle.PartOutcome{}, err
	}
	return lifecycle.PartOutcome{Failed: msg}, r.FanOut.Stage(ctx, t.Workspace, t.RunID, t.LoadCase, store.ResultSet{Meta: meta})
}

// secondOrderOf returns the columns.CaseMeta.SecondOrder of results found with
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
