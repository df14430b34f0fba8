package geom

import (
	"errors"
	"fmt"
	"math"
)

// ErrInvalidPolygon is matched (errors.Is) by every [*PolygonError].
var ErrInvalidPolygon = errors.New("invalid polygon")

// PolygonDefect says what makes a polygon unusable.
type PolygonDefect int

// The polygon defects, in the order ValidateSimplePolygon checks them.
const (
	TooFewPoints     PolygonDefect = iota + 1 // fewer than 3 points
	NonFinitePoint                            // a coordinate is NaN or infinite
	RepeatedPoint                             // two consecutive points coincide
	SelfIntersection                          // two edges cross, touch or overlap
	ZeroArea                                  // the ring encloses no area
)

// PolygonError reports why a polygon is not simple. Its message says what is
// wrong and where, numbering points from 1, e.g. "edges 1–2 and 3–4 cross".
type PolygonError struct {
	Defect PolygonDefect
	// Points are the 0-based indices of the points concerned: for an edge
	// pair, the start points of the two edges.
	Points []int
	msg    string
}

// Error implements error.
func (e *PolygonError) Error() string { return "polygon: " + e.msg }

// Is makes errors.Is(err, ErrInvalidPolygon) true.
func (e *PolygonError) Is(target error) bool { return target == ErrInvalidPolygon }

// PolygonArea returns the signed area of the ring by the shoelace formula:
// positive when the points run counter-clockwise. Coordinates are taken
// relative to the first point, because site coordinates far from the origin
// would otherwise cancel catastrophically in the cross products.
func PolygonArea(pts [][2]float64) float64 {
	if len(pts) < 3 {
		return 0
	}
	o := pts[0]
	var s float64
	for i := 1; i+1 < len(pts); i++ {
		s += cross2(sub2(pts[i], o), sub2(pts[i+1], o))
	}
	return s / 2
}

// PointInPolygon reports whether p lies inside the ring or on its boundary.
// The boundary counts as inside because a load on the edge of a loaded area
// is meant to be applied. For a ring that is not simple the even-odd rule
// applies. Fewer than 3 points enclose nothing.
func PointInPolygon(p [2]float64, pts [][2]float64) bool {
	n := len(pts)
	if n < 3 {
		return false
	}
	tol := RelTol * scale2(pts)
	inside := false
	for i := range n {
		a, b := pts[i], pts[(i+1)%n]
		if sideOf(a, b, p, tol) == 0 && onSegment(a, b, p, tol) {
			return true
		}
		// Crossing number: count edges that straddle the horizontal ray from
		// p to +x; the half-open test (a above, b not) counts a vertex once.
		if (a[1] > p[1]) != (b[1] > p[1]) {
			x := a[0] + (p[1]-a[1])*(b[0]-a[0])/(b[1]-a[1])
			if x > p[0] {
				inside = !inside
			}
		}
	}
	return inside
}

// ValidateSimplePolygon checks that pts is a simple polygon: at least three
// finite points, no two consecutive points equal (including the last and
// the first), no edge crossing, touching or overlapping another, except that
// adjacent edges share their common point, and a non-zero area. The error
// is a [*PolygonError] naming the points at fault.
func ValidateSimplePolygon(pts [][2]float64) error {
	n := len(pts)
	if n < 3 {
		return &PolygonError{Defect: TooFewPoints, msg: fmt.Sprintf("needs at least 3 points, got %d", n)}
	}
	for i, p := range pts {
		if math.IsNaN(p[0]) || math.IsInf(p[0], 0) || math.IsNaN(p[1]) || math.IsInf(p[1], 0) {
			return &PolygonError{Defect: NonFinitePoint, Points: []int{i},
				msg: fmt.Sprintf("point %d (%g, %g) is not finite", i+1, p[0], p[1])}
		}
	}
	size := scale2(pts)
	tol := RelTol * size
	for i := range n {
		j := (i + 1) % n
		if dist(pts[i], pts[j]) <= tol {
			msg := fmt.Sprintf("points %d and %d coincide", i+1, j+1)
			if j == 0 {
				msg += " (the ring closes by itself: do not repeat the first point at the end)"
			}
			return &PolygonError{Defect: RepeatedPoint, Points: []int{i, j}, msg: msg}
		}
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if err := checkEdgePair(pts, i, j, tol); err != nil {
				return err
			}
		}
	}
	if a := PolygonArea(pts); math.Abs(a) <= RelTol*size*size {
		return &PolygonError{Defect: ZeroArea, msg: fmt.Sprintf("has zero area (%g)", a)}
	}
	return nil
}

