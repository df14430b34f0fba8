package analysis_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/analysis"
)

// kindHomes are the files of package analysis that may name a particular
// analysis kind or family: the kinds' own files. Every other non-test file
// of the module reaches the kinds through the registry.
//
// The static and eigen implementations (their solving, packing and
// queries) still share package analysis with the lifecycle; they are
// listed by name until each kind has a package of its own.
var kindHomes = []string{
	"kind_static.go", "kind_static_queries.go", "kind_eigen.go", "kinds.go",
	"static_run.go", "nonlinear_run.go", "nonlinear_complete.go", "nonlinear_rows.go", "nonlinear_settings.go",
	"eigen_run.go", "eigen_results.go", "eigen_query.go",
	"query.go", "query_plates.go", "query_stations.go", "meta.go", "columns.go",
}

// kindNames are the strings that name a particular kind or family of the
// standard registry: analysis types, family names, query paths, settings
// keys and start routes.
func kindNames(t *testing.T) (exact, anywhere []string) {
	t.Helper()
	g := analysis.StandardKinds()
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

// kindIdents are the package-level names the kinds' own files declare:
// outside those files, package analysis reaches them through the
// registry only.
func kindIdents(t *testing.T, dir string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range kindHomes {
		if !strings.HasPrefix(name, "kind") {
			continue // the implementations declare helpers the lifecycle shares
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			continue // a listed file that does not exist names nothing
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							if n.Name != "_" {
								out[n.Name] = true
							}
						}
					case *ast.TypeSpec:
						out[sp.Name.Name] = true
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name != "StandardKinds" {
					out[d.Name.Name] = true
				}
			}
		}
	}
	return out
}

// TestNoKindNamedOutsideItsHome fails when code outside the kinds' own
// files names a particular analysis kind: a string naming a kind or
// family, or, in package analysis, a value the kinds' files declare. The
// HTTP routes, the worker, the queries, job files and the session loop
// over the registry instead.
func TestNoKindNamedOutsideItsHome(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	exact, anywhere := kindNames(t)
	here, _ := filepath.Abs(".")
	idents := kindIdents(t, here)
	fset := token.NewFileSet()
	var found []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n != "." && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules" || n == "vendor") {
				return filepath.SkipDir
			}
			// The engine names its own analyses (its packages are
			// the analyses' solvers); the rule is the middle layer's.
			if rel, _ := filepath.Rel(root, path); rel == filepath.Join("pkg", "fem") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		inAnalysis := filepath.Dir(path) == here
		if inAnalysis && slices.Contains(kindHomes, filepath.Base(path)) {
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
			case *ast.Ident:
				if inAnalysis && idents[n.Name] {
					found = append(found, fset.Position(n.Pos()).String()+": uses "+n.Name+" of the kinds' files")
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
