package eigen

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/fem/buckling"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/dynamic"
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/modal"
	"github.com/gusset/gusset/pkg/fem/static"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Steps of the eigen runs as the progress shows them. The engine's eigen
// analyses report no progress of their own, so the middle step goes from 0
// to 100 at once.
var (
	dynamicSteps  = []string{"Reading the model", "Forming stiffness and mass, finding the modes", "Storing results"}
	bucklingSteps = []string{"Reading the model", "Static analysis, geometric stiffness, finding the load factors", "Storing results"}
)

// MaxEigenModes bounds the modes a buckling or frequency run computes per
// load case (the engine's modal.MaxModes): the settings allow more, so a
// run start checks it.
const MaxEigenModes = modal.MaxModes

// CheckEigenModes refuses a run of modes modes per case beyond
// MaxEigenModes.
func CheckEigenModes(modes int) error {
	if modes > MaxEigenModes {
		return model.Invalid("modes", "modes is %d, and an analysis computes at most %d per load case", modes, MaxEigenModes)
	}
	return nil
}

// Names of the eigen runs' own parameters.
const (
	paramModes          = "Modes"
	paramFactorizations = "Factorizations"
	paramApplies        = "Operator applications"
)

// eigenRun is what the two eigen runs have in common once their settings
// are read.
type eigenRun struct {
	kind     model.AnalysisFamily
	what     string // the analysis, in messages
	choice   adapter.CaseChoice
	settings modal.Settings
	solver   model.SolverType
	drilling float64 // drillingStiffness
	retain   bool
	// analyze runs the engine on the cases of settings.
	analyze func(ctx context.Context, m *domain.Model, s modal.Settings) ([]eigenCase, modal.Report, error)
}

// runDynamic runs a natural-frequency analysis.
func (r runner) runDynamic(ctx context.Context, t lifecycle.Task) error {
	return r.Execute(ctx, t, dynamicSteps, func(ctx context.Context, job model.Job, lv *lifecycle.Progress) (lifecycle.Publisher, error) {
		s, err := analysis.RunSettings[model.DynamicSettings](dynamicFamily, t, job)
		if err != nil {
			return nil, err
		}
		list, some := s.LoadCaseList()
		er := eigenRun{kind: dynamicName, what: "frequency",
			choice: adapter.CaseChoice{List: list, Some: some, Raw: s.LoadCases, Check: s.CheckNonExistentLoadCases, PrimaryOnly: "frequency"},
			settings: eigenSettings(s.Modes, s.LowerLimit, s.UpperLimit, s.Tolerance, s.ExtraIterations, s.StabilizeUnrestrainedNodes,
				s.SolverType, s.OptimizationMethod),
			solver: s.SolverType, drilling: s.DrillingStiffness, retain: s.RetainLoadCases,
			analyze: func(ctx context.Context, m *domain.Model, ms modal.Settings) ([]eigenCase, modal.Report, error) {
				// Shapes are stored as the solver returns them (mass-
				// normalized); the queries scale them.
				ms.Normalization = modal.NotNormalized
				res, err := dynamic.Analyze(ctx, m, dynamic.Options{Settings: ms, Shift: s.FrequencyShift})
				if err != nil {
					return nil, modal.Report{}, err
				}
				out := make([]eigenCase, len(res.Cases))
				for i, c := range res.Cases {
					for _, md := range c.Modes {
						out[i].modes = append(out[i].modes, eigenMode{value: md.Frequency, period: md.Period,
							residual: md.Tolerance, iterations: md.Iterations, part: md.Participation, shape: md.Shape})
					}
				}
				return out, res.Report, nil
			}}
		return r.solveEigen(ctx, t, job, er, lv)
	})
}

