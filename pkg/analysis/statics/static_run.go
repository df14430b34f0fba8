package statics

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/static"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Steps of a static run as the progress shows them.
var staticSteps = []string{"Reading the model", "Forming member and plate stiffness", "Assembling stiffness",
	"Factorizing", "Solving load cases", "Recovering member results", "Storing results"}

// engineSteps maps the engine's stages onto the steps of a static run.
var engineSteps = map[static.Stage]int{static.StageSetup: stepSetup, static.StageAssembly: stepAssembly,
	static.StageFactorization: stepFactor, static.StageSolution: stepSolve, static.StageRecovery: stepRecover}

// engineProgress returns the engine's progress callback: it moves lv
// along the steps and records the solver parameters as soon as the
// factorizer has analysed the system. ids are the cases solved, for the
// case counter of the reversal loop (which solves them one at a time).
func engineProgress(lv *lifecycle.Progress, ids []int64) func(static.Progress) {
	return func(p static.Progress) {
		if p.NnzL > 0 {
			lv.Solved(lifecycle.SolverStats{Equations: p.Equations, Ordering: p.Method, FactorNonzeros: p.NnzL, Flops: p.Flops})
		}
		lv.Stage(engineSteps[p.Stage], 100*p.Fraction)
		if id := p.Case; id != 0 {
			lv.Case(slices.Index(ids, id)+1, id)
		}
	}
}

// Indexes of staticSteps.
const (
	stepRead = iota
	stepSetup
	stepAssembly
	stepFactor
	stepSolve
	stepRecover
	stepStore
)

// runStatic runs a linear static analysis.
func (r runner) runStatic(ctx context.Context, t lifecycle.Task) error {
	return r.Execute(ctx, t, staticSteps, func(ctx context.Context, job model.Job, lv *lifecycle.Progress) (lifecycle.Publisher, error) {
		s, err := analysis.RunSettings[model.StaticSettings](staticFamily, t, job)
		if err != nil {
			return nil, err
		}
		set, err := r.solveStatic(ctx, t, job, s, lv)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, rev int64, complete lifecycle.Completion) error {
			set.rev = rev
			return r.storeStatic(ctx, t, s, set, complete)
		}, nil
	})
}

// staticSet is what a static run stores.
type staticSet struct {
	rev     int64
	nodes   []int64
	members []int64 // id, nodeA, nodeB
	plates  []int64 // id, nodeA … nodeD
	cases   []columns.CaseMeta
	// failed are the cases a run analysed that have no results (a
	// non-linear case that did not converge): their stored results go,
	// even with retainLoadCases.
	failed  []int64
	columns map[string][]byte
}

// solveStatic reads the model, analyses it and packs the results.
func (r runner) solveStatic(ctx context.Context, t lifecycle.Task, job model.Job, s model.StaticSettings, lv *lifecycle.Progress) (*staticSet, error) {
	lv.Stage(stepRead, 0)
	list, some := s.LoadCaseList()
	in, ids, err := readModel(ctx, r, t, job, adapter.CaseChoice{List: list, Some: some, Raw: s.LoadCases,
		Check: s.CheckNonExistentLoadCases}, s.SolverType, s.DrillingStiffness, lv)
	if err != nil {
		return nil, err
	}
	lv.Stage(stepSetup, 0)
	opts := engineOptions(s)
	opts.Cases = ids
	fz := &linsys.SparseFactorizer{Orderings: opts.Orderings()}
	opts.Factorizer = fz
	opts.Progress = engineProgress(lv, ids)
	// The stored results are the end states; stations are rebuilt from
	// them when asked for (query_stations.go).
	opts.EndsOnly = true
	opts.Admit = func(e static.MemoryEstimate) error { return admitStatic(ctx, r, t, lv, in.Model, e) }
	res, err := static.Analyze(ctx, in.Model, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, adapter.EngineError(err)
	}
	if st := fz.Stats(); st.Factorizations > 0 {
		lv.Solved(lifecycle.SolverStats{Equations: res.Timings.Equations, Ordering: st.Method.String(),
			FactorNonzeros: st.NnzL, Flops: st.Flops})
	}
	lv.Warn(res.Warnings...)
	lv.Case(len(ids), ids[len(ids)-1])
	if err := finiteResults(res); err != nil {
		return nil, err
	}
	now := r.Now().UTC()
	set := packStatic(in.Model, res, ids, t.RunID, string(s.SolverType), now)
	return set, nil
}

