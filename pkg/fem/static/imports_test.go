package static_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportRule: code under pkg/fem may import only the standard library,
// gonum and pkg/fem itself. This checks the packages owned here.
func TestImportRule(t *testing.T) {
	for _, dir := range []string{".", "../element", "../transform"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range af.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				first := strings.SplitN(p, "/", 2)[0]
				ok := !strings.Contains(first, ".") ||
					strings.HasPrefix(p, "gonum.org/v1/gonum/") ||
					strings.HasPrefix(p, "github.com/gusset/gusset/pkg/fem/")
				if !ok {
					t.Errorf("%s imports %s", f, p)
				}
			}
		}
	}
}
