package static

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/gusset/gusset/pkg/fem/sparse"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// dofNames are the DOF descriptions used in messages, in DOF order.
var dofNames = [6]string{
	"translation along X", "translation along Y", "translation along Z",
	"rotation about X", "rotation about Y", "rotation about Z",
}

// supportDOF is the resolved support condition of one global DOF.
type supportDOF struct {
	fixed  bool    // F, P, N
	spring float64 // S or V stiffness
	oneWay int     // +1 acts with positive reaction only, −1 negative only
}

// state is the set of one-way members and supports switched off by the
// reversal loop; the zero state has everything active.
type state struct {
	memberOff []bool // per member
	dofOff    []bool // per global DOF with a one-way support
}

func (s state) key() string {
	var b strings.Builder
	for _, v := range s.memberOff {
		b.WriteByte('0' + boolByte(v))
	}
	b.WriteByte('|')
	for _, v := range s.dofOff {
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

func (s state) clone() state {
	return state{append([]bool(nil), s.memberOff...), append([]bool(nil), s.dofOff...)}
}

// system is the DOF map and factored stiffness for one state.
type system struct {
	st      state
	eq      []int     // global DOF → equation, −1 if restrained
	fixed   []bool    // global DOF restrained (after slave resolution)
	spring  []float64 // global DOF support + stabilization spring stiffness
	neq     int
	eqDOF   []int // equation → representative global DOF
	fact    Factorization
	stabMsg []string
	// The sparse factorizer's ordering, nonzeros of L and predicted
	// flops, for Progress; set only when progress is reported.
	method string
	nnzL   int64
	flops  float64
}

// resolveSupports fills a.sup from the model and records warnings.
func (a *analysis) resolveSupports() error {
	a.sup = make([]supportDOF, 6*len(a.pos))
	var vNodes, pNodes, nNodes []string
	seen := make(map[int]bool)
	for _, s := range a.model.Supports {
		n, ok := a.nodeIdx[s.Node]
		if !ok {
			return fmt.Errorf("support: node %q does not exist", s.Node)
		}
		if seen[n] {
			return fmt.Errorf("support: node %s has more than one support", s.Node)
		}
		seen[n] = true
		if len(s.Code) != 6 {
			return fmt.Errorf("support at node %s: code %q must have 6 characters", s.Node, s.Code)
		}
		for d := range 6 {
			sd := &a.sup[6*n+d]
			switch s.Code[d] {
			case 'F', 'f':
				sd.fixed = true
			case 'R', 'r':
			case 'S', 's':
				if !(s.Springs[d] >= 0) || math.IsInf(s.Springs[d], 0) {
					return fmt.Errorf("support at node %s: spring %d is %g", s.Node, d, s.Springs[d])
				}
				sd.spring = s.Springs[d]
			case 'V', 'v':
				if len(s.Tables[d]) == 0 || !(s.Tables[d][0].Stiffness >= 0) {
					return fmt.Errorf("support at node %s: variable spring %d needs a table with a non-negative first stiffness", s.Node, d)
				}
				sd.spring = s.Tables[d][0].Stiffness
				vNodes = appendOnce(vNodes, s.Node)
			case 'P', 'p':
				sd.fixed = true
				pNodes = appendOnce(pNodes, s.Node)
			case 'N', 'n':
				sd.fixed = true
				nNodes = appendOnce(nNodes, s.Node)
			default:
				return fmt.Errorf("support at node %s: code %q: unknown character %q", s.Node, s.Code, s.Code[d])
			}
			switch s.Active[d] {
			case 0, 'B', 'b':
			case 'P', 'p':
				sd.oneWay = 1
			case 'N', 'n':
				sd.oneWay = -1
			default:
				return fmt.Errorf("support at node %s: active direction %q", s.Node, s.Active[d])
			}
		}
	}
	if len(vNodes) > 0 {
		a.warn("variable supports use the stiffness of their first segment in linear analysis at nodes %s", strings.Join(vNodes, ", "))
	}
	if len(pNodes) > 0 {
		a.warn("plastic supports act as fixed in linear analysis at nodes %s", strings.Join(pNodes, ", "))
	}
	if len(nNodes) > 0 {
		a.warn("friction supports act as fixed in linear analysis at nodes %s", strings.Join(nNodes, ", "))
	}
	return nil
}

func appendOnce(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// dep is one term of a DOF's dependence on independent DOFs: u_g =
// Σ c·u_dep.g.
type dep struct {
	g int
	c float64
}

// resolveConstraints fills a.deps. Tied slave DOFs follow the master as a
// rigid body: u_s = u_m + θ_m × (x_s − x_m) for translations, θ_s = θ_m
// for rotations, so constraint forces keep moment equilibrium. With
// inclined axes R the ties hold for the components along the rows of R;
// a released inclined component is a new unknown stored in the slave's
// DOF slot of the same index. Every other DOF depends on itself only.
func (a *analysis) resolveConstraints() error {
	nd := 6 * len(a.pos)
	a.deps = make([][]dep, nd)
	a.slave = make([]bool, nd)
	for g := range nd {
		a.deps[g] = []dep{{g, 1}}
	}
	isMaster := map[int]string{}
	constrained := make([]bool, len(a.pos))
	for ci, c := range a.model.Constraints {
		mn, ok := a.nodeIdx[c.Master]
		if !ok {
			return fmt.Errorf("constraint %d: master node %q does not exist", ci, c.Master)
		}
		isMaster[mn] = c.Master
		if len(c.Code) != 6 {
			return fmt.Errorf("constraint %d (master %s): code %q must have 6 characters", ci, c.Master, c.Code)
		}
		R := transform.Identity
		if c.Axes != nil {
			R = *c.Axes
			if err := checkOrthonormal(R); err != nil {
				return fmt.Errorf("constraint %d (master %s): %w", ci, c.Master, err)
			}
		}
		var tied [6]bool
		for d := range 6 {
			switch c.Code[d] {
			case 'F', 'f':
				tied[d] = true
			case 'R', 'r':
			default:
				return fmt.Errorf("constraint %d (master %s): code %q: unknown character %q", ci, c.Master, c.Code, c.Code[d])
			}
		}
		for _, sid := range c.Slaves {
			sn, ok := a.nodeIdx[sid]
			if !ok {
				return fmt.Errorf("constraint %d (master %s): slave node %q does not exist", ci, c.Master, sid)
			}
			if sn == mn {
				return fmt.Errorf("constraint %d: node %s is its own master", ci, sid)
			}
			if constrained[sn] {
				return fmt.Errorf("constraint %d: node %s is a slave twice", ci, sid)
			}
			constrained[sn] = true
			for d := range 6 {
				g := 6*sn + d
				if tied[d] || (c.Axes != nil && tied != [6]bool{}) {
					if a.sup[g].fixed || a.sup[g].spring != 0 {
						return fmt.Errorf("constraint %d: slave node %s %s also has a support", ci, sid, dofNames[d])
					}
				}
			}
			r := a.pos[sn].Sub(a.pos[mn])
			for blk := 0; blk < 6; blk += 3 {
				// Unknown w_k along inclined axis k: tied → projection of
				// the master's rigid motion, released → own slot.
				var w [3][]dep
				for k := range 3 {
					if !tied[blk+k] {
						w[k] = []dep{{6*sn + blk + k, 1}}
						continue
					}
					a.slave[6*sn+blk+k] = true
					for d := range 3 {
						if R[k][d] != 0 {
							w[k] = addDeps(w[k], rigidDeps(mn, blk+d, r), R[k][d])
						}
					}
				}
				// Global component d = Σ_k R[k][d]·w_k.
				for d := range 3 {
					var out []dep
					for k := range 3 {
						if R[k][d] != 0 {
							out = addDeps(out, w[k], R[k][d])
						}
					}
					a.deps[6*sn+blk+d] = out
				}
			}
		}
	}
	for mn, id := range isMaster {
		if constrained[mn] {
			return fmt.Errorf("node %s is both a master and a slave: tie its slaves to its own master instead", id)
		}
	}
	return nil
}

// addDeps returns acc + f·ds, merging terms on the same DOF.
func addDeps(acc, ds []dep, f float64) []dep {
	for _, d := range ds {
		merged := false
		for i := range acc {
			if acc[i].g == d.g {
				acc[i].c += f * d.c
				merged = true
				break
			}
		}
		if !merged {
			acc = append(acc, dep{d.g, f * d.c})
		}
	}
	return acc
}

// checkOrthonormal rejects constraint axes that are not a rotation.
func checkOrthonormal(r transform.Rotation) error {
	for i := range 3 {
		for j := range 3 {
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(transform.Vec3(r[i]).Dot(transform.Vec3(r[j]))-want) > 1e-9 {
				return fmt.Errorf("constraint axes are not orthonormal")
			}
		}
	}
	return nil
}

// rigidDeps returns the dependence of DOF d of a node at offset r from
// master node mn: translation d gains (θ_m × r)_d.
func rigidDeps(mn, d int, r transform.Vec3) []dep {
	out := []dep{{6*mn + d, 1}}
	add := func(k int, c float64) {
		if c != 0 {
			out = append(out, dep{6*mn + 3 + k, c})
		}
	}
	switch d {
	case 0: // θy·rz − θz·ry
		add(1, r[2])
		add(2, -r[1])
	case 1: // θz·rx − θx·rz
		add(2, r[0])
		add(0, -r[2])
	case 2: // θx·ry − θy·rx
		add(0, r[1])
		add(1, -r[0])
	}
	return out
}

// buildSystem numbers equations for state st, assembles and factors.
func (a *analysis) buildSystem(st state) (*system, error) {
	nd := 6 * len(a.pos)
	s := &system{st: st, eq: make([]int, nd), fixed: make([]bool, nd), spring: make([]float64, nd)}
	for g := range nd {
		sd := a.sup[g]
		off := st.dofOff != nil && st.dofOff[g]
		if !off {
			s.fixed[g] = sd.fixed
			s.spring[g] = sd.spring
		}
	}
	for g := range nd {
		switch {
		case a.slave[g]:
			s.eq[g] = -2
		case s.fixed[g]:
			s.eq[g] = -1
		default:
			s.eq[g] = s.neq
			s.eqDOF = append(s.eqDOF, g)
			s.neq++
		}
	}
	a.prog.system(s, false)
	if err := a.factorSystem(s); err != nil {
		return nil, err
	}
	return s, nil
}

// factorSystem assembles and factors s, adding stabilization springs when
// allowed and reporting mechanisms otherwise. The matrix is assembled once;
// a stabilization spring only changes a diagonal value, so the refactoring
// keeps the pattern (and a sparse factorizer its symbolic analysis).
func (a *analysis) factorSystem(s *system) error {
	fz := a.factorizer()
	a.prog.begin(StageAssembly)
	t0 := time.Now()
	as := a.assemblyFor(s)
	m := a.matrix(as, s)
	a.timings.Assembly += time.Since(t0)
	var maxT, maxR float64
	for e, p := range as.diag {
		v := m.Val[p]
		if s.eqDOF[e]%6 < 3 {
			maxT = math.Max(maxT, v)
		} else {
			maxR = math.Max(maxR, v)
		}
	}
	for e, p := range as.diag {
		scale := maxT
		if s.eqDOF[e]%6 >= 3 {
			scale = maxR
		}
		if !(m.Val[p] > 1e-14*scale) {
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
		var se *SingularError
		if !asSingular(err, &se) || se.Equation < 0 || se.Equation >= s.neq {
			return fmt.Errorf("factor stiffness: %w", err)
		}
		if !a.opts.StabilizeUnrestrainedNodes || attempt > s.neq {
			return a.mechanism(s, se.Equation)
		}
		m.Val[as.diag[se.Equation]] += a.stabilize(s, se.Equation, maxT, maxR)
	}
}

// factor factors m, the stiffness of s, with fz; a SparseFactorizer also
// reports its symbolic analysis and the progress of its numeric phase.
func (a *analysis) factor(s *system, fz Factorizer, m *SymMatrix) (Factorization, error) {
	sf, ok := fz.(*SparseFactorizer)
	if !ok || a.prog == nil {
		return fz.Factor(a.ctx, m)
	}
	analysed := func(sym *sparse.Symbolic) {
		s.method, s.nnzL, s.flops = sym.Method.String(), sym.NnzL, sym.Flops
		a.prog.system(s, true)
	}
	return sf.factor(a.ctx, m, analysed, a.prog.step)
}

// stabilize adds a tiny spring (1e-8 of the largest diagonal of the same
// kind) on equation e and returns its stiffness.
func (a *analysis) stabilize(s *system, e int, maxT, maxR float64) float64 {
	g := s.eqDOF[e]
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
	s.stabMsg = append(s.stabMsg, fmt.Sprintf("node %s %s", a.model.Nodes[g/6].ID, dofNames[g%6]))
	return 1e-8 * scale
}

// mechanism returns the error naming the node and DOF of equation e.
func (a *analysis) mechanism(s *system, e int) error {
	g := s.eqDOF[e]
	return &MechanismError{Node: a.model.Nodes[g/6].ID, DOF: g % 6}
}

// MechanismError reports an unstable structure at a node DOF.
type MechanismError struct {
	Node string
	DOF  int // 0..5: ux uy uz rx ry rz, global axes
}

// Error names the node and DOF in words a user can act on.
func (e *MechanismError) Error() string {
	return fmt.Sprintf("mechanism at node %s, %s (restrain it, or set stabilizeUnrestrainedNodes)", e.Node, dofNames[e.DOF])
}

// sortedKeys returns the keys of m in order, for deterministic messages.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// elements returns the elements active in state st.
func (a *analysis) elements(st state) []Element {
	out := make([]Element, 0, len(a.members))
	for _, m := range a.members {
		if st.memberOff == nil || !st.memberOff[m.index] {
			out = append(out, m)
		}
	}
	return out
}

// elementDOFs appends the global DOF numbers of el to dofs and returns
// their count.
func elementDOFs(el Element, dofs []int) (int, []int) {
	dpn := el.DOFsPerNode()
	for _, nd := range el.Nodes() {
		for d := range dpn {
			dofs = append(dofs, 6*nd+d)
		}
	}
	return len(dofs), dofs
}
