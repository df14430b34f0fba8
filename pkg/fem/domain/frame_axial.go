package domain

import (
	"github.com/gusset/gusset/pkg/fem/element"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// The axial parts of a frame element that a non-linear analysis needs to
// give a member its own axial law (one-way members, cables, gaps, fuses):
// the chord elongation as a row on the node DOFs and the geometric
// stiffness of a given axial force.

// ChordVector writes into b (12, end A first, global node axes) the row
// whose product with the member's global node displacements is the
// elongation of its flexible chord, node side (FrameState.UNode[6] −
// UNode[0]): through the rigid offsets, turned to local axes. By virtual
// work b is also the node forces of a unit tension in the chord.
func (m *FrameElement) ChordVector(b []float64) {
	var ex [12]float64
	for k := range 3 {
		ex[k], ex[6+k] = -m.Rot[0][k], m.Rot[0][k]
	}
	// Offset end j moves by u + θ × e_j, so its axial motion x̂·(θ × e)
	// is θ·(e × x̂).
	x := geom.Vec3(m.Rot[0])
	ca, cb := m.eA.Cross(x), m.eB.Cross(x)
	for k := range 3 {
		ex[3+k], ex[9+k] = -ca[k], cb[k]
	}
	copy(b[:12], ex[:])
}

// GeometricPart selects what of a frame's geometric stiffness a
// second-order analysis takes.
type GeometricPart int

// Geometric parts.
const (
	// GeometricFull is the consistent geometric stiffness
	// (element.FrameGeometric; element.TrussGeometric for axial-only
	// members): P-Δ and P-δ.
	GeometricFull GeometricPart = iota
	// GeometricChord is the string stiffness N/L on the transverse
	// translations of the flexible ends (element.TrussGeometric), for
	// frames too: P-Δ alone, the axial force acting on the chord's
	// rotation, without the member's own curvature (P-δ).
	GeometricChord
)

// MeanAxialForce returns the mean axial force of the member (tension
// positive) under its global node displacements u (12) and its loads in
// c: the axial force GeometricStiffness uses.
func (m *FrameElement) MeanAxialForce(u []float64, c *Loads) (float64, error) {
	var s FrameState
	if err := m.stateOf(u, c, &s); err != nil {
		return 0, err
	}
	return (s.Q[6] - s.Q[0]) / 2, nil
}

// GeometricStiffnessOf writes into out (12×12, global node axes) part of
// the geometric stiffness of the member under the axial force n, tension
// positive, whatever its displacements: GeometricStiffness with n in place
// of the mean axial force of the state.
func (m *FrameElement) GeometricStiffnessOf(n float64, part GeometricPart, out []float64) {
	var kl [144]float64
	m.localGeometricOf(n, part, &kl)
	m.toGlobal(kl[:], out)
}

// GeometricEndForcesOf writes into q part of the geometric end forces of
// the member under its global node displacements u (12) and the axial
// force n: GeometricEndForces with n in place of the mean axial force of
// the state.
func (m *FrameElement) GeometricEndForcesOf(u []float64, n float64, part GeometricPart, q []float64) {
	g := [12]float64(u[:12])
	if m.offset {
		transform.OffsetDisplacements([]geom.Vec3{m.eA, m.eB}, g[:], g[:])
	}
	var ul [12]float64
	transform.ToLocalVector(m.Rot, g[:], ul[:])
	var kl [144]float64
	m.localGeometricOf(n, part, &kl)
	for i := range 12 {
		v := 0.0
		for j := range 12 {
			v += kl[i*12+j] * ul[j]
		}
		q[i] = v
	}
}

// localGeometricOf writes part of the local geometric stiffness of axial
// force n, condensed over released ends.
func (m *FrameElement) localGeometricOf(n float64, part GeometricPart, kl *[144]float64) {
	if m.Type.AxialOnly() {
		element.TrussGeometric(m.Props, n, kl[:])
		return
	}
	if part == GeometricChord {
		element.TrussGeometric(m.Props, n, kl[:])
	} else {
		element.FrameGeometric(m.Props, n, kl[:])
	}
	m.condense(kl)
}
