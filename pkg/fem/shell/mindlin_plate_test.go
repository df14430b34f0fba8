package shell

import (
	"fmt"
	"math"
	"testing"
)

// Square-plate benchmarks of the Mindlin elements: the hard simply
// supported unit square (a = 1, ν = 0.3) under a uniform load and under a
// central point load, thin (a/t = 1000) and thick (a/t = 5), against
// Navier series.

// mindlinTerms is the largest odd m and n the Navier sums run to. Every
// sum here converges at least like Σ 1/(mn(m²+n²)) with alternating signs
// at the centre; TestMindlinNavierReference checks that halving the
// truncation changes nothing in the digits the tests use.
const mindlinTerms = 2001

// mindlinPlate is the material of a unit-square plate of thickness th
// with E chosen so that D = E·t³/12(1−ν²) = 1: deflections then read
// directly as the coefficients of q·a⁴/D and P·a²/D.
func mindlinPlate(th float64) (db Mat3, ds Mat2, nu float64) {
	nu = 0.3
	p := Props{E: 12 * (1 - nu*nu) / (th * th * th), Nu: nu, Tm: th, Tb: th, Ts: th}
	return p.Db(), p.Ds(), nu
}

// TestMindlinNavierReference checks the series the plate tests compare
// with against published values, so the element tests rest on tabulated
// numbers and not only on this file's own algebra.
func TestMindlinNavierReference(t *testing.T) {
	_, ds, nu := mindlinPlate(0.2)
	k := ds[0][0] // (5/6)·G·t with D = 1
	wK, mK := mindlinKirchhoffNavier(1, 1, nu, 1, 0.5, 0.5, mindlinTerms)
	wK2, mK2 := mindlinKirchhoffNavier(1, 1, nu, 1, 0.5, 0.5, mindlinTerms/2)
	wP := mindlinKirchhoffPointNavier(1, 1, 1, mindlinTerms)
	wF, mF := mindlinFSDTNavier(1, 1, k, nu, 1, 0.5, 0.5, mindlinTerms)
	wF2, _ := mindlinFSDTNavier(1, 1, k, nu, 1, 0.5, 0.5, mindlinTerms/2)
	_, dsThin, _ := mindlinPlate(1e-4)
	wFthin, _ := mindlinFSDTNavier(1, 1, dsThin[0][0], nu, 1, 0.5, 0.5, mindlinTerms)
	// Marcus moment M = (Mx + My)/(1 + ν) at the centre from the tabulated
	// Mx = My = 0.0479·q·a².
	marcus := 2 * 0.0479 / (1 + nu)
	cases := []struct {
		name      string
		got, want float64
		tol       float64 // relative
		why       string
	}{
		{"Kirchhoff w, uniform", wK, 0.0040624, 2e-5,
			"Timoshenko & Woinowsky-Krieger, Theory of Plates and Shells, Table 8 (b/a = 1): α = 0.00406 (0.0040624 to five digits); tol: half a unit of the fifth digit"},
		{"Kirchhoff Mx, uniform", mK, 0.04789, 1.1e-4,
			"same table, β = 0.0479, ν = 0.3 (0.04789 to four digits); tol: half a unit of the fourth digit"},
		{"Kirchhoff w, central point load", wP, 0.01160, 5e-4,
			"Timoshenko & Woinowsky-Krieger, §34, central load on a simply supported rectangle (b/a = 1): α = 0.01160; tol: half a unit of the last digit"},
		{"FSDT w, a/h = 5", wF, 0.0040624 + marcus/k, 3e-4,
			"for a hard simply supported polygonal plate the Mindlin deflection is the Kirchhoff one plus the Marcus moment over the shear rigidity, w = w_K + M/(k·G·h) (Wang, Reddy & Lee, Shear Deformable Beams and Plates: Relationships with Classical Solutions, Elsevier, 2000), with the tabulated 0.0040624 and 0.0479; tol: the rounding of 0.0479, 1e-3 of the 19% shear part"},
		{"FSDT Mx, a/h = 5", mF, mK, 1e-9,
			"the same relationship keeps the moments of the hard simply supported plate equal to Kirchhoff's; tol: round-off of the sums"},
		{"FSDT w, a/h = 1e4", wFthin, wK, 1e-6,
			"FSDT tends to Kirchhoff as t → 0; the shear part is (t/a)²·0.1 ≈ 1e-9 relative"},
		{"truncation, Kirchhoff w", wK2, wK, 1e-9, "halving the terms changes w by less than the tests can see"},
		{"truncation, Kirchhoff Mx", mK2, mK, 1e-6, "halving the terms changes Mx by less than the tests can see"},
		{"truncation, FSDT w", wF2, wF, 1e-6, "halving the terms changes w by less than the tests can see"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if e := mindlinRel(c.got, c.want); !(e <= c.tol) {
				t.Errorf("got %.8g, want %.8g: relative error %.3g > %.3g (%s)", c.got, c.want, e, c.tol, c.why)
			}
		})
	}
	// The nondimensional deflection of the thick plate in the usual form
	// w̄ = 100·w·E·h³/(q·a⁴) = 100·12(1−ν²)·w·D/(q·a⁴).
	t.Logf("a/h = 5: w̄ = 100·w·E·h³/(q·a⁴) = %.4f (Kirchhoff %.4f)", 100*12*(1-nu*nu)*wF, 100*12*(1-nu*nu)*wK)
}

