// Package geom is the one home of geometry, shared by the engine and the
// model: vectors, signed global axes, rotations, member local axes, the
// geometry and local axes of 3- and 4-node plates, and the 2-D polygon
// checks of the model's loaded areas (moving loads). It sits under pkg/fem
// so that the engine, which may import only the standard library, gonum and
// pkg/fem, and the model checks and editor, which may import pkg/fem, use the
// same types, the same axis rules and one tolerance. It uses the standard
// library only.
//
// # Units and frames
//
// Coordinates and lengths are SI (m), areas m². Member angles
// ([Direction.Angle], [AboutX]) are in rad, as the engine works in rad; the
// plate direction angle passed to [PlateAxes] is in degrees, because that is
// how users type it and plates are built by the model, not the engine.
// Nothing here stores an angle. All frames are right-handed and
// orthonormal.
//
// # Member local axes
//
// [LocalAxes] builds a member's axes. Local x runs from end A to end B. Let
// "up" be the job's vertical axis (global +Y by default, or +Z).
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
// A [Rotation] R holds the local unit vectors as rows, so
// v_local = R·v_global and v_global = Rᵀ·v_local.
//
// # Turning matrices
//
// A [Rotation] also serves as a turning matrix Q (an active rotation):
// Q.Apply(v) is the vector v turned, e.g. a vector fixed to a node taken
// from its initial to its current direction. The two readings are
// transposes of each other: the global axes turned by Q are the rows of
// Qᵀ, and a frame R (rows) turned by Q becomes R·Qᵀ. [ExpMap] gives the Q
// of a rotation vector θ (the angle |θ| in rad about the axis θ/|θ|,
// right-hand rule), [LogMap] the θ with |θ| ≤ π of a Q. Turns compose by
// [Rotation.Mul]: Q₂·Q₁ is Q₁ then Q₂, and a further turn about global
// axes multiplies on the left. Finite rotation vectors do not add (θ₁ + θ₂
// is not the vector of the composed turn, and turns do not commute), so
// large rotations are stored as matrices and updated as
// Q ← ExpMap(Δθ)·Q; [ExpJacobian] and [ExpJacobianInv] relate a change of
// θ to the spin of the frame. [Skew] is the cross-product matrix [v]ₓ.
//
// # Plates
//
// Corners are given in order A, B, C[, D] around the plate. The unit normal
// follows the right-hand rule: counter-clockwise corners seen from above
// give an upward normal. A quad's normal is that of its mean plane, the
// direction of (C−A)×(D−B), so a slightly warped quad gets the average of
// its two halves' normals regardless of which diagonal splits it.
//
// Plate local axes ([PlateAxes], a [PlateFrame]): local z is the unit
// normal; local x is the direction A→B projected into the plane normal to z,
// then rotated about z by the plate's direction angle (positive
// counter-clockwise seen from +z); local y = z × x. A plate oriented by a
// reference direction d instead ([PlateAxesToward], e.g. a global axis) has
// local x along d projected into that plane, and one oriented by a direction
// node N ([PlateAxesTowardNode]) takes d = N − A; d must not be parallel to
// the normal.
//
// # Polygons
//
// A polygon is a ring of [2]float64{x, y} points, in order, closed
// implicitly: the last point joins the first, which must not be repeated.
// Edge i runs from point i to point i+1 (mod n). [PolygonArea] is positive
// for counter-clockwise points (viewed with x right and y up).
// [ValidateSimplePolygon] refuses what is not a simple polygon with a
// [*PolygonError]; its messages number points from 1, as a user counts rows
// in a table, while the index fields of the error types are 0-based, as Go
// counts. The engine never needs polygons; they live here so that loaded
// areas and plates agree on what "degenerate" means.
//
// # Tolerance
//
// Two lengths are taken as equal when they differ by less than [RelTol]
// times the size of the figure (its bounding-box diagonal), and an area as
// zero when it is below RelTol times that size squared; plates and polygons
// alike. A relative tolerance keeps the checks independent of whether a
// model is a bridge or a bracket.
package geom

// RelTol is the relative tolerance of the degeneracy checks of plates and
// polygons; see the package documentation.
const RelTol = 1e-9
