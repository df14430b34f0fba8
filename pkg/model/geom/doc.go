// Package geom holds the model's 2-D polygon checks, used for the loaded
// areas of moving loads. 3-D geometry (vectors, member and plate axes, plate
// geometry) lives in package github.com/gusset/gusset/pkg/fem/geom, shared
// with the engine; this package keeps only what the engine never needs. It
// uses the standard library and that package only.
//
// # Units
//
// Coordinates and lengths are SI (m), areas m².
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
// # Tolerance
//
// Two lengths are taken as equal when they differ by less than
// [femgeom.RelTol] times the size of the polygon (its bounding-box
// diagonal), and an area as zero when it is below RelTol times that size
// squared, the same rule as the plate checks of the 3-D package. A relative
// tolerance keeps the checks independent of whether a model is a bridge or a
// bracket.
package geom
