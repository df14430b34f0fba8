package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The project documents itself: no file may send a reader to documents
// that live beside the repository rather than in it (the interface
// specification, its wire names, the design notes).
func TestNoReferencesOutsideTheRepository(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	outside := regexp.MustCompile(`wire-names\.md|interface-v1\.md|DESIGN\.md|\.\./shared|\bspec/[a-z-]+\.md`)
	var hits []string
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "bin" || name == "data" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(name) {
		case ".go", ".md", ".py", ".yml", ".yaml", ".json", ".sh", "":
		default:
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if path == filepath.Join(root, "pkg/archtest/selfcontained_test.go") {
				break // this file names what it looks for
			}
			if outside.MatchString(line) {
				rel, _ := filepath.Rel(root, path)
				hits = append(hits, rel+":"+strconv.Itoa(i+1)+": "+strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		t.Error("refers to a document outside the repository: " + h)
	}
}
