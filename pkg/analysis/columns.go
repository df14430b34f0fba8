package analysis

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
)

// Results are stored as columns of packed little-endian 8-byte values:
// cheap to write, to read and to slice, and exact (no decimal round trip).
//
// Columns of the static results (one set per job, any number of cases):
//
//	nodes          int64 node ids, model order (ascending)
//	members        int64 [id, nodeA, nodeB] per member, model order
//	{case}:disp    float64 [ux uy uz rx ry rz] per node, m and rad, global
//	{case}:react   float64 [node, Fx Fy Fz Mx My Mz] per supported node, N, N·m
//	{case}:end     float64 per member: end A [Fx Fy Fz Mx My Mz], end B
//	               [same], the member's own end-A displacements (local, after
//	               releases) and an inactive flag (1 when a one-way member
//	               was switched off): 19 values
//	{case}:summary float64 [Load Fx…Mz, Reaction Fx…Mz, Residual, MaxLoad]
//
// and, when the model has plates,
//
//	plates         int64 [id, nodeA, nodeB, nodeC, nodeD] per plate, model
//	               order (nodeD 0 for a triangle)
//	{case}:plate   float64 per plate, plate local axes: the resultants at
//	               the centroid [Fx Fy Fxy (N/m), Mx My Mxy (N·m/m), Vxz Vyz
//	               (N/m)], then the forces the nodes exert on the plate,
//	               [Fx Fy Fz Mx My Mz] per corner A B C D (N, N·m; zeros
//	               for D of a triangle): 32 values
//
// Station values (internal forces, displacements, stresses along members)
// are not stored: they are exact piecewise polynomials of the end state and
// the member's loads, derived when they are queried. Plate stresses and
// Wood–Armer moments are not stored either: they follow from the stored
// resultants and the plate's thicknesses.
const (
	colNodes   = "nodes"
	colMembers = "members"
	colDisp    = "disp"
	colReact   = "react"
	colEnd     = "end"
	colSummary = "summary"
	colPlates  = "plates"
	colPlate   = "plate"
	// colCable, per non-linear case of a model with cables
	// (CaseMeta.Cables): each member's stretched cable length, 0 for the
	// members that are not cables.
	colCable = "cable"
)

// Widths of the rows of each column, in values.
const (
	widthMember  = 3
	widthDisp    = 6
	widthReact   = 7
	widthEnd     = 19
	widthSummary = 14
	widthPlates  = 5
	widthPlate   = 32
)

// maxStored bounds the magnitude of a stored result: far beyond what a
// sane model gives, yet small enough that converting it to job units
// (factors below 1e12) or to percent stays finite.
const maxStored = 1e250

// storable reports whether v may be stored as a result.
func storable(v float64) bool { return math.Abs(v) <= maxStored }

// caseColumns lists the columns stored per load case (colPlate only when
// the model has plates).
var caseColumns = []string{colDisp, colReact, colEnd, colSummary, colPlate, colCable}

// caseColumn names the column col of load case lc.
func caseColumn(lc int64, col string) string { return strconv.FormatInt(lc, 10) + ":" + col }

// packFloats encodes values as packed little-endian float64.
func packFloats(v []float64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return b
}

// packInts encodes values as packed little-endian int64.
func packInts(v []int64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
	}
	return b
}

// floats decodes a packed float64 column of rows of width w.
func floats(b []byte, w int, name string) ([]float64, error) {
	if len(b)%(8*w) != 0 {
		return nil, fmt.Errorf("results column %s holds %d bytes, not whole rows of %d values", name, len(b), w)
	}
	out := make([]float64, len(b)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out, nil
}

// ints decodes a packed int64 column of rows of width w.
func ints(b []byte, w int, name string) ([]int64, error) {
	if len(b)%(8*w) != 0 {
		return nil, fmt.Errorf("results column %s holds %d bytes, not whole rows of %d values", name, len(b), w)
	}
	out := make([]int64, len(b)/8)
	for i := range out {
		out[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out, nil
}
