package archtest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// toyRules is a small table, independent of Rules, for testing the checker
// itself: an engine subtree with a tighter leaf, a solver whose code may not
// use the generator its tests need, and a storage package denied HTTP.
var toyRules = []Rule{
	{Package: "pkg/fem/...", Allow: []string{"pkg/fem/..."}, External: []string{"gonum.org/v1/gonum/..."}},
	{Package: "pkg/fem/geom"},
	{Package: "pkg/fem/static", Allow: []string{"pkg/fem/..."}, Deny: []string{"pkg/fem/gridn"},
		TestAllow: []string{"pkg/fem/gridn"}},
	{Package: "pkg/store", Allow: []string{"pkg/model"}, Deny: []string{"net/http/..."},
		TestAllow: []string{"pkg/testutil/..."}, TestExternal: []string{"github.com/redis/go-redis/..."}},
}

// onePackage returns a tree of one package holding the given files.
func onePackage(pkg string, files ...File) map[string]PackageImports {
	return map[string]PackageImports{pkg: {Files: files}}
}

// mod returns the import path of a module package.
func mod(rel string) string { return Module + "/" + rel }

// found lists the violations as "file imports path" (or the package alone
// when no rule matched), for comparing with a table's want.
func found(t *testing.T, vs []Violation) []string {
	t.Helper()
	out := []string{}
	for _, v := range vs {
		if v.Reason == "" {
			t.Errorf("violation without a reason: %+v", v)
		}
		if v.File == "" {
			out = append(out, v.Package)
			continue
		}
		out = append(out, v.File+" "+v.Import)
	}
	return out
}

func TestCheck(t *testing.T) {
	cases := []struct {
		name string
		pkgs map[string]PackageImports
		want []string
	}{
		{"forbidden module import in package file",
			onePackage("pkg/fem/geom", File{Name: "pkg/fem/geom/vec.go", Imports: []string{"math", mod("pkg/fem/sparse")}}),
			[]string{"pkg/fem/geom/vec.go " + mod("pkg/fem/sparse")}},
		{"forbidden external import in test file",
			onePackage("pkg/fem/geom", File{Name: "pkg/fem/geom/vec_test.go", Test: true, Imports: []string{"testing", "gonum.org/v1/gonum/mat"}}),
			[]string{"pkg/fem/geom/vec_test.go gonum.org/v1/gonum/mat"}},
		{"forbidden module import in external test package",
			onePackage("pkg/store", File{Name: "pkg/store/store_test.go", Test: true, Imports: []string{mod("pkg/store"), mod("pkg/server")}}),
			[]string{"pkg/store/store_test.go " + mod("pkg/server")}},
		{"denied standard library package, in code and tests",
			onePackage("pkg/store",
				File{Name: "pkg/store/h.go", Imports: []string{"net/http"}},
				File{Name: "pkg/store/h_test.go", Test: true, Imports: []string{"net/http/httptest"}}),
			[]string{"pkg/store/h.go net/http", "pkg/store/h_test.go net/http/httptest"}},
		{"test-only allowance used by package code",
			onePackage("pkg/store", File{Name: "pkg/store/fix.go", Imports: []string{mod("pkg/testutil/redistest"), "github.com/redis/go-redis/v9"}}),
			[]string{"pkg/store/fix.go " + mod("pkg/testutil/redistest"), "pkg/store/fix.go github.com/redis/go-redis/v9"}},
		{"deny overrides a subtree allow in code, test allowance lifts it",
			onePackage("pkg/fem/static",
				File{Name: "pkg/fem/static/solve.go", Imports: []string{mod("pkg/fem/sparse"), mod("pkg/fem/gridn")}},
				File{Name: "pkg/fem/static/bench_test.go", Test: true, Imports: []string{mod("pkg/fem/gridn")}}),
			[]string{"pkg/fem/static/solve.go " + mod("pkg/fem/gridn")}},
		{"most specific rule wins over the subtree",
			onePackage("pkg/fem/geom", File{Name: "pkg/fem/geom/a.go", Imports: []string{mod("pkg/fem/transform")}}),
			[]string{"pkg/fem/geom/a.go " + mod("pkg/fem/transform")}},
		{"allowed edges are not reported",
			map[string]PackageImports{
				"pkg/fem/sparse": {Files: []File{
					{Name: "pkg/fem/sparse/chol.go", Imports: []string{"fmt", "gonum.org/v1/gonum/mat", mod("pkg/fem/sparse/kernel")}},
					{Name: "pkg/fem/sparse/chol_test.go", Test: true, Imports: []string{"testing", mod("pkg/fem/sparse"), mod("pkg/fem/gridn")}},
				}},
				"pkg/store": {Files: []File{
					{Name: "pkg/store/store.go", Imports: []string{"context", mod("pkg/model")}},
					{Name: "pkg/store/x_test.go", Test: true, Imports: []string{mod("pkg/testutil/redistest"), "github.com/redis/go-redis/v9"}},
				}},
			},
			nil},
		{"unmatched package",
			map[string]PackageImports{
				"pkg/newthing": {Files: []File{{Name: "pkg/newthing/a.go", Imports: []string{"fmt"}}}},
				"pkg/femx":     {Files: []File{{Name: "pkg/femx/a.go"}}},
			},
			[]string{"pkg/femx", "pkg/newthing"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := found(t, Check(c.pkgs, toyRules))
			want := append([]string{}, c.want...)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("Check reported\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
			}
		})
	}
}

