package jobfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// A workspace's directory is a folder of the jobs directory, made on first
// use; a link in its place is refused, even one that points inside, and
// paths resolved in it cannot leave it.
func TestSub(t *testing.T) {
	root := t.TempDir()
	d, err := OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	a, err := d.Sub("alpha")
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(root, "alpha")); err != nil || !fi.IsDir() {
		t.Fatalf("Sub made no folder: %v", err)
	}
	if again, err := d.Sub("alpha"); err != nil || again.Root() != a.Root() {
		t.Errorf("Sub of an existing folder = %v, %v", again, err)
	}
	if _, err := a.Resolve("../beta/x.gsj"); model.KindOf(err) != model.KindValidation {
		t.Errorf("a path out of the workspace: %v, want a validation error", err)
	}
	if _, err := a.Resolve(filepath.Join(root, "x.gsj")); model.KindOf(err) != model.KindValidation {
		t.Errorf("an absolute path to the parent: %v, want a validation error", err)
	}
	if err := os.Symlink(filepath.Join(root, "alpha"), filepath.Join(root, "beta")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(root, "gamma")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "delta"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"beta", "gamma", "delta", "", ".", "..", "a/b", `a\b`} {
		t.Run(name, func(t *testing.T) {
			if s, err := d.Sub(name); err == nil {
				t.Errorf("Sub(%q) = %s, want a refusal", name, s.Root())
			}
		})
	}
}
