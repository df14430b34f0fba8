package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/gusset/gusset"

// layer gives each package path (relative to the module) its layer; a
// package may import only from its own layer or below.
func layer(rel string) int {
	switch {
	case strings.HasPrefix(rel, "pkg/fem"):
		return 0
	case strings.HasPrefix(rel, "pkg/model"):
		return 1
	case strings.HasPrefix(rel, "pkg/server"):
		return 3
	case strings.HasPrefix(rel, "services/"):
		return 4
	case strings.HasPrefix(rel, "pkg/"):
		return 2
	}
	return 4
}

func isStd(path string) bool {
	first := strings.SplitN(path, "/", 2)[0]
	return !strings.Contains(first, ".")
}

// imports lists the imports of the non-test Go files of each package dir.
func imports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin" || name == "data") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			out[rel] = append(out[rel], p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestImportDirection(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s", root)
	}
	pkgs := imports(t, root)
	if len(pkgs) < 10 {
		t.Fatalf("found only %d packages under %s", len(pkgs), root)
	}
	for pkg, imps := range pkgs {
		for _, imp := range imps {
			inModule := strings.HasPrefix(imp, module+"/")
			target := strings.TrimPrefix(imp, module+"/")
			switch {
			case layer(pkg) == 0 && !isStd(imp) && !strings.HasPrefix(imp, "gonum.org/v1/gonum/") && !(inModule && layer(target) == 0):
				t.Errorf("%s imports %s: pkg/fem may import only the standard library, gonum and pkg/fem", pkg, imp)
			case layer(pkg) == 1 && !isStd(imp) && !strings.HasPrefix(imp, "gonum.org/v1/gonum/") && !(inModule && layer(target) <= 1):
				t.Errorf("%s imports %s: pkg/model knows nothing of HTTP, Redis, asynq or the service layers", pkg, imp)
			case inModule && layer(target) > layer(pkg):
				t.Errorf("%s (layer %d) imports %s (layer %d): imports must point down", pkg, layer(pkg), imp, layer(target))
			case inModule && strings.HasPrefix(target, "pkg/testutil") && !strings.HasPrefix(pkg, "pkg/testutil"):
				t.Errorf("%s imports test helper %s outside a test", pkg, imp)
			}
		}
	}
}

// The checker itself must catch a violation.
func TestLayerRules(t *testing.T) {
	cases := []struct {
		pkg  string
		want int
	}{{"pkg/fem/sparse", 0}, {"pkg/model/library", 1}, {"pkg/httpapi", 2}, {"pkg/store/redisstore", 2},
		{"pkg/server", 3}, {"services/api", 4}}
	for _, c := range cases {
		if got := layer(c.pkg); got != c.want {
			t.Errorf("layer(%s) = %d, want %d", c.pkg, got, c.want)
		}
	}
	if isStd("github.com/redis/go-redis/v9") || !isStd("net/http") {
		t.Error("isStd misclassifies")
	}
}
