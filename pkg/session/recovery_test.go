package session_test

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/session"
	"github.com/gusset/gusset/pkg/store"
)

// Opening a file whose recovery file is newer: each forceOption.
func TestOpenWithNewerRecoveryFile(t *testing.T) {
	rdb := server(t)
	tests := []struct {
		name  string
		force session.ForceOption
		// wantErr are the fragments of the conflict; nil means it opens.
		wantErr      []string
		wantHeading  string
		wantModified bool
		wantRecovery bool // the recovery file is still there afterwards
	}{
		{"no force option", "", []string{`"r.gsj" has unsaved changes`, "forceOption", "OpenUnsavedMostRecent", "OpenPreviousSaved",
			"the last saved version"}, "", false, true},
		{"None", session.ForceNone, []string{"OpenUnsavedMostRecent", "OpenPreviousSaved"}, "", false, true},
		{"OpenPreviousSaved", session.ForceOpenPreviousSaved, nil, "saved", false, false},
		{"OpenUnsavedMostRecent", session.ForceOpenUnsavedMostRecent, nil, "recovered", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, rdb, 0)
			e.writeJob(t, "r.gsj", "saved")
			e.crash(t, "r.gsj", "recovered")
			o, err := e.svc.Open(e.ctx, e.ws, "r", tt.force)
			if tt.wantErr != nil {
				wantErr(t, err, model.KindConflict, tt.wantErr...)
				var me *model.Error
				if !asModelError(err, &me) || len(me.Fields) != 1 || me.Fields[0].Field != "forceOption" {
					t.Errorf("conflict fields %+v, want one naming forceOption", me)
				}
				if e.slot(t).State.IsOpen {
					t.Error("a refused open opened a job")
				}
			} else {
				if err != nil {
					t.Fatalf("open with %s: %v", tt.force, err)
				}
				if o.Job.Headings.Heading != tt.wantHeading || o.State.IsModified != tt.wantModified || o.State.IsNew ||
					o.State.File.Path != "r.gsj" || o.State.File.Source != model.SourceLocalFile {
					t.Errorf("open with %s: heading %q state %+v, want heading %q modified %v", tt.force,
						o.Job.Headings.Heading, o.State, tt.wantHeading, tt.wantModified)
				}
				if sl := e.slot(t); sl.State.IsModified != tt.wantModified {
					t.Errorf("stored state %+v, want modified %v", sl.State, tt.wantModified)
				}
			}
			if got := exists(e.recovery("r.gsj")); got != tt.wantRecovery {
				t.Errorf("recovery file exists %v, want %v", got, tt.wantRecovery)
			}
			if got := heading(t, e.path("r.gsj")); got != "saved" {
				t.Errorf("open changed the job file: heading %q", got)
			}
		})
	}

	// A refused open discards nothing, whatever the force option.
	for _, force := range []session.ForceOption{session.ForceNone, session.ForceOpenPreviousSaved, session.ForceOpenUnsavedMostRecent} {
		t.Run(string(force)+" while a job is open", func(t *testing.T) {
			e := newEnv(t, rdb, 0)
			e.writeJob(t, "r.gsj", "saved")
			e.crash(t, "r.gsj", "recovered")
			e.newJob(t)
			before := e.slot(t)
			_, err := e.svc.Open(e.ctx, e.ws, "r", force)
			wantErr(t, err, model.KindJobAlreadyOpen, "close it first")
			if !exists(e.recovery("r.gsj")) || heading(t, e.recovery("r.gsj")) != "recovered" {
				t.Error("a refused open discarded the recovery file")
			}
			if after := e.slot(t); !reflect.DeepEqual(after, before) {
				t.Errorf("a refused open changed the slot: %+v → %+v", before.State, after.State)
			}
		})
	}

	t.Run("recovered work is saved into the job file", func(t *testing.T) {
		e := newEnv(t, rdb, 0)
		e.writeJob(t, "r.gsj", "saved")
		e.crash(t, "r.gsj", "recovered")
		if _, err := e.svc.Open(e.ctx, e.ws, "r.gsj", session.ForceOpenUnsavedMostRecent); err != nil {
			t.Fatal(err)
		}
		s := e.save(t, "", false)
		if s.First || s.State.IsModified {
			t.Errorf("save after recovery: %+v", s)
		}
		if got := heading(t, e.path("r.gsj")); got != "recovered" || exists(e.recovery("r.gsj")) {
			t.Errorf("after save: heading %q, recovery file left %v", got, exists(e.recovery("r.gsj")))
		}
	})

	t.Run("a recovery file older than the job file is ignored", func(t *testing.T) {
		e := newEnv(t, rdb, 0)
		e.writeJob(t, "r.gsj", "saved")
		e.crash(t, "r.gsj", "stale")
		old := time.Now().Add(-time.Hour)
		if err := os.Chtimes(e.recovery("r.gsj"), old, old); err != nil {
			t.Fatal(err)
		}
		st, err := e.svc.FileStatus(e.ctx, e.ws, "r")
		if err != nil || st.Status != session.FileReadyToOpen || !st.CanOpenSafely {
			t.Fatalf("status %+v %v, want ReadyToOpen", st, err)
		}
		o, err := e.svc.Open(e.ctx, e.ws, "r", session.ForceNone)
		if err != nil {
			t.Fatalf("open with a stale recovery file: %v", err)
		}
		if o.Job.Headings.Heading != "saved" || o.State.IsModified {
			t.Errorf("opened %q %+v, want the saved file", o.Job.Headings.Heading, o.State)
		}
	})
}

