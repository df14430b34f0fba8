package transform_test

import (
	"errors"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/transform"
)

type V = transform.Vec3

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
		dir      transform.Direction
		vertical transform.Axis
		x, y, z  V
	}{
		{"horizontal X, Y up", V{0, 0, 0}, V{3, 0, 0}, transform.Direction{}, transform.YAxis,
			V{1, 0, 0}, V{0, 1, 0}, V{0, 0, 1}},
		{"default vertical is Y", V{0, 0, 0}, V{3, 0, 0}, transform.Direction{}, 0,
			V{1, 0, 0}, V{0, 1, 0}, V{0, 0, 1}},
		{"horizontal X, Z up", V{0, 0, 0}, V{3, 0, 0}, transform.Direction{}, transform.ZAxis,
			V{1, 0, 0}, V{0, 0, 1}, V{0, -1, 0}},
		{"horizontal Z, Y up", V{0, 0, 0}, V{0, 0, 2}, transform.Direction{}, transform.YAxis,
			V{0, 0, 1}, V{0, 1, 0}, V{-1, 0, 0}},
		{"column Y up", V{1, 0, 1}, V{1, 4, 1}, transform.Direction{}, transform.YAxis,
			V{0, 1, 0}, V{1, 0, 0}, V{0, 0, -1}},
		{"column Z up", V{0, 0, 0}, V{0, 0, 4}, transform.Direction{}, transform.ZAxis,
			V{0, 0, 1}, V{1, 0, 0}, V{0, 1, 0}},
		{"inclined Y up", V{0, 0, 0}, V{1, 1, 0}, transform.Direction{}, transform.YAxis,
			V{s, s, 0}, V{-s, s, 0}, V{0, 0, 1}},
		{"angle 90°", V{0, 0, 0}, V{3, 0, 0}, transform.Direction{Angle: math.Pi / 2}, transform.YAxis,
			V{1, 0, 0}, V{0, 0, 1}, V{0, -1, 0}},
		{"direction node", V{0, 0, 0}, V{3, 0, 0},
			transform.Direction{Kind: transform.DirectionNode, Node: V{1, 0, -5}}, transform.YAxis,
			V{1, 0, 0}, V{0, 0, -1}, V{0, 1, 0}},
		{"direction axis projected", V{0, 0, 0}, V{1, 1, 0},
			transform.Direction{Kind: transform.DirectionAxis, Axis: transform.NegativeXAxis}, transform.YAxis,
			V{s, s, 0}, V{-s, s, 0}, V{0, 0, 1}},
		{"direction axis Z on column", V{0, 0, 0}, V{0, 3, 0},
			transform.Direction{Kind: transform.DirectionAxis, Axis: transform.ZAxis}, transform.YAxis,
			V{0, 1, 0}, V{0, 0, 1}, V{1, 0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := transform.LocalAxes(c.a, c.b, c.dir, c.vertical)
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
		dir  transform.Direction
		vert transform.Axis
		want error
	}{
		{"zero length", V{1, 1, 1}, V{1, 1, 1}, transform.Direction{}, 0, transform.ErrZeroLength},
		{"node collinear", V{0, 0, 0}, V{2, 0, 0},
			transform.Direction{Kind: transform.DirectionNode, Node: V{5, 0, 0}}, 0, transform.ErrNodeCollinear},
		{"axis parallel", V{0, 0, 0}, V{0, 0, 2},
			transform.Direction{Kind: transform.DirectionAxis, Axis: transform.NegativeZAxis}, 0, transform.ErrAxisParallel},
		{"bad axis", V{0, 0, 0}, V{0, 0, 2},
			transform.Direction{Kind: transform.DirectionAxis}, 0, transform.ErrBadAxis},
		{"bad vertical", V{0, 0, 0}, V{0, 0, 2}, transform.Direction{}, transform.XAxis, transform.ErrBadVertical},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := transform.LocalAxes(c.a, c.b, c.dir, c.vert)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
		})
	}
}

// TestToGlobalMatrixDense compares the blockwise congruence with an
// explicit Tᵀ·k·T on a full (non-sparse) random-like matrix.
func TestToGlobalMatrixDense(t *testing.T) {
	r, err := transform.LocalAxes(V{0, 0, 0}, V{1, 2, 3}, transform.Direction{Angle: 0.7}, transform.ZAxis)
	if err != nil {
		t.Fatal(err)
	}
	const n = 12
	k := make([]float64, n*n)
	for i := range k {
		k[i] = math.Sin(float64(i*7 + 1))
	}
	var T [n][n]float64
	for b := 0; b < n; b += 3 {
		for i := range 3 {
			for j := range 3 {
				T[b+i][b+j] = r[i][j]
			}
		}
	}
	want := make([]float64, n*n)
	for i := range n {
		for j := range n {
			s := 0.0
			for p := range n {
				for q := range n {
					s += T[p][i] * k[p*n+q] * T[q][j]
				}
			}
			want[i*n+j] = s
		}
	}
	got := make([]float64, n*n)
	transform.ToGlobalMatrix(r, n, k, got)
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("entry %d: %g want %g", i, got[i], want[i])
		}
	}
	// Round trip, in place.
	transform.ToLocalMatrix(r, n, got, got)
	for i := range got {
		if math.Abs(got[i]-k[i]) > 1e-12 {
			t.Fatalf("round trip entry %d: %g want %g", i, got[i], k[i])
		}
	}
}
