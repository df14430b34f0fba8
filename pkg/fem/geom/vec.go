package geom

import "math"

// Vec3 is a point or vector in 3-D, components x, y, z in m (or unitless for
// a direction). It is an array, not a struct, so that it converts to and
// from the rows of a [Rotation] and compares with ==.
type Vec3 [3]float64

// Add returns v + w.
func (v Vec3) Add(w Vec3) Vec3 { return Vec3{v[0] + w[0], v[1] + w[1], v[2] + w[2]} }

// Sub returns v − w.
func (v Vec3) Sub(w Vec3) Vec3 { return Vec3{v[0] - w[0], v[1] - w[1], v[2] - w[2]} }

// Scale returns s·v.
func (v Vec3) Scale(s float64) Vec3 { return Vec3{s * v[0], s * v[1], s * v[2]} }

// Dot returns the scalar product v·w.
func (v Vec3) Dot(w Vec3) float64 { return v[0]*w[0] + v[1]*w[1] + v[2]*w[2] }

// Cross returns the vector product v × w.
func (v Vec3) Cross(w Vec3) Vec3 {
	return Vec3{
		v[1]*w[2] - v[2]*w[1],
		v[2]*w[0] - v[0]*w[2],
		v[0]*w[1] - v[1]*w[0],
	}
}

// Norm returns the Euclidean length of v as √(v·v). The engine's member
// lengths, and so its golden results, are pinned to this rounding; it is
// also the faster form. It overflows for components beyond about 1e154 m,
// far outside any structure; use [Vec3.HypotNorm] where input is not
// bounded.
func (v Vec3) Norm() float64 { return math.Sqrt(v.Dot(v)) }

// HypotNorm returns the Euclidean length of v by math.Hypot, so that very
// large or very small components neither overflow nor underflow. The plate
// checks and [Vec3.Unit] use it because they judge arbitrary user input
// (any finite corner must give a finite size); it may differ from
// [Vec3.Norm] in the last bit.
func (v Vec3) HypotNorm() float64 { return math.Hypot(math.Hypot(v[0], v[1]), v[2]) }

// Unit returns v scaled to unit length. ok is false, and the zero vector
// returned, when v has zero length or a component that is not finite, since
// then it has no direction.
func (v Vec3) Unit() (u Vec3, ok bool) {
	n := v.HypotNorm()
	if n == 0 || math.IsInf(n, 0) || math.IsNaN(n) {
		return Vec3{}, false
	}
	return v.Scale(1 / n), true
}

// IsFinite reports whether every component of v is a finite number, so that
// input can be rejected before NaN or ±Inf spreads through a computation.
func (v Vec3) IsFinite() bool {
	for _, c := range v {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return false
		}
	}
	return true
}

// AddResultant adds the force and moment f = [Fx Fy Fz Mx My Mz] acting at
// p to acc, the resultant about the origin: the force adds, and the
// moment gains p × F.
func AddResultant(acc *[6]float64, p Vec3, f [6]float64) {
	m := p.Cross(Vec3{f[0], f[1], f[2]})
	for i := range 3 {
		acc[i] += f[i]
		acc[3+i] += f[3+i] + m[i]
	}
}
