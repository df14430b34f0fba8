package domain_test

import (
	"context"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
)

const (
	e  = 210e9
	gm = 81e9
)

// column returns a one-member model: a column of length L along global Y
// from "base" to "tip", I about both axes, with the given end releases.
func column(t *testing.T, L, i float64, relA, relB string, areaFactor float64) *domain.Domain {
	t.Helper()
	m := &domain.Model{
		Nodes:     []domain.Node{{ID: 6}, {ID: 7, Y: L}},
		Materials: []domain.Material{{ID: 5, E: e, G: gm, Density: 7850}},
		Sections:  []domain.Section{{ID: 4, A: 0.01, J: 1e-6, Iy: i, Iz: i}},
		Members: []domain.Member{{ID: 3, NodeA: 6, NodeB: 7, Section: 4, Material: 5,
			ReleaseA: relA, ReleaseB: relB, AreaFactor: areaFactor}},
	}
	d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// compressed returns global element displacements (base fixed) that put
// the column in axial force −P: the tip shortened by P·L/(EA).
func compressed(L, p float64) []float64 {
	u := make([]float64, 12)
	u[7] = -p * L / (e * 0.01)
	return u
}

// TestGeometricStiffnessWithReleases checks the condensation of the
// geometric stiffness over released ends by one-element cantilever
// buckling loads (column along Y, base fixed, sway of the tip along X,
// which bends about Z).
//   - No release: 2.486·EI/L², the smaller root of 0.15·p² − 5.2·p + 12
//     (McGuire, Gallagher and Ziemian, Matrix Structural Analysis, 2nd ed.,
//     2000, §9.4) on the tip's sway and rotation.
//   - Torsion released at the tip: bending is not released, so the same.
//   - Moments released at the tip (a hinge; the node rotation is then
//     carried by nothing): the tip rotation follows the sway, θ = 3v/(2L),
//     so T = [1, 3/(2L)], K = 12 − 36/4 = 3·EI/L³ and K_G = P/(30L)·(36 −
//     9 + 9) = 6P/(5L): P = 2.5·EI/L² on the sway alone (exact π²/4 =
//     2.467 either way).
//
// Tolerance 1e-9: round-off of the condensation.
func TestGeometricStiffnessWithReleases(t *testing.T) {
	const L, i, p = 3.0, 4e-5, 1000.0
	small := (5.2 - math.Sqrt(5.2*5.2-4*0.15*12)) / (2 * 0.15)
	cases := []struct {
		name   string
		relB   string
		want   float64
		hinged bool
	}{
		{"no release", "", small, false},
		{"torsion released", "FFFRFF", small, false},
		{"moments released", "FFFFRR", 2.5, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := column(t, L, i, "", c.relB, 0)
			f := d.Frames[0]
			k, kg := make([]float64, 144), make([]float64, 144)
			f.Stiffness(k)
			if err := f.GeometricStiffness(compressed(L, p), nil, kg); err != nil {
				t.Fatal(err)
			}
			const v, r = 6, 11 // tip ux, tip rz
			var lambda float64
			if c.hinged {
				if kg[r*12+r] != 0 || kg[v*12+r] != 0 {
					t.Errorf("released rotation carries geometric stiffness: %g, %g", kg[r*12+r], kg[v*12+r])
				}
				lambda = -k[v*12+v] / kg[v*12+v]
			} else {
				qa := kg[v*12+v]*kg[r*12+r] - kg[v*12+r]*kg[r*12+v]
				qb := k[v*12+v]*kg[r*12+r] + k[r*12+r]*kg[v*12+v] - k[v*12+r]*kg[r*12+v] - k[r*12+v]*kg[v*12+r]
				qc := k[v*12+v]*k[r*12+r] - k[v*12+r]*k[r*12+v]
				lambda = (-qb - math.Sqrt(qb*qb-4*qa*qc)) / (2 * qa)
			}
			if got := lambda * p * L * L / (e * i); !(math.Abs(got-c.want) <= 1e-9*c.want) {
				t.Errorf("λ·P·L²/EI = %.12g, want %.12g", got, c.want)
			}
		})
	}
}

// TestFrameMass checks the member's mass in global axes: a rigid
// translation moves ρ·A·L whatever the stiffness factors (AreaFactor 2
// here) and the releases, and a rotation released at an end carries no
// mass at its node (tolerance: round-off).
func TestFrameMass(t *testing.T) {
	const L = 4.0
	for _, relB := range []string{"", "FFFFRR"} {
		t.Run("releaseB="+relB, func(t *testing.T) {
			d := column(t, L, 2e-5, "", relB, 2)
			mm := make([]float64, 144)
			d.Frames[0].Mass(mm)
			want := 7850 * 0.01 * L
			for dir := range 3 {
				got := 0.0
				for a := range 2 {
					for b := range 2 {
						got += mm[(6*a+dir)*12+6*b+dir]
					}
				}
				if !(math.Abs(got-want) <= 1e-12*want) {
					t.Errorf("direction %d: rigid-body mass %.15g, want %.15g", dir, got, want)
				}
			}
			if relB != "" {
				// Local y is global X for a vertical member and local z
				// is −Z, so the released ry, rz are the tip's rx and rz.
				for _, g := range []int{9, 11} {
					for j := range 12 {
						if mm[g*12+j] != 0 {
							t.Fatalf("released tip rotation %d carries mass: %v", g, mm[g*12:g*12+12])
						}
					}
				}
			}
		})
	}
}

// TestFrameLoadsAndResisting checks the frame's load vector and resisting
// forces on a fixed-ended beam along X under a uniform load w along −Y:
// the equivalent node loads are −wL/2 and ∓wL²/12 (fixed-end actions of a
// uniformly loaded beam, e.g. Hibbeler, Structural Analysis, fixed-end
// moments table), and with the nodes held the forces the nodes exert on
// the member are their negatives (tolerance: round-off).
func TestFrameLoadsAndResisting(t *testing.T) {
	const L, w = 6.0, 5e3
	m := &domain.Model{
		Nodes:     []domain.Node{{ID: 8}, {ID: 9, X: L}},
		Materials: []domain.Material{{ID: 5, E: e, G: gm, Density: 7850}},
		Sections:  []domain.Section{{ID: 4, A: 0.01, J: 1e-6, Iy: 2e-5, Iz: 3e-5}},
		Members:   []domain.Member{{ID: 10, NodeA: 8, NodeB: 9, Section: 4, Material: 5}},
		LoadCases: []domain.LoadCase{{ID: 11, Members: []domain.MemberLoad{{Member: 10, Type: domain.DistributedForce,
			Axes: domain.Local, Direction: geom.YAxis, P1: -w, P2: -w}}}},
	}
	d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.ResolveCase(11)
	if err != nil {
		t.Fatal(err)
	}
	f := d.Frames[0]
	p := make([]float64, 12)
	if err := f.LoadVector(c, p); err != nil {
		t.Fatal(err)
	}
	want := [12]float64{1: -w * L / 2, 5: -w * L * L / 12, 7: -w * L / 2, 11: w * L * L / 12}
	r := make([]float64, 12)
	if err := f.Resisting(make([]float64, 12), c, r); err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		if !(math.Abs(p[i]-want[i]) <= 1e-9*w*L*L) {
			t.Errorf("load vector %d = %g, want %g", i, p[i], want[i])
		}
		if !(math.Abs(r[i]+want[i]) <= 1e-9*w*L*L) {
			t.Errorf("resisting %d = %g, want %g", i, r[i], -want[i])
		}
	}
}
