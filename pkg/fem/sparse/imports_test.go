package sparse_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsStdlibAndGonumOnly enforces the pkg/fem rule for this package
// tree: only the standard library, gonum and the project itself.
func TestImportsStdlibAndGonumOnly(t *testing.T) {
	err := filepath.Walk(".", func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			first := strings.Split(p, "/")[0]
			if strings.Contains(first, ".") && !strings.HasPrefix(p, "gonum.org/v1/gonum/") && !strings.HasPrefix(p, "github.com/gusset/gusset/") {
				t.Errorf("%s imports %s", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
