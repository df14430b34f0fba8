package shell

import (
	"math"
	"testing"
)

// Element-level checks of the Allman membrane: what it reproduces
// exactly, its initial-strain loads and its allocation-free routines.

// TestMembranePureBending: with ν = 0 a rectangle in pure in-plane
// bending, u = −κ·x·y, v = κ·x²/2 and so θz = ω = κ·x, lies in the
// element's field (the Allman terms carry the x² of v), so its nodal
// values give the exact strain energy E·t·κ²·∫y² dA / 2 with no drilling
// energy, and the centroid forces of Element.Resultants are the exact
// Fx = −E·t·κ·yc, Fy = Fxy = 0. A bilinear membrane stores parasitic
// shear energy here: that is its lock. Relative tolerance 1e-12: round-off
// of sums of a few dozen terms.
func TestMembranePureBending(t *testing.T) {
	pr := Props{E: 200e9, Nu: 0, Tm: 0.01, Tb: 0.01, Ts: 0.01}
	const kappa = 1e-3
	for _, tc := range []struct {
		name           string
		x0, y0, dx, dy float64
	}{
		{"square", 0.3, 0.1, 0.5, 0.5},
		{"long", -1, 0.2, 2, 0.4},
		{"deep", 0.1, -0.6, 0.25, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			el := Element{Props: pr, Theory: Kirchhoff, Gamma: pr.G() * pr.Tm,
				Plane: Plane{N: 4, X: [4]float64{tc.x0, tc.x0 + tc.dx, tc.x0 + tc.dx, tc.x0},
					Y: [4]float64{tc.y0, tc.y0, tc.y0 + tc.dy, tc.y0 + tc.dy}}}
			n := el.Size()
			k := make([]float64, n*n)
			if err := el.Stiffness(k); err != nil {
				t.Fatal(err)
			}
			u := make([]float64, n)
			for i := range 4 {
				x, y := el.Plane.X[i], el.Plane.Y[i]
				u[6*i], u[6*i+1], u[6*i+5] = -kappa*x*y, kappa*x*x/2, kappa*x
			}
			energy := 0.0
			for r := range n {
				for c := range n {
					energy += u[r] * k[r*n+c] * u[c] / 2
				}
			}
			y1 := tc.y0 + tc.dy
			want := pr.E * pr.Tm * kappa * kappa * tc.dx * (y1*y1*y1 - tc.y0*tc.y0*tc.y0) / 3 / 2
			if !(math.Abs(energy-want) <= 1e-12*want) {
				t.Errorf("strain energy %.15g, want %.15g (ratio %.6f)", energy, want, energy/want)
			}
			r := el.Resultants(u, Strains{})
			fx := -pr.E * pr.Tm * kappa * (tc.y0 + tc.dy/2)
			wantF := [3]float64{fx, 0, 0}
			for c := range 3 {
				if !(math.Abs(r.F[c]-wantF[c]) <= 1e-12*math.Abs(fx)) {
					t.Errorf("F[%d] = %.15g, want %.15g", c, r.F[c], wantF[c])
				}
			}
		})
	}
}

// TestMembraneInitialStrain: initial membrane strains ε0 on a free patch
// (the irregular MacNeal–Harder patch, quads and triangles), held only
// against rigid motion (u and v at node 0, v at node 1, which lies on
// y = 0), must give the stress-free state: the linear field of strain ε0
// with the rotation those holds leave, u = εx·x + γxy·y, v = εy·y, so
// θz = ω = −γxy/2, and zero membrane forces in every element. The
// Allman terms enter the loads (StrainLoads integrates the same B), and
// the test shows that they balance. Tolerances: displacements to 1e-12
// of the largest, forces to 1e-9 of E·t·|ε0| — round-off of the solve.
func TestMembraneInitialStrain(t *testing.T) {
	pr := Props{E: 200e9, Nu: 0.3, Tm: 0.01, Tb: 0.01, Ts: 0.01}
	eps := [3]float64{1.2e-4, -0.5e-4, 0.8e-4}
	s := Strains{Eps: eps}
	for _, tri := range []bool{false, true} {
		name := "quads"
		if tri {
			name = "triangles"
		}
		t.Run(name, func(t *testing.T) {
			m := macNealHarder(tri)
			f := map[int]float64{}
			var fe [24]float64
			for e, c := range m.elems {
				el := Element{Plane: m.plane(e), Props: pr, Theory: Kirchhoff, Gamma: pr.G() * pr.Tm}
				clear(fe[:])
				el.StrainLoads(s, fe[:])
				for a, n := range c {
					for i, d := range membraneDOF {
						f[3*n+i] += fe[6*a+d]
					}
				}
			}
			u := memSolve(t, m, pr, []int{0, 1, 3*1 + 1}, f)
			for n := range m.x {
				want := [3]float64{eps[0]*m.x[n] + eps[2]*m.y[n], eps[1] * m.y[n], -eps[2] / 2}
				for i := range 3 {
					if !(math.Abs(u[3*n+i]-want[i]) <= 1e-12*0.24*1.2e-4) {
						t.Errorf("node %d DOF %d = %.15g, want %.15g", n, i, u[3*n+i], want[i])
					}
				}
			}
			for e, c := range m.elems {
				el := Element{Plane: m.plane(e), Props: pr, Theory: Kirchhoff, Gamma: pr.G() * pr.Tm}
				ul := make([]float64, el.Size())
				for a, n := range c {
					for i, d := range membraneDOF {
						ul[6*a+d] = u[3*n+i]
					}
				}
				r := el.Resultants(ul, s)
				for k := range 3 {
					if !(math.Abs(r.F[k]) <= 1e-9*pr.E*pr.Tm*1.2e-4) {
						t.Errorf("element %d: F[%d] = %g, want 0", e, k, r.F[k])
					}
				}
			}
		})
	}
}

// TestMembraneNoAlloc pins the hot-path promise of the membrane routines:
// fixed-size arrays and the caller's buffers only.
func TestMembraneNoAlloc(t *testing.T) {
	dm := Props{E: 200e9, Nu: 0.3, Tm: 0.01}.Dm()
	for _, tri := range []bool{false, true} {
		p := macNealHarder(tri).plane(1)
		n := 3 * p.N
		k, b, g := make([]float64, n*n), make([]float64, 3*n), make([]float64, n)
		allocs := testing.AllocsPerRun(20, func() {
			MembraneStiffness(&p, &dm, 1e9, k)
			MembraneStrain(&p, 0.1, 0.2, b)
			DrillStrain(&p, 0.1, 0.2, g)
		})
		if allocs != 0 {
			t.Errorf("%d corners: %v allocations per call, want 0", p.N, allocs)
		}
	}
}
