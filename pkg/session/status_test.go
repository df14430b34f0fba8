package session_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/session"
)

// FileStatus answers every status with its advice and recovery options.
func TestFileStatus(t *testing.T) {
	rdb := server(t)
	both := []session.ForceOption{session.ForceOpenUnsavedMostRecent, session.ForceOpenPreviousSaved}
	tests := []struct {
		name string
		// setup prepares the jobs directory and the slot; the status of
		// "f" is asked afterwards.
		setup         func(t *testing.T, e *env)
		status        string
		canOpenSafely bool
		options       []session.ForceOption
		action        string // a fragment of the recommended action
	}{
		{"nothing there", func(t *testing.T, e *env) {}, session.FileNotFound, false, []session.ForceOption{}, "check the path"},
		{"another file there", func(t *testing.T, e *env) { e.writeJob(t, "g.gsj", "g") },
			session.FileNotFound, false, []session.ForceOption{}, "relative to the jobs directory"},
		{"a job file, no job open", func(t *testing.T, e *env) { e.writeJob(t, "f.gsj", "f") },
			session.FileReadyToOpen, true, []session.ForceOption{}, "open it"},
		{"a job file while another job is open", func(t *testing.T, e *env) { e.writeJob(t, "f.gsj", "f"); e.newJob(t) },
			session.FileReadyToOpen, false, []session.ForceOption{}, "close the open job first"},
		{"the open job's file", func(t *testing.T, e *env) {
			e.writeJob(t, "f.gsj", "f")
			if _, err := e.svc.Open(e.ctx, e.ws, "f", session.ForceNone); err != nil {
				t.Fatal(err)
			}
		}, session.FileLocked, false, []session.ForceOption{}, "already open"},
		{"the open job's file, saved just now", func(t *testing.T, e *env) {
			e.newJob(t)
			e.save(t, "f", false)
		}, session.FileLocked, false, []session.ForceOption{}, "close it first"},
		{"the open job's file with unsaved changes", func(t *testing.T, e *env) {
			e.writeJob(t, "f.gsj", "f")
			if _, err := e.svc.Open(e.ctx, e.ws, "f", session.ForceNone); err != nil {
				t.Fatal(err)
			}
			e.setHeading(t, "changed")
		}, session.FileLockedWithUnsavedChanges, false, []session.ForceOption{}, "save the open job"},
		{"a newer recovery file from an earlier session", func(t *testing.T, e *env) {
			e.writeJob(t, "f.gsj", "f")
			e.crash(t, "f.gsj", "unsaved")
		}, session.FileUnsavedChanges, false, both, "OpenUnsavedMostRecent"},
		{"a newer recovery file while another job is open", func(t *testing.T, e *env) {
			e.writeJob(t, "f.gsj", "f")
			e.crash(t, "f.gsj", "unsaved")
			e.newJob(t)
		}, session.FileUnsavedChanges, false, both, "OpenPreviousSaved"},
		{"only a recovery file", func(t *testing.T, e *env) {
			e.writeJob(t, "f.gsj", "f")
			e.crash(t, "f.gsj", "unsaved")
			if err := os.Remove(e.path("f.gsj")); err != nil {
				t.Fatal(err)
			}
		}, session.FileRecoveryFilesOnly, false, []session.ForceOption{session.ForceOpenUnsavedMostRecent}, "OpenUnsavedMostRecent"},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		seen[tt.status] = true
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, rdb, 0)
			tt.setup(t, e)
			before := e.slot(t)
			for _, fp := range []string{"f", "f.gsj", "./f.gsj", e.path("f.gsj")} {
				st, err := e.svc.FileStatus(e.ctx, e.ws, fp)
				if err != nil {
					t.Fatalf("status of %q: %v", fp, err)
				}
				if st.FilePath != "f.gsj" || st.Status != tt.status || st.CanOpenSafely != tt.canOpenSafely ||
					!reflect.DeepEqual(st.AvailableRecoveryOptions, tt.options) {
					t.Errorf("status of %q = %+v, want %s canOpenSafely %v options %v", fp, st, tt.status, tt.canOpenSafely, tt.options)
				}
				if st.AvailableRecoveryOptions == nil {
					t.Errorf("availableRecoveryOptions is nil; an empty list is expected")
				}
				if st.Description == "" || !strings.Contains(st.RecommendedAction, tt.action) {
					t.Errorf("description %q, action %q: want an action naming %q", st.Description, st.RecommendedAction, tt.action)
				}
				noRouteText(t, st.Description)
				noRouteText(t, st.RecommendedAction)
			}
			if after := e.slot(t); !reflect.DeepEqual(after, before) {
				t.Errorf("FileStatus changed the slot: %+v → %+v", before.State, after.State)
			}
		})
	}
	for _, s := range []string{session.FileNotFound, session.FileReadyToOpen, session.FileLocked, session.FileLockedWithUnsavedChanges,
		session.FileUnsavedChanges, session.FileRecoveryFilesOnly} {
		if !seen[s] {
			t.Errorf("no case for status %s", s)
		}
	}

	t.Run("bad paths", func(t *testing.T) {
		e := newEnv(t, rdb, 0)
		if err := os.Mkdir(e.path("dir.gsj"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ path, fragment string }{
			{"", "is empty"}, {"../x", "outside the jobs directory"}, {"x.txt", ".gsj"}, {"dir.gsj", "is a folder"},
		} {
			_, err := e.svc.FileStatus(e.ctx, e.ws, c.path)
			wantErr(t, err, model.KindValidation, c.fragment)
		}
	})

	t.Run("a recovery file that is a symbolic link", func(t *testing.T) {
		e := newEnv(t, rdb, 0)
		e.writeJob(t, "f.gsj", "f")
		e.writeJob(t, "other.gsj", "other")
		if err := os.Symlink(e.path("other.gsj"), e.recovery("f.gsj")); err != nil {
			t.Fatal(err)
		}
		_, err := e.svc.FileStatus(e.ctx, e.ws, "f")
		wantErr(t, err, model.KindValidation, "f.gsj.recovery", "symbolic link", "remove it")
		_, err = e.svc.Open(e.ctx, e.ws, "f", session.ForceOpenUnsavedMostRecent)
		wantErr(t, err, model.KindValidation, "f.gsj.recovery", "symbolic link")
		if e.slot(t).State.IsOpen {
			t.Error("a job opened through a recovery link")
		}
	})
}
