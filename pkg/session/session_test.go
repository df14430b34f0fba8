package session_test

import (
	"bytes"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/samples"
	"github.com/gusset/gusset/pkg/session"
	"github.com/gusset/gusset/pkg/store"
)

// template encodes a job as the bytes of an uploaded job file.
func template(t *testing.T, job model.Job) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jobfile.Encode(&b, store.Snapshot{Job: job}, "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Every row of the job session state table, run against the service.
func TestJobSessionStateTable(t *testing.T) {
	rdb := server(t)

	t.Run("no job open", func(t *testing.T) {
		e := newEnv(t, rdb, 0)
		if sl := e.slot(t); sl.State.IsOpen || sl.State.OpenedAt != nil {
			t.Fatalf("fresh workspace slot: %+v", sl.State)
		}
		_, err := e.svc.Save(e.ctx, e.ws, "x", false)
		wantErr(t, err, model.KindNoJobOpen, "no job is open")
		_, err = e.svc.Clear(e.ctx, e.ws, true)
		wantErr(t, err, model.KindNoJobOpen, "no job is open")
		_, err = e.svc.Job(e.ctx, e.ws)
		wantErr(t, err, model.KindNoJobOpen)
		if exists(e.path("x.gsj")) {
			t.Error("save with no job open wrote a file")
		}
	})

	t.Run("new job, save, save again, save-as, close", func(t *testing.T) {
		e := newEnv(t, rdb, 0)
		o := e.newJob(t)
		if !o.State.IsOpen || !o.State.IsNew || o.State.IsModified || o.State.File.Path != "" ||
			o.State.File.Source != model.SourceNewJob {
			t.Errorf("new job state %+v, want open, new, unmodified, no file", o.State)
		}
		if o.State.OpenedAt == nil || !o.State.OpenedAt.Equal(e.clock.last()) {
			t.Errorf("openedAt %v, want the clock's %v", o.State.OpenedAt, e.clock.last())
		}
		if !reflect.DeepEqual(o.Job, model.NewJob()) {
			t.Errorf("new job %+v, want the defaults %+v", o.Job, model.NewJob())
		}

		// A never-saved job needs a filePath.
		_, err := e.svc.Save(e.ctx, e.ws, "", false)
		wantErr(t, err, model.KindConflict, "never been saved", "filePath")
		if sl := e.slot(t); !sl.State.IsNew || sl.State.File.Path != "" {
			t.Errorf("a refused save changed the state: %+v", sl.State)
		}

		e.setHeading(t, "first")
		if sl := e.slot(t); !sl.State.IsModified || !sl.State.IsNew {
			t.Errorf("after a change: %+v, want modified and still new", sl.State)
		}
		s := e.save(t, "sub/dir/first", false)
		if !s.First || s.State.IsNew || s.State.IsModified || s.State.File.Path != "sub/dir/first.gsj" ||
			s.State.File.Name != "first" || s.State.File.Source != model.SourceLocalFile {
			t.Errorf("first save: First=%v %+v", s.First, s.State)
		}
		if got := heading(t, e.path("sub/dir/first.gsj")); got != "first" {
			t.Errorf("saved heading %q", got)
		}
		if m := decodeFile(t, e.path("sub/dir/first.gsj")).Manifest; m.Generator != "session-test" || !m.SavedAt.Equal(e.clock.last()) {
			t.Errorf("manifest generator %q savedAt %v, want session-test at %v", m.Generator, m.SavedAt, e.clock.last())
		}

		// Save again: to its own file, by an empty filePath or by its path,
		// without overwrite.
		for _, fp := range []string{"", "sub/dir/first.gsj", "sub/dir/first"} {
			e.setHeading(t, "again "+fp)
			s = e.save(t, fp, false)
			if s.First || s.State.IsNew || s.State.IsModified || s.State.File.Path != "sub/dir/first.gsj" {
				t.Errorf("save %q again: First=%v %+v", fp, s.First, s.State)
			}
			if got := heading(t, e.path("sub/dir/first.gsj")); got != "again "+fp {
				t.Errorf("save %q again wrote heading %q", fp, got)
			}
		}

		// Save-as: a new path becomes the job's file; the old one stays.
		e.setHeading(t, "as")
		s = e.save(t, "other", false)
		if s.First || s.State.IsNew || s.State.IsModified || s.State.File.Path != "other.gsj" || s.State.File.Name != "other" {
			t.Errorf("save-as: First=%v %+v", s.First, s.State)
		}
		if a, b := heading(t, e.path("other.gsj")), heading(t, e.path("sub/dir/first.gsj")); a != "as" || b != "again sub/dir/first" {
			t.Errorf("after save-as: new file %q, old file %q", a, b)
		}

		// Close leaves the files and is idempotent.
		e.setHeading(t, "unsaved")
		for i := 0; i < 3; i++ {
			st, err := e.svc.Close(e.ctx, e.ws)
			if err != nil {
				t.Fatalf("close #%d: %v", i, err)
			}
			if !reflect.DeepEqual(st, model.ClosedState()) {
				t.Errorf("close #%d answered %+v, want %+v", i, st, model.ClosedState())
			}
		}
		if sl := e.slot(t); sl.State.IsOpen {
			t.Errorf("slot after close: %+v", sl.State)
		}
		if got := heading(t, e.path("other.gsj")); got != "as" {
			t.Errorf("close changed the file: heading %q", got)
		}
		o, err = e.svc.Open(e.ctx, e.ws, "other", session.ForceNone)
		if err != nil {
			t.Fatal(err)
		}
		if o.Job.Headings.Heading != "as" || o.State.IsNew || o.State.IsModified || o.State.File.Path != "other.gsj" {
			t.Errorf("reopened %+v %+v: unsaved change survived close?", o.Job.Headings, o.State)
		}
	})

	t.Run("a loader while a job is open is refused and changes nothing", func(t *testing.T) {
		e := newEnv(t, rdb, 0)
		e.writeJob(t, "existing.gsj", "from disk")
		tmpl := template(t, model.Job{Headings: model.Headings{Heading: "from template"},
			Settings: model.DefaultSettings(), Units: model.DefaultUnits(), Analysis: model.AnalysisSettings{}})
		loaders := []struct {
			name    string
			load    func() (session.Opened, error)
			isNew   bool
			heading string
			path    string
			source  model.FileSource
		}{
			{"new job", func() (session.Opened, error) { return e.svc.NewJob(e.ctx, e.ws) }, true, "", "", model.SourceNewJob},
			{"new from template", func() (session.Opened, error) { return e.svc.NewFromTemplate(e.ctx, e.ws, tmpl, "t.gsj") },
				true, "from template", "", model.SourceNewJob},
			{"open", func() (session.Opened, error) { return e.svc.Open(e.ctx, e.ws, "existing.gsj", session.ForceNone) },
				false, "from disk", "existing.gsj", model.SourceLocalFile},
			{"open sample", func() (session.Opened, error) { return e.svc.OpenSample(e.ctx, e.ws, "Metric template.gsj") },
				true, "Metric job template", "", model.SourceNewJob},
		}
		for _, l := range loaders {
			t.Run(l.name, func(t *testing.T) {
				o, err := l.load()
				if err != nil {
					t.Fatalf("%s: %v", l.name, err)
				}
				if !o.State.IsOpen || o.State.IsNew != l.isNew || o.State.IsModified || o.State.File.Path != l.path ||
					o.State.File.Source != l.source || o.Job.Headings.Heading != l.heading {
					t.Errorf("%s: %+v %+v, want isNew=%v path %q source %s heading %q", l.name, o.State, o.Job.Headings,
						l.isNew, l.path, l.source, l.heading)
				}
				before := e.slot(t)
				for _, other := range loaders {
					_, err := other.load()
					wantErr(t, err, model.KindJobAlreadyOpen, "already open", "close it")
				}
				if after := e.slot(t); !reflect.DeepEqual(after, before) {
					t.Errorf("a refused load changed the slot: %+v → %+v", before, after)
				}
				e.close(t)
			})
		}
	})

	t.Run("clear", func(t *testing.T) {
		e := newEnv(t, rdb, 0)
		if _, err := e.svc.OpenSample(e.ctx, e.ws, "Portal frame"); err != nil {
			t.Fatal(err)
		}
		counts, err := e.svc.Counts(e.ctx, e.ws)
		if err != nil {
			t.Fatal(err)
		}
		if counts[model.CollNodes] != 4 || counts[model.CollMembers] != 3 {
			t.Fatalf("portal frame counts %v, want 4 nodes and 3 members", counts)
		}
		h := model.Headings{ProjectHeading: "P", Heading: "H", DesignerInitials: "ABC", Notes: "N"}
		if _, err := e.svc.PatchHeadings(e.ctx, e.ws, model.HeadingsPatch{ProjectHeading: &h.ProjectHeading,
			Heading: &h.Heading, DesignerInitials: &h.DesignerInitials, Notes: &h.Notes}); err != nil {
			t.Fatal(err)
		}
		force, z := "N", model.VerticalZ
		if _, err := e.svc.PatchUnits(e.ctx, e.ws, model.UnitsPatch{Force: &force}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.PatchSettings(e.ctx, e.ws, model.SettingsPatch{VerticalAxis: &z}); err != nil {
			t.Fatal(err)
		}
		want, err := e.svc.Job(e.ctx, e.ws)
		if err != nil {
			t.Fatal(err)
		}

		_, err = e.svc.Clear(e.ctx, e.ws, false)
		wantErr(t, err, model.KindValidation, "force=true", "confirm")
		if c, _ := e.svc.Counts(e.ctx, e.ws); c[model.CollNodes] != 4 {
			t.Errorf("a refused clear removed rows: %v", c)
		}

		o, err := e.svc.Clear(e.ctx, e.ws, true)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(o.Job, want) || o.Job.Headings != h || o.Job.Units.Force != "N" || o.Job.Settings.VerticalAxis != z {
			t.Errorf("clear changed the job record: %+v, want %+v", o.Job, want)
		}
		if !o.State.IsOpen || !o.State.IsModified || !o.State.IsNew {
			t.Errorf("state after clear %+v, want open, modified, still new", o.State)
		}
		counts, err = e.svc.Counts(e.ctx, e.ws)
		if err != nil {
			t.Fatal(err)
		}
		for coll, n := range counts {
			if n != 0 {
				t.Errorf("%s holds %d rows after clear", coll, n)
			}
		}
		if len(counts) == 0 {
			t.Error("counts are empty: no collection was counted")
		}
	})
}

// Saving onto a file that is not the open job's own needs overwrite.
func TestSaveOntoExistingFile(t *testing.T) {
	rdb := server(t)
	tests := []struct {
		name string
		// setup prepares the jobs directory and leaves a job open.
		setup     func(t *testing.T, e *env)
		target    string
		overwrite bool
		// wantErr: the fragments of the conflict; nil means the save goes
		// through and the target then holds heading "mine".
		wantErr []string
	}{
		{"new job onto a job file", func(t *testing.T, e *env) { e.writeJob(t, "taken.gsj", "theirs"); e.newJob(t) },
			"taken", false, []string{`"taken.gsj" already exists`, `"overwrite": true`}},
		{"new job onto a job file with overwrite", func(t *testing.T, e *env) { e.writeJob(t, "taken.gsj", "theirs"); e.newJob(t) },
			"taken", true, nil},
		{"save-as onto another job file", func(t *testing.T, e *env) {
			e.writeJob(t, "taken.gsj", "theirs")
			e.newJob(t)
			e.save(t, "mine", false)
		}, "taken.gsj", false, []string{`"taken.gsj" already exists`, "not the open job's file", `"overwrite": true`}},
		{"save-as onto another job file with overwrite", func(t *testing.T, e *env) {
			e.writeJob(t, "taken.gsj", "theirs")
			e.newJob(t)
			e.save(t, "mine", false)
		}, "taken.gsj", true, nil},
		{"new job onto another session's recovery file", func(t *testing.T, e *env) {
			e.writeJob(t, "taken.gsj", "theirs")
			e.crash(t, "taken.gsj", "their unsaved work")
			if err := os.Remove(e.path("taken.gsj")); err != nil {
				t.Fatal(err)
			}
			e.newJob(t)
		}, "taken", false, []string{`"taken.gsj.recovery"`, "unsaved work of another session", `"overwrite": true`}},
		{"new job onto another session's recovery file with overwrite", func(t *testing.T, e *env) {
			e.writeJob(t, "taken.gsj", "theirs")
			e.crash(t, "taken.gsj", "their unsaved work")
			if err := os.Remove(e.path("taken.gsj")); err != nil {
				t.Fatal(err)
			}
			e.newJob(t)
		}, "taken", true, nil},
		{"own file needs no overwrite", func(t *testing.T, e *env) {
			e.writeJob(t, "taken.gsj", "theirs")
			if _, err := e.svc.Open(e.ctx, e.ws, "taken", session.ForceNone); err != nil {
				t.Fatal(err)
			}
		}, "taken.gsj", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, rdb, 0)
			tt.setup(t, e)
			e.setHeading(t, "mine")
			before := e.slot(t)
			hadRecovery := exists(e.recovery("taken.gsj"))
			s, err := e.svc.Save(e.ctx, e.ws, tt.target, tt.overwrite)
			if tt.wantErr != nil {
				wantErr(t, err, model.KindConflict, tt.wantErr...)
				if exists(e.path("taken.gsj")) {
					if got := heading(t, e.path("taken.gsj")); got != "theirs" {
						t.Errorf("a refused save replaced the file: heading %q", got)
					}
				}
				if exists(e.recovery("taken.gsj")) != hadRecovery {
					t.Errorf("a refused save changed the recovery file (had %v)", hadRecovery)
				}
				if after := e.slot(t); !reflect.DeepEqual(after.State, before.State) {
					t.Errorf("a refused save changed the state: %+v → %+v", before.State, after.State)
				}
				return
			}
			if err != nil {
				t.Fatalf("save: %v", err)
			}
			if got := heading(t, e.path("taken.gsj")); got != "mine" {
				t.Errorf("target holds heading %q, want mine", got)
			}
			if s.State.File.Path != "taken.gsj" || s.State.IsModified || s.State.IsNew {
				t.Errorf("state after save %+v", s.State)
			}
			if s.First != before.State.IsNew {
				t.Errorf("First = %v, want %v (the job was new: %v)", s.First, before.State.IsNew, before.State.IsNew)
			}
			if exists(e.recovery("taken.gsj")) {
				t.Error("the recovery file at the target survived the save")
			}
		})
	}
}

