package library

import (
	"errors"
	"math"
	"testing"
)

// TestRectTorsion compares the series with the coefficients k of J = k·a·b³
// (a long side, b short side) tabulated by Timoshenko & Goodier, Theory of
// Elasticity, 3rd ed., §109. The table prints three significant figures, so
// it is good to ±0.0005/0.141 ≈ 0.4 %.
func TestRectTorsion(t *testing.T) {
	tests := []struct{ ratio, k float64 }{
		{1, 0.141}, {1.5, 0.196}, {2, 0.229}, {3, 0.263}, {4, 0.281}, {5, 0.291}, {10, 0.312},
	}
	for _, tc := range tests {
		const b = 0.1
		a := tc.ratio * b
		checkRel(t, "J", rectTorsion(a, b), tc.k*a*b*b*b, 0.004)
		// Orientation must not matter.
		checkRel(t, "J (turned)", rectTorsion(b, a), tc.k*a*b*b*b, 0.004)
	}
	// Long strips tend to a·b³/3 less the end effect (64/π⁵)·b⁴·Σ_odd 1/n⁵,
	// with Σ_odd 1/n⁵ = (31/32)·ζ(5) = 1.0045237627 (the series with tanh = 1;
	// its 0.2101·b⁴ is the "0.21" of the usual approximation). At a/b = 1000
	// tanh(500π) is 1 to machine precision, so the two agree to rounding.
	checkRel(t, "strip", rectTorsion(100, 0.1), 100*1e-3/3-64/math.Pow(math.Pi, 5)*1e-4*1.0045237627, 1e-9)
}

// TestParametricSections checks each parametric shape against closed forms
// evaluated by hand (mm units in the comments); tolerances are 1e-12 where
// the formula is exact and the arithmetic is in the comment.
func TestParametricSections(t *testing.T) {
	tests := []struct {
		name, canonical      string
		a, iz, iy, j, ay, az float64 // SI
	}{
		// 300 deep × 200 wide: A = 60 000 mm², Iz = 200·300³/12 = 450e6,
		// Iy = 300·200³/12 = 200e6, J = k·300·200³ with the series value.
		{"RECT 300x200", "RECT 300x200", 0.06, 450e-6, 200e-6, rectTorsion(0.3, 0.2), 0.05, 0.05},
		// Sharp-cornered box 300×200×10: A = 60000 − 280·180 = 9600 mm²;
		// Iz = (200·300³ − 180·280³)/12 = 120.72e6; Iy = (300·200³ − 280·180³)/12
		// = 63.92e6; mid-line 290 × 190: Ah = 55 100, h = 960,
		// J = 10³·960/3 + 4·55100²·10/960 = 126.8204e6; Ay = 9600·300/500.
		{"rhs 300 x 200 x 10", "RHS 300x200x10", 9600e-6, 120.72e-6, 63.92e-6, 126.82041666666667e-6, 5760e-6, 3840e-6},
		// ROUND 100: A = π·50², I = π·100⁴/64, J = 2I, shear 0.9·A.
		{"ROUND 100", "ROUND 100", math.Pi * 2.5e-3, math.Pi * 1e-4 / 64, math.Pi * 1e-4 / 64, math.Pi * 1e-4 / 32,
			0.9 * math.Pi * 2.5e-3, 0.9 * math.Pi * 2.5e-3},
		// TUBE 100x5: inside 90, A = π(100² − 90²)/4, I = π(100⁴ − 90⁴)/64.
		{"Tube 100×5", "TUBE 100x5", math.Pi * (1e-2 - 0.81e-2) / 4, math.Pi * (1e-4 - 0.6561e-4) / 64,
			math.Pi * (1e-4 - 0.6561e-4) / 64, math.Pi * (1e-4 - 0.6561e-4) / 32,
			math.Pi * (1e-2 - 0.81e-2) / 8, math.Pi * (1e-2 - 0.81e-2) / 8},
		// Aliases.
		{"BOX 300x200x10", "RHS 300x200x10", 9600e-6, 120.72e-6, 63.92e-6, 126.82041666666667e-6, 5760e-6, 3840e-6},
		{"CHS 100x5", "TUBE 100x5", math.Pi * (1e-2 - 0.81e-2) / 4, math.Pi * (1e-4 - 0.6561e-4) / 64,
			math.Pi * (1e-4 - 0.6561e-4) / 64, math.Pi * (1e-4 - 0.6561e-4) / 32,
			math.Pi * (1e-2 - 0.81e-2) / 8, math.Pi * (1e-2 - 0.81e-2) / 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := mustSection(t, LibParametric, tc.name)
			if s.Name != tc.canonical || s.Library != LibParametric {
				t.Errorf("name %q in %q, want %q in %q", s.Name, s.Library, tc.canonical, LibParametric)
			}
			const tol = 1e-12
			checkRel(t, "A", s.A, tc.a, tol)
			checkRel(t, "Iz", s.Iz, tc.iz, tol)
			checkRel(t, "Iy", s.Iy, tc.iy, tol)
			checkRel(t, "J", s.J, tc.j, tol)
			checkRel(t, "Ay", s.Ay, tc.ay, tol)
			checkRel(t, "Az", s.Az, tc.az, tol)
		})
	}
}

func TestParametricConstructors(t *testing.T) {
	s, err := NewRect(0.3, 0.2)
	if err != nil || s.Name != "RECT 300x200" {
		t.Fatalf("NewRect = %q, %v", s.Name, err)
	}
	if s, err := NewTube(0.1683, 0.0071); err != nil || s.Name != "TUBE 168.3x7.1" {
		t.Fatalf("NewTube = %q, %v", s.Name, err)
	}
	invalid := []struct {
		name string
		f    func() (Section, error)
	}{
		{"zero depth", func() (Section, error) { return NewRect(0, 0.2) }},
		{"negative", func() (Section, error) { return NewRound(-1) }},
		{"NaN", func() (Section, error) { return NewRound(math.NaN()) }},
		{"wall too thick", func() (Section, error) { return NewHollowRect(0.3, 0.2, 0.1) }},
		{"solid tube", func() (Section, error) { return NewTube(0.1, 0.05) }},
		{"by name", func() (Section, error) { return LookupSection(LibParametric, "RHS 100x100x60") }},
	}
	for _, tc := range invalid {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.f(); !errors.Is(err, ErrInvalidDimensions) {
				t.Errorf("err = %v, want ErrInvalidDimensions", err)
			}
		})
	}
}

func TestParametricBadNames(t *testing.T) {
	for _, name := range []string{"RECT 300", "RECT 300x200x10", "HEX 100", "RECT", "RECT axb", "ROUND 1e3"} {
		t.Run(name, func(t *testing.T) {
			_, err := LookupSection(LibParametric, name)
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("err = %v, want ErrNotFound", err)
			}
		})
	}
}
