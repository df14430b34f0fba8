package dof

import "github.com/gusset/gusset/pkg/fem/sparse"

// Equation codes of DOFs that have no equation of their own.
const (
	Restrained = -1 // fixed by a support
	Eliminated = -2 // a tied slave DOF
)

// Numbering is the equation numbering of one state of a Map: which DOFs
// are restrained (one-way supports switched off are free) and which
// equation every other independent DOF is.
type Numbering struct {
	m *Map
	// Eq maps each global DOF to its equation, or Restrained or
	// Eliminated.
	Eq []int
	// Fixed marks the restrained DOFs of this state.
	Fixed []bool
	// Spring is the support spring stiffness of each DOF in this state.
	Spring []float64
	// EqDOF maps each equation to its global DOF, NodeOf to its node.
	EqDOF  []int
	NodeOf []int
	red    *sparse.Reduction
}

// Number numbers the equations of the state in which the one-way supports
// marked in off (per global DOF; nil: none) are switched off.
func (m *Map) Number(off []bool) *Numbering {
	nd := len(m.deps)
	n := &Numbering{m: m, Eq: make([]int, nd), Fixed: make([]bool, nd), Spring: make([]float64, nd)}
	for g, s := range m.supports {
		if off == nil || !off[g] {
			n.Fixed[g], n.Spring[g] = s.Fixed, s.Spring
		}
	}
	for g := range nd {
		switch {
		case m.slave[g]:
			n.Eq[g] = Eliminated
		case n.Fixed[g]:
			n.Eq[g] = Restrained
		default:
			n.Eq[g] = len(n.EqDOF)
			n.EqDOF = append(n.EqDOF, g)
			n.NodeOf = append(n.NodeOf, g/PerNode)
		}
	}
	n.red = n.reduction()
	return n
}

// Equations returns the number of equations.
func (n *Numbering) Equations() int { return len(n.EqDOF) }

// Reduction returns u = C·x for package sparse's assembler: for every
// global DOF, the equations it follows and their coefficients (none for a
// restrained DOF, or for a tied DOF that follows restrained DOFs only).
// Number builds it, so a Numbering is read-only and safe to share.
func (n *Numbering) Reduction() *sparse.Reduction { return n.red }

func (n *Numbering) reduction() *sparse.Reduction {
	nd := len(n.Eq)
	r := &sparse.Reduction{N: len(n.EqDOF), Ptr: make([]int, nd+1), Eq: make([]int32, 0, nd), Coef: make([]float64, 0, nd)}
	for g, ts := range n.m.deps {
		for _, t := range ts {
			if q := n.Eq[t.DOF]; q >= 0 {
				r.Eq = append(r.Eq, int32(q))
				r.Coef = append(r.Coef, t.C)
			}
		}
		r.Ptr[g+1] = len(r.Eq)
	}
	return r
}

// Translation returns the equation values of a unit rigid translation
// along global axis d (0, 1, 2): 1 on the translations along d of the
// nodes, except that the unknown of a slave's released component along an
// inclined axis gets that axis's component along d. Expand of it is the
// translation on every DOF that is not restrained, which is what mass
// participation is measured against.
func (n *Numbering) Translation(d int) []float64 {
	r := make([]float64, len(n.EqDOF))
	for q, g := range n.EqDOF {
		k := g % PerNode
		if axis, ok := n.m.incl[g]; ok {
			if k < 3 {
				r[q] = axis[d]
			}
			continue
		}
		if k == d {
			r[q] = 1
		}
	}
	return r
}

// Distribute adds the per-global-DOF forces f to the equations they act
// on (eqOut) and to the restrained independent DOFs (rOut, may be nil),
// through the constraint dependences (virtual work: Cᵀ·f).
func (n *Numbering) Distribute(f, eqOut, rOut []float64) {
	for g, v := range f {
		if v == 0 {
			continue
		}
		for _, t := range n.m.deps[g] {
			switch q := n.Eq[t.DOF]; {
			case q >= 0:
				eqOut[q] += t.C * v
			case rOut != nil:
				rOut[t.DOF] += t.C * v
			}
		}
	}
}

// Expand returns the global displacements of equation values x (nil:
// zero) and values ur of the restrained independent DOFs (prescribed
// displacements; nil: zero).
func (n *Numbering) Expand(x, ur []float64) []float64 {
	u := make([]float64, len(n.m.deps))
	for g, ts := range n.m.deps {
		v := 0.0
		for _, t := range ts {
			if q := n.Eq[t.DOF]; q >= 0 {
				if x != nil {
					v += t.C * x[q]
				}
			} else if ur != nil {
				v += t.C * ur[t.DOF]
			}
		}
		u[g] = v
	}
	return u
}
