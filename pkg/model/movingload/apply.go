package movingload

import (
	"math"

	"github.com/gusset/gusset/pkg/fem/geom"
)

// inRing reports whether a plan point lies inside a ring or on its edge.
func inRing(q pt2, ring []pt2) bool { return geom.PointInPolygon(q, ring) }

// near reports whether an element at height h is within the vertical
// proximity of a load at height z (always, when the check is off).
func (g *Generator) near(z, h float64) bool {
	s := &g.in.Settings
	return !s.CheckVerticalProximity || math.Abs(z-h) <= s.VerticalProximity*(1+1e-12)
}

// plateAt finds the vertically nearest selected plate whose plan outline
// holds q, within the vertical proximity of height z, with its shape
// functions at q; ok is false when there is none.
func (g *Generator) plateAt(q pt2, z float64) (pl *plate, n []float64, ok bool) {
	best := math.Inf(1)
	for i := range g.plates {
		p := &g.plates[i]
		if q[0] < p.lo[0] || q[0] > p.hi[0] || q[1] < p.lo[1] || q[1] > p.hi[1] || !inRing(q, p.ring) {
			continue
		}
		sh := shape(p.outline, q)
		h := g.heightOf(p, sh)
		if d := math.Abs(h - z); g.near(z, h) && d < best {
			best, pl, n, ok = d, p, sh, true
		}
	}
	return pl, n, ok
}

// onPlate shares a point load among the corner nodes of the plate under
// it by the plate's shape functions (its consistent nodal loads).
func (g *Generator) onPlate(acc *accumulator, q pt2, z float64, f, mo geom.Vec3) bool {
	p, n, ok := g.plateAt(q, z)
	if !ok {
		return false
	}
	for k, id := range p.nodes {
		acc.node(id, f.Scale(n[k]), mo.Scale(n[k]))
	}
	return true
}

// foot is the nearest point of a member to a plan point: the parameter t
// along it (0 at A, 1 at B, clamped), the plan distance and the signed
// distance across the member (positive to its left in plan).
type foot struct {
	m      *member
	t      float64
	dist   float64
	across pt2 // plan vector from the load to the foot
}

// footOf finds the foot of q on m; ok is false when q lies beyond the
// member's ends (its projection outside the member, by more than
// round-off), where the member cannot carry it.
func footOf(m *member, q pt2) (foot, bool) {
	t := dot2(sub2(q, m.pa), m.dir) / m.plen
	if t < -1e-9 || t > 1+1e-9 {
		return foot{}, false
	}
	t = math.Max(0, math.Min(1, t))
	c := lerp2(m.pa, m.pb, t)
	d := sub2(c, q)
	return foot{m: m, t: t, dist: math.Hypot(d[0], d[1]), across: d}, true
}

// height of a member at parameter t.
func (g *Generator) memberHeight(m *member, t float64) float64 {
	return g.f.height(m.a) + t*(g.f.height(m.b)-g.f.height(m.a))
}

// onMembers applies a point load to the members: whole to the nearest
// with applyToClosestMember, else shared by the lever rule between the
// nearest and the nearest on its other side.
func (g *Generator) onMembers(acc *accumulator, q pt2, z float64, f, mo geom.Vec3) bool {
	var first foot
	found := false
	for i := range g.members {
		ft, ok := footOf(&g.members[i], q)
		if ok && (!found || ft.dist < first.dist) && g.near(z, g.memberHeight(ft.m, ft.t)) {
			first, found = ft, true
		}
	}
	if !found {
		return false
	}
	s := &g.in.Settings
	scale := math.Max(1, first.m.plen)
	if s.ApplyToClosestMember || first.dist <= 1e-9*scale {
		g.memberLoad(acc, first, f, mo, 1)
		return true
	}
	// Sides are measured across the nearest member: n is its plan normal.
	n := pt2{-first.m.dir[1], first.m.dir[0]}
	d1 := dot2(first.across, n)
	var second foot
	found2 := false
	for i := range g.members {
		m := &g.members[i]
		if m == first.m {
			continue
		}
		ft, ok := footOf(m, q)
		d2 := dot2(ft.across, n)
		if !ok || d2*d1 >= 0 || math.Abs(d2) <= 1e-9*scale || !g.near(z, g.memberHeight(m, ft.t)) {
			continue
		}
		if !found2 || ft.dist < second.dist {
			second, found2 = ft, true
		}
	}
	if !found2 {
		if s.IgnoreLoadsOnOneMember {
			return false
		}
		g.memberLoad(acc, first, f, mo, 1)
		return true
	}
	a, b := math.Abs(d1), math.Abs(dot2(second.across, n))
	g.memberLoad(acc, first, f, mo, b/(a+b))
	g.memberLoad(acc, second, f, mo, a/(a+b))
	return true
}

// memberLoad adds share of a load at a member's foot.
func (g *Generator) memberLoad(acc *accumulator, ft foot, f, mo geom.Vec3, share float64) {
	acc.members = append(acc.members, MemberLoad{Member: ft.m.id, Position: ft.t * ft.m.length, F: f.Scale(share), M: mo.Scale(share)})
}

