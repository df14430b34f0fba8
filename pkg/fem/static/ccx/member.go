//go:build ccx

package ccx

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
)

// distLoad is a linearly varying member force per unit length, local axes.
type distLoad struct {
	x1, x2 float64
	w1, w2 geom.Vec3
}

// pointLoad is a concentrated member force and moment, local axes.
type pointLoad struct {
	x float64
	f [6]float64
}

// piece is one Euler–Bernoulli U1 element pair along a member.
type piece struct {
	n1, n2 int
	x1, x2 float64
}

func factor(f float64) float64 {
	if f == 0 {
		return 1
	}
	return f
}

// member writes member i: end ties, pieces, shear links and loads.
func (w *writer) member(i int, lc *domain.LoadCase, div int) error {
	mm := &w.m.Members[i]
	if mm.Type != domain.Frame {
		return errors.New("only frame members are written")
	}
	var sec *domain.Section
	for k := range w.m.Sections {
		if w.m.Sections[k].ID == mm.Section {
			sec = &w.m.Sections[k]
		}
	}
	mi, okm := w.matIdx[mm.Material]
	if sec == nil || !okm {
		return fmt.Errorf("section %d or material %d missing", mm.Section, mm.Material)
	}
	mat := w.m.Materials[mi]
	// Local offsets follow the principal axes, like the engine's.
	ln, err := w.line(mm, sec)
	if err != nil {
		return err
	}
	na, nb, pa, pb, dir := ln.na, ln.nb, ln.pa, ln.pb, ln.dir
	vert := w.m.VerticalAxis
	eA, eB := mm.OffsetA, mm.OffsetB
	if mm.OffsetsLocal {
		r0, err := geom.LocalAxes(pa, pb, dir, vert)
		if err != nil {
			return err
		}
		eA, eB = r0.ApplyT(eA), r0.ApplyT(eB)
	}
	a0, b0 := pa.Add(eA), pb.Add(eB)
	r, err := geom.LocalAxes(a0, b0, dir, vert)
	if err != nil {
		return err
	}
	L := b0.Sub(a0).Norm()
	A := sec.A * factor(mm.AreaFactor)
	J := sec.J * factor(mm.TorsionFactor)
	Iy, Iz := sec.Iy*factor(mm.IyFactor), sec.Iz*factor(mm.IzFactor)
	// U1 takes its torsion constant as I11 + I22 (see the package doc).
	if math.Abs(J-(Iy+Iz)) > 1e-9*J {
		return fmt.Errorf("U1 needs J = Iy + Iz, got J = %g, Iy + Iz = %g", J, Iy+Iz)
	}

	var ends [2]int
	for e, c := range []struct {
		n   int
		p   geom.Vec3
		off geom.Vec3
		rel string
	}{{na, pa, eA, mm.ReleaseA}, {nb, pb, eB, mm.ReleaseB}} {
		var fixed []int
		for d := range 6 {
			switch {
			case c.rel == "" || c.rel[d] == 'F':
				fixed = append(fixed, d)
			case c.rel[d] == 'R':
			default:
				return fmt.Errorf("release code %q: only F and R are written", c.rel)
			}
		}
		if c.off == (geom.Vec3{}) && len(fixed) == 6 {
			ends[e] = c.n
			continue
		}
		// A member-end node at node + offset, tied rigidly to the node
		// on the DOFs that are not released.
		ends[e] = w.addNode(c.p.Add(c.off))
		if err := w.tie(ends[e], c.n, r, fixed, c.off); err != nil {
			return err
		}
	}

	dists, points, err := memberLoads(mm, lc, r, L, A*mat.Density)
	if err != nil {
		return err
	}
	xs := stations(L, div, dists, points)

	sy := beamSet{name: "M" + strconv.Itoa(i+1) + "Y", mat: mi, a: A / 2, i11: Iz, oneDir: r.Y()}
	sz := beamSet{name: "M" + strconv.Itoa(i+1) + "Z", mat: mi, a: A / 2, i11: Iy, oneDir: r.Z()}
	xhat := r.X()
	at := func(x float64) geom.Vec3 { return a0.Add(xhat.Scale(x)) }
	stNode := make([]int, len(xs))
	for k, x := range xs {
		switch k {
		case 0:
			stNode[k] = ends[0]
		case len(xs) - 1:
			stNode[k] = ends[1]
		default:
			stNode[k] = w.addNode(at(x))
		}
	}
	var pieces []piece
	add := func(n1, n2 int, x1, x2 float64) {
		for _, s := range []*beamSet{&sy, &sz} {
			w.nElem++
			s.elems = append(s.elems, w.nElem, n1, n2)
		}
		pieces = append(pieces, piece{n1, n2, x1, x2})
	}
	shear := sec.Ay > 0 || sec.Az > 0
	for k := 0; k+1 < len(xs); k++ {
		if !shear {
			add(stNode[k], stNode[k+1], xs[k], xs[k+1])
			continue
		}
		xm := (xs[k] + xs[k+1]) / 2
		m1, m2 := w.addNode(at(xm)), w.addNode(at(xm))
		add(stNode[k], m1, xs[k], xm)
		add(m2, stNode[k+1], xm, xs[k+1])
		if err := w.shearLink(m1, m2, r, mat.G, sec.Ay, sec.Az, xs[k+1]-xs[k]); err != nil {
			return err
		}
	}
	w.sets = append(w.sets, sy, sz)

	tol := 1e-9 * L
	for _, p := range points {
		k := sort.SearchFloat64s(xs, p.x-tol)
		f := r.ApplyT(geom.Vec3{p.f[0], p.f[1], p.f[2]})
		mo := r.ApplyT(geom.Vec3{p.f[3], p.f[4], p.f[5]})
		w.addLoad(stNode[k], [6]float64{f[0], f[1], f[2], mo[0], mo[1], mo[2]})
	}
	for _, d := range dists {
		for _, pc := range pieces {
			if pc.x1 < d.x1-tol || pc.x2 > d.x2+tol {
				continue
			}
			w.consistent(r, pc, d)
		}
	}
	return nil
}

