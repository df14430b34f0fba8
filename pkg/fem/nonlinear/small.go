package nonlinear

import (
	"context"
	"fmt"
	"math"

	"github.com/gusset/gusset/pkg/fem/dof"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// small is the state of one Small-theory Analyze call: second-order
// analysis on the initial geometry through the generic element interface
// (package doc, "Small theory").
type small struct {
	driver
	as *sparse.Assembler
	// loads is the case at λ = 1; ur its prescribed displacements per
	// global DOF (zero elsewhere); ref the norm of the residual of the
	// undeformed state at λ = 1, the reference of the residual criterion.
	loads *domain.Loads
	ur    []float64
	ref   float64
	// laws are the axial laws of the frames (nil: all linear; package
	// doc, "Member laws"), with per law member its chord vector and its
	// geometric stiffness under a unit tension (global); started is set
	// once the first tangent has been assembled.
	laws    []*axialLaw
	chord   [][12]float64
	kgUnit  [][144]float64
	started bool
	// lawsMoved is set when a law's tangent left the one of the last
	// assembled matrix (staler).
	lawsMoved bool
	// sup are the support laws (package doc, "Support laws").
	sup *supportState
	// The state: the equation values x and the global displacements
	// u = C·x + λ·u_r of load factor lam, the loads at lam, and per global
	// DOF the element forces F(u) (springs excluded), valid when fOK.
	x    []float64
	u    []float64
	lam  float64
	cl   *domain.Loads
	fint []float64
	fOK  bool
}

// newSmall numbers the equations, resolves the loads and computes the
// reference norm.
func newSmall(ctx context.Context, d *domain.Domain, caseID int64, opts Options) (*small, error) {
	s := &small{driver: driver{ctx: ctx, d: d, caseID: caseID, opts: opts, stable: true}}
	s.num = d.DOF.Number(nil)
	as, err := d.NewAssembler(s.num)
	if err != nil {
		return nil, fmt.Errorf("assemble: %w", err)
	}
	s.as = as
	if s.loads, err = caseLoads(d, caseID); err != nil {
		return nil, err
	}
	nd := d.DOF.DOFs()
	s.ur = make([]float64, nd)
	for g, v := range s.loads.Presc {
		if s.num.Fixed[g] {
			s.ur[g] = v
		}
	}
	if s.laws, err = newLaws(d); err != nil {
		return nil, err
	}
	if s.laws != nil {
		s.chord, s.kgUnit = make([][12]float64, len(d.Frames)), make([][144]float64, len(d.Frames))
		for i, l := range s.laws {
			if l != nil {
				d.Frames[i].ChordVector(s.chord[i][:])
				if part, ok := s.geometricPart(); ok {
					d.Frames[i].GeometricStiffnessOf(1, part, s.kgUnit[i][:])
				}
			}
		}
	}
	s.sup = newSupportState(d)
	if s.sup.active() {
		key, _ := s.sup.key(nd)
		s.sup.numbered[key] = numbered{s.num, s.as}
	}
	s.x = make([]float64, s.num.Equations())
	s.fint = make([]float64, nd)
	s.lam = math.NaN()
	s.setLambda(1)
	if _, err := s.forces(false); err != nil { // an element that cannot take its loads
		return nil, err
	}
	s.ref = s.residual(1, make([]float64, s.num.Equations()))
	// Loads that the restraint laws may let through (a contact that
	// opens, a support that yields or slides) count too: they are loads
	// on DOFs that may become free.
	for i := range s.sup.restr {
		r := s.sup.react[s.sup.restr[i].g]
		s.ref = math.Hypot(s.ref, r)
	}
	return s, nil
}

// loadNorm implements problem: the norm of the residual of the undeformed
// state (C·x = 0) at λ = 1, the right-hand side of the linear analysis
// (node loads, equivalent loads of element loads, prescribed
// displacements moved to the right), with the reactions of the DOFs of
// restraint laws in that state.
func (s *small) loadNorm() float64 { return s.ref }

// displacementsEq implements problem: the equation values.
func (s *small) displacementsEq() []float64 { return s.x }

// setLambda moves the state to load factor lambda: the prescribed part of
// u and the element loads follow it.
func (s *small) setLambda(lambda float64) {
	if lambda == s.lam {
		return
	}
	s.lam = lambda
	ur := make([]float64, len(s.ur))
	for g, v := range s.ur {
		ur[g] = lambda * v
	}
	for i := range s.sup.restr {
		if rl := &s.sup.restr[i]; !rl.freeT {
			ur[rl.g] = rl.holdT()
		}
	}
	s.u = s.num.Expand(s.x, ur)
	s.cl = domain.NewLoads(len(s.ur))
	s.cl.AddScaled(s.loads, lambda)
	s.fOK = false
}

// update implements problem: the equation values add.
func (s *small) update(dx []float64) {
	for q, v := range dx {
		s.x[q] += v
	}
	s.lam = math.NaN() // setLambda recomputes u
	s.fOK = false
}

// assemble implements problem: the element forces at lambda and, when
// wantK is set, the tangent K + K_G(u) plus the support springs. When the
// state contradicts the restraint of a support law (package doc, "Support
// laws"), the restraint switches, the equations are renumbered and the
// forces (and tangent) are those of the new state.
func (s *small) assemble(lambda float64, wantK bool) (*sparse.SymMatrix, error) {
	s.setLambda(lambda)
	k, err := s.forces(wantK)
	if err != nil || len(s.sup.restr) == 0 {
		return k, err
	}
	tolU := 0.0
	for _, v := range s.u {
		tolU = math.Max(tolU, math.Abs(v))
	}
	if !s.sup.update(s.u, 1e-10*s.ref, 1e-10*tolU) {
		return k, nil
	}
	s.sup.changed = true
	if err := s.renumber(); err != nil {
		return nil, err
	}
	s.setLambda(lambda)
	return s.forces(wantK)
}

// renumber numbers the equations of the current set of free restraint-law
// DOFs, keeping the value of every DOF that stays free or restrained and
// giving a freed DOF the value it was held at; a DOF restrained again
// takes its held value (setLambda).
func (s *small) renumber() error {
	nd := len(s.u)
	xg := make([]float64, nd)
	for g, q := range s.num.Eq {
		if q == dof.Restrained {
			xg[g] = s.u[g]
		}
	}
	for q, g := range s.num.EqDOF {
		xg[g] = s.x[q]
	}
	key, off := s.sup.key(nd)
	nb, ok := s.sup.numbered[key]
	if !ok {
		nb.num = s.d.DOF.Number(off)
		as, err := s.d.NewAssembler(nb.num)
		if err != nil {
			return fmt.Errorf("assemble: %w", err)
		}
		nb.as = as
		s.sup.numbered[key] = nb
	}
	s.num, s.as = nb.num, nb.as
	s.x = make([]float64, s.num.Equations())
	for q, g := range s.num.EqDOF {
		s.x[q] = xg[g]
	}
	s.lam = math.NaN()
	s.fOK = false
	return nil
}

// stale implements staler.
func (s *small) stale() bool {
	c := s.lawsMoved
	s.lawsMoved = false
	return c
}

// switched implements switcher.
func (s *small) switched() bool {
	c := s.sup.changed
	s.sup.changed = false
	return c
}

// commit implements committer: the history of the member and support
// laws at the converged state becomes the committed one.
func (s *small) commit() {
	commitLaws(s.laws)
	s.sup.commit(s.u)
}

// forces computes F(u) = Σ_e [Resisting_e(u) + K_G,e(u)·u_e] at the
// current state into s.fint and, when wantK is set, returns the assembled
// tangent Σ_e (K_e + K_G,e(u)) plus the springs.
func (s *small) forces(wantK bool) (*sparse.SymMatrix, error) {
	clear(s.fint)
	s.fOK = false
	var k *sparse.SymMatrix
	if wantK {
		k = s.as.NewMatrix()
		s.lawsMoved = false
	}
	var ue, f, kg, ke []float64
	var dofs []int
	for e, el := range s.d.Elements {
		n := domain.Size(el)
		if cap(ue) < n {
			ue, f = make([]float64, n), make([]float64, n)
			kg, ke = make([]float64, n*n), make([]float64, n*n)
		}
		ue, f, kg, ke = ue[:n], f[:n], kg[:n*n], ke[:n*n]
		domain.Gather(el, s.u, ue)
		if err := el.Resisting(ue, s.cl, f); err != nil {
			return nil, domain.Wrapf("element %d: %w", el.ID(), err)
		}
		if err := s.geometric(el, ue, kg); err != nil {
			return nil, domain.Wrapf("element %d: %w", el.ID(), err)
		}
		var law *axialLaw
		if e < len(s.laws) {
			law = s.laws[e]
		}
		var dk float64 // change of the axial tangent along the chord
		gone := false
		if law != nil {
			var err error
			if dk, gone, err = s.applyLaw(e, law, ue, f, kg, wantK); err != nil {
				return nil, err
			}
			if gone {
				// A broken fuse takes no force and has no stiffness; the
				// fixed-end forces of its loads still reach its nodes.
				clear(ue)
				if err := el.Resisting(ue, s.cl, f); err != nil {
					return nil, domain.Wrapf("element %d: %w", el.ID(), err)
				}
				clear(kg)
			}
		}
		dofs = domain.DOFs(el, dofs[:0])
		for i, g := range dofs {
			v := f[i]
			for j := range n {
				v += kg[i*n+j] * ue[j]
			}
			s.fint[g] += v
		}
		if !wantK || gone {
			continue
		}
		el.Stiffness(ke)
		for i := range ke {
			ke[i] += kg[i]
		}
		if law != nil && dk != 0 {
			b := &s.chord[e]
			for i := range 12 {
				for j := range 12 {
					ke[i*12+j] += dk * b[i] * b[j]
				}
			}
		}
		s.as.Add(k, e, ke)
	}
	if wantK {
		s.started = true
	}
	if s.sup.active() {
		s.sup.springForces(s.u)
		s.sup.reactions(s.num, s.fint, s.loads.NodeF, s.lam, s.u)
	}
	if wantK {
		spring := s.sup.linear
		if len(s.sup.springs) > 0 {
			spring = make([]float64, len(spring))
			for g := range spring {
				spring[g] = s.sup.linear[g] + s.sup.ksup[g]
			}
		}
		domain.AddSprings(s.as, k, s.num, spring)
	}
	s.fOK = true
	return k, nil
}

// applyLaw puts the axial law of frame e in place of its linear axial
// force: with N_el the element's mean axial force (the one its geometric
// stiffness uses) under ue and its loads, e = N_el·L/EA is the mechanical
// chord elongation (free strains out) and N the law's force; the forces f
// gain (N − N_el)·b, b the chord vector, and the geometric stiffness kg
// that of N. It returns the change of the axial tangent, k_t − EA/L, along
// b, and gone for a broken brittle fuse, which takes no part at all.
func (s *small) applyLaw(e int, law *axialLaw, ue, f, kg []float64, wantK bool) (float64, bool, error) {
	fe := s.d.Frames[e]
	var q [12]float64
	if err := fe.InternalForces(ue, s.cl, q[:]); err != nil {
		return 0, false, domain.Wrapf("element %d: %w", fe.MemberID, err)
	}
	nel := (q[6] - q[0]) / 2
	n, kt, gone := law.eval(nel/law.ka, !s.started)
	if law.differs(kt, wantK) {
		s.lawsMoved = true
	}
	if gone {
		return 0, true, nil
	}
	dn := n - nel
	b, ku := &s.chord[e], &s.kgUnit[e]
	for i := range 12 {
		f[i] += dn * b[i]
	}
	for i := range kg[:144] {
		kg[i] += dn * ku[i]
	}
	return kt - law.ka, false, nil
}

// residual implements problem: R = λ·P_node − F(u) − k_s·u at the
// equations, through the constraints. The element loads are in F (their
// fixed-end forces, in Resisting), so only the node loads are on the left.
func (s *small) residual(lambda float64, r []float64) float64 {
	s.setLambda(lambda)
	if !s.fOK {
		if _, err := s.forces(false); err != nil {
			// An element that cannot take its loads: newSmall reported
			// it before running, so this cannot happen.
			return math.NaN()
		}
	}
	g := make([]float64, len(s.fint))
	for i := range g {
		g[i] = lambda*s.loads.NodeF[i] - s.fint[i] - s.sup.linear[i]*s.u[i] - s.sup.fsup[i]
	}
	clear(r)
	s.num.Distribute(g, r, nil)
	return norm(r)
}

// geometricPart returns the part of the frames' geometric stiffness that
// Options.PDelta selects, false for none.
func (s *small) geometricPart() (domain.GeometricPart, bool) {
	switch s.opts.PDelta {
	case PDeltaChord:
		return domain.GeometricChord, true
	case PDeltaNone:
		return 0, false
	}
	return domain.GeometricFull, true
}

// geometric writes into kg the geometric stiffness element el takes under
// ue at the current loads: its own (domain.Element.GeometricStiffness)
// but for frames with P-Δ alone, whose string stiffness is that of their
// mean axial force, and nothing with Options.PDelta PDeltaNone. Plates
// keep their own membrane geometric stiffness with P-Δ alone: the split
// is a member's.
func (s *small) geometric(el domain.Element, ue, kg []float64) error {
	part, ok := s.geometricPart()
	if !ok {
		clear(kg)
		return nil
	}
	fe, frame := el.(*domain.FrameElement)
	if !frame || part == domain.GeometricFull {
		return el.GeometricStiffness(ue, s.cl, kg)
	}
	n, err := fe.MeanAxialForce(ue, s.cl)
	if err != nil {
		return err
	}
	fe.GeometricStiffnessOf(n, part, kg)
	return nil
}

// geometricEndForces writes into q the geometric end forces of frame fe
// under its node displacements ug and axial force n, for the part
// Options.PDelta selects (zero for none).
func (s *small) geometricEndForces(fe *domain.FrameElement, ug []float64, n float64, q []float64) {
	part, ok := s.geometricPart()
	if !ok {
		clear(q[:12])
		return
	}
	fe.GeometricEndForcesOf(ug, n, part, q)
}
