// Package transform applies member rotations and rigid end offsets to
// element matrices and vectors, blockwise, writing into caller buffers. The
// axes themselves (vectors, [geom.Rotation], member local axes and their
// rules) live in package geom; this package only moves element quantities
// between the frames geom defines. Lengths are in m, angles in rad.
//
// # DOF order
//
// Element matrices and vectors are row-major and ordered node by node, six
// DOFs per node, translations before rotations:
//
//	0 ux  1 uy  2 uz  3 rx  4 ry  5 rz   (end A)
//	6 ux  7 uy  8 uz  9 rx 10 ry 11 rz   (end B)
//
// The rotation functions act on every consecutive triple, so they serve any
// n that is a multiple of 3; the offset functions take one offset per node
// (n = 6 per node), so they serve members and plates alike.
//
// # Rotations
//
// A [geom.Rotation] R holds the local unit vectors as rows, so
// v_local = R·v_global. For a member with n nodes, T = diag(R, R, …, R) and
// the global stiffness is Tᵀ·k·T, computed 3×3 block by 3×3 block
// ([ToGlobalMatrix]); vectors go triple by triple ([ToGlobalVector],
// [ToLocalVector]).
//
// # Rigid end offsets
//
// A member end sits at node + e, where e is the offset vector in global
// axes, joined to the node by a rigid link. A plate's reference surface is
// joined to its corner nodes the same way (its offset along the normal,
// and the projection of a warped quad's corners onto its mean plane), with
// the offsets in plate local axes. For small rotations the end
// displacement is
//
//	u_end = u_node + θ_node × e,   θ_end = θ_node,
//
// i.e. u_end = H·u_node with H = [I −[e]ₓ; 0 I] per node, and end forces
// move to the node as F_node = F_end, M_node = M_end + e × F_end (Hᵀ):
// [OffsetDisplacements], [OffsetForces], and [OffsetMatrix] for Hᵀ·k·H.
// Offsets are applied in global axes, after the rotation to global.
//
// Offsets given in member local axes are turned into global ones first,
// e = Rᵀ·e_local ([geom.Rotation.ApplyT]), where R is [geom.LocalAxes] of
// the node-to-node line with the member's full angle: its direction angle
// plus the section's principal angle, the same axes as its local loads and
// results (package static).
package transform
