package shell

import (
	"math"
	"testing"
)

// patchField is a moment field (Mx, My, Mxy) with coefficients of 1, x,
// y, x², xy, y², and its shears of equilibrium at the origin.
type patchField [3][6]float64

func (f patchField) at(x, y float64) [3]float64 {
	var m [3]float64
	for k := range 3 {
		for c := range 6 {
			m[k] += f[k][c] * monomial(c, x, y)
		}
	}
	return m
}

// shear0 is V at the origin: (Mx,x + Mxy,y, Mxy,x + My,y).
func (f patchField) shear0() [2]float64 { return [2]float64{f[0][1] + f[2][2], f[2][1] + f[1][2]} }

func (f patchField) points(xy [][2]float64) []PatchPoint {
	pts := make([]PatchPoint, len(xy))
	for i, p := range xy {
		pts[i] = PatchPoint{X: p[0], Y: p[1], M: f.at(p[0], p[1])}
	}
	return pts
}

// TestPatchShear: the fit reproduces the fields its terms span, to
// round-off (observed ≤ 5e-15 of the shear at the origin, held to
// 1e-9): a quadratic field on a scattered patch, a linear one on three
// points, and, on the two columns of centroids a patch has along an edge
// (where x² cannot be fitted), a field quadratic in y only. Coordinates
// are offset from unit size (0.07 m) so that the scaling is exercised.
func TestPatchShear(t *testing.T) {
	quad := patchField{
		{3, -2, 1.5, 0.7, -0.4, 0.25},
		{-1, 0.5, 2, -0.3, 0.6, 0.8},
		{0.5, 1.2, -0.9, 0.35, 0.15, -0.45},
	}
	lin := quad
	noX2 := quad
	for k := range 3 {
		lin[k][3], lin[k][4], lin[k][5] = 0, 0, 0
		noX2[k][3] = 0
	}
	const h = 0.07
	scatter := [][2]float64{{0, 0}, {h, 0.2 * h}, {-0.9 * h, 0.3 * h}, {0.1 * h, 1.1 * h}, {-0.2 * h, -h}, {h, h}, {-h, 0.8 * h}, {0.7 * h, -1.2 * h}, {-1.1 * h, -0.9 * h}}
	edge := [][2]float64{{0, 0}, {0, h}, {0, -h}, {h, 0}, {h, h}, {h, -h}, {0, 2 * h}, {h, 2 * h}}
	cases := []struct {
		name string
		f    patchField
		xy   [][2]float64
		want PatchFit
	}{
		{"quadratic, scattered", quad, scatter, FitQuadratic},
		{"linear, three points", lin, [][2]float64{{0, 0}, {h, 0.1 * h}, {-0.3 * h, h}}, FitLinear},
		{"no x², edge columns", noX2, edge, FitQuadratic},
		{"linear, edge columns", lin, edge, FitQuadratic},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, fit := PatchShear(tc.f.points(tc.xy))
			if fit != tc.want {
				t.Errorf("fit %d, want %d", fit, tc.want)
			}
			want := tc.f.shear0()
			scale := math.Hypot(want[0], want[1])
			for k := range 2 {
				if !(math.Abs(v[k]-want[k]) <= 1e-9*scale) {
					t.Errorf("V[%d] = %.15g, want %.15g", k, v[k], want[k])
				}
			}
		})
	}
}

// TestPatchShearDegenerate: points that cannot give a gradient — fewer
// than three, all on one line, all at one point — give FitNone and a zero
// V, never NaN.
func TestPatchShearDegenerate(t *testing.T) {
	m := [3]float64{1, 2, 3}
	cases := []struct {
		name string
		pts  []PatchPoint
	}{
		{"none", nil},
		{"one", []PatchPoint{{M: m}}},
		{"two", []PatchPoint{{M: m}, {X: 1, M: m}}},
		{"collinear", []PatchPoint{{M: m}, {X: 1, Y: 1, M: [3]float64{2, 2, 2}}, {X: -2, Y: -2, M: m}, {X: 3, Y: 3, M: m}}},
		{"coincident", []PatchPoint{{M: m}, {M: m}, {M: [3]float64{4, 5, 6}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, fit := PatchShear(tc.pts)
			if fit != FitNone || v != ([2]float64{}) {
				t.Errorf("V = %v, fit %d; want zero and FitNone", v, fit)
			}
		})
	}
}

// TestTurnMoments checks the tensor transformation against the rotation
// of a symmetric plane tensor to axes turned by θ (Mohr's circle:
// Mx′ = Mx·cos²θ + My·sin²θ + 2Mxy·sinθ·cosθ, My′ likewise with θ + π/2,
// Mx′y′ = (My − Mx)·sinθ·cosθ + Mxy·(cos²θ − sin²θ)), and a
// reversed normal: turning the axes by π about the x axis (y′ = −y,
// z′ = −z) leaves Mx, My, Mxy measured along z′ of opposite sign to the
// tensor's components, so Mx and My change sign and Mxy does not. Exact
// but for rounding: 1e-14 of the moments.
func TestTurnMoments(t *testing.T) {
	m := [3]float64{3, -1.5, 0.8}
	for _, th := range []float64{0, 0.3, math.Pi / 2, 2.5, -1} {
		c, s := math.Cos(th), math.Sin(th)
		// The other plate's x′ = (c, s), y′ = (−s, c) in this one's axes:
		// q[i][j] = eᵢ·e′ⱼ. Given its moments m′, ours are Q·M′·Qᵀ; so
		// turn by −θ to express ours in the other's axes, and back.
		q := Mat2{{c, -s}, {s, c}}
		mine := TurnMoments(q, m) // m is in the other's axes
		// Directly: the other's x′ is at angle θ, so m′ = rotate(mine, θ).
		back := [3]float64{
			mine[0]*c*c + mine[1]*s*s + 2*mine[2]*s*c,
			mine[0]*s*s + mine[1]*c*c - 2*mine[2]*s*c,
			(mine[1]-mine[0])*s*c + mine[2]*(c*c-s*s),
		}
		for k := range 3 {
			if !(math.Abs(back[k]-m[k]) <= 1e-14*4) {
				t.Errorf("θ = %g: moment %d back %.16g, want %.16g", th, k, back[k], m[k])
			}
		}
	}
	flip := TurnMoments(Mat2{{1, 0}, {0, -1}}, m)
	want := [3]float64{-m[0], -m[1], m[2]}
	for k := range 3 {
		if !(math.Abs(flip[k]-want[k]) <= 1e-14*4) {
			t.Errorf("reversed normal: moment %d = %g, want %g", k, flip[k], want[k])
		}
	}
}

// TestPatchShearNoAlloc: the fit runs on the stack, so recovery of a
// large mesh does not churn the allocator.
func TestPatchShearNoAlloc(t *testing.T) {
	pts := patchField{{1, 2, 3, 4, 5, 6}}.points([][2]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {-1, 0}, {0, -1}, {2, 1}})
	if n := testing.AllocsPerRun(10, func() { PatchShear(pts) }); n != 0 {
		t.Errorf("%g allocations per fit", n)
	}
}