func TestCheckMessages(t *testing.T) {
	cases := []struct {
		name string
		pkgs map[string]PackageImports
		want string
	}{
		{"unmatched package is told to add a rule", onePackage("pkg/newthing", File{Name: "pkg/newthing/a.go"}),
			"add one to Rules in pkg/archtest/rules.go"},
		{"edge outside the rule says to add it", onePackage("pkg/fem/geom", File{Name: "pkg/fem/geom/a.go", Imports: []string{mod("pkg/fem/sparse")}}),
			"rule pkg/fem/geom does not allow it"},
		{"denied edge names the rule", onePackage("pkg/store", File{Name: "pkg/store/a.go", Imports: []string{"net/http"}}),
			"rule pkg/store denies it"},
		{"test helper in code", onePackage("pkg/store", File{Name: "pkg/store/a.go", Imports: []string{mod("pkg/testutil/x")}}),
			"allows it to test files only"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vs := Check(c.pkgs, toyRules)
			if len(vs) != 1 || !strings.Contains(vs[0].String(), c.want) {
				t.Errorf("Check = %v, want one violation saying %q", vs, c.want)
			}
		})
	}
}

func TestRuleFor(t *testing.T) {
	cases := []struct {
		pkg, want string // want "" means no rule
	}{
		{"pkg/fem/geom", "pkg/fem/geom"},
		{"pkg/fem/static", "pkg/fem/static"},
		{"pkg/fem/static/ccx", "pkg/fem/..."},
		{"pkg/fem", "pkg/fem/..."},
		{"pkg/femx", ""},
		{"pkg/store/redisstore", ""},
	}
	for _, c := range cases {
		t.Run(c.pkg, func(t *testing.T) {
			r, ok := ruleFor(c.pkg, toyRules)
			if got := r.Package; ok != (c.want != "") || got != c.want {
				t.Errorf("ruleFor(%s) = %q, %v; want %q", c.pkg, got, ok, c.want)
			}
		})
	}
}

// writeTree writes files (module-relative path → content) under a fresh
// temporary directory and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// The walker must read test files and files behind build tags, and skip
// testdata, hidden directories and bin: the old check read neither.
func TestReadTreeReadsTestAndTaggedFiles(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod":                       "module " + Module + "\n",
		"pkg/fem/geom/vec.go":          "package geom\n\nimport \"math\"\n",
		"pkg/fem/geom/vec_test.go":     "package geom_test\n\nimport (\n\t\"testing\"\n\n\t\"" + mod("pkg/model") + "\"\n)\n",
		"pkg/fem/geom/cross_ccx.go":    "//go:build ccx\n\npackage geom\n\nimport \"github.com/redis/go-redis/v9\"\n",
		"pkg/fem/geom/cross_ccx2.go":   "//go:build ccx\n\npackage geom\n\nimport _ \"" + mod("pkg/fem/sparse") + "\"\n",
		"pkg/fem/geom/testdata/x.go":   "package x\n\nimport \"" + mod("pkg/server") + "\"\n",
		"pkg/fem/geom/.cache/x.go":     "package x\n\nimport \"" + mod("pkg/server") + "\"\n",
		"bin/x.go":                     "package x\n\nimport \"" + mod("pkg/server") + "\"\n",
		"pkg/fem/static/solve.go":      "package static\n\nimport \"" + mod("pkg/fem/geom") + "\"\n",
		"pkg/fem/static/README.md":     "not go\n",
		"pkg/fem/static/gen_test.go":   "//go:build load\n\npackage static\n\nimport \"" + mod("pkg/fem/gridn") + "\"\n",
		"pkg/fem/static/other_test.go": "package static\n",
	})
	pkgs, err := ReadTree(root)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for dir := range pkgs {
		dirs = append(dirs, dir)
	}
	slices.Sort(dirs)
	if want := []string{"pkg/fem/geom", "pkg/fem/static"}; !slices.Equal(dirs, want) {
		t.Fatalf("ReadTree found packages %v, want %v", dirs, want)
	}
	tests := 0
	for _, f := range pkgs["pkg/fem/static"].Files {
		if f.Test {
			tests++
		}
	}
	if tests != 2 || len(pkgs["pkg/fem/static"].Files) != 3 {
		t.Errorf("pkg/fem/static: %+v, want solve.go and two test files", pkgs["pkg/fem/static"].Files)
	}
	got := found(t, Check(pkgs, toyRules))
	slices.Sort(got)
	want := []string{
		"pkg/fem/geom/cross_ccx.go github.com/redis/go-redis/v9",
		"pkg/fem/geom/cross_ccx2.go " + mod("pkg/fem/sparse"),
		"pkg/fem/geom/vec_test.go " + mod("pkg/model"),
	}
	if !slices.Equal(got, want) {
		t.Errorf("walker + checker reported\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}
