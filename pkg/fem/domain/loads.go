package domain

import (
	"fmt"
	"math"

	"github.com/gusset/gusset/pkg/fem/dof"
	"github.com/gusset/gusset/pkg/fem/element"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/shell"
)

// Loads is a load case resolved onto the domain: node loads (global axes,
// per global DOF), member loads in member local axes (by member index),
// prescribed displacements (by global DOF) and the case's self-weight
// acceleration. Linear combinations of Loads are again Loads, which is how
// combinations are recovered exactly.
//
// Frames find everything they carry in Member, their self-weight
// included. An element of another family reads what the case holds for it:
// SelfWeight, which it applies to its own mass, and its own field (plates:
// Plate); a family whose loads the model gains adds its field here and its
// resolution to ResolveCase.
type Loads struct {
	NodeF  []float64
	Member map[int]*element.MemberLoads
	// Plate holds the loads on plates, by index in Domain.Plates.
	Plate map[int]*PlateLoads
	Presc map[int]float64
	// SelfWeight is the acceleration in g along global X, Y, Z
	// (LoadCase.SelfWeight, combined with the factors).
	SelfWeight [3]float64
}

// NewLoads returns empty loads on nd global DOFs.
func NewLoads(nd int) *Loads {
	return &Loads{NodeF: make([]float64, nd), Member: map[int]*element.MemberLoads{}, Plate: map[int]*PlateLoads{}, Presc: map[int]float64{}}
}

// PlateLoads are the loads of a case on one plate: a uniform load per unit
// area in plate local axes (N/m²; pressures of every kind, resolved) and
// initial strains (temperature).
type PlateLoads struct {
	Pressure geom.Vec3
	Strain   shell.Strains
}

// PlateLoads returns the loads on plate p (index in Domain.Plates), nil
// when there are none or c is nil.
func (c *Loads) PlateLoads(p int) *PlateLoads {
	if c == nil {
		return nil
	}
	return c.Plate[p]
}

func (c *Loads) plateLoadsOf(p int) *PlateLoads {
	l := c.Plate[p]
	if l == nil {
		l = &PlateLoads{}
		c.Plate[p] = l
	}
	return l
}

// MemberLoads returns the loads on member m, nil when there are none or c
// is nil.
func (c *Loads) MemberLoads(m int) *element.MemberLoads {
	if c == nil {
		return nil
	}
	return c.Member[m]
}

func (c *Loads) loadsOf(m int) *element.MemberLoads {
	l := c.Member[m]
	if l == nil {
		l = &element.MemberLoads{}
		c.Member[m] = l
	}
	return l
}

// AddScaled adds f·o to c.
func (c *Loads) AddScaled(o *Loads, f float64) {
	for i, v := range o.SelfWeight {
		c.SelfWeight[i] += f * v
	}
	for i, v := range o.NodeF {
		c.NodeF[i] += f * v
	}
	for g, v := range o.Presc {
		c.Presc[g] += f * v
	}
	for m, l := range o.Member {
		t := c.loadsOf(m)
		for _, p := range l.Points {
			for i := range p.F {
				p.F[i] *= f
			}
			t.Points = append(t.Points, p)
		}
		for _, d := range l.Dists {
			for i := range d.W1 {
				d.W1[i] *= f
				d.W2[i] *= f
			}
			t.Dists = append(t.Dists, d)
		}
		t.Strain.Eps += f * l.Strain.Eps
		t.Strain.KappaY += f * l.Strain.KappaY
		t.Strain.KappaZ += f * l.Strain.KappaZ
	}
	for p, l := range o.Plate {
		t := c.plateLoadsOf(p)
		t.Pressure = t.Pressure.Add(l.Pressure.Scale(f))
		for i := range 3 {
			t.Strain.Eps[i] += f * l.Strain.Eps[i]
			t.Strain.Kappa[i] += f * l.Strain.Kappa[i]
		}
	}
}

// ResolveCase resolves the primary load case id. A domain built with
// MembersOnly resolves the member loads only: node loads and prescribed
// displacements act on stations only through the stored end states.
func (d *Domain) ResolveCase(id int64) (*Loads, error) {
	ci, ok := d.caseIdx[id]
	if !ok {
		return nil, ModelErrorf(ModelError{Case: id}, "load case \"%d\" does not exist", id)
	}
	return d.resolveCase(&d.Model.LoadCases[ci])
}

// Resolve resolves a load case given by value, which need not be one of
// the model's: an analysis that reads only part of a case (the loads that
// become masses, say) resolves a copy holding that part.
func (d *Domain) Resolve(lc *LoadCase) (*Loads, error) { return d.resolveCase(lc) }

