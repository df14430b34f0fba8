package static

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gusset/gusset/pkg/fem/transform"
)

// analysis is the working state of one Analyze call.
type analysis struct {
	ctx      context.Context
	model    *Model
	opts     Options
	nodeIdx  map[string]int
	pos      []transform.Vec3
	secIdx   map[string]*Section
	matIdx   map[string]*Material
	memIdx   map[string]int
	caseIdx  map[string]int
	comboIdx map[string]int
	members  []*member
	sup      []supportDOF
	deps     [][]dep // global DOF → independent DOFs it follows
	slave    []bool
	warnings []string
	systems  map[string]*system
	// assemblies holds the symbolic assembly per equation numbering.
	assemblies map[string]*assembly
	fz         Factorizer
	timings    Timings
	prog       *reporter // nil without Options.Progress
	// stationsOnly marks an analysis that only evaluates stations from
	// stored end states (Stations): members get no matrices, and node
	// loads and prescribed displacements, which act on the stations only
	// through the end states, are not resolved.
	stationsOnly bool
}

// factorizer returns the analysis's Factorizer, created once so a sparse
// factorizer's symbolic analyses serve every state.
func (a *analysis) factorizer() Factorizer {
	if a.fz == nil {
		a.fz = a.opts.factorizer()
	}
	return a.fz
}

func (a *analysis) warn(format string, args ...any) {
	a.warnings = append(a.warnings, fmt.Sprintf(format, args...))
}

func asSingular(err error, se **SingularError) bool { return errors.As(err, se) }

// Analyze runs a linear static analysis of m. The stiffness is assembled
// and factored once (per reversal state when one-way members or supports
// are active) and all primary load cases needed are solved as one
// multi-right-hand-side block; combinations are superposed from them.
func Analyze(ctx context.Context, m *Model, opts Options) (*Results, error) {
	t0 := time.Now()
	a := &analysis{ctx: ctx, model: m, opts: opts, systems: map[string]*system{}, assemblies: map[string]*assembly{},
		prog: newReporter(opts.Progress)}
	a.prog.begin(StageSetup)
	if err := a.setup(); err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	a.timings.Setup = time.Since(t0)
	a.prog.end()
	names, err := a.requested()
	if err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	res := &Results{}
	if a.nonlinear() {
		err = a.runReversal(names, res)
	} else {
		err = a.runLinear(names, res)
	}
	if err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	res.Warnings = a.warnings
	a.timings.Total = time.Since(t0)
	res.Timings = a.timings
	return res, nil
}

// setup checks and indexes the whole model and builds the members.
func (a *analysis) setup() error {
	if err := a.setupMembers(); err != nil {
		return err
	}
	if err := a.resolveSupports(); err != nil {
		return err
	}
	if err := a.resolveConstraints(); err != nil {
		return err
	}
	return a.setupCases()
}

// setupMembers indexes nodes, sections, materials and members and builds
// the members: the part of setup that needs no supports or constraints.
func (a *analysis) setupMembers() error {
	m := a.model
	if m.VerticalAxis != 0 && m.VerticalAxis != transform.YAxis && m.VerticalAxis != transform.ZAxis {
		return fmt.Errorf("vertical axis must be YAxis or ZAxis, got %v", m.VerticalAxis)
	}
	a.nodeIdx = make(map[string]int, len(m.Nodes))
	a.pos = make([]transform.Vec3, len(m.Nodes))
	for i, n := range m.Nodes {
		if _, dup := a.nodeIdx[n.ID]; dup {
			return fmt.Errorf("node %s is defined twice", n.ID)
		}
		a.nodeIdx[n.ID] = i
		a.pos[i] = transform.Vec3{n.X, n.Y, n.Z}
	}
	a.secIdx = map[string]*Section{}
	for i := range m.Sections {
		a.secIdx[m.Sections[i].Name] = &m.Sections[i]
	}
	a.matIdx = map[string]*Material{}
	for i := range m.Materials {
		a.matIdx[m.Materials[i].Name] = &m.Materials[i]
	}
	// Member matrices in parallel; errors are reported in member order,
	// a duplicate ID before a later member's error.
	a.members = make([]*member, len(m.Members))
	errs := make([]error, len(m.Members))
	done := counter{r: a.prog, total: float64(len(m.Members))}
	parallelChunks(len(m.Members), 256, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			a.members[i], errs[i] = a.buildMember(i)
		}
		done.add(hi - lo)
	})
	a.memIdx = make(map[string]int, len(m.Members))
	for i := range m.Members {
		if _, dup := a.memIdx[m.Members[i].ID]; dup {
			return fmt.Errorf("member %s is defined twice", m.Members[i].ID)
		}
		a.memIdx[m.Members[i].ID] = i
		if errs[i] != nil {
			return errs[i]
		}
	}
	return nil
}

// setupCases indexes the load cases and combinations.
func (a *analysis) setupCases() error {
	m := a.model
	a.caseIdx = map[string]int{}
	for i, c := range m.LoadCases {
		if _, dup := a.caseIdx[c.Name]; dup {
			return fmt.Errorf("load case %s is defined twice", c.Name)
		}
		a.caseIdx[c.Name] = i
	}
	a.comboIdx = map[string]int{}
	for i, c := range m.Combinations {
		if _, dup := a.caseIdx[c.Name]; dup {
			return fmt.Errorf("combination %s has the name of a load case", c.Name)
		}
		if _, dup := a.comboIdx[c.Name]; dup {
			return fmt.Errorf("combination %s is defined twice", c.Name)
		}
		a.comboIdx[c.Name] = i
	}
	return nil
}

// requested returns the names to report.
func (a *analysis) requested() ([]string, error) {
	if len(a.opts.Cases) > 0 {
		for _, n := range a.opts.Cases {
			_, c := a.caseIdx[n]
			_, k := a.comboIdx[n]
			if !c && !k {
				return nil, fmt.Errorf("requested load case or combination %q does not exist", n)
			}
		}
		return a.opts.Cases, nil
	}
	var names []string
	for _, c := range a.model.LoadCases {
		names = append(names, c.Name)
	}
	for _, c := range a.model.Combinations {
		names = append(names, c.Name)
	}
	return names, nil
}

// nonlinear reports whether the reversal loop is needed.
func (a *analysis) nonlinear() bool {
	if !a.opts.TensionCompressionOnly {
		return false
	}
	for _, m := range a.members {
		if m.typ.oneWay() != 0 {
			return true
		}
	}
	for _, s := range a.sup {
		if s.oneWay != 0 && (s.fixed || s.spring != 0) {
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

// combined returns the caseLoads of a case or combination.
func (a *analysis) combined(name string, base map[string]*caseLoads) (*caseLoads, map[string]float64, error) {
	f := map[string]float64{}
	if err := a.expand(name, 1, f, map[string]bool{}); err != nil {
		return nil, nil, err
	}
	c := newCaseLoads(6 * len(a.pos))
	for _, lc := range a.model.LoadCases { // model order: deterministic sums
		if v, ok := f[lc.Name]; ok && v != 0 {
			b, err := a.baseLoads(lc.Name, base)
			if err != nil {
				return nil, nil, err
			}
			c.addScaled(b, v)
		}
	}
	return c, f, nil
}

func (a *analysis) baseLoads(name string, base map[string]*caseLoads) (*caseLoads, error) {
	if b, ok := base[name]; ok {
		return b, nil
	}
	b, err := a.resolveCase(&a.model.LoadCases[a.caseIdx[name]])
	if err != nil {
		return nil, err
	}
	base[name] = b
	return b, nil
}
