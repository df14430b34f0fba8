package geom

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// shoelaceCentroid is the centroid of a flat polygon in the xy plane by the
// standard formula Cx = Σ(xᵢ+xᵢ₊₁)(xᵢyᵢ₊₁−xᵢ₊₁yᵢ) / 6A (and likewise Cy),
// an independent check on the quad's two-triangle centroid.
func shoelaceCentroid(c []Vec3) Vec3 {
	var a, cx, cy float64
	for i := range c {
		p, q := c[i], c[(i+1)%len(c)]
		k := p[0]*q[1] - q[0]*p[1]
		a += k / 2
		cx += (p[0] + q[0]) * k
		cy += (p[1] + q[1]) * k
	}
	return Vec3{cx / (6 * a), cy / (6 * a), c[0][2]}
}

func TestPlateGeometry(t *testing.T) {
	const h = 0.01
	tests := []struct {
		name      string
		corners   []Vec3
		area      float64
		perimeter float64
		centroid  Vec3
		normal    Vec3
		warp      float64
	}{
		{"unit square", []Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}},
			1, 4, Vec3{0.5, 0.5, 0}, Vec3{0, 0, 1}, 0},
		{"unit square clockwise", []Vec3{{0, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 0, 0}},
			1, 4, Vec3{0.5, 0.5, 0}, Vec3{0, 0, -1}, 0},
		// Area ½·4·3 = 6; a triangle's centroid is the mean of its corners
		// (where the medians meet), (4/3, 1, 0); perimeter 3 + 4 + 5.
		{"3-4-5 triangle", []Vec3{{0, 0, 0}, {4, 0, 0}, {0, 3, 0}},
			6, 12, Vec3{4.0 / 3, 1, 0}, Vec3{0, 0, 1}, 0},
		// Equilateral triangle of side √2: area (√3/4)·2 = √3/2, normal
		// along (1,1,1), centroid the mean of the corners.
		{"tilted triangle", []Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
			math.Sqrt(3) / 2, 3 * math.Sqrt2, Vec3{1.0 / 3, 1.0 / 3, 1.0 / 3}, Vec3{1, 1, 1}.Scale(1 / math.Sqrt(3)), 0},
		// Parallelogram: area base·height = 2·1; centroid where the
		// diagonals meet.
		{"skewed quad", []Vec3{{0, 0, 5}, {2, 0, 5}, {3, 1, 5}, {1, 1, 5}},
			2, 4 + 2*math.Sqrt2, Vec3{1.5, 0.5, 5}, Vec3{0, 0, 1}, 0},
		// Trapezoid with parallel sides a = 4 (y = 0) and b = 2 (y = 2):
		// area (a+b)h/2 = 6, centroid height h(a+2b)/(3(a+b)) = 8/9.
		{"trapezoid", []Vec3{{0, 0, 0}, {4, 0, 0}, {3, 2, 0}, {1, 2, 0}},
			6, 6 + 2*math.Sqrt(5), Vec3{2, 8.0 / 9, 0}, Vec3{0, 0, 1}, 0},
		// Corners alternately ±h off the plane z = 0: the mean normal is z,
		// the projected area 1 and every corner h from the mean plane.
		{"warped quad", []Vec3{{0, 0, h}, {1, 0, -h}, {1, 1, h}, {0, 1, -h}},
			1, 4 * math.Sqrt(1+4*h*h), Vec3{0.5, 0.5, 0}, Vec3{0, 0, 1}, h},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := PlateGeometry(tc.corners)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(g.Area-tc.area) > 1e-12 {
				t.Errorf("area %.15g, want %.15g", g.Area, tc.area)
			}
			if math.Abs(g.Perimeter-tc.perimeter) > 1e-12 {
				t.Errorf("perimeter %.15g, want %.15g", g.Perimeter, tc.perimeter)
			}
			if !vecClose(g.Centroid, tc.centroid, 1e-12) {
				t.Errorf("centroid %v, want %v", g.Centroid, tc.centroid)
			}
			if !vecClose(g.Normal, tc.normal, 1e-12) {
				t.Errorf("normal %v, want %v", g.Normal, tc.normal)
			}
			if math.Abs(g.WarpHeight-tc.warp) > 1e-12 || math.Abs(g.WarpRatio-tc.warp/math.Sqrt(tc.area)) > 1e-12 {
				t.Errorf("warp %g (ratio %g), want %g", g.WarpHeight, g.WarpRatio, tc.warp)
			}
		})
	}
}