// A recovery file without its job file.
func TestRecoveryFilesOnly(t *testing.T) {
	rdb := server(t)
	setup := func(t *testing.T) *env {
		t.Helper()
		e := newEnv(t, rdb, 0)
		e.writeJob(t, "lost.gsj", "saved")
		e.crash(t, "lost.gsj", "only recovery")
		if err := os.Remove(e.path("lost.gsj")); err != nil {
			t.Fatal(err)
		}
		return e
	}
	t.Run("status", func(t *testing.T) {
		e := setup(t)
		st, err := e.svc.FileStatus(e.ctx, e.ws, "lost")
		if err != nil {
			t.Fatal(err)
		}
		if st.Status != session.FileRecoveryFilesOnly || st.CanOpenSafely || len(st.AvailableRecoveryOptions) != 1 ||
			st.AvailableRecoveryOptions[0] != session.ForceOpenUnsavedMostRecent {
			t.Errorf("status %+v, want RecoveryFilesOnly with OpenUnsavedMostRecent only", st)
		}
	})
	t.Run("open without force option", func(t *testing.T) {
		e := setup(t)
		_, err := e.svc.Open(e.ctx, e.ws, "lost", session.ForceNone)
		wantErr(t, err, model.KindConflict, "OpenUnsavedMostRecent", "the job file itself is missing")
		if !exists(e.recovery("lost.gsj")) {
			t.Error("a refused open removed the recovery file")
		}
	})
	t.Run("OpenUnsavedMostRecent, then save", func(t *testing.T) {
		e := setup(t)
		o, err := e.svc.Open(e.ctx, e.ws, "lost", session.ForceOpenUnsavedMostRecent)
		if err != nil {
			t.Fatal(err)
		}
		if o.Job.Headings.Heading != "only recovery" || !o.State.IsModified || o.State.IsNew || o.State.File.Path != "lost.gsj" {
			t.Errorf("recovered %q %+v", o.Job.Headings.Heading, o.State)
		}
		st, err := e.svc.FileStatus(e.ctx, e.ws, "lost")
		if err != nil || st.Status != session.FileLockedWithUnsavedChanges {
			t.Errorf("status of the recovered job %+v %v, want LockedWithUnsavedChanges", st, err)
		}
		e.save(t, "", false)
		if got := heading(t, e.path("lost.gsj")); got != "only recovery" || exists(e.recovery("lost.gsj")) {
			t.Errorf("after save: heading %q, recovery file left %v", got, exists(e.recovery("lost.gsj")))
		}
	})
}

