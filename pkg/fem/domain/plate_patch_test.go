package domain_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/internal/platecase"
	"github.com/gusset/gusset/pkg/fem/shell"
)

// The ids of patchModel: grid node n<i><j> is 100 + 10i + j, the fin's top
// node t<i><j> 300 + 10i + j, grid plate g<i><j> 200 + 10i + j, and the
// fin and the roof plates 1 and 2.
const (
	fin, roof = 1, 2
	g00, g01  = 200, 201
	g02, g10  = 202, 210
	g11, g12  = 211, 212
	g13, g20  = 213, 220
	g21, g22  = 221, 222
	g30       = 230
)

func nid(i, j int) int64 { return int64(100 + 10*i + j) }
func gid(i, j int) int64 { return int64(200 + 10*i + j) }

// patchModel is a 4 × 4 grid of unit quads g<i><j> in the X-Y plane,
// normal +Z, nodes n<i><j> at (i, j, 0), with
//   - g21 a Mindlin plate;
//   - g00 listed clockwise, so its normal is −Z (still the same plane);
//   - local x turned by a different DirectionAngle on several plates;
//   - a vertical fin standing on the edge n12–n22 that g11 and g12
//     share (a fold of 90°), and a horizontal roof on top of the fin at
//     z = 1, parallel to the grid but reached only across the fin.
func patchModel() *domain.Model {
	m := &domain.Model{Materials: []domain.Material{platecase.Material(30e9, 0.2)}}
	for i := range 5 {
		for j := range 5 {
			m.Nodes = append(m.Nodes, domain.Node{ID: nid(i, j), X: float64(i), Y: float64(j)})
		}
	}
	angle := map[int64]float64{g11: 20, g12: 30, g22: 90, g01: -45, g30: 135}
	for i := range 4 {
		for j := range 4 {
			p := domain.Plate{
				ID:             gid(i, j),
				Nodes:          []int64{nid(i, j), nid(i+1, j), nid(i+1, j+1), nid(i, j+1)},
				Material:       platecase.MaterialID,
				Thickness:      0.2,
				Theory:         shell.Kirchhoff,
				DirectionAngle: angle[gid(i, j)],
			}
			switch p.ID {
			case g21:
				p.Theory = shell.Mindlin
			case g00:
				slices.Reverse(p.Nodes)
			}
			m.Plates = append(m.Plates, p)
		}
	}
	for _, n := range []domain.Node{{ID: 312, X: 1, Y: 2, Z: 1}, {ID: 322, X: 2, Y: 2, Z: 1}, {ID: 313, X: 1, Y: 3, Z: 1}, {ID: 323, X: 2, Y: 3, Z: 1}} {
		m.Nodes = append(m.Nodes, n)
	}
	m.Plates = append(m.Plates,
		domain.Plate{ID: fin, Nodes: []int64{112, 122, 322, 312}, Material: platecase.MaterialID, Thickness: 0.2},
		domain.Plate{ID: roof, Nodes: []int64{312, 322, 323, 313}, Material: platecase.MaterialID, Thickness: 0.2},
	)
	return m
}

// buildPatch builds m, failing the test on error.
func buildPatch(t *testing.T, m *domain.Model) *domain.Domain {
	t.Helper()
	d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// patchIDs returns the ids of plate id's shear patch, sorted.
func patchIDs(t *testing.T, d *domain.Domain, id int64) []int64 {
	t.Helper()
	for i, p := range d.Plates {
		if p.PlateID != id {
			continue
		}
		var out []int64
		for _, j := range d.ShearPatch(i, nil) {
			out = append(out, d.Plates[j].PlateID)
		}
		slices.Sort(out)
		return out
	}
	t.Fatalf("no plate %d", id)
	return nil
}

// TestShearPatch: the patch of a Kirchhoff plate holds the Kirchhoff
// plates coplanar with it within two rings of corner-sharing neighbours,
// whatever the sense of their normals; it leaves out a Mindlin neighbour,
// a plate across a fold, and a plate parallel to it that is reached only
// across the fold. A Mindlin plate has no patch; a plate whose only
// neighbour is across a fold has an empty one.
func TestShearPatch(t *testing.T) {
	d := buildPatch(t, patchModel())
	var grid []int64
	for i := range 4 {
		for j := range 4 {
			if id := gid(i, j); id != g11 && id != g21 {
				grid = append(grid, id)
			}
		}
	}
	slices.Sort(grid)
	cases := []struct {
		plate int64
		want  []int64
	}{
		// Every Kirchhoff grid plate but itself; not g21 (Mindlin), fin
		// (90° fold) or roof (beyond the fold).
		{g11, grid},
		{g21, nil},
		{fin, nil},
		{roof, nil},
		// A corner plate: first ring g01, g10, g11 (not g21, which is
		// not in g00's rings at all); second ring through them.
		{g00, []int64{g01, g02, g10, g11, g12, g20, g22}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.plate), func(t *testing.T) {
			if got := patchIDs(t, d, tc.plate); !slices.Equal(got, tc.want) {
				t.Errorf("patch %v, want %v", got, tc.want)
			}
		})
	}
}

