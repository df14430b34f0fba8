package geom

import (
	"math"
	"testing"
)

func vecClose(a, b Vec3, tol float64) bool {
	return a.Sub(b).Norm() <= tol
}

func TestVec3(t *testing.T) {
	v, w := Vec3{1, 2, 3}, Vec3{-4, 5, 0.5}
	tests := []struct {
		name      string
		got, want Vec3
	}{
		{"add", v.Add(w), Vec3{-3, 7, 3.5}},
		{"sub", v.Sub(w), Vec3{5, -3, 2.5}},
		{"scale", v.Scale(-2), Vec3{-2, -4, -6}},
		{"i×j=k", Vec3{1, 0, 0}.Cross(Vec3{0, 1, 0}), Vec3{0, 0, 1}},
		{"j×k=i", Vec3{0, 1, 0}.Cross(Vec3{0, 0, 1}), Vec3{1, 0, 0}},
		{"k×i=j", Vec3{0, 0, 1}.Cross(Vec3{1, 0, 0}), Vec3{0, 1, 0}},
		{"cross", v.Cross(w), Vec3{2*0.5 - 3*5, 3*-4 - 1*0.5, 1*5 - 2*-4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %v, want %v", tc.got, tc.want)
			}
		})
	}
	if d := v.Dot(w); d != -4+10+1.5 {
		t.Errorf("dot = %g", d)
	}
	if c := v.Cross(w); math.Abs(c.Dot(v)) > 1e-12 || math.Abs(c.Dot(w)) > 1e-12 {
		t.Errorf("v×w = %v is not normal to v and w", c)
	}
	// 3-4-12-13 is a Pythagorean quadruple.
	if n := (Vec3{3, 4, 12}).Norm(); n != 13 {
		t.Errorf("norm = %g, want 13", n)
	}
	if n := (Vec3{3e200, 4e200, 12e200}).HypotNorm(); math.Abs(n/13e200-1) > 1e-15 {
		t.Errorf("norm of large vector = %g, want 1.3e201", n)
	}
}

func TestVec3Unit(t *testing.T) {
	u, ok := Vec3{0, 3, 4}.Unit()
	if !ok || !vecClose(u, Vec3{0, 0.6, 0.8}, 1e-15) {
		t.Errorf("unit = %v, %v", u, ok)
	}
	for _, v := range []Vec3{{}, {math.NaN(), 0, 0}, {math.Inf(1), 0, 0}} {
		if u, ok := v.Unit(); ok || u != (Vec3{}) {
			t.Errorf("Unit(%v) = %v, %v; want zero, false", v, u, ok)
		}
	}
}

// The engine's golden results depend on member lengths rounded as √(v·v);
// Norm must not drift to another formula (such as HypotNorm's).
func TestNormIsSqrtOfDot(t *testing.T) {
	for _, v := range []Vec3{{1, 2, 3}, {0.1, -0.7, 2.3}, {3.25, 0, -1e-3}, {1 / 3.0, 2 / 7.0, 5 / 11.0}} {
		if got, want := v.Norm(), math.Sqrt(v.Dot(v)); got != want {
			t.Errorf("Norm(%v) = %.17g, want √(v·v) = %.17g", v, got, want)
		}
	}
}
