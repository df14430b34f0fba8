package static

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gusset/gusset/pkg/fem/dof"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// state is the set of one-way members and supports switched off by the
// reversal loop; the zero state has everything active.
type state struct {
	memberOff []bool // per frame (domain.Domain.Frames; frame i is element i)
	dofOff    []bool // per global DOF with a one-way support
}

func (s state) key() string {
	var b strings.Builder
	for _, v := range s.memberOff {
		b.WriteByte('0' + boolByte(v))
	}
	b.WriteByte('|')
	b.WriteString(numberingKey(s))
	return b.String()
}

// numberingKey identifies the equation numbering of a state: only
// switched-off one-way supports change it.
func numberingKey(st state) string {
	var b strings.Builder
	for _, v := range st.dofOff {
		b.WriteByte('0' + boolByte(v))
	}
	return b.String()
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// active reports whether element e is active in s: frames can be switched
// off, other elements cannot.
func (s state) active(e int) bool {
	return s.memberOff == nil || e >= len(s.memberOff) || !s.memberOff[e]
}

func (s state) clone() state {
	return state{slices.Clone(s.memberOff), slices.Clone(s.dofOff)}
}

// system is the equation numbering and factored stiffness of one state.
type system struct {
	st  state
	num *dof.Numbering
	as  *sparse.Assembler
	// spring is the support and stabilization spring stiffness per
	// global DOF: the numbering's, plus this state's stabilization.
	spring  []float64
	neq     int
	fact    linsys.Factorization
	stabMsg []string
	// The sparse factorizer's ordering, nonzeros of L and predicted
	// flops, for Progress; set only when progress is reported.
	method string
	nnzL   int64
	flops  float64
}

// buildSystem numbers equations for state st, assembles and factors. The
// numbering and its symbolic assembly are built once per analysis and
// numbering: reversal states that switch members off but keep the
// numbering share one pattern, so the factorizer reuses its ordering and
// symbolic analysis.
func (a *analysis) buildSystem(st state) (*system, error) {
	k := numberingKey(st)
	n := a.numberings[k]
	if n == nil {
		n = &numbering{num: a.d.DOF.Number(st.dofOff)}
		a.numberings[k] = n
	}
	s := &system{st: st, num: n.num, spring: slices.Clone(n.num.Spring), neq: n.num.Equations()}
	a.prog.system(s, false)
	a.prog.begin(StageAssembly)
	t0 := time.Now()
	if n.as == nil {
		as, err := a.d.NewAssembler(n.num)
		if err != nil {
			return nil, fmt.Errorf("assemble: %w", err)
		}
		n.as = as
	}
	s.as = n.as
	m := a.matrix(s)
	a.timings.Assembly += time.Since(t0)
	if err := a.factorSystem(s, m); err != nil {
		return nil, err
	}
	return s, nil
}

// factorSystem factors m, the stiffness of s, adding stabilization springs
// when allowed and reporting mechanisms otherwise. A stabilization spring
// only changes a diagonal value, so the refactoring keeps the pattern (and
// a sparse factorizer its symbolic analysis).
func (a *analysis) factorSystem(s *system, m *sparse.SymMatrix) error {
	fz := a.factorizer()
	pat := m.Pat
	var maxT, maxR float64
	for e := range s.neq {
		v := m.Val[pat.Diagonal(e)]
		if s.num.EqDOF[e]%6 < 3 {
			maxT = math.Max(maxT, v)
		} else {
			maxR = math.Max(maxR, v)
		}
	}
	for e := range s.neq {
		scale := maxT
		if s.num.EqDOF[e]%6 >= 3 {
			scale = maxR
		}
		if p := pat.Diagonal(e); !(m.Val[p] > 1e-14*scale) {
			if !a.opts.StabilizeUnrestrainedNodes {
				return a.mechanism(s, e)
			}
			m.Val[p] += a.stabilize(s, e, maxT, maxR)
		}
	}
	a.prog.end()
	for attempt := 0; ; attempt++ {
		// A stabilization retry factors again from the start: a new run
		// of the stage.
		a.prog.begin(StageFactorization)
		t1 := time.Now()
		f, err := a.factor(s, fz, m)
		a.timings.Factor += time.Since(t1)
		a.timings.Factorizations++
		if err == nil {
			s.fact = f
			a.prog.end()
			return nil
		}
		var se *linsys.SingularError
		if !errors.As(err, &se) || se.DOF < 0 || se.DOF >= s.neq {
			return fmt.Errorf("factor stiffness: %w", err)
		}
		if !a.opts.StabilizeUnrestrainedNodes || attempt > s.neq {
			return a.mechanism(s, se.DOF)
		}
		m.Val[pat.Diagonal(se.DOF)] += a.stabilize(s, se.DOF, maxT, maxR)
	}
}

// matrix assembles the stiffness of s: the elements active in s's state
// plus support springs.
func (a *analysis) matrix(s *system) *sparse.SymMatrix {
	m := s.as.NewMatrix()
	var active func(int) bool
	if s.st.memberOff != nil {
		active = s.st.active
	}
	a.d.Assemble(s.as, m, domain.StiffnessMatrix, active)
	domain.AddSprings(s.as, m, s.num, s.spring)
	return m
}

// factor factors m, the stiffness of s, with fz; a SparseFactorizer also
// reports its symbolic analysis and the progress of its numeric phase.
func (a *analysis) factor(s *system, fz linsys.Factorizer, m *sparse.SymMatrix) (linsys.Factorization, error) {
	sf, ok := fz.(*linsys.SparseFactorizer)
	if !ok || (a.prog == nil && a.opts.Admit == nil) {
		return fz.Factor(a.ctx, m, s.num.NodeOf)
	}
	if a.opts.Admit != nil && !a.admitted {
		sym, err := sf.Analyze(a.ctx, m, s.num.NodeOf)
		if err != nil {
			return nil, err
		}
		if sym != nil {
			if err := a.opts.Admit(a.estimate(m, sym, a.nCases, a.nPrimaries)); err != nil {
				return nil, err
			}
		}
		a.admitted = true
	}
	if a.prog == nil {
		return sf.Factor(a.ctx, m, s.num.NodeOf)
	}
	analysed := func(sym *sparse.Symbolic) {
		s.method, s.nnzL, s.flops = sym.Method.String(), sym.NnzL, sym.Flops
		a.prog.system(s, true)
	}
	return sf.FactorReporting(a.ctx, m, s.num.NodeOf, analysed, a.prog.step)
}

// stabilize adds a tiny spring (1e-8 of the largest diagonal of the same
// kind) on equation e and returns its stiffness.
func (a *analysis) stabilize(s *system, e int, maxT, maxR float64) float64 {
	g := s.num.EqDOF[e]
	scale := maxT
	if g%6 >= 3 {
		scale = maxR
	}
	if scale == 0 {
		scale = math.Max(maxT, maxR)
	}
	if scale == 0 {
		scale = 1
	}
	s.spring[g] += 1e-8 * scale
	node, dir := a.d.DOF.Describe(g)
	s.stabMsg = append(s.stabMsg, fmt.Sprintf("node %d %s", node, dir))
	return 1e-8 * scale
}

// mechanism returns the model error naming the node and DOF of equation e.
func (a *analysis) mechanism(s *system, e int) error { return a.d.Mechanism(s.num, e) }

// sortedKeys returns the keys of m in order, for deterministic sums.
func sortedKeys[V any](m map[int64]V) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
