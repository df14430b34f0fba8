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
// # Shear deformation
//
// Shear flexibility uses the exact prismatic Timoshenko solution
// (Przemieniecki, Theory of Matrix Structural Analysis, 1968, §5.6):
// with Φy = 12·E·Iz/(G·Ay·L²) for bending in the x-y plane and
// Φz = 12·E·Iy/(G·Az·L²) for the x-z plane. A shear area of 0 means
// shear-rigid (Φ = 0, Euler–Bernoulli).
package element
