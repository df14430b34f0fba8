package session_test

import (
	"os"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/session"
)

// OpenPreviousSaved discards the unsaved work of a recovery file only once
// the saved file it chose instead has opened: with no saved file, or one
// that cannot be read, nothing opens and the recovery file, maybe the only
// copy of the work, stays.
func TestOpenPreviousSavedKeepsTheWorkUntilTheSavedFileOpens(t *testing.T) {
	rdb := server(t)
	cases := []struct {
		name  string
		setup func(t *testing.T, e *env)
		kind  model.Kind
		words []string
	}{
		{"no saved file", func(t *testing.T, e *env) {
			if err := os.Remove(e.path("w.gsj")); err != nil {
				t.Fatal(err)
			}
		}, model.KindValidation, []string{"OpenUnsavedMostRecent"}},
		{"a saved file that cannot be read", func(t *testing.T, e *env) {
			if err := os.WriteFile(e.path("w.gsj"), []byte("not a zip"), 0o644); err != nil {
				t.Fatal(err)
			}
			// Older than the recovery file, as the damaged save was.
			old := time.Now().Add(-time.Hour)
			if err := os.Chtimes(e.path("w.gsj"), old, old); err != nil {
				t.Fatal(err)
			}
		}, model.KindValidation, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, rdb, 0)
			e.writeJob(t, "w.gsj", "saved")
			e.crash(t, "w.gsj", "unsaved work")
			c.setup(t, e)
			_, err := e.svc.Open(e.ctx, e.ws, "w.gsj", session.ForceOpenPreviousSaved)
			wantErr(t, err, c.kind, c.words...)
			if !exists(e.recovery("w.gsj")) {
				t.Fatal("the recovery file, holding the unsaved work, was deleted")
			}
			if e.slot(t).State.IsOpen {
				t.Error("a job opened")
			}
			// The work is still there to recover.
			o, err := e.svc.Open(e.ctx, e.ws, "w.gsj", session.ForceOpenUnsavedMostRecent)
			if err != nil || o.Job.Headings.Heading != "unsaved work" {
				t.Errorf("recovering after the refusal: %+v %v", o.Job.Headings, err)
			}
		})
	}
}
