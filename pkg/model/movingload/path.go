package movingload

import (
	"fmt"
	"math"

	"github.com/gusset/gusset/pkg/fem/geom"
)

// Station is a travel-path station with its coordinates resolved (a station
// at a node carries the node's current coordinates), m.
type Station struct {
	At     geom.Vec3
	Radius float64
}

// Path is a travel path ready for evaluation: straight pieces and circular
// arcs laid end to end, parametrised by arc length.
type Path struct {
	pieces []piece
	length float64
}

// piece is a line (radius 0) or an arc of a path, starting at distance s0.
// A line runs from a along t; an arc runs round centre c from a (the unit
// vector from c to its start) toward t (its unit tangent at the start)
// through angle len/radius.
type piece struct {
	s0, len float64
	radius  float64
	a, t, c geom.Vec3
}

// PathError reports a travel path that cannot be built; Station is 1-based
// (0 when the path as a whole is at fault).
type PathError struct {
	Station int
	Msg     string
}

// Error implements error.
func (e *PathError) Error() string { return e.Msg }

// NewPath builds the path through the stations: at least two, consecutive
// ones apart, with each rounded corner fitting in its segments.
func NewPath(st []Station) (*Path, error) {
	if len(st) < 2 {
		return nil, &PathError{Msg: fmt.Sprintf("a travel path needs at least 2 stations, got %d", len(st))}
	}
	n := len(st)
	dirs := make([]geom.Vec3, n-1)
	lens := make([]float64, n-1)
	for i := 0; i+1 < n; i++ {
		d := st[i+1].At.Sub(st[i].At)
		lens[i] = d.Norm()
		u, ok := d.Unit()
		if !ok || lens[i] <= 1e-9 {
			return nil, &PathError{Station: i + 2, Msg: fmt.Sprintf("stations %d and %d are at the same point", i+1, i+2)}
		}
		dirs[i] = u
	}
	// Tangent lengths of the rounded corners (0 for sharp ones).
	tan := make([]float64, n)
	turn := make([]float64, n)
	for i := 1; i+1 < n; i++ {
		if st[i].Radius <= 0 {
			continue
		}
		c := math.Max(-1, math.Min(1, dirs[i-1].Dot(dirs[i])))
		phi := math.Acos(c)
		if phi < 1e-9 {
			continue // straight through: nothing to round
		}
		if phi > math.Pi-1e-6 {
			return nil, &PathError{Station: i + 1, Msg: fmt.Sprintf("station %d turns the path back on itself; a radius cannot round it", i+1)}
		}
		turn[i] = phi
		tan[i] = st[i].Radius * math.Tan(phi/2)
	}
	for i := 0; i+1 < n; i++ {
		if need := tan[i] + tan[i+1]; need > lens[i]*(1+1e-12) {
			at := i + 2 // the station whose radius asks more of the segment
			if tan[i] > tan[i+1] {
				at = i + 1
			}
			return nil, &PathError{Station: at, Msg: fmt.Sprintf(
				"the rounded corners at stations %d and %d need %.6g m of the %.6g m segment between them; reduce a radius",
				i+1, i+2, need, lens[i])}
		}
	}
	p := &Path{}
	cur := st[0].At
	for i := 0; i+1 < n; i++ {
		end := st[i+1].At.Sub(dirs[i].Scale(tan[i+1]))
		if l := end.Sub(cur).Norm(); l > 0 {
			p.add(piece{len: l, a: cur, t: dirs[i]})
		}
		if i+2 < n && tan[i+1] > 0 {
			d1, d2 := dirs[i], dirs[i+1]
			in, _ := d2.Sub(d1.Scale(d1.Dot(d2))).Unit() // toward the centre
			r := st[i+1].Radius
			c := end.Add(in.Scale(r))
			p.add(piece{len: r * turn[i+1], radius: r, a: in.Scale(-1), t: d1, c: c})
			cur = st[i+1].At.Add(d2.Scale(tan[i+1]))
		} else {
			cur = st[i+1].At
		}
	}
	return p, nil
}

func (p *Path) add(pc piece) {
	pc.s0 = p.length
	p.pieces = append(p.pieces, pc)
	p.length += pc.len
}

// Length is the path's length, m.
func (p *Path) Length() float64 { return p.length }

// At returns the point at distance s along the path and the unit tangent
// there. Outside [0, Length] the path continues straight along its end
// tangents.
func (p *Path) At(s float64) (pt, tangent geom.Vec3) {
	if s <= 0 {
		start, t := p.eval(&p.pieces[0], 0)
		return start.Add(t.Scale(s)), t
	}
	if s >= p.length {
		last := &p.pieces[len(p.pieces)-1]
		end, t := p.eval(last, last.s0+last.len)
		return end.Add(t.Scale(s - p.length)), t
	}
	// Binary search for the piece holding s.
	lo, hi := 0, len(p.pieces)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if p.pieces[mid].s0 <= s {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return p.eval(&p.pieces[lo], s)
}

// eval evaluates one piece at distance s along the path (a line extends
// beyond its ends).
func (p *Path) eval(pc *piece, s float64) (geom.Vec3, geom.Vec3) {
	u := s - pc.s0
	if pc.radius == 0 {
		return pc.a.Add(pc.t.Scale(u)), pc.t
	}
	th := u / pc.radius
	sn, cs := math.Sincos(th)
	pt := pc.c.Add(pc.a.Scale(pc.radius * cs)).Add(pc.t.Scale(pc.radius * sn))
	t := pc.t.Scale(cs).Sub(pc.a.Scale(sn))
	return pt, t
}

// spans splits [lo, hi] where the path's pieces meet, and each arc part
// further into pieces no longer than step, so that a band along the path
// is drawn by straight-sided strips that follow it: one strip per straight
// piece, short ones round a bend. (At a sharp corner, radius 0, the strips
// of the two pieces overlap on the inside of the corner and leave a gap on
// the outside, as the band itself is not defined there.)
func (p *Path) spans(lo, hi, step float64) [][2]float64 {
	var out [][2]float64
	for i := range p.pieces {
		pc := &p.pieces[i]
		a, b := math.Max(lo, pc.s0), math.Min(hi, pc.s0+pc.len)
		if i == 0 {
			a = lo // the path runs on straight before its start
		}
		if i == len(p.pieces)-1 {
			b = hi // and after its end
		}
		if b <= a {
			continue
		}
		n := 1
		if pc.radius > 0 {
			n = int(math.Ceil((b - a) / step))
		}
		for k := 0; k < n; k++ {
			out = append(out, [2]float64{a + (b-a)*float64(k)/float64(n), a + (b-a)*float64(k+1)/float64(n)})
		}
	}
	return out
}
