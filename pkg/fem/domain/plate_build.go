package domain

import (
	"errors"
	"fmt"
	"math"

	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/shell"
)

// Mesh-quality limits of plates. A warped quad is analysed on its mean
// plane with rigid links to its corners, which is sound while the warp is
// small next to the plate's size; past WarpFail the links would carry the
// plate, so the run fails. The warnings flag shapes that analyse but lose
// accuracy.
const (
	// WarpWarn and WarpFail bound geom.PlateGeom.WarpRatio (the corners'
	// distance from the mean plane over √area).
	WarpWarn = 0.01
	WarpFail = 0.05
	// AspectWarn bounds the longest over the shortest edge.
	AspectWarn = 10
	// AngleWarn is the smallest corner angle, degrees, that does not warn
	// (and 180° minus it the largest, for quads).
	AngleWarn = 30.0
	// TriAngleWarn is the smallest corner angle of a triangle, degrees,
	// that does not warn.
	TriAngleWarn = 15.0
)

// buildPlates indexes and builds the plates, after the nodes and
// materials; it fails on the first plate in model order that cannot be
// analysed, naming the plate and the reason.
func (d *Domain) buildPlates() error {
	m := d.Model
	d.plateIdx = make(map[int64]int, len(m.Plates))
	d.Plates = make([]*ShellElement, len(m.Plates))
	q := newQuality()
	for i := range m.Plates {
		p := &m.Plates[i]
		if p.ID <= 0 {
			return ModelErrorf(ModelError{Plate: p.ID}, "plate %d: ids must be positive", p.ID)
		}
		if _, dup := d.plateIdx[p.ID]; dup {
			return ModelErrorf(ModelError{Plate: p.ID}, "plate %d is defined twice", p.ID)
		}
		d.plateIdx[p.ID] = i
		s, err := d.buildPlate(i, q)
		if err != nil {
			return ModelErrorf(ModelError{Plate: p.ID}, "plate %d: %w", p.ID, err)
		}
		d.Plates[i] = s
	}
	d.Warnings = append(d.Warnings, q.warnings()...)
	return nil
}

