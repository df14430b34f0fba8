package movingload

import (
	"math"

	"github.com/gusset/gusset/pkg/fem/geom"
)

// frame is the plan frame of a job: up, and the two global axes spanning
// the plan ((X, Z) when Y is up, (X, Y) when Z is up).
type frame struct {
	up     geom.Vec3
	i1, i2 int // indices of the plan axes
	iu     int // index of the up axis
}

func newFrame(zUp bool) frame {
	if zUp {
		return frame{up: geom.Vec3{0, 0, 1}, i1: 0, i2: 1, iu: 2}
	}
	return frame{up: geom.Vec3{0, 1, 0}, i1: 0, i2: 2, iu: 1}
}

// plan projects a point onto the plan.
func (f frame) plan(v geom.Vec3) [2]float64 { return [2]float64{v[f.i1], v[f.i2]} }

// height is a point's coordinate along up.
func (f frame) height(v geom.Vec3) float64 { return v[f.iu] }

// horizontal is the unit horizontal part of a direction (the direction
// itself when it is vertical, which a travel path never is in practice).
func (f frame) horizontal(t geom.Vec3) geom.Vec3 {
	h := t.Sub(f.up.Scale(t.Dot(f.up)))
	if u, ok := h.Unit(); ok {
		return u
	}
	return t
}

// vehicleAxes maps a direction of travel to the vehicle's x (horizontal
// tangent), y (left normal) and z (up) in global components.
func (f frame) vehicleAxes(t geom.Vec3) (x, y, z geom.Vec3) {
	x = f.horizontal(t)
	return x, f.up.Cross(x), f.up
}

// toGlobal maps vehicle-frame components onto global ones.
func toGlobal(x, y, z geom.Vec3, c [3]float64) geom.Vec3 {
	return x.Scale(c[0]).Add(y.Scale(c[1])).Add(z.Scale(c[2]))
}

// pt2 is a plan point.
type pt2 = [2]float64

func sub2(a, b pt2) pt2             { return pt2{a[0] - b[0], a[1] - b[1]} }
func cross2(a, b pt2) float64       { return a[0]*b[1] - a[1]*b[0] }
func dot2(a, b pt2) float64         { return a[0]*b[0] + a[1]*b[1] }
func lerp2(a, b pt2, t float64) pt2 { return pt2{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1])} }

// ccw returns the ring counter-clockwise (a copy when it is reversed).
func ccw(ring []pt2) []pt2 {
	if geom.PolygonArea(ring) >= 0 {
		return ring
	}
	out := make([]pt2, len(ring))
	for i, p := range ring {
		out[len(ring)-1-i] = p
	}
	return out
}

// clipConvex clips the ring subject (any simple ring) by the convex,
// counter-clockwise ring clip (Sutherland–Hodgman). The result may carry
// zero-width slivers where a non-convex subject is cut in two; its signed
// area, and any integral over it taken as a signed fan, is still exact.
func clipConvex(subject, clip []pt2) []pt2 {
	out := subject
	for i := range clip {
		if len(out) == 0 {
			return nil
		}
		a, b := clip[i], clip[(i+1)%len(clip)]
		edge := sub2(b, a)
		in := out
		out = make([]pt2, 0, len(in)+2)
		for j := range in {
			p, q := in[j], in[(j+1)%len(in)]
			dp, dq := cross2(edge, sub2(p, a)), cross2(edge, sub2(q, a))
			if dp >= 0 {
				out = append(out, p)
			}
			if (dp >= 0) != (dq >= 0) {
				out = append(out, lerp2(p, q, dp/(dp-dq)))
			}
		}
	}
	if len(out) < 3 {
		return nil
	}
	return out
}

// isConvex reports whether a counter-clockwise ring turns left (or goes
// straight) at every corner.
func isConvex(ring []pt2) bool {
	n := len(ring)
	for i := range n {
		a, b, c := ring[i], ring[(i+1)%n], ring[(i+2)%n]
		if cross2(sub2(b, a), sub2(c, b)) < -1e-12*(dot2(sub2(b, a), sub2(b, a))+dot2(sub2(c, b), sub2(c, b))) {
			return false
		}
	}
	return true
}