// The recovery file exists while a job that has a file is modified; save
// and close remove it.
func TestRecoveryFileFollowsTheJob(t *testing.T) {
	rdb := server(t)
	e := newEnv(t, rdb, 0)
	rec := e.recovery("r.gsj")

	if _, err := e.svc.OpenSample(e.ctx, e.ws, "Portal frame"); err != nil {
		t.Fatal(err)
	}
	e.setHeading(t, "no file yet")
	if entries, _ := os.ReadDir(e.root); len(entries) != 0 {
		t.Fatalf("a job without a file wrote %v", entries)
	}
	e.save(t, "r", false)
	if exists(rec) {
		t.Fatal("a save left a recovery file")
	}

	e.setHeading(t, "unsaved 1")
	if !exists(rec) {
		t.Fatal("no recovery file after a change (RecoveryDelay 0 writes inline)")
	}
	dec := decodeFile(t, rec)
	if dec.Snapshot.Job.Headings.Heading != "unsaved 1" || !dec.Manifest.SavedAt.Equal(e.clock.last()) {
		t.Errorf("recovery file holds %q saved at %v, want unsaved 1 at %v", dec.Snapshot.Job.Headings.Heading,
			dec.Manifest.SavedAt, e.clock.last())
	}
	if got := heading(t, e.path("r.gsj")); got != "no file yet" {
		t.Errorf("a change wrote the job file: %q", got)
	}

	// Every kind of change writes it: units, settings, analysis settings,
	// clear.
	changes := []struct {
		name   string
		change func() error
		check  func(d store.Snapshot) bool
	}{
		{"units", func() error {
			f := "N"
			_, err := e.svc.PatchUnits(e.ctx, e.ws, model.UnitsPatch{Force: &f})
			return err
		}, func(d store.Snapshot) bool { return d.Job.Units.Force == "N" }},
		{"settings", func() error {
			z := model.VerticalZ
			_, err := e.svc.PatchSettings(e.ctx, e.ws, model.SettingsPatch{VerticalAxis: &z})
			return err
		}, func(d store.Snapshot) bool { return d.Job.Settings.VerticalAxis == model.VerticalZ }},
		{"static analysis settings", func() error {
			_, err := e.svc.PatchAnalysisSettings(e.ctx, e.ws, func(a *model.AnalysisSettings) error {
				(*a)["static"] = json.RawMessage(`{"reversalIterations":7}`)
				return nil
			})
			return err
		}, func(d store.Snapshot) bool { return string(d.Job.Analysis["static"]) == `{"reversalIterations":7}` }},
		{"clear", func() error {
			if d := decodeFile(t, e.path("r.gsj")).Snapshot; len(d.Collections[model.CollNodes]) != 4 {
				t.Fatalf("the saved portal frame holds %d nodes, want 4", len(d.Collections[model.CollNodes]))
			}
			_, err := e.svc.Clear(e.ctx, e.ws, true)
			return err
		}, func(d store.Snapshot) bool {
			return len(d.Collections[model.CollNodes]) == 0 && len(d.Collections[model.CollMembers]) == 0 && d.Job.Units.Force == "N"
		}},
	}
	for _, c := range changes {
		t.Run(c.name, func(t *testing.T) {
			if err := os.Remove(rec); err != nil {
				t.Fatal(err)
			}
			if err := c.change(); err != nil {
				t.Fatal(err)
			}
			if !exists(rec) {
				t.Fatal("no recovery file after the change")
			}
			if d := decodeFile(t, rec).Snapshot; !c.check(d) {
				t.Errorf("recovery file lacks the change: %+v, %d nodes", d.Job, len(d.Collections[model.CollNodes]))
			}
		})
	}

	e.save(t, "", false)
	if exists(rec) {
		t.Fatal("save left the recovery file")
	}
	// A refused change writes nothing.
	long := strings.Repeat("x", model.MaxHeading+1)
	if _, err := e.svc.PatchHeadings(e.ctx, e.ws, model.HeadingsPatch{Heading: &long}); model.KindOf(err) != model.KindValidation {
		t.Fatalf("too long heading: %v", err)
	}
	if exists(rec) {
		t.Error("a refused change wrote a recovery file")
	}

	e.setHeading(t, "unsaved 2")
	if !exists(rec) {
		t.Fatal("no recovery file after a change")
	}
	// Save-as removes the recovery file of the old file, and writes none
	// for the new one.
	e.save(t, "elsewhere", false)
	if exists(rec) || exists(e.recovery("elsewhere.gsj")) {
		t.Errorf("after save-as: old recovery %v, new recovery %v", exists(rec), exists(e.recovery("elsewhere.gsj")))
	}
	e.setHeading(t, "unsaved 3")
	if exists(rec) || !exists(e.recovery("elsewhere.gsj")) {
		t.Errorf("after a change of the saved-as job: old recovery %v, new recovery %v", exists(rec), exists(e.recovery("elsewhere.gsj")))
	}
	e.close(t)
	if exists(e.recovery("elsewhere.gsj")) {
		t.Error("close left the recovery file")
	}
	if got := heading(t, e.path("elsewhere.gsj")); got != "unsaved 2" {
		t.Errorf("close changed the job file: %q", got)
	}
}

