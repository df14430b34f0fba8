package columns

import (
	"fmt"
	"go/ast"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// readSources returns the non-test Go files of dir, keyed by prefix and
// file name.
func readSources(t *testing.T, dir, prefix string) map[string][]byte {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out[prefix+filepath.Base(name)] = b
	}
	if len(out) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	return out
}

// readers are the packages that pack or read stored results through this
// package's column declarations.
var readers = []string{"statics", "eigen", "query", "lifecycle"}

// asOnePackage rewrites the source of a file of a package that imports
// this one as if it were in this package: the check type-checks the two
// as one, so that it sees the row types behind the columns it reads.
func asOnePackage(src []byte) []byte {
	s := string(src)
	if i := strings.Index(s, "\n"); strings.HasPrefix(s, "package ") && i > 0 {
		s = "package columns" + s[i:]
	}
	return []byte(strings.ReplaceAll(s, "columns.", ""))
}

// TestNoColumnOffsetsOutsideLayouts holds the readers of stored results
// to the column declarations of this package: no code of theirs reads or
// slices a results row by position, nor encodes or decodes stored bytes
// itself (offsetCheck). Each reader is checked together with this
// package's files, the layout files.
func TestNoColumnOffsetsOutsideLayouts(t *testing.T) {
	layout := readSources(t, ".", "columns/")
	if layout["columns/columns.go"] == nil {
		t.Fatal("the layout file columns.go is gone: name the files that declare the column layouts")
	}
	isLayout := map[string]bool{}
	for name := range layout {
		isLayout[name] = true
	}
	traced := 0
	for _, pkg := range readers {
		t.Run(pkg, func(t *testing.T) {
			sources := maps.Clone(layout)
			for name, src := range readSources(t, filepath.Join("..", pkg), pkg+"/") {
				sources[name] = asOnePackage(src)
			}
			c, err := newOffsetCheck(sources, isLayout)
			if err != nil {
				t.Fatal(err)
			}
			// Without these the check would trace nothing and pass
			// whatever the code did.
			if n := len(c.info.Defs); n < 300 {
				t.Fatalf("the package type-checks to %d definitions only", n)
			}
			for _, msg := range c.run() {
				t.Error(msg)
			}
			traced += len(c.traced)
		})
	}
	// The flat reads the layout files keep for others (Values, Ints) are
	// used, so the trace must have found some: if it found none, it is
	// not looking.
	if traced == 0 {
		t.Error("the check traced no bare row values at all: it has stopped seeing the readers")
	}
}

