package transform_test

import (
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// TestOffsetConsistency: Hᵀ·k·H built in place must equal the explicit
// product, and forces/displacements must be the matching Hᵀ and H.
func TestOffsetConsistency(t *testing.T) {
	eA, eB := V{0.1, -0.2, 0.3}, V{-0.4, 0.05, 0.2}
	const n = 12
	var H [n][n]float64
	for i := range n {
		H[i][i] = 1
	}
	for j, e := range []V{eA, eB} {
		// u_end = u + θ × e = u − [e]ₓθ.
		sk := [3][3]float64{{0, -e[2], e[1]}, {e[2], 0, -e[0]}, {-e[1], e[0], 0}}
		for r := range 3 {
			for c := range 3 {
				H[6*j+r][6*j+3+c] = -sk[r][c]
			}
		}
	}
	k := make([]float64, n*n)
	for i := range n {
		for j := 0; j <= i; j++ {
			v := math.Cos(float64(3*i + 5*j))
			k[i*n+j], k[j*n+i] = v, v
		}
	}
	want := congruence(H, k)
	got := append([]float64(nil), k...)
	transform.OffsetMatrix([]geom.Vec3{eA, eB}, got)
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("entry %d: %g want %g", i, got[i], want[i])
		}
	}
	u := []float64{1, 2, 3, 0.1, -0.2, 0.3, -1, 0.5, 2, 0.4, 0.2, -0.1}
	ue := make([]float64, n)
	transform.OffsetDisplacements([]geom.Vec3{eA, eB}, u, ue)
	f := make([]float64, n)
	transform.OffsetForces([]geom.Vec3{eA, eB}, u, f)
	for i := range n {
		su, sf := 0.0, 0.0
		for j := range n {
			su += H[i][j] * u[j]
			sf += H[j][i] * u[j]
		}
		if math.Abs(ue[i]-su) > 1e-14 || math.Abs(f[i]-sf) > 1e-14 {
			t.Errorf("row %d: H·u %g/%g, Hᵀ·f %g/%g", i, ue[i], su, f[i], sf)
		}
	}
}
