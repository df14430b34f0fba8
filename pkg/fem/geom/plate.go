package geom

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// ErrDegeneratePlate is matched (errors.Is) by every [*PlateError], so that a
// caller can test for any plate defect without listing them.
var ErrDegeneratePlate = errors.New("degenerate plate")

// PlateDefect says why a plate has no usable geometry.
type PlateDefect int

// The plate defects, one per way a user's corners can fail, so that a caller
// can react to the kind and not parse the message.
const (
	WrongCornerCount  PlateDefect = iota + 1 // not 3 or 4 corners
	NonFiniteCorner                          // a coordinate is NaN or infinite
	CoincidentCorners                        // two corners at one point
	CollinearCorners                         // three corners on a line (a triangle, or a quad's straight angle)
	ZeroPlateArea                            // the corners enclose no area
	NonConvexQuad                            // a quad with a re-entrant corner
	SelfCrossingQuad                         // a quad whose edges cross (bow-tie)
)

// PlateError reports a degenerate plate, so that a caller can leave the
// plate out of a list and say why. The message names the corners by letter.
type PlateError struct {
	Defect PlateDefect
	// Corners are the 0-based indices of the corners concerned (A = 0).
	Corners []int
	msg     string
}

// Error implements error.
func (e *PlateError) Error() string { return "plate: " + e.msg }

// Is makes errors.Is(err, ErrDegeneratePlate) true.
func (e *PlateError) Is(target error) bool { return target == ErrDegeneratePlate }

func plateErr(d PlateDefect, corners []int, format string, args ...any) *PlateError {
	return &PlateError{Defect: d, Corners: corners, msg: fmt.Sprintf(format, args...)}
}