// Combined returns the loads of a case or combination and its factors on
// primary cases (see Factors): the sum, in model order, of the factored
// loads base gives for each primary case.
func (d *Domain) Combined(id int64, base func(primary int64) (*Loads, error)) (*Loads, map[int64]float64, error) {
	f, err := d.Factors(id)
	if err != nil {
		return nil, nil, err
	}
	c := NewLoads(6 * len(d.Pos))
	for _, lc := range d.Model.LoadCases { // model order: deterministic sums
		if v, ok := f[lc.ID]; ok && v != 0 {
			b, err := base(lc.ID)
			if err != nil {
				return nil, nil, err
			}
			c.AddScaled(b, v)
		}
	}
	return c, f, nil
}

// Factors resolves a case or combination id into factors on primary
// load cases, following nested combinations and rejecting cycles.
func (d *Domain) Factors(id int64) (map[int64]float64, error) {
	f := map[int64]float64{}
	if err := d.expand(id, 1, f, map[int64]bool{}); err != nil {
		return nil, err
	}
	return f, nil
}

func (d *Domain) resolveCase(lc *LoadCase) (*Loads, error) {
	c := NewLoads(6 * len(d.Pos))
	if !d.membersOnly {
		if err := d.resolveNodeLoads(c, lc); err != nil {
			return nil, err
		}
	}
	if err := d.resolveMemberLoads(c, lc); err != nil {
		return nil, err
	}
	if err := d.resolvePlateLoads(c, lc); err != nil {
		return nil, err
	}
	c.SelfWeight = lc.SelfWeight
	if !d.membersOnly {
		if err := d.resolvePrescribed(c, lc); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// resolveNodeLoads adds the node loads of lc to c.
func (d *Domain) resolveNodeLoads(c *Loads, lc *LoadCase) error {
	for _, nl := range lc.NodeLoads {
		n, ok := d.nodeIdx[nl.Node]
		if !ok {
			return ModelErrorf(ModelError{Case: lc.ID, Node: nl.Node}, "load case %d: node load on node \"%d\", which does not exist", lc.ID, nl.Node)
		}
		for d := range 6 {
			c.NodeF[6*n+d] += nl.F[d]
		}
	}
	return nil
}

// resolvePrescribed adds the prescribed displacements of lc to c.
func (d *Domain) resolvePrescribed(c *Loads, lc *LoadCase) error {
	for _, pd := range lc.Prescribed {
		n, ok := d.nodeIdx[pd.Node]
		if !ok {
			return ModelErrorf(ModelError{Case: lc.ID, Node: pd.Node}, "load case %d: prescribed displacement on node \"%d\", which does not exist", lc.ID, pd.Node)
		}
		for k := range 6 {
			if !pd.Set[k] {
				continue
			}
			g := 6*n + k
			if s := d.DOF.Support(g); !s.Fixed || s.OneWay != 0 {
				return ModelErrorf(ModelError{Case: lc.ID, Node: pd.Node, DOF: dof.Names[k]}, "load case %d: prescribed displacement at node %d %s needs a fixed two-way support there", lc.ID, pd.Node, dof.Names[k])
			}
			c.Presc[g] += pd.Value[k]
		}
	}
	return nil
}

// resolveMemberLoads adds the member loads of lc (loads, thermal,
// prestress, self-weight) to c, in member local axes.
func (d *Domain) resolveMemberLoads(c *Loads, lc *LoadCase) error {
	for i := range lc.Members {
		ml := &lc.Members[i]
		mi, ok := d.memIdx[ml.Member]
		if !ok {
			return ModelErrorf(ModelError{Case: lc.ID, Member: ml.Member}, "load case %d: member load on member \"%d\", which does not exist", lc.ID, ml.Member)
		}
		if err := d.addMemberLoad(c, d.Frames[mi], ml); err != nil {
			return ModelErrorf(ModelError{Case: lc.ID, Member: ml.Member}, "load case %d: member %d: %w", lc.ID, ml.Member, err)
		}
	}
	for _, th := range lc.Thermal {
		mi, ok := d.memIdx[th.Member]
		if !ok {
			return ModelErrorf(ModelError{Case: lc.ID, Member: th.Member}, "load case %d: thermal load on member \"%d\", which does not exist", lc.ID, th.Member)
		}
		m := d.Frames[mi]
		al := m.Mat.Alpha
		s := &c.loadsOf(mi).Strain
		s.Eps += al * th.DT
		if !m.Type.AxialOnly() {
			s.KappaZ += -al * th.DTy
			s.KappaY += al * th.DTz
		}
	}
	for _, ps := range lc.Prestress {
		mi, ok := d.memIdx[ps.Member]
		if !ok {
			return ModelErrorf(ModelError{Case: lc.ID, Member: ps.Member}, "load case %d: prestress on member \"%d\", which does not exist", lc.ID, ps.Member)
		}
		m := d.Frames[mi]
		c.loadsOf(mi).Strain.Eps += -ps.Force / (m.Props.E * m.Props.A)
	}
	if sw := lc.SelfWeight; sw != ([3]float64{}) {
		for _, m := range d.Frames {
			w := m.Mat.Density * m.Props.A * G
			if w == 0 {
				continue
			}
			gl := geom.Vec3{sw[0] * w, sw[1] * w, sw[2] * w}
			loc := m.Rot.Apply(gl)
			l := c.loadsOf(m.Index)
			var wv [6]float64
			copy(wv[:3], loc[:])
			l.Dists = append(l.Dists, element.DistLoad{X1: 0, X2: m.Props.L, W1: wv, W2: wv})
		}
	}
	return nil
}

// addMemberLoad converts one member load into local loads on m.
func (d *Domain) addMemberLoad(c *Loads, m *FrameElement, ml *MemberLoad) error {
	L := m.Props.L
	pos := func(v float64) (float64, error) {
		if ml.Position == Percent {
			v = v / 100 * L
		}
		if v < -1e-12*L || v > L*(1+1e-12) || math.IsNaN(v) {
			return 0, fmt.Errorf("load position %g m lies outside the member (length %g m)", v, L)
		}
		return math.Min(math.Max(v, 0), L), nil
	}
	dir, ok := ml.Direction.Vector()
	if !ok {
		return fmt.Errorf("load direction %v: %w", ml.Direction, geom.ErrBadAxis)
	}
	var local geom.Vec3
	scale := 1.0
	switch ml.Axes {
	case Local:
		local = dir
	case GlobalInclined, GlobalProjected:
		local = m.Rot.Apply(dir)
		if ml.Axes == GlobalProjected && (ml.Type == DistributedForce || ml.Type == DistributedMoment) {
			cx := m.Rot.X().Dot(dir)
			scale = math.Sqrt(math.Max(0, 1-cx*cx))
		}
	default:
		return fmt.Errorf("unknown load axes %d", ml.Axes)
	}
	off := 0
	if ml.Type == ConcentratedMoment || ml.Type == DistributedMoment {
		off = 3
	}
	vec := func(p float64) [6]float64 {
		var w [6]float64
		for i := range 3 {
			w[off+i] = p * scale * local[i]
		}
		return w
	}
	l := c.loadsOf(m.Index)
	switch ml.Type {
	case ConcentratedForce, ConcentratedMoment:
		x, err := pos(ml.A)
		if err != nil {
			return err
		}
		l.Points = append(l.Points, element.PointLoad{X: x, F: vec(ml.P1)})
	case DistributedForce, DistributedMoment:
		x1, x2 := 0.0, L
		if ml.A != 0 || ml.B != 0 {
			var err error
			if x1, err = pos(ml.A); err != nil {
				return err
			}
			if x2, err = pos(ml.B); err != nil {
				return err
			}
		}
		p1, p2 := ml.P1, ml.P2
		if x2 < x1 {
			x1, x2, p1, p2 = x2, x1, p2, p1
		}
		l.Dists = append(l.Dists, element.DistLoad{X1: x1, X2: x2, W1: vec(p1), W2: vec(p2)})
	default:
		return fmt.Errorf("unknown member load type %d", ml.Type)
	}
	return nil
}

// expand adds f times the factors of id to out; path holds the
// combinations being expanded.
func (d *Domain) expand(id int64, f float64, out map[int64]float64, path map[int64]bool) error {
	if _, ok := d.caseIdx[id]; ok {
		out[id] += f
		return nil
	}
	ci, ok := d.comboIdx[id]
	if !ok {
		return ModelErrorf(ModelError{Case: id}, "load case or combination \"%d\" does not exist", id)
	}
	if path[id] {
		return ModelErrorf(ModelError{Case: id}, "combination %d refers to itself", id)
	}
	path[id] = true
	defer delete(path, id)
	for _, t := range d.Model.Combinations[ci].Terms {
		if err := d.expand(t.Case, f*t.Factor, out, path); err != nil {
			return Wrapf("combination %d: %w", id, err)
		}
	}
	return nil
}
