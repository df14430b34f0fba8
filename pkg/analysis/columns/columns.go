package columns

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"structs"
	"unsafe"

	"github.com/gusset/gusset/pkg/fem/domain"
)

// Results are stored as columns of packed little-endian 8-byte values:
// cheap to write, to read and to slice, and exact (no decimal round trip).
// A column is a run of rows of one record type declared in this file, and
// that type is the layout: its fields in order, each an 8-byte value or
// an array of them, are the values of a row in order. Packing, reading,
// the check of a job file's results and every size derive from these
// types (column, below), so that no other code knows where a value sits
// in a row (columns_source_test.go holds the rest of the package to it).
//
// Columns of the static results (one set per job, any number of cases):
//
//	nodes          int64 node ids, model order (ascending)
//	members        memberRow per member, model order
//	{case}:disp    dispRow per node, model order
//	{case}:react   reactRow per supported node, model order
//	{case}:end     endRow per member, model order
//	{case}:summary one summaryRow
//
// and, when the model has plates,
//
//	plates         plateNodesRow per plate, model order
//	{case}:plate   plateForcesRow per plate, model order
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
	// (CaseMeta.Cables): each member's stretched cable length (float64,
	// m), 0 for the members that are not cables.
	colCable = "cable"
)

// The buckling and dynamic-frequency results (one set per kind and job)
// share one layout: the model's nodes and members as in the static
// results, and per load case
//
//	{case}:modes   modeRow per mode
//	{case}:shapes  dispRow per mode and node, mode by mode: the shape as
//	               the eigensolver returns it (frequencies:
//	               mass-normalized) or with its largest translation 1
//	               (buckling)
//	{case}:lengths effLengthRow per mode and member, mode by mode
//	               (buckling only)
const (
	colModes   = "modes"
	colShapes  = "shapes"
	colLengths = "lengths"
)

// The row types. Each starts with a structs.HostLayout marker, which
// fixes its fields in declaration order without padding (checked by
// declare): the row's memory is its stored values, so a column is read
// and written as one copy, with no per-value work. The layout comment of
// each gives its stored values in order; columns_layout_test.go pins them
// byte by byte.

// MemberRow is a row of the members column.
//
//	layout: [id nodeA nodeB] int64
type MemberRow struct {
	_            structs.HostLayout
	ID           int64
	NodeA, NodeB int64
}

// PlateNodesRow is a row of the plates column.
//
//	layout: [id nodeA nodeB nodeC nodeD] int64, nodeD 0 for a triangle
type PlateNodesRow struct {
	_     structs.HostLayout
	ID    int64
	Nodes [4]int64
}

// Corners returns the plate's corner nodes: three for a triangle, four
// for a quadrilateral.
func (r *PlateNodesRow) Corners() []int64 {
	if r.Nodes[3] == 0 {
		return r.Nodes[:3]
	}
	return r.Nodes[:]
}

// DispRow is a row of a disp column (a node's displacements, m and rad)
// and of a shapes column (a node's motion in a mode shape).
//
//	layout: [ux uy uz rx ry rz] float64, global axes
type DispRow struct {
	_ structs.HostLayout
	U [6]float64
}

// ReactRow is a row of a react column: a supported node and its reaction.
//
//	layout: [node Fx Fy Fz Mx My Mz] float64: the node id, then the
//	reaction in global axes, N and N·m
type ReactRow struct {
	_    structs.HostLayout
	Node float64
	F    [6]float64
}

// EndRow is a row of an end column: what fixes a member's state.
//
//	layout: [end A: Fx Fy Fz Mx My Mz, end B: Fx … Mz, dispA: ux uy uz
//	rx ry rz, inactive] float64: 19 values. The end actions are in
//	member local axes, N and N·m; dispA are the member's own end-A
//	displacements (local, after releases); inactive is 1 when a one-way
//	member was switched off, else 0.
type EndRow struct {
	_        structs.HostLayout
	A, B     [6]float64
	DispA    [6]float64
	Inactive float64
}

// IsInactive reports whether the member was switched off.
func (r *EndRow) IsInactive() bool { return r.Inactive != 0 }

// NewEndRow is the row of a member with end actions a and b, end-A
// displacements dispA, switched off when inactive.
func NewEndRow(a, b, dispA *[6]float64, inactive bool) EndRow {
	r := EndRow{A: *a, B: *b, DispA: *dispA}
	if inactive {
		r.Inactive = 1
	}
	return r
}

