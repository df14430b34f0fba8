package geom

import (
	"fmt"
	"math"
	"testing"
)

// Tests of the finite-rotation tools against Rodrigues' closed form
// (Argyris 1982; Crisfield vol. 2, ch. 16) and against their own
// definitions by central differences.

// axisAngle is Rodrigues' formula written with a unit axis n and angle α,
// R = cos α·I + sin α·[n]ₓ + (1 − cos α)·n·nᵀ, which needs no division by
// the angle and so is the reference at every angle.
func axisAngle(n Vec3, alpha float64) Rotation {
	s, c := math.Sincos(alpha)
	k := Skew(n)
	var r Rotation
	for i := range 3 {
		for j := range 3 {
			r[i][j] = s*k[i][j] + (1-c)*n[i]*n[j]
		}
		r[i][i] += c
	}
	return r
}

// maxDiff returns the largest entry of |a − b|, NaN if any entry is NaN.
func maxDiff(a, b [3][3]float64) float64 {
	m := 0.0
	for i := range 3 {
		for j := range 3 {
			d := math.Abs(a[i][j] - b[i][j])
			if math.IsNaN(d) {
				return d
			}
			m = math.Max(m, d)
		}
	}
	return m
}

// checkMat fails the test when a and b differ by more than tol anywhere
// (NaN fails).
func checkMat(t *testing.T, what string, got, want [3][3]float64, tol float64) {
	t.Helper()
	if d := maxDiff(got, want); !(d <= tol) {
		t.Errorf("%s: max difference %.3g > %.3g\ngot  %v\nwant %v", what, d, tol, got, want)
	}
}

// testAxes are unit axes: coordinate axes and two skew ones.
var testAxes = []Vec3{
	{1, 0, 0}, {0, 1, 0}, {0, 0, 1},
	Vec3{1, 2, 3}.Scale(1 / math.Sqrt(14)),
	Vec3{-0.3, 0.9, -0.5}.Scale(1 / math.Sqrt(0.09+0.81+0.25)),
}

// testAngles span zero, tiny, the series limits, large, and up to π.
var testAngles = []float64{0, 1e-12, 1e-8, 9e-5, 1.1e-4, 1e-3, 0.3, 0.5, 1, 1.9, 2.1, 2.5, 3,
	math.Pi - 1e-4, math.Pi - 1e-8, math.Pi}

func TestSkew(t *testing.T) {
	v, w := Vec3{1, -2, 0.5}, Vec3{0.3, 4, -7}
	k := Skew(v)
	got := Vec3{
		k[0][0]*w[0] + k[0][1]*w[1] + k[0][2]*w[2],
		k[1][0]*w[0] + k[1][1]*w[1] + k[1][2]*w[2],
		k[2][0]*w[0] + k[2][1]*w[1] + k[2][2]*w[2],
	}
	if !vecClose(got, v.Cross(w), 1e-15) {
		t.Errorf("[v]ₓw = %v, want v×w = %v", got, v.Cross(w))
	}
}

// TestExpMapRodrigues compares ExpMap with Rodrigues' formula in axis-angle
// form at small and large angles, and checks that the result is a proper
// rotation.
func TestExpMapRodrigues(t *testing.T) {
	for _, n := range testAxes {
		for _, a := range testAngles {
			t.Run(fmt.Sprintf("n=%.2f/angle=%g", n, a), func(t *testing.T) {
				q := ExpMap(n.Scale(a))
				checkMat(t, "Q", q, axisAngle(n, a), 1e-15)
				checkMat(t, "QᵀQ", q.Transpose().Mul(q), Identity, 1e-15)
				if d := det(q); !(math.Abs(d-1) <= 1e-15) {
					t.Errorf("det = %.17g", d)
				}
				// The axis is fixed, and v ⟂ n turns by +a (right-hand rule).
				if got := q.Apply(n); !vecClose(got, n, 1e-15) {
					t.Errorf("Q·n = %v, want n = %v", got, n)
				}
			})
		}
	}
	// Small angles keep relative accuracy: the skew part of exp(θ) for
	// θ = 1e-10·n is θ itself to round-off.
	th := Vec3{1e-10, -2e-10, 3e-10}
	q := ExpMap(th)
	if got := (Vec3{q[2][1] - q[1][2], q[0][2] - q[2][0], q[1][0] - q[0][1]}).Scale(0.5); !vecClose(got, th, 1e-25) {
		t.Errorf("skew part of exp(%v) = %v", th, got)
	}
	if q := ExpMap(Vec3{}); q != Identity {
		t.Errorf("exp(0) = %v, want Identity exactly", q)
	}
	// Quarter turn about z takes x to y (right-hand rule).
	if got := ExpMap(Vec3{0, 0, math.Pi / 2}).Apply(Vec3{1, 0, 0}); !vecClose(got, Vec3{0, 1, 0}, 1e-16) {
		t.Errorf("quarter turn of x about z = %v, want y", got)
	}
}

