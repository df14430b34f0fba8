package domain

import (
	"fmt"
	"math"

	"github.com/gusset/gusset/pkg/fem/element"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// FrameElement is a member prepared for analysis: the frame element family. It
// joins the pure routines of package element (local matrices, releases,
// fixed-end actions) with the transforms of package transform (local axes,
// rigid offsets). Its matrices are a separate allocation because
// evaluating stations from stored end states needs none, and they are most
// of its size.
type FrameElement struct {
	Index    int   // in Model.Members
	MemberID int64 // Model.Members[Index].ID
	Type     MemberType
	nodes    [2]int
	// Props are the flexible length's properties, factors applied.
	Props element.FrameProps
	// Rot are the member's local axes (rows x, y, z in global
	// coordinates, principal angle included).
	Rot      geom.Rotation
	eA, eB   geom.Vec3 // rigid offsets, global axes
	rel      element.Releases
	Sec      *Section
	Mat      *Material
	released bool // some end DOF is released
	offset   bool // some rigid offset is not zero
	*frameMatrices
}

var _ Element = (*FrameElement)(nil)

// frameMatrices are the stiffness matrices of a member.
type frameMatrices struct {
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

// ID implements Element: the member's id.
func (m *FrameElement) ID() int64 { return m.MemberID }

// Nodes implements Element.
func (m *FrameElement) Nodes() []int { return m.nodes[:] }

// NumForces implements Element: the 12 end actions.
func (m *FrameElement) NumForces() int { return 12 }

// InternalForces implements Element: the end actions on the member in its
// local axes, end A then end B, Fx Fy Fz Mx My Mz (FrameState.Q).
func (m *FrameElement) InternalForces(u []float64, c *Loads, q []float64) error {
	var s FrameState
	if err := m.stateOf(u, c, &s); err != nil {
		return err
	}
	copy(q, s.Q[:])
	return nil
}

// DOFsPerNode implements Element.
func (m *FrameElement) DOFsPerNode() int { return 6 }

// Stiffness implements Element: the condensed stiffness in global node
// axes, through the rigid offsets.
func (m *FrameElement) Stiffness(k []float64) { copy(k, m.kg[:]) }

// toGlobal writes the local 12×12 matrix kl in global node axes, through
// the rigid offsets, into k.
func (m *FrameElement) toGlobal(kl, k []float64) {
	transform.ToGlobalMatrix(m.Rot, 12, kl, k)
	transform.OffsetMatrix([]geom.Vec3{m.eA, m.eB}, k)
}

// Mass implements Element: element.FrameMass (element.TrussMass for
// axial-only members) of the flexible length with the section's own area
// and inertias (the stiffness factors do not change the mass), condensed
// over released ends like the stiffness, and moved to the nodes through
// the rigid offsets.
func (m *FrameElement) Mass(out []float64) {
	var ml [144]float64
	p := m.Props
	p.A, p.Iy, p.Iz = m.Sec.A, m.Sec.Iy, m.Sec.Iz
	if m.Type.AxialOnly() {
		element.TrussMass(p, m.Mat.Density, ml[:])
	} else {
		element.FrameMass(p, m.Mat.Density, ml[:])
		m.condense(&ml)
	}
	m.toGlobal(ml[:], out)
}

// GeometricStiffness implements Element: element.FrameGeometric (or
// element.TrussGeometric for axial-only members) for the mean axial force
// of the member under u and its loads in c, condensed over released ends
// like the stiffness.
func (m *FrameElement) GeometricStiffness(u []float64, c *Loads, out []float64) error {
	var s FrameState
	if err := m.stateOf(u, c, &s); err != nil {
		return err
	}
	var kl [144]float64
	m.localGeometric(&s, &kl)
	m.toGlobal(kl[:], out)
	return nil
}

// localGeometric writes the local geometric stiffness of the member in
// state s: that of its mean axial force, condensed over released ends.
func (m *FrameElement) localGeometric(s *FrameState, kl *[144]float64) {
	m.localGeometricOf((s.Q[6]-s.Q[0])/2, GeometricFull, kl) // tension positive
}

// condense replaces the local matrix a, over the member's own end DOFs, by
// Tᵀ·a·T, where T maps node-side displacements to the member's end
// displacements through the releases (element.MemberEndDisplacements with
// no load): a released DOF follows the stiffness, not its node, so it adds
// no mass or geometric stiffness of its own to the node. Without releases
// T is the identity and a is left as it is.
func (m *FrameElement) condense(a *[144]float64) {
	if !m.released {
		return
	}
	var t [144]float64 // column j: member-end displacements for a unit node-side DOF j
	var e, col [12]float64
	var scratch [156]float64
	for j := range 12 {
		e[j] = 1
		// The released block of k0 is regular (Build condensed it), so
		// this cannot fail.
		_ = element.MemberEndDisplacements(m.k0[:], nil, &m.rel, e[:], col[:], scratch[:])
		e[j] = 0
		for i := range 12 {
			t[i*12+j] = col[i]
		}
	}
	var at [144]float64 // a·T
	for i := range 12 {
		for j := range 12 {
			s := 0.0
			for k := range 12 {
				s += a[i*12+k] * t[k*12+j]
			}
			at[i*12+j] = s
		}
	}
	for i := range 12 {
		for j := range 12 {
			s := 0.0
			for k := range 12 {
				s += t[k*12+i] * at[k*12+j]
			}
			a[i*12+j] = s
		}
	}
}

// Resisting implements Element: the forces the nodes exert on the member,
// global axes (FrameState.FNode).
func (m *FrameElement) Resisting(u []float64, c *Loads, f []float64) error {
	var s FrameState
	if err := m.stateOf(u, c, &s); err != nil {
		return err
	}
	copy(f, s.FNode[:])
	return nil
}

// LoadVector implements Element: the equivalent node loads of the
// member's loads in c.
func (m *FrameElement) LoadVector(c *Loads, p []float64) error {
	l := c.MemberLoads(m.Index)
	if l.Empty() {
		return nil
	}
	var qc, q0, pe [12]float64
	if err := m.FixedEnd(l, qc[:], q0[:]); err != nil {
		return err
	}
	m.NodeLoads(qc[:], pe[:])
	for i := range 12 {
		p[i] += pe[i]
	}
	return nil
}

// stateOf recovers the member's state under element displacements u and
// its loads in c.
func (m *FrameElement) stateOf(u []float64, c *Loads, s *FrameState) error {
	l := c.MemberLoads(m.Index)
	var qc, q0 [12]float64
	if !l.Empty() {
		if err := m.FixedEnd(l, qc[:], q0[:]); err != nil {
			return err
		}
	}
	var ug [12]float64
	copy(ug[:], u[:12])
	return m.End(&ug, &qc, &q0, s)
}

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

// buildFrame resolves ids, checks the member and computes its
// geometry and properties and, when matrices is set, its matrices.
func (d *Domain) buildFrame(i int, matrices bool) (*FrameElement, error) {
	mm := &d.Model.Members[i]
	m := &FrameElement{Index: i, MemberID: mm.ID, Type: mm.Type}
	for e, id := range [2]int64{mm.NodeA, mm.NodeB} {
		n, ok := d.nodeIdx[id]
		if !ok {
			return nil, ModelErrorf(ModelError{Member: mm.ID, Node: id}, "member %d: node \"%d\" does not exist", mm.ID, id)
		}
		m.nodes[e] = n
	}
	sec, ok := d.secIdx[mm.Section]
	if !ok {
		return nil, ModelErrorf(ModelError{Member: mm.ID}, "member %d: section \"%d\" does not exist", mm.ID, mm.Section)
	}
	mat, ok := d.matIdx[mm.Material]
	if !ok {
		return nil, ModelErrorf(ModelError{Member: mm.ID}, "member %d: material \"%d\" does not exist", mm.ID, mm.Material)
	}
	m.Sec, m.Mat = sec, mat

	var dirNode geom.Vec3
	if mm.Direction.Kind == geom.DirectionNode {
		n, ok := d.nodeIdx[mm.DirectionNode]
		if !ok {
			return nil, ModelErrorf(ModelError{Member: mm.ID, Node: mm.DirectionNode}, "member %d: direction node \"%d\" does not exist", mm.ID, mm.DirectionNode)
		}
		dirNode = d.Pos[n]
	}
	pa, pb := d.Pos[m.nodes[0]], d.Pos[m.nodes[1]]
	var err error
	m.eA, m.eB, m.Rot, err = memberLine(mm, pa, pb, dirNode, sec.PrincipalAngle, d.Model.VerticalAxis)
	if err != nil {
		return nil, ModelErrorf(ModelError{Member: mm.ID}, "member %d: %w", mm.ID, err)
	}
	m.Props = element.FrameProps{
		L: pb.Add(m.eB).Sub(pa.Add(m.eA)).Norm(),
		E: mat.E, G: mat.G,
		A: sec.A * factor(mm.AreaFactor), Ay: sec.Ay, Az: sec.Az,
		J: sec.J * factor(mm.TorsionFactor), Iy: sec.Iy * factor(mm.IyFactor), Iz: sec.Iz * factor(mm.IzFactor),
	}
	if err := checkProps(m); err != nil {
		return nil, ModelErrorf(ModelError{Member: mm.ID}, "member %d: %w", mm.ID, err)
	}
	if m.Type.AxialOnly() {
		m.rel = trussReleases
	} else {
		m.rel, err = element.ParseReleases(mm.ReleaseA, mm.ReleaseB, mm.SpringsA, mm.SpringsB)
		if err != nil {
			return nil, ModelErrorf(ModelError{Member: mm.ID}, "member %d: %w", mm.ID, err)
		}
	}
	m.released = m.rel.Any()
	m.offset = m.eA != (geom.Vec3{}) || m.eB != (geom.Vec3{})
	if !matrices {
		return m, nil
	}
	if err := m.formMatrices(); err != nil {
		return nil, err
	}
	return m, nil
}

// memberLine returns member mm's rigid offsets in global axes and its
// local axes, given its node positions pa and pb, the position of its
// direction node (read only when mm is oriented by one) and its section's
// principal angle. Subdivide places segments with it, so that they lie on
// exactly the flexible line of the member's own element.
func memberLine(mm *Member, pa, pb, dirNode geom.Vec3, principal float64, vertical geom.Axis) (eA, eB geom.Vec3, rot geom.Rotation, err error) {
	dir := mm.Direction
	if dir.Kind == geom.DirectionNode {
		dir.Node = dirNode
	}
	// The section's principal axes are the member's local axes, for
	// Local offsets as for Local loads and all results.
	dir.Angle += principal
	eA, eB = mm.OffsetA, mm.OffsetB
	if mm.OffsetsLocal && (eA != geom.Vec3{} || eB != geom.Vec3{}) {
		// Local offsets are components along the principal axes of the
		// node-to-node line; the member's own axes follow from its ends.
		r0, err := geom.LocalAxes(pa, pb, dir, vertical)
		if err != nil {
			return eA, eB, rot, err
		}
		eA, eB = r0.ApplyT(eA), r0.ApplyT(eB)
	}
	rot, err = geom.LocalAxes(pa.Add(eA), pb.Add(eB), dir, vertical)
	return eA, eB, rot, err
}

// formMatrices computes the local, condensed and global stiffness of m.
func (m *FrameElement) formMatrices() error {
	m.frameMatrices = new(frameMatrices)
	element.FrameStiffness(m.Props, m.k0[:])
	kc := &m.k0
	if m.released {
		kc = new([144]float64)
		*kc = m.k0
		if err := element.Condense(kc[:], nil, &m.rel); err != nil {
			return ModelErrorf(ModelError{Member: m.MemberID}, "member %d: %w", m.MemberID, err)
		}
		if m.Type.AxialOnly() {
			// Exact bar matrix: condensation leaves round-off in bending.
			element.TrussStiffness(m.Props, kc[:])
		}
		m.kc = kc
	}
	m.toGlobal(kc[:], m.kg[:])
	m.blocky = isBlocky(&m.k0) && isBlocky(kc)
	return nil
}

func checkProps(m *FrameElement) error {
	p := m.Props
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
	if m.Type.AxialOnly() {
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

// FixedEnd writes the condensed local fixed-end actions of loads l into qc
// and the uncondensed ones (for recovery) into q0, 12 each.
func (m *FrameElement) FixedEnd(l *element.MemberLoads, qc, q0 []float64) error {
	clear(q0[:12])
	var scratch [144]float64
	element.FixedEndActions(m.Props, l, q0, scratch[:])
	copy(qc, q0[:12])
	if !m.released { // no releases: nothing to condense
		return nil
	}
	var k0 [144]float64
	if m.frameMatrices != nil {
		k0 = m.k0
	} else {
		element.FrameStiffness(m.Props, k0[:])
	}
	if err := element.Condense(k0[:], qc, &m.rel); err != nil {
		return ModelErrorf(ModelError{Member: m.MemberID}, "member %d: %w", m.MemberID, err)
	}
	return nil
}

// NodeLoads converts condensed local fixed-end actions qc into global
// equivalent node loads (the negated actions, moved through offsets).
func (m *FrameElement) NodeLoads(qc []float64, out []float64) {
	var g [12]float64
	transform.ToGlobalVector(m.Rot, qc[:12], g[:])
	if m.offset {
		transform.OffsetForces([]geom.Vec3{m.eA, m.eB}, g[:], g[:])
	}
	for i := range 12 {
		out[i] = -g[i]
	}
}

// FrameState is a member's recovered end state for one case.
type FrameState struct {
	UNode [12]float64 // node-side local displacements
	UMem  [12]float64 // member's own end displacements (after releases)
	Q     [12]float64 // end actions on the member, local
	FNode [12]float64 // forces the nodes exert on the member, global axes at the nodes
}

// End recovers the member's end state s from its global node
// displacements ug (12, end A first) and the fixed-end actions qc, q0 of
// its loads (FixedEnd; zero when unloaded): the frame family's recovery.
func (m *FrameElement) End(ug, qc, q0 *[12]float64, s *FrameState) error {
	g := *ug
	if m.offset {
		var ue [12]float64
		transform.OffsetDisplacements([]geom.Vec3{m.eA, m.eB}, g[:], ue[:])
		g = ue
	}
	transform.ToLocalVector(m.Rot, g[:], s.UNode[:])
	if m.released {
		var scratch [156]float64
		if err := element.MemberEndDisplacements(m.k0[:], q0[:], &m.rel, s.UNode[:], s.UMem[:], scratch[:]); err != nil {
			return fmt.Errorf("member %d: %w", m.MemberID, err)
		}
	} else {
		s.UMem = s.UNode
	}
	mulAdd(&m.k0, m.blocky, q0, &s.UMem, &s.Q)
	// Node forces through the condensed matrix, so springs in releases
	// act on the node side exactly as assembled. Without releases that
	// is q itself.
	fl := s.Q
	if m.kc != nil {
		mulAdd(m.kc, m.blocky, qc, &s.UNode, &fl)
	}
	transform.ToGlobalVector(m.Rot, fl[:], s.FNode[:])
	if m.offset {
		transform.OffsetForces([]geom.Vec3{m.eA, m.eB}, s.FNode[:], s.FNode[:])
	}
	return nil
}