// triRule is the 7-point Gauss rule on a triangle, exact for polynomials of
// degree 5 (Dunavant 1985, rule 5): barycentric points and weights that sum
// to 1.
var triRule = func() [7]struct {
	l [3]float64
	w float64
} {
	a1, b1 := 0.059715871789770, 0.470142064105115
	a2, b2 := 0.797426985353087, 0.101286507323456
	w0, w1, w2 := 0.225, 0.132394152788506, 0.125939180544827
	var r [7]struct {
		l [3]float64
		w float64
	}
	r[0].l, r[0].w = [3]float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, w0
	r[1].l, r[2].l, r[3].l = [3]float64{a1, b1, b1}, [3]float64{b1, a1, b1}, [3]float64{b1, b1, a1}
	r[4].l, r[5].l, r[6].l = [3]float64{a2, b2, b2}, [3]float64{b2, a2, b2}, [3]float64{b2, b2, a2}
	for i := 1; i <= 3; i++ {
		r[i].w = w1
	}
	for i := 4; i <= 6; i++ {
		r[i].w = w2
	}
	return r
}()

// integrate calls f at the quadrature points of the ring taken as a signed
// fan from its first point, with the weight (area) each point stands for.
// Weights sum to the ring's signed area.
func integrate(ring []pt2, f func(p pt2, w float64)) {
	o := ring[0]
	for i := 1; i+1 < len(ring); i++ {
		a, b := ring[i], ring[i+1]
		area := cross2(sub2(a, o), sub2(b, o)) / 2
		if area == 0 {
			continue
		}
		for _, q := range triRule {
			p := pt2{q.l[0]*o[0] + q.l[1]*a[0] + q.l[2]*b[0], q.l[0]*o[1] + q.l[1]*a[1] + q.l[2]*b[1]}
			f(p, q.w*area)
		}
	}
}

// shape returns the shape-function values of a plate (3 or 4 plan
// corners, counter-clockwise or not) at plan point p: barycentric
// coordinates for a triangle, bilinear functions at the inverse-mapped
// natural coordinates for a quadrilateral. They sum to 1.
func shape(c []pt2, p pt2) []float64 {
	if len(c) == 3 {
		d := cross2(sub2(c[1], c[0]), sub2(c[2], c[0]))
		l1 := cross2(sub2(c[2], c[1]), sub2(p, c[1])) / d
		l2 := cross2(sub2(c[0], c[2]), sub2(p, c[2])) / d
		return []float64{l1, l2, 1 - l1 - l2}
	}
	xi, eta := inverseBilinear(c, p)
	return []float64{(1 - xi) * (1 - eta) / 4, (1 + xi) * (1 - eta) / 4, (1 + xi) * (1 + eta) / 4, (1 - xi) * (1 + eta) / 4}
}

// inverseBilinear finds the natural coordinates (ξ, η) of p in the
// bilinear quadrilateral c by Newton's method from the centre; for a plate
// that is convex in plan it converges in a few steps.
func inverseBilinear(c []pt2, p pt2) (xi, eta float64) {
	for it := 0; it < 30; it++ {
		n := [4]float64{(1 - xi) * (1 - eta) / 4, (1 + xi) * (1 - eta) / 4, (1 + xi) * (1 + eta) / 4, (1 - xi) * (1 + eta) / 4}
		dxi := [4]float64{-(1 - eta) / 4, (1 - eta) / 4, (1 + eta) / 4, -(1 + eta) / 4}
		deta := [4]float64{-(1 - xi) / 4, -(1 + xi) / 4, (1 + xi) / 4, (1 - xi) / 4}
		var x, jx, je pt2
		for k := range 4 {
			for d := range 2 {
				x[d] += n[k] * c[k][d]
				jx[d] += dxi[k] * c[k][d]
				je[d] += deta[k] * c[k][d]
			}
		}
		r := sub2(p, x)
		det := cross2(jx, je)
		if det == 0 {
			return xi, eta
		}
		// Solve [jx je]·(dξ, dη) = r by Cramer's rule (2×2).
		dx, de := cross2(r, je)/det, cross2(jx, r)/det
		xi, eta = xi+dx, eta+de
		if math.Abs(dx)+math.Abs(de) < 1e-14 {
			break
		}
	}
	return xi, eta
}