// shearLink joins the two coincident mid-piece nodes m1, m2: springs of
// G·As/ℓ along local y and z carry the shear flexibility of the piece,
// every other DOF is tied. SPRING2 acts along global DOFs, so local y and
// z must be global axes.
func (w *writer) shearLink(m1, m2 int, r geom.Rotation, G, ay, az, l float64) error {
	fixed := []int{0, 3, 4, 5}
	for k, as := range []float64{ay, az} {
		axis := r[1+k]
		if !(as > 0) {
			fixed = append(fixed, 1+k)
			continue
		}
		g := -1
		for j := range 3 {
			if math.Abs(axis[j]) > 1-1e-12 {
				g = j
			}
		}
		if g < 0 {
			return errors.New("shear links need member local y and z along global axes")
		}
		key := [2]string{strconv.Itoa(g + 1), num(G * as / l)}
		w.springs[key] = append(w.springs[key], m1, m2)
	}
	sort.Ints(fixed)
	return w.tie(m2, m1, r, fixed, geom.Vec3{})
}

// consistent adds the consistent nodal loads of the linear load d on
// piece pc, an Euler–Bernoulli element: axial ℓ(2p₁+p₂)/6, transverse
// ℓ(7p₁+3p₂)/20 with end moments ±ℓ²(3p₁+2p₂)/60 (the fixed-end actions,
// negated). In the x–z plane the moment signs flip because ry = −dw/dx.
func (w *writer) consistent(r geom.Rotation, pc piece, d distLoad) {
	l := pc.x2 - pc.x1
	p := func(x float64) geom.Vec3 {
		t := (x - d.x1) / (d.x2 - d.x1)
		return d.w1.Scale(1 - t).Add(d.w2.Scale(t))
	}
	p1, p2 := p(pc.x1), p(pc.x2)
	var fa, fb, ma, mb geom.Vec3
	fa[0] = l * (2*p1[0] + p2[0]) / 6
	fb[0] = l * (p1[0] + 2*p2[0]) / 6
	for c := 1; c < 3; c++ {
		fa[c] = l * (7*p1[c] + 3*p2[c]) / 20
		fb[c] = l * (3*p1[c] + 7*p2[c]) / 20
	}
	l2 := l * l / 60
	ma[2] = l2 * (3*p1[1] + 2*p2[1])
	mb[2] = -l2 * (2*p1[1] + 3*p2[1])
	ma[1] = -l2 * (3*p1[2] + 2*p2[2])
	mb[1] = l2 * (2*p1[2] + 3*p2[2])
	for _, e := range []struct {
		n    int
		f, m geom.Vec3
	}{{pc.n1, fa, ma}, {pc.n2, fb, mb}} {
		f, m := r.ApplyT(e.f), r.ApplyT(e.m)
		w.addLoad(e.n, [6]float64{f[0], f[1], f[2], m[0], m[1], m[2]})
	}
}