// TestShearPatchAngle: two unit quads sharing an edge, the second tilted
// by φ about it, are one patch below domain.PatchAngle (0.05 rad) and two
// above it.
func TestShearPatchAngle(t *testing.T) {
	for _, tc := range []struct {
		phi  float64
		want bool
	}{{0, true}, {0.04, true}, {0.06, false}, {math.Pi / 2, false}} {
		t.Run(fmt.Sprint(tc.phi), func(t *testing.T) {
			s, c := math.Sin(tc.phi), math.Cos(tc.phi)
			m := &domain.Model{Materials: []domain.Material{platecase.Material(30e9, 0.2)}}
			for _, n := range []domain.Node{
				{ID: 1, X: 0, Y: 0}, {ID: 2, X: 1, Y: 0}, {ID: 3, X: 1, Y: 1}, {ID: 4, X: 0, Y: 1},
				{ID: 5, X: 1 + c, Y: 0, Z: s}, {ID: 6, X: 1 + c, Y: 1, Z: s},
			} {
				m.Nodes = append(m.Nodes, n)
			}
			m.Plates = []domain.Plate{
				{ID: 1, Nodes: []int64{1, 2, 3, 4}, Material: platecase.MaterialID, Thickness: 0.1},
				{ID: 2, Nodes: []int64{2, 5, 6, 3}, Material: platecase.MaterialID, Thickness: 0.1},
			}
			d := buildPatch(t, m)
			got := patchIDs(t, d, 1)
			if want := tc.want; want != slices.Equal(got, []int64{2}) || !want && len(got) != 0 {
				t.Errorf("patch of 1 at φ = %g: %v, want 2 in it: %v", tc.phi, got, want)
			}
		})
	}
}

// field is a quadratic moment field in global X-Y axes, N·m/m, and the
// shears of equilibrium it carries: V = (Mx,x + Mxy,y, Mxy,x + My,y).
type field struct{ c [3][6]float64 } // coefficients of 1, X, Y, X², XY, Y²

func (f field) at(x, y float64) [3]float64 {
	mono := [6]float64{1, x, y, x * x, x * y, y * y}
	var m [3]float64
	for k := range 3 {
		for c := range 6 {
			m[k] += f.c[k][c] * mono[c]
		}
	}
	return m
}

func (f field) shear(x, y float64) [2]float64 {
	grad := func(k int) (dx, dy float64) {
		c := f.c[k]
		return c[1] + 2*c[3]*x + c[4]*y, c[2] + c[4]*x + 2*c[5]*y
	}
	mxX, _ := grad(0)
	_, myY := grad(1)
	mxyX, mxyY := grad(2)
	return [2]float64{mxX + mxyY, mxyX + myY}
}

// local turns the global moment tensor into plate axes rot: M_ab =
// e_a·M·e_b, and the sign of the normal's Z for moments measured along
// the plate's z (written out here rather than through shell.TurnMoments,
// which it checks).
func local(rot geom.Rotation, m [3]float64) [3]float64 {
	t := [3][3]float64{{m[0], m[2], 0}, {m[2], m[1], 0}}
	ab := func(a, b geom.Vec3) float64 {
		s := 0.0
		for i := range 3 {
			for j := range 3 {
				s += a[i] * t[i][j] * b[j]
			}
		}
		return s
	}
	s := math.Copysign(1, rot.Z()[2])
	x, y := rot.X(), rot.Y()
	return [3]float64{s * ab(x, x), s * ab(y, y), s * ab(x, y)}
}

// TestShearFitter: on the plates of patchModel, with the centroid moments
// of an arbitrary quadratic field given to each plate in its own axes
// (turned by its DirectionAngle, g00 with its normal reversed), the
// quadratic patch fit must return the field's exact shears at each grid
// plate's centroid, in that plate's axes, to round-off: observed errors
// up to 4e-15 next to shears up to 14, held to 1e-10 of 20. The Mindlin plate, the fin, the roof
// and one plate marked as not recovered get NaN moments, so any of them
// entering a patch shows. A Mindlin plate, and the roof, whose patch is
// empty, get no fit.
func TestShearFitter(t *testing.T) {
	d := buildPatch(t, patchModel())
	f := field{c: [3][6]float64{
		{3, -2, 1.5, 0.7, -0.4, 0.25},
		{-1, 0.5, 2, -0.3, 0.6, 0.8},
		{0.5, 1.2, -0.9, 0.35, 0.15, -0.45},
	}}
	np := len(d.Plates)
	m := make([][3]float64, np)
	have := make([]bool, np)
	centre := make([]geom.Vec3, np)
	for i, p := range d.Plates {
		for _, n := range p.Nodes() {
			centre[i] = centre[i].Add(d.Pos[n].Scale(1 / float64(len(p.Nodes()))))
		}
		switch p.PlateID {
		case g21, fin, roof, g13:
			nan := math.NaN()
			m[i] = [3]float64{nan, nan, nan}
			have[i] = p.PlateID != g13
		default:
			m[i] = local(p.Rot, f.at(centre[i][0], centre[i][1]))
			have[i] = true
		}
	}
	// No membrane forces: the offsets of this flat mesh are all zero, so
	// the moments need no moving between reference surfaces.
	fit := d.ShearFitter(m, make([][3]float64, len(m)), have)
	const scale = 20.0 // |V| of the field over the grid is at most 14
	for i, p := range d.Plates {
		t.Run(fmt.Sprint(p.PlateID), func(t *testing.T) {
			v, how := fit(i)
			switch p.PlateID {
			case g21, roof, g13:
				if how != shell.FitNone {
					t.Errorf("fit %d, want none", how)
				}
				return
			case fin:
				return // its two neighbours are NaN or across the fold
			}
			if how != shell.FitQuadratic {
				t.Fatalf("fit %d, want quadratic", how)
			}
			vg := f.shear(centre[i][0], centre[i][1])
			s := math.Copysign(1, p.Rot.Z()[2])
			g := geom.Vec3{vg[0], vg[1], 0}
			want := [2]float64{s * p.Rot.X().Dot(g), s * p.Rot.Y().Dot(g)}
			for k := range 2 {
				if !(math.Abs(v[k]-want[k]) <= 1e-10*scale) {
					t.Errorf("V[%d] = %.15g, want %.15g", k, v[k], want[k])
				}
			}
		})
	}
}