// mindlinPlateRun solves the simply supported unit square meshed n×n
// under a uniform load q = 1 (point = false) or a unit load at the centre
// node, and returns the centre deflection and the centre moment Mx.
func mindlinPlateRun(t *testing.T, th float64, n int, tri, point bool) (w, mx float64) {
	t.Helper()
	db, ds, _ := mindlinPlate(th)
	m := mindlinSquare(1, n, tri)
	c := mindlinNode(t, m, 0.5, 0.5)
	var f []float64
	if point {
		f = make([]float64, m.dofs())
		f[3*c] = 1
	} else {
		f = mindlinPressure(m, 1)
	}
	u := mindlinSolve(t, m, &db, &ds, mindlinSimplySupported(m, 1), f)
	return u[3*c], mindlinNodeMoment(m, &db, u, c)[0]
}

// mindlinConvergence runs the meshes, logs the errors and checks that the
// deflection error falls with every refinement and that the finest mesh
// is within tolW (and, if tolM > 0, the moment within tolM).
func mindlinConvergence(t *testing.T, th float64, meshes []int, tri, point bool, wWant, mWant, tolW, tolM float64) {
	t.Helper()
	prev := math.Inf(1)
	for i, n := range meshes {
		w, mx := mindlinPlateRun(t, th, n, tri, point)
		ew, em := mindlinRel(w, wWant), mindlinRel(mx, mWant)
		if point {
			t.Logf("%2d×%-2d: w = %.6g (error %.3g%%)", n, n, w, 100*ew)
		} else {
			t.Logf("%2d×%-2d: w = %.6g (error %.3g%%), Mx = %.6g (error %.3g%%)", n, n, w, 100*ew, mx, 100*em)
		}
		if !(ew < prev) {
			t.Errorf("%d×%d: deflection error %.3g%% did not fall from %.3g%%", n, n, 100*ew, 100*prev)
		}
		prev = ew
		if i == len(meshes)-1 {
			if !(ew <= tolW) {
				t.Errorf("%d×%d: w = %.6g, want %.6g within %.3g%% (error %.3g%%)", n, n, w, wWant, 100*tolW, 100*ew)
			}
			if tolM > 0 && !(em <= tolM) {
				t.Errorf("%d×%d: Mx = %.6g, want %.6g within %.3g%% (error %.3g%%)", n, n, mx, mWant, 100*tolM, 100*em)
			}
		}
	}
}

// TestMindlinThinPlate: a/t = 1000 under a uniform load, where a locking
// element would be far too stiff. The reference is the Kirchhoff Navier
// solution (w_c = 0.0040624·q·a⁴/D, Mx = 0.04789·q·a², checked against
// Timoshenko & Woinowsky-Krieger in TestMindlinNavierReference); the
// Mindlin shear adds only ~(t/a)²·0.2 ≈ 2e-7 relative here.
//
// MITC4 is free of shear locking (Bathe & Dvorkin 1985): 1% on 16×16 is
// the requirement (measured 2.3%, 0.51%, 0.13% for w and 0.37%, 0.038%,
// 0.0061% for Mx on 4×4, 8×8, 16×16).
//
// MITC3 is not: with linear w and rotations and one tied tangential
// strain per edge, the thin-limit constraints nearly match the DOFs in
// number, so coarse meshes are far too stiff at a/t = 1000 (measured w
// errors 96%, 64%, 12%, 0.9% on 8×8 to 64×64 union-jack meshes; Lee &
// Bathe's MITC3+ adds a bubble to the rotations to cure this). What can
// honestly be asserted is convergence with refinement and 2% on 64×64
// for w and Mx (measured 0.90% and 1.2%).
func TestMindlinThinPlate(t *testing.T) {
	wWant, mWant := mindlinKirchhoffNavier(1, 1, 0.3, 1, 0.5, 0.5, mindlinTerms)
	t.Run("MITC4", func(t *testing.T) {
		mindlinConvergence(t, 1e-3, []int{4, 8, 16}, false, false, wWant, mWant, 0.01, 0.01)
	})
	t.Run("MITC3", func(t *testing.T) {
		mindlinConvergence(t, 1e-3, []int{8, 16, 32, 64}, true, false, wWant, mWant, 0.02, 0.02)
	})
}

