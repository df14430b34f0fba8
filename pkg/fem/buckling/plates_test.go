package buckling_test

import (
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/buckling"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/internal/platecase"
	"github.com/gusset/gusset/pkg/fem/modal"
	"github.com/gusset/gusset/pkg/fem/shell"
)

// TestPlateBuckling: a simply supported square plate compressed along x
// by a uniform Nx buckles at Nx = k·π²·D/b², k = 4 for a/b = 1 (Timoshenko
// & Gere, Theory of Elastic Stability, 2nd ed., §9.2). The compression is
// put on as nodal forces along the edge x = a (half at its ends), the edge
// x = 0 is held along x, and the plate is otherwise free in its plane, so
// the membrane state is exactly Nx, Ny = Nxy = 0. Within 2 % on a 16 × 16
// mesh of each theory: the discretisation error of w's buckled shape.
func TestPlateBuckling(t *testing.T) {
	const a, tk, n = 1.0, 0.01, 16
	const nx = 1000.0 // N/m applied
	d := 1e9 * tk * tk * tk / (12 * (1 - 0.3*0.3))
	want := 4 * math.Pi * math.Pi * d / (a * a) / nx
	for _, th := range []shell.Theory{shell.Kirchhoff, shell.Mindlin} {
		t.Run(th.String(), func(t *testing.T) {
			m := platecase.Grid(n, n, a, a, false, th, tk)
			platecase.SimplySupport(m, n, n)
			for i := range m.Supports {
				s := &m.Supports[i]
				for j := 0; j <= n; j++ {
					if s.Node == platecase.NodeID(0, j) {
						s.Code = "F" + s.Code[1:]
					}
				}
			}
			lc := domain.LoadCase{ID: 14}
			for j := 0; j <= n; j++ {
				f := nx * a / n
				if j == 0 || j == n {
					f /= 2
				}
				lc.NodeLoads = append(lc.NodeLoads, domain.NodeLoad{Node: platecase.NodeID(n, j), F: [6]float64{-f}})
			}
			m.LoadCases = []domain.LoadCase{lc}
			res := analyze(t, m, buckling.Options{Settings: modal.Settings{Modes: 1}})
			got := res.Cases[0].Modes[0].LoadFactor
			t.Logf("λ = %.5f, want %.5f (%.4f)", got, want, got/want)
			if !(math.Abs(got/want-1) <= 0.02) {
				t.Errorf("load factor %.6g, want %.6g within 2 %%", got, want)
			}
		})
	}
}
