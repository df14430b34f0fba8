package modal_test

import (
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/modal"
)

// Unit normalization scales by the largest translation, or by the largest
// rotation when the nodes only rotate (translations of round-off, as a
// single member bending between held nodes gives), and never amplifies
// round-off.
func TestNormalizeUnit(t *testing.T) {
	for _, tc := range []struct {
		name      string
		shape     [][6]float64
		node, dof int
	}{
		{"sway", [][6]float64{{0, 0, 0, 0, 0, 0.1}, {-2e-3, 1e-5, 0, 0, 0, 3e-4}}, 1, 0},
		{"bending between nodes", [][6]float64{{0, 0, 0, 0, 0, 2e-4}, {0, 1e-20, 0, 0, 0, -3e-4}}, 1, 5},
		{"translation of 1e-6 of the rotation is real", [][6]float64{{0, 0, 0, 0, 0, 1}, {0, 1e-6, 0, 0, 0, 0}}, 1, 1},
		{"zero", [][6]float64{{}, {}}, -1, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, d := modal.Dominant(tc.shape)
			if n != tc.node || d != tc.dof {
				t.Fatalf("Dominant = node %d dof %d, want %d %d", n, d, tc.node, tc.dof)
			}
			modal.Normalize(tc.shape, modal.UnitNormalized)
			if n < 0 {
				return
			}
			// Exact: the dominant component is divided by itself.
			if tc.shape[n][d] != 1 {
				t.Errorf("dominant component %g after normalizing, want 1", tc.shape[n][d])
			}
			// Translations never exceed the dominant one; when a rotation
			// dominates, nothing exceeds it (round-off stays round-off).
			for _, s := range tc.shape {
				for k, v := range s {
					if (k < 3 || d >= 3) && !(math.Abs(v) <= 1) {
						t.Errorf("component %d is %g after normalizing, above the dominant one", k, v)
					}
				}
			}
		})
	}
}