// SummaryRow is the one row of a summary column.
//
//	layout: [load Fx Fy Fz Mx My Mz, reaction Fx … Mz, residual,
//	maxLoad] float64: 14 values, global axes
type SummaryRow struct {
	_                 structs.HostLayout
	Load, Reaction    [6]float64
	Residual, MaxLoad float64
}

// PlateForcesRow is a row of a plate column, in plate local axes.
//
//	layout: [Fx Fy Fxy, Mx My Mxy, Vxz Vyz, corner A: Fx Fy Fz Mx My Mz,
//	corner B …, corner C …, corner D …] float64: 32 values. The first
//	eight are the resultants at the centroid (N/m, N·m/m, N/m); the
//	corners hold the forces the nodes exert on the plate (N, N·m), zeros
//	for D of a triangle and for an inactive plate.
type PlateForcesRow struct {
	_       structs.HostLayout
	F       [3]float64
	M       [3]float64
	V       [2]float64
	Corners [4][6]float64
}

// ModeRow is a row of a modes column.
//
//	layout: [value, period, residual, iterations, partX partY partZ,
//	nodeT, axisT, nodeR, axisR] float64: 11 values. value is the
//	frequency (Hz) or the load factor, period in s (0 for buckling),
//	part* the mass participation fractions (0 for buckling), nodeT and
//	nodeR the nodes of the largest translation and rotation (0: none
//	beyond round-off) and axisT and axisR their global axes (0, 1, 2).
type ModeRow struct {
	_                                   structs.HostLayout
	Value, Period, Residual, Iterations float64
	Part                                [3]float64
	NodeT, AxisT, NodeR, AxisR          float64
}

// EffLengthRow is a row of a lengths column: a member in a buckling mode.
//
//	layout: [pcr, length, ly, lz, reason] float64: reason 0 for a member
//	in compression, else the 1-based index into the case's Reasons
type EffLengthRow struct {
	_                   structs.HostLayout
	Pcr, Length, Ly, Lz float64
	Reason              float64
}

// Row is the set of the types a column's rows may have: the record
// types above, and a lone int64 or float64 for columns of one value per
// row.
type Row interface {
	int64 | float64 | MemberRow | PlateNodesRow | DispRow | ReactRow | EndRow | SummaryRow | PlateForcesRow | ModeRow | EffLengthRow
}

// Column is a results column: its name (for a per-case column, the
// suffix caseColumn adds to the case) and, by R, the layout of its rows.
type Column[R Row] struct{ name string }

// The columns. Declaring them checks their row types (declare).
var (
	Nodes       = Declare[int64](colNodes)
	Members     = Declare[MemberRow](colMembers)
	PlateNodes  = Declare[PlateNodesRow](colPlates)
	Disp        = Declare[DispRow](colDisp)
	React       = Declare[ReactRow](colReact)
	End         = Declare[EndRow](colEnd)
	Summary     = Declare[SummaryRow](colSummary)
	PlateForces = Declare[PlateForcesRow](colPlate)
	Cable       = Declare[float64](colCable)
	Modes       = Declare[ModeRow](colModes)
	Shapes      = Declare[DispRow](colShapes)
	Lengths     = Declare[EffLengthRow](colLengths)
)

// Widths, in values, of the rows of the members and plates columns, for
// reads that keep them flat (ints).
const (
	WidthMember = int(unsafe.Sizeof(MemberRow{})) / 8
	WidthPlates = int(unsafe.Sizeof(PlateNodesRow{})) / 8
)

// Declare returns the column name of rows R. It panics, when the package
// initialises, if R is not a whole number of 8-byte values in declaration
// order: reading a column into rows of R copies bytes into R's memory,
// which would otherwise put values in the wrong fields.
func Declare[R Row](name string) Column[R] {
	t := reflect.TypeFor[R]()
	n, err := wordsOf(t)
	if err == nil && t.Size() != uintptr(8*n) {
		err = fmt.Errorf("%s takes %d bytes for %d values: it is padded", t, t.Size(), n)
	}
	if err != nil {
		panic("results column " + name + ": " + err.Error())
	}
	return Column[R]{name: name}
}

