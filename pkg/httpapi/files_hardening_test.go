package httpapi_test

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/session"
)

// in returns a copy of e that reports to t, so that a failing request in a
// subtest fails that subtest.
func (e *env) in(t *testing.T) *env {
	t.Helper()
	c := *e
	c.t = t
	return &c
}

// symlink makes link point at target, replacing whatever link was.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(link); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// outsideDir is a folder next to the jobs directory holding secret.gsj, a
// valid job file with heading "SECRET", an hour newer than anything the
// test writes.
func outsideDir(t *testing.T, e *env) string {
	t.Helper()
	out := t.TempDir()
	writeJobFile(t, &env{t: t, dir: out}, "secret.gsj", "SECRET")
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(out, "secret.gsj"), later, later); err != nil {
		t.Fatal(err)
	}
	return out
}

// tree lists the paths under dir with their sizes.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %s\n", p, fi.Size(), fi.ModTime())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// heading reads the heading of a job file on disk.
func heading(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := jobfile.Decode(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return dec.Snapshot.Job.Headings.Heading
}

// statusQuery is the /file/status URL of a filePath.
func statusQuery(filePath string) string { return "/file/status?filePath=" + url.QueryEscape(filePath) }

// A recovery file that is a link leading out of JOBS_DIR is never opened
// as the job: every open of its job file is a 400 naming the recovery file.
func TestRecoveryLinkOutIsRefused(t *testing.T) {
	e := newEnv(t, envOptions{})
	out := outsideDir(t, e)
	before := tree(t, out)
	writeJobFile(t, e, "a.gsj", "mine")
	symlink(t, filepath.Join(out, "secret.gsj"), filepath.Join(e.dir, "a.gsj.recovery"))
	symlink(t, filepath.Join(out, "secret.gsj"), filepath.Join(e.dir, "only.gsj.recovery"))
	tests := []struct{ name, file, force string }{
		{"no forceOption", "a", ""},
		{"OpenUnsavedMostRecent", "a", "OpenUnsavedMostRecent"},
		{"OpenPreviousSaved", "a", "OpenPreviousSaved"},
		{"recovery file without its job file", "only", "OpenUnsavedMostRecent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.in(t)
			r := e.do("POST", "/job/open", map[string]any{"filePath": tt.file, "forceOption": tt.force})
			if r.status == 200 {
				js := jobState(t, r)
				e.must(200, "POST", "/job/close", nil)
				t.Fatalf("opened with heading %q, want a 400", js.Headings.Heading)
			}
			if r.status != 400 {
				t.Fatalf("status %d, want 400: %s", r.status, r.body)
			}
			er := r.errBody(t)
			if want := tt.file + ".gsj.recovery"; !strings.Contains(er.Detail, want) || !strings.Contains(er.Detail, "symbolic link") {
				t.Errorf("detail %q does not name %s as a symbolic link", er.Detail, want)
			}
		})
	}
	if after := tree(t, out); after != before {
		t.Errorf("the outside folder changed:\n%s\nwas\n%s", after, before)
	}
}

