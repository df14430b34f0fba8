package element

import "github.com/gusset/gusset/pkg/fem/transform"

// FrameBasicStiffness writes the 6×6 basic stiffness kb of the linear
// elastic frame, row-major, into kb (len ≥ 36), in the basic system of the
// co-rotational transform (package transform, BasicAxial … BasicRyB):
// chord elongation, relative twist, and the end rotations about local z and
// local y relative to the chord. It is the stiffness the element keeps in
// its co-rotated frame ([transform.CorotConfig.Tangent] takes it as kb);
// the basic forces are q = kb·v.
//
// It is FrameStiffness with the rigid-body modes removed: EA/L, GJ/L, and
// in each bending plane the Timoshenko rotation block
//
//	E·I/((1 + Φ)·L) · [4 + Φ   2 − Φ]
//	                  [2 − Φ   4 + Φ]
//
// with Φ from ShearParams (0 for a zero shear area), so that Bᵀ·kb·B with
// the linear compatibility B of the chord rotation equals FrameStiffness
// exactly, shear flexibility included. The rotation block has the same
// form in both planes: basic rotations carry no translation, so the sign
// of ry = −dw/dx does not enter. It panics if kb is shorter than 36.
func FrameBasicStiffness(p FrameProps, kb []float64) {
	const n = transform.BasicDOF
	kb = kb[: n*n : n*n]
	clear(kb)
	L := p.L
	phiY, phiZ := ShearParams(p)
	kb[transform.BasicAxial*n+transform.BasicAxial] = p.E * p.A / L
	kb[transform.BasicTwist*n+transform.BasicTwist] = p.G * p.J / L
	basicBend(kb, transform.BasicRzA, transform.BasicRzB, p.E*p.Iz/((1+phiY)*L), phiY)
	basicBend(kb, transform.BasicRyA, transform.BasicRyB, p.E*p.Iy/((1+phiZ)*L), phiZ)
}

// basicBend writes the rotation block c·[4+Φ 2−Φ; 2−Φ 4+Φ] on basic DOFs
// a (end A) and b (end B).
func basicBend(kb []float64, a, b int, c, phi float64) {
	const n = transform.BasicDOF
	kb[a*n+a] = c * (4 + phi)
	kb[b*n+b] = c * (4 + phi)
	kb[a*n+b] = c * (2 - phi)
	kb[b*n+a] = c * (2 - phi)
}
