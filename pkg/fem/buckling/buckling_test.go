package buckling_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/buckling"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/modal"
)

const (
	e  = 2.1e11
	gm = 8.1e10
	ic = 8e-6 // bending inertia of the columns in the frame's plane
	p  = 1e3  // applied compression, N
)

// column returns a column of height h along Y, loaded by P down at its
// top, bending softly about Z (Iz) and stiffly out of plane (Iy) and in
// torsion, with the given supports at its base and top.
func column(h float64, base, top string) *domain.Model {
	return &domain.Model{
		Nodes:     []domain.Node{{ID: 5}, {ID: 6, Y: h}},
		Materials: []domain.Material{{ID: 8, E: e, G: gm, Density: 7850}},
		Sections:  []domain.Section{{ID: 7, A: 0.01, J: 1e-3, Iy: 100 * ic, Iz: ic}},
		Members:   []domain.Member{{ID: 7, NodeA: 5, NodeB: 6, Section: 7, Material: 8}},
		Supports:  []domain.Support{{Node: 5, Code: base}, {Node: 6, Code: top}},
		LoadCases: []domain.LoadCase{{ID: 16, NodeLoads: []domain.NodeLoad{{Node: 6, F: [6]float64{1: -p}}}}},
	}
}

func analyze(t *testing.T, m *domain.Model, opts buckling.Options) *buckling.Results {
	t.Helper()
	res, err := buckling.Analyze(context.Background(), m, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Warnings {
		t.Errorf("warning: %s", w)
	}
	return res
}

// TestEulerColumns checks the first load factor of columns modelled as one
// member against Euler's loads P = π²·EI/(K·h)² (Timoshenko and Gere,
// Theory of Elastic Stability, 2nd ed., 1961, §2.1–2.3): pinned K = 1,
// cantilever K = 2, fixed–fixed K = 0.5, each within 0.1 %. The effective
// length about z is K·h, and about y (Iy = 100·Iz) ten times longer.
func TestEulerColumns(t *testing.T) {
	const h = 4.0
	cases := []struct {
		name      string
		base, top string
		k         float64
	}{
		{"pinned", "FFFFFR", "FRFFFR", 1},
		{"cantilever", "FFFFFF", "RRRRRR", 2},
		{"fixed-fixed", "FFFFFF", "FRFFFF", 0.5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := analyze(t, column(h, c.base, c.top), buckling.Options{Settings: modal.Settings{Modes: 2}})
			md := res.Cases[0].Modes[0]
			want := math.Pi * math.Pi * e * ic / (c.k * h * c.k * h) / p
			if !(math.Abs(md.LoadFactor-want) <= 1e-3*want) {
				t.Errorf("load factor %.6g, want %.6g (%.4f %%)", md.LoadFactor, want, 100*(md.LoadFactor-want)/want)
			}
			el := md.Members[0]
			if !(math.Abs(el.Lz-c.k*h) <= 1e-3*c.k*h) || !(math.Abs(el.Ly-10*el.Lz) <= 1e-9*el.Ly) || el.Excluded != "" {
				t.Errorf("effective lengths ly %g lz %g (%q), want lz %g, ly = 10·lz", el.Ly, el.Lz, el.Excluded, c.k*h)
			}
			if !(math.Abs(el.Pcr-md.LoadFactor*p) <= 1e-9*el.Pcr) || el.Length != h {
				t.Errorf("Pcr %g length %g, want %g and %g", el.Pcr, el.Length, md.LoadFactor*p, h)
			}
		})
	}
}

// portalRoot returns p = P·h²/(E·Ic) of the sway buckling of a portal with
// fixed bases and beam stiffness ratio k = (Ib/Lb)/(Ic/h), the beam
// unloaded, all members inextensible: the smallest root of
//
//	(s + 6k)·(2s(1+c) − p) − s²(1+c)² = 0
//
// from slope-deflection with the stability functions of a compressed
// member, u = √p: s = u(sin u − u cos u)/(2 − 2cos u − u sin u), c = (u −
// sin u)/(sin u − u cos u) (Livesley and Chandler, Stability Functions for
// Structural Frameworks, 1956): joint equilibrium at the column top and
// the storey shear. Bisection between 5 and 9 (for k = 1 it brackets the
// only root, 7.37915…).
func portalRoot(k float64) float64 {
	f := func(p float64) float64 {
		u := math.Sqrt(p)
		s := u * (math.Sin(u) - u*math.Cos(u)) / (2 - 2*math.Cos(u) - u*math.Sin(u))
		c := (u - math.Sin(u)) / (math.Sin(u) - u*math.Cos(u))
		return (s+6*k)*(2*s*(1+c)-p) - s*s*(1+c)*(1+c)
	}
	a, b := 5.0, 9.0
	for range 200 {
		mid := (a + b) / 2
		if f(a)*f(mid) <= 0 {
			b = mid
		} else {
			a = mid
		}
	}
	return (a + b) / 2
}