// memberLoads resolves the member loads of lc on member mm and its
// self-weight (ρA per unit length, rhoA) into local loads, with the same
// meaning of axes, positions and projection as package static documents.
func memberLoads(mm *domain.Member, lc *domain.LoadCase, r geom.Rotation, L, rhoA float64) ([]distLoad, []pointLoad, error) {
	var dists []distLoad
	var points []pointLoad
	if sw := lc.SelfWeight; sw != ([3]float64{}) && rhoA > 0 {
		g := geom.Vec3{sw[0], sw[1], sw[2]}.Scale(rhoA * domain.G)
		loc := r.Apply(g)
		dists = append(dists, distLoad{0, L, loc, loc})
	}
	pos := func(kind domain.PositionKind, v float64) (float64, error) {
		if kind == domain.Percent {
			v *= L / 100
		}
		if v < -1e-12*L || v > L*(1+1e-12) {
			return 0, fmt.Errorf("load position %g outside the member", v)
		}
		return math.Min(math.Max(v, 0), L), nil
	}
	for _, ml := range lc.Members {
		if ml.Member != mm.ID {
			continue
		}
		dv, ok := ml.Direction.Vector()
		if !ok {
			return nil, nil, fmt.Errorf("bad load direction %v", ml.Direction)
		}
		loc, scale := dv, 1.0
		switch ml.Axes {
		case domain.Local:
		case domain.GlobalInclined, domain.GlobalProjected:
			loc = r.Apply(dv)
			if ml.Axes == domain.GlobalProjected {
				cx := r.X().Dot(dv)
				scale = math.Sqrt(math.Max(0, 1-cx*cx))
			}
		default:
			return nil, nil, fmt.Errorf("unknown load axes %d", ml.Axes)
		}
		switch ml.Type {
		case domain.ConcentratedForce, domain.ConcentratedMoment:
			x, err := pos(ml.Position, ml.A)
			if err != nil {
				return nil, nil, err
			}
			var f [6]float64
			off := 0
			if ml.Type == domain.ConcentratedMoment {
				off = 3
			}
			for c := range 3 {
				f[off+c] = ml.P1 * loc[c]
			}
			points = append(points, pointLoad{x, f})
		case domain.DistributedForce:
			x1, x2 := 0.0, L
			if ml.A != 0 || ml.B != 0 {
				var err error
				if x1, err = pos(ml.Position, ml.A); err != nil {
					return nil, nil, err
				}
				if x2, err = pos(ml.Position, ml.B); err != nil {
					return nil, nil, err
				}
			}
			p1, p2 := ml.P1*scale, ml.P2*scale
			if x2 < x1 {
				x1, x2, p1, p2 = x2, x1, p2, p1
			}
			if x2 > x1 {
				dists = append(dists, distLoad{x1, x2, loc.Scale(p1), loc.Scale(p2)})
			}
		default:
			return nil, nil, fmt.Errorf("member load type %d is not written", ml.Type)
		}
	}
	return dists, points, nil
}

// stations returns the piece ends along a member: div equal pieces plus
// every load point and load end, so loads never start inside a piece.
func stations(L float64, div int, dists []distLoad, points []pointLoad) []float64 {
	xs := make([]float64, 0, div+1)
	for k := 0; k <= div; k++ {
		xs = append(xs, L*float64(k)/float64(div))
	}
	for _, d := range dists {
		xs = append(xs, d.x1, d.x2)
	}
	for _, p := range points {
		xs = append(xs, p.x)
	}
	sort.Float64s(xs)
	out := xs[:1]
	for _, x := range xs[1:] {
		if x-out[len(out)-1] > 1e-9*L {
			out = append(out, x)
		}
	}
	out[len(out)-1] = L
	return out
}
