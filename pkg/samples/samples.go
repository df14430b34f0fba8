// Package samples holds the sample job files bundled with the service
// (GET /file/samples, POST /job/open-sample). They are ordinary .gsj files
// embedded in the binary; samples_test.go regenerates them with -update.
package samples

import (
	"embed"
	"io/fs"
	"sort"
	"strings"

	"github.com/gusset/gusset/pkg/model"
)

//go:embed files/*.gsj
var files embed.FS

// Names lists the sample file names, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(files, "files")
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// Read returns the bytes of the named sample. The name is matched without
// regard to case, and ".gsj" may be left off.
func Read(name string) ([]byte, string, error) {
	want := strings.ToLower(strings.TrimSpace(name))
	for _, n := range Names() {
		if strings.ToLower(n) == want || strings.ToLower(strings.TrimSuffix(n, ".gsj")) == want {
			b, err := files.ReadFile("files/" + n)
			return b, n, err
		}
	}
	return nil, "", &model.Error{Kind: model.KindNotFound,
		Msg:    "sample " + quote(name) + " not found; the samples are: " + strings.Join(Names(), ", "),
		Fields: []model.FieldError{{Field: "fileName", Message: "unknown sample"}}}
}

func quote(s string) string { return "\"" + s + "\"" }
