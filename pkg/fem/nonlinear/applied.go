package nonlinear

import (
	"math"

	"github.com/gusset/gusset/pkg/fem/domain"
)

// applied fills res.Applied and res.Residual of the Small state at load
// factor lambda: the node loads plus the equivalent node loads of the
// element loads, which are −F at zero displacement (the fixed-end forces
// the elements' Resisting adds), and the out-of-balance of the state.
func (s *small) applied(res *Result, lambda float64) error {
	p := make([]float64, len(s.fint))
	for g, v := range s.loads.NodeF {
		p[g] = lambda * v
	}
	cl := domain.NewLoads(len(s.ur))
	cl.AddScaled(s.loads, lambda)
	var ue, f []float64
	var dofs []int
	for _, el := range s.d.Elements {
		n := domain.Size(el)
		if cap(ue) < n {
			ue, f = make([]float64, n), make([]float64, n)
		}
		ue, f = ue[:n], f[:n]
		clear(ue)
		if err := el.Resisting(ue, cl, f); err != nil {
			return domain.Wrapf("element %d: %w", el.ID(), err)
		}
		dofs = domain.DOFs(el, dofs[:0])
		for i, g := range dofs {
			p[g] -= f[i]
		}
	}
	res.Applied = p
	r := make([]float64, s.num.Equations())
	s.residual(lambda, r)
	res.Residual = maxAbs(r)
	return nil
}

// applied fills res.Applied and res.Residual of the large-displacement
// state at load factor lambda: λ·P, the reference load with the
// equivalent node loads of the member loads (package doc, "Loads").
func (a *analysis) applied(res *Result, lambda float64) {
	p := make([]float64, len(a.p))
	for g, v := range a.p {
		p[g] = lambda * v
	}
	res.Applied = p
	r := make([]float64, a.num.Equations())
	a.residual(lambda, r)
	res.Residual = maxAbs(r)
}

// maxAbs returns the largest |x_i|, 0 for none.
func maxAbs(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}
