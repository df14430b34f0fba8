package domain

// GeometricEndForces writes into q the geometric (P-Δ and P-δ) end forces
// of the member under its global node displacements u (12, end A first)
// and its loads in c (nil: none): K_G,l·T·uₗ, in member local axes at the
// flexible ends, end A then end B, Fx Fy Fz Mx My Mz — the same place as
// FrameState.Q. K_G,l is the local geometric stiffness of the member's
// mean axial force under u and c (element.FrameGeometric, or
// element.TrussGeometric for axial-only members), uₗ the node-side local
// displacements (FrameState.UNode: through the rigid offsets, turned to
// local axes) and T the condensation over released ends, as in
// GeometricStiffness.
//
// Moved to the nodes (local to global axes, then through the offsets) q is
// exactly GeometricStiffness(u, c)·u, so a small-displacement P-Δ
// analysis that adds K_G·u to Resisting can report FrameState.Q + q as the
// member's end actions and find them in equilibrium with its node forces.
// Over a released DOF q is the virtual-work share Tᵀ·K_G,l·T·uₗ, zero
// there, like the linear end actions of a free release.
func (m *FrameElement) GeometricEndForces(u []float64, c *Loads, q []float64) error {
	var s FrameState
	if err := m.stateOf(u, c, &s); err != nil {
		return err
	}
	var kl [144]float64
	m.localGeometric(&s, &kl)
	for i := range 12 {
		v := 0.0
		for j := range 12 {
			v += kl[i*12+j] * s.UNode[j]
		}
		q[i] = v
	}
	return nil
}
