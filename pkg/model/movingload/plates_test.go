package movingload

import (
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/model"
)

// deck is a flat deck of plates in the plan X–Z (Y up) at height y: an
// nx × nz grid of h-sized cells starting at (x0, z0); cells on the
// diagonal are split into two triangles, the rest are quadrilaterals, so
// that both shapes and every kind of partial cover occur.
func deck(nx, nz int, x0, z0, h, y float64) []Plate {
	node := func(i, j int) int64 { return int64(1 + i + (nx+1)*j) }
	at := func(i, j int) geom.Vec3 { return geom.Vec3{x0 + h*float64(i), y, z0 + h*float64(j)} }
	var out []Plate
	id := int64(1)
	for j := 0; j < nz; j++ {
		for i := 0; i < nx; i++ {
			a, b, c, d := [2]int{i, j}, [2]int{i + 1, j}, [2]int{i + 1, j + 1}, [2]int{i, j + 1}
			corners := [][][2]int{{a, b, c, d}}
			if i == j {
				corners = [][][2]int{{a, b, c}, {a, c, d}}
			}
			for _, cs := range corners {
				p := Plate{ID: id}
				for _, k := range cs {
					p.Nodes = append(p.Nodes, node(k[0], k[1]))
					p.Corners = append(p.Corners, at(k[0], k[1]))
				}
				out = append(out, p)
				id++
			}
		}
	}
	return out
}

// A lane pressure crossing a plate deck, clipped by an L-shaped loaded
// area: the generated loads (node loads of partly covered plates, plate
// pressures of wholly covered ones) must add up to the pressure times the
// plan area of the patch inside the loaded area, and their resultant must
// act at that area's centroid. Both follow from the partition of unity and
// the linear completeness of the shape functions (Σ N_i = 1, Σ N_i x_i = x;
// Zienkiewicz & Taylor, The Finite Element Method, vol. 1, §9.3), and the
// quadrature is exact for them on these straight-edged plates, so the
// tolerance is round-off: 1e-9 relative.
func TestLanePressureClippedAndConserved(t *testing.T) {
	const (
		h     = 0.7   // plate size, m: not a divisor of the patch, so plates are cut
		pz    = -2e3  // Pa (down)
		width = 3.2   // m
		long  = 4.5   // m
		x0    = 0.35  // deck origin, m
		z0    = -0.25 // m
	)
	// The path runs along X at z = 1.5; the patch's leading edge at s = 5.
	// Plan coordinates when Y is up are (X, Z). The loaded area is an L:
	// the rectangle [0, 6] × [0, 4] less [3, 6] × [2, 4].
	in := &Input{
		Settings: model.MovingLoadSettings{IgnoreOutsideLoadedArea: true,
			LoadedArea: [][]float64{{0, 0}, {6, 0}, {6, 2}, {3, 2}, {3, 4}, {0, 4}}},
		Plates:    deck(12, 8, x0, z0, h, 0),
		Pressures: map[int64]model.MovingPressure{1: {ID: 1, Width: width, Length: long, Pz: pz, LoadSpacing: 0.5}},
		Paths:     map[int64][]Station{1: {{At: geom.Vec3{0, 0, 1.5}}, {At: geom.Vec3{20, 0, 1.5}}}},
	}
	g, err := New(in)
	if err != nil {
		t.Fatal(err)
	}
	m := &mover{path: mustPath(t, g, 1), factor: 1, pr: func() *model.MovingPressure { p := in.Pressures[1]; return &p }()}
	acc := newAccumulator()
	g.pressure(acc, m, 5)
	st := acc.step(0, 0)
	// The patch is [0.5, 5] × [-0.1, 3.1]; inside the L it is
	// [0.5, 5] × [0, 2] plus [0.5, 3] × [2, 3.1].
	type rect struct{ x0, x1, z0, z1 float64 }
	parts := []rect{{0.5, 5, 0, 2}, {0.5, 3, 2, 3.1}}
	var area, mx, mz float64
	for _, r := range parts {
		a := (r.x1 - r.x0) * (r.z1 - r.z0)
		area += a
		mx += a * (r.x0 + r.x1) / 2
		mz += a * (r.z0 + r.z1) / 2
	}
	want := pz * area
	var fy, fyx, fyz float64
	nodeAt := map[int64]geom.Vec3{}
	plates := map[int64]Plate{}
	for _, p := range in.Plates {
		plates[p.ID] = p
		for k, n := range p.Nodes {
			nodeAt[n] = p.Corners[k]
		}
	}
	for _, n := range st.Nodes {
		fy += n.F[1]
		fyx += n.F[1] * nodeAt[n.Node][0]
		fyz += n.F[1] * nodeAt[n.Node][2]
	}
	for _, p := range st.Plates {
		pl := plates[p.Plate]
		a := trueArea(pl.Corners)
		var c geom.Vec3 // a triangle's or a rectangle's centroid is its vertex mean
		for _, x := range pl.Corners {
			c = c.Add(x.Scale(1 / float64(len(pl.Corners))))
		}
		fy += p.P[1] * a
		fyx += p.P[1] * a * c[0]
		fyz += p.P[1] * a * c[2]
	}
	if len(st.Plates) == 0 || len(st.Nodes) == 0 {
		t.Fatalf("want both whole-plate pressures and node loads, got %d and %d", len(st.Plates), len(st.Nodes))
	}
	if math.Abs(fy-want) > 1e-9*math.Abs(want) {
		t.Errorf("total %.12g N, want %.12g N (pressure × clipped area %.6g m²)", fy, want, area)
	}
	if cx, cz := fyx/fy, fyz/fy; math.Abs(cx-mx/area) > 1e-9 || math.Abs(cz-mz/area) > 1e-9 {
		t.Errorf("resultant at (%.12g, %.12g), want the clipped area's centroid (%.12g, %.12g)", cx, cz, mx/area, mz/area)
	}
}