// runBuckling runs a buckling analysis.
func (r runner) runBuckling(ctx context.Context, t lifecycle.Task) error {
	return r.Execute(ctx, t, bucklingSteps, func(ctx context.Context, job model.Job, lv *lifecycle.Progress) (lifecycle.Publisher, error) {
		s, err := analysis.RunSettings[model.BucklingSettings](bucklingFamily, t, job)
		if err != nil {
			return nil, err
		}
		if s.AxialForceDistribution == model.AxialForceNonLinear {
			return nil, lifecycle.ModelError("axialForceDistribution NonLinear (buckling from the axial forces of a non-linear " +
				"static analysis) is not joined to buckling yet; set it to Linear")
		}
		list, some := s.LoadCaseList()
		er := eigenRun{kind: bucklingName, what: "buckling",
			choice: adapter.CaseChoice{List: list, Some: some, Raw: s.LoadCases, Check: s.CheckNonExistentLoadCases, PrimaryOnly: "buckling"},
			settings: eigenSettings(s.Modes, s.LowerLimit, s.UpperLimit, s.Tolerance, s.ExtraIterations, s.StabilizeUnrestrainedNodes,
				s.SolverType, s.OptimizationMethod),
			solver: s.SolverType, drilling: s.DrillingStiffness, retain: s.RetainLoadCases,
			analyze: func(ctx context.Context, m *domain.Model, ms modal.Settings) ([]eigenCase, modal.Report, error) {
				if oneWay := oneWayMember(m); oneWay != 0 && reversing(s.TensionCompressionOnly) {
					return nil, modal.Report{}, lifecycle.ModelError("member %d is tension-only or compression-only, and buckling analysis "+
						"cannot resolve such members yet (tensionCompressionOnly %s): set tensionCompressionOnly to NoReversal "+
						"to treat them as two-way members", oneWay, s.TensionCompressionOnly)
				}
				ms.Normalization = modal.UnitNormalized
				res, err := buckling.Analyze(ctx, m, buckling.Options{Settings: ms})
				if err != nil {
					return nil, modal.Report{}, err
				}
				out := make([]eigenCase, len(res.Cases))
				for i, c := range res.Cases {
					for _, md := range c.Modes {
						em := eigenMode{value: md.LoadFactor, residual: md.Tolerance, iterations: md.Iterations, shape: md.Shape,
							lengths: make([]lengthRow, len(md.Members))}
						for k, el := range md.Members {
							em.lengths[k] = lengthRow{pcr: el.Pcr, length: el.Length, ly: el.Ly, lz: el.Lz, reason: el.Excluded}
						}
						out[i].modes = append(out[i].modes, em)
					}
				}
				return out, res.Report, nil
			}}
		return r.solveEigen(ctx, t, job, er, lv)
	})
}

// reversing reports whether tensionCompressionOnly asks for the reversal
// loop.
func reversing(v string) bool { return v == "Activated" || v == "GradualActivation" }

// oneWayMember returns the id of the first tension-only or
// compression-only member of m, 0 if none.
func oneWayMember(m *domain.Model) int64 {
	for _, mb := range m.Members {
		if mb.Type.OneWay() != 0 {
			return mb.ID
		}
	}
	return 0
}

// eigenSettings maps the service's eigen settings onto the engine's.
func eigenSettings(modes int, lo, hi, tol float64, extra, stabilize bool, solver model.SolverType, opt string) modal.Settings {
	ms := modal.Settings{Modes: modes, LowerLimit: lo, UpperLimit: hi, Tolerance: tol, ExtraIterations: extra, Stabilize: stabilize}
	if solver == "Wavefront" {
		ms.SolverType = linsys.Wavefront
	}
	if opt == "None" {
		ms.OptimizationMethod = linsys.OptimizeNone
	}
	return ms
}

