package static

import (
	"fmt"
	"math"

	"github.com/gusset/gusset/pkg/fem/element"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// caseLoads is a load case resolved to node loads (global, per global DOF),
// member loads in member local axes and prescribed displacements. Linear
// combinations of caseLoads are again caseLoads, which is how combinations
// are recovered exactly.
type caseLoads struct {
	nodeF  []float64
	member map[int]*element.MemberLoads
	presc  map[int]float64 // global DOF → value
	// Set by totalNodeLoads once the loads are final: the total node
	// loads and the fixed-end actions of the loaded members (fe, indexed
	// through feIdx by member, −1 when unloaded), reused by recovery.
	total []float64
	fe    []memberFE
	feIdx []int32
}

// memberFE holds the condensed (qc) and uncondensed (q0) local fixed-end
// actions of a loaded member.
type memberFE struct {
	qc, q0 [12]float64
}

// fixedEndOf returns the cached fixed-end actions of member m, or nil when
// m is unloaded or totalNodeLoads has not run on c.
func (c *caseLoads) fixedEndOf(m int) *memberFE {
	if c == nil || c.feIdx == nil || c.feIdx[m] < 0 {
		return nil
	}
	return &c.fe[c.feIdx[m]]
}

// memberLoads returns the loads on member m, nil when there are none or
// c is nil.
func (c *caseLoads) memberLoads(m int) *element.MemberLoads {
	if c == nil {
		return nil
	}
	return c.member[m]
}

func newCaseLoads(nd int) *caseLoads {
	return &caseLoads{nodeF: make([]float64, nd), member: map[int]*element.MemberLoads{}, presc: map[int]float64{}}
}

func (c *caseLoads) loadsOf(m int) *element.MemberLoads {
	l := c.member[m]
	if l == nil {
		l = &element.MemberLoads{}
		c.member[m] = l
	}
	return l
}

// addScaled adds f·o to c.
func (c *caseLoads) addScaled(o *caseLoads, f float64) {
	for i, v := range o.nodeF {
		c.nodeF[i] += f * v
	}
	for g, v := range o.presc {
		c.presc[g] += f * v
	}
	for m, l := range o.member {
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
}

// resolveCase converts a LoadCase into caseLoads. An analysis of stations
// only resolves the member loads: node loads and prescribed displacements
// act on the stations only through the stored end states.
func (a *analysis) resolveCase(lc *LoadCase) (*caseLoads, error) {
	c := newCaseLoads(6 * len(a.pos))
	if !a.stationsOnly {
		if err := a.resolveNodeLoads(c, lc); err != nil {
			return nil, err
		}
	}
	if err := a.resolveMemberLoads(c, lc); err != nil {
		return nil, err
	}
	if !a.stationsOnly {
		if err := a.resolvePrescribed(c, lc); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// resolveNodeLoads adds the node loads of lc to c.
func (a *analysis) resolveNodeLoads(c *caseLoads, lc *LoadCase) error {
	for _, nl := range lc.NodeLoads {
		n, ok := a.nodeIdx[nl.Node]
		if !ok {
			return fmt.Errorf("load case %s: node load on node %q, which does not exist", lc.Name, nl.Node)
		}
		for d := range 6 {
			c.nodeF[6*n+d] += nl.F[d]
		}
	}
	return nil
}

// resolvePrescribed adds the prescribed displacements of lc to c.
func (a *analysis) resolvePrescribed(c *caseLoads, lc *LoadCase) error {
	for _, pd := range lc.Prescribed {
		n, ok := a.nodeIdx[pd.Node]
		if !ok {
			return fmt.Errorf("load case %s: prescribed displacement on node %q, which does not exist", lc.Name, pd.Node)
		}
		for d := range 6 {
			if !pd.Set[d] {
				continue
			}
			g := 6*n + d
			if !a.sup[g].fixed || a.sup[g].oneWay != 0 {
				return fmt.Errorf("load case %s: prescribed displacement at node %s %s needs a fixed two-way support there", lc.Name, pd.Node, dofNames[d])
			}
			c.presc[g] += pd.Value[d]
		}
	}
	return nil
}

// resolveMemberLoads adds the member loads of lc (loads, thermal,
// prestress, self-weight) to c, in member local axes.
func (a *analysis) resolveMemberLoads(c *caseLoads, lc *LoadCase) error {
	for i := range lc.Members {
		ml := &lc.Members[i]
		mi, ok := a.memIdx[ml.Member]
		if !ok {
			return fmt.Errorf("load case %s: member load on member %q, which does not exist", lc.Name, ml.Member)
		}
		if err := a.addMemberLoad(c, a.members[mi], ml); err != nil {
			return fmt.Errorf("load case %s: member %s: %w", lc.Name, ml.Member, err)
		}
	}
	for _, th := range lc.Thermal {
		mi, ok := a.memIdx[th.Member]
		if !ok {
			return fmt.Errorf("load case %s: thermal load on member %q, which does not exist", lc.Name, th.Member)
		}
		m := a.members[mi]
		al := m.mat.Alpha
		s := &c.loadsOf(mi).Strain
		s.Eps += al * th.DT
		if !m.typ.axialOnly() {
			s.KappaZ += -al * th.DTy
			s.KappaY += al * th.DTz
		}
	}
	for _, ps := range lc.Prestress {
		mi, ok := a.memIdx[ps.Member]
		if !ok {
			return fmt.Errorf("load case %s: prestress on member %q, which does not exist", lc.Name, ps.Member)
		}
		m := a.members[mi]
		c.loadsOf(mi).Strain.Eps += -ps.Force / (m.props.E * m.props.A)
	}
	if sw := lc.SelfWeight; sw != ([3]float64{}) {
		for _, m := range a.members {
			w := m.mat.Density * m.props.A * G
			if w == 0 {
				continue
			}
			gl := transform.Vec3{sw[0] * w, sw[1] * w, sw[2] * w}
			loc := m.rot.Apply(gl)
			l := c.loadsOf(m.index)
			var wv [6]float64
			copy(wv[:3], loc[:])
			l.Dists = append(l.Dists, element.DistLoad{X1: 0, X2: m.props.L, W1: wv, W2: wv})
		}
	}
	return nil
}

// addMemberLoad converts one member load into local loads on m.
func (a *analysis) addMemberLoad(c *caseLoads, m *member, ml *MemberLoad) error {
	L := m.props.L
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
		return fmt.Errorf("load direction %v: %w", ml.Direction, transform.ErrBadAxis)
	}
	var local transform.Vec3
	scale := 1.0
	switch ml.Axes {
	case Local:
		local = dir
	case GlobalInclined, GlobalProjected:
		local = m.rot.Apply(dir)
		if ml.Axes == GlobalProjected && (ml.Type == DistributedForce || ml.Type == DistributedMoment) {
			cx := m.rot.X().Dot(dir)
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
	l := c.loadsOf(m.index)
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

// expand resolves a case or combination name into factors on primary load
// cases, following nested combinations and rejecting cycles.
func (a *analysis) expand(name string, f float64, out map[string]float64, path map[string]bool) error {
	if _, ok := a.caseIdx[name]; ok {
		out[name] += f
		return nil
	}
	ci, ok := a.comboIdx[name]
	if !ok {
		return fmt.Errorf("load case or combination %q does not exist", name)
	}
	if path[name] {
		return fmt.Errorf("combination %s refers to itself", name)
	}
	path[name] = true
	defer delete(path, name)
	for _, t := range a.model.Combinations[ci].Terms {
		if err := a.expand(t.Case, f*t.Factor, out, path); err != nil {
			return fmt.Errorf("combination %s: %w", name, err)
		}
	}
	return nil
}
