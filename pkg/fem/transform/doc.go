// Package transform computes member local axes and applies the rotations
// between member local and global coordinates, blockwise, to vectors and
// matrices written into caller buffers. Lengths are in m, angles in rad.
//
// # Local-axis convention
//
// Local x runs from end A to end B. Let "up" be the job's vertical axis
// (global +Y by default, or +Z).
//
//   - Non-vertical member, reference direction: local y is the component of
//     "up" perpendicular to x (so y lies in the vertical plane containing x
//     and points upward) and z = x × y.
//   - Vertical member (x parallel to up within 1e-6 rad): local y is global
//     +X for either vertical axis, and z = x × y.
//   - Direction node N: local y is the component of (N − A) perpendicular to
//     x, so N lies in the local x-y plane on the +y side. Error if N is on the
//     member line.
//   - Direction axis d (XAxis … NegativeZAxis): local y is the component of d
//     perpendicular to x. Error if d is parallel to the member.
//
// Then, whatever the reference, the direction angle β rotates y and z about
// x by the right-hand rule:
//
//	y = cos β·y₀ + sin β·z₀,   z = −sin β·y₀ + cos β·z₀.
//
// The axes are right-handed and orthonormal.
//
//	 up (Y)
//	  |     y
//	  |    /           A horizontal member along global X with Y up and
//	  |   A-----x--B   β = 0 has local (x, y, z) = global (X, Y, Z).
//	  |  /
//	  | z
//	  +------------ X
//	 /
//	Z
//
// # Matrices
//
// A Rotation R holds the local unit vectors as rows, so v_local = R·v_global.
// For a member with n nodes and 6 DOFs per node, T = diag(R, R, …, R) and the
// global stiffness is Tᵀ·k·T, computed 3×3 block by 3×3 block.
package transform
