package modal_test

import (
	"context"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/modal"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// TestRecycle: a factorization handed back by Recycle is the one the next
// Factor returns, refactored for the new matrix (no new factor), and Count
// recycles its own, so counts in a row share it. With B = 2·K every
// eigenvalue of K·φ = λ·B·φ is ½: a count below σ = 0.4 is 0, above σ = 0.6
// it is every equation.
func TestRecycle(t *testing.T) {
	m := &domain.Model{
		Nodes:     []domain.Node{{ID: 2}, {ID: 3, X: 4}},
		Materials: []domain.Material{{ID: 5, E: 2.1e11, G: 8.1e10, Density: 7850}},
		Sections:  []domain.Section{{ID: 4, A: 0.01, J: 1e-5, Iy: 2e-5, Iz: 1e-5}},
		Members:   []domain.Member{{ID: 1, NodeA: 2, NodeB: 3, Section: 4, Material: 5}},
		Supports:  []domain.Support{{Node: 2, Code: "FFFFFF"}},
	}
	ctx := context.Background()
	fz := &linsys.SparseFactorizer{}
	s, err := modal.New(ctx, m, 2, fz)
	if err != nil {
		t.Fatal(err)
	}
	b := &sparse.SymMatrix{Pat: s.K.Pat, Val: make([]float64, len(s.K.Val))}
	for i, v := range s.K.Val {
		b.Val[i] = 2 * v
	}
	f, err := s.Factor(ctx, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Recycle(f)
	g, err := s.Factor(ctx, 0.6, b)
	if err != nil {
		t.Fatal(err)
	}
	if g != f {
		t.Error("Factor after Recycle made a new factorization")
	}
	if n := g.(linsys.Inertial).Inertia().Negative; n != s.Equations() {
		t.Errorf("the recycled factorization counts %d negative pivots at σ = 0.6, want %d", n, s.Equations())
	}
	s.Recycle(g)
	for _, c := range []struct {
		sigma float64
		want  int
	}{{0.4, 0}, {0.6, s.Equations()}, {0.3, 0}} {
		n, err := s.Count(ctx, c.sigma, b)
		if err != nil {
			t.Fatal(err)
		}
		if n != c.want {
			t.Errorf("count below %g: %d, want %d", c.sigma, n, c.want)
		}
	}
	if st := fz.Stats(); st.Analyses != 1 || st.Factorizations != 5 {
		t.Errorf("%d analyses, %d factorizations; want 1 and 5", st.Analyses, st.Factorizations)
	}
	// The counts handed their factorization back too: one factor object
	// served them all, and serves the next Factor.
	h, err := s.Factor(ctx, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if h != f {
		t.Error("the counts did not recycle their factorization")
	}
}
