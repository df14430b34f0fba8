package dynamic

import (
	"math"
	"slices"

	"github.com/gusset/gusset/pkg/fem/dof"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/modal"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// massOf assembles the mass of load case lc (of the refined model) on the
// system's pattern (see the package doc), and returns the structure's
// whole mass along X, Y and Z, supported DOFs included.
func massOf(s *modal.System, lc *domain.LoadCase) (*sparse.SymMatrix, [3]float64, error) {
	d := s.D
	m := s.As.NewMatrix()
	var total [3]float64
	if sw := math.Hypot(math.Hypot(lc.SelfWeight[0], lc.SelfWeight[1]), lc.SelfWeight[2]); sw > 0 {
		d.Assemble(s.As, m, domain.MassMatrix, nil)
		for i := range m.Val {
			m.Val[i] *= sw
		}
		total = elementMass(d, sw)
	}
	lumped := make([]float64, d.DOF.DOFs()) // per global DOF
	for _, nm := range lc.Masses {
		n, ok := d.Node(nm.Node)
		if !ok {
			return nil, total, domain.ModelErrorf(domain.ModelError{Case: lc.ID, Node: nm.Node}, "load case %d: lumped mass on node \"%d\", which does not exist", lc.ID, nm.Node)
		}
		for k, v := range nm.M {
			if !(v >= 0) || math.IsInf(v, 0) {
				return nil, total, domain.ModelErrorf(domain.ModelError{Case: lc.ID, Node: nm.Node, DOF: dof.Names[k]}, "load case %d: lumped mass at node %d: component %d is %g", lc.ID, nm.Node, k, v)
			}
			lumped[6*n+k] += v
		}
	}
	down, err := downwardForces(d, lc)
	if err != nil {
		return nil, total, err
	}
	for n, f := range down {
		if f > 0 {
			for k := range 3 {
				lumped[6*n+k] += f / domain.G
			}
		}
	}
	for g, v := range lumped {
		if k := g % 6; k < 3 {
			total[k] += v
		}
	}
	if err := addLumped(s, m, lumped); err != nil {
		return nil, total, err
	}
	return m, total, nil
}

// elementMass returns the elements' mass moving with a unit rigid
// translation along X, Y and Z (rᵀ·M_e·r over all their DOFs), scaled.
func elementMass(d *domain.Domain, scale float64) [3]float64 {
	var total [3]float64
	var me []float64
	for _, el := range d.Elements {
		n, dpn := domain.Size(el), el.DOFsPerNode()
		if cap(me) < n*n {
			me = make([]float64, n*n)
		}
		me = me[:n*n]
		el.Mass(me)
		for k := range min(3, dpn) {
			for i := k; i < n; i += dpn {
				for j := k; j < n; j += dpn {
					total[k] += scale * me[i*n+j]
				}
			}
		}
	}
	return total
}

// downwardForces returns, per node, the downward force of lc's node loads
// and of the equivalent node loads of its member loads and plate
// pressures. Only those count: self-weight is the elements' own mass, and
// thermal and prestress loads are self-equilibrated strains, not weights.
func downwardForces(d *domain.Domain, lc *domain.LoadCase) ([]float64, error) {
	vert := 1
	if d.Model.VerticalAxis == geom.ZAxis {
		vert = 2
	}
	c := domain.LoadCase{ID: lc.ID, NodeLoads: lc.NodeLoads, Members: lc.Members, Pressures: lc.Pressures}
	loads, err := d.Resolve(&c)
	if err != nil {
		return nil, err
	}
	down := make([]float64, len(d.Pos))
	for n := range down {
		down[n] = -loads.NodeF[6*n+vert]
	}
	var p []float64
	for _, el := range d.Elements {
		n := domain.Size(el)
		p = slices.Grow(p[:0], n)[:n]
		clear(p)
		if err := el.LoadVector(loads, p); err != nil {
			return nil, err
		}
		dpn := el.DOFsPerNode()
		if vert >= dpn {
			continue
		}
		for e, n := range el.Nodes() {
			down[n] -= p[dpn*e+vert]
		}
	}
	return down, nil
}

// addLumped adds masses on global DOFs (a diagonal mass in global axes) to
// m through the constraint elimination: a DOF u_g = Σ c_a·x_a adds
// m_g·c_a·c_b at (a, b).
func addLumped(s *modal.System, m *sparse.SymMatrix, lumped []float64) error {
	red := s.Num.Reduction()
	for g, v := range lumped {
		if v == 0 {
			continue
		}
		for a := red.Ptr[g]; a < red.Ptr[g+1]; a++ {
			for b := red.Ptr[g]; b < red.Ptr[g+1]; b++ {
				qa, qb := int(red.Eq[a]), int(red.Eq[b])
				if qa < qb {
					continue // the lower triangle once
				}
				k := m.Pat.Index(qa, qb)
				if k < 0 {
					node, dir := s.D.DOF.Describe(g)
					return domain.ModelErrorf(domain.ModelError{Node: node, DOF: dir}, "a mass at node %d, %s, couples equations no element connects: give the node an element or untie it", node, dir)
				}
				m.Val[k] += v * red.Coef[a] * red.Coef[b]
			}
		}
	}
	return nil
}