func TestOpenSample(t *testing.T) {
	rdb := server(t)
	names := samples.Names()
	if len(names) < 2 {
		t.Fatalf("samples %v", names)
	}
	tests := []struct {
		name, fileName, wantName string
		nodes                    int64
	}{
		{"exact name", "Portal frame.gsj", "Portal frame", 4},
		{"without extension", "Portal frame", "Portal frame", 4},
		{"any case", "pORTAL FRAME.GSJ", "Portal frame", 4},
		{"lower case without extension", "metric template", "Metric template", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, rdb, 0)
			o, err := e.svc.OpenSample(e.ctx, e.ws, tt.fileName)
			if err != nil {
				t.Fatal(err)
			}
			if !o.State.IsOpen || !o.State.IsNew || o.State.IsModified || o.State.File.Path != "" ||
				o.State.File.Name != tt.wantName || o.State.File.Source != model.SourceNewJob {
				t.Errorf("sample opened as %+v, want new, unmodified, named %q, no path", o.State, tt.wantName)
			}
			c, err := e.svc.Counts(e.ctx, e.ws)
			if err != nil {
				t.Fatal(err)
			}
			if c[model.CollNodes] != tt.nodes {
				t.Errorf("%d nodes, want %d", c[model.CollNodes], tt.nodes)
			}
			// A sample opens as a new job: its first save needs a filePath.
			_, err = e.svc.Save(e.ctx, e.ws, "", false)
			wantErr(t, err, model.KindConflict, "filePath")
		})
	}
	t.Run("unknown sample lists the samples", func(t *testing.T) {
		e := newEnv(t, rdb, 0)
		_, err := e.svc.OpenSample(e.ctx, e.ws, "Suspension bridge")
		wantErr(t, err, model.KindNotFound, append([]string{`"Suspension bridge" not found`}, names...)...)
		if e.slot(t).State.IsOpen {
			t.Error("an unknown sample opened a job")
		}
	})
	t.Run("empty name", func(t *testing.T) {
		e := newEnv(t, rdb, 0)
		_, err := e.svc.OpenSample(e.ctx, e.ws, "")
		wantErr(t, err, model.KindValidation, "fileName is required", "bundled samples")
	})
}