// cornerNames spells corner indices as letters, e.g. "A, B and C".
func cornerNames(idx ...int) string {
	s := make([]string, len(idx))
	for i, k := range idx {
		s[i] = string(rune('A' + k))
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// PlateGeom is the geometry of a 3- or 4-node plate, computed once so that
// the editor's report and the checks on a plate agree.
type PlateGeom struct {
	// Area, m². For a quad it is the area projected onto the mean plane,
	// ½|(C−A)×(D−B)|, which is exact for a flat quad and, for a warped
	// one, does not depend on which diagonal splits it.
	Area float64
	// Perimeter is the sum of the edge lengths, m.
	Perimeter float64
	// Centroid is the area centroid. A quad's is the area-weighted mean of
	// its two triangles' centroids, averaged over both diagonal splits so
	// that a warped quad's centroid does not depend on the corner labels.
	Centroid Vec3
	// Normal is the unit normal (see the package documentation).
	Normal Vec3
	// WarpHeight is the distance of each corner of a quad from its mean
	// plane, m (the plane through the corners' mean with normal Normal; all
	// four corners are equally far from it, alternately above and below).
	// Zero for a triangle.
	WarpHeight float64
	// WarpRatio is WarpHeight / √Area, a size-free measure of warp for
	// comparison with a limit; zero for a flat plate.
	WarpRatio float64
}

// PlateGeometry returns the geometry of a plate with corners A, B, C[, D]
// in order. A plate that has no sound geometry (wrong corner count,
// coincident corners, collinear corners, zero area, or a non-convex or
// self-crossing quad) is a [*PlateError].
func PlateGeometry(corners []Vec3) (PlateGeom, error) {
	n := len(corners)
	if n != 3 && n != 4 {
		return PlateGeom{}, plateErr(WrongCornerCount, nil, "needs 3 or 4 corners, got %d", n)
	}
	for i, c := range corners {
		if !c.IsFinite() {
			return PlateGeom{}, plateErr(NonFiniteCorner, []int{i}, "corner %s %v is not finite", cornerNames(i), c)
		}
	}
	size := scale3(corners)
	tol := RelTol * size
	for i := range n {
		for j := i + 1; j < n; j++ {
			if corners[i].Sub(corners[j]).HypotNorm() <= tol {
				return PlateGeom{}, plateErr(CoincidentCorners, []int{i, j}, "corners %s coincide", cornerNames(i, j))
			}
		}
	}
	var g PlateGeom
	for i := range n {
		g.Perimeter += corners[(i+1)%n].Sub(corners[i]).HypotNorm()
	}
	if n == 3 {
		return g, triangleGeometry(corners, size, &g)
	}
	return g, quadGeometry(corners, size, &g)
}

func triangleGeometry(c []Vec3, size float64, g *PlateGeom) error {
	a, b, cc := c[0], c[1], c[2]
	nv := b.Sub(a).Cross(cc.Sub(a))
	if nv.HypotNorm()/2 <= RelTol*size*size {
		return plateErr(CollinearCorners, []int{0, 1, 2}, "corners A, B and C are collinear (zero area)")
	}
	g.Area = nv.HypotNorm() / 2
	g.Normal, _ = nv.Unit()
	g.Centroid = a.Add(b).Add(cc).Scale(1.0 / 3)
	return nil
}

func quadGeometry(c []Vec3, size float64, g *PlateGeom) error {
	a, b, cc, d := c[0], c[1], c[2], c[3]
	areaTol := RelTol * size * size
	nv := cc.Sub(a).Cross(d.Sub(b))
	if nv.HypotNorm()/2 <= areaTol {
		// Parallel diagonals: either all four corners lie on one line, or
		// the edges cross (a planar quad whose diagonals do not meet).
		if b.Sub(a).Cross(cc.Sub(a)).HypotNorm() <= areaTol && b.Sub(a).Cross(d.Sub(a)).HypotNorm() <= areaTol {
			return plateErr(ZeroPlateArea, []int{0, 1, 2, 3}, "corners A, B, C and D are collinear (zero area)")
		}
		return plateErr(SelfCrossingQuad, []int{0, 1, 2, 3}, "edges cross (bow-tie): the diagonals AC and BD are parallel")
	}
	n, _ := nv.Unit()
	g.Normal = n
	g.Area = nv.HypotNorm() / 2

	// Turn at each corner about the mean normal: positive for a convex
	// corner. One negative turn is a re-entrant corner; two or more mean
	// the boundary crosses itself.
	var neg []int
	for i := range 4 {
		prev, cur, next := c[(i+3)%4], c[i], c[(i+1)%4]
		turn := cur.Sub(prev).Cross(next.Sub(cur)).Dot(n)
		switch {
		case math.Abs(turn) <= areaTol:
			return plateErr(CollinearCorners, []int{(i + 3) % 4, i, (i + 1) % 4},
				"corners %s are collinear (a straight angle at %s)", cornerNames((i+3)%4, i, (i+1)%4), cornerNames(i))
		case turn < 0:
			neg = append(neg, i)
		}
	}
	switch len(neg) {
	case 0:
	case 1:
		return plateErr(NonConvexQuad, neg, "quad is not convex: re-entrant corner at %s", cornerNames(neg[0]))
	default:
		return plateErr(SelfCrossingQuad, neg, "edges cross (bow-tie): corners %s turn the wrong way", cornerNames(neg...))
	}

	// Split by AC and by BD; each split's projected triangle areas add up
	// to Area exactly, since (B−A)×(C−A) + (C−A)×(D−A) = (C−A)×(D−B).
	split := func(p, q, r, s Vec3) Vec3 {
		a1 := q.Sub(p).Cross(r.Sub(p)).Dot(n) / 2
		a2 := r.Sub(p).Cross(s.Sub(p)).Dot(n) / 2
		g1 := p.Add(q).Add(r).Scale(1.0 / 3)
		g2 := p.Add(r).Add(s).Scale(1.0 / 3)
		return g1.Scale(a1).Add(g2.Scale(a2)).Scale(1 / (a1 + a2))
	}
	g.Centroid = split(a, b, cc, d).Add(split(b, cc, d, a)).Scale(0.5)

	mean := a.Add(b).Add(cc).Add(d).Scale(0.25)
	g.WarpHeight = math.Abs(a.Sub(mean).Dot(n))
	g.WarpRatio = g.WarpHeight / math.Sqrt(g.Area)
	return nil
}

// PlateFrame is a plate's local axes, a right-handed orthonormal triad of
// unit vectors in global coordinates. It is a struct of named vectors rather
// than a [Rotation] because plates are built by the model, which reports the
// axes by name; the rows of a Rotation are the same three vectors.
type PlateFrame struct {
	X, Y, Z Vec3
}

// PlateAxes returns a plate's local axes (see the package documentation):
// z the unit normal of [PlateGeometry], x along A→B projected into the
// plate's plane and then rotated about z by dirAngleDegrees
// (counter-clockwise seen from +z), y = z × x. Degenerate plates give the
// [*PlateError] of PlateGeometry.
func PlateAxes(corners []Vec3, dirAngleDegrees float64) (PlateFrame, error) {
	g, err := PlateGeometry(corners)
	if err != nil {
		return PlateFrame{}, err
	}
	if math.IsNaN(dirAngleDegrees) || math.IsInf(dirAngleDegrees, 0) {
		return PlateFrame{}, fmt.Errorf("plate direction angle %g is not finite", dirAngleDegrees)
	}
	z := g.Normal
	ab := corners[1].Sub(corners[0])
	x0, ok := ab.Sub(z.Scale(ab.Dot(z))).Unit()
	if !ok {
		// Only a grossly warped quad can have A→B along its mean normal.
		return PlateFrame{}, plateErr(CollinearCorners, []int{0, 1}, "edge AB is normal to the plate's mean plane")
	}
	y0 := z.Cross(x0)
	th := dirAngleDegrees * math.Pi / 180
	x := x0.Scale(math.Cos(th)).Add(y0.Scale(math.Sin(th)))
	// Renormalising x and recomputing y from it keeps the triad orthonormal
	// to rounding, whatever the angle.
	x, _ = x.Unit()
	return PlateFrame{X: x, Y: z.Cross(x), Z: z}, nil
}

// ErrPlateDirectionNormal is returned by [PlateAxesToward] and
// [PlateAxesTowardNode] when the reference has no component in the plate's
// plane, so that a caller can tell the user to pick another direction
// rather than fix the plate.
var ErrPlateDirectionNormal = errors.New("plate: reference direction is normal to the plate")

// PlateAxesToward returns a plate's local axes for a reference direction
// ref, such as a global axis (see the package documentation): z the unit
// normal of [PlateGeometry], x the unit component of ref in the plate's
// plane, y = z × x. ref need not be of unit length. A ref whose in-plane
// part is exactly zero (along the normal of an axis-aligned plate, or zero)
// or not finite is [ErrPlateDirectionNormal]; degenerate plates give the
// [*PlateError] of PlateGeometry.
func PlateAxesToward(corners []Vec3, ref Vec3) (PlateFrame, error) {
	g, err := PlateGeometry(corners)
	if err != nil {
		return PlateFrame{}, err
	}
	return frameToward(g.Normal, ref)
}

// PlateAxesTowardNode returns a plate's local axes for a direction node at
// node: [PlateAxesToward] with ref = node − A, so that the node lies in the
// plane through A spanned by local x and z, on the +x side. A node at A is
// [ErrPlateDirectionNormal], as is one on the normal through A when
// PlateAxesToward would reject node − A.
func PlateAxesTowardNode(corners []Vec3, node Vec3) (PlateFrame, error) {
	g, err := PlateGeometry(corners)
	if err != nil {
		return PlateFrame{}, err
	}
	return frameToward(g.Normal, node.Sub(corners[0]))
}

// frameToward builds the frame about unit normal z with x along ref's
// in-plane part.
//
// TODO(geometry): the test is exact, with no tolerance, because it moved
// here from the editor unchanged and the reported axes must not change. So
// a ref along a tilted plate's normal leaves a rounding residue and gets a
// meaningless x instead of the error; a relative tolerance as in
// [LocalAxes] would fix that.
func frameToward(z, ref Vec3) (PlateFrame, error) {
	x, ok := ref.Sub(z.Scale(ref.Dot(z))).Unit()
	if !ok {
		return PlateFrame{}, ErrPlateDirectionNormal
	}
	return PlateFrame{X: x, Y: z.Cross(x), Z: z}, nil
}

// OffsetCorners returns the corners moved by offset (m) along normal, for
// example to place a plate's reference surface above or below its nodes.
// normal need not be of unit length: its direction is used. A zero or
// non-finite normal is an error, since it has no direction. The input slice
// is not changed.
func OffsetCorners(corners []Vec3, normal Vec3, offset float64) ([]Vec3, error) {
	u, ok := normal.Unit()
	if !ok {
		return nil, fmt.Errorf("offset direction %v has no direction", normal)
	}
	if math.IsNaN(offset) || math.IsInf(offset, 0) {
		return nil, fmt.Errorf("offset %g is not finite", offset)
	}
	d := u.Scale(offset)
	out := make([]Vec3, len(corners))
	for i, c := range corners {
		out[i] = c.Add(d)
	}
	return out, nil
}

// scale3 is the bounding-box diagonal of the points.
func scale3(pts []Vec3) float64 {
	lo := Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := Vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, p := range pts {
		for k := range 3 {
			lo[k] = math.Min(lo[k], p[k])
			hi[k] = math.Max(hi[k], p[k])
		}
	}
	return hi.Sub(lo).HypotNorm()
}
