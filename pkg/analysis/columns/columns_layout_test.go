package columns

import (
	"bytes"
	"encoding/binary"
	"math"
	"reflect"
	"slices"
	"structs"
	"testing"
)

// le packs values as stored: each an 8-byte little-endian int64 or
// float64, in order. It is written out by hand, apart from the code
// under test, so that the tests below pin the stored bytes.
func le(t *testing.T, vals ...any) []byte {
	t.Helper()
	var b []byte
	for _, v := range vals {
		switch x := v.(type) {
		case int:
			b = binary.LittleEndian.AppendUint64(b, uint64(int64(x)))
		case int64:
			b = binary.LittleEndian.AppendUint64(b, uint64(x))
		case float64:
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		default:
			t.Fatalf("le: %T is not a stored value", v)
		}
	}
	return b
}

// seq returns the float64 values from, from+1, … as stored values.
func seq(from, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = float64(from + i)
	}
	return out
}

// layoutCase is a column's rows, packed, against the bytes its layout
// comment in columns.go says they are.
type layoutCase struct {
	name   string
	layout string // the layout comment of the row type
	got    []byte
	want   []byte
	// back unpacks want and reports whether it gives the rows again.
	back func(b []byte) (bool, error)
}

// pin packs rows of column c for a layoutCase.
func pin[R Row](c Column[R], layout string, rows []R, want []byte) layoutCase {
	return layoutCase{name: c.name, layout: layout, got: c.Encode(rows), want: want, back: func(b []byte) (bool, error) {
		got, err := c.Decode(b, c.name)
		return slices.Equal(got, rows), err
	}}
}

// TestColumnLayouts pins the stored bytes of every column type against
// its layout comment: the results stored before the row types existed,
// and job files saved with them, must read back as they were written.
func TestColumnLayouts(t *testing.T) {
	var a6, b6, d6 [6]float64
	for i := range 6 {
		a6[i], b6[i], d6[i] = float64(1+i), float64(7+i), float64(13+i)
	}
	var plate PlateForcesRow
	plate.F, plate.M, plate.V = [3]float64{1, 2, 3}, [3]float64{4, 5, 6}, [2]float64{7, 8}
	for k := range 4 {
		for j := range 6 {
			plate.Corners[k][j] = float64(9 + 6*k + j)
		}
	}
	cases := []layoutCase{
		pin(Nodes, "int64 node ids", []int64{3, -7, 1 << 40}, le(t, 3, -7, int64(1<<40))),
		pin(Members, "[id nodeA nodeB] int64",
			[]MemberRow{{ID: 10, NodeA: 1, NodeB: 2}, {ID: 11, NodeA: 2, NodeB: 3}}, le(t, 10, 1, 2, 11, 2, 3)),
		pin(PlateNodes, "[id nodeA nodeB nodeC nodeD] int64, nodeD 0 for a triangle",
			[]PlateNodesRow{{ID: 5, Nodes: [4]int64{1, 2, 3, 4}}, {ID: 6, Nodes: [4]int64{4, 3, 9}}}, le(t, 5, 1, 2, 3, 4, 6, 4, 3, 9, 0)),
		pin(Disp, "[ux uy uz rx ry rz] float64", []DispRow{{U: a6}, {U: b6}}, le(t, seq(1, 12)...)),
		pin(Shapes, "[ux uy uz rx ry rz] float64", []DispRow{{U: b6}}, le(t, seq(7, 6)...)),
		pin(React, "[node Fx Fy Fz Mx My Mz] float64", []ReactRow{{Node: 42, F: a6}}, le(t, append([]any{42.0}, seq(1, 6)...)...)),
		pin(End, "[end A: Fx … Mz, end B: Fx … Mz, dispA: ux … rz, inactive] float64",
			[]EndRow{{A: a6, B: b6, DispA: d6, Inactive: 19}}, le(t, seq(1, 19)...)),
		pin(Summary, "[load Fx … Mz, reaction Fx … Mz, residual, maxLoad] float64",
			[]SummaryRow{{Load: a6, Reaction: b6, Residual: 13, MaxLoad: 14}}, le(t, seq(1, 14)...)),
		pin(PlateForces, "[Fx Fy Fxy, Mx My Mxy, Vxz Vyz, corner A: Fx … Mz, corner B …, corner C …, corner D …] float64",
			[]PlateForcesRow{plate}, le(t, seq(1, 32)...)),
		pin(Cable, "float64 per member", []float64{0, 12.5}, le(t, 0.0, 12.5)),
		pin(Modes, "[value, period, residual, iterations, partX partY partZ, nodeT, axisT, nodeR, axisR] float64",
			[]ModeRow{{Value: 1, Period: 2, Residual: 3, Iterations: 4, Part: [3]float64{5, 6, 7}, NodeT: 8, AxisT: 9, NodeR: 10, AxisR: 11}},
			le(t, seq(1, 11)...)),
		pin(Lengths, "[pcr, length, ly, lz, reason] float64",
			[]EffLengthRow{{Pcr: 1, Length: 2, Ly: 3, Lz: 4, Reason: 5}}, le(t, seq(1, 5)...)),
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !bytes.Equal(tc.got, tc.want) {
				t.Errorf("packed as\n%v\nwant (layout %s)\n%v", tc.got, tc.layout, tc.want)
			}
			if same, err := tc.back(tc.want); err != nil || !same {
				t.Errorf("the bytes of layout %s read back as other rows (error %v)", tc.layout, err)
			}
		})
	}
}

