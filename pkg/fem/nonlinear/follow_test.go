package nonlinear_test

import (
	"context"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
)

// The follower-load cantilever: a straight cantilever of length L, clamped
// at s = 0, under a force P at its free end perpendicular to the tip
// (Argyris & Symeonidis, "Nonlinear finite element analysis of elastic
// systems under nonconservative loading — natural formulation. Part I.
// Quasistatic problems", Comput. Meth. Appl. Mech. Eng. 26 (1981) 75–123;
// also Simo & Vu-Quoc 1986). With θ(s) the angle of the tangent and
// k = P/EI, the inextensible elastica is
//
//	θ″ = −k·cos(θ − θ_tip)  (follower: the force turns with the tip)
//	θ″ = −k·cos θ           (conservative: the force keeps its direction)
//
// with θ(0) = 0 and θ'(L) = 0 (no moment at the free end).

// elasticaSteps is the number of RK4 steps over the length: the
// integrand is smooth, so the reference is exact to far below the finite
// element tolerances (ten times more steps move the tip by < 1e-13·L).
// The dead-load tip at PL²/EI = 2, (0.8394, 0.4935)·L, is Bisshopp &
// Drucker's (Q. Appl. Math. 3, 1945: 0.4934·L deflection).
const elasticaSteps = 2000

// integrateBack integrates θ″ = −k·cos(θ − shift) from the free end
// s = L, where θ = θL and θ' = 0, back to the clamp, by RK4, with the
// tip's position relative to the clamp ∫(cos θ, sin θ) ds. It returns
// θ(0) and that vector.
func integrateBack(k, L, shift, thetaL float64) (theta0 float64, tip [2]float64) {
	h := -L / elasticaSteps
	f := func(y [4]float64) [4]float64 {
		// y = θ, θ', and the integrals of cos θ and sin θ from L down.
		return [4]float64{y[1], -k * math.Cos(y[0]-shift), math.Cos(y[0]), math.Sin(y[0])}
	}
	y := [4]float64{thetaL, 0, 0, 0}
	add := func(a, b [4]float64, s float64) [4]float64 {
		for i := range a {
			a[i] += s * b[i]
		}
		return a
	}
	for range elasticaSteps {
		k1 := f(y)
		k2 := f(add(y, k1, h/2))
		k3 := f(add(y, k2, h/2))
		k4 := f(add(y, k3, h))
		for i := range y {
			y[i] += h / 6 * (k1[i] + 2*k2[i] + 2*k3[i] + k4[i])
		}
	}
	// Integrated from L down to 0: the integrals came out negated.
	return y[0], [2]float64{-y[2], -y[3]}
}

// followerElastica returns the tip position (along the initial axis,
// transverse) and the tip rotation of the follower-load cantilever. With
// φ = θ − θ_tip the problem is an initial-value one from the free end
// (φ(L) = φ'(L) = 0), so no shooting is needed: θ_tip = −φ(0).
func followerElastica(k, L float64) (tip [2]float64, thetaTip float64) {
	phi0, v := integrateBack(k, L, 0, 0)
	thetaTip = -phi0
	s, c := math.Sincos(thetaTip)
	return [2]float64{c*v[0] - s*v[1], s*v[0] + c*v[1]}, thetaTip
}

