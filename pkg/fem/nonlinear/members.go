package nonlinear

import (
	"fmt"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/element"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/sparse"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// member is one frame member as a co-rotational element: its nodes, its
// fixed data and its basic stiffness.
type member struct {
	fe   *domain.FrameElement
	a, b int
	c    transform.Corot
	kb   [transform.BasicDOF * transform.BasicDOF]float64
	// law is the member's axial law (nil: linear): its basic axial force
	// follows the law of the co-rotational chord elongation.
	law *axialLaw
}

// newMembers prepares every frame of d: the co-rotational data from its
// node positions and local axes (the linear frame's, so that the initial
// tangent is the linear stiffness), and the basic stiffness of its
// flexible length — element.FrameBasicStiffness for a frame, EA/L alone
// for a truss.
func newMembers(d *domain.Domain) ([]member, error) {
	out := make([]member, len(d.Frames))
	for i, fe := range d.Frames {
		nd := fe.Nodes()
		m := &out[i]
		m.fe, m.a, m.b = fe, nd[0], nd[1]
		c, err := transform.NewCorot(d.Pos[m.a], d.Pos[m.b], fe.Rot)
		if err != nil {
			return nil, fmt.Errorf("member %d: %w", fe.MemberID, err)
		}
		m.c = c
		if fe.Type.AxialOnly() {
			m.kb[transform.BasicAxial*transform.BasicDOF+transform.BasicAxial] = fe.Props.E * fe.Props.A / fe.Props.L
		} else {
			element.FrameBasicStiffness(fe.Props, m.kb[:])
		}
		if m.law, err = newLaw(fe, &d.Model.Members[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// configure computes the configuration of m in state (u, rot), its basic
// forces q = kb·v (the law's axial force in place of kb's for a member
// with a law) and its basic tangent into kt (when not nil), and reports
// gone for a broken brittle fuse, which takes no part. initial selects
// the elastic tangent of the law (the first tangent of the analysis).
func (m *member) configure(u []geom.Vec3, rot []geom.Rotation, cfg *transform.CorotConfig, initial bool, kt []float64) (q [transform.BasicDOF]float64, gone bool, err error) {
	q, gone, _, err = m.configureLaw(u, rot, cfg, initial, kt)
	return q, gone, err
}

// configureLaw is configure that also returns the law's axial tangent
// (0 for a broken fuse; kb's without a law).
func (m *member) configureLaw(u []geom.Vec3, rot []geom.Rotation, cfg *transform.CorotConfig, initial bool, kt []float64) (q [transform.BasicDOF]float64, gone bool, kax float64, err error) {
	if err := m.c.Configure([2]geom.Vec3{u[m.a], u[m.b]}, [2]geom.Rotation{rot[m.a], rot[m.b]}, cfg); err != nil {
		return q, false, 0, domain.ModelErrorf(domain.ModelError{Member: m.fe.MemberID}, "member %d: %w", m.fe.MemberID, err)
	}
	v := cfg.Basic()
	for i := range q {
		for j := range q {
			q[i] += m.kb[i*transform.BasicDOF+j] * v[j]
		}
	}
	if kt != nil {
		copy(kt, m.kb[:])
	}
	if m.law != nil {
		// The basic axial force is decoupled from the others in kb (a
		// truss has no others), so the law replaces one entry.
		const ax = transform.BasicAxial*transform.BasicDOF + transform.BasicAxial
		n, k, gone := m.law.eval(v[transform.BasicAxial], initial)
		if gone {
			return q, true, 0, nil
		}
		q[transform.BasicAxial] = n
		if kt != nil {
			kt[ax] = k
		}
		return q, false, k, nil
	}
	return q, false, m.kb[0], nil
}

// assemble computes the element forces of the current state into a.fint
// and, when wantK is set, returns the assembled tangent: the symmetric
// part (K + Kᵀ)/2 of each element's co-rotational tangent (package doc)
// plus the support springs. The load factor enters only through the
// loads that follow their members, which it also moves into P (follow).
func (a *analysis) assemble(lambda float64, wantK bool) (*sparse.SymMatrix, error) {
	clear(a.fint)
	a.followStart(wantK)
	var k *sparse.SymMatrix
	if wantK {
		k = a.as.NewMatrix()
	}
	var cfg transform.CorotConfig
	var fe [12]float64
	var ke, ks [144]float64
	var kb [transform.BasicDOF * transform.BasicDOF]float64
	initial := wantK && !a.started
	if wantK {
		a.started, a.lawsMoved = true, false
	}
	for e := range a.members {
		m := &a.members[e]
		q, gone, kax, err := m.configureLaw(a.u, a.rot, &cfg, initial, kb[:])
		if err != nil {
			return nil, err
		}
		a.follow(e, &cfg, lambda, k)
		if m.law != nil && m.law.differs(kax, wantK) {
			a.lawsMoved = true
		}
		if gone {
			continue
		}
		cfg.Forces(q, fe[:])
		for i := range 6 {
			a.fint[6*m.a+i] += fe[i]
			a.fint[6*m.b+i] += fe[6+i]
		}
		if !wantK {
			continue
		}
		cfg.Tangent(q, kb[:], ke[:])
		symmetricPart(ke[:], ks[:], 12)
		// Frames come first in d.Elements: frame e is element e.
		a.as.Add(k, e, ks[:])
	}
	if err := a.assemblePlates(k); err != nil {
		return nil, err
	}
	if wantK {
		domain.AddSprings(a.as, k, a.num, a.num.Spring)
	}
	return k, nil
}

// commit implements committer: the history of the member laws at the
// converged state becomes the committed one.
func (a *analysis) commit() {
	for i := range a.members {
		if l := a.members[i].law; l != nil {
			l.commit()
		}
	}
}

// stale implements staler.
func (a *analysis) stale() bool {
	c := a.lawsMoved
	a.lawsMoved = false
	return c
}

// symmetricPart writes (k + kᵀ)/2 of the n×n row-major k into ks: the
// part of a co-rotational or load tangent the symmetric factorizer takes
// (package doc, "Solution").
func symmetricPart(k, ks []float64, n int) {
	for i := range n {
		for j := range n {
			ks[i*n+j] = (k[i*n+j] + k[j*n+i]) / 2
		}
	}
}