// admitStatic reserves the memory of a static run of m: the engine's
// estimate e, plus the results packed into columns (packStatic) while the
// engine's are still held, counted twice for their copy on the way to
// Redis.
func admitStatic(ctx context.Context, r runner, t lifecycle.Task, lv *lifecycle.Progress, m *domain.Model, e static.MemoryEstimate) error {
	packed := int64(columns.Disp.RowBytes()+columns.React.RowBytes())*int64(len(m.Nodes)) +
		int64(columns.End.RowBytes())*int64(len(m.Members)) + int64(columns.PlateForces.RowBytes())*int64(len(m.Plates))
	need := e.Total + 2*packed*int64(e.Cases)
	what := fmt.Sprintf("%d equations, %d load case(s): %s for the factorization, %s for the results of each case",
		e.Equations, e.Cases, lifecycle.MiB(e.Factor), lifecycle.MiB(e.PerCase+2*packed))
	return r.Admit(ctx, t, lv, need, what)
}

// readModel reads and converts the job's model for the run of t
// (adapter.Read) and records the run's first parameters.
func readModel(ctx context.Context, r runner, t lifecycle.Task, job model.Job, ch adapter.CaseChoice, solver model.SolverType, drilling float64,
	lv *lifecycle.Progress) (adapter.Input, []int64, error) {
	in, ids, err := adapter.Read(ctx, r.Source, t.Workspace, job.Settings, ch, drilling)
	if err == nil {
		lv.ModelRead(len(in.Model.Nodes), len(in.Model.Members), len(in.Model.Plates), len(ids), solver, in.Warnings)
	}
	return in, ids, err
}

// engineOptions maps the static settings onto the engine's options.
// optimizationMethod General, Linear and Circular are the desktop
// program's profile-reduction variants; the engine's fill-reducing
// orderings serve them all (Auto). tensionCompressionOnly Activated and
// GradualActivation run the reversal loop; NoReversal and Deactivated
// treat one-way members as ordinary two-way members.
func engineOptions(s model.StaticSettings) static.Options {
	o := static.Options{
		StabilizeUnrestrainedNodes: s.StabilizeUnrestrainedNodes,
		ReversalIterations:         s.ReversalIterations,
	}
	switch s.TensionCompressionOnly {
	case "Activated", "GradualActivation":
		o.TensionCompressionOnly = true
	}
	if s.SolverType == "Wavefront" {
		o.SolverType = linsys.Wavefront
	}
	if s.OptimizationMethod == "None" {
		o.OptimizationMethod = linsys.OptimizeNone
	}
	return o
}

// packStatic packs the results of the cases ids (engine results in the
// same order) into columns.
func packStatic(m *domain.Model, res *static.Results, ids []int64, runID, solver string, at time.Time) *staticSet {
	set := newStaticSet(m)
	nonlinear := false
	for _, mb := range m.Members {
		nonlinear = nonlinear || mb.Type == domain.TensionOnly || mb.Type == domain.CompressionOnly ||
			mb.Type == domain.Cable || mb.Type == domain.Gap
	}
	for i, cr := range res.Cases {
		var rows caseRows
		rows.disp = make([]columns.DispRow, len(cr.Nodes))
		for j, nr := range cr.Nodes {
			rows.disp[j] = columns.DispRow{U: nr.Disp}
			if nr.HasReaction {
				rows.react = append(rows.react, columns.ReactRow{Node: float64(set.nodes[j]), F: nr.Reaction})
			}
		}
		rows.end = make([]columns.EndRow, len(cr.Members))
		for j := range cr.Members {
			mr := &cr.Members[j]
			rows.end[j] = columns.NewEndRow(&mr.EndA, &mr.EndB, &mr.DispA, mr.Inactive)
		}
		rows.sum = columns.SummaryRow{Load: cr.Summary.Load, Reaction: cr.Summary.Reaction, Residual: cr.Summary.Residual, MaxLoad: cr.Summary.MaxLoad}
		if len(m.Plates) > 0 {
			rows.plate = plateValues(cr.Plates, func(p *static.PlateResult) *domain.PlateResult { return &p.PlateResult })
		}
		set.addCase(ids[i], rows, columns.CaseMeta{LoadCase: ids[i], RunID: runID, Solver: solver, IsNonLinear: nonlinear, AnalysedAt: at})
	}
	return set
}

