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
//
// # Co-rotational frames
//
// [Corot] is the co-rotational transform of a two-node 3-D frame for large
// displacements and rotations (theory Finite/Large): the element deforms
// in a frame that follows its rigid-body motion, its own stiffness stays
// linear, and the transform carries all the geometric non-linearity
// (Crisfield, Non-linear Finite Element Analysis of Solids and Structures
// vol. 2, 1997, ch. 17; de Souza, Force-based finite element for large
// displacement inelastic analysis of frames, PhD thesis, UC Berkeley 2000,
// ch. 3; the analogue of OpenSees's CorotCrdTransf3d).
//
// State. Each node carries its end translation u (global, m, from the
// initial position) and its total rotation since the initial state as a
// turning matrix Q (package geom, "Turning matrices"; Identity initially).
// Rotations are never added: the rotational part Δθ of a solution
// increment is a spin about the global axes, applied as
// Q ← geom.ExpMap(Δθ)·Q. The global vectors and matrices of the transform
// use the DOF order above, with the rotational slots holding spins and the
// moments conjugate to them, in global axes.
//
// Element frame. e1 is the current chord A→B. Each node turns a copy of
// the initial local axes with it (Q·r0ᵀ, its "end triad"); p is the mean
// of the two end triads' y axes, e3 = e1 × p/|e1 × p| and e2 = e3 × e1
// (Battini & Pacoste, Comput. Meth. Appl. Mech. Eng. 191 (2002) 1755–1789;
// Nour-Omid & Rankin 1991). OpenSees uses the mean rotation of the two
// triads instead (Crisfield 1990); both are objective and reduce to the
// same linear element, and this one has simple exact derivatives. At the
// initial state the frame is r0, the axes the linear frame uses.
//
// Basic system. The six basic deformations v ([BasicAxial] … [BasicRyB])
// are the chord elongation Ln − L0 and, from the rotation vector θ̄ =
// log(e·Q·r0ᵀ) of each end triad relative to the element frame (local
// components, exact at any angle), the relative twist θ̄x(B) − θ̄x(A) and
// the end rotations θ̄z and θ̄y at A and B. Signs follow the right-hand
// rule about the local axes, as the DOFs of package element (so
// θ̄z ≈ +dv/dx and θ̄y ≈ −dw/dx). The basic forces q are conjugate to v;
// the end forces are f = Bᵀ·q with B = ∂v/∂d ([CorotConfig.Forces]), and
// the consistent tangent is K = Bᵀ·kb·B + ∂(Bᵀq)/∂d ([CorotConfig.Tangent]).
// The element's own stiffness kb comes from the element package
// (element.FrameBasicStiffness for the linear elastic frame).
//
// Limits. Each end's rotation relative to the element frame must stay
// below π, and the mean y axis must not turn onto the chord (a relative
// twist of 180°): both are far beyond what a reasonable mesh sees. Rigid
// end offsets are not supported yet: the element ends are the nodes.
package transform
