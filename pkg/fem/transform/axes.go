package transform

import (
	"errors"
	"fmt"
	"math"
)

// Vec3 is a point or vector in 3-D, m.
type Vec3 [3]float64

// Add returns a + b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// Sub returns a − b.
func (a Vec3) Sub(b Vec3) Vec3 { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// Scale returns s·a.
func (a Vec3) Scale(s float64) Vec3 { return Vec3{s * a[0], s * a[1], s * a[2]} }

// Dot returns a·b.
func (a Vec3) Dot(b Vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// Cross returns a × b.
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Norm returns |a|.
func (a Vec3) Norm() float64 { return math.Sqrt(a.Dot(a)) }

// Axis names a signed global axis.
type Axis int

// Global axes. The zero value is "unset": as a vertical axis it means YAxis.
const (
	XAxis Axis = iota + 1
	YAxis
	ZAxis
	NegativeXAxis
	NegativeYAxis
	NegativeZAxis
)

// Vector returns the unit vector of the axis; ok is false for an unknown axis.
func (a Axis) Vector() (v Vec3, ok bool) {
	switch a {
	case XAxis:
		return Vec3{1, 0, 0}, true
	case YAxis:
		return Vec3{0, 1, 0}, true
	case ZAxis:
		return Vec3{0, 0, 1}, true
	case NegativeXAxis:
		return Vec3{-1, 0, 0}, true
	case NegativeYAxis:
		return Vec3{0, -1, 0}, true
	case NegativeZAxis:
		return Vec3{0, 0, -1}, true
	}
	return Vec3{}, false
}

// String returns the axis name as used in job files.
func (a Axis) String() string {
	switch a {
	case XAxis:
		return "XAxis"
	case YAxis:
		return "YAxis"
	case ZAxis:
		return "ZAxis"
	case NegativeXAxis:
		return "NegativeXAxis"
	case NegativeYAxis:
		return "NegativeYAxis"
	case NegativeZAxis:
		return "NegativeZAxis"
	}
	return fmt.Sprintf("Axis(%d)", int(a))
}

// DirectionKind selects how a member's local y axis is chosen.
type DirectionKind int

// Direction kinds; see the package doc for the exact rules.
const (
	DirectionAngle DirectionKind = iota // reference direction, then Angle
	DirectionNode                       // toward Direction.Node, then Angle
	DirectionAxis                       // along Direction.Axis, then Angle
)

// Direction is a member's orientation about its own axis.
type Direction struct {
	Kind  DirectionKind
	Angle float64 // rotation of y and z about x, rad, applied last in every kind
	Node  Vec3    // coordinates of the direction node (DirectionNode)
	Axis  Axis    // direction axis (DirectionAxis)
}

// Rotation is a 3×3 orthonormal matrix whose rows are the local x, y and z
// unit vectors in global coordinates: v_local = R·v_global.
type Rotation [3][3]float64

// Identity is the rotation of a member whose local axes are the global ones.
var Identity = Rotation{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

// X, Y and Z return the local unit vectors in global coordinates.
func (r Rotation) X() Vec3 { return Vec3(r[0]) }

// Y returns the local y unit vector in global coordinates.
func (r Rotation) Y() Vec3 { return Vec3(r[1]) }

// Z returns the local z unit vector in global coordinates.
func (r Rotation) Z() Vec3 { return Vec3(r[2]) }

// Errors returned by LocalAxes, for errors.Is.
var (
	ErrZeroLength    = errors.New("member has zero length")
	ErrNodeCollinear = errors.New("direction node lies on the member line")
	ErrAxisParallel  = errors.New("direction axis is parallel to the member")
	ErrBadAxis       = errors.New("unknown axis")
	ErrBadDirection  = errors.New("unknown direction kind")
	ErrBadVertical   = errors.New("vertical axis must be YAxis or ZAxis")
)

const (
	verticalTolerance = 1e-6 // rad: members closer than this to "up" use the vertical rule
	degenerateTol     = 1e-9 // relative: shorter perpendicular components are degenerate
)

// LocalAxes returns the member local axes for end coordinates a and b,
// orientation dir and the job's vertical axis (YAxis, ZAxis, or 0 for YAxis),
// following the convention in the package doc. It returns an error wrapping
// one of the Err values above for degenerate input.
func LocalAxes(a, b Vec3, dir Direction, vertical Axis) (Rotation, error) {
	var up Vec3
	switch vertical {
	case 0, YAxis:
		up = Vec3{0, 1, 0}
	case ZAxis:
		up = Vec3{0, 0, 1}
	default:
		return Rotation{}, fmt.Errorf("local axes: %w, got %v", ErrBadVertical, vertical)
	}
	d := b.Sub(a)
	L := d.Norm()
	if !(L > 0) || math.IsInf(L, 0) {
		return Rotation{}, fmt.Errorf("local axes: %w", ErrZeroLength)
	}
	x := d.Scale(1 / L)

	var y0 Vec3
	var ok bool
	switch dir.Kind {
	case DirectionAngle:
		if x.Cross(up).Norm() < verticalTolerance {
			y0 = Vec3{1, 0, 0}
		} else {
			y0 = up
		}
		y0, ok = perpUnit(y0, x, 1)
		if !ok { // cannot happen: up or X is well away from x here
			return Rotation{}, fmt.Errorf("local axes: %w", ErrAxisParallel)
		}
	case DirectionNode:
		p := dir.Node.Sub(a)
		y0, ok = perpUnit(p, x, math.Max(L, p.Norm()))
		if !ok {
			return Rotation{}, fmt.Errorf("local axes: %w", ErrNodeCollinear)
		}
	case DirectionAxis:
		v, good := dir.Axis.Vector()
		if !good {
			return Rotation{}, fmt.Errorf("local axes: %w %v", ErrBadAxis, dir.Axis)
		}
		y0, ok = perpUnit(v, x, 1)
		if !ok {
			return Rotation{}, fmt.Errorf("local axes: %w (%v)", ErrAxisParallel, dir.Axis)
		}
	default:
		return Rotation{}, fmt.Errorf("local axes: %w %d", ErrBadDirection, dir.Kind)
	}
	z0 := x.Cross(y0)
	s, c := math.Sincos(dir.Angle)
	y := y0.Scale(c).Add(z0.Scale(s))
	z := x.Cross(y)
	return Rotation{x, y, z}, nil
}

// perpUnit returns the unit component of v perpendicular to unit x; ok is
// false when that component is shorter than degenerateTol·scale.
func perpUnit(v, x Vec3, scale float64) (Vec3, bool) {
	p := v.Sub(x.Scale(v.Dot(x)))
	n := p.Norm()
	if !(n > degenerateTol*scale) {
		return Vec3{}, false
	}
	return p.Scale(1 / n), true
}

// AboutX returns the rotation by angle θ (rad) about the local x axis, the
// matrix that takes vectors from axes (x, y, z) to axes (x, y', z') with
// y' = cos θ·y + sin θ·z. It is used for a section's principal angle.
func AboutX(theta float64) Rotation {
	s, c := math.Sincos(theta)
	return Rotation{{1, 0, 0}, {0, c, s}, {0, -s, c}}
}

// Mul returns r·q: first q, then r.
func (r Rotation) Mul(q Rotation) Rotation {
	var out Rotation
	for i := range 3 {
		for j := range 3 {
			out[i][j] = r[i][0]*q[0][j] + r[i][1]*q[1][j] + r[i][2]*q[2][j]
		}
	}
	return out
}

// Transpose returns rᵀ, the inverse rotation.
func (r Rotation) Transpose() Rotation {
	var out Rotation
	for i := range 3 {
		for j := range 3 {
			out[i][j] = r[j][i]
		}
	}
	return out
}