// GET /file/status answers the same whether a link leading out of JOBS_DIR
// points at an outside file that exists or at one that does not, so it
// cannot be used to probe the file system.
func TestFileStatusHidesOutsidePaths(t *testing.T) {
	e := newEnv(t, envOptions{})
	out := outsideDir(t, e)
	writeJobFile(t, e, "a.gsj", "mine")
	tests := []struct {
		name, link, filePath string
		present, absent      string // link targets, relative to the outside folder
	}{
		{"recovery file of a job file", "a.gsj.recovery", "a", "secret.gsj", "missing.gsj"},
		{"recovery file alone", "b.gsj.recovery", "b", "secret.gsj", "missing.gsj"},
		{"job file", "c.gsj", "c", "secret.gsj", "missing.gsj"},
		{"folder", "d", "d/secret", ".", "missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.in(t)
			answer := func(target string) string {
				t.Helper()
				symlink(t, filepath.Join(out, target), filepath.Join(e.dir, tt.link))
				r := e.do("GET", statusQuery(tt.filePath), nil)
				if r.status == 200 {
					var fs session.FileStatus
					r.decode(t, &fs)
					if fs.Status != session.FileNotFound {
						t.Errorf("link to %s: status %s reveals the outside path", target, fs.Status)
					}
					return string(r.body)
				}
				er := r.errBody(t)
				return fmt.Sprintf("%d %s %s", r.status, er.ErrorCode, er.Detail)
			}
			present, absent := answer(tt.present), answer(tt.absent)
			if present != absent {
				t.Errorf("answers differ:\n  outside path exists:  %s\n  outside path missing: %s", present, absent)
			}
			if err := os.Remove(filepath.Join(e.dir, tt.link)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// No save writes outside JOBS_DIR, whatever link it meets on the way.
func TestSaveNeverWritesOutside(t *testing.T) {
	e := newEnv(t, envOptions{})
	out := outsideDir(t, e)
	before := tree(t, out)
	rel, err := filepath.Rel(filepath.Join(e.dir, "in"), out)
	if err != nil {
		t.Fatal(err)
	}
	symlink(t, out, filepath.Join(e.dir, "sub"))
	symlink(t, filepath.Join(out, "newdir"), filepath.Join(e.dir, "dangling-dir"))
	symlink(t, filepath.Join(out, "new.gsj"), filepath.Join(e.dir, "dangling.gsj"))
	symlink(t, filepath.Join(out, "secret.gsj"), filepath.Join(e.dir, "over.gsj"))
	symlink(t, rel, filepath.Join(e.dir, "in", "up"))
	tests := []struct{ name, filePath string }{
		{"folder link", "sub/x"},
		{"folder link onto an outside file", "sub/secret"},
		{"dangling folder link", "dangling-dir/x"},
		{"dangling file link", "dangling"},
		{"file link onto an outside file", "over"},
		{"relative link climbing out", "in/up/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.in(t)
			e.must(200, "POST", "/job/new", nil)
			defer e.must(200, "POST", "/job/close", nil)
			for _, overwrite := range []bool{false, true} {
				e.wantError(400, "VALIDATION_FAILED", "POST", "/job/save", map[string]any{"filePath": tt.filePath, "overwrite": overwrite})
			}
			if after := tree(t, out); after != before {
				t.Fatalf("the outside folder changed:\n%s\nwas\n%s", after, before)
			}
		})
	}
}

// A link inside JOBS_DIR that stays inside is followed: it opens the file
// it names, a save through it writes that file (the link stays), and the
// recovery file lies next to the file the link names.
func TestLinksInsideAreFollowed(t *testing.T) {
	e := newEnv(t, envOptions{})
	writeJobFile(t, e, "real/job.gsj", "original")
	symlink(t, "real/job.gsj", filepath.Join(e.dir, "relative.gsj"))
	symlink(t, filepath.Join(e.dir, "real", "job.gsj"), filepath.Join(e.dir, "absolute.gsj"))
	symlink(t, "../real", filepath.Join(e.dir, "folders", "alias"))
	tests := []struct{ name, filePath string }{
		{"relative file link", "relative"},
		{"absolute file link", "absolute.gsj"},
		{"folder link", "folders/alias/job"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.in(t)
			js := jobState(t, e.must(200, "POST", "/job/open", map[string]any{"filePath": tt.filePath}))
			defer e.must(200, "POST", "/job/close", nil)
			if js.State.File.Path != strings.TrimSuffix(tt.filePath, ".gsj")+".gsj" {
				t.Errorf("file path %q, want the path the client gave", js.State.File.Path)
			}
			h := fmt.Sprintf("edit %d", i)
			e.must(200, "PATCH", "/job/headings", map[string]any{"heading": h})
			recovery := filepath.Join(e.dir, "real", "job.gsj.recovery")
			if _, err := os.Lstat(recovery); err != nil {
				t.Errorf("no recovery file next to the linked file: %v", err)
			}
			e.must(200, "POST", "/job/save", nil)
			if got := heading(t, filepath.Join(e.dir, "real", "job.gsj")); got != h {
				t.Errorf("the linked file has heading %q, want %q", got, h)
			}
			for _, l := range []string{"relative.gsj", "absolute.gsj", "folders/alias"} {
				if fi, err := os.Lstat(filepath.Join(e.dir, l)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Errorf("%s is no longer a link: %v", l, err)
				}
			}
			if _, err := os.Lstat(recovery); err == nil {
				t.Error("save left the recovery file")
			}
		})
	}
}

// Saving onto a file that is not the open job's own file is a 409 unless
// the request says "overwrite": true.
func TestSaveRefusesToOverwrite(t *testing.T) {
	e := newEnv(t, envOptions{})
	writeJobFile(t, e, "mine.gsj", "mine")
	symlink(t, "mine.gsj", filepath.Join(e.dir, "alias.gsj"))
	writeRecovery := func(rel string) {
		t.Helper()
		writeJobFile(t, e, rel+".gsj.recovery", "their unsaved work")
	}
	tests := []struct {
		name    string
		open    string // "" opens a new job
		file    string // the file that must not be overwritten silently
		setup   func()
		refused string // what the 409 names
		path    string // on disk, what is checked afterwards
		first   int    // status of a save with overwrite true
	}{
		{"new job onto a file", "", "theirs", func() { writeJobFile(t, e, "theirs.gsj", "theirs") }, "theirs.gsj", "theirs.gsj", 201},
		{"new job onto a file in a folder", "", "sub/theirs", func() { writeJobFile(t, e, "sub/theirs.gsj", "theirs") }, "sub/theirs.gsj", "sub/theirs.gsj", 201},
		{"save-as onto another file", "mine", "other", func() { writeJobFile(t, e, "other.gsj", "theirs") }, "other.gsj", "other.gsj", 200},
		{"new job onto a recovery file", "", "lost", func() { writeRecovery("lost") }, "lost.gsj.recovery", "lost.gsj.recovery", 201},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.in(t)
			tt.setup()
			before, err := os.ReadFile(filepath.Join(e.dir, tt.path))
			if err != nil {
				t.Fatal(err)
			}
			if tt.open == "" {
				e.must(200, "POST", "/job/new", nil)
			} else {
				e.must(200, "POST", "/job/open", map[string]any{"filePath": tt.open})
			}
			defer e.must(200, "POST", "/job/close", nil)
			e.must(200, "PATCH", "/job/headings", map[string]any{"heading": "new content"})
			for _, body := range []map[string]any{{"filePath": tt.file}, {"filePath": tt.file, "overwrite": false}} {
				er := e.wantError(409, "CONFLICT", "POST", "/job/save", body)
				if !strings.Contains(er.Detail, tt.refused) || !strings.Contains(er.Detail, `"overwrite": true`) {
					t.Errorf("detail %q does not name %s and the overwrite flag", er.Detail, tt.refused)
				}
			}
			if after, _ := os.ReadFile(filepath.Join(e.dir, tt.path)); !bytes.Equal(after, before) {
				t.Fatal("a refused save changed the file")
			}
			e.must(tt.first, "POST", "/job/save", map[string]any{"filePath": tt.file, "overwrite": true})
			if got := heading(t, filepath.Join(e.dir, strings.TrimSuffix(tt.path, ".recovery"))); got != "new content" {
				t.Errorf("after an overwrite the file has heading %q", got)
			}
		})
	}
	t.Run("the open job's own file", func(t *testing.T) {
		e := e.in(t)
		e.must(200, "POST", "/job/open", map[string]any{"filePath": "mine"})
		defer e.must(200, "POST", "/job/close", nil)
		for _, body := range []any{nil, map[string]any{}, map[string]any{"filePath": "mine"}, map[string]any{"filePath": "mine.gsj"},
			map[string]any{"filePath": "alias"}, map[string]any{"filePath": "mine", "overwrite": false}} {
			e.must(200, "PATCH", "/job/headings", map[string]any{"heading": "mine again"})
			e.must(200, "POST", "/job/save", body)
		}
	})
}

