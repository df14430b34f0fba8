package element

import (
	"math"
	"testing"
)

// quad returns uᵀ·a·u for a 12×12 matrix a.
func quad(a []float64, u [12]float64) float64 {
	s := 0.0
	for i := range 12 {
		for j := range 12 {
			s += u[i] * a[i*12+j] * u[j]
		}
	}
	return s
}

// TestFrameMassRigidBody checks the consistent mass on rigid-body motions,
// which the cubic and linear interpolations reproduce exactly, so the
// kinetic energy is that of the rigid bar (tolerance: round-off): a
// translation gives uᵀMu = ρAL, a rotation θ about the end-A axis z (v =
// x·θ, rz = θ) gives ρAL³/3·θ², about y (w = −x·θ, ry = θ) the same, and a
// twist about x gives ρ(Iy+Iz)L·θ².
func TestFrameMassRigidBody(t *testing.T) {
	p := FrameProps{L: 2.5, E: 200e9, G: 80e9, A: 0.01, Iy: 2e-5, Iz: 3e-5, J: 1e-5}
	rho := 7850.0
	m := make([]float64, 144)
	FrameMass(p, rho, m)
	mass := rho * p.A * p.L
	L := p.L
	cases := []struct {
		name string
		u    [12]float64
		want float64
	}{
		{"translation x", [12]float64{0: 1, 6: 1}, mass},
		{"translation y", [12]float64{1: 1, 7: 1}, mass},
		{"translation z", [12]float64{2: 1, 8: 1}, mass},
		{"rotation about z", [12]float64{5: 1, 7: L, 11: 1}, mass * L * L / 3},
		{"rotation about y", [12]float64{4: 1, 8: -L, 10: 1}, mass * L * L / 3},
		{"twist", [12]float64{3: 1, 9: 1}, rho * (p.Iy + p.Iz) * L},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := quad(m, c.u); !(math.Abs(got-c.want) <= 1e-12*c.want) {
				t.Errorf("uᵀMu = %.12g, want %.12g", got, c.want)
			}
		})
	}
	for i := range 12 {
		for j := range 12 {
			if m[i*12+j] != m[j*12+i] {
				t.Fatalf("M not symmetric at (%d,%d)", i, j)
			}
		}
	}
}

// TestFrameGeometricCantilever checks the geometric stiffness by the
// one-element buckling load of a cantilever fixed at A: det(K_BB + K_G,BB)
// = 0 on the free end's translation and rotation in each bending plane.
// With cubic shape functions this gives P = 2.486·EI/L² (McGuire,
// Gallagher and Ziemian, Matrix Structural Analysis, 2nd ed., 2000, §9.4;
// exact π²/4 = 2.467), the smaller root of 0.15·p² − 5.2·p + 12 = 0 in p =
// PL²/EI, solved here in closed form (tolerance: round-off).
func TestFrameGeometricCantilever(t *testing.T) {
	p := FrameProps{L: 3, E: 210e9, G: 81e9, A: 0.02, Iy: 3e-5, Iz: 5e-5, J: 1e-5}
	want := (5.2 - math.Sqrt(5.2*5.2-4*0.15*12)) / (2 * 0.15) // 2.4860
	if !(math.Abs(want-2.486) <= 5e-4) {
		t.Fatalf("closed form %g, published 2.486", want)
	}
	k := make([]float64, 144)
	FrameStiffness(p, k)
	kg := make([]float64, 144)
	FrameGeometric(p, -1, kg) // unit compression
	for _, plane := range []struct {
		name string
		v, r int
		i    float64 // the inertia bending in the plane
	}{{"x-y", 7, 11, p.Iz}, {"x-z", 8, 10, p.Iy}} {
		t.Run(plane.name, func(t *testing.T) {
			// det([a − P·g]) = 0 for the 2×2 blocks, a quadratic in P.
			a := [2][2]float64{{k[plane.v*12+plane.v], k[plane.v*12+plane.r]}, {k[plane.r*12+plane.v], k[plane.r*12+plane.r]}}
			g := [2][2]float64{{-kg[plane.v*12+plane.v], -kg[plane.v*12+plane.r]}, {-kg[plane.r*12+plane.v], -kg[plane.r*12+plane.r]}}
			qa := g[0][0]*g[1][1] - g[0][1]*g[1][0]
			qb := -(a[0][0]*g[1][1] + a[1][1]*g[0][0] - a[0][1]*g[1][0] - a[1][0]*g[0][1])
			qc := a[0][0]*a[1][1] - a[0][1]*a[1][0]
			pcr := (-qb - math.Sqrt(qb*qb-4*qa*qc)) / (2 * qa)
			got := pcr * p.L * p.L / (p.E * plane.i)
			if !(math.Abs(got-want) <= 1e-9*want) {
				t.Errorf("P·L²/EI = %.10g, want %.10g", got, want)
			}
		})
	}
}

// TestTrussMatrices checks the axial-only member: its mass moves rigidly
// with ρAL in every direction, and its geometric stiffness resists a
// transverse end offset δ with n·δ/L (a taut string, statics).
func TestTrussMatrices(t *testing.T) {
	p := FrameProps{L: 4, A: 0.005}
	m := make([]float64, 144)
	TrussMass(p, 7850, m)
	for d := range 3 {
		var u [12]float64
		u[d], u[6+d] = 1, 1
		if got, want := quad(m, u), 7850*p.A*p.L; !(math.Abs(got-want) <= 1e-12*want) {
			t.Errorf("direction %d: uᵀMu = %g, want %g", d, got, want)
		}
	}
	k := make([]float64, 144)
	TrussGeometric(p, 1000, k)
	// End B moved by δ = 0.01 along y: force on B is n·δ/L.
	if got, want := k[7*12+7]*0.01, 1000*0.01/p.L; !(math.Abs(got-want) <= 1e-15) {
		t.Errorf("string force %g, want %g", got, want)
	}
}