// wordsOf returns the number of 8-byte values of t.
func wordsOf(t reflect.Type) (int, error) {
	switch t.Kind() {
	case reflect.Int64, reflect.Float64:
		return 1, nil
	case reflect.Array:
		n, err := wordsOf(t.Elem())
		return n * t.Len(), err
	case reflect.Struct:
		n, host := 0, false
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Type == reflect.TypeFor[structs.HostLayout]() {
				host = true
				continue
			}
			k, err := wordsOf(f.Type)
			if err != nil {
				return 0, err
			}
			n += k
		}
		if !host {
			return 0, fmt.Errorf("%s has no structs.HostLayout field, so its field order is not fixed", t)
		}
		return n, nil
	}
	return 0, fmt.Errorf("%s is not made of int64 and float64 values", t)
}

// Name returns the column's name: for a per-case column, the suffix
// CaseColumn adds to the case.
func (c Column[R]) Name() string { return c.name }

// Of names the column of load case lc.
func (c Column[R]) Of(lc int64) string { return CaseColumn(lc, c.name) }

// RowBytes returns the bytes of one row.
func (Column[R]) RowBytes() int { return int(unsafe.Sizeof(*new(R))) }

// Width returns the values of one row.
func (c Column[R]) Width() int { return c.RowBytes() / 8 }

// Size returns the bytes of n rows.
func (c Column[R]) Size(n int) int { return n * c.RowBytes() }

// Encode packs rows, in order, as stored.
func (c Column[R]) Encode(rows []R) []byte {
	b := make([]byte, c.Size(len(rows)))
	copyWords(b, memoryOf(rows))
	return b
}

// Decode unpacks the column name (the name c has in the results, for the
// message) into its rows.
func (c Column[R]) Decode(b []byte, name string) ([]R, error) {
	if len(b)%c.RowBytes() != 0 {
		return nil, fmt.Errorf("results column %s holds %d bytes, not whole rows of %d values", name, len(b), c.Width())
	}
	out := make([]R, len(b)/c.RowBytes())
	copyWords(memoryOf(out), b)
	return out, nil
}

// memoryOf returns the memory of rows, which declare found to be the
// rows' values, as bytes.
func memoryOf[R Row](rows []R) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(rows))), len(rows)*int(unsafe.Sizeof(*new(R))))
}

// hostLittleEndian is set when this machine keeps 8-byte values in
// memory as they are stored, so that copyWords is a copy.
var hostLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// copyWords copies the 8-byte values of src to dst, between the stored
// byte order and the machine's.
func copyWords(dst, src []byte) {
	if hostLittleEndian {
		copy(dst, src)
		return
	}
	swapWords(dst, src)
}

// swapWords copies the 8-byte values of src to dst, each with its bytes
// reversed: the conversion either way on a big-endian machine.
func swapWords(dst, src []byte) {
	for i := 0; i+8 <= len(src); i += 8 {
		binary.LittleEndian.PutUint64(dst[i:], binary.BigEndian.Uint64(src[i:]))
	}
}

// MaxStored bounds the magnitude of a stored result: far beyond what a
// sane model gives, yet small enough that converting it to job units
// (factors below 1e12) or to percent stays finite.
const MaxStored = 1e250

// Storable reports whether v may be stored as a result.
func Storable(v float64) bool { return math.Abs(v) <= MaxStored }

// CaseColumns lists the columns stored per load case (colPlate only when
// the model has plates).
var CaseColumns = []string{colDisp, colReact, colEnd, colSummary, colPlate, colCable}

// CaseColumn names the column col of load case lc.
func CaseColumn(lc int64, col string) string { return strconv.FormatInt(lc, 10) + ":" + col }

// Values returns every value of the float64 column name, whatever its
// rows: for the checks that treat the values alike.
func Values(b []byte, name string) ([]float64, error) {
	return Column[float64]{name: name}.Decode(b, name)
}

// Ints decodes the int64 column name, of rows of w values, flat: the form
// a static set keeps its members and plates in (staticSet), which only
// counts them.
func Ints(b []byte, w int, name string) ([]int64, error) {
	if len(b)%(8*w) != 0 {
		return nil, fmt.Errorf("results column %s holds %d bytes, not whole rows of %d values", name, len(b), w)
	}
	return Column[int64]{name: name}.Decode(b, name)
}

// MembersOf returns the end nodes of every member of m, model order.
func MembersOf(m *domain.Model) []MemberRow {
	out := make([]MemberRow, len(m.Members))
	for i, mb := range m.Members {
		out[i].ID, out[i].NodeA, out[i].NodeB = mb.ID, mb.NodeA, mb.NodeB
	}
	return out
}

// MemberIDs returns the ids of a members column.
func MemberIDs(members []MemberRow) []int64 {
	out := make([]int64, len(members))
	for i := range members {
		out[i] = members[i].ID
	}
	return out
}