// deadElastica returns the tip position and rotation of the cantilever
// under a transverse force of fixed direction, by shooting on θ_tip ∈
// (0, π/2) (θ_tip = π/2 is the stationary solution θ ≡ π/2, so θ(0) > 0
// there, and θ(0) < 0 as θ_tip → 0) with bisection to round-off.
func deadElastica(k, L float64) (tip [2]float64, thetaTip float64) {
	lo, hi := 0.0, math.Pi/2
	for range 56 { // 2⁻⁵⁶·π/2 ≈ 2e-17
		mid := (lo + hi) / 2
		if th0, _ := integrateBack(k, L, 0, mid); th0 < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	thetaTip = (lo + hi) / 2
	_, tip = integrateBack(k, L, 0, thetaTip)
	return tip, thetaTip
}

// tipLoadCantilever returns a cantilever of ne members along +X, length
// L, EI = 1 about local z and EA = 1e6 (axial strain under the load below
// 1e-5, so the elastica's inextensibility holds to that), no shear
// deformation, under a force P along local +y of its last member at that
// member's end B, in member local axes.
func tipLoadCantilever(L float64, ne int, P float64) *domain.Model {
	s := section{E: 1e4, G: 4e3, A: 100, J: 2e-4, Iy: 1e-4, Iz: 1e-4}
	m := chainModel(straight(L, ne), s, geom.YAxis, nil)
	m.LoadCases[0].Members = []domain.MemberLoad{{Member: int64(ne), Type: domain.ConcentratedForce,
		Axes: domain.Local, Direction: geom.YAxis, Position: domain.Percent, A: 100, P1: P}}
	return m
}

// TestFollowerCantilever: the cantilever under a tip force in member
// local axes, in the Large theory, with FollowLocalLoads (the follower
// elastica) and without (the conservative elastica), against the
// references above for PL²/EI = 2, 5, 10. The error of the co-rotational
// mesh falls as 1/n² (each member's chord stands for an arc; for the
// follower, the tip force turns with the last chord, which differs from
// the tip tangent by about k·Le²/6): with 40 members the tip is held to
// 2e-3·L, three times the largest error measured (6.5e-4·L, the
// follower at PL²/EI = 10), and the tip rotation to 4e-3 rad, three
// times the largest measured (1.4e-3 rad, the same). The two references
// differ by 0.1·L or more, so each answer tells the two apart. The
// convergence tolerance, 1e-7 of the load, is above the round-off of the
// stiff axial terms (EA/Le = 4e7 against loads of order 1: about 1e-9).
func TestFollowerCantilever(t *testing.T) {
	const (
		L  = 1.0
		ne = 40
	)
	for _, tc := range []struct {
		name   string
		k      float64 // PL²/EI
		follow bool
		steps  int
	}{
		{"follower PL2/EI=2", 2, true, 4},
		{"follower PL2/EI=5", 5, true, 10},
		{"follower PL2/EI=10", 10, true, 20},
		{"dead PL2/EI=2", 2, false, 4},
		{"dead PL2/EI=5", 5, false, 10},
		{"dead PL2/EI=10", 10, false, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tipLoadCantilever(L, ne, tc.k/(L*L))
			d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			y := d.Frames[ne-1].Rot.Y()
			if !(math.Abs(y[1]-1) <= 1e-12) {
				t.Fatalf("local y of the members is %v, want global Y", y)
			}
			res, err := nonlinear.Analyze(context.Background(), d, 1, nonlinear.Options{Theory: nonlinear.Large,
				Steps: tc.steps, MaxIterations: 200, Tolerance: 1e-7, FollowLocalLoads: tc.follow})
			if err != nil {
				t.Fatal(err)
			}
			want, wantRot := deadElastica(tc.k, L)
			other, _ := followerElastica(tc.k, L)
			if tc.follow {
				other, want = want, other
				_, wantRot = followerElastica(tc.k, L)
			}
			tr := res.Nodes[ne].Translation
			got := [2]float64{L + tr[0], tr[1]}
			errTip := math.Hypot(got[0]-want[0], got[1]-want[1]) / L
			errRot := math.Abs(res.Nodes[ne].Rotation[2] - wantRot)
			t.Logf("PL²/EI = %g: tip (%.6f, %.6f), elastica (%.6f, %.6f), other elastica (%.6f, %.6f); |Δtip|/L = %.2e; "+
				"rotation %.6f, elastica %.6f; most iterations in a step %d, total %d",
				tc.k, got[0], got[1], want[0], want[1], other[0], other[1], errTip, res.Nodes[ne].Rotation[2], wantRot,
				iterationStats(res), len(res.History))
			if !(errTip <= 2e-3) {
				t.Errorf("tip %v, elastica %v: error %.3g·L > 2e-3·L", got, want, errTip)
			}
			if !(errRot <= 4e-3) {
				t.Errorf("tip rotation %g, elastica %g", res.Nodes[ne].Rotation[2], wantRot)
			}
			if d := math.Hypot(want[0]-other[0], want[1]-other[1]); !(d >= 50*2e-3*L) {
				t.Errorf("the two elasticas differ by %g only: the test does not tell them apart", d)
			}
		})
	}
}
