package navier

import (
	"fmt"
	"math"
	"testing"
)

// TestShearSeries checks Shear's single series against the double series
// it was summed from (the Navier series of Timoshenko & Woinowsky-Krieger
// §30 for Qx = −D·∂(∇²w)/∂x), and its edge value against their Table 8.
// The double series, truncated at M = N = 2000 odd terms, differs by at
// most 7e-10·q·a at these interior points (its oscillating tails cancel
// well away from the edges); 1e-8·q·a keeps a margin of ten and fails any
// wrong factor or sign. Table 8 rounds (Qx)max to 0.338: half a unit of
// the last digit, 5e-4.
func TestShearSeries(t *testing.T) {
	double := func(x, y float64) float64 {
		const m = 2000
		s := 0.0
		for i := range m {
			fm := float64(2*i + 1)
			c := math.Cos(fm * math.Pi * x)
			for j := range m {
				fn := float64(2*j + 1)
				s += c * math.Sin(fn*math.Pi*y) / (fn * (fm*fm + fn*fn))
			}
		}
		return 16 / (math.Pi * math.Pi * math.Pi) * s
	}
	for _, p := range [][2]float64{{0.05, 0.5}, {0.2, 0.3}, {0.5, 0.5}, {0.7, 0.15}, {0.97, 0.6}} {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			got, gy := Shear(p[0], p[1])
			want := double(p[0], p[1])
			if !(math.Abs(got-want) <= 1e-8) {
				t.Errorf("Qx = %.6f, double series %.6f", got, want)
			}
			if sym, _ := Shear(p[1], p[0]); !(math.Abs(gy-sym) <= 1e-15) {
				t.Errorf("Qy(x, y) = %.6f, Qx(y, x) = %.6f", gy, sym)
			}
		})
	}
	q, _ := Shear(0, 0.5)
	t.Logf("Qx(0, ½) = %.6f·q·a", q)
	if !(math.Abs(q-0.338) <= 5e-4) {
		t.Errorf("Qx(0, ½) = %.5f, Table 8 gives 0.338", q)
	}
}