// TestSwayPortal: a portal frame with fixed bases and k = 1, each column
// carrying P at its top, buckles in sway at P_cr = 7.37915·E·Ic/h² per
// column (portalRoot), within 0.5 %. Axial stiffness is made large so the
// members are nearly inextensible, as the closed form assumes, and the
// frame is held in its plane.
func TestSwayPortal(t *testing.T) {
	const h, span = 3.0, 6.0
	if r := portalRoot(1); !(math.Abs(r-7.37915) <= 1e-5) {
		t.Fatalf("closed form %.8g, want 7.37915", r)
	}
	ib := ic * span / h // k = 1
	m := &domain.Model{
		Nodes:     []domain.Node{{ID: 1}, {ID: 2, Y: h}, {ID: 3, X: span, Y: h}, {ID: 4, X: span}},
		Materials: []domain.Material{{ID: 8, E: e, G: gm}},
		Sections: []domain.Section{{ID: 10, A: 10, J: 1e-3, Iy: 100 * ic, Iz: ic},
			{ID: 12, A: 10, J: 1e-3, Iy: 100 * ib, Iz: ib}},
		Members: []domain.Member{
			{ID: 9, NodeA: 1, NodeB: 2, Section: 10, Material: 8},
			{ID: 11, NodeA: 2, NodeB: 3, Section: 12, Material: 8},
			{ID: 13, NodeA: 4, NodeB: 3, Section: 10, Material: 8},
		},
		Supports: []domain.Support{{Node: 1, Code: "FFFFFF"}, {Node: 4, Code: "FFFFFF"},
			{Node: 2, Code: "RRFFFR"}, {Node: 3, Code: "RRFFFR"}},
		LoadCases: []domain.LoadCase{{ID: 16, NodeLoads: []domain.NodeLoad{
			{Node: 2, F: [6]float64{1: -p}}, {Node: 3, F: [6]float64{1: -p}}}}},
	}
	res := analyze(t, m, buckling.Options{Settings: modal.Settings{Modes: 3}})
	md := res.Cases[0].Modes[0]
	want := 7.37915 * e * ic / (h * h) / p
	if !(math.Abs(md.LoadFactor-want) <= 5e-3*want) {
		t.Errorf("load factor %.6g, want %.6g (%.3f %%)", md.LoadFactor, want, 100*(md.LoadFactor-want)/want)
	}
	// Sway: both column tops move sideways together.
	s2, s3 := md.Shape[1][0], md.Shape[2][0]
	if !(s2*s3 > 0) || !(math.Abs(s2-s3) <= 1e-3*math.Abs(s2)) {
		t.Errorf("tops move %g and %g, want equal sway", s2, s3)
	}
	if ex := md.Members[1].Excluded; ex != "no axial force" {
		t.Errorf("beam: exclusion %q, want no axial force", ex)
	}
}

// TestNoCompression: a column pulled at its top cannot buckle, and says so.
func TestNoCompression(t *testing.T) {
	m := column(4, "FFFFFF", "RRRRRR")
	m.LoadCases[0].NodeLoads[0].F[1] = p
	_, err := buckling.Analyze(context.Background(), m, buckling.Options{})
	if err == nil || !strings.Contains(err.Error(), "no member or plate is in compression") {
		t.Fatalf("error %v, want one saying nothing is in compression", err)
	}
}

// TestRoundOffIsNoCompression: an inclined cantilever loaded at its tip
// perpendicular to its axis has no axial force but round-off (about
// 1e-11 of the load); that must not count as compression nor give a load
// factor.
func TestRoundOffIsNoCompression(t *testing.T) {
	c, s := math.Cos(0.7), math.Sin(0.7)
	m := column(4, "FFFFFF", "RRRRRR")
	m.Nodes[1] = domain.Node{ID: 6, X: 4 * c, Y: 4 * s}
	m.LoadCases[0].NodeLoads[0].F = [6]float64{-s * p, c * p}
	_, err := buckling.Analyze(context.Background(), m, buckling.Options{})
	if err == nil || !strings.Contains(err.Error(), "no member or plate is in compression") {
		t.Fatalf("error %v, want one saying nothing is in compression", err)
	}
}
