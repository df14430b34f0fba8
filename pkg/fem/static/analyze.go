package static

import (
	"context"
	"errors"
	"fmt"
	"strings"

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
	a := &analysis{ctx: ctx, model: m, opts: opts, systems: map[string]*system{}}
	if err := a.setup(); err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
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
	return res, nil
}

func (a *analysis) setup() error {
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
	a.memIdx = map[string]int{}
	a.members = make([]*member, len(m.Members))
	for i := range m.Members {
		if _, dup := a.memIdx[m.Members[i].ID]; dup {
			return fmt.Errorf("member %s is defined twice", m.Members[i].ID)
		}
		a.memIdx[m.Members[i].ID] = i
		mb, err := a.buildMember(i)
		if err != nil {
			return err
		}
		a.members[i] = mb
	}
	if err := a.resolveSupports(); err != nil {
		return err
	}
	if err := a.resolveConstraints(); err != nil {
		return err
	}
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

// runLinear solves every primary case needed in one block and superposes.
func (a *analysis) runLinear(names []string, res *Results) error {
	s, err := a.system(state{})
	if err != nil {
		return err
	}
	base := map[string]*caseLoads{}
	factors := make([]map[string]float64, len(names))
	need := map[string]bool{}
	for i, n := range names {
		f := map[string]float64{}
		if err := a.expand(n, 1, f, map[string]bool{}); err != nil {
			return err
		}
		factors[i] = f
		for c := range f {
			need[c] = true
		}
	}
	order := sortedKeys(need)
	loads := make([]*caseLoads, len(order))
	for i, n := range order {
		if loads[i], err = a.baseLoads(n, base); err != nil {
			return err
		}
	}
	disp, err := a.solve(s, loads)
	if err != nil {
		return err
	}
	col := map[string]int{}
	for i, n := range order {
		col[n] = i
	}
	nd := 6 * len(a.pos)
	for i, n := range names {
		u := make([]float64, nd)
		for c, f := range factors[i] {
			for g, v := range disp[col[c]] {
				u[g] += f * v
			}
		}
		cl, _, err := a.combined(n, base)
		if err != nil {
			return err
		}
		cr, err := a.recover(n, s, cl, u)
		if err != nil {
			return err
		}
		res.Cases = append(res.Cases, *cr)
	}
	return nil
}

// solve returns the full global displacement vector of each case.
func (a *analysis) solve(s *system, cases []*caseLoads) ([][]float64, error) {
	nd, n := 6*len(a.pos), s.neq
	b := make([]float64, n*len(cases))
	full := make([][]float64, len(cases))
	ur := make([][]float64, len(cases))
	for c, cl := range cases {
		rhs := b[c*n : (c+1)*n]
		p, err := a.totalNodeLoads(cl)
		if err != nil {
			return nil, err
		}
		a.distribute(s, p, rhs, nil)
		ur[c] = a.prescribedVector(s, cl)
		if len(cl.presc) == 0 {
			continue
		}
		// Move K_fr·u_r to the right-hand side, element by element.
		u0 := a.expandDisp(s, nil, ur[c])
		fr := make([]float64, nd)
		var dofs []int
		for _, el := range a.elements(s.st) {
			var ne int
			ne, dofs = elementDOFs(el, dofs[:0])
			ue := make([]float64, ne)
			nz := false
			for i, g := range dofs {
				ue[i] = u0[g]
				nz = nz || ue[i] != 0
			}
			if !nz {
				continue
			}
			k := make([]float64, ne*ne)
			el.GlobalStiffness(k)
			for i, g := range dofs {
				f := 0.0
				for j := range ne {
					f += k[i*ne+j] * ue[j]
				}
				fr[g] -= f
			}
		}
		for g, kv := range s.spring {
			fr[g] -= kv * u0[g]
		}
		a.distribute(s, fr, rhs, nil)
	}
	if n > 0 {
		if err := s.fact.Solve(a.ctx, b, len(cases)); err != nil {
			return nil, fmt.Errorf("solve: %w", err)
		}
	}
	for c := range cases {
		full[c] = a.expandDisp(s, b[c*n:(c+1)*n], ur[c])
	}
	return full, nil
}

// distribute adds the per-global-DOF forces f to the equations they act
// on (eqOut) and to the restrained independent DOFs (rOut, may be nil),
// through the constraint dependences (virtual work: Cᵀ·f).
func (a *analysis) distribute(s *system, f, eqOut, rOut []float64) {
	for g, v := range f {
		if v == 0 {
			continue
		}
		for _, d := range a.deps[g] {
			switch e := s.eq[d.g]; {
			case e >= 0:
				eqOut[e] += d.c * v
			case rOut != nil:
				rOut[d.g] += d.c * v
			}
		}
	}
}

// expandDisp returns global displacements from equation values x (nil:
// zero) and prescribed values ur of restrained independent DOFs.
func (a *analysis) expandDisp(s *system, x, ur []float64) []float64 {
	u := make([]float64, len(a.deps))
	for g, ds := range a.deps {
		v := 0.0
		for _, d := range ds {
			if e := s.eq[d.g]; e >= 0 {
				if x != nil {
					v += d.c * x[e]
				}
			} else {
				v += d.c * ur[d.g]
			}
		}
		u[g] = v
	}
	return u
}

// prescribedVector returns the prescribed values of restrained DOFs.
func (a *analysis) prescribedVector(s *system, cl *caseLoads) []float64 {
	u := make([]float64, 6*len(a.pos))
	for g, v := range cl.presc {
		if s.fixed[g] {
			u[g] = v
		}
	}
	return u
}

// totalNodeLoads returns node loads plus equivalent node loads of member
// loads, global, per global DOF.
func (a *analysis) totalNodeLoads(cl *caseLoads) ([]float64, error) {
	p := append([]float64(nil), cl.nodeF...)
	var qc, q0, pe [12]float64
	for _, m := range a.members { // member order: deterministic sums
		l := cl.member[m.index]
		if l == nil {
			continue
		}
		if err := m.fixedEnd(l, qc[:], q0[:]); err != nil {
			return nil, err
		}
		m.nodeLoads(qc[:], pe[:])
		for e := range 2 {
			for d := range 6 {
				p[6*m.nodes[e]+d] += pe[6*e+d]
			}
		}
	}
	return p, nil
}