// solveEigen reads the model, runs er's analysis and packs the results.
func (r runner) solveEigen(ctx context.Context, t lifecycle.Task, job model.Job, er eigenRun, lv *lifecycle.Progress) (lifecycle.Publisher, error) {
	lv.Stage(0, 0)
	in, ids, err := adapter.Read(ctx, r.Source, t.Workspace, job.Settings, er.choice, er.drilling)
	if err != nil {
		return nil, err
	}
	lv.ModelRead(len(in.Model.Nodes), len(in.Model.Members), len(in.Model.Plates), len(ids), er.solver, in.Warnings)
	lv.Parameter(paramModes, strconv.Itoa(er.settings.Modes))
	lv.Stage(1, 0)
	ms := er.settings
	ms.Cases = ids
	ms.Admit = func(e static.MemoryEstimate) error {
		// The shapes packed into columns (a node's six values, each mode)
		// while the engine's are held, and their copy on the way to Redis.
		packed := 2 * int64(er.settings.Modes) * 48 * int64(len(in.Model.Nodes))
		return r.Admit(ctx, t, lv, e.Total+packed*int64(e.Cases), fmt.Sprintf("%d equations, %d load case(s) of %d modes: %s for the factorization, %s for the eigensolver",
			e.Equations, e.Cases, er.settings.Modes, lifecycle.MiB(e.Factor), lifecycle.MiB(e.Work)))
	}
	cases, rep, err := er.analyze(ctx, in.Model, ms)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		if model.KindOf(err) == model.KindValidation {
			return nil, err
		}
		return nil, adapter.EngineError(err)
	}
	lv.Warn(rep.Warnings...)
	lv.Case(len(ids), ids[len(ids)-1])
	lv.Solved(lifecycle.SolverStats{Equations: rep.Equations})
	lv.Parameter(paramFactorizations, strconv.Itoa(rep.Factorizations))
	lv.Parameter(paramApplies, strconv.Itoa(rep.Applies))
	for i := range cases {
		cases[i].id, cases[i].requested = ids[i], er.settings.Modes
		if err := finiteModes(cases[i], er.what); err != nil {
			return nil, err
		}
	}
	tol := er.settings.Tolerance
	if er.settings.ExtraIterations {
		tol /= 100
	}
	set := packEigen(in.Model, cases, tol, t.RunID, string(er.solver), r.Now().UTC())
	return func(ctx context.Context, rev int64, complete lifecycle.Completion) error {
		return r.storeEigen(ctx, t, er.kind, er.retain, rev, set, complete)
	}, nil
}

// finiteModes refuses modes holding numbers that are not finite: they
// cannot be stored, sent as JSON or trusted.
func finiteModes(c eigenCase, what string) error {
	ok := func(vs ...float64) bool {
		for _, v := range vs {
			if !columns.Storable(v) {
				return false
			}
		}
		return true
	}
	for j, md := range c.modes {
		good := ok(md.value, md.period, md.residual) && ok(md.part[:]...)
		for _, s := range md.shape {
			good = good && ok(s[:]...)
		}
		for _, l := range md.lengths {
			good = good && ok(l.pcr, l.length, l.ly, l.lz)
		}
		if !good {
			return lifecycle.ModelError("load case %d, %s mode %d: the results are not finite numbers; check the properties of "+
				"the members and supports", c.id, what, j+1)
		}
	}
	return nil
}

// storeEigen writes the results of an eigen run: with retain the results
// of cases it did not analyse stay, otherwise they go.
func (r runner) storeEigen(ctx context.Context, t lifecycle.Task, kind model.AnalysisFamily, retain bool, rev int64, set *eigenSet,
	complete lifecycle.Completion) error {
	raw, err := r.Results.Meta(ctx, t.Workspace, kind)
	if err != nil {
		return err
	}
	old, err := decodeEigenMeta(raw)
	if err != nil {
		return err
	}
	meta := EigenMeta{Rev: rev, Nodes: set.nodes, Members: set.members}
	var prev []EigenCaseMeta
	if old != nil {
		prev = old.Cases
	}
	var drop []string
	meta.Cases, drop = lifecycle.MergeCases(prev, set.cases, retain, eigenCaseColumns(kind), func(c EigenCaseMeta) int64 { return c.LoadCase })
	if raw, err = json.Marshal(meta); err != nil {
		return err
	}
	return r.Publish(ctx, t, kind, store.ResultSet{Meta: raw, Columns: set.columns}, drop, nil, complete)
}
