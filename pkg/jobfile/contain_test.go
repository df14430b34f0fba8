package jobfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// snapWithHeading is a job snapshot whose heading tells files apart.
func snapWithHeading(heading string) store.Snapshot {
	job := model.NewJob()
	job.Headings.Heading = heading
	return store.Snapshot{Job: job}
}

// writeOutside writes a valid job file with the given heading at path,
// which lies outside the jobs directory.
func writeOutside(t *testing.T, path, heading string) {
	t.Helper()
	var b bytes.Buffer
	if err := Encode(&b, snapWithHeading(heading), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// listTree lists every path under dir, so that a test can tell whether
// anything was written there.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A path is checked when it is resolved, but the file operations that
// follow must not trust that check: a folder swapped for a link leading
// out, or a recovery file planted as one, after Resolve is still not
// followed out of the jobs directory.
func TestContainmentHoldsAgainstSwappedLinks(t *testing.T) {
	tests := []struct {
		name string
		// plant runs after Resolve: it swaps in the link.
		plant func(t *testing.T, root, outside string)
		// op is the operation that must fail or stay inside.
		op func(d *Dir, p Path) error
		// leak reports whether the outcome shows outside content.
		leak func(t *testing.T, d *Dir, p Path, opErr error, outside string) string
	}{
		{
			name:  "write through a folder swapped for a link",
			plant: swapFolder,
			op:    func(d *Dir, p Path) error { return d.Write(p, snapWithHeading("mine"), "test", time.Now()) },
			leak: func(t *testing.T, _ *Dir, _ Path, _ error, outside string) string {
				return outsideUntouched(t, outside)
			},
		},
		{
			name:  "read through a folder swapped for a link",
			plant: swapFolder,
			op:    func(d *Dir, p Path) error { _, err := d.Read(p); return err },
			leak:  func(*testing.T, *Dir, Path, error, string) string { return "" },
		},
		{
			name:  "stat through a folder swapped for a link",
			plant: swapFolder,
			op:    func(d *Dir, p Path) error { return nil },
			leak: func(t *testing.T, d *Dir, p Path, _ error, _ string) string {
				if st, err := d.Stat(p); err == nil && st.Exists {
					return "Stat sees the outside file"
				}
				return ""
			},
		},
		{
			name:  "read a recovery file planted as a link",
			plant: plantRecovery,
			op:    func(d *Dir, p Path) error { _, err := d.ReadRecovery(p); return err },
			leak:  func(*testing.T, *Dir, Path, error, string) string { return "" },
		},
		{
			name:  "stat a recovery file planted as a link",
			plant: plantRecovery,
			op:    func(d *Dir, p Path) error { return nil },
			leak: func(t *testing.T, d *Dir, p Path, _ error, _ string) string {
				if st, err := d.Stat(p); err == nil && st.RecoveryExists {
					return "Stat sees the outside file as the recovery file"
				}
				return ""
			},
		},
		{
			name:  "write a recovery file planted as a link",
			plant: plantRecovery,
			op: func(d *Dir, p Path) error {
				return d.WriteRecovery(p, snapWithHeading("mine"), "test", time.Now())
			},
			leak: func(t *testing.T, _ *Dir, _ Path, _ error, outside string) string {
				return outsideUntouched(t, outside)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := OpenDir(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			outside := t.TempDir()
			writeOutside(t, filepath.Join(outside, "secret.gsj"), "secret")
			if err := os.Mkdir(filepath.Join(d.Root(), "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			p, err := d.Resolve("sub/secret")
			if err != nil {
				t.Fatal(err)
			}
			tt.plant(t, d.Root(), outside)
			opErr := tt.op(d, p)
			if opErr != nil && model.KindOf(opErr) != model.KindValidation {
				t.Errorf("error %v is not a validation error", opErr)
			}
			if msg := tt.leak(t, d, p, opErr, outside); msg != "" {
				t.Fatal(msg)
			}
			// Reads that succeed must not have read the outside file.
			if dec, err := d.Read(p); err == nil && dec.Snapshot.Job.Headings.Heading == "secret" {
				t.Error("Read returned the outside file")
			}
			if dec, err := d.ReadRecovery(p); err == nil && dec.Snapshot.Job.Headings.Heading == "secret" {
				t.Error("ReadRecovery returned the outside file")
			}
		})
	}
}

// outsideUntouched says what changed in the outside folder, which holds
// only secret.gsj with heading "secret"; "" when nothing did.
func outsideUntouched(t *testing.T, outside string) string {
	t.Helper()
	if got := listTree(t, outside); len(got) != 2 { // the folder and secret.gsj
		return fmt.Sprintf("files were written outside: %v", got)
	}
	b, err := os.ReadFile(filepath.Join(outside, "secret.gsj"))
	if err != nil {
		return err.Error()
	}
	dec, err := Decode(bytes.NewReader(b), int64(len(b)))
	if err != nil || dec.Snapshot.Job.Headings.Heading != "secret" {
		return "the outside file was overwritten"
	}
	return ""
}

// swapFolder replaces JOBS_DIR/sub with a link to the outside folder.
func swapFolder(t *testing.T, root, outside string) {
	t.Helper()
	if err := os.Remove(filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
}

// plantRecovery places sub/secret.gsj.recovery as a link to the outside
// job file.
func plantRecovery(t *testing.T, root, outside string) {
	t.Helper()
	link := filepath.Join(root, "sub", "secret.gsj"+RecoverySuffix)
	if err := os.Symlink(filepath.Join(outside, "secret.gsj"), link); err != nil {
		t.Fatal(err)
	}
}

// Create writes only where nothing is; Write replaces.
func TestCreateNeverReplaces(t *testing.T) {
	d, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, err := d.Resolve("sub/job")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Create(p, snapWithHeading("first"), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := d.Create(p, snapWithHeading("second"), "test", time.Now()); !errors.Is(err, ErrExists) {
		t.Fatalf("second Create: %v, want ErrExists", err)
	}
	if dec, err := d.Read(p); err != nil || dec.Snapshot.Job.Headings.Heading != "first" {
		t.Fatalf("after a refused Create: %v %q", err, dec.Snapshot.Job.Headings.Heading)
	}
	if err := d.Write(p, snapWithHeading("third"), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if dec, err := d.Read(p); err != nil || dec.Snapshot.Job.Headings.Heading != "third" {
		t.Fatalf("after Write: %v %q", err, dec.Snapshot.Job.Headings.Heading)
	}
	if entries, _ := os.ReadDir(filepath.Join(d.Root(), "sub")); len(entries) != 1 {
		t.Errorf("sub holds %d entries, want the job file alone", len(entries))
	}
}

// Links inside the directory are followed to the file they name; links
// that leave it, dangle or loop are refused, whatever the outside holds.
func TestResolveLinks(t *testing.T) {
	d, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	root := d.Root()
	mustLink := func(target, link string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, link)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "real", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "real", "file.gsj"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	mustLink("real/file.gsj", "rel.gsj")
	mustLink(filepath.Join(root, "real", "file.gsj"), "abs.gsj")
	mustLink("../real", "a/up")
	mustLink("deep/../file.gsj", "real/dotdot.gsj")
	mustLink(".", "self")
	mustLink(".", "rootlink.gsj")
	mustLink("real", "dirlink.gsj")
	mustLink("rel.gsj", "chain.gsj")
	mustLink("loop1.gsj", "loop2.gsj")
	mustLink("loop2.gsj", "loop1.gsj")
	mustLink("missing.gsj", "dangling.gsj")
	mustLink("../../x", "a/out")
	mustLink(outside, "out")
	mustLink("real", "realdir")
	ok := []struct{ in, real string }{
		{"rel", "real/file.gsj"}, {"abs", "real/file.gsj"}, {"a/up/file", "real/file.gsj"},
		{"real/dotdot", "real/file.gsj"}, {"self/self/real/file", "real/file.gsj"}, {"chain", "real/file.gsj"},
		{"realdir/new/folder/job", "real/new/folder/job.gsj"}, {"plain/new", "plain/new.gsj"},
	}
	for _, c := range ok {
		t.Run(c.in, func(t *testing.T) {
			p, err := d.Resolve(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := filepath.ToSlash(p.real); got != c.real {
				t.Errorf("leads to %q, want %q", got, c.real)
			}
		})
	}
	bad := []struct{ in, why string }{
		{"loop1", "more than"}, {"dangling", "does not exist"}, {"a/out/y", "outside"},
		{"out/y", "outside"}, {"rootlink", "jobs directory itself"}, {"real/file.gsj/x", "a file where a folder"},
		{"dirlink", "is a folder"},
	}
	for _, c := range bad {
		t.Run("reject "+c.in, func(t *testing.T) {
			p, err := d.Resolve(c.in)
			if err == nil {
				_, err = d.Stat(p)
			}
			if model.KindOf(err) != model.KindValidation || !strings.Contains(err.Error(), c.why) {
				t.Errorf("Resolve(%q) = %v, want a validation error saying %q", c.in, err, c.why)
			}
		})
	}
}

// Paths beyond the limits are refused with the limit named; at the limits
// they are accepted.
func TestResolveLimits(t *testing.T) {
	d, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	folders := func(n int, name string) string { return strings.Repeat(name+"/", n) }
	name := func(n int) string { return strings.Repeat("n", n) }
	tests := []struct {
		in   string
		want string // "" accepts
	}{
		{name(MaxJobNameBytes - len(Extension)), ""},
		{name(MaxJobNameBytes-len(Extension)+1) + "", "at most 246 bytes"},
		{name(MaxJobNameBytes), "at most 246 bytes"},
		{name(MaxNameBytes) + "/x", ""},
		{name(MaxNameBytes+1) + "/x", "at most 255 bytes per name"},
		{folders(MaxFolders, "a") + "x", ""},
		{folders(MaxFolders+1, "a") + "x", "at most 16"},
		{folders(2000, "a") + "x", "through 2000 folders"},
		{folders(200, "a/..") + "x", ""},
		{folders(16, name(250)) + name(MaxJobPathBytes-16*251-len(Extension)), ""},
		{folders(16, name(250)) + name(MaxJobPathBytes-16*251-len(Extension)+1), "at most 4087 bytes"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d bytes", len(tt.in)), func(t *testing.T) {
			_, err := d.Resolve(tt.in)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && (model.KindOf(err) != model.KindValidation || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("got %v, want a validation error saying %q", err, tt.want)
			}
			if err != nil && len(err.Error()) > 600 {
				t.Errorf("message of %d bytes", len(err.Error()))
			}
		})
	}
}