func TestNewFromTemplate(t *testing.T) {
	rdb := server(t)
	e := newEnv(t, rdb, 0)
	job := model.NewJob()
	job.Headings = model.Headings{ProjectHeading: "Tmpl", Heading: "T1"}
	job.Units.Length = "ft"
	job.Settings.VerticalAxis = model.VerticalZ
	o, err := e.svc.NewFromTemplate(e.ctx, e.ws, template(t, job), "t.gsj")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(o.Job, job) {
		t.Errorf("template opened as %+v, want %+v", o.Job, job)
	}
	if !o.State.IsNew || o.State.File.Path != "" || o.State.IsModified {
		t.Errorf("template state %+v, want new without a file", o.State)
	}
	e.close(t)

	_, err = e.svc.NewFromTemplate(e.ctx, e.ws, []byte("not a zip"), "junk.gsj")
	wantErr(t, err, model.KindValidation, "junk.gsj", "not a valid gusset job file")
	if e.slot(t).State.IsOpen {
		t.Error("a junk template opened a job")
	}
}

// A job file whose rows break a rule is refused through CheckModel and
// opens nothing.
func TestOpenChecksTheRows(t *testing.T) {
	rdb := server(t)
	e := newEnv(t, rdb, 0)
	snap := store.Snapshot{Job: model.NewJob(), Collections: map[string][]store.Row{
		model.CollNodes: {{Key: store.Key(2), Score: 2, Value: []byte(`{"id":2,"x":1e25}`)}},
	}}
	e.writeSnapshot(t, "bad.gsj", snap)
	_, err := e.svc.Open(e.ctx, e.ws, "bad", session.ForceNone)
	wantErr(t, err, model.KindValidation, "nodes row 2", "1e25")
	if e.slot(t).State.IsOpen {
		t.Error("a refused file opened a job")
	}
}

