package analysis_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	pathpkg "path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/analysis/kinds"
	"github.com/gusset/gusset/pkg/archtest"
)

// kindHomes are the packages that may name a particular analysis kind or
// family: the kinds' own packages and the standard registry that
// assembles them. Every other non-test file of the module reaches the
// kinds through the registry.
var kindHomes = append([]string{"pkg/analysis/kinds"}, kindPackages...)

// kindPackages are the packages of the kinds themselves: outside the
// homes, no code imports them (pkg/analysis/kinds, which only assembles
// the standard registry, any code may).
var kindPackages = []string{"pkg/analysis/statics", "pkg/analysis/eigen"}

const module = "github.com/gusset/gusset/"

// kindNames are the strings that name a particular kind or family of the
// standard registry: analysis types, family names, query paths, settings
// keys and start routes.
func kindNames(t *testing.T) (exact, anywhere []string) {
	t.Helper()
	g := kinds.StandardKinds()
	for _, k := range g.Kinds() {
		anywhere = append(anywhere, string(k.Type()), k.Start().Path)
	}
	for _, f := range g.Families() {
		exact = append(exact, string(f.Name), f.QueryDir, f.SettingsKey)
		anywhere = append(anywhere, "analysis/"+string(f.Name)+"/", "analysis/"+f.QueryDir+"/")
	}
	return exact, anywhere
}

// namesKind reports which kind name the string literal s names, if any:
// one equal to a family's name, query path or settings key, or one
// holding an analysis type, a start route or a route below a family.
func namesKind(s string, exact, anywhere []string) string {
	if slices.Contains(exact, s) {
		return s
	}
	for _, n := range anywhere {
		if strings.Contains(s, n) {
			return n
		}
	}
	return ""
}

// TestNoKindNamedOutsideItsHome fails when code outside the kinds' own
// packages names a particular analysis kind: a string naming a kind or
// family, or an import of a kind's package (the only way to reach its
// values). The HTTP routes, the worker, the queries, job files and the
// session loop over the registry instead.
func TestNoKindNamedOutsideItsHome(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	exact, anywhere := kindNames(t)
	fset := token.NewFileSet()
	var found []string
	err = archtest.WalkGoFiles(root, func(path, rel string) error {
		// The engine names its own analyses (its packages are the
		// analyses' solvers); the rule is the middle layer's. Tests may
		// name what they test.
		if strings.HasPrefix(rel, "pkg/fem/") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		if slices.Contains(kindHomes, pathpkg.Dir(rel)) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec:
				if p, _ := strconv.Unquote(n.Path.Value); slices.Contains(kindPackages, strings.TrimPrefix(p, module)) {
					found = append(found, fset.Position(n.Pos()).String()+": imports "+p)
				}
				return false
			case *ast.Field:
				// A struct tag holds wire names, not kinds: look at the
				// field's type only.
				ast.Inspect(n.Type, visit)
				return false
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				if s, err := strconv.Unquote(n.Value); err == nil {
					if k := namesKind(s, exact, anywhere); k != "" {
						found = append(found, fset.Position(n.Pos()).String()+": names "+strconv.Quote(k))
					}
				}
			}
			return true
		}
		ast.Inspect(f, visit)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Error(f)
	}
}
