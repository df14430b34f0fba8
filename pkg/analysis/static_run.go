package analysis

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/static"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

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
func (r *Runner) runStatic(ctx context.Context, t Task) error {
	return r.Execute(ctx, t, staticSteps, func(ctx context.Context, job model.Job, lv *Progress) (Publisher, error) {
		s, err := RunSettings[model.StaticSettings](staticFamily, t, job)
		if err != nil {
			return nil, err
		}
		set, err := r.solveStatic(ctx, t, job, s, lv)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, rev int64, complete func(*model.Run)) error {
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
	cases   []CaseMeta
	// failed are the cases a run analysed that have no results (a
	// non-linear case that did not converge): their stored results go,
	// even with retainLoadCases.
	failed  []int64
	columns map[string][]byte
}

// solveStatic reads the model, analyses it and packs the results.
func (r *Runner) solveStatic(ctx context.Context, t Task, job model.Job, s model.StaticSettings, lv *Progress) (*staticSet, error) {
	lv.stage(stepRead, 0)
	list, some := s.LoadCaseList()
	in, names, ids, err := r.readModel(ctx, t, job, caseChoice{list: list, some: some, raw: s.LoadCases,
		check: s.CheckNonExistentLoadCases}, s.SolverType, s.DrillingStiffness, lv)
	if err != nil {
		return nil, err
	}
	lv.stage(stepSetup, 0)
	opts := engineOptions(s)
	opts.Cases = names
	fz := &linsys.SparseFactorizer{Orderings: opts.Orderings()}
	opts.Factorizer = fz
	opts.Progress = lv.engine(ids)
	res, err := static.Analyze(ctx, in.Model, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, modelError("%s", r.engineMessage(t, err))
	}
	if st := fz.Stats(); st.Factorizations > 0 {
		lv.solverParams(res.Timings.Equations, st.Method.String(), st.NnzL, st.Flops)
	}
	lv.set(func(l *Progress) {
		l.warnings = append(l.warnings, res.Warnings...)
		l.caseIdx, l.caseID = len(names), ids[len(ids)-1]
	})
	if err := finiteResults(res); err != nil {
		return nil, err
	}
	now := r.Now().UTC()
	set := packStatic(in.Model, res, ids, t.RunID, string(s.SolverType), now)
	return set, nil
}

// readModel reads and converts the job's model, sets the plates' drilling
// stiffness multiplier, picks the load cases of ch and records the run's
// first parameters.
func (r *Runner) readModel(ctx context.Context, t Task, job model.Job, ch caseChoice, solver model.SolverType, drilling float64, lv *Progress) (
	in Input, names []int64, ids []int64, err error) {
	if in, err = Build(ctx, r.Source, t.Workspace, job.Settings); err != nil {
		return in, nil, nil, err
	}
	in.Model.DrillingStiffness = drilling
	ch.steps = in.StepCases
	if names, ids, err = selectCases(in.Model, ch); err != nil {
		return in, nil, nil, err
	}
	lv.set(func(l *Progress) {
		l.caseN, l.warnings = len(names), append(l.warnings, in.Warnings...)
		l.params = []model.Parameter{
			{Label: paramNodes, Value: strconv.Itoa(len(in.Model.Nodes))},
			{Label: paramMembers, Value: strconv.Itoa(len(in.Model.Members))},
			{Label: paramPlates, Value: strconv.Itoa(len(in.Model.Plates))},
			{Label: paramCases, Value: strconv.Itoa(len(names))},
			{Label: paramSolver, Value: string(solver)},
		}
	})
	return in, names, ids, nil
}

// caseChoice is what the settings of a run say about its load cases.
type caseChoice struct {
	list model.IDList
	some bool   // false: all cases
	raw  string // loadCases as stored, for messages
	// check is checkNonExistentLoadCases.
	check bool
	// primaryOnly, when set, names an analysis that takes primary load
	// cases only: "all" leaves the combinations out, and a list naming one
	// is an error.
	primaryOnly string
	// steps are the job's Step load cases (Input.StepCases): never
	// analysed, but not missing either.
	steps map[int64]int64
}

// selectCases picks the load cases and combinations the settings ask for:
// all of them when loadCases is empty. It returns their engine names and
// ids, ascending (the engine names them by their ids).
func selectCases(m *domain.Model, ch caseChoice) ([]int64, []int64, error) {
	exists := map[int64]int64{}
	for _, c := range m.LoadCases {
		exists[c.ID] = c.ID
	}
	combos := map[int64]bool{}
	for _, c := range m.Combinations {
		if ch.primaryOnly != "" {
			combos[c.ID] = true
			continue
		}
		exists[c.ID] = c.ID
	}
	list, some, s := ch.list, ch.some, ch
	var ids []int64
	var missing []int64
	if some {
		for _, rg := range list.Ranges {
			// Ranges may be wide ("1-100000"): walk the cases, not the range.
			for id := range exists {
				if id >= rg.Lo && id <= rg.Hi {
					ids = append(ids, id)
				}
			}
			for id := range combos {
				if id >= rg.Lo && id <= rg.Hi {
					return nil, nil, modelError("load case %d is a combination: %s analysis takes primary load cases only "+
						"(make a primary case holding the combined loads)", id, ch.primaryOnly)
				}
			}
			if s.check {
				for id := rg.Lo; id <= rg.Hi && len(missing) < 20; id++ {
					if _, ok := exists[id]; !ok && ch.steps[id] == 0 {
						missing = append(missing, id)
					}
				}
			}
		}
	} else {
		for id := range exists {
			ids = append(ids, id)
		}
	}
	if len(missing) > 0 {
		return nil, nil, modelError("loadCases lists load cases that do not exist: %s (checkNonExistentLoadCases is on)",
			model.FormatIDs(missing, nil))
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(ids) == 0 {
		if some {
			var step int64 // the first Step case listed, for the message
			for id := range ch.steps {
				if list.Contains(id) && (step == 0 || id < step) {
					step = id
				}
			}
			if step != 0 {
				return nil, nil, modelError("loadCases %q names only Step load cases (such as %d, a load step of case %d): "+
					"they hold the results of a non-linear run's load steps and are not analysed themselves", s.raw, step, ch.steps[step])
			}
			return nil, nil, modelError("none of the load cases in loadCases %q exists", s.raw)
		}
		if ch.primaryOnly != "" {
			return nil, nil, modelError("the model has no primary load cases to analyse")
		}
		return nil, nil, modelError("the model has no load cases to analyse")
	}
	names := make([]int64, len(ids))
	for i, id := range ids {
		names[i] = exists[id]
	}
	return names, ids, nil
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
		rows.disp = make([]dispRow, len(cr.Nodes))
		for j, nr := range cr.Nodes {
			rows.disp[j] = dispRow{U: nr.Disp}
			if nr.HasReaction {
				rows.react = append(rows.react, reactRow{Node: float64(set.nodes[j]), F: nr.Reaction})
			}
		}
		rows.end = make([]endRow, len(cr.Members))
		for j := range cr.Members {
			mr := &cr.Members[j]
			rows.end[j] = newEndRow(&mr.EndA, &mr.EndB, &mr.DispA, mr.Inactive)
		}
		rows.sum = summaryRow{Load: cr.Summary.Load, Reaction: cr.Summary.Reaction, Residual: cr.Summary.Residual, MaxLoad: cr.Summary.MaxLoad}
		if len(m.Plates) > 0 {
			rows.plate = plateValues(cr.Plates, func(p *static.PlateResult) *domain.PlateResult { return &p.PlateResult })
		}
		set.addCase(ids[i], rows, CaseMeta{LoadCase: ids[i], RunID: runID, Solver: solver, IsNonLinear: nonlinear, AnalysedAt: at})
	}
	return set
}

// caseRows are the rows of one case's columns (columns.go).
type caseRows struct {
	disp  []dispRow
	react []reactRow
	end   []endRow
	sum   summaryRow
	plate []plateForcesRow
	cable []float64
}

// addCase adds the columns and the record of case lc; rows.plate is nil
// when the model has no plates, rows.cable when the case reports no cable
// lengths (a linear case, a model without cables).
func (set *staticSet) addCase(lc int64, rows caseRows, meta CaseMeta) {
	set.columns[dispCol.of(lc)] = dispCol.encode(rows.disp)
	set.columns[reactCol.of(lc)] = reactCol.encode(rows.react)
	set.columns[endCol.of(lc)] = endCol.encode(rows.end)
	set.columns[summaryCol.of(lc)] = summaryCol.encode([]summaryRow{rows.sum})
	if rows.plate != nil {
		set.columns[plateCol.of(lc)] = plateCol.encode(rows.plate)
	}
	if rows.cable != nil {
		set.columns[cableCol.of(lc)] = cableCol.encode(rows.cable)
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
	set.columns[colNodes] = nodesCol.encode(set.nodes)
	set.columns[colMembers] = membersCol.encode(memberColumn(m))
	set.members, _ = ints(set.columns[colMembers], widthMember, colMembers)
	if len(m.Plates) > 0 {
		set.columns[colPlates] = platesCol.encode(plateColumn(m))
		set.plates, _ = ints(set.columns[colPlates], widthPlates, colPlates)
	}
	return set
}

// storeStatic writes the results of a run: with retainLoadCases the
// results of cases it did not analyse stay, otherwise they go.
func (r *Runner) storeStatic(ctx context.Context, t Task, s model.StaticSettings, set *staticSet, complete func(*model.Run)) error {
	old, err := ReadStaticMeta(ctx, r.Results, t.Workspace)
	if err != nil {
		return err
	}
	meta := StaticMeta{Rev: set.rev, Nodes: len(set.nodes), Members: len(set.members) / widthMember,
		Plates: len(set.plates) / widthPlates}
	var prev []CaseMeta
	if old != nil {
		prev = old.Cases
	}
	var drop []string
	var gone []CaseMeta
	// A case analysed again, failed or not, takes the load steps an
	// earlier run kept of it along with its own results.
	again := map[int64]bool{}
	for _, lc := range set.failed {
		again[lc] = true
	}
	for _, c := range set.cases {
		again[c.LoadCase] = again[c.LoadCase] || c.StepOf == 0
	}
	prev = slices.DeleteFunc(slices.Clone(prev), func(c CaseMeta) bool {
		if slices.Contains(set.failed, c.LoadCase) || (c.StepOf != 0 && again[c.StepOf]) {
			gone = append(gone, c)
			return true
		}
		return false
	})
	meta.Cases, drop = mergeCases(prev, set.cases, s.RetainLoadCases, caseColumns, func(c CaseMeta) int64 { return c.LoadCase })
	for _, c := range gone {
		for _, col := range caseColumns {
			drop = append(drop, caseColumn(c.LoadCase, col))
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
func (r *Runner) stepRows(ctx context.Context, t Task, cases []CaseMeta) ([]store.Op, error) {
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
				if !storable(x) {
					return true
				}
			}
		}
		return false
	}
	for _, c := range res.Cases {
		for _, n := range c.Nodes {
			if bad(n.Disp, n.Reaction) {
				return modelError("load case %d: the results at node %d are not finite numbers; check the properties of the members and supports there", c.Case, n.Node)
			}
		}
		for _, m := range c.Members {
			if bad(m.EndA, m.EndB, m.DispA) {
				return modelError("load case %d: the results of member %d are not finite numbers; check its section and material properties", c.Case, m.Member)
			}
		}
		for i := range c.Plates {
			p := &c.Plates[i]
			r := p.Resultants
			if !allStorable(r.F[:], r.M[:], r.V[:], p.NodeForces) {
				return modelError("load case %d: the results of plate %d are not finite numbers; check its thicknesses and material properties", c.Case, p.Plate)
			}
		}
	}
	return nil
}

// allStorable reports whether every value of vs may be stored.
func allStorable(vs ...[]float64) bool {
	for _, v := range vs {
		for _, x := range v {
			if !storable(x) {
				return false
			}
		}
	}
	return true
}

// plateColumn returns the corners of every plate of m, model order.
func plateColumn(m *domain.Model) []plateNodesRow {
	out := make([]plateNodesRow, len(m.Plates))
	for i, p := range m.Plates {
		out[i].ID = p.ID
		copy(out[i].Nodes[:], p.Nodes)
	}
	return out
}

// plateValues returns the rows of the plate results of a case (model
// order). An inactive plate (no results) stores zeros.
func plateValues[P any](ps []P, of func(*P) *domain.PlateResult) []plateForcesRow {
	out := make([]plateForcesRow, len(ps))
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