func TestQuadCentroidMatchesShoelace(t *testing.T) {
	quads := [][]Vec3{
		{{0, 0, 1}, {5, 1, 1}, {4, 3, 1}, {-1, 2, 1}},
		{{0.3, -0.2, 0}, {2.9, 0.1, 0}, {3.7, 4.4, 0}, {0.1, 1.7, 0}},
	}
	for _, q := range quads {
		g, err := PlateGeometry(q)
		if err != nil {
			t.Fatal(err)
		}
		if want := shoelaceCentroid(q); !vecClose(g.Centroid, want, 1e-12) {
			t.Errorf("%v: centroid %v, want %v", q, g.Centroid, want)
		}
	}
}

// rotate applies a fixed proper rotation (about the axis (1,2,2)/3 by 0.7
// rad, Rodrigues' formula) and a translation.
func rotate(p Vec3) Vec3 {
	k := Vec3{1, 2, 2}.Scale(1.0 / 3)
	c, s := math.Cos(0.7), math.Sin(0.7)
	r := p.Scale(c).Add(k.Cross(p).Scale(s)).Add(k.Scale(k.Dot(p) * (1 - c)))
	return r.Add(Vec3{10, -20, 30})
}

func TestPlateGeometryIsRigid(t *testing.T) {
	// A rigid motion moves normal and centroid with the plate and keeps the
	// sizes; relabelling a quad's corners cyclically changes nothing.
	warped := []Vec3{{0, 0, 0.02}, {2, 0, -0.02}, {2.5, 1, 0.02}, {0.2, 1.3, -0.02}}
	base, err := PlateGeometry(warped)
	if err != nil {
		t.Fatal(err)
	}
	moved := make([]Vec3, 4)
	for i, c := range warped {
		moved[i] = rotate(c)
	}
	g, err := PlateGeometry(moved)
	if err != nil {
		t.Fatal(err)
	}
	origin := rotate(Vec3{})
	if !vecClose(g.Normal, rotate(base.Normal).Sub(origin), 1e-12) ||
		!vecClose(g.Centroid, rotate(base.Centroid), 1e-12) ||
		math.Abs(g.Area-base.Area) > 1e-12 || math.Abs(g.Perimeter-base.Perimeter) > 1e-12 ||
		math.Abs(g.WarpHeight-base.WarpHeight) > 1e-12 {
		t.Errorf("moved plate %+v, base %+v", g, base)
	}
	relabelled, err := PlateGeometry([]Vec3{warped[1], warped[2], warped[3], warped[0]})
	if err != nil {
		t.Fatal(err)
	}
	if !vecClose(relabelled.Centroid, base.Centroid, 1e-12) || !vecClose(relabelled.Normal, base.Normal, 1e-12) ||
		math.Abs(relabelled.Area-base.Area) > 1e-12 {
		t.Errorf("relabelled %+v, base %+v", relabelled, base)
	}
}

func TestPlateGeometryDegenerate(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name    string
		corners []Vec3
		defect  PlateDefect
		message string
	}{
		{"two corners", []Vec3{{0, 0, 0}, {1, 0, 0}}, WrongCornerCount, "got 2"},
		{"five corners", []Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0.5, 0}}, WrongCornerCount, "got 5"},
		{"nan", []Vec3{{0, 0, 0}, {1, nan, 0}, {0, 1, 0}}, NonFiniteCorner, "corner B"},
		{"triangle coincident", []Vec3{{0, 0, 0}, {1, 0, 0}, {0, 0, 0}}, CoincidentCorners, "corners A and C coincide"},
		{"quad coincident", []Vec3{{0, 0, 0}, {1, 1, 0}, {2, 0, 0}, {1, 1, 0}}, CoincidentCorners, "corners B and D coincide"},
		{"collinear triangle", []Vec3{{0, 0, 0}, {1, 1, 1}, {3, 3, 3}}, CollinearCorners, "collinear"},
		{"collinear quad", []Vec3{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}}, ZeroPlateArea, "zero area"},
		{"straight angle", []Vec3{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {1, 1, 0}}, CollinearCorners, "straight angle at B"},
		{"re-entrant", []Vec3{{0, 0, 0}, {2, 1, 0}, {4, 0, 0}, {2, 3, 0}}, NonConvexQuad, "re-entrant corner at B"},
		{"symmetric bow-tie", []Vec3{{0, 0, 0}, {1, 1, 0}, {1, 0, 0}, {0, 1, 0}}, SelfCrossingQuad, "bow-tie"},
		{"bow-tie", []Vec3{{0, 0, 0}, {2, 1, 0}, {2, 0, 0}, {0, 2, 0}}, SelfCrossingQuad, "bow-tie"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := PlateGeometry(tc.corners)
			var pe *PlateError
			if !errors.As(err, &pe) || !errors.Is(err, ErrDegeneratePlate) {
				t.Fatalf("err = %v, want a *PlateError", err)
			}
			if pe.Defect != tc.defect {
				t.Errorf("defect %d, want %d (%v)", pe.Defect, tc.defect, err)
			}
			if !strings.Contains(err.Error(), tc.message) {
				t.Errorf("message %q lacks %q", err.Error(), tc.message)
			}
			if _, err := PlateAxes(tc.corners, 0); !errors.Is(err, ErrDegeneratePlate) {
				t.Errorf("PlateAxes: err = %v, want ErrDegeneratePlate", err)
			}
		})
	}
}