// buildPlate prepares plate i.
func (d *Domain) buildPlate(i int, q *quality) (*ShellElement, error) {
	p := &d.Model.Plates[i]
	if len(p.Nodes) != 3 && len(p.Nodes) != 4 {
		return nil, fmt.Errorf("has %d corner nodes; a plate has 3 or 4", len(p.Nodes))
	}
	s := &ShellElement{Index: i, PlateID: p.ID, nodes: make([]int, len(p.Nodes)), Thickness: p.Thickness}
	corners := make([]geom.Vec3, len(p.Nodes))
	for k, id := range p.Nodes {
		n, ok := d.nodeIdx[id]
		if !ok {
			return nil, ModelErrorf(ModelError{Node: id}, "corner node \"%d\" does not exist", id)
		}
		for _, prev := range s.nodes[:k] {
			if prev == n {
				return nil, ModelErrorf(ModelError{Node: id}, "corner node %d is used twice", id)
			}
		}
		s.nodes[k], corners[k] = n, d.Pos[n]
	}
	mat, ok := d.matIdx[p.Material]
	if !ok {
		return nil, fmt.Errorf("material \"%d\" does not exist", p.Material)
	}
	s.Mat = mat
	if !(mat.E > 0) || !(mat.G > 0) {
		return nil, fmt.Errorf("material %d needs positive E and G", mat.ID)
	}
	nu := mat.E/(2*mat.G) - 1
	if !(nu > -1 && nu < 0.5) {
		return nil, fmt.Errorf("material %d: Poisson's ratio E/2G − 1 = %.4g is outside (−1, 0.5)", mat.ID, nu)
	}
	if !(p.Thickness > 0) || math.IsInf(p.Thickness, 0) {
		return nil, fmt.Errorf("thickness %g m must be positive", p.Thickness)
	}
	props := shell.Props{E: mat.E, Nu: nu}
	props.Tm, props.Tb, props.Ts = p.Rigidities()
	for _, t := range []float64{props.Tm, props.Tb, props.Ts} {
		if !(t > 0) || math.IsInf(t, 0) {
			return nil, fmt.Errorf("membrane, bending and shear thicknesses must be positive or 0 (the actual thickness), got %g m", t)
		}
	}
	if p.Theory != shell.Kirchhoff && p.Theory != shell.Mindlin {
		return nil, fmt.Errorf("unknown plate theory %d", p.Theory)
	}
	g, err := geom.PlateGeometry(corners)
	if err != nil {
		return nil, err
	}
	if g.WarpRatio > WarpFail {
		return nil, fmt.Errorf("is warped too much: its corners lie %.3g m off its mean plane, %.3g of √area (the limit is %g); split it into triangles or flatten it", g.WarpHeight, g.WarpRatio, WarpFail)
	}
	s.Geom = g
	fr, err := d.plateAxes(p, corners)
	if err != nil {
		return nil, err
	}
	s.Rot = geom.Rotation{fr.X, fr.Y, fr.Z}
	mean := geom.Vec3{}
	for _, c := range corners {
		mean = mean.Add(c)
	}
	mean = mean.Scale(1 / float64(len(corners)))
	s.centre = mean
	s.El = shell.Element{Props: props, Theory: p.Theory, Plane: shell.Plane{N: len(corners)}}
	s.ecc = make([]geom.Vec3, len(corners))
	for k, c := range corners {
		r := c.Sub(mean)
		s.El.Plane.X[k], s.El.Plane.Y[k] = r.Dot(fr.X), r.Dot(fr.Y)
		if h := p.Offset - r.Dot(fr.Z); h != 0 {
			s.ecc[k] = geom.Vec3{0, 0, h}
			s.linked = true
		}
	}
	if err := s.El.Plane.Check(); err != nil {
		return nil, errors.New("its corners do not enclose a convex area in its plane")
	}
	drill := d.Model.DrillingStiffness
	if drill == 0 {
		drill = 1
	}
	if !(drill > 0) || math.IsInf(drill, 0) {
		return nil, fmt.Errorf("drilling stiffness multiplier %g must be positive", drill)
	}
	s.El.Gamma = drill * props.G() * props.Tm
	q.check(p.ID, corners, g)
	return s, nil
}

// plateAxes returns the local axes of p from its direction.
func (d *Domain) plateAxes(p *Plate, corners []geom.Vec3) (geom.PlateFrame, error) {
	switch {
	case p.DirectionNode != 0:
		n, ok := d.nodeIdx[p.DirectionNode]
		if !ok {
			return geom.PlateFrame{}, ModelErrorf(ModelError{Node: p.DirectionNode}, "direction node \"%d\" does not exist", p.DirectionNode)
		}
		fr, err := geom.PlateAxesTowardNode(corners, d.Pos[n])
		if err != nil {
			return fr, ModelErrorf(ModelError{Node: p.DirectionNode}, "direction node %d: %w", p.DirectionNode, err)
		}
		return fr, nil
	case p.DirectionAxis != 0:
		v, ok := p.DirectionAxis.Vector()
		if !ok {
			return geom.PlateFrame{}, fmt.Errorf("direction axis %v: %w", p.DirectionAxis, geom.ErrBadAxis)
		}
		fr, err := geom.PlateAxesToward(corners, v)
		if err != nil {
			return fr, fmt.Errorf("direction axis %v: %w", p.DirectionAxis, err)
		}
		return fr, nil
	}
	return geom.PlateAxes(corners, p.DirectionAngle)
}

// quality gathers the mesh-quality warnings of the plates by kind, so that
// a large mesh gets one line per kind rather than one per plate.
type quality struct {
	kinds []string
	ids   map[string][]int64
}

func newQuality() *quality { return &quality{ids: map[string][]int64{}} }

func (q *quality) add(kind string, id int64) {
	if _, ok := q.ids[kind]; !ok {
		q.kinds = append(q.kinds, kind)
	}
	q.ids[kind] = append(q.ids[kind], id)
}