// With a recovery delay, a burst of changes costs one write, made when the
// delay has passed (or by Flush), and close cancels a pending write.
func TestRecoveryWritesAreCoalesced(t *testing.T) {
	rdb := server(t)

	t.Run("a burst is one write", func(t *testing.T) {
		// A delay far longer than the test: only Flush writes.
		e := newEnv(t, rdb, time.Hour)
		e.newJob(t)
		e.save(t, "c", false)
		rec := e.recovery("c.gsj")
		before := e.clock.count()
		for i := 1; i <= 10; i++ {
			notes := strings.Repeat("x", i)
			if _, err := e.svc.PatchHeadings(e.ctx, e.ws, model.HeadingsPatch{Notes: &notes}); err != nil {
				t.Fatal(err)
			}
		}
		if exists(rec) {
			t.Fatal("the recovery file was written before the delay passed")
		}
		e.svc.Flush()
		// The clock is read once per recovery write, and by nothing else
		// here.
		if n := e.clock.count() - before; n != 1 {
			t.Errorf("%d recovery writes for a burst of 10 changes, want 1", n)
		}
		dec := decodeFile(t, rec)
		if dec.Snapshot.Job.Headings.Notes != strings.Repeat("x", 10) || !dec.Manifest.SavedAt.Equal(e.clock.last()) {
			t.Errorf("recovery file holds notes %q saved at %v, want the last change", dec.Snapshot.Job.Headings.Notes, dec.Manifest.SavedAt)
		}
		// Nothing is pending any more.
		e.svc.Flush()
		if n := e.clock.count() - before; n != 1 {
			t.Errorf("a second Flush wrote again: %d writes", n)
		}
	})

	t.Run("the write happens when the delay has passed", func(t *testing.T) {
		e := newEnv(t, rdb, 20*time.Millisecond)
		e.newJob(t)
		e.save(t, "d", false)
		rec := e.recovery("d.gsj")
		for i := 1; i <= 5; i++ {
			notes := strings.Repeat("y", i)
			if _, err := e.svc.PatchHeadings(e.ctx, e.ws, model.HeadingsPatch{Notes: &notes}); err != nil {
				t.Fatal(err)
			}
		}
		waitFor(t, "a recovery file with the last change", func() bool {
			if !exists(rec) {
				return false
			}
			return decodeFileOK(rec) == strings.Repeat("y", 5)
		})
	})

	t.Run("close cancels a pending write and removes the file", func(t *testing.T) {
		e := newEnv(t, rdb, time.Hour)
		e.newJob(t)
		e.save(t, "k", false)
		e.setHeading(t, "first")
		e.svc.Flush()
		rec := e.recovery("k.gsj")
		if !exists(rec) {
			t.Fatal("Flush wrote no recovery file")
		}
		e.setHeading(t, "pending")
		before := e.clock.count()
		e.close(t)
		e.svc.Flush()
		if exists(rec) {
			t.Error("the recovery file survived close")
		}
		if n := e.clock.count() - before; n != 0 {
			t.Errorf("a write pending at close still ran (%d clock readings)", n)
		}
	})

	t.Run("save removes the file and a pending write does not bring it back", func(t *testing.T) {
		e := newEnv(t, rdb, time.Hour)
		e.newJob(t)
		e.save(t, "s", false)
		e.setHeading(t, "pending")
		e.save(t, "", false)
		e.svc.Flush()
		if exists(e.recovery("s.gsj")) {
			t.Error("a recovery file exists after save")
		}
		if got := heading(t, e.path("s.gsj")); got != "pending" {
			t.Errorf("saved heading %q", got)
		}
	})
}

// patience is how long waitFor waits before it fails the test as hung: a
// safety net, not a speed target, so generous for a loaded machine.
const patience = 2 * time.Minute

// waitFor polls cond until it holds, failing after patience.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