// The inactive flag of an end row is stored as 1 or 0.
func TestEndRowFlag(t *testing.T) {
	var a, b, d [6]float64
	for _, tc := range []struct {
		inactive bool
		want     float64
	}{{true, 1}, {false, 0}} {
		t.Run(map[bool]string{true: "inactive", false: "active"}[tc.inactive], func(t *testing.T) {
			r := NewEndRow(&a, &b, &d, tc.inactive)
			if r.Inactive != tc.want || r.IsInactive() != tc.inactive {
				t.Errorf("stored flag %v, read %v", r.Inactive, r.IsInactive())
			}
		})
	}
}

// A column that is not whole rows is refused, naming it; an empty one is
// no rows.
func TestColumnDecodeSize(t *testing.T) {
	for _, tc := range []struct {
		name  string
		bytes int
		rows  int
		ok    bool
	}{{"empty", 0, 0, true}, {"two rows", 2 * 19 * 8, 2, true}, {"part of a row", 19 * 8 / 2, 0, false}, {"one value over", 19*8 + 8, 0, false}} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := End.Decode(make([]byte, tc.bytes), "4:end")
			if tc.ok != (err == nil) || len(rows) != tc.rows {
				t.Fatalf("%d bytes: %d rows, error %v", tc.bytes, len(rows), err)
			}
			if err != nil && !bytes.Contains([]byte(err.Error()), []byte("4:end")) {
				t.Errorf("the error %q does not name the column", err)
			}
		})
	}
}

// On a big-endian machine each value's bytes are reversed both ways;
// swapWords is that conversion, tested here whatever the machine.
func TestSwapWords(t *testing.T) {
	src := le(t, 1.5, int64(-2), 3)
	dst := make([]byte, len(src))
	swapWords(dst, src)
	for i := 0; i < len(src); i += 8 {
		if got, want := binary.BigEndian.Uint64(dst[i:]), binary.LittleEndian.Uint64(src[i:]); got != want {
			t.Errorf("value %d: %x, want %x", i/8, got, want)
		}
	}
	back := make([]byte, len(src))
	swapWords(back, dst)
	if !bytes.Equal(back, src) {
		t.Errorf("swapped twice: %v, want %v", back, src)
	}
}

// declare refuses a row type whose memory is not its values in order.
func TestWordsOf(t *testing.T) {
	type unmarked struct{ A, B float64 }
	type narrow struct {
		_ structs.HostLayout
		A int32
	}
	type flag struct {
		_ structs.HostLayout
		A float64
		B bool
	}
	type good struct {
		_ structs.HostLayout
		A [2][3]float64
		B int64
	}
	for _, tc := range []struct {
		name string
		t    reflect.Type
		n    int // 0: refused
	}{
		{"unmarked", reflect.TypeFor[unmarked](), 0},
		{"int32", reflect.TypeFor[narrow](), 0},
		{"bool", reflect.TypeFor[flag](), 0},
		{"arrays", reflect.TypeFor[good](), 7},
		{"endRow", reflect.TypeFor[EndRow](), 19},
		{"plateForcesRow", reflect.TypeFor[PlateForcesRow](), 32},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := wordsOf(tc.t)
			if (err == nil) != (tc.n > 0) || n != tc.n {
				t.Errorf("%d values, error %v; want %d", n, err, tc.n)
			}
		})
	}
}

// Reading or writing a column costs one allocation, its rows or its
// bytes, whatever its length: no work per value that could grow a query.
func TestColumnCodecAllocs(t *testing.T) {
	rows := make([]EndRow, 1000)
	b := End.Encode(rows)
	for _, tc := range []struct {
		name string
		run  func()
	}{
		{"decode", func() { _, _ = End.Decode(b, "1:end") }},
		{"encode", func() { _ = End.Encode(rows) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if n := testing.AllocsPerRun(20, tc.run); n != 1 {
				t.Errorf("%v allocations, want 1", n)
			}
		})
	}
}
