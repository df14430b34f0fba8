//go:build capacity

package main_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
)

// Finding 8: a non-linear run of many load cases fans out into one task
// per case and takes every worker; a small linear run of another
// workspace queued behind those tasks waited until all of them were done
// (203 s behind 30 cases × 300 steps). With fair scheduling, a waiting
// run of another workspace starts as soon as one task of the fan-out
// ends: b's run completes while a's is still running. The wait is printed
// (a figure for the README, not an assertion).
func TestCapacityFairScheduling(t *testing.T) {
	attackFanOut(startCapStack(t, capOptions{Workers: 2}), "b")
}

// attackFanOut is finding 8 by workspace a on a stack of two workers,
// with by as the workspace whose small run must not wait behind a's.
func attackFanOut(s *capStack, by string) {
	t := s.t
	t.Helper()
	// a: grid-4 (125 nodes, 260 members) with 30 load cases of 300 load
	// steps, the finding's run: each of its 30 tasks keeps a worker busy
	// for a second or more, and the 30 keep both workers busy for many
	// times as long as b's run takes.
	const cases, steps = 30, 300
	if st, b := s.uploadTemplate("a", gridjob.File(4, cases)); st != 200 {
		t.Fatalf("a's upload: %d %s", st, b)
	}
	// b: grid-1 with one load case, a linear run of milliseconds.
	if st, b := s.uploadTemplate(by, gridjob.File(1, 1)); st != 200 {
		t.Fatalf("b's upload: %d %s", st, b)
	}
	runOf := func(ws, id string) model.Run {
		t.Helper()
		var run model.Run
		if err := json.Unmarshal(s.must(200, ws, "GET", "/job/analysis/runs/"+id, ""), &run); err != nil {
			t.Fatal(err)
		}
		return run
	}
	var a model.Run
	if err := json.Unmarshal(s.must(202, "a", "POST", "/job/analysis/static/run-non-linear",
		fmt.Sprintf(`{"loadSteps": %d}`, steps)), &a); err != nil {
		t.Fatal(err)
	}
	// a's run has fanned out and its tasks are being solved: the run's
	// convergence history is appended by the parts under way.
	poll(t, 5*time.Minute, "a's parts to be under way", func() bool {
		a = runOf("a", a.RunID)
		if a.Status.Finished() {
			t.Fatalf("a's run ended %s before b's started: %q; it must last longer", a.Status, a.ErrorMessage)
		}
		return strings.HasPrefix(a.Progress.StatusText, "Solving load cases") && len(a.ConvergenceHistory) > 0
	})

	var b model.Run
	if err := json.Unmarshal(s.must(202, by, "POST", "/job/analysis/static/run-linear", ""), &b); err != nil {
		t.Fatal(err)
	}
	// Long enough for b to end behind all of a's tasks on the build before
	// the fix, so that the ordering below, not a timeout, tells.
	poll(t, 10*time.Minute, "b's run to end", func() bool {
		b = runOf(by, b.RunID)
		return b.Status.Finished()
	})
	a = runOf("a", a.RunID)
	if b.Status != model.RunCompleted {
		t.Fatalf("b's run ended %s: %q", b.Status, b.ErrorMessage)
	}
	wait := "never started"
	if b.StartedAt != nil {
		wait = b.StartedAt.Sub(b.QueuedAt).Round(time.Millisecond).String()
	}
	t.Logf("b's linear run waited %s for a worker (queued → started) while a's %d-case × %d-step run held both workers; "+
		"a's run was %s (%s) when b's ended", wait, cases, steps, a.Status, a.Progress.StatusText)
	// b waits for the first of a's tasks under way to end, then runs
	// alongside the other; by then a few of a's parts are done, not half
	// of them. Behind a's queued tasks, b ended as a's last ones ran.
	if done := a.Progress.LoadCaseCount.Index; a.Status.Finished() || done >= cases/2 {
		t.Errorf("b's run ended when a's run was %s with %d of its %d parts done (%s): it waited behind a's tasks "+
			"instead of starting when one of them ended", a.Status, done, cases, a.Progress.StatusText)
	}

	// a's run is not needed any more: cancel it, and see it end.
	if !a.Status.Finished() {
		// 404: it ended meanwhile.
		if st, body := s.json("a", "DELETE", "/job/analysis/runs/"+a.RunID, ""); st != 204 && st != 404 {
			t.Errorf("cancel a's run: %d %s, want 204", st, body)
		}
		poll(t, 5*time.Minute, "a's run to end after its cancel", func() bool {
			a = runOf("a", a.RunID)
			return a.Status.Finished()
		})
	}
	s.alive()
	for _, ws := range []string{"a", by} {
		s.must(200, ws, "POST", "/job/close", "")
	}
}