func det(q Rotation) float64 {
	return Vec3(q[0]).Dot(Vec3(q[1]).Cross(Vec3(q[2])))
}

// TestLogMapRoundTrip checks LogMap(ExpMap(θ)) = θ for |θ| < π, including
// near 0 (relative accuracy) and near π (the symmetric-part branch), and
// ExpMap(LogMap(Q)) = Q at π, where the sign of θ is free.
func TestLogMapRoundTrip(t *testing.T) {
	for _, n := range testAxes {
		for _, a := range testAngles {
			t.Run(fmt.Sprintf("n=%.2f/angle=%g", n, a), func(t *testing.T) {
				th := n.Scale(a)
				q := axisAngle(n, a)
				got := LogMap(q)
				// Absolute accuracy of a few ulps of 1, relative for tiny angles.
				tol := 2e-15 * math.Max(a, 1)
				if a < 1e-3 {
					tol = 1e-15 * a
				}
				if a == math.Pi {
					if !vecClose(got, th, 1e-15) && !vecClose(got, th.Scale(-1), 1e-15) {
						t.Errorf("log = %v, want ±%v", got, th)
					}
				} else if !vecClose(got, th, tol) {
					t.Errorf("log = %v, want %v (diff %.3g, tol %.3g)", got, th, got.Sub(th).Norm(), tol)
				}
				checkMat(t, "exp(log Q)", ExpMap(got), q, 2e-15)
			})
		}
	}
	// Near π the skew part is tiny: a rotation of π − 1e-9 must still come
	// back with the right sign and angle.
	n := testAxes[3]
	th := n.Scale(math.Pi - 1e-9)
	if got := LogMap(ExpMap(th)); !vecClose(got, th, 1e-14) {
		t.Errorf("log(exp(θ)) near π = %v, want %v", got, th)
	}
}

// TestExpMapComposition checks the group properties the co-rotational
// update relies on: turns about one axis add, exp(−θ) undoes exp(θ), and
// exp(R·θ) = R·exp(θ)·Rᵀ (turning the axis conjugates the rotation).
func TestExpMapComposition(t *testing.T) {
	n := testAxes[4]
	checkMat(t, "exp(a n)·exp(b n)", ExpMap(n.Scale(1.1)).Mul(ExpMap(n.Scale(2.4))), ExpMap(n.Scale(3.5)), 2e-15)
	th := Vec3{0.7, -1.9, 2.2}
	checkMat(t, "exp(θ)·exp(−θ)", ExpMap(th).Mul(ExpMap(th.Scale(-1))), Identity, 2e-15)
	r := ExpMap(Vec3{-0.4, 1.2, 0.3})
	checkMat(t, "exp(Rθ)", ExpMap(r.Apply(th)), r.Mul(ExpMap(th)).Mul(r.Transpose()), 2e-15)
	// Non-commutative: a quarter turn about x then z differs from z then x.
	x, z := ExpMap(Vec3{math.Pi / 2, 0, 0}), ExpMap(Vec3{0, 0, math.Pi / 2})
	if d := maxDiff(z.Mul(x), x.Mul(z)); !(d > 0.5) {
		t.Errorf("rotations commute? difference %g", d)
	}
}

