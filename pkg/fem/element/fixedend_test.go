package element_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gusset/gusset/pkg/fem/element"
)

func feas(t *testing.T, p element.FrameProps, l *element.MemberLoads) []float64 {
	t.Helper()
	q := make([]float64, 12)
	element.FixedEndActions(p, l, q, make([]float64, 144))
	return q
}

// TestFixedEndClosedForm checks Euler–Bernoulli fixed-end actions against
// the standard table (Roark 7th ed. Table 8.1 cases 1d, 2a/2e; McGuire et al.
// Appendix). The quadrature is exact, so only round-off remains.
func TestFixedEndClosedForm(t *testing.T) {
	p := sample(false)
	L := p.L
	const w, P, M = 3e3, 5e3, 2e3
	a := 0.7
	b := L - a
	cases := []struct {
		name string
		l    element.MemberLoads
		want map[int]float64
	}{
		{"uniform wy down", element.MemberLoads{Dists: []element.DistLoad{{X1: 0, X2: L, W1: [6]float64{0, -w}, W2: [6]float64{0, -w}}}},
			map[int]float64{1: w * L / 2, 5: w * L * L / 12, 7: w * L / 2, 11: -w * L * L / 12}},
		{"uniform wz down", element.MemberLoads{Dists: []element.DistLoad{{X1: 0, X2: L, W1: [6]float64{0, 0, -w}, W2: [6]float64{0, 0, -w}}}},
			map[int]float64{2: w * L / 2, 4: -w * L * L / 12, 8: w * L / 2, 10: w * L * L / 12}},
		{"point Py down at a", element.MemberLoads{Points: []element.PointLoad{{X: a, F: [6]float64{0, -P}}}},
			map[int]float64{1: P * b * b * (3*a + b) / (L * L * L), 5: P * a * b * b / (L * L),
				7: P * a * a * (a + 3*b) / (L * L * L), 11: -P * a * a * b / (L * L)}},
		{"moment Mz at a", element.MemberLoads{Points: []element.PointLoad{{X: a, F: [6]float64{5: M}}}},
			// Roark Table 8.1 case 3e (signs here: actions on the member,
			// counter-clockwise positive): R_A = 6Mab/L³, M_A = Mb(2a−b)/L².
			map[int]float64{1: 6 * M * a * b / (L * L * L), 5: M * b * (2*a - b) / (L * L),
				7: -6 * M * a * b / (L * L * L), 11: M * a * (2*b - a) / (L * L)}},
		{"triangular 0..w", element.MemberLoads{Dists: []element.DistLoad{{X1: 0, X2: L, W2: [6]float64{0, -w}}}},
			map[int]float64{1: 3 * w * L / 20, 5: w * L * L / 30, 7: 7 * w * L / 20, 11: -w * L * L / 20}},
		{"axial point", element.MemberLoads{Points: []element.PointLoad{{X: a, F: [6]float64{P}}}},
			map[int]float64{0: -P * b / L, 6: -P * a / L}},
		{"torque", element.MemberLoads{Points: []element.PointLoad{{X: a, F: [6]float64{3: M}}}},
			map[int]float64{3: -M * b / L, 9: -M * a / L}},
		{"thermal uniform", element.MemberLoads{Strain: element.InitialStrain{Eps: 1e-4}},
			map[int]float64{0: p.E * p.A * 1e-4, 6: -p.E * p.A * 1e-4}},
		{"thermal gradient y", element.MemberLoads{Strain: element.InitialStrain{KappaZ: 1e-3}},
			// Clamps straighten the free curvature κ: M = ∓EIκ at A/B.
			map[int]float64{5: p.E * p.Iz * 1e-3, 11: -p.E * p.Iz * 1e-3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := feas(t, p, &c.l)
			scale := 0.0
			for _, v := range q {
				scale = math.Max(scale, math.Abs(v))
			}
			for i := range 12 {
				if math.Abs(q[i]-c.want[i]) > 1e-11*scale {
					t.Errorf("q[%d] = %.12g, want %.12g", i, q[i], c.want[i])
				}
			}
		})
	}
}

