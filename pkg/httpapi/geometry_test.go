package httpapi_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/editor"
)

// Axes are computed in floating point from unit vectors; 1e-12 absolute
// is round-off for components of order one.
const axisTol = 1e-12

func near(a, b editor.Vector) bool {
	return math.Abs(a.X-b.X) < axisTol && math.Abs(a.Y-b.Y) < axisTol && math.Abs(a.Z-b.Z) < axisTol
}

func dot(a, b editor.Vector) float64 { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }

func cross(a, b editor.Vector) editor.Vector {
	return editor.Vector{X: a.Y*b.Z - a.Z*b.Y, Y: a.Z*b.X - a.X*b.Z, Z: a.X*b.Y - a.Y*b.X}
}

// checkFrame asserts a right-handed orthonormal triad.
func checkFrame(t *testing.T, name string, ax editor.LocalAxes) {
	t.Helper()
	for _, v := range []editor.Vector{ax.XAxis, ax.YAxis, ax.ZAxis} {
		if math.Abs(dot(v, v)-1) > axisTol {
			t.Errorf("%s: axis %v is not a unit vector", name, v)
		}
	}
	if math.Abs(dot(ax.XAxis, ax.YAxis)) > axisTol || math.Abs(dot(ax.YAxis, ax.ZAxis)) > axisTol || !near(cross(ax.XAxis, ax.YAxis), ax.ZAxis) {
		t.Errorf("%s: axes %+v are not right-handed and orthonormal", name, ax)
	}
}

func TestMemberGeometry(t *testing.T) {
	e := structureEnv(t) // nodes 1 (0,0,0), 2 (3,0,0), 3 (3,3,0), 4 (0,3,0); vertical axis Y
	e.must(200, "POST", sp+"/nodes/bulk", []map[string]any{{"id": 5, "x": 0, "y": 0, "z": 5}, {"id": 6, "x": 6, "y": 0, "z": 0}})
	mk := func(a, b int, dir map[string]any) int64 {
		t.Helper()
		body := map[string]any{"nodeA": a, "nodeB": b, "section": 1, "material": 1}
		if dir != nil {
			body["direction"] = dir
		}
		var m struct{ ID int64 }
		e.must(201, "POST", sp+"/members", body).decode(t, &m)
		return m.ID
	}
	X, Y, Z := editor.Vector{X: 1}, editor.Vector{Y: 1}, editor.Vector{Z: 1}
	neg := func(v editor.Vector) editor.Vector { return editor.Vector{X: -v.X, Y: -v.Y, Z: -v.Z} }
	// Expected axes follow the convention of pkg/fem/geom: y is the
	// part of "up" normal to x; a vertical member takes y = +X; the angle
	// turns y toward z; a node or an axis sets y.
	cases := []struct {
		name    string
		id      int64
		x, y, z editor.Vector
	}{
		{"horizontal along X", mk(1, 2, nil), X, Y, Z},
		{"vertical along Y", mk(1, 4, nil), Y, X, neg(Z)},
		{"angle 90°", mk(2, 3, map[string]any{"dirAngle": 90}), Y, neg(Z), neg(X)},
		{"direction node", mk(1, 2, map[string]any{"dirNode": 5}), X, Z, neg(Y)},
		{"direction axis -Z", mk(1, 2, map[string]any{"dirAxis": "NegativeZAxis"}), X, neg(Z), Y},
	}
	for _, c := range cases {
		var g editor.MemberGeometry
		e.must(200, "GET", fmt.Sprintf("%s/job/query/geometry/members/%d", e.base, c.id), nil).decode(t, &g)
		if !near(g.LocalAxes.XAxis, c.x) || !near(g.LocalAxes.YAxis, c.y) || !near(g.LocalAxes.ZAxis, c.z) {
			t.Errorf("%s: axes %+v, want x %v y %v z %v", c.name, g.LocalAxes, c.x, c.y, c.z)
		}
		checkFrame(t, c.name, g.LocalAxes)
	}
	// A member in each octant: x runs A→B, y points up out of the vertical
	// plane containing x.
	for i, s := range [][3]float64{{1, 2, 3}, {-1, 2, 3}, {1, -2, 3}, {1, 2, -3}, {-1, -2, 3}, {-1, 2, -3}, {1, -2, -3}, {-1, -2, -3}} {
		id := int64(100 + i)
		e.must(201, "POST", sp+"/nodes", map[string]any{"id": id, "x": s[0], "y": s[1], "z": s[2]})
		m := mk(1, int(id), nil)
		var g editor.MemberGeometry
		e.must(200, "GET", fmt.Sprintf("/job/query/geometry/members/%d", m), nil).decode(t, &g)
		l := math.Sqrt(14)
		name := fmt.Sprintf("octant %v", s)
		if !near(g.LocalAxes.XAxis, editor.Vector{X: s[0] / l, Y: s[1] / l, Z: s[2] / l}) || math.Abs(g.Length-l) > 1e-12 {
			t.Errorf("%s: x %v length %g", name, g.LocalAxes.XAxis, g.Length)
		}
		if g.LocalAxes.YAxis.Y <= 0 || math.Abs(dot(g.LocalAxes.YAxis, cross(g.LocalAxes.XAxis, Y))) > axisTol {
			t.Errorf("%s: y %v is not the upward normal in the vertical plane", name, g.LocalAxes.YAxis)
		}
		checkFrame(t, name, g.LocalAxes)
	}
	// With Z up, a horizontal member's y is +Z.
	e.must(200, "PATCH", "/job/settings", map[string]any{"verticalAxis": "ZAxis"})
	var g editor.MemberGeometry
	e.must(200, "GET", fmt.Sprintf("/job/query/geometry/members/%d", cases[0].id), nil).decode(t, &g)
	if !near(g.LocalAxes.YAxis, Z) || !near(g.LocalAxes.ZAxis, neg(Y)) {
		t.Errorf("Z up: %+v", g.LocalAxes)
	}
	e.must(200, "PATCH", "/job/settings", map[string]any{"verticalAxis": "YAxis"})

	// Offsets: global shift pointA; local shift along member axes.
	e.must(201, "POST", sp+"/member-offsets", map[string]any{"member": cases[0].id, "xOffsetAtA": 0.5, "yOffsetAtA": 0.2})
	e.must(201, "POST", sp+"/member-offsets", map[string]any{"member": cases[2].id, "axes": "Local", "xOffsetAtB": -0.5, "yOffsetAtB": 0.1})
	e.must(200, "GET", fmt.Sprintf("/job/query/geometry/members/%d", cases[0].id), nil).decode(t, &g)
	if g.PointA != (editor.Point{X: 0.5, Y: 0.2}) || g.PointB != (editor.Point{X: 3}) || math.Abs(g.Length-math.Hypot(2.5, 0.2)) > 1e-12 ||
		g.NodeA != (editor.NodeRef{ID: 1}) {
		t.Errorf("global offsets: %+v", g)
	}
	e.must(200, "GET", fmt.Sprintf("/job/query/geometry/members/%d", cases[2].id), nil).decode(t, &g)
	// Member 2→3 runs along +Y with y = −Z (angle 90°): local (−0.5, 0.1) at B is (0, −0.5, −0.1) globally.
	if math.Abs(g.PointB.X-3) > 1e-12 || math.Abs(g.PointB.Y-2.5) > 1e-12 || math.Abs(g.PointB.Z+0.1) > 1e-12 {
		t.Errorf("local offsets: pointB %+v", g.PointB)
	}
	// Degenerate: a direction node on the member line.
	bad := mk(1, 2, map[string]any{"dirNode": 6})
	e.wantError(409, "CONFLICT", "GET", fmt.Sprintf("/job/query/geometry/members/%d", bad), nil)
	rows, r := list[editor.MemberGeometry](t, e, "/job/query/geometry/members?limit=3")
	if len(rows) != 3 || r.header.Get("Total-Count") != fmt.Sprint(len(cases)+8) {
		t.Errorf("list: %d rows, total %s (the degenerate member must be left out)", len(rows), r.header.Get("Total-Count"))
	}
	// Units: lengths in mm.
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "mm"})
	e.must(200, "GET", fmt.Sprintf("/job/query/geometry/members/%d", cases[1].id), nil).decode(t, &g)
	if g.Length != 3000 || g.NodeB.Y != 3000 {
		t.Errorf("length in mm: %+v", g)
	}
}

