package nonlinear

import (
	"context"
	"fmt"
	"math"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// small is the state of one Small-theory Analyze call: second-order
// analysis on the initial geometry through the generic element interface
// (package doc, "Small theory").
type small struct {
	driver
	d  *domain.Domain
	as *sparse.Assembler
	// loads is the case at λ = 1; ur its prescribed displacements per
	// global DOF (zero elsewhere); ref the norm of the residual of the
	// undeformed state at λ = 1, the reference of the residual criterion.
	loads *domain.Loads
	ur    []float64
	ref   float64
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
func newSmall(ctx context.Context, d *domain.Domain, name string, opts Options) (*small, error) {
	s := &small{driver: driver{ctx: ctx, name: name, opts: opts, stable: true}, d: d}
	s.num = d.DOF.Number(nil)
	as, err := d.NewAssembler(s.num)
	if err != nil {
		return nil, fmt.Errorf("assemble: %w", err)
	}
	s.as = as
	if s.loads, err = d.ResolveCase(name); err != nil {
		return nil, err
	}
	nd := d.DOF.DOFs()
	s.ur = make([]float64, nd)
	for g, v := range s.loads.Presc {
		if s.num.Fixed[g] {
			s.ur[g] = v
		}
	}
	s.x = make([]float64, s.num.Equations())
	s.fint = make([]float64, nd)
	s.lam = math.NaN()
	s.setLambda(1)
	if _, err := s.forces(false); err != nil { // an element that cannot take its loads
		return nil, err
	}
	s.ref = s.residual(1, make([]float64, s.num.Equations()))
	return s, nil
}

// loadNorm implements problem: the norm of the residual of the undeformed
// state (C·x = 0) at λ = 1, the right-hand side of the linear analysis
// (node loads, equivalent loads of element loads, prescribed
// displacements moved to the right).
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
// wantK is set, the tangent K + K_G(u) plus the support springs.
func (s *small) assemble(lambda float64, wantK bool) (*sparse.SymMatrix, error) {
	s.setLambda(lambda)
	return s.forces(wantK)
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
			return nil, fmt.Errorf("element %s: %w", el.Name(), err)
		}
		if err := el.GeometricStiffness(ue, s.cl, kg); err != nil {
			return nil, fmt.Errorf("element %s: %w", el.Name(), err)
		}
		dofs = domain.DOFs(el, dofs[:0])
		for i, g := range dofs {
			v := f[i]
			for j := range n {
				v += kg[i*n+j] * ue[j]
			}
			s.fint[g] += v
		}
		if !wantK {
			continue
		}
		el.Stiffness(ke)
		for i := range ke {
			ke[i] += kg[i]
		}
		s.as.Add(k, e, ke)
	}
	if wantK {
		domain.AddSprings(s.as, k, s.num, s.num.Spring)
	}
	s.fOK = true
	return k, nil
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
		g[i] = lambda*s.loads.NodeF[i] - s.fint[i] - s.num.Spring[i]*s.u[i]
	}
	clear(r)
	s.num.Distribute(g, r, nil)
	return norm(r)
}
