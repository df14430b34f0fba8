package httpapi_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// jobState decodes the body of the operations that load a job.
func jobState(t *testing.T, r resp) httpapi.JobWithState {
	t.Helper()
	var js httpapi.JobWithState
	r.decode(t, &js)
	return js
}

func status(t *testing.T, e *env) httpapi.Status {
	t.Helper()
	var st httpapi.Status
	e.must(200, "GET", "/job/status", nil).decode(t, &st)
	return st
}

// templateUpload builds a multipart body with a job file in part "template".
func templateUpload(t *testing.T, part string, job model.Job) (string, []byte) {
	t.Helper()
	return snapshotUpload(t, part, store.Snapshot{Job: job})
}

// snapshotUpload is templateUpload of a whole job: settings and rows.
func snapshotUpload(t *testing.T, part string, snap store.Snapshot) (string, []byte) {
	t.Helper()
	var file bytes.Buffer
	if err := jobfile.Encode(&file, snap, "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile(part, "template.gsj")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write(file.Bytes())
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return mw.FormDataContentType(), body.Bytes()
}

// writeJobFile saves a job file with the given heading into the jobs dir.
func writeJobFile(t *testing.T, e *env, rel, heading string) {
	t.Helper()
	job := model.NewJob()
	job.Headings.Heading = heading
	var b bytes.Buffer
	if err := jobfile.Encode(&b, store.Snapshot{Job: job}, "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(e.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Every row of the "Job session" state table of the interface.
func TestJobSessionStateTable(t *testing.T) {
	e := newEnv(t, envOptions{})
	writeJobFile(t, e, "existing.gsj", "from disk")
	tmplType, tmplBody := templateUpload(t, "template", model.Job{Headings: model.Headings{Heading: "from template"},
		Settings: model.DefaultSettings(), Units: model.DefaultUnits()})

	// Each loader, from "no job open", then again while a job is open.
	loaders := []struct {
		name    string
		send    func() resp
		isNew   bool
		heading string
		path    string
	}{
		{"new job", func() resp { return e.do("POST", "/job/new", nil) }, true, "", ""},
		{"new from template", func() resp { return e.raw("POST", "/job/new-from-template", tmplType, tmplBody) }, true, "from template", ""},
		{"open job", func() resp { return e.do("POST", "/job/open", map[string]any{"filePath": "existing.gsj"}) }, false, "from disk", "existing.gsj"},
		{"open sample", func() resp {
			return e.do("POST", "/job/open-sample", map[string]any{"fileName": "Metric template.gsj"})
		}, true, "Metric job template", ""},
	}
	for _, l := range loaders {
		t.Run(l.name+" from no job open", func(t *testing.T) {
			r := l.send()
			if r.status != 200 {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			js := jobState(t, r)
			if !js.State.IsOpen || js.State.IsNew != l.isNew || js.State.IsModified || js.State.OpenedAt == nil {
				t.Errorf("state = %+v, want open, isNew=%v, unmodified, openedAt set", js.State, l.isNew)
			}
			if js.Headings.Heading != l.heading || js.State.File.Path != l.path {
				t.Errorf("heading %q path %q, want %q %q", js.Headings.Heading, js.State.File.Path, l.heading, l.path)
			}
			if l.name == "new job" && (js.Units != model.DefaultUnits() || js.Settings != model.DefaultSettings()) {
				t.Errorf("a new job has units %+v settings %+v, want the defaults", js.Units, js.Settings)
			}
			before := status(t, e)
			for _, other := range loaders {
				r := other.send()
				if r.status != http.StatusConflict || r.errBody(t).ErrorCode != "JOB_ALREADY_OPEN" {
					t.Errorf("%s while open: %d %s, want 409 JOB_ALREADY_OPEN", other.name, r.status, r.body)
				}
			}
			if after := status(t, e); !reflect.DeepEqual(after, before) {
				t.Errorf("a refused load changed the job: %+v → %+v", before, after)
			}
			var closed model.State
			e.must(200, "POST", "/job/close", nil).decode(t, &closed)
			if closed.IsOpen {
				t.Errorf("close returned isOpen=true")
			}
		})
	}

	t.Run("save new job without filePath is 409 and changes nothing", func(t *testing.T) {
		e.must(200, "POST", "/job/new", nil)
		e.wantError(409, "CONFLICT", "POST", "/job/save", nil)
		e.wantError(409, "CONFLICT", "POST", "/job/save", map[string]any{})
		if st := status(t, e).State; !st.IsNew || st.File.Path != "" {
			t.Errorf("state after refused save: %+v", st)
		}
	})
	t.Run("first save is 201, later saves 200", func(t *testing.T) {
		var st model.State
		e.must(201, "POST", "/job/save", map[string]any{"filePath": "sub/dir/first"}).decode(t, &st)
		if st.IsNew || st.IsModified || st.File.Path != "sub/dir/first.gsj" || st.File.Name != "first" || st.File.Source != model.SourceLocalFile {
			t.Errorf("state after first save: %+v", st)
		}
		if _, err := os.Stat(filepath.Join(e.dir, "sub", "dir", "first.gsj")); err != nil {
			t.Errorf("saved file: %v", err)
		}
		e.must(200, "POST", "/job/save", nil)
		e.must(200, "POST", "/job/save", map[string]any{"filePath": "sub/dir/first.gsj"})
	})
	t.Run("close discards unsaved changes and leaves the file", func(t *testing.T) {
		e.must(200, "PATCH", "/job/headings", map[string]any{"heading": "unsaved"})
		fi, _ := os.Stat(filepath.Join(e.dir, "sub", "dir", "first.gsj"))
		e.must(200, "POST", "/job/close", nil)
		fi2, _ := os.Stat(filepath.Join(e.dir, "sub", "dir", "first.gsj"))
		if fi == nil || fi2 == nil || !fi.ModTime().Equal(fi2.ModTime()) || fi.Size() != fi2.Size() {
			t.Errorf("close touched the job file")
		}
		js := jobState(t, e.must(200, "POST", "/job/open", map[string]any{"filePath": "sub/dir/first.gsj"}))
		if js.Headings.Heading != "" {
			t.Errorf("reopened heading %q: unsaved change survived close", js.Headings.Heading)
		}
	})
	t.Run("clear requires force=true", func(t *testing.T) {
		e.wantError(400, "VALIDATION_FAILED", "DELETE", "/job/data", nil)
		e.wantError(400, "VALIDATION_FAILED", "DELETE", "/job/data?force=false", nil)
		e.wantError(400, "VALIDATION_FAILED", "DELETE", "/job/data?force=maybe", nil)
	})
	t.Run("clear keeps units and settings and zeroes counts", func(t *testing.T) {
		e.must(200, "PATCH", "/job/units", map[string]any{"force": "N"})
		e.must(200, "PATCH", "/job/settings", map[string]any{"verticalAxis": "ZAxis"})
		var st httpapi.Status
		e.must(200, "DELETE", "/job/data?force=true", nil).decode(t, &st)
		if !st.State.IsOpen || !st.State.IsModified || st.Job.Units.Force != "N" || st.Job.Settings.VerticalAxis != model.VerticalZ {
			t.Errorf("after clear: %+v", st)
		}
		if st.Structure != (httpapi.StructureCounts{}) || st.Loads != (httpapi.LoadCounts{}) {
			t.Errorf("counts after clear: %+v %+v", st.Structure, st.Loads)
		}
	})
	t.Run("close with no job open is 200 and idempotent", func(t *testing.T) {
		for i := 0; i < 2; i++ {
			var st model.State
			e.must(200, "POST", "/job/close", nil).decode(t, &st)
			if st.IsOpen || st.OpenedAt != nil || st.File.Source != model.SourceNone {
				t.Errorf("close #%d: %+v", i, st)
			}
		}
	})
}

// With no job open, every job-scoped endpoint but the status answers 409
// NO_JOB_OPEN (the status reports the state: TestStatusWithNoJobOpen).
func TestNoJobOpen(t *testing.T) {
	e := newEnv(t, envOptions{})
	cases := []struct {
		method, path string
		body         any
	}{
		{"GET", "/job", nil}, {"GET", "/job/headings", nil},
		{"PATCH", "/job/headings", map[string]any{"heading": "x"}}, {"GET", "/job/settings", nil},
		{"PATCH", "/job/settings", map[string]any{"verticalAxis": "ZAxis"}}, {"GET", "/job/units", nil},
		{"PATCH", "/job/units", map[string]any{"force": "N"}}, {"GET", "/job/errors", nil},
		{"GET", "/job/errors/last", nil}, {"DELETE", "/job/errors", nil}, {"POST", "/job/save", map[string]any{"filePath": "x"}},
		{"DELETE", "/job/data?force=true", nil},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			// The edge adds the routes that open a job to the domain's message.
			if er := e.wantError(409, "NO_JOB_OPEN", c.method, c.path, c.body); !strings.Contains(er.Detail, "POST /api/v1/job/new") {
				t.Errorf("detail %q names no route to a job", er.Detail)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(e.dir, "x.gsj")); err == nil {
		t.Errorf("save with no job open wrote a file")
	}
}

func TestHeadingsPatch(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	var h model.Headings
	e.must(200, "PATCH", "/job/headings", map[string]any{"projectHeading": "Bridge", "notes": "n1"}).decode(t, &h)
	e.must(200, "PATCH", "/job/headings", map[string]any{"heading": "Span 1", "designerInitials": "ABC"}).decode(t, &h)
	want := model.Headings{ProjectHeading: "Bridge", Heading: "Span 1", DesignerInitials: "ABC", Notes: "n1"}
	if h != want {
		t.Fatalf("headings = %+v, want %+v (omitted fields must stay)", h, want)
	}
	// Limits from the interface: 50, 50, 3, 1024 characters; counted in
	// characters, so 50 multi-byte letters are fine.
	e.must(200, "PATCH", "/job/headings", map[string]any{"heading": strings.Repeat("é", 50)})
	tooLong := []map[string]any{
		{"projectHeading": strings.Repeat("a", 51)}, {"heading": strings.Repeat("a", 51)},
		{"designerInitials": "ABCD"}, {"notes": strings.Repeat("a", 1025)},
		{"heading": "ok", "designerInitials": "ABCD"},
	}
	for _, body := range tooLong {
		er := e.wantError(400, "VALIDATION_FAILED", "PATCH", "/job/headings", body)
		if !strings.Contains(er.Detail, "at most") {
			t.Errorf("detail %q does not state the limit", er.Detail)
		}
	}
	e.must(200, "GET", "/job/headings", nil).decode(t, &h)
	if h.Heading != strings.Repeat("é", 50) || h.DesignerInitials != "ABC" {
		t.Errorf("a rejected patch changed the headings: %+v", h)
	}
	if st := status(t, e).State; !st.IsModified {
		t.Errorf("a headings change did not mark the job modified")
	}
}

func TestUnitsAndSettings(t *testing.T) {
	e := newEnv(t, envOptions{})
	// The metadata needs no job: the allowed units do not depend on one.
	var md httpapi.Metadata
	e.must(200, "GET", "/job/units/metadata", nil).decode(t, &md)
	// The 11 units of the interface, and the pressure unit this service
	// adds (README "Differences from the contract").
	if len(md.Fields) != 12 || md.Fields[11].JSONName != "pressure" {
		t.Fatalf("units metadata has %d fields, want the 11 of the interface and pressure", len(md.Fields))
	}
	for _, f := range md.Fields {
		if f.DataType != "Enum" || len(f.AllowedValues) == 0 || f.Default == nil {
			t.Errorf("field %s: %+v", f.JSONName, f)
		}
	}
	e.must(200, "POST", "/job/new", nil)
	var u model.Units
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "ft", "force": "K", "moment": "Kft"}).decode(t, &u)
	if u.Length != "ft" || u.Force != "K" || u.Moment != "Kft" || u.Stress != "MPa" {
		t.Errorf("units = %+v", u)
	}
	er := e.wantError(400, "VALIDATION_FAILED", "PATCH", "/job/units", map[string]any{"length": "furlong", "force": "N"})
	if !strings.Contains(er.Detail, "furlong") || !strings.Contains(er.Detail, "mm") || er.Errors[0].Field != "length" {
		t.Errorf("error does not name the field and the allowed units: %+v", er)
	}
	e.must(200, "GET", "/job/units", nil).decode(t, &u)
	if u.Force != "K" {
		t.Errorf("a rejected patch changed force to %s", u.Force)
	}
	var s model.Settings
	e.must(200, "GET", "/job/settings", nil).decode(t, &s)
	if s.VerticalAxis != model.VerticalY {
		t.Errorf("default vertical axis %s", s.VerticalAxis)
	}
	e.wantError(400, "VALIDATION_FAILED", "PATCH", "/job/settings", map[string]any{"verticalAxis": "XAxis"})
	var job model.Job
	e.must(200, "GET", "/job", nil).decode(t, &job)
	if job.Units != u || job.Settings != s {
		t.Errorf("GET /job = %+v", job)
	}
}

func TestJobErrorLog(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	var list httpapi.ErrorsResponse
	e.must(200, "GET", "/job/errors", nil).decode(t, &list)
	if list.Count != 0 || len(list.Errors) != 0 {
		t.Fatalf("new job has errors: %+v", list)
	}
	var last httpapi.LastErrorResponse
	e.must(200, "GET", "/job/errors/last", nil).decode(t, &last)
	if last.HasError || last.Error != nil {
		t.Fatalf("last error of a new job: %+v", last)
	}
	e.wantError(400, "VALIDATION_FAILED", "PATCH", "/job/headings", map[string]any{"designerInitials": "TOOLONG"})
	e.wantError(409, "JOB_ALREADY_OPEN", "POST", "/job/new", nil)
	e.must(200, "GET", "/job/errors", nil).decode(t, &list)
	if list.Count != 2 || list.Errors[0].Status != 400 || list.Errors[1].ErrorCode != "JOB_ALREADY_OPEN" {
		t.Fatalf("errors = %+v", list)
	}
	e.must(200, "GET", "/job/errors/last", nil).decode(t, &last)
	if !last.HasError || last.Error.ErrorCode != "JOB_ALREADY_OPEN" || last.Error.Path != "/api/v1/job/new" {
		t.Fatalf("last = %+v", last)
	}
	e.must(204, "DELETE", "/job/errors", nil)
	e.must(200, "GET", "/job/errors", nil).decode(t, &list)
	if list.Count != 0 {
		t.Fatalf("errors after DELETE: %+v", list)
	}
	e.wantError(400, "VALIDATION_FAILED", "PATCH", "/job/headings", map[string]any{"designerInitials": "TOOLONG"})
	e.must(200, "POST", "/job/close", nil)
	e.must(200, "POST", "/job/new", nil)
	e.must(200, "GET", "/job/errors", nil).decode(t, &list)
	if list.Count != 0 {
		t.Fatalf("the error log outlived its job: %+v", list)
	}
}

func TestServiceAndSamples(t *testing.T) {
	e := newEnv(t, envOptions{})
	var info httpapi.ServiceInfo
	e.must(200, "GET", "/service/info", nil).decode(t, &info)
	if info.APIPath != "/api/v1" || info.Version == "" {
		t.Errorf("info = %+v", info)
	}
	var names []string
	e.must(200, "GET", "/file/samples", nil).decode(t, &names)
	if len(names) == 0 {
		t.Fatal("no samples")
	}
	for _, n := range names {
		js := jobState(t, e.must(200, "POST", "/job/open-sample", map[string]any{"fileName": n}))
		if js.State.File.Name == "" || !js.State.IsNew || js.State.File.Path != "" {
			t.Errorf("sample %s opened as %+v", n, js.State)
		}
		e.must(200, "POST", "/job/close", nil)
	}
	e.must(200, "POST", "/job/open-sample", map[string]any{"fileName": "portal frame"})
	var st httpapi.Status
	e.must(200, "GET", "/job/status", nil).decode(t, &st)
	if st.Structure.Nodes != 4 || st.Structure.Members != 3 || st.Loads.LoadCases != 4 || st.Loads.CombinationLoadCases != 1 {
		t.Errorf("portal frame sample: %+v %+v", st.Structure, st.Loads)
	}
	e.must(200, "POST", "/job/close", nil)
	er := e.wantError(404, "NOT_FOUND", "POST", "/job/open-sample", map[string]any{"fileName": "missing"})
	if !strings.Contains(er.Detail, names[0]) {
		t.Errorf("unknown sample error does not list the samples: %s", er.Detail)
	}
	e.wantError(400, "VALIDATION_FAILED", "POST", "/job/open-sample", map[string]any{"fileName": ""})
}

func TestNewFromTemplateErrors(t *testing.T) {
	e := newEnv(t, envOptions{})
	ct, body := templateUpload(t, "wrongpart", model.NewJob())
	if r := e.raw("POST", "/job/new-from-template", ct, body); r.status != 400 {
		t.Errorf("missing template part: %d %s", r.status, r.body)
	}
	if r := e.raw("POST", "/job/new-from-template", "application/json", []byte(`{}`)); r.status != 415 {
		t.Errorf("JSON body: %d %s", r.status, r.body)
	}
	var mbody bytes.Buffer
	mw := multipart.NewWriter(&mbody)
	fw, _ := mw.CreateFormFile("template", "junk.gsj")
	_, _ = fw.Write([]byte("this is not a zip"))
	_ = mw.Close()
	r := e.raw("POST", "/job/new-from-template", mw.FormDataContentType(), mbody.Bytes())
	if r.status != 400 || !strings.Contains(r.errBody(t).Detail, "not a valid gusset job file") {
		t.Errorf("junk template: %d %s", r.status, r.body)
	}
	if r := e.raw("GET", "/job", "", nil); r.status != 409 {
		t.Errorf("a failed template upload opened a job: %d", r.status)
	}
}