// checkEdgePair tests edges i and j (i < j) of the ring for any contact
// other than the point that adjacent edges share.
func checkEdgePair(pts [][2]float64, i, j int, tol float64) error {
	n := len(pts)
	a, b := pts[i], pts[(i+1)%n]
	c, d := pts[j], pts[(j+1)%n]
	fail := func(format string, args ...any) error {
		return &PolygonError{Defect: SelfIntersection, Points: []int{i, j}, msg: fmt.Sprintf(format, args...)}
	}
	ei, ej := edgeName(i, n), edgeName(j, n)

	// Adjacent edges meet at one shared point v; they go wrong only by
	// running back along each other from v (a zero-width spike).
	if j == i+1 || (i == 0 && j == n-1) {
		v, p, q := b, a, d // edge i ends where edge j starts
		at := j
		if j != i+1 { // edge j = n-1 ends where edge i = 0 starts
			v, p, q, at = a, b, c, i
		}
		u, w := sub2(p, v), sub2(q, v)
		if math.Abs(cross2(u, w)) <= tol*math.Max(norm2(u), norm2(w)) && u[0]*w[0]+u[1]*w[1] > 0 {
			return fail("edges %s and %s overlap: the boundary doubles back at point %d", ei, ej, at+1)
		}
		return nil
	}

	s1, s2 := sideOf(c, d, a, tol), sideOf(c, d, b, tol)
	s3, s4 := sideOf(a, b, c, tol), sideOf(a, b, d, tol)
	switch {
	case s1*s2 < 0 && s3*s4 < 0:
		return fail("edges %s and %s cross", ei, ej)
	case s1 == 0 && s2 == 0: // all four points on one line
		if lo, hi := overlap1D(a, b, c, d); hi-lo > tol {
			return fail("edges %s and %s overlap", ei, ej)
		} else if hi-lo >= -tol {
			return fail("edges %s and %s touch end to end", ei, ej)
		}
		return nil
	}
	// One edge's end point touching the other edge.
	for _, t := range []struct {
		side   int
		p      [2]float64
		idx    int
		e0, e1 [2]float64
		edge   string
	}{
		{s1, a, i, c, d, ej}, {s2, b, (i + 1) % n, c, d, ej},
		{s3, c, j, a, b, ei}, {s4, d, (j + 1) % n, a, b, ei},
	} {
		if t.side == 0 && onSegment(t.e0, t.e1, t.p, tol) {
			return fail("point %d lies on edge %s", t.idx+1, t.edge)
		}
	}
	return nil
}

// edgeName names edge i by its end points, numbered from 1.
func edgeName(i, n int) string { return fmt.Sprintf("%d–%d", i+1, (i+1)%n+1) }

// sideOf returns +1, −1 or 0 as p lies left of, right of, or on the line
// through a and b, within tol measured as a distance from the line.
func sideOf(a, b, p [2]float64, tol float64) int {
	o := orient(a, b, p)
	if math.Abs(o) <= tol*norm2(sub2(b, a)) {
		return 0
	}
	if o > 0 {
		return 1
	}
	return -1
}

// overlap1D returns the overlap [lo, hi] of collinear segments ab and cd as
// positions along ab's direction; hi < lo when they are disjoint.
func overlap1D(a, b, c, d [2]float64) (lo, hi float64) {
	u := sub2(b, a)
	l := norm2(u)
	u = [2]float64{u[0] / l, u[1] / l}
	at := func(p [2]float64) float64 { return (p[0]-a[0])*u[0] + (p[1]-a[1])*u[1] }
	tc, td := at(c), at(d)
	return math.Max(0, math.Min(tc, td)), math.Min(l, math.Max(tc, td))
}

// onSegment reports whether p, already known to be on the line through a and
// b, lies between them (inclusive, within tol).
func onSegment(a, b, p [2]float64, tol float64) bool {
	return p[0] >= math.Min(a[0], b[0])-tol && p[0] <= math.Max(a[0], b[0])+tol &&
		p[1] >= math.Min(a[1], b[1])-tol && p[1] <= math.Max(a[1], b[1])+tol
}

// orient is twice the signed area of triangle abc: positive when a, b, c
// turn counter-clockwise.
func orient(a, b, p [2]float64) float64 { return cross2(sub2(b, a), sub2(p, a)) }

func cross2(u, v [2]float64) float64  { return u[0]*v[1] - u[1]*v[0] }
func sub2(a, b [2]float64) [2]float64 { return [2]float64{a[0] - b[0], a[1] - b[1]} }
func norm2(u [2]float64) float64      { return math.Hypot(u[0], u[1]) }
func dist(a, b [2]float64) float64    { return norm2(sub2(a, b)) }

// scale2 is the bounding-box diagonal of the points, the length the
// tolerances are relative to.
func scale2(pts [][2]float64) float64 {
	lo := [2]float64{math.Inf(1), math.Inf(1)}
	hi := [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, p := range pts {
		for k := range 2 {
			lo[k] = math.Min(lo[k], p[k])
			hi[k] = math.Max(hi[k], p[k])
		}
	}
	return dist(lo, hi)
}