func checkTriad(t *testing.T, a PlateFrame) {
	t.Helper()
	for name, v := range map[string]Vec3{"x": a.X, "y": a.Y, "z": a.Z} {
		if math.Abs(v.Norm()-1) > 1e-12 {
			t.Errorf("|%s| = %.17g", name, v.Norm())
		}
	}
	if d := math.Abs(a.X.Dot(a.Y)) + math.Abs(a.Y.Dot(a.Z)) + math.Abs(a.Z.Dot(a.X)); d > 1e-12 {
		t.Errorf("axes not orthogonal: %g", d)
	}
	if !vecClose(a.X.Cross(a.Y), a.Z, 1e-12) {
		t.Errorf("x × y = %v, want z = %v (right-handed)", a.X.Cross(a.Y), a.Z)
	}
}

func TestPlateAxes(t *testing.T) {
	square := []Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}
	tests := []struct {
		name    string
		corners []Vec3
		angle   float64
		x, y, z Vec3
	}{
		{"square", square, 0, Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}},
		{"square 90°", square, 90, Vec3{0, 1, 0}, Vec3{-1, 0, 0}, Vec3{0, 0, 1}},
		{"square -45°", square, -45, Vec3{1, -1, 0}.Scale(1 / math.Sqrt2), Vec3{1, 1, 0}.Scale(1 / math.Sqrt2), Vec3{0, 0, 1}},
		// A vertical wall in the xz plane, corners counter-clockwise seen
		// from −y: the normal is −y.
		{"wall", []Vec3{{0, 0, 0}, {2, 0, 0}, {2, 0, 3}, {0, 0, 3}}, 0, Vec3{1, 0, 0}, Vec3{0, 0, 1}, Vec3{0, -1, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := PlateAxes(tc.corners, tc.angle)
			if err != nil {
				t.Fatal(err)
			}
			checkFrame(t, a, tc.x, tc.y, tc.z)
		})
	}
}

// checkFrame checks that a is a right-handed orthonormal triad equal to
// (x, y, z) within round-off.
func checkFrame(t *testing.T, a PlateFrame, x, y, z Vec3) {
	t.Helper()
	checkTriad(t, a)
	if !vecClose(a.X, x, 1e-12) || !vecClose(a.Y, y, 1e-12) || !vecClose(a.Z, z, 1e-12) {
		t.Errorf("axes %+v, want x %v y %v z %v", a, x, y, z)
	}
}

