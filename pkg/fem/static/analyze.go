package static

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gusset/gusset/pkg/fem/dof"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// analysis is the working state of one Analyze call.
type analysis struct {
	ctx      context.Context
	d        *domain.Domain
	model    *domain.Model
	opts     Options
	frames   []*domain.FrameElement
	sc       []stressCoef // per frame
	warnings []string
	systems  map[string]*system // by state.key
	// numberings and assemblies hold the equation numbering and the
	// symbolic assembly per numbering (see numberingKey).
	numberings map[string]*numbering
	fz         linsys.Factorizer
	timings    Timings
	prog       *reporter // nil without Options.Progress
	// shearAlone warns, once, of Kirchhoff plates without a shear fit.
	shearAlone sync.Once
	// nCases and nPrimaries are the cases reported and the primary cases
	// solved, for the memory estimate; admitted is set once Options.Admit
	// accepted it.
	nCases, nPrimaries int
	admitted           bool
}

// numbering is one equation numbering and its symbolic assembly.
type numbering struct {
	num *dof.Numbering
	as  *sparse.Assembler
}

// factorizer returns the analysis's Factorizer, created once so a sparse
// factorizer's symbolic analyses serve every state.
func (a *analysis) factorizer() linsys.Factorizer {
	if a.fz == nil {
		a.fz = a.opts.factorizer()
	}
	return a.fz
}

func (a *analysis) warn(format string, args ...any) {
	a.warnings = append(a.warnings, fmt.Sprintf(format, args...))
}

// Analyze runs a linear static analysis of m: Build, then Run. The
// stiffness is assembled and factored once (per reversal state when
// one-way members or supports are active) and all primary load cases
// needed are solved as one multi-right-hand-side block; combinations are
// superposed from them.
func Analyze(ctx context.Context, m *domain.Model, opts Options) (*Results, error) {
	t0 := time.Now()
	prog := newReporter(opts.Progress)
	prog.begin(StageSetup)
	bo := domain.BuildOptions{}
	if prog != nil {
		bo.Progress = prog.step
	}
	d, err := domain.Build(ctx, m, bo)
	if err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	prog.end()
	return run(ctx, d, opts, prog, t0)
}

// Run runs a linear static analysis of a domain built by domain.Build,
// which other analyses may share.
func Run(ctx context.Context, d *domain.Domain, opts Options) (*Results, error) {
	return run(ctx, d, opts, newReporter(opts.Progress), time.Now())
}

func run(ctx context.Context, d *domain.Domain, opts Options, prog *reporter, t0 time.Time) (*Results, error) {
	if d.DOF == nil {
		return nil, errors.New("analyze: the domain was built for stations only (MembersOnly)")
	}
	a := &analysis{ctx: ctx, d: d, model: d.Model, opts: opts, frames: d.Frames, systems: map[string]*system{},
		numberings: map[string]*numbering{}, prog: prog}
	a.warnings = append(a.warnings, d.Warnings...)
	a.sc = make([]stressCoef, len(d.Frames))
	for i, f := range d.Frames {
		a.sc[i] = newStressCoef(f)
	}
	a.timings.Setup = time.Since(t0)
	ids, err := a.requested()
	if err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	if a.nPrimaries, err = a.primaries(ids); err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	a.nCases = len(ids)
	res := &Results{}
	if a.nonlinear() {
		err = a.runReversal(ids, res)
	} else {
		err = a.runLinear(ids, res)
	}
	if err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	res.Warnings = a.warnings
	a.timings.Total = time.Since(t0)
	res.Timings = a.timings
	return res, nil
}

// requested returns the ids of the cases and combinations to report.
func (a *analysis) requested() ([]int64, error) {
	if len(a.opts.Cases) > 0 {
		for _, id := range a.opts.Cases {
			if !a.d.IsCase(id) && !a.d.IsCombination(id) {
				return nil, domain.ModelErrorf(domain.ModelError{Case: id}, "requested load case or combination \"%d\" does not exist", id)
			}
		}
		return a.opts.Cases, nil
	}
	var ids []int64
	for _, c := range a.model.LoadCases {
		ids = append(ids, c.ID)
	}
	for _, c := range a.model.Combinations {
		ids = append(ids, c.ID)
	}
	return ids, nil
}

// nonlinear reports whether the reversal loop is needed.
func (a *analysis) nonlinear() bool {
	if !a.opts.TensionCompressionOnly {
		return false
	}
	for _, m := range a.frames {
		if m.Type.OneWay() != 0 {
			return true
		}
	}
	for g := range a.d.DOF.DOFs() {
		if s := a.d.DOF.Support(g); s.OneWay != 0 && (s.Fixed || s.Spring != 0) {
			return true
		}
	}
	return false
}

// system returns the factored system for st, building it once.
func (a *analysis) system(st state) (*system, error) {
	k := st.key()
	if s, ok := a.systems[k]; ok {
		a.prog.system(s, false)
		return s, nil
	}
	s, err := a.buildSystem(st)
	if err != nil {
		return nil, err
	}
	if len(s.stabMsg) > 0 {
		a.warn("stabilizing springs added at %s", strings.Join(s.stabMsg, "; "))
	}
	a.systems[k] = s
	return s, nil
}

// combined returns the caseLoads of a case or combination, resolving and
// caching the primary cases it needs in base.
func (a *analysis) combined(id int64, base map[int64]*caseLoads) (*caseLoads, map[int64]float64, error) {
	l, f, err := a.d.Combined(id, func(primary int64) (*domain.Loads, error) {
		b, err := a.baseLoads(primary, base)
		if err != nil {
			return nil, err
		}
		return b.Loads, nil
	})
	if err != nil {
		return nil, nil, err
	}
	return &caseLoads{Loads: l}, f, nil
}

func (a *analysis) baseLoads(id int64, base map[int64]*caseLoads) (*caseLoads, error) {
	if b, ok := base[id]; ok {
		return b, nil
	}
	l, err := a.d.ResolveCase(id)
	if err != nil {
		return nil, err
	}
	b := &caseLoads{Loads: l}
	base[id] = b
	return b, nil
}

// primaries counts the primary load cases the cases and combinations ids
// need.
func (a *analysis) primaries(ids []int64) (int, error) {
	need := map[int64]bool{}
	for _, id := range ids {
		f, err := a.d.Factors(id)
		if err != nil {
			return 0, err
		}
		for c := range f {
			need[c] = true
		}
	}
	return len(need), nil
}
