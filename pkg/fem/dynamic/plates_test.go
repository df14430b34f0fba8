package dynamic_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/dynamic"
	"github.com/gusset/gusset/pkg/fem/internal/platecase"
	"github.com/gusset/gusset/pkg/fem/modal"
	"github.com/gusset/gusset/pkg/fem/shell"
)

// TestPlateFrequency: the fundamental frequency of a simply supported
// square plate, ω₁₁·a²·√(ρh/D) = 2π² = 19.7392 (Leissa, Vibration of
// Plates, NASA SP-160, 1969, §4.1; exact for a thin plate), on a 16 × 16
// mesh of each theory, within 1 % — the mesh's discretisation error
// (the consistent mass makes it converge from above) plus the rotary
// inertia of the normals, which a/t = 100 keeps near 1e-4. The mass is the
// plates' own, through the case's self-weight; the total must be ρ·h·a²
// to round-off.
func TestPlateFrequency(t *testing.T) {
	const a, tk, rho = 1.0, 0.01, 2500.0
	d := 1e9 * tk * tk * tk / (12 * (1 - 0.3*0.3))
	want := 2 * math.Pi * math.Pi / (a * a) * math.Sqrt(d/(rho*tk)) / (2 * math.Pi)
	for _, th := range []shell.Theory{shell.Kirchhoff, shell.Mindlin} {
		for _, tri := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v triangles=%v", th, tri), func(t *testing.T) {
				m := platecase.Grid(16, 16, a, a, tri, th, tk)
				platecase.SimplySupport(m, 16, 16)
				m.LoadCases = []domain.LoadCase{{ID: 8, SelfWeight: [3]float64{0, 0, -1}}}
				res := analyze(t, m, dynamic.Options{Settings: modal.Settings{Modes: 1}})
				f := res.Cases[0].Modes[0].Frequency
				t.Logf("triangles %v: f₁₁ = %.5f Hz, want %.5f (%.4f)", tri, f, want, f/want)
				if !(math.Abs(f/want-1) <= 0.01) {
					t.Errorf("triangles %v: f₁₁ = %.6g Hz, want %.6g within 1 %%", tri, f, want)
				}
				if m := res.Cases[0].TotalMass[2]; !(math.Abs(m/(rho*tk*a*a)-1) <= 1e-12) {
					t.Errorf("total mass Z = %g kg, want ρha² = %g", m, rho*tk*a*a)
				}
			})
		}
	}
}