// pressure applies a moving pressure whose leading edge is at s along its
// path: clipped onto the plates when plates are selected, else split into
// point loads on the members.
func (g *Generator) pressure(acc *accumulator, m *mover, s float64) {
	pr := m.pr
	lo, hi := s-pr.Length, s
	if g.in.Settings.KeepLoadsWithinTravelPath {
		lo, hi = math.Max(lo, 0), math.Min(hi, m.path.Length())
	}
	if hi <= lo {
		return
	}
	nl := int(math.Ceil((hi - lo) / pr.LoadSpacing))
	dl := (hi - lo) / float64(nl)
	if len(g.plates) > 0 {
		for _, sp := range m.path.spans(lo, hi, pr.LoadSpacing) {
			g.pressureStrip(acc, m, sp[0], sp[1])
		}
		return
	}
	nw := int(math.Max(1, math.Ceil(pr.Width/pr.LoadSpacing)))
	dw := pr.Width / float64(nw)
	for i := 0; i < nl; i++ {
		sc := lo + (float64(i)+0.5)*dl
		pt, tan := m.path.At(sc)
		x, y, z := g.f.vehicleAxes(tan)
		force := toGlobal(x, y, z, [3]float64{pr.Px, pr.Py, pr.Pz}).Scale(m.factor * dl * dw)
		for j := 0; j < nw; j++ {
			off := -pr.Width/2 + (float64(j)+0.5)*dw
			at := pt.Add(y.Scale(off))
			q := g.f.plan(at)
			if g.area != nil && !inRing(q, g.area) {
				acc.dropped++
				continue
			}
			if !g.onMembers(acc, q, g.f.height(at), force, geom.Vec3{}) {
				acc.dropped++
			}
		}
	}
}

// pressureStrip applies the part of a pressure between s0 and s1 along its
// path: the strip's plan quadrilateral, clipped by the loaded area and by
// each plate.
func (g *Generator) pressureStrip(acc *accumulator, m *mover, s0, s1 float64) {
	pr := m.pr
	p0, t0 := m.path.At(s0)
	p1, t1 := m.path.At(s1)
	_, y0, _ := g.f.vehicleAxes(t0)
	_, y1, _ := g.f.vehicleAxes(t1)
	w := pr.Width / 2
	strip := ccw([]pt2{g.f.plan(p0.Sub(y0.Scale(w))), g.f.plan(p1.Sub(y1.Scale(w))),
		g.f.plan(p1.Add(y1.Scale(w))), g.f.plan(p0.Add(y0.Scale(w)))})
	mid, tm := m.path.At((s0 + s1) / 2)
	x, y, z := g.f.vehicleAxes(tm)
	perArea := toGlobal(x, y, z, [3]float64{pr.Px, pr.Py, pr.Pz}).Scale(m.factor)
	zMid := g.f.height(mid)
	total := math.Abs(geom.PolygonArea(strip))
	applied := 0.0
	lo, hi := bounds(strip)
	for i := range g.plates {
		pl := &g.plates[i]
		if pl.hi[0] < lo[0] || pl.lo[0] > hi[0] || pl.hi[1] < lo[1] || pl.lo[1] > hi[1] {
			continue
		}
		piece := clipConvex(pl.ring, strip) // plate ∩ strip: convex
		if piece == nil {
			continue
		}
		if g.area != nil {
			piece = clipConvex(g.area, piece) // the loaded area (any shape) inside that
			if piece == nil {
				continue
			}
		}
		a := geom.PolygonArea(piece)
		if a <= 1e-12*pl.plan {
			continue
		}
		if !g.near(zMid, g.plateHeight(pl, centroid(piece))) {
			continue
		}
		applied += a
		if math.Abs(a-pl.plan) <= 1e-9*pl.plan {
			// Covered whole: a plate pressure, per true area.
			acc.plate(pl.id, perArea.Scale(pl.plan/pl.true_))
			continue
		}
		w := make([]float64, len(pl.nodes))
		integrate(piece, func(q pt2, wt float64) {
			for k, v := range shape(pl.outline, q) {
				w[k] += v * wt
			}
		})
		for k, id := range pl.nodes {
			acc.node(id, perArea.Scale(w[k]), geom.Vec3{})
		}
	}
	if applied < total*(1-1e-9) {
		acc.dropped++ // part of the strip found no plate (or lay outside the loaded area)
	}
}

// plateHeight is the height of a plate at plan point q.
func (g *Generator) plateHeight(pl *plate, q pt2) float64 {
	return g.heightOf(pl, shape(pl.outline, q))
}

// heightOf is the height of a plate where its shape functions are sh.
func (g *Generator) heightOf(pl *plate, sh []float64) float64 {
	h := 0.0
	for k, v := range sh {
		h += v * g.f.height(pl.corners[k])
	}
	return h
}

// centroid of a plan ring (its vertex mean when it has no area).
func centroid(r []pt2) pt2 {
	a := geom.PolygonArea(r)
	if a == 0 {
		var c pt2
		for _, p := range r {
			c[0], c[1] = c[0]+p[0]/float64(len(r)), c[1]+p[1]/float64(len(r))
		}
		return c
	}
	var cx, cy float64
	for i := 1; i+1 < len(r); i++ {
		ar := cross2(sub2(r[i], r[0]), sub2(r[i+1], r[0])) / 2
		cx += ar * (r[0][0] + r[i][0] + r[i+1][0]) / 3
		cy += ar * (r[0][1] + r[i][1] + r[i+1][1]) / 3
	}
	return pt2{cx / a, cy / a}
}

// bounds is the bounding box of a plan ring.
func bounds(r []pt2) (lo, hi pt2) {
	lo, hi = pt2{math.Inf(1), math.Inf(1)}, pt2{math.Inf(-1), math.Inf(-1)}
	for _, q := range r {
		lo = pt2{math.Min(lo[0], q[0]), math.Min(lo[1], q[1])}
		hi = pt2{math.Max(hi[0], q[0]), math.Max(hi[1], q[1])}
	}
	return lo, hi
}
