package archtest

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"testing"
)

// No package but pkg/model reads a struct tag: every other one takes a
// field's rules from model's field definitions, test files and files
// behind build tags included.
func TestOneTagReader(t *testing.T) {
	root := moduleRoot(t)
	fset := token.NewFileSet()
	files := 0
	err := WalkGoFiles(root, func(path, rel string) error {
		if filepath.ToSlash(filepath.Dir(rel)) == TagReader {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, p := range TagReads(fset, f) {
			t.Errorf("%s:%d reads a struct tag: take the field's rules from %s's field definitions (model.DefOf, model.TagsOf), the one reader of the tags",
				rel, p.Line, TagReader)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read only %d files under %s", files, root)
	}
}

// TagReads finds each way of reading a tag, and leaves alone what only
// looks like one.
func TestTagReads(t *testing.T) {
	const head = "package p\n\nimport (\n\t\"go/ast\"\n\trf \"reflect\"\n)\n\nvar _ ast.Node\n\n"
	cases := []struct {
		name string
		src  string // appended to head
		want []int  // lines reported
	}{
		{"Get on a field of Type.Field", `func f(t rf.Type) string {
	return t.Field(0).Tag.Get("json")
}`, []int{11}},
		{"Lookup on a field bound by FieldByName", `func f(t rf.Type) bool {
	sf, _ := t.FieldByName("X")
	_, ok := sf.Tag.Lookup("unit")
	return ok
}`, []int{12}},
		{"Tag of a parameter, read by hand", `func f(sf rf.StructField) string {
	return string(sf.Tag)
}`, []int{11}},
		{"Tag of a ranged VisibleFields element", `func f(t rf.Type) (out []string) {
	for _, sf := range rf.VisibleFields(t) {
		tag := sf.Tag
		out = append(out, string(tag))
	}
	return out
}`, []int{12}},
		{"Tag of an element of a slice of fields", `func f(fs []rf.StructField) any {
	return fs[0].Tag
}`, []int{11}},
		{"a StructTag conversion", `func f(s string) string {
	return rf.StructTag(s).Get("doc")
}`, []int{11}},
		{"a field bound outside a closure, read inside it", `func f(t rf.Type) func() string {
	sf := t.Field(0)
	return func() string { return string(sf.Tag) }
}`, []int{12}},
		{"the Tag of a go/ast field is no struct tag", `func f(fl *ast.Field) string {
	if fl.Tag == nil {
		return ""
	}
	return fl.Tag.Value
}`, nil},
		{"a name bound to a struct field in another function", `func f(t rf.Type) string {
	sf := t.Field(0)
	return sf.Name
}

func g(sf *ast.Field) *ast.BasicLit { return sf.Tag }`, nil},
		{"reflection without tags", `func f(t rf.Type) string {
	return t.String()
}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "p.go", head+c.src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, p := range TagReads(fset, f) {
				got = append(got, p.Line)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("reported lines %v, want %v", got, c.want)
			}
		})
	}
}