// caseRows are the rows of one case's columns (columns.go).
type caseRows struct {
	disp  []columns.DispRow
	react []columns.ReactRow
	end   []columns.EndRow
	sum   columns.SummaryRow
	plate []columns.PlateForcesRow
	cable []float64
}

// addCase adds the columns and the record of case lc; rows.plate is nil
// when the model has no plates, rows.cable when the case reports no cable
// lengths (a linear case, a model without cables).
func (set *staticSet) addCase(lc int64, rows caseRows, meta columns.CaseMeta) {
	set.columns[columns.Disp.Of(lc)] = columns.Disp.Encode(rows.disp)
	set.columns[columns.React.Of(lc)] = columns.React.Encode(rows.react)
	set.columns[columns.End.Of(lc)] = columns.End.Encode(rows.end)
	set.columns[columns.Summary.Of(lc)] = columns.Summary.Encode([]columns.SummaryRow{rows.sum})
	if rows.plate != nil {
		set.columns[columns.PlateForces.Of(lc)] = columns.PlateForces.Encode(rows.plate)
	}
	if rows.cable != nil {
		set.columns[columns.Cable.Of(lc)] = columns.Cable.Encode(rows.cable)
	}
	set.cases = append(set.cases, meta)
}

// newStaticSet returns a set holding the model-wide columns of m: nodes,
// members and, when it has plates, plates. Its members and plates are
// read back from their columns, flat, as gatherStaged reads those of a
// fanned-out run, so that a set means the same however it was made.
func newStaticSet(m *domain.Model) *staticSet {
	set := &staticSet{columns: map[string][]byte{}}
	set.nodes = make([]int64, len(m.Nodes))
	for i, n := range m.Nodes {
		set.nodes[i] = n.ID
	}
	set.columns[columns.Nodes.Name()] = columns.Nodes.Encode(set.nodes)
	set.columns[columns.Members.Name()] = columns.Members.Encode(columns.MembersOf(m))
	set.members, _ = columns.Ints(set.columns[columns.Members.Name()], columns.WidthMember, columns.Members.Name())
	if len(m.Plates) > 0 {
		set.columns[columns.PlateNodes.Name()] = columns.PlateNodes.Encode(plateColumn(m))
		set.plates, _ = columns.Ints(set.columns[columns.PlateNodes.Name()], columns.WidthPlates, columns.PlateNodes.Name())
	}
	return set
}

// storeStatic writes the results of a run: with retainLoadCases the
// results of cases it did not analyse stay, otherwise they go.
func (r runner) storeStatic(ctx context.Context, t lifecycle.Task, s model.StaticSettings, set *staticSet, complete lifecycle.Completion) error {
	old, err := ReadStaticMeta(ctx, r.Results, t.Workspace)
	if err != nil {
		return err
	}
	meta := StaticMeta{Rev: set.rev, Nodes: len(set.nodes), Members: len(set.members) / columns.WidthMember,
		Plates: len(set.plates) / columns.WidthPlates}
	var prev []columns.CaseMeta
	if old != nil {
		prev = old.Cases
	}
	var drop []string
	var gone []columns.CaseMeta
	// A case analysed again, failed or not, takes the load steps an
	// earlier run kept of it along with its own results.
	again := map[int64]bool{}
	for _, lc := range set.failed {
		again[lc] = true
	}
	for _, c := range set.cases {
		again[c.LoadCase] = again[c.LoadCase] || c.StepOf == 0
	}
	prev = slices.DeleteFunc(slices.Clone(prev), func(c columns.CaseMeta) bool {
		if slices.Contains(set.failed, c.LoadCase) || (c.StepOf != 0 && again[c.StepOf]) {
			gone = append(gone, c)
			return true
		}
		return false
	})
	meta.Cases, drop = lifecycle.MergeCases(prev, set.cases, s.RetainLoadCases, columns.CaseColumns, func(c columns.CaseMeta) int64 { return c.LoadCase })
	for _, c := range gone {
		for _, col := range columns.CaseColumns {
			drop = append(drop, columns.CaseColumn(c.LoadCase, col))
		}
	}
	rows, err := r.stepRows(ctx, t, meta.Cases)
	if err != nil {
		return err
	}
	if len(rows) > 0 {
		meta.Rev++ // the rows are a model change the results belong to
	}
	raw, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	return r.Publish(ctx, t, staticName, store.ResultSet{Meta: raw, Columns: set.columns}, drop, rows, complete)
}

