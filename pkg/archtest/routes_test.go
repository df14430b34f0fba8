package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Domain and engine packages know nothing of HTTP, so their messages do
// not name routes: a route in an error of pkg/session would be wrong for
// any other caller, and the HTTP edge adds the route hints it wants.
func TestDomainMessagesNameNoRoutes(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	route := regexp.MustCompile(`\b(GET|POST|PUT|PATCH|DELETE) /|/api/v1`)
	// The HTTP edge and the wiring may name routes.
	edge := func(rel string) bool {
		return strings.HasPrefix(rel, "pkg/httpapi") || strings.HasPrefix(rel, "pkg/server") || strings.HasPrefix(rel, "services/") ||
			strings.HasPrefix(rel, "examples")
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "data") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || edge(filepath.ToSlash(rel)) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && route.MatchString(lit.Value) {
				t.Errorf("%s names a route in a domain package: %s", fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