// The check against code it must refuse and code it must let be. The
// layout file of the cases declares, in short, what columns.go does.
func TestOffsetCheck(t *testing.T) {
	const layout = `package p
type columnRow interface{ int64 | float64 | endRow }
type endRow struct{ A, B [6]float64; Inactive float64 }
type column[R columnRow] struct{ name string }
func (c column[R]) decode(b []byte, name string) ([]R, error) { return nil, nil }
func (c column[R]) encode(rows []R) []byte { return nil }
func Declare[R columnRow](name string) column[R] { return column[R]{name} }
const widthEnd = 19
var cableCol = Declare[float64]("cable")
var endCol = Declare[endRow]("end")
func ints(b []byte, w int, name string) ([]int64, error) { return nil, nil }
func values(b []byte, name string) ([]float64, error) { return nil, nil }
func packFloats(v []float64) []byte { return nil }
`
	for _, tc := range []struct {
		name  string
		src   string
		flags int // reads by position found
	}{
		{"constant index", `func f(b []byte) float64 { v, _ := values(b, "end"); return v[6] }`, 1},
		{"constant slice", `func f(b []byte) []float64 { v, _ := values(b, "plate"); return v[8:] }`, 1},
		{"row stride", `func f(b []byte, m int) []float64 { v, _ := values(b, "end"); return v[widthEnd*m : widthEnd*(m+1)] }`, 1},
		{"ints offset", `func f(b []byte, m int) int64 { v, _ := ints(b, 3, "members"); return v[3*m+1] }`, 1},
		{"stepped variable", `func f(b []byte) (s float64) {
			v, _ := values(b, "react")
			for r := 0; r < len(v); r += 7 { s += v[r] }
			return s }`, 1},
		{"through a helper and a field", `type data struct{ cols [][]float64 }
			func read(b []byte) [][]float64 { out := make([][]float64, 1); out[0], _ = values(b, "end"); return out }
			func f(b []byte, d *data) float64 { d.cols = read(b); return g(d) }
			func g(d *data) float64 { v := d.cols[0]; return v[6] }`, 1},
		{"through a parameter", `func f(b []byte) float64 { v, _ := values(b, "end"); return g(v) }
			func g(row []float64) float64 { return row[18] }`, 1},
		{"through a callback", `func each(b []byte, emit func(row []float64)) { v, _ := values(b, "modes"); emit(v) }
			func f(b []byte) (s float64) { each(b, func(row []float64) { s = row[2] }); return s }`, 1},
		{"a bare read of a typed column", `func f(b []byte) float64 { v, _ := column[float64]{name: "end"}.decode(b, "end"); return v[12] }`, 1},
		{"packed by position", `func f(a, b [6]float64) []byte { row := make([]float64, 12); copy(row, a[:]); copy(row[6:], b[:]); return packFloats(row) }`, 1},
		{"packed through a field and a helper", `type rows struct{ sum []float64 }
			func fill() []float64 { var s [14]float64; s[13] = 1; return s[:] }
			func f() []byte { var r rows; r.sum = fill(); return packFloats(r.sum) }`, 1},
		{"packed through a literal", `type rows struct{ end []float64 }
			func f(a [6]float64) []byte { v := make([]float64, 19); v[18] = 1; r := rows{end: v}; return packFloats(r.end) }`, 1},
		{"a codec of its own", `import "encoding/binary"
			func f(b []byte) uint64 { return binary.LittleEndian.Uint64(b[48:]) }`, 1},
		{"a typed row's field", `func f(b []byte) float64 { rows, _ := endCol.decode(b, "end"); return rows[0].A[0] + rows[0].B[0] }`, 0},
		{"typed packing", `func f(a [6]float64) []byte { r := endRow{A: a}; r.B[5] = 1; return endCol.encode([]endRow{r}) }`, 0},
		{"a column of single values", `func f(b []byte) float64 { l, _ := cableCol.decode(b, "cable"); return l[0] + l[len(l)-1] }`, 0},
		{"a case's column picked", `func f(cols [][]float64, b []byte, m int) float64 { cols[0], _ = values(b, "end"); return cols[0][m] }`, 0},
		{"every value alike", `func f(b []byte) bool {
			v, _ := values(b, "x"); for i := range v { if v[i] > 1 { return false } }; for _, x := range v[:] { _ = x }; return true }`, 0},
		{"engine vectors", `func f(u [6]float64, ax [3][3]float64, raw [][]byte, ids []int64) float64 {
			w := raw[0]; _ = w; _ = ids[0]; return u[0]*ax[0][0] + u[5] }`, 0},
		{"a variable of the same name", `type a struct{ v []float64 }; type b struct{ v []float64 }
			func f(x *a, y *b, buf []byte) float64 { x.v, _ = values(buf, "end"); return y.v[0] }`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "package p\n" + tc.src
			if i := strings.Index(tc.src, "\n"); strings.HasPrefix(tc.src, "import") {
				src = "package p\n" + tc.src[:i] + "\n" + tc.src[i:]
			}
			c, err := newOffsetCheck(map[string][]byte{"columns.go": []byte(layout), "query.go": []byte(src)}, map[string]bool{"columns.go": true})
			if err != nil {
				t.Fatal(err)
			}
			got := c.run()
			if len(got) != tc.flags {
				t.Errorf("found %d reads by position, want %d: %q", len(got), tc.flags, got)
			}
		})
	}
}

// codecUse reports what in f encodes or decodes stored bytes itself:
// that belongs to the layout files, and would read values by position.
func (c *offsetCheck) codecUse(f *ast.File) []string {
	var out []string
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "encoding/binary" || p == "unsafe" {
			out = append(out, fmt.Sprintf("%s: imports %s: only the layout files encode or decode stored bytes", c.fset.Position(imp.Pos()), p))
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "math" && (sel.Sel.Name == "Float64frombits" || sel.Sel.Name == "Float64bits") {
				out = append(out, fmt.Sprintf("%s: math.%s: only the layout files encode or decode stored bytes", c.fset.Position(n.Pos()), sel.Sel.Name))
			}
		}
		return true
	})
	return out
}