// stepRows returns the load-case rows a static run publishes with its
// results cases: a row for each Step load case this run made (replacing
// any row of that id), and the removal of each Step load case of the model whose results go
// (not retained, or of a case analysed again), so that the Step cases
// listed are exactly those with results.
func (r runner) stepRows(ctx context.Context, t lifecycle.Task, cases []columns.CaseMeta) ([]store.Op, error) {
	stored, err := r.Source.Loads.Cases.All(ctx, t.Workspace)
	if err != nil {
		return nil, err
	}
	have := map[int64]bool{}
	for _, c := range stored {
		if c.StepOf != 0 {
			have[c.ID] = true
		}
	}
	var rows []store.Op
	for _, c := range cases {
		if c.StepOf == 0 {
			continue
		}
		kept := have[c.LoadCase]
		delete(have, c.LoadCase)
		if kept && c.RunID != t.RunID {
			continue // retained from an earlier run, row and all
		}
		raw, err := json.Marshal(model.LoadCase{ID: c.LoadCase, StepOf: c.StepOf,
			Title: fmt.Sprintf("Step %d of case %d, load factor %.6g", c.Step, c.StepOf, c.LoadFactor),
			Notes: fmt.Sprintf("Load step kept by non-linear run %s: the state of load case %d at load factor %.6g "+
				"(step %d). It goes when that case is analysed again or a static run does not retain it.",
				c.RunID, c.StepOf, c.LoadFactor, c.Step)})
		if err != nil {
			return nil, err
		}
		rows = append(rows, store.Op{Kind: store.OpPut, Coll: model.CollLoadCases, Key: store.Key(c.LoadCase), Value: raw})
	}
	for _, id := range slices.Sorted(maps.Keys(have)) {
		rows = append(rows, store.Op{Kind: store.OpDeleteIfAny, Coll: model.CollLoadCases, Key: store.Key(id)})
	}
	return rows, nil
}

// finiteResults refuses results that are not finite numbers, or beyond
// maxStored (properties so small or large that the arithmetic
// overflowed): they cannot be stored, sent as JSON or trusted, and the
// message names where to look.
func finiteResults(res *static.Results) error {
	bad := func(vs ...[6]float64) bool {
		for _, v := range vs {
			for _, x := range v {
				if !columns.Storable(x) {
					return true
				}
			}
		}
		return false
	}
	for _, c := range res.Cases {
		for _, n := range c.Nodes {
			if bad(n.Disp, n.Reaction) {
				return lifecycle.ModelError("load case %d: the results at node %d are not finite numbers; check the properties of the members and supports there", c.Case, n.Node)
			}
		}
		for _, m := range c.Members {
			if bad(m.EndA, m.EndB, m.DispA) {
				return lifecycle.ModelError("load case %d: the results of member %d are not finite numbers; check its section and material properties", c.Case, m.Member)
			}
		}
		for i := range c.Plates {
			p := &c.Plates[i]
			r := p.Resultants
			if !allStorable(r.F[:], r.M[:], r.V[:], p.NodeForces) {
				return lifecycle.ModelError("load case %d: the results of plate %d are not finite numbers; check its thicknesses and material properties", c.Case, p.Plate)
			}
		}
	}
	return nil
}

// allStorable reports whether every value of vs may be stored.
func allStorable(vs ...[]float64) bool {
	for _, v := range vs {
		for _, x := range v {
			if !columns.Storable(x) {
				return false
			}
		}
	}
	return true
}

// plateColumn returns the corners of every plate of m, model order.
func plateColumn(m *domain.Model) []columns.PlateNodesRow {
	out := make([]columns.PlateNodesRow, len(m.Plates))
	for i, p := range m.Plates {
		out[i].ID = p.ID
		copy(out[i].Nodes[:], p.Nodes)
	}
	return out
}

// plateValues returns the rows of the plate results of a case (model
// order). An inactive plate (no results) stores zeros.
func plateValues[P any](ps []P, of func(*P) *domain.PlateResult) []columns.PlateForcesRow {
	out := make([]columns.PlateForcesRow, len(ps))
	for i := range ps {
		p := of(&ps[i])
		r := &out[i]
		r.F, r.M, r.V = p.Resultants.F, p.Resultants.M, p.Resultants.V
		// NodeForces are six per corner, of three or four corners (none
		// for an inactive plate).
		for k := range min(len(p.NodeForces)/6, len(r.Corners)) {
			r.Corners[k] = [6]float64(p.NodeForces[6*k : 6*k+6])
		}
	}
	return out
}