// TestFixedEndTimoshenkoBySubdivision: the exact FEA of a load at a must
// equal the clamping actions obtained by splitting the member at a into two
// exact elements and solving for the interior node (no approximation
// anywhere, so the match is to round-off).
func TestFixedEndTimoshenkoBySubdivision(t *testing.T) {
	p := sample(true)
	a := 0.9
	F := [6]float64{1e3, -4e3, 2.5e3, 300, -700, 1200}
	l := element.MemberLoads{Points: []element.PointLoad{{X: a, F: F}}}
	q := feas(t, p, &l)

	p1, p2 := p, p
	p1.L, p2.L = a, p.L-a
	k1, k2 := make([]float64, 144), make([]float64, 144)
	element.FrameStiffness(p1, k1)
	element.FrameStiffness(p2, k2)
	kc := mat.NewDense(6, 6, nil)
	for i := range 6 {
		for j := range 6 {
			kc.Set(i, j, k1[(6+i)*12+6+j]+k2[i*12+j])
		}
	}
	var u mat.VecDense
	if err := u.SolveVec(kc, mat.NewVecDense(6, F[:])); err != nil {
		t.Fatal(err)
	}
	// End A action = k1_A,mid·u_mid; end B = k2_B,mid·u_mid.
	for i := range 6 {
		sA, sB := 0.0, 0.0
		for j := range 6 {
			sA += k1[i*12+6+j] * u.AtVec(j)
			sB += k2[(6+i)*12+j] * u.AtVec(j)
		}
		// The clamps act on the sub-elements with k_end,mid·u_mid, which is
		// by definition the fixed-end action of the whole member.
		if !relClose(q[i], sA, 1e-9, 1) || !relClose(q[6+i], sB, 1e-9, 1) {
			t.Errorf("dof %d: q = %.10g / %.10g, subdivision %.10g / %.10g", i, q[i], q[6+i], sA, sB)
		}
	}
}

// TestDistributedTimoshenkoSplit checks the quadrature of a
// partial trapezoidal load with shear deformation against the same load
// split into two pieces at an interior point: FEA are additive, and each
// piece is computed independently, so the sum must match to round-off.
func TestDistributedTimoshenkoSplit(t *testing.T) {
	p := sample(true)
	w1 := [6]float64{100, -2000, 500, 10, -30, 40}
	w2 := [6]float64{-50, -500, 1500, 20, 60, -10}
	whole := element.MemberLoads{Dists: []element.DistLoad{{X1: 0.3, X2: 2.1, W1: w1, W2: w2}}}
	xm := 1.2
	t0 := (xm - 0.3) / 1.8
	var wm [6]float64
	for i := range wm {
		wm[i] = w1[i] + t0*(w2[i]-w1[i])
	}
	split := element.MemberLoads{Dists: []element.DistLoad{{X1: 0.3, X2: xm, W1: w1, W2: wm}, {X1: xm, X2: 2.1, W1: wm, W2: w2}}}
	qa, qb := feas(t, p, &whole), feas(t, p, &split)
	for i := range 12 {
		if !relClose(qa[i], qb[i], 1e-10, 1) {
			t.Errorf("q[%d]: %g vs %g", i, qa[i], qb[i])
		}
	}
}

// TestInternalForcesAndDisplacements: a fixed-fixed member under its own
// fixed-end actions must show zero displacement at both ends and the
// classic moment diagram (M_mid = wL²/24, Roark Table 8.1 case 2e).
func TestInternalForcesAndDisplacements(t *testing.T) {
	p := sample(true)
	const w = 3e3
	L := p.L
	l := element.MemberLoads{Dists: []element.DistLoad{{X1: 0, X2: L, W1: [6]float64{0, -w}, W2: [6]float64{0, -w}}}}
	q := feas(t, p, &l)
	var qA, qB, uA [6]float64
	copy(qA[:], q[:6])
	copy(qB[:], q[6:])
	s := element.InternalForces(&l, &qA, L/2, true)
	if !relClose(s[5], w*L*L/24, 1e-12, 0) {
		t.Errorf("M_mid = %g, want %g", s[5], w*L*L/24)
	}
	if !relClose(s[1], 0, 1e-12, w*L) {
		t.Errorf("V_mid = %g, want 0", s[1])
	}
	end := element.InternalForces(&l, &qA, L, true)
	for i := range 6 {
		if !relClose(end[i], qB[i], 1e-12, w*L*L) {
			t.Errorf("S(L)[%d] = %g, want q_B = %g", i, end[i], qB[i])
		}
	}
	uB := element.Displacements(p, &l, &uA, &qB, L)
	for i, v := range uB {
		if math.Abs(v) > 1e-15 {
			t.Errorf("u_B[%d] = %g, want 0", i, v)
		}
	}
	// Midspan: δ = wL⁴/(384EI) + wL²/(8·G·Ay) (Timoshenko & Gere, shear
	// part of a fixed-fixed beam under uniform load).
	um := element.Displacements(p, &l, &uA, &qB, L/2)
	want := -(w*L*L*L*L/(384*p.E*p.Iz) + w*L*L/(8*p.G*p.Ay))
	if !relClose(um[1], want, 1e-10, 0) {
		t.Errorf("δ_mid = %g, want %g", um[1], want)
	}
}
