package geom

import (
	"errors"
	"fmt"
	"math"
)

// Axis names a signed global axis. Job files, load directions, direction
// axes and the vertical axis all name axes this way, so one type serves them.
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

// Vector returns the unit vector of the axis; ok is false for an unknown
// axis, so that a bad value from a file is reported rather than used.
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

// String returns the axis name as used in job files, so that messages name
// the axis the way the user wrote it.
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

// DirectionKind selects how a member's local y axis is chosen, because users
// orient members by angle, by a node or by a global axis.
type DirectionKind int

// Direction kinds; see the package doc for the exact rules.
const (
	DirectionAngle DirectionKind = iota // reference direction, then Angle
	DirectionNode                       // toward Direction.Node, then Angle
	DirectionAxis                       // along Direction.Axis, then Angle
)

// Direction is a member's orientation about its own axis: the input of
// [LocalAxes] besides the end points, kept apart from them so that the same
// orientation can be reused for the node-to-node and the offset line.
type Direction struct {
	Kind  DirectionKind
	Angle float64 // rotation of y and z about x, rad, applied last in every kind
	Node  Vec3    // coordinates of the direction node (DirectionNode)
	Axis  Axis    // direction axis (DirectionAxis)
}

// Rotation is a 3×3 orthonormal matrix whose rows are the local x, y and z
// unit vectors in global coordinates: v_local = R·v_global. Rows rather than
// columns let the local axes be read off directly ([Rotation.X]).
type Rotation [3][3]float64

// Identity is the rotation of a frame whose local axes are the global ones,
// for nodes and elements that have no axes of their own.
var Identity = Rotation{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

// X returns the local x unit vector in global coordinates, for reporting a
// member's axes and for building loads along them.
func (r Rotation) X() Vec3 { return Vec3(r[0]) }

// Y returns the local y unit vector in global coordinates; see [Rotation.X].
func (r Rotation) Y() Vec3 { return Vec3(r[1]) }

// Z returns the local z unit vector in global coordinates; see [Rotation.X].
func (r Rotation) Z() Vec3 { return Vec3(r[2]) }

// Errors returned by LocalAxes (ErrBadAxis also by callers that decode an
// Axis), for errors.Is, so that callers can tell the user which input is
// degenerate.
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

// Mul returns r·q: first q, then r. It composes a member's axes with a
// further turn such as [AboutX].
func (r Rotation) Mul(q Rotation) Rotation {
	var out Rotation
	for i := range 3 {
		for j := range 3 {
			out[i][j] = r[i][0]*q[0][j] + r[i][1]*q[1][j] + r[i][2]*q[2][j]
		}
	}
	return out
}

// Transpose returns rᵀ, the inverse rotation: cheaper and exact compared
// with a general inverse, since r is orthonormal.
func (r Rotation) Transpose() Rotation {
	var out Rotation
	for i := range 3 {
		for j := range 3 {
			out[i][j] = r[j][i]
		}
	}
	return out
}

// Apply returns R·v: a global vector in local components, e.g. a global
// load on a member.
func (r Rotation) Apply(v Vec3) Vec3 {
	return Vec3{r[0][0]*v[0] + r[0][1]*v[1] + r[0][2]*v[2],
		r[1][0]*v[0] + r[1][1]*v[1] + r[1][2]*v[2],
		r[2][0]*v[0] + r[2][1]*v[1] + r[2][2]*v[2]}
}

// ApplyT returns Rᵀ·v: local components back in global axes, e.g. a local
// offset or end force, without forming Rᵀ.
func (r Rotation) ApplyT(v Vec3) Vec3 {
	return Vec3{r[0][0]*v[0] + r[1][0]*v[1] + r[2][0]*v[2],
		r[0][1]*v[0] + r[1][1]*v[1] + r[2][1]*v[2],
		r[0][2]*v[0] + r[1][2]*v[1] + r[2][2]*v[2]}
}
