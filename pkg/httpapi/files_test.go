package httpapi_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/session"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// A job saved, closed and opened again comes back exactly as it was.
func TestSaveOpenRoundTrip(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	e.must(200, "PATCH", "/job/headings", map[string]any{"projectHeading": "Depot", "heading": "Portal 3",
		"designerInitials": "JB", "notes": "line 1\nline 2 – ünïcode"})
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "ft", "sectionProperties": "in", "force": "K",
		"moment": "Kft", "stress": "Ksi", "massDensity": "lbperft3", "temperature": "degF", "translation": "inch"})
	e.must(200, "PATCH", "/job/settings", map[string]any{"verticalAxis": "ZAxis"})
	var before model.Job
	e.must(200, "GET", "/job", nil).decode(t, &before)
	e.must(201, "POST", "/job/save", map[string]any{"filePath": "projects/depot"})
	e.must(200, "POST", "/job/close", nil)
	js := jobState(t, e.must(200, "POST", "/job/open", map[string]any{"filePath": "projects/depot.gsj"}))
	if !reflect.DeepEqual(js.Job, before) {
		t.Errorf("reopened job %+v, saved %+v", js.Job, before)
	}
	if js.State.IsNew || js.State.IsModified || js.State.File.Path != "projects/depot.gsj" || js.State.File.Name != "depot" {
		t.Errorf("state after open: %+v", js.State)
	}
	// The file is a zip with a versioned manifest, open to any tool.
	zr, err := zip.OpenReader(filepath.Join(e.dir, "projects", "depot.gsj"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	names := map[string]bool{}
	for _, f := range zr.File {
		names[f.Name] = true
	}
	for _, want := range []string{"manifest.json", "job/headings.json", "job/units.json", "job/settings.json"} {
		if !names[want] {
			t.Errorf("job file lacks %s (has %v)", want, names)
		}
	}
	// Saving leaves no temporary files behind.
	entries, _ := os.ReadDir(filepath.Join(e.dir, "projects"))
	if len(entries) != 1 {
		t.Errorf("projects/ holds %d entries, want just depot.gsj", len(entries))
	}

	var pv jobfile.Preview
	e.must(200, "GET", "/file/preview?filePath=projects/depot.gsj", nil).decode(t, &pv)
	if pv.Headings != before.Headings || pv.FileSize <= 0 || pv.SavedAt.IsZero() || pv.ModifiedAt.IsZero() || pv.FormatVersion != jobfile.FormatVersion {
		t.Errorf("preview = %+v", pv)
	}
	e.wantError(404, "NOT_FOUND", "GET", "/file/preview?filePath=projects/none.gsj", nil)
}

// The recovery file follows the job: written while a job with a file is
// modified, removed by save and by close, and chosen by forceOption.
func TestRecoveryFile(t *testing.T) {
	e := newEnv(t, envOptions{})
	recovery := filepath.Join(e.dir, "r.gsj"+jobfile.RecoverySuffix)
	exists := func() bool { _, err := os.Stat(recovery); return err == nil }
	fileStatus := func(want string) session.FileStatus {
		t.Helper()
		var fs session.FileStatus
		e.must(200, "GET", "/file/status?filePath=r", nil).decode(t, &fs)
		if fs.Status != want {
			t.Fatalf("file status %s, want %s: %+v", fs.Status, want, fs)
		}
		return fs
	}
	fileStatus(session.FileNotFound)

	e.must(200, "POST", "/job/new", nil)
	e.must(200, "PATCH", "/job/headings", map[string]any{"heading": "saved"})
	if exists() {
		t.Fatal("a job without a file wrote a recovery file")
	}
	e.must(201, "POST", "/job/save", map[string]any{"filePath": "r"})
	fileStatus(session.FileLocked)
	e.must(200, "PATCH", "/job/headings", map[string]any{"heading": "unsaved"})
	if !exists() {
		t.Fatal("no recovery file while the job is modified")
	}
	fileStatus(session.FileLockedWithUnsavedChanges)
	e.must(200, "PATCH", "/job/headings", map[string]any{"heading": "saved"})
	e.must(200, "POST", "/job/save", nil)
	if exists() {
		t.Fatal("save left the recovery file")
	}
	e.must(200, "PATCH", "/job/headings", map[string]any{"heading": "unsaved"})
	e.must(200, "POST", "/job/close", nil)
	if exists() {
		t.Fatal("close left the recovery file")
	}
	fileStatus(session.FileReadyToOpen)

	// A crash: the job was modified and the session vanished without a
	// close (Redis lost, process killed). The recovery file stays.
	crash := func(heading string) {
		t.Helper()
		e.must(200, "POST", "/job/open", map[string]any{"filePath": "r.gsj"})
		e.must(200, "PATCH", "/job/headings", map[string]any{"heading": heading})
		if !exists() {
			t.Fatal("no recovery file")
		}
		if err := redistest.FlushAll(context.Background(), e.rdb.Client(t)); err != nil {
			t.Fatal(err)
		}
	}
	crash("recovered")
	fs := fileStatus(session.FileUnsavedChanges)
	if fs.CanOpenSafely || len(fs.AvailableRecoveryOptions) != 2 {
		t.Errorf("status with recovery: %+v", fs)
	}
	er := e.wantError(409, "CONFLICT", "POST", "/job/open", map[string]any{"filePath": "r.gsj"})
	if !strings.Contains(er.Detail, "OpenUnsavedMostRecent") || !strings.Contains(er.Detail, "OpenPreviousSaved") {
		t.Errorf("conflict does not name both options: %s", er.Detail)
	}
	e.must(409, "POST", "/job/open", map[string]any{"filePath": "r.gsj", "forceOption": "None"})
	e.wantError(400, "VALIDATION_FAILED", "POST", "/job/open", map[string]any{"filePath": "r.gsj", "forceOption": "Whatever"})

	js := jobState(t, e.must(200, "POST", "/job/open", map[string]any{"filePath": "r.gsj", "forceOption": "OpenUnsavedMostRecent"}))
	if js.Headings.Heading != "recovered" || !js.State.IsModified || js.State.IsNew || js.State.File.Path != "r.gsj" {
		t.Errorf("OpenUnsavedMostRecent gave %+v %+v", js.Headings, js.State)
	}
	e.must(200, "POST", "/job/close", nil)

	crash("discarded")
	js = jobState(t, e.must(200, "POST", "/job/open", map[string]any{"filePath": "r.gsj", "forceOption": "OpenPreviousSaved"}))
	if js.Headings.Heading != "saved" || js.State.IsModified {
		t.Errorf("OpenPreviousSaved gave %+v %+v", js.Headings, js.State)
	}
	if exists() {
		t.Error("OpenPreviousSaved kept the recovery file")
	}
	e.must(200, "POST", "/job/close", nil)

	// Only the recovery file is left.
	crash("only recovery")
	if err := os.Remove(filepath.Join(e.dir, "r.gsj")); err != nil {
		t.Fatal(err)
	}
	fs = fileStatus(session.FileRecoveryFilesOnly)
	if len(fs.AvailableRecoveryOptions) != 1 || fs.AvailableRecoveryOptions[0] != session.ForceOpenUnsavedMostRecent {
		t.Errorf("recovery-only options: %+v", fs.AvailableRecoveryOptions)
	}
	e.wantError(409, "CONFLICT", "POST", "/job/open", map[string]any{"filePath": "r.gsj"})
	js = jobState(t, e.must(200, "POST", "/job/open", map[string]any{"filePath": "r.gsj", "forceOption": "OpenUnsavedMostRecent"}))
	if js.Headings.Heading != "only recovery" {
		t.Errorf("recovered heading %q", js.Headings.Heading)
	}
	e.must(200, "POST", "/job/save", nil)
	if _, err := os.Stat(filepath.Join(e.dir, "r.gsj")); err != nil || exists() {
		t.Errorf("save after recovery: file %v, recovery left %v", err, exists())
	}
}

// With a recovery delay, a burst of edits is written once, shortly after.
func TestRecoveryFileIsWrittenAfterTheDelay(t *testing.T) {
	e := newEnv(t, envOptions{recoveryDelay: 50 * time.Millisecond})
	recovery := filepath.Join(e.dir, "d.gsj"+jobfile.RecoverySuffix)
	e.must(200, "POST", "/job/new", nil)
	e.must(201, "POST", "/job/save", map[string]any{"filePath": "d"})
	for i := 0; i < 5; i++ {
		e.must(200, "PATCH", "/job/headings", map[string]any{"notes": strings.Repeat("x", i)})
	}
	poll(t, "the recovery file holds the last edit", func() bool {
		b, err := os.ReadFile(recovery)
		if err != nil {
			return false
		}
		dec, err := jobfile.Decode(bytes.NewReader(b), int64(len(b)))
		return err == nil && dec.Snapshot.Job.Headings.Notes == "xxxx"
	})
	e.must(200, "POST", "/job/close", nil)
	// Flush waits for any recovery write still under way: none may bring
	// the file back after the close.
	e.sess.Flush()
	if _, err := os.Stat(recovery); err == nil {
		t.Error("recovery file survived close")
	}
}

// A filePath that resolves outside JOBS_DIR is a 400 on every operation
// that takes one, and nothing is written outside.
func TestPathTraversal(t *testing.T) {
	e := newEnv(t, envOptions{})
	outside := t.TempDir()
	writeJobFile(t, e, "inside.gsj", "inside")
	if err := os.WriteFile(filepath.Join(outside, "secret.gsj"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(e.dir, "link-out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.gsj"), filepath.Join(e.dir, "file-link.gsj")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "nothing-yet.gsj"), filepath.Join(e.dir, "dangling.gsj")); err != nil {
		t.Fatal(err)
	}
	bad := []string{
		"../escape", "../../etc/passwd", "a/../../escape.gsj", "./../escape", `..\escape`,
		"/etc/passwd", filepath.Join(outside, "secret.gsj"), "link-out/secret.gsj", "link-out/new.gsj",
		"file-link.gsj", "dangling.gsj", "notes.txt", "", "   ",
	}
	for _, p := range bad {
		t.Run(p, func(t *testing.T) {
			e.wantError(400, "VALIDATION_FAILED", "POST", "/job/open", map[string]any{"filePath": p})
			q := "?filePath=" + strings.ReplaceAll(p, " ", "%20")
			e.wantError(400, "VALIDATION_FAILED", "GET", "/file/status"+q, nil)
			e.wantError(400, "VALIDATION_FAILED", "GET", "/file/preview"+q, nil)
			if p != "" { // an empty filePath on save means "the job's own file"
				e.must(200, "POST", "/job/new", nil)
				e.wantError(400, "VALIDATION_FAILED", "POST", "/job/save", map[string]any{"filePath": p})
				e.must(200, "POST", "/job/close", nil)
			}
		})
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 {
		t.Errorf("files were written outside the jobs directory: %v", entries)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(e.dir), "escape.gsj")); err == nil {
		t.Error("escape.gsj was written next to the jobs directory")
	}
	// An absolute path inside the directory and a link that stays inside
	// are fine.
	js := jobState(t, e.must(200, "POST", "/job/open", map[string]any{"filePath": filepath.Join(e.dir, "inside.gsj")}))
	if js.State.File.Path != "inside.gsj" {
		t.Errorf("absolute path inside: %+v", js.State)
	}
	e.must(200, "POST", "/job/close", nil)
	if err := os.Symlink(filepath.Join(e.dir, "inside.gsj"), filepath.Join(e.dir, "alias.gsj")); err != nil {
		t.Fatal(err)
	}
	e.must(200, "POST", "/job/open", map[string]any{"filePath": "alias"})
}

func TestOpenRejectsBadFiles(t *testing.T) {
	e := newEnv(t, envOptions{})
	write := func(name string, b []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(e.dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	zipWith := func(entries map[string]string) []byte {
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		for n, c := range entries {
			w, _ := zw.Create(n)
			_, _ = w.Write([]byte(c))
		}
		_ = zw.Close()
		return b.Bytes()
	}
	write("junk.gsj", []byte("not a zip"))
	write("newer.gsj", zipWith(map[string]string{"manifest.json": `{"format":"gusset-job","version":99}`}))
	write("other.gsj", zipWith(map[string]string{"manifest.json": `{"format":"something-else","version":1}`}))
	write("nomanifest.gsj", zipWith(map[string]string{"job/headings.json": `{}`}))
	write("badunits.gsj", zipWith(map[string]string{"manifest.json": `{"format":"gusset-job","version":1}`,
		"job/units.json": `{"length":"parsec"}`}))
	cases := map[string]string{
		"junk.gsj": "not a valid gusset job file", "newer.gsj": "version 99", "other.gsj": "something-else",
		"nomanifest.gsj": "manifest.json is missing", "badunits.gsj": "parsec",
	}
	for name, fragment := range cases {
		t.Run(name, func(t *testing.T) {
			er := e.wantError(400, "VALIDATION_FAILED", "POST", "/job/open", map[string]any{"filePath": name})
			if !strings.Contains(er.Detail, fragment) {
				t.Errorf("detail %q lacks %q", er.Detail, fragment)
			}
		})
	}
	e.wantError(404, "NOT_FOUND", "POST", "/job/open", map[string]any{"filePath": "missing.gsj"})
	e.wantError(409, "NO_JOB_OPEN", "GET", "/job", nil)
}

// Rows of a job file are held to the rules API input meets on its own; a
// file that breaks one is refused with a message naming the row, and
// opens nothing.
func TestJobFileRowsAreChecked(t *testing.T) {
	e := structureEnv(t)
	e.must(201, "POST", sp+"/members", map[string]any{"nodeA": 1, "nodeB": 2, "section": 1, "material": 1})
	e.must(201, "POST", sp+"/node-restraints", map[string]any{"node": 1, "restraintCode": "FFFFFF"})
	e.must(201, "POST", "/job/save", map[string]any{"filePath": "base"})
	e.must(200, "POST", "/job/close", nil)
	dir, err := jobfile.OpenDir(e.dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := dir.Resolve("base.gsj")
	if err != nil {
		t.Fatal(err)
	}
	base, err := dir.Read(p)
	if err != nil {
		t.Fatal(err)
	}
	// edit returns the base snapshot with one row of coll replaced.
	edit := func(coll, key, value string) store.Snapshot {
		snap := store.Snapshot{Job: base.Snapshot.Job, Collections: map[string][]store.Row{}}
		for c, rows := range base.Snapshot.Collections {
			snap.Collections[c] = append([]store.Row{}, rows...)
		}
		for i, r := range snap.Collections[coll] {
			if r.Key == key {
				snap.Collections[coll][i].Value = json.RawMessage(value)
				return snap
			}
		}
		snap.Collections[coll] = append(snap.Collections[coll], store.Row{Key: key, Value: json.RawMessage(value)})
		return snap
	}
	member := `{"id":1,"nodeA":1,"nodeB":%d,"section":1,"material":1,"type":"Normal","direction":{"source":"Angle","dirAxis":"NotApplicable"},"releases":{"fixityCodeAtA":"FFFFFF","fixityCodeAtB":"FFFFFF"}}`
	tests := []struct {
		name string
		snap store.Snapshot
		want string // in the message; "" means the file opens
	}{
		{"the saved file", base.Snapshot, ""},
		{"the member row rewritten as saved", edit("members", store.Key(1), fmt.Sprintf(member, 2)), ""},
		{"a member on a node the file lacks", edit("members", store.Key(1), fmt.Sprintf(member, 9)),
			"members row 1: nodeB refers to node 9, which the file does not hold"},
		{"a member from a node to itself", edit("members", store.Key(1), fmt.Sprintf(member, 1)), "members row 1: "},
		{"a row whose fields name another key", edit("nodes", store.Key(2), `{"id":5,"x":3}`), "nodes row 2: its own key fields say 5"},
		{"a number beyond 1e20", edit("nodes", store.Key(2), `{"id":2,"x":1e25}`), "nodes row 2: the number 1e25 is beyond"},
		{"a number beyond float64", edit("nodes", store.Key(2), `{"id":2,"x":1e400}`), "nodes row 2: "},
		{"a row of the wrong shape", edit("nodes", store.Key(2), `{"id":"two"}`), "nodes row 2: "},
		{"a restraint of a node the file lacks", edit("nodeRestraints", store.Key(7), `{"node":7,"restraintCode":"FFFFFF","activeDirection":"BBBBBB",`+
			`"xFrictionNormalAxis":"None","yFrictionNormalAxis":"None","zFrictionNormalAxis":"None",`+
			`"xFrictionNormalDirection":"Either","yFrictionNormalDirection":"Either","zFrictionNormalDirection":"Either"}`),
			"nodeRestraints row 7: node refers to node 7, which the file does not hold"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ct, body := snapshotUpload(t, "template", tt.snap)
			r := e.raw("POST", "/job/new-from-template", ct, body)
			if tt.want == "" {
				if r.status != 200 {
					t.Fatalf("status %d: %s", r.status, r.body)
				}
				e.must(200, "POST", "/job/close", nil)
				return
			}
			if r.status != 400 || !strings.Contains(r.errBody(t).Detail, tt.want) {
				t.Errorf("status %d %s, want 400 naming %q", r.status, r.body, tt.want)
			}
			if r := e.raw("GET", "/job", "", nil); r.status != 409 {
				t.Errorf("a refused job file opened a job: %d", r.status)
			}
		})
	}
}
