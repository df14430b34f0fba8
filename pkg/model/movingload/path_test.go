package movingload

import (
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/model"
)

// A right-angle bend in plan (Y up): from (0,0,0) along +X to (20,0,0),
// then along +Z to (20,0,20), rounded at the corner by R = 8 m. Plane
// geometry of a fillet: the tangent length is R·tan(φ/2) = 8 m for φ = 90°,
// so the arc runs from (12,0,0) to (20,0,8) round the centre (12,0,8), and
// the path is 12 + 8·π/2 + 12 m long. Tolerances are round-off (1e-12 m).
func TestPathArcGeometry(t *testing.T) {
	const r = 8.0
	p, err := NewPath([]Station{{At: geom.Vec3{0, 0, 0}}, {At: geom.Vec3{20, 0, 0}, Radius: r}, {At: geom.Vec3{20, 0, 20}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := 24 + r*math.Pi/2; math.Abs(p.Length()-want) > 1e-12 {
		t.Fatalf("length %.15g, want %.15g", p.Length(), want)
	}
	centre := geom.Vec3{12, 0, 8}
	for _, tc := range []struct {
		name    string
		s       float64
		at, tan geom.Vec3
	}{
		{"start", 0, geom.Vec3{0, 0, 0}, geom.Vec3{1, 0, 0}},
		{"arc start", 12, geom.Vec3{12, 0, 0}, geom.Vec3{1, 0, 0}},
		{"arc middle", 12 + r*math.Pi/4, centre.Add(geom.Vec3{r * math.Sqrt2 / 2, 0, -r * math.Sqrt2 / 2}), geom.Vec3{math.Sqrt2 / 2, 0, math.Sqrt2 / 2}},
		{"arc end", 12 + r*math.Pi/2, geom.Vec3{20, 0, 8}, geom.Vec3{0, 0, 1}},
		{"end", 24 + r*math.Pi/2, geom.Vec3{20, 0, 20}, geom.Vec3{0, 0, 1}},
		{"before the start", -3, geom.Vec3{-3, 0, 0}, geom.Vec3{1, 0, 0}},
		{"past the end", 26 + r*math.Pi/2, geom.Vec3{20, 0, 22}, geom.Vec3{0, 0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			at, tan := p.At(tc.s)
			if at.Sub(tc.at).Norm() > 1e-12 || tan.Sub(tc.tan).Norm() > 1e-12 {
				t.Errorf("At(%g) = %v, %v; want %v, %v", tc.s, at, tan, tc.at, tc.tan)
			}
		})
	}
}

// A two-axle vehicle (gauge 2 m, axles 1.2 m apart) on the bend above
// stays on it: every wheel's distance from the arc's centre is R plus its
// offset to the outside of the bend (the path turns right, toward +Z, so
// the driver's left, y > 0, is the outside), and the wheels of an axle lie
// on the radius through the axle (the path's normal). Plane geometry;
// round-off tolerance 1e-9 m.
func TestVehicleStaysOnCurvedPath(t *testing.T) {
	const r = 8.0
	in := &Input{Paths: map[int64][]Station{1: {{At: geom.Vec3{0, 0, 0}}, {At: geom.Vec3{20, 0, 0}, Radius: r}, {At: geom.Vec3{20, 0, 20}}}}}
	g, err := New(in)
	if err != nil {
		t.Fatal(err)
	}
	v := &model.Vehicle{Loads: []model.VehicleLoad{{X: 0, Y: 1, Fz: -1}, {X: 0, Y: -1, Fz: -1}, {X: -1.2, Y: 1, Fz: -1}, {X: -1.2, Y: -1, Fz: -1}}}
	centre := geom.Vec3{12, 0, 8}
	for s := 12 + 1.2; s <= 12+r*math.Pi/2; s += 0.37 {
		ws := g.wheels(mustPath(t, g, 1), v, s, 1)
		for i, w := range ws {
			d := w.at.Sub(centre)
			if math.Abs(d[1]) > 1e-12 || math.Abs(d.Norm()-(r+v.Loads[i].Y)) > 1e-9 {
				t.Errorf("s = %g, wheel %d at %v: %.12g m from the centre, want %g", s, i, w.at, d.Norm(), r+v.Loads[i].Y)
			}
			// Gravity stays down: fz = −1 in the vehicle frame is −1 along Y.
			if w.f.Sub(geom.Vec3{0, -1, 0}).Norm() > 1e-12 {
				t.Errorf("wheel %d force %v, want (0, -1, 0)", i, w.f)
			}
		}
		// The left and right wheels of an axle and the centre are collinear.
		for a := 0; a < 4; a += 2 {
			l, rt := ws[a].at.Sub(centre), ws[a+1].at.Sub(centre)
			if l.Cross(rt).Norm() > 1e-9 {
				t.Errorf("s = %g: axle %d wheels not on one radius: %v, %v", s, a/2, ws[a].at, ws[a+1].at)
			}
		}
	}
}

func TestPathErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		st      []Station
		station int
	}{
		{"one station", []Station{{At: geom.Vec3{}}}, 0},
		{"repeated station", []Station{{At: geom.Vec3{}}, {At: geom.Vec3{}}}, 2},
		{"radius too large", []Station{{At: geom.Vec3{}}, {At: geom.Vec3{5, 0, 0}, Radius: 10}, {At: geom.Vec3{5, 0, 5}}}, 2},
		{"turning back", []Station{{At: geom.Vec3{}}, {At: geom.Vec3{5, 0, 0}, Radius: 1}, {At: geom.Vec3{1, 0, 0}}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewPath(tc.st)
			pe, ok := err.(*PathError)
			if !ok || pe.Station != tc.station {
				t.Errorf("error %v, want a PathError at station %d", err, tc.station)
			}
		})
	}
}

// mustPath builds a generator's travel path or fails the test.
func mustPath(t *testing.T, g *Generator, id int64) *Path {
	t.Helper()
	p, err := g.path(id, "test")
	if err != nil {
		t.Fatal(err)
	}
	return p
}
