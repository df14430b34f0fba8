package transform_test

import (
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// V keeps the test tables short.
type V = geom.Vec3

// congruence returns Tᵀ·k·T by the definition, the reference the
// blockwise transforms are compared with.
func congruence(T [12][12]float64, k []float64) []float64 {
	const n = 12
	out := make([]float64, n*n)
	for i := range n {
		for j := range n {
			s := 0.0
			for p := range n {
				for q := range n {
					s += T[p][i] * k[p*n+q] * T[q][j]
				}
			}
			out[i*n+j] = s
		}
	}
	return out
}

// TestToGlobalMatrixDense compares the blockwise congruence with an
// explicit Tᵀ·k·T on a full (non-sparse) random-like matrix.
func TestToGlobalMatrixDense(t *testing.T) {
	r, err := geom.LocalAxes(V{0, 0, 0}, V{1, 2, 3}, geom.Direction{Angle: 0.7}, geom.ZAxis)
	if err != nil {
		t.Fatal(err)
	}
	const n = 12
	k := make([]float64, n*n)
	for i := range k {
		k[i] = math.Sin(float64(i*7 + 1))
	}
	var T [n][n]float64
	for b := 0; b < n; b += 3 {
		for i := range 3 {
			for j := range 3 {
				T[b+i][b+j] = r[i][j]
			}
		}
	}
	want := congruence(T, k)
	got := make([]float64, n*n)
	transform.ToGlobalMatrix(r, n, k, got)
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("entry %d: %g want %g", i, got[i], want[i])
		}
	}
	// Round trip, in place.
	transform.ToLocalMatrix(r, n, got, got)
	for i := range got {
		if math.Abs(got[i]-k[i]) > 1e-12 {
			t.Fatalf("round trip entry %d: %g want %g", i, got[i], k[i])
		}
	}
}