func TestPlateAxesOrthonormal(t *testing.T) {
	plates := [][]Vec3{
		{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
		{{0, 0, 0.02}, {2, 0, -0.02}, {2.5, 1, 0.02}, {0.2, 1.3, -0.02}},
		{rotate(Vec3{0, 0, 0}), rotate(Vec3{3, 0, 0.1}), rotate(Vec3{3, 2, 0}), rotate(Vec3{0, 2, 0.1})},
	}
	for _, p := range plates {
		g, _ := PlateGeometry(p)
		ab, _ := p[1].Sub(p[0]).Unit()
		for _, angle := range []float64{0, 17, 90, 180, -123.4, 720} {
			a, err := PlateAxes(p, angle)
			if err != nil {
				t.Fatal(err)
			}
			checkTriad(t, a)
			if !vecClose(a.Z, g.Normal, 1e-12) {
				t.Errorf("z %v, want the plate normal %v", a.Z, g.Normal)
			}
			// x makes the direction angle with A→B, measured about z.
			x0, _ := PlateAxes(p, 0)
			got := math.Atan2(x0.X.Cross(a.X).Dot(a.Z), x0.X.Dot(a.X)) * 180 / math.Pi
			if d := math.Remainder(got-angle, 360); math.Abs(d) > 1e-9 {
				t.Errorf("angle %g: x is at %g° from the 0° x", angle, got)
			}
			if angle == 0 && ab.Dot(a.X) < 1-1e-3 {
				t.Errorf("x %v is not along A→B %v", a.X, ab)
			}
		}
	}
	if _, err := PlateAxes([]Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, math.NaN()); err == nil {
		t.Error("NaN angle accepted")
	}
}

func TestPlateAxesToward(t *testing.T) {
	square := []Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}
	// The same square moved off the origin, so that a node's position and
	// its offset from corner A point different ways.
	moved := []Vec3{{2, 2, 0}, {3, 2, 0}, {3, 3, 0}, {2, 3, 0}}
	tilted := []Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	r2, r3, r6 := 1/math.Sqrt2, 1/math.Sqrt(3), 1/math.Sqrt(6)
	tests := []struct {
		name    string
		corners []Vec3
		// ref is the reference direction, or the node's position when
		// byNode is set.
		ref     Vec3
		byNode  bool
		x, y, z Vec3
		err     error // errors.Is target; nil for success
	}{
		// Counter-clockwise seen from +z, so z = +Z; +X lies in the
		// plane, so x = +X and y = z × x = +Y.
		{name: "square toward +X", corners: square, ref: Vec3{1, 0, 0},
			x: Vec3{1, 0, 0}, y: Vec3{0, 1, 0}, z: Vec3{0, 0, 1}},
		// y = Z × (−Y) = +X.
		{name: "square toward −Y", corners: square, ref: Vec3{0, -1, 0},
			x: Vec3{0, -1, 0}, y: Vec3{1, 0, 0}, z: Vec3{0, 0, 1}},
		// The Z part of (1, 1, 5) is dropped and the rest, (1, 1, 0),
		// normalised; y = Z × x = (−1, 1, 0)/√2.
		{name: "square toward a slanted ref", corners: square, ref: Vec3{1, 1, 5},
			x: Vec3{r2, r2, 0}, y: Vec3{-r2, r2, 0}, z: Vec3{0, 0, 1}},
		// Normal n = (1, 1, 1)/√3; Z − n(n·Z) = (−1, −1, 2)/3, normalised
		// (−1, −1, 2)/√6; y = n × x = (3, −3, 0)/√18 = (1, −1, 0)/√2.
		{name: "tilted triangle toward +Z", corners: tilted, ref: Vec3{0, 0, 1},
			x: Vec3{-r6, -r6, 2 * r6}, y: Vec3{r2, -r2, 0}, z: Vec3{r3, r3, r3}},
		// A wall in the xz plane, counter-clockwise seen from −y, so
		// z = −Y; +Z is in its plane, so x = +Z and y = (−Y) × Z = −X.
		{name: "wall toward +Z", corners: []Vec3{{0, 0, 0}, {2, 0, 0}, {2, 0, 3}, {0, 0, 3}}, ref: Vec3{0, 0, 1},
			x: Vec3{0, 0, 1}, y: Vec3{-1, 0, 0}, z: Vec3{0, -1, 0}},
		// Corners ±h off z = 0 have the mean normal +Z (TestPlateGeometry),
		// so +X, in the mean plane, is x unchanged.
		{name: "warped quad toward +X", corners: []Vec3{{0, 0, 0.01}, {1, 0, -0.01}, {1, 1, 0.01}, {0, 1, -0.01}}, ref: Vec3{1, 0, 0},
			x: Vec3{1, 0, 0}, y: Vec3{0, 1, 0}, z: Vec3{0, 0, 1}},
		// Node (2, 4, 1) − A (2, 2, 0) = (0, 2, 1): its in-plane part is
		// +Y, so x = +Y and y = Z × Y = −X. Measured from the origin it
		// would be (2, 4, 0)/√20, so this checks the offset is from A.
		{name: "node off corner A", corners: moved, ref: Vec3{2, 4, 1}, byNode: true,
			x: Vec3{0, 1, 0}, y: Vec3{-1, 0, 0}, z: Vec3{0, 0, 1}},
		// Node − A = (1, 1, 9), in-plane part (1, 1, 0).
		{name: "node across the diagonal", corners: moved, ref: Vec3{3, 3, 9}, byNode: true,
			x: Vec3{r2, r2, 0}, y: Vec3{-r2, r2, 0}, z: Vec3{0, 0, 1}},

		// ±Z is the square's normal exactly, so nothing is left in plane.
		{name: "ref along the normal", corners: square, ref: Vec3{0, 0, 1}, err: ErrPlateDirectionNormal},
		{name: "ref against the normal", corners: square, ref: Vec3{0, 0, -2}, err: ErrPlateDirectionNormal},
		{name: "wall ref along its normal", corners: []Vec3{{0, 0, 0}, {2, 0, 0}, {2, 0, 3}, {0, 0, 3}}, ref: Vec3{0, 1, 0},
			err: ErrPlateDirectionNormal},
		{name: "zero ref", corners: square, err: ErrPlateDirectionNormal},
		{name: "NaN ref", corners: square, ref: Vec3{math.NaN(), 0, 0}, err: ErrPlateDirectionNormal},
		{name: "node at A", corners: moved, ref: Vec3{2, 2, 0}, byNode: true, err: ErrPlateDirectionNormal},
		{name: "node above A", corners: moved, ref: Vec3{2, 2, 5}, byNode: true, err: ErrPlateDirectionNormal},
		// The plate is checked before the reference is used.
		{name: "collinear plate", corners: []Vec3{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, ref: Vec3{1, 0, 0},
			err: ErrDegeneratePlate},
		{name: "node with no corners", ref: Vec3{1, 0, 0}, byNode: true, err: ErrDegeneratePlate},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var a PlateFrame
			var err error
			if tc.byNode {
				a, err = PlateAxesTowardNode(tc.corners, tc.ref)
			} else {
				a, err = PlateAxesToward(tc.corners, tc.ref)
			}
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("error %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkFrame(t, a, tc.x, tc.y, tc.z)
		})
	}
}

