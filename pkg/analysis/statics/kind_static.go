package statics

import (
	"context"
	"fmt"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// The static family: linear and non-linear static analyses share the
// static settings record and store their results together.

// staticName names the static family (a constant, so that the queries'
// code may name it without an initialisation cycle through the family).
const staticName model.AnalysisFamily = "static"

// staticFamily is the family of the static analyses.
var staticFamily = &analysis.Family{
	Name: staticName, QueryDir: "static", Noun: "static analysis", StatusFlag: "hasStaticResults",
	SettingsName: "StaticSettings",
	SettingsDoc: model.ReversalDoc + fmt.Sprintf(" loadStepIterations and loadSteps are 1 to %d, dampingSteps 0 to %d; dampingFactor "+
		"is a percentage from 0 to less than 100, convergenceAccuracy one greater than 0 and less than 100. theory, dampingFactor, "+
		"dampingSteps, loadSteps, convergenceAccuracy, rotateLocalLoads, deflectionsConvergence, residualsConvergence, pDeltaBig, "+
		"pDeltaSmall, matrixType, loading, steppingMethod and keepLoadSteps (an extension) apply to non-linear analyses only: linear runs keep and ignore them.",
		model.MaxIterations, model.MaxIterations) + " " + model.CommonSettingsDoc,
	SettingsLabels: map[string]string{"dampingFactor": "%", "convergenceAccuracy": "%"},
	SettingsKey:    "static",
	Default:        model.DefaultStaticSettings(),
	QueryDoc: "Values are in the job units (rotations in radians). Rows are ordered by load case, then by node, member or plate, " +
		"and paged by offset and limit (Total-Count counts every row). Filters are id lists (\"1,3-7\"); an id the model does " +
		"not have is a 400, a range included. warnings.loadCasesNotAnalyzed lists the selected load cases without results (an " +
		"id list usable as loadCases of a run). 409 before any static analysis (a filter naming ids the model lacks is still the 400: filters are checked first); any model change deletes every result.",
	Queries: staticQueries,
	Cases: func(raw []byte) ([]model.CaseResultsInfo, error) {
		meta, err := decodeStaticMeta(raw)
		if err != nil || meta == nil {
			return nil, err
		}
		out := make([]model.CaseResultsInfo, 0, len(meta.Cases))
		for _, c := range meta.Cases {
			out = append(out, model.CaseResultsInfo{LoadCase: c.LoadCase, HasResults: true, Solver: c.Solver, IsNonLinear: c.IsNonLinear})
		}
		return out, nil
	},
	Check: func(set store.ResultSet, colls map[string][]store.Row) error { return checkStatic(set, colls) },
}

// Linear is the linear static analysis.
var Linear analysis.Kind = linearStatic{}

// linearStatic is the linear static analysis.
type linearStatic struct{}

var _ analysis.Kind = linearStatic{}

// Type implements Kind.
func (linearStatic) Type() model.AnalysisType { return "LinearStaticAnalysis" }

// Family implements Kind.
func (linearStatic) Family() *analysis.Family { return staticFamily }

// Describe implements Kind.
func (linearStatic) Describe() string { return "linear static analysis" }

// Start implements Kind.
func (linearStatic) Start() analysis.StartRoute {
	return analysis.StartRoute{Path: "static/run-linear", Summary: "Start a linear static analysis",
		Doc: "Results replace the stored static results, or, with retainLoadCases, only those of the cases analysed."}
}

// Check implements Kind: every static settings record runs linear.
func (linearStatic) Check(analysis.Settings) error { return nil }

// ResultBytes implements Kind: the load cases the run analyses.
func (linearStatic) ResultBytes(s analysis.Settings, a analysis.Admission) int64 {
	st, _ := s.(model.StaticSettings)
	return staticBytes(a.Counts, a.Selected(st.LoadCaseList()), false)
}

// staticBytes estimates the static results of cases load cases on the
// model counts describes; a node restraint is a supported node.
func staticBytes(counts map[string]int64, cases int64, cables bool) int64 {
	nodes := counts[model.CollNodes]
	return columns.StaticBytes(nodes, counts[model.CollMembers], counts[model.CollPlates],
		min(counts[model.CollNodeRestraints], nodes), cases, cables)
}

// Run implements Kind.
func (linearStatic) Run(ctx context.Context, r *lifecycle.Runner, t lifecycle.Task) error {
	return runner{r}.runStatic(ctx, t)
}

// NonLinear is the non-linear static analysis, whose runs fan out by
// load case.
var NonLinear analysis.Kind = nonLinearStatic{}

// nonLinearStatic is the non-linear static analysis: each load case is a
// sub-task of its own (nonlinear_run.go).
type nonLinearStatic struct{}

var _ lifecycle.FanOutKind = nonLinearStatic{}

// Type implements Kind.
func (nonLinearStatic) Type() model.AnalysisType { return "NonLinearStaticAnalysis" }

// Family implements Kind.
func (nonLinearStatic) Family() *analysis.Family { return staticFamily }

// Describe implements Kind.
func (nonLinearStatic) Describe() string { return "non-linear static analysis" }

// Start implements Kind.
func (nonLinearStatic) Start() analysis.StartRoute {
	return analysis.StartRoute{Path: "static/run-non-linear", Summary: "Start a non-linear static analysis",
		Doc: "Each load case or combination is analysed on its own (a combination as its combined loads, not superposed), " +
			"as a sub-task that any idle worker takes, so more workers finish a run of many cases sooner. " +
			"theory Small is second-order analysis on the initial geometry (P-Δ with pDeltaBig, P-δ with pDeltaSmall too; " +
			"pDeltaSmall alone is a 400); Finite and Large are large-displacement analyses (co-rotational members and plates; " +
			"member loads in member axes turn with their members when rotateLocalLoads is on). " +
			"The load is applied in loadSteps steps (steppingMethod Linear or Parabolic; File is a 400), each iterated up to " +
			"loadStepIterations times until the convergence measure is at most convergenceAccuracy percent: the out-of-balance " +
			"forces over the applied load (residualsConvergence), the last correction over the displacements " +
			"(deflectionsConvergence), or the larger of the two (both on; both off is a 400). matrixType Tangent refactors the " +
			"stiffness every iteration, Secant once per step. dampingFactor percent scales the corrections of the first " +
			"dampingSteps steps. loading Full and Residual reach the same converged state (the iterations work on the " +
			"out-of-balance forces). A case that does not converge, or is past its buckling load in the Small theory, has no " +
			"results: the run completes with the others, lists the failure in warnings (step, load factor and residual) and " +
			"in progress.messages as it happens; the run fails only when no case converged and no load step was kept. convergenceHistory lists every " +
			"iteration of every case (the latest 2000), live while the run is under way; progress.loadCaseCount counts the cases " +
			"done, and progress.messages has one Information line per solved case (steps, iterations, solve time, worker). " +
			"Results replace the stored static results, or, with retainLoadCases, only those of the cases analysed; " +
			"results info marks them isNonLinear. keepLoadSteps (an extension) keeps every converged load step as a Step " +
			"load case with its own results, queryable like any case: the steps of the analysed cases, ascending, then of " +
			"their steps, are numbered on from the largest load case id of the model (with retainLoadCases, from the largest " +
			"id of any case, earlier Step cases included), so with cases 1, 2 and 4 and loadSteps 4 the steps of case 1 are " +
			"5–8, of case 2 9–12 and of case 4 13–16. A run keeps at most stepCases steps (cases × loadSteps; the workspace limit " +
			"MAX_STEP_CASES, default 1,000): starting a run that would keep more is a 403 LIMIT_EXCEEDED naming the limit, counting every " +
			"load and combination case loadCases selects. The last step is the case's own state; a case that fails keeps the steps it converged. " +
			"Step cases are listed by the load-case list (type Step, stepOf the case) and go with their results: a static " +
			"run that does not retain them, or analyses their case again, removes them."}
}

var _ analysis.Admitter = nonLinearStatic{}

// Check implements Kind (CheckNonLinear).
func (nonLinearStatic) Check(s analysis.Settings) error {
	st, ok := s.(model.StaticSettings)
	if !ok {
		return fmt.Errorf("check non-linear settings: a %T is not the static settings", s)
	}
	return CheckNonLinear(st)
}

// Admit implements analysis.Admitter: with keepLoadSteps, the cases the
// settings select times loadSteps must not pass the workspace's
// stepCases limit. It counts every selected case, so it may refuse a run
// whose cases without loads the worker would leave out; the worker
// checks the exact count again (planCases).
func (nonLinearStatic) Admit(s analysis.Settings, a analysis.Admission) error {
	st, ok := s.(model.StaticSettings)
	if !ok || !st.KeepLoadSteps {
		return nil
	}
	return checkStepCases(a.Selected(st.LoadCaseList()), st, a.Limits.StepCases)
}

// checkStepCases refuses keeping the load steps of cases analysed
// cases when that passes limit (0: the default).
func checkStepCases(cases int64, s model.StaticSettings, limit int64) error {
	d, _ := model.LimitDefOf("stepCases")
	if limit <= 0 {
		limit = d.Default
	}
	if n := cases * int64(s.LoadSteps); n > limit {
		err := model.Exceeded(d, limit, n)
		err.Msg = fmt.Sprintf("keepLoadSteps would keep %d load steps (%d load cases × loadSteps %d): analyse fewer load cases at a "+
			"time (loadCases) or take fewer steps; %s", n, cases, s.LoadSteps, err.Msg)
		return err
	}
	return nil
}

// stepCaseLimit is the stepCases limit t carries (0: the default).
func stepCaseLimit(t lifecycle.Task) int64 {
	if t.Limits == nil {
		return 0
	}
	return t.Limits.StepCases
}

// ResultBytes implements Kind: the load cases the run analyses, each with
// the cable column (members that are cables are not counted), and with
// keepLoadSteps the Step cases kept (at most the stepCases limit).
func (nonLinearStatic) ResultBytes(s analysis.Settings, a analysis.Admission) int64 {
	st, _ := s.(model.StaticSettings)
	cases := a.Selected(st.LoadCaseList())
	if st.KeepLoadSteps {
		limit := a.Limits.StepCases
		if d, _ := model.LimitDefOf("stepCases"); limit <= 0 {
			limit = d.Default
		}
		cases += min(cases*int64(max(st.LoadSteps, 1)), limit)
	}
	return staticBytes(a.Counts, cases, true)
}

// Run implements Kind: the run fans out (Runner.RunFannedOut).
func (k nonLinearStatic) Run(ctx context.Context, r *lifecycle.Runner, t lifecycle.Task) error {
	return r.RunFannedOut(ctx, k, t)
}
