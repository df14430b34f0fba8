package element_test

import (
	"errors"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/element"
)

// TestCondensePinnedEnd compares rz released at B with the hand-derived
// propped-cantilever matrix 3EI/L³·[1 L −1; L L² −L; −1 −L 1] on
// (uy_A, rz_A, uy_B) and its uniform-load actions R_A = 5wL/8,
// M_A = wL²/8, R_B = 3wL/8 (Roark Table 8.1 case 2c).
func TestCondensePinnedEnd(t *testing.T) {
	p := sample(false)
	L, EI := p.L, p.E*p.Iz
	const w = 2e3
	k := make([]float64, 144)
	element.FrameStiffness(p, k)
	q := make([]float64, 12)
	l := element.MemberLoads{Dists: []element.DistLoad{{X2: L, W1: [6]float64{0, -w}, W2: [6]float64{0, -w}}}}
	element.FixedEndActions(p, &l, q, make([]float64, 144))
	rel, err := element.ParseReleases("", "FFFFFR", [6]float64{}, [6]float64{})
	if err != nil {
		t.Fatal(err)
	}
	if err := element.Condense(k, q, &rel); err != nil {
		t.Fatal(err)
	}
	c := 3 * EI / (L * L * L)
	dofs := []int{1, 5, 7}
	want := [3][3]float64{{c, c * L, -c}, {c * L, c * L * L, -c * L}, {-c, -c * L, c}}
	for i, di := range dofs {
		for j, dj := range dofs {
			// One rank-1 update: round-off only.
			if !relClose(k[di*12+dj], want[i][j], 1e-12, c*L*L) {
				t.Errorf("k[%d][%d] = %g, want %g", di, dj, k[di*12+dj], want[i][j])
			}
		}
	}
	for j := range 12 {
		if k[11*12+j] != 0 || k[j*12+11] != 0 {
			t.Errorf("released row/col 11 not zero at %d", j)
		}
	}
	wantQ := map[int]float64{1: 5 * w * L / 8, 5: w * L * L / 8, 7: 3 * w * L / 8}
	for i := range 12 {
		if !relClose(q[i], wantQ[i], 1e-12, w*L*L) {
			t.Errorf("q[%d] = %g, want %g", i, q[i], wantQ[i])
		}
	}
	// Axial and the x-z plane are untouched.
	k0 := make([]float64, 144)
	element.FrameStiffness(p, k0)
	for _, d := range []int{0, 2, 3, 4} {
		if k[d*12+d] != k0[d*12+d] {
			t.Errorf("k[%d][%d] changed", d, d)
		}
	}
}

// TestCondenseSpringLimits: a spring release tends to the fixed member as
// the spring stiffens and to the free release as it softens; in between,
// the recovered member-end rotation satisfies the spring law exactly.
func TestCondenseSpring(t *testing.T) {
	p := sample(true)
	k0 := make([]float64, 144)
	element.FrameStiffness(p, k0)
	q0 := make([]float64, 12)
	l := element.MemberLoads{Points: []element.PointLoad{{X: 0.8, F: [6]float64{0, -1e3, 2e3, 0, 0, 0}}}}
	element.FixedEndActions(p, &l, q0, make([]float64, 144))

	kr := 4 * p.E * p.Iz / p.L // comparable to the member's own rotational stiffness
	rel, err := element.ParseReleases("FFFFFS", "FFFFRF", [6]float64{5: kr}, [6]float64{})
	if err != nil {
		t.Fatal(err)
	}
	k, q := append([]float64(nil), k0...), append([]float64(nil), q0...)
	if err := element.Condense(k, q, &rel); err != nil {
		t.Fatal(err)
	}
	// Symmetry survives condensation.
	for i := range 12 {
		for j := range 12 {
			if !relClose(k[i*12+j], k[j*12+i], 1e-12, kr) {
				t.Fatalf("asymmetric at %d,%d", i, j)
			}
		}
	}
	// Node-side displacements: rotate node A by θ, translate B.
	u := []float64{1e-4, 2e-3, -1e-3, 1e-3, 2e-4, 3e-3, 0, -1e-3, 4e-4, 0, 1e-3, -2e-3}
	um := make([]float64, 12)
	if err := element.MemberEndDisplacements(k0, q0, &rel, u, um, make([]float64, 156)); err != nil {
		t.Fatal(err)
	}
	f := matVec(k0, um)
	fc := matVec(k, u)
	for i := range 12 {
		f[i] += q0[i]
		fc[i] += q[i]
	}
	// At the spring DOF the member end force equals the spring force, and
	// it equals what the condensed matrix delivers to the node.
	if want := kr * (u[5] - um[5]); !relClose(f[5], want, 1e-9, 1) {
		t.Errorf("spring DOF: member force %g, spring force %g", f[5], want)
	}
	if !relClose(fc[5], f[5], 1e-9, 1) {
		t.Errorf("condensed node force %g vs member %g", fc[5], f[5])
	}
	// Free release: zero member end moment.
	if math.Abs(f[10]) > 1e-9*math.Abs(f[4]) {
		t.Errorf("released ry_B moment = %g", f[10])
	}
	for _, i := range []int{0, 1, 2, 3, 4, 6, 7, 8, 9, 11} {
		if !relClose(fc[i], f[i], 1e-9, 1) {
			t.Errorf("dof %d: condensed %g vs member %g", i, fc[i], f[i])
		}
	}
}

func TestCondenseDoubleTorsionRelease(t *testing.T) {
	p := sample(false)
	k := make([]float64, 144)
	element.FrameStiffness(p, k)
	rel, _ := element.ParseReleases("FFFRRR", "FFFRRR", [6]float64{}, [6]float64{})
	if err := element.Condense(k, nil, &rel); err != nil {
		t.Fatalf("truss-like releases: %v", err)
	}
	ea := p.E * p.A / p.L
	for i := range 12 {
		for j := range 12 {
			want := 0.0
			if (i == 0 || i == 6) && (j == 0 || j == 6) {
				want = ea
				if i != j {
					want = -ea
				}
			}
			if math.Abs(k[i*12+j]-want) > 1e-9*ea {
				t.Errorf("k[%d][%d] = %g, want %g", i, j, k[i*12+j], want)
			}
		}
	}
	rel2, _ := element.ParseReleases("RFFFFF", "RFFFFF", [6]float64{}, [6]float64{})
	k2 := make([]float64, 144)
	element.FrameStiffness(p, k2)
	q := make([]float64, 12)
	q[0], q[6] = 1, 1 // unbalanced axial load on a floating member
	if err := element.Condense(k2, q, &rel2); !errors.Is(err, element.ErrUnstableRelease) {
		t.Errorf("axially loaded free member: err = %v", err)
	}
}

func TestParseReleasesErrors(t *testing.T) {
	for _, code := range []string{"FFF", "FFFFFX", "FFFFFFF"} {
		if _, err := element.ParseReleases(code, "", [6]float64{}, [6]float64{}); !errors.Is(err, element.ErrBadFixity) {
			t.Errorf("%q: err = %v", code, err)
		}
	}
	if _, err := element.ParseReleases("FFFFFS", "", [6]float64{5: -1}, [6]float64{}); !errors.Is(err, element.ErrBadFixity) {
		t.Errorf("negative spring: err = %v", err)
	}
}