// TestMindlinThickPlate: a/t = 5 under a uniform load against the
// Mindlin (FSDT) Navier series with shear factor 5/6 (mindlinFSDTNavier,
// after Reddy, Theory and Analysis of Elastic Plates and Shells, 2nd ed.,
// §10.2): w_c = 0.0049043·q·a⁴/D, i.e. w̄ = 100·w·E·h³/(q·a⁴) = 5.3555,
// 21% above Kirchhoff's 4.4361, and Mx = 0.04789·q·a². I found no table of
// w̄ for a/h = 5 and ν = 0.3 to quote through the search available; the
// series is instead checked in TestMindlinNavierReference against the
// Kirchhoff–Mindlin relationship built on Timoshenko's tabulated values.
// Shear locking is no issue at this thickness, so both elements must be
// within 1% on 16×16 for w (measured MITC4 0.052%, MITC3 0.68%); Mx is
// asserted within 1% on MITC4 16×16 (measured 0.0048%) and on MITC3 32×32
// (measured 0.22%; 1.0% on 16×16).
func TestMindlinThickPlate(t *testing.T) {
	const th = 0.2
	_, ds, nu := mindlinPlate(th)
	wWant, mWant := mindlinFSDTNavier(1, 1, ds[0][0], nu, 1, 0.5, 0.5, mindlinTerms)
	t.Run("MITC4", func(t *testing.T) {
		mindlinConvergence(t, th, []int{4, 8, 16}, false, false, wWant, mWant, 0.01, 0.01)
	})
	t.Run("MITC3", func(t *testing.T) {
		mindlinConvergence(t, th, []int{4, 8, 16}, true, false, wWant, mWant, 0.01, 0)
		mindlinConvergence(t, th, []int{32}, true, false, wWant, mWant, 0.01, 0.01)
	})
}

// TestMindlinPointLoad: a unit load at the centre of the thin (a/t =
// 1000) plate against the Kirchhoff Navier value w_c = 0.01160·P·a²/D
// (Timoshenko & Woinowsky-Krieger, §34). The Mindlin deflection
// under a point load is log-singular, but its shear part, P/(2π·k·G·t)
// times a logarithm of the mesh size, is ~1e-5 of w_c on these meshes.
// MITC4 within 2% on 16×16 (measured 0.79%, 0.54%, 0.19% on 4×4 to
// 16×16); MITC3, locking as in TestMindlinThinPlate, within 2% on 64×64
// (measured 1.2%).
func TestMindlinPointLoad(t *testing.T) {
	want := mindlinKirchhoffPointNavier(1, 1, 1, mindlinTerms)
	for _, c := range []struct {
		name   string
		tri    bool
		meshes []int
	}{
		{"MITC4", false, []int{4, 8, 16}},
		{"MITC3", true, []int{8, 16, 32, 64}},
	} {
		t.Run(c.name, func(t *testing.T) {
			mindlinConvergence(t, 1e-3, c.meshes, c.tri, true, want, 1, 0.02, 0)
		})
	}
}

// TestMindlinThicknessRange runs MITC4 on the 8×8 mesh across a/t from 5
// to 10⁴: with the FSDT series as reference at each thickness the error
// must stay at the thick-plate level, the mark of an element free of
// shear locking (a locking element's error would grow like (a/t)²).
func TestMindlinThicknessRange(t *testing.T) {
	for _, at := range []float64{5, 10, 100, 1e3, 1e4} {
		t.Run(fmt.Sprintf("a/t=%g", at), func(t *testing.T) {
			th := 1 / at
			_, ds, nu := mindlinPlate(th)
			want, _ := mindlinFSDTNavier(1, 1, ds[0][0], nu, 1, 0.5, 0.5, mindlinTerms)
			w, _ := mindlinPlateRun(t, th, 8, false, false)
			// 8×8 errors measured 0.21% (a/t = 5) to 0.52% (thin):
			// 1% bounds all.
			if e := mindlinRel(w, want); !(e <= 0.01) {
				t.Errorf("w = %.6g, want %.6g within 1%% (error %.3g%%)", w, want, 100*e)
			} else {
				t.Logf("w = %.6g, error %.3g%%", w, 100*e)
			}
		})
	}
}