// diffExp returns the spin ψ with (exp(θ+hδ) − exp(θ−hδ))/(2h)·exp(θ)ᵀ
// ≈ [ψ]ₓ, the central-difference reference for ExpJacobian.
func diffExp(th, delta Vec3, h float64) Vec3 {
	p, m := ExpMap(th.Add(delta.Scale(h))), ExpMap(th.Sub(delta.Scale(h)))
	qt := ExpMap(th).Transpose()
	var dq Rotation
	for i := range 3 {
		for j := range 3 {
			dq[i][j] = (p[i][j] - m[i][j]) / (2 * h)
		}
	}
	w := dq.Mul(qt)
	return Vec3{(w[2][1] - w[1][2]) / 2, (w[0][2] - w[2][0]) / 2, (w[1][0] - w[0][1]) / 2}
}

func mulVec(a [3][3]float64, v Vec3) Vec3 { return Rotation(a).Apply(v) }

func transpose(a [3][3]float64) [3][3]float64 { return [3][3]float64(Rotation(a).Transpose()) }

// TestExpJacobian checks J(θ) against central differences of ExpMap (its
// definition), J·J⁻¹ = I on both sides of the series limits, and the
// derivative of J⁻ᵀ·m against central differences.
func TestExpJacobian(t *testing.T) {
	deltas := []Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.3, -0.2, 0.9}}
	m := Vec3{2.5, -1.3, 0.7}
	for _, n := range testAxes[3:] {
		for _, a := range []float64{0, 1e-6, 0.3, 0.49, 0.51, 1, 1.99, 2.01, 2.8, 3.1} {
			th := n.Scale(a)
			t.Run(fmt.Sprintf("n=%.2f/angle=%g", n, a), func(t *testing.T) {
				j, ji := ExpJacobian(th), ExpJacobianInv(th)
				checkMat(t, "J·J⁻¹", Rotation(j).Mul(Rotation(ji)), Identity, 2e-15)
				checkMat(t, "J⁻¹·J", Rotation(ji).Mul(Rotation(j)), Identity, 2e-15)
				dj := ExpJacobianInvTDeriv(th, m)
				const h = 1e-5
				for _, d := range deltas {
					// O(h²) truncation with unit-order derivatives.
					if got, want := mulVec(j, d), diffExp(th, d, h); !vecClose(got, want, 1e-9) {
						t.Errorf("J·δ = %v, central difference %v", got, want)
					}
					p := mulVec(transpose(ExpJacobianInv(th.Add(d.Scale(h)))), m)
					q := mulVec(transpose(ExpJacobianInv(th.Sub(d.Scale(h)))), m)
					want := p.Sub(q).Scale(1 / (2 * h))
					if got := mulVec(dj, d); !vecClose(got, want, 1e-9) {
						t.Errorf("∂(J⁻ᵀm)·δ = %v, central difference %v", got, want)
					}
				}
			})
		}
	}
}

// TestInvCoeffsContinuous checks that the series and the closed forms of
// c(t) and d(t) agree where they meet, and the known values c(0) = 1/12,
// d(0) = 1/360 and c(π) = 1/π².
func TestInvCoeffsContinuous(t *testing.T) {
	cs, ds := invCoeffs(math.Nextafter(invSeriesLimit, 0))
	cc, dc := invCoeffs(invSeriesLimit)
	if !(math.Abs(cs-cc) <= 1e-15*cc) || !(math.Abs(ds-dc) <= 1e-13*dc) {
		t.Errorf("at t = %d: series c=%.17g d=%.17g, closed c=%.17g d=%.17g", invSeriesLimit, cs, ds, cc, dc)
	}
	tests := []struct {
		name      string
		got, want float64
	}{
		{"c(0)", func() float64 { c, _ := invCoeffs(0); return c }(), 1.0 / 12},
		{"d(0)", func() float64 { _, d := invCoeffs(0); return d }(), 1.0 / 360},
		{"c(π)", func() float64 { c, _ := invCoeffs(math.Pi); return c }(), 1 / (math.Pi * math.Pi)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !(math.Abs(tc.got-tc.want) <= 1e-16) {
				t.Errorf("%s = %.17g, want %.17g", tc.name, tc.got, tc.want)
			}
		})
	}
}
