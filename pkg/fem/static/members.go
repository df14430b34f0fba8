package static

import (
	"fmt"
	"math"

	"github.com/gusset/gusset/pkg/fem/element"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// Element is what the assembler needs from any element: its nodes, DOFs
// per node and its stiffness and load vectors in global node axes. Frame
// members implement it today; shells will implement it unchanged.
type Element interface {
	// Nodes returns the indices of the element's nodes in Model.Nodes.
	Nodes() []int
	// DOFsPerNode is 6 for frames and shells.
	DOFsPerNode() int
	// GlobalStiffness writes the n×n global matrix (n = nodes·DOFs per
	// node, row-major) into k.
	GlobalStiffness(k []float64)
}

// member is a frame member prepared for assembly and recovery. Its
// matrices are a separate allocation because evaluating stations from
// stored end states (Stations) needs none, and they are most of its size.
type member struct {
	index    int
	id       string
	typ      MemberType
	nodes    [2]int
	props    element.FrameProps
	rot      transform.Rotation
	eA, eB   transform.Vec3 // global offsets
	rel      element.Releases
	sec      *Section
	mat      *Material
	released bool // some end DOF is released
	offset   bool // some rigid offset is not zero
	sc       stressCoef
	*memberMatrices
}

// memberMatrices are the stiffness matrices of a member.
type memberMatrices struct {
	k0 [144]float64  // local, uncondensed
	kc *[144]float64 // local, condensed; nil when equal to k0 (no releases)
	kg [144]float64  // global node axes, with offsets
	// blocky is set when k0 and kc couple only DOFs of the same group of
	// frameGroups (always, for the element's matrices; checked once),
	// so products with them can skip the structural zeros.
	blocky bool
}

// frameGroups are the groups of local frame DOFs that FrameStiffness
// couples (axial, torsion, bending in x-y, bending in x-z), each in
// ascending order; condensing releases keeps couplings within a group.
var frameGroups = [4][]int{{0, 6}, {3, 9}, {1, 5, 7, 11}, {2, 4, 8, 10}}

// frameGroupOf is the group index of each local DOF.
var frameGroupOf = [12]int{0, 2, 3, 1, 3, 2, 0, 2, 3, 1, 3, 2}

// isBlocky reports whether k couples only DOFs of the same frame group.
func isBlocky(k *[144]float64) bool {
	for i := range 12 {
		for j := range 12 {
			if frameGroupOf[i] != frameGroupOf[j] && k[i*12+j] != 0 {
				return false
			}
		}
	}
	return true
}

// mulAdd writes out = q + k·u for a 12×12 member matrix k. Blocky
// matrices skip their structural zeros; the remaining terms are summed in
// the same order as the full product, so the result is identical.
func mulAdd(k *[144]float64, blocky bool, q, u, out *[12]float64) {
	if !blocky {
		for i := range 12 {
			s := q[i]
			for j := range 12 {
				s += k[i*12+j] * u[j]
			}
			out[i] = s
		}
		return
	}
	for _, g := range frameGroups {
		for _, i := range g {
			s := q[i]
			for _, j := range g {
				s += k[i*12+j] * u[j]
			}
			out[i] = s
		}
	}
}

// stressCoef are the factors turning internal forces into stresses.
type stressCoef struct {
	rA, rAy, rAz float64    // 1/A and 1/shear areas (A where 0)
	by, bz       [2]float64 // bending stress per unit My (+z, −z fibre) and Mz (+y, −y fibre)
	hasY, hasZ   bool       // bending stresses about y and z exist
}

// newStressCoef returns the stress factors of m (see member.stress).
func newStressCoef(m *member) stressCoef {
	p, sec := m.props, m.sec
	ay, az := p.Ay, p.Az
	if ay <= 0 {
		ay = p.A
	}
	if az <= 0 {
		az = p.A
	}
	c := stressCoef{rA: 1 / p.A, rAy: 1 / ay, rAz: 1 / az}
	if !m.typ.axialOnly() {
		if p.Iy > 0 {
			c.by, c.hasY = [2]float64{sec.ZTop / p.Iy, -sec.ZBottom / p.Iy}, true
		}
		if p.Iz > 0 {
			c.bz, c.hasZ = [2]float64{-sec.YTop / p.Iz, sec.YBottom / p.Iz}, true
		}
	}
	return c
}

// Nodes implements Element.
func (m *member) Nodes() []int { return m.nodes[:] }

// DOFsPerNode implements Element.
func (m *member) DOFsPerNode() int { return 6 }

// GlobalStiffness implements Element.
func (m *member) GlobalStiffness(k []float64) { copy(k, m.kg[:]) }

// trussReleases frees bending at both ends and torsion at both ends, which
// condenses a frame to an axial bar while transverse member loads still go
// to the nodes as simple-span reactions.
var trussReleases = func() element.Releases {
	r, _ := element.ParseReleases("FFFRRR", "FFFRRR", [6]float64{}, [6]float64{})
	return r
}()

func factor(f float64) float64 {
	if f == 0 {
		return 1
	}
	return f
}

// buildMember resolves names, checks the member and computes its
// geometry, properties and stress factors and, unless the analysis only
// evaluates stations (which need no stiffness), its matrices.
func (a *analysis) buildMember(i int) (*member, error) {
	mm := &a.model.Members[i]
	m := &member{index: i, id: mm.ID, typ: mm.Type}
	for e, id := range [2]string{mm.NodeA, mm.NodeB} {
		n, ok := a.nodeIdx[id]
		if !ok {
			return nil, fmt.Errorf("member %s: node %q does not exist", mm.ID, id)
		}
		m.nodes[e] = n
	}
	sec, ok := a.secIdx[mm.Section]
	if !ok {
		return nil, fmt.Errorf("member %s: section %q does not exist", mm.ID, mm.Section)
	}
	mat, ok := a.matIdx[mm.Material]
	if !ok {
		return nil, fmt.Errorf("member %s: material %q does not exist", mm.ID, mm.Material)
	}
	m.sec, m.mat = sec, mat

	dir := mm.Direction
	if dir.Kind == transform.DirectionNode {
		n, ok := a.nodeIdx[mm.DirectionNode]
		if !ok {
			return nil, fmt.Errorf("member %s: direction node %q does not exist", mm.ID, mm.DirectionNode)
		}
		dir.Node = a.pos[n]
	}
	// The section's principal axes are the member's local axes, for
	// Local offsets as for Local loads and all results.
	dir.Angle += sec.PrincipalAngle
	pa, pb := a.pos[m.nodes[0]], a.pos[m.nodes[1]]
	m.eA, m.eB = mm.OffsetA, mm.OffsetB
	if mm.OffsetsLocal && (m.eA != transform.Vec3{} || m.eB != transform.Vec3{}) {
		// Local offsets are components along the principal axes of the
		// node-to-node line; the member's own axes follow from its ends.
		r0, err := transform.LocalAxes(pa, pb, dir, a.model.VerticalAxis)
		if err != nil {
			return nil, fmt.Errorf("member %s: %w", mm.ID, err)
		}
		m.eA, m.eB = r0.ApplyT(m.eA), r0.ApplyT(m.eB)
	}
	rot, err := transform.LocalAxes(pa.Add(m.eA), pb.Add(m.eB), dir, a.model.VerticalAxis)
	if err != nil {
		return nil, fmt.Errorf("member %s: %w", mm.ID, err)
	}
	m.rot = rot
	m.props = element.FrameProps{
		L: pb.Add(m.eB).Sub(pa.Add(m.eA)).Norm(),
		E: mat.E, G: mat.G,
		A: sec.A * factor(mm.AreaFactor), Ay: sec.Ay, Az: sec.Az,
		J: sec.J * factor(mm.TorsionFactor), Iy: sec.Iy * factor(mm.IyFactor), Iz: sec.Iz * factor(mm.IzFactor),
	}
	if err := checkProps(m); err != nil {
		return nil, fmt.Errorf("member %s: %w", mm.ID, err)
	}
	if m.typ.axialOnly() {
		m.rel = trussReleases
	} else {
		m.rel, err = element.ParseReleases(mm.ReleaseA, mm.ReleaseB, mm.SpringsA, mm.SpringsB)
		if err != nil {
			return nil, fmt.Errorf("member %s: %w", mm.ID, err)
		}
	}
	m.released = m.rel.Any()
	m.offset = m.eA != (transform.Vec3{}) || m.eB != (transform.Vec3{})
	m.sc = newStressCoef(m)
	if a.stationsOnly {
		return m, nil
	}
	if err := m.formMatrices(); err != nil {
		return nil, err
	}
	return m, nil
}

// formMatrices computes the local, condensed and global stiffness of m.
func (m *member) formMatrices() error {
	m.memberMatrices = new(memberMatrices)
	element.FrameStiffness(m.props, m.k0[:])
	kc := &m.k0
	if m.released {
		kc = new([144]float64)
		*kc = m.k0
		if err := element.Condense(kc[:], nil, &m.rel); err != nil {
			return fmt.Errorf("member %s: %w", m.id, err)
		}
		if m.typ.axialOnly() {
			// Exact bar matrix: condensation leaves round-off in bending.
			element.TrussStiffness(m.props, kc[:])
		}
		m.kc = kc
	}
	transform.ToGlobalMatrix(m.rot, 12, kc[:], m.kg[:])
	transform.OffsetMatrix(m.eA, m.eB, m.kg[:])
	m.blocky = isBlocky(&m.k0) && isBlocky(kc)
	return nil
}

func checkProps(m *member) error {
	p := m.props
	pos := func(name string, v float64) error {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%s must be positive, got %g", name, v)
		}
		return nil
	}
	for _, c := range []struct {
		n string
		v float64
	}{{"length", p.L}, {"E", p.E}, {"A", p.A}} {
		if err := pos(c.n, c.v); err != nil {
			return err
		}
	}
	if m.typ.axialOnly() {
		return nil
	}
	for _, c := range []struct {
		n string
		v float64
	}{{"G", p.G}, {"J", p.J}, {"Iy", p.Iy}, {"Iz", p.Iz}} {
		if err := pos(c.n, c.v); err != nil {
			return err
		}
	}
	if p.Ay < 0 || p.Az < 0 {
		return fmt.Errorf("shear areas must not be negative")
	}
	return nil
}

// fixedEnd returns the condensed local fixed-end actions of loads l and
// also the uncondensed ones (for recovery).
func (m *member) fixedEnd(l *element.MemberLoads, qc, q0 []float64) error {
	clear(q0[:12])
	var scratch [144]float64
	element.FixedEndActions(m.props, l, q0, scratch[:])
	copy(qc, q0[:12])
	if m.kc == nil { // no releases: nothing to condense
		return nil
	}
	k := m.k0
	if err := element.Condense(k[:], qc, &m.rel); err != nil {
		return fmt.Errorf("member %s: %w", m.id, err)
	}
	return nil
}

// nodeLoads converts condensed local fixed-end actions into global
// equivalent node loads (the negated actions, moved through offsets).
func (m *member) nodeLoads(qc []float64, out []float64) {
	var g [12]float64
	transform.ToGlobalVector(m.rot, qc[:12], g[:])
	if m.offset {
		transform.OffsetForces(m.eA, m.eB, g[:], g[:])
	}
	for i := range 12 {
		out[i] = -g[i]
	}
}
