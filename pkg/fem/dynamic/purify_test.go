package dynamic

import (
	"context"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/eigen"
	"github.com/gusset/gusset/pkg/fem/modal"
)

// TestPurifiedWhenRangeExhausted: a 3×3-bay, 3-storey frame with lumped
// translational masses only (rotations and the refined members' inner
// nodes massless) has 144 modes; asking 150 makes Lanczos exhaust the
// range of Op (the last B is empty), and every mode must still solve
// K·φ = λ·M·φ, massless DOFs included.
func TestPurifiedWhenRangeExhausted(t *testing.T) {
	m := &domain.Model{
		Materials: []domain.Material{{ID: 3, E: 2.1e11, G: 8.1e10, Density: 7850}},
		Sections:  []domain.Section{{ID: 2, A: 0.01, J: 4e-6, Iy: 3e-6, Iz: 2e-6}},
		LoadCases: []domain.LoadCase{{ID: 13}},
	}
	// Node (i, k, j) is 100j + 10k + i + 1; the members ending at it are
	// 1000, 2000 and 3000 plus its id (column, along x, along z).
	id := func(i, k, j int) int64 { return int64(100*j + 10*k + i + 1) }
	for j := 0; j <= 3; j++ {
		for i := 0; i <= 3; i++ {
			for k := 0; k <= 3; k++ {
				m.Nodes = append(m.Nodes, domain.Node{ID: id(i, k, j), X: 4 * float64(i), Y: 3 * float64(j), Z: 4 * float64(k)})
				if j == 0 {
					m.Supports = append(m.Supports, domain.Support{Node: id(i, k, j), Code: "FFFFFF"})
					continue
				}
				mass := 1000.0 + 37*float64((i*7+k*3+j*5)%11)
				m.LoadCases[0].Masses = append(m.LoadCases[0].Masses, domain.NodeMass{Node: id(i, k, j), M: [6]float64{mass, mass, mass}})
				add := func(p, a, b int64) {
					m.Members = append(m.Members, domain.Member{ID: p + b, NodeA: a, NodeB: b, Section: 2, Material: 3})
				}
				add(1000, id(i, k, j-1), id(i, k, j))
				if i > 0 {
					add(2000, id(i-1, k, j), id(i, k, j))
				}
				if k > 0 {
					add(3000, id(i, k-1, j), id(i, k, j))
				}
			}
		}
	}
	const modes = 150
	ctx := context.Background()
	s, err := modal.New(ctx, m, modes, nil)
	if err != nil {
		t.Fatal(err)
	}
	mm, _, err := massOf(s, &s.D.Model.LoadCases[0])
	if err != nil {
		t.Fatal(err)
	}
	f, err := s.Factor(ctx, 0, mm)
	if err != nil {
		t.Fatal(err)
	}
	sol, err := eigen.Solve(ctx, s.Problem(f, mm, mm), eigen.Options{
		Wanted: modes + modal.Extra(modes), Tol: 1e-6, Accept: func(th float64) bool { return th > 0 }})
	if err != nil {
		t.Fatal(err)
	}
	n := s.Equations()
	if len(sol.Theta) != 144 {
		t.Fatalf("%d modes, want 144", len(sol.Theta))
	}
	kx, mx := make([]float64, n), make([]float64, n)
	for i, th := range sol.Theta {
		x := sol.Vectors[i*n : (i+1)*n]
		s.K.MulVec(kx, x)
		mm.MulVec(mx, x)
		num, den := 0.0, 0.0
		for q := range kx {
			d := kx[q] - mx[q]/th
			num, den = num+d*d, den+kx[q]*kx[q]
		}
		if r := math.Sqrt(num / den); !(r <= 1e-6) {
			t.Errorf("mode %d (λ = %.6g): ‖Kφ − λMφ‖/‖Kφ‖ = %.3g, want ≤ 1e-6", i, 1/th, r)
		}
	}
}