// check notes the mild distortions of a plate that analyses.
func (q *quality) check(id int64, c []geom.Vec3, g geom.PlateGeom) {
	if g.WarpRatio > WarpWarn {
		q.add(fmt.Sprintf("warped (corners off the mean plane by more than %g of √area)", WarpWarn), id)
	}
	n := len(c)
	lo, hi := math.Inf(1), 0.0
	minAng, maxAng := 180.0, 0.0
	for i := range n {
		a, b, pr := c[i], c[(i+1)%n], c[(i+n-1)%n]
		l := b.Sub(a).HypotNorm()
		lo, hi = math.Min(lo, l), math.Max(hi, l)
		u, _ := b.Sub(a).Unit()
		v, _ := pr.Sub(a).Unit()
		ang := math.Acos(math.Max(-1, math.Min(1, u.Dot(v)))) * 180 / math.Pi
		minAng, maxAng = math.Min(minAng, ang), math.Max(maxAng, ang)
	}
	if hi > AspectWarn*lo {
		q.add(fmt.Sprintf("elongated (longest edge more than %g times the shortest)", float64(AspectWarn)), id)
	}
	if n == 3 && minAng < TriAngleWarn {
		q.add(fmt.Sprintf("sharp (a corner angle below %g°)", TriAngleWarn), id)
	}
	if n == 4 && (minAng < AngleWarn || maxAng > 180-AngleWarn) {
		q.add(fmt.Sprintf("distorted (a corner angle outside %g°–%g°)", AngleWarn, 180-AngleWarn), id)
	}
}

// warnings returns one line per kind, naming up to five plates.
func (q *quality) warnings() []string {
	var out []string
	for _, k := range q.kinds {
		ids := q.ids[k]
		out = append(out, fmt.Sprintf("%d plate(s) %s, which loses accuracy: %s", len(ids), k, ListIDs(ids, 5)))
	}
	return out
}

// resolvePlateLoads adds the plate pressures and temperatures of lc to c.
func (d *Domain) resolvePlateLoads(c *Loads, lc *LoadCase) error {
	if d.membersOnly {
		return nil
	}
	for _, pl := range lc.Pressures {
		i, ok := d.plateIdx[pl.Plate]
		if !ok {
			return ModelErrorf(ModelError{Case: lc.ID, Plate: pl.Plate}, "load case %d: pressure on plate \"%d\", which does not exist", lc.ID, pl.Plate)
		}
		s := d.Plates[i]
		var q geom.Vec3
		switch pl.Axes {
		case Local:
			q = pl.P
		case GlobalInclined:
			q = s.Rot.Apply(pl.P)
		case GlobalProjected:
			// Each component acts on the plate's area projected on the
			// plane normal to its axis: |n_k| of the actual area.
			n := s.Rot.Z()
			q = s.Rot.Apply(geom.Vec3{pl.P[0] * math.Abs(n[0]), pl.P[1] * math.Abs(n[1]), pl.P[2] * math.Abs(n[2])})
		default:
			return ModelErrorf(ModelError{Case: lc.ID, Plate: pl.Plate}, "load case %d: plate %d: unknown load axes %d", lc.ID, pl.Plate, pl.Axes)
		}
		l := c.plateLoadsOf(i)
		l.Pressure = l.Pressure.Add(q)
	}
	for _, th := range lc.PlateThermal {
		i, ok := d.plateIdx[th.Plate]
		if !ok {
			return ModelErrorf(ModelError{Case: lc.ID, Plate: th.Plate}, "load case %d: thermal load on plate \"%d\", which does not exist", lc.ID, th.Plate)
		}
		st := shell.Thermal(d.Plates[i].Mat.Alpha, th.DT, th.DTz)
		l := c.plateLoadsOf(i)
		for k := range 3 {
			l.Strain.Eps[k] += st.Eps[k]
			l.Strain.Kappa[k] += st.Kappa[k]
		}
	}
	return nil
}
