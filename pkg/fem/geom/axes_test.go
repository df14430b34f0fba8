package geom_test

import (
	"errors"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/geom"
)

type V = geom.Vec3

func near(t *testing.T, what string, got, want V) {
	t.Helper()
	for i := range 3 {
		// Axes are unit vectors built from a few products: round-off only.
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("%s = %v, want %v", what, got, want)
			return
		}
	}
}

func TestLocalAxes(t *testing.T) {
	s := math.Sqrt(0.5)
	cases := []struct {
		name     string
		a, b     V
		dir      geom.Direction
		vertical geom.Axis
		x, y, z  V
	}{
		{"horizontal X, Y up", V{0, 0, 0}, V{3, 0, 0}, geom.Direction{}, geom.YAxis,
			V{1, 0, 0}, V{0, 1, 0}, V{0, 0, 1}},
		{"default vertical is Y", V{0, 0, 0}, V{3, 0, 0}, geom.Direction{}, 0,
			V{1, 0, 0}, V{0, 1, 0}, V{0, 0, 1}},
		{"horizontal X, Z up", V{0, 0, 0}, V{3, 0, 0}, geom.Direction{}, geom.ZAxis,
			V{1, 0, 0}, V{0, 0, 1}, V{0, -1, 0}},
		{"horizontal Z, Y up", V{0, 0, 0}, V{0, 0, 2}, geom.Direction{}, geom.YAxis,
			V{0, 0, 1}, V{0, 1, 0}, V{-1, 0, 0}},
		{"column Y up", V{1, 0, 1}, V{1, 4, 1}, geom.Direction{}, geom.YAxis,
			V{0, 1, 0}, V{1, 0, 0}, V{0, 0, -1}},
		{"column Z up", V{0, 0, 0}, V{0, 0, 4}, geom.Direction{}, geom.ZAxis,
			V{0, 0, 1}, V{1, 0, 0}, V{0, 1, 0}},
		{"inclined Y up", V{0, 0, 0}, V{1, 1, 0}, geom.Direction{}, geom.YAxis,
			V{s, s, 0}, V{-s, s, 0}, V{0, 0, 1}},
		{"angle 90°", V{0, 0, 0}, V{3, 0, 0}, geom.Direction{Angle: math.Pi / 2}, geom.YAxis,
			V{1, 0, 0}, V{0, 0, 1}, V{0, -1, 0}},
		{"direction node", V{0, 0, 0}, V{3, 0, 0},
			geom.Direction{Kind: geom.DirectionNode, Node: V{1, 0, -5}}, geom.YAxis,
			V{1, 0, 0}, V{0, 0, -1}, V{0, 1, 0}},
		{"direction axis projected", V{0, 0, 0}, V{1, 1, 0},
			geom.Direction{Kind: geom.DirectionAxis, Axis: geom.NegativeXAxis}, geom.YAxis,
			V{s, s, 0}, V{-s, s, 0}, V{0, 0, 1}},
		{"direction axis Z on column", V{0, 0, 0}, V{0, 3, 0},
			geom.Direction{Kind: geom.DirectionAxis, Axis: geom.ZAxis}, geom.YAxis,
			V{0, 1, 0}, V{0, 0, 1}, V{1, 0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := geom.LocalAxes(c.a, c.b, c.dir, c.vertical)
			if err != nil {
				t.Fatal(err)
			}
			near(t, "x", r.X(), c.x)
			near(t, "y", r.Y(), c.y)
			near(t, "z", r.Z(), c.z)
			// Right-handed and orthonormal.
			near(t, "x×y", r.X().Cross(r.Y()), r.Z())
		})
	}
}

func TestLocalAxesErrors(t *testing.T) {
	cases := []struct {
		name string
		a, b V
		dir  geom.Direction
		vert geom.Axis
		want error
	}{
		{"zero length", V{1, 1, 1}, V{1, 1, 1}, geom.Direction{}, 0, geom.ErrZeroLength},
		{"node collinear", V{0, 0, 0}, V{2, 0, 0},
			geom.Direction{Kind: geom.DirectionNode, Node: V{5, 0, 0}}, 0, geom.ErrNodeCollinear},
		{"axis parallel", V{0, 0, 0}, V{0, 0, 2},
			geom.Direction{Kind: geom.DirectionAxis, Axis: geom.NegativeZAxis}, 0, geom.ErrAxisParallel},
		{"bad axis", V{0, 0, 0}, V{0, 0, 2},
			geom.Direction{Kind: geom.DirectionAxis}, 0, geom.ErrBadAxis},
		{"bad vertical", V{0, 0, 0}, V{0, 0, 2}, geom.Direction{}, geom.XAxis, geom.ErrBadVertical},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := geom.LocalAxes(c.a, c.b, c.dir, c.vert)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
		})
	}
}