// Names and paths beyond the file system's limits, and folder trees deeper
// than the cap, are a 400 naming the limit on every route taking a path.
func TestLongPathsAreRefused(t *testing.T) {
	e := newEnv(t, envOptions{})
	folders := func(n int, name string) string { return strings.Repeat(name+"/", n) }
	long := strings.Repeat("n", 255)
	tests := []struct {
		name, filePath, limit string
	}{
		{"folder name of 256 bytes", strings.Repeat("f", 256) + "/x", "255"},
		{"file name of 256 bytes", strings.Repeat("n", 256), "255"},
		{"file name of 300 bytes with .gsj", strings.Repeat("n", 296) + ".gsj", "255"},
		{"file name of 260 bytes in two-byte characters", strings.Repeat("é", 130), "255"},
		{"file name whose recovery file is too long", strings.Repeat("n", 243), "255"},
		{"path of more than 4096 bytes", folders(16, long) + "x", "4096"},
		{"17 folders", folders(17, "a") + "x", "16"},
		{"2000 folders", folders(2000, "a") + "x", "16"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.in(t)
			check := func(what string, er httpapi.ErrorResponse) {
				t.Helper()
				if !strings.Contains(er.Detail, tt.limit) {
					t.Errorf("%s: detail %q does not name the limit %s", what, er.Detail, tt.limit)
				}
			}
			for _, route := range []string{"/file/status", "/file/preview"} {
				path := route + "?filePath=" + url.QueryEscape(tt.filePath)
				// A URL past the request-line limit is refused before any
				// path rule, with its own message.
				if len(path) > httpapi.MaxHeaderBytes-512 {
					e.wantError(400, "MALFORMED_REQUEST", "GET", path, nil)
					continue
				}
				check(route, e.wantError(400, "VALIDATION_FAILED", "GET", path, nil))
			}
			check("open", e.wantError(400, "VALIDATION_FAILED", "POST", "/job/open", map[string]any{"filePath": tt.filePath}))
			e.must(200, "POST", "/job/new", nil)
			defer e.must(200, "POST", "/job/close", nil)
			check("save", e.wantError(400, "VALIDATION_FAILED", "POST", "/job/save", map[string]any{"filePath": tt.filePath}))
		})
	}
	if entries, _ := os.ReadDir(e.dir); len(entries) != 0 {
		t.Errorf("refused saves left %d entries in the jobs directory", len(entries))
	}
	// At the limits a job saves, and its recovery file is written.
	for _, fp := range []string{strings.Repeat("n", 242), folders(16, "a") + "deep", folders(15, long) + strings.Repeat("n", 242)} {
		t.Run(fmt.Sprintf("at the limit (%d bytes)", len(fp)), func(t *testing.T) {
			e := e.in(t)
			e.must(200, "POST", "/job/new", nil)
			e.must(201, "POST", "/job/save", map[string]any{"filePath": fp})
			e.must(200, "PATCH", "/job/headings", map[string]any{"heading": "unsaved"})
			// The absolute path may be longer than the kernel takes in one
			// call; a Root walks it a folder at a time.
			root, err := os.OpenRoot(e.dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			if _, err := root.Stat(fp + ".gsj.recovery"); err != nil {
				t.Errorf("no recovery file: %v", err)
			}
			e.must(200, "POST", "/job/close", nil)
			if len(fp) < 3000 { // longer URLs do not fit the server's header buffer
				e.must(200, "GET", statusQuery(fp), nil)
			}
			e.must(200, "POST", "/job/open", map[string]any{"filePath": fp})
			e.must(200, "POST", "/job/close", nil)
		})
	}
}