func TestPlateAxesTowardAgreesWithPlateAxes(t *testing.T) {
	// Aiming at the direction angle's own x must give back the same frame,
	// so a plate does not turn when its direction changes from an angle to
	// the matching reference. The rotated quad has no axis-aligned vectors
	// to hide an error in.
	plates := [][]Vec3{
		{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
		{rotate(Vec3{0, 0, 0}), rotate(Vec3{3, 0, 0.1}), rotate(Vec3{3, 2, 0}), rotate(Vec3{0, 2, 0.1})},
	}
	for _, p := range plates {
		for _, angle := range []float64{0, 30, -135} {
			want, err := PlateAxes(p, angle)
			if err != nil {
				t.Fatal(err)
			}
			// Adding any multiple of the normal must not matter.
			got, err := PlateAxesToward(p, want.X.Scale(2).Add(want.Z.Scale(-3)))
			if err != nil {
				t.Fatal(err)
			}
			if !vecClose(got.X, want.X, 1e-12) || !vecClose(got.Y, want.Y, 1e-12) || got.Z != want.Z {
				t.Errorf("angle %g: %+v, want %+v", angle, got, want)
			}
		}
	}
}

func TestOffsetCorners(t *testing.T) {
	square := []Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}
	out, err := OffsetCorners(square, Vec3{0, 0, 2}, -0.25)
	if err != nil {
		t.Fatal(err)
	}
	for i := range square {
		if want := square[i].Add(Vec3{0, 0, -0.25}); out[i] != want {
			t.Errorf("corner %d: %v, want %v", i, out[i], want)
		}
	}
	if square[0] != (Vec3{}) {
		t.Error("input changed")
	}
	if _, err := OffsetCorners(square, Vec3{}, 1); err == nil {
		t.Error("zero normal accepted")
	}
	if _, err := OffsetCorners(square, Vec3{0, 0, 1}, math.Inf(1)); err == nil {
		t.Error("infinite offset accepted")
	}
}
