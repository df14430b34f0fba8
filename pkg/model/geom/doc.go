// Package geom holds pure geometry helpers for the model: 3-vectors, simple
// polygon checks for moving-load loaded areas, and the geometry and local
// axes of 3- and 4-node plates. It uses the standard library only.
//
// # Units and frames
//
// Coordinates and lengths are SI (m), areas m². Angles passed in are in
// degrees because that is how users type them; nothing here stores an
// angle. All frames are right-handed.
//
// # Polygons
//
// A polygon is a ring of [2]float64{x, y} points, in order, closed
// implicitly: the last point joins the first, which must not be repeated.
// Edge i runs from point i to point i+1 (mod n). [PolygonArea] is positive
// for counter-clockwise points (viewed with x right and y up). Error
// messages number points from 1, as a user counts rows in a table; the
// index fields of the error types are 0-based, as Go counts.
//
// # Plates
//
// Corners are given in order A, B, C[, D] around the plate. The unit normal
// follows the right-hand rule: counter-clockwise corners seen from above
// give an upward normal. A quad's normal is that of its mean plane, the
// direction of (C−A)×(D−B), so a slightly warped quad gets the average of
// its two halves' normals regardless of which diagonal splits it.
//
// Plate local axes: local z is the unit normal; local x is the direction
// A→B projected into the plane normal to z, then rotated about z by the
// plate's direction angle (positive counter-clockwise seen from +z); local
// y = z × x. The triad is right-handed and orthonormal.
//
// # Tolerance
//
// Two lengths are taken as equal when they differ by less than [RelTol]
// times the size of the figure (its bounding-box diagonal), and an area as
// zero when it is below RelTol times that size squared. A relative tolerance
// keeps the checks independent of whether a model is a bridge or a bracket.
package geom

// RelTol is the relative tolerance of the degeneracy checks; see the package
// documentation.
const RelTol = 1e-9