func TestOpenErrors(t *testing.T) {
	rdb := server(t)
	e := newEnv(t, rdb, 0)
	e.writeJob(t, "ok.gsj", "ok")
	if err := os.Mkdir(e.path("folder.gsj"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, filePath string
		force          session.ForceOption
		kind           model.Kind
		fragments      []string
	}{
		{"missing file", "missing.gsj", session.ForceNone, model.KindNotFound, []string{"missing.gsj", "not found"}},
		{"empty path", "", session.ForceNone, model.KindValidation, []string{"relative to the jobs directory"}},
		{"outside the jobs directory", "../escape", session.ForceNone, model.KindValidation, []string{"outside the jobs directory"}},
		{"other extension", "notes.txt", session.ForceNone, model.KindValidation, []string{".txt", ".gsj"}},
		{"a folder", "folder.gsj", session.ForceNone, model.KindValidation, []string{"is a folder"}},
		{"unknown force option", "ok", "Whatever", model.KindValidation,
			[]string{"None", "OpenPreviousSaved", "OpenUnsavedMostRecent", `"Whatever"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.svc.Open(e.ctx, e.ws, tt.filePath, tt.force)
			wantErr(t, err, tt.kind, tt.fragments...)
			if e.slot(t).State.IsOpen {
				t.Fatal("a refused open opened a job")
			}
		})
	}
	t.Run("empty force option means None", func(t *testing.T) {
		o, err := e.svc.Open(e.ctx, e.ws, "ok", "")
		if err != nil || o.Job.Headings.Heading != "ok" {
			t.Fatalf("open with no forceOption: %+v %v", o.Job.Headings, err)
		}
		e.close(t)
	})
}

func TestPreview(t *testing.T) {
	rdb := server(t)
	e := newEnv(t, rdb, 0)
	e.newJob(t)
	h := model.Headings{ProjectHeading: "Depot", Heading: "Portal 3", DesignerInitials: "JB", Notes: "line 1\nline 2 – ünïcode"}
	if _, err := e.svc.PatchHeadings(e.ctx, e.ws, model.HeadingsPatch{ProjectHeading: &h.ProjectHeading, Heading: &h.Heading,
		DesignerInitials: &h.DesignerInitials, Notes: &h.Notes}); err != nil {
		t.Fatal(err)
	}
	e.save(t, "projects/depot", false)
	savedAt := e.clock.last()
	fi, err := os.Stat(e.path("projects/depot.gsj"))
	if err != nil {
		t.Fatal(err)
	}

	pv, err := e.svc.Preview(e.ws, "projects/depot")
	if err != nil {
		t.Fatal(err)
	}
	want := jobfile.Preview{FilePath: "projects/depot.gsj", Name: "depot", Headings: h, FileSize: fi.Size(),
		ModifiedAt: fi.ModTime().UTC(), SavedAt: savedAt, FormatVersion: jobfile.FormatVersion, Generator: "session-test"}
	if !pv.SavedAt.Equal(want.SavedAt) || !pv.ModifiedAt.Equal(want.ModifiedAt) {
		t.Errorf("preview times saved %v modified %v, want %v %v", pv.SavedAt, pv.ModifiedAt, want.SavedAt, want.ModifiedAt)
	}
	pv.SavedAt, pv.ModifiedAt, want.SavedAt, want.ModifiedAt = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if pv != want {
		t.Errorf("preview %+v, want %+v", pv, want)
	}
	if pv.FileSize <= 0 {
		t.Errorf("file size %d", pv.FileSize)
	}

	// A change writes a recovery file; the preview says so and still shows
	// the saved headings.
	e.setHeading(t, "unsaved")
	pv, err = e.svc.Preview(e.ws, "projects/depot.gsj")
	if err != nil {
		t.Fatal(err)
	}
	if !pv.HasRecovery || pv.Headings != h {
		t.Errorf("preview with a recovery file: hasRecovery %v headings %+v", pv.HasRecovery, pv.Headings)
	}

	_, err = e.svc.Preview(e.ws, "projects/none.gsj")
	wantErr(t, err, model.KindNotFound, "projects/none.gsj", "not found")
	_, err = e.svc.Preview(e.ws, "../outside")
	wantErr(t, err, model.KindValidation, "outside the jobs directory")
}