func TestPlateGeometry(t *testing.T) {
	e := structureEnv(t)
	e.must(201, "POST", sp+"/plates", map[string]any{"nodeA": 1, "nodeB": 2, "nodeC": 3, "nodeD": 4, "material": 1, "actualThickness": 10, "offset": 0.1})
	e.must(201, "POST", sp+"/plates", map[string]any{"nodeA": 1, "nodeB": 4, "nodeC": 3, "material": 1, "actualThickness": 10,
		"direction": map[string]any{"dirAngle": 90}})
	var g editor.PlateGeometry
	e.must(200, "GET", "/job/query/geometry/plates/1", nil).decode(t, &g)
	// A 3 m square in z = 0, corners counter-clockwise seen from +z.
	if g.Area != 9 || g.Perimeter != 12 || g.Centroid != (editor.Point{X: 1.5, Y: 1.5}) || len(g.NodeCorners) != 4 {
		t.Errorf("square: %+v", g)
	}
	if !near(g.LocalAxes.ZAxis, editor.Vector{Z: 1}) || !near(g.LocalAxes.XAxis, editor.Vector{X: 1}) || g.PointCorners[2] != (editor.Point{X: 3, Y: 3, Z: 0.1}) {
		t.Errorf("square axes %+v, offset corners %+v", g.LocalAxes, g.PointCorners)
	}
	e.must(200, "GET", "/job/query/geometry/plates/2", nil).decode(t, &g)
	// Clockwise from +z: the normal is −Z; x along A→B (+Y) turned 90° about z.
	if g.Area != 4.5 || !near(g.LocalAxes.ZAxis, editor.Vector{Z: -1}) || !near(g.LocalAxes.XAxis, editor.Vector{X: 1}) {
		t.Errorf("triangle: %+v", g)
	}
	checkFrame(t, "triangle", g.LocalAxes)
	rows, _ := list[editor.PlateGeometry](t, e, "/job/query/geometry/plates?plates=2")
	if len(rows) != 1 || rows[0].Plate != 2 || len(rows[0].NodeCorners) != 3 {
		t.Errorf("filtered list %+v", rows)
	}
}
