// Package element holds pure element routines: local stiffness, consistent
// mass and geometric stiffness matrices, end-release condensation, exact
// fixed-end actions of member loads and station values along a member.
// Every routine writes into buffers owned by the caller and allocates
// nothing on its hot path, so an assembler can reuse one scratch buffer per
// worker. Coordinate transforms live in package transform.
//
// # Units
//
// SI throughout: m, N, Pa, N·m, rad, K. Matrices are row-major.
//
// # DOF order (frame)
//
// Twelve DOFs, six per end, end A first:
//
//	0 ux  1 uy  2 uz  3 rx  4 ry  5 rz   (end A)
//	6 ux  7 uy  8 uz  9 rx 10 ry 11 rz   (end B)
//
// Translations and rotations are in member local axes (x from A to B, y and
// z principal axes of the section, right-handed). Rotations follow the
// right-hand rule about the local axis, so in the x-y plane rz = +dv/dx and
// in the x-z plane ry = −dw/dx.
//
//	     y
//	     |
//	     |        B
//	A ---+--------o----> x
//	    /
//	   z
//
// # Sign conventions
//
// End actions (forces returned by k·u or by the fixed-end routines) are the
// forces and moments the nodes exert on the member, in local axes, with the
// same signs as the DOFs. Internal forces (package static) are reported as
// N tension positive, Vy, Vz, T, My, Mz following the "positive face"
// convention: the actions of the part beyond x on the part before x, i.e.
// the negated end-A actions plus the loads between A and x.
//
// # Basic system
//
// For large-displacement analysis the frame is used through the
// co-rotational transform of package transform, which strips the rigid-body
// motion and leaves six basic deformations (transform.BasicAxial …
// transform.BasicRyB): chord elongation, relative twist, and the rotations
// of each end about local z and local y relative to the chord, with the
// signs of the end rotations above. [FrameBasicStiffness] is the 6×6
// stiffness in that system, the same Timoshenko member as FrameStiffness
// without its rigid-body modes. The basic forces q = kb·v are the axial
// force (tension positive), the torque (the action at end B) and the four
// end moments, conjugate to the end rotations: about the current local
// axes, as actions of the nodes on the member, to first order in the end
// rotations (the transform handles the finite ones exactly).
//
// # Shear deformation
//
// Shear flexibility uses the exact prismatic Timoshenko solution
// (Przemieniecki, Theory of Matrix Structural Analysis, 1968, §5.6):
// with Φy = 12·E·Iz/(G·Ay·L²) for bending in the x-y plane and
// Φz = 12·E·Iy/(G·Az·L²) for the x-z plane. A shear area of 0 means
// shear-rigid (Φ = 0, Euler–Bernoulli).
package element
