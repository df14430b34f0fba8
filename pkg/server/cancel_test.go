package server

import (
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
)

// While grid-25 is being factorized: a second start and model changes are
// refused (409), the job is read-only, reads still work; a cancel ends the
// run Cancelled and frees the workspace, and the factorizer observed it:
// the run's record stops in the factorization step, unfinished (a solver
// that ignored the cancel would have gone on to the later steps before
// the store refused its results). How soon, in time, is the sparse
// package's BenchmarkFactorizeCancelLag's figure.
func TestCancelDuringFactorization(t *testing.T) {
	if testing.Short() {
		t.Skip("factorizes grid-25")
	}
	s := startStack(t, 1)
	s.upload(gridjob.File(25, 1))
	run := s.run(nil)
	// Step 4 of the static run is the factorization (see the run's
	// stepLabels); wait until the factorizer is at work.
	running := s.waitFor(run.RunID, "factorizing", func(r model.Run) bool {
		return r.Status == model.RunRunning && r.Progress.CurrentStep == 4 && r.Progress.StepLabels[3] == "Factorizing"
	})
	if running.ElapsedTime == nil || running.StartedAt == nil {
		t.Errorf("a running run shows no elapsed time: %+v", running)
	}

	if r := s.call("POST", "/job/analysis/static/run-linear", nil); r.status != 409 || r.errorCode(t) != "ANALYSIS_IN_PROGRESS" {
		t.Errorf("second start = %d %s", r.status, r.body)
	}
	for _, c := range []struct{ method, path string }{
		{"POST", "/job/structure/nodes"}, {"PATCH", "/job/headings"}, {"PATCH", "/job/analysis/static/settings"},
		{"POST", "/job/close"}, {"DELETE", "/job/structure/members/1"},
	} {
		var body any = map[string]any{"x": 1, "y": 1, "z": 1}
		switch c.path {
		case "/job/headings":
			body = map[string]any{"notes": "x"}
		case "/job/analysis/static/settings":
			body = map[string]any{"loadCases": "1"}
		case "/job/close", "/job/structure/members/1":
			body = nil
		}
		if r := s.call(c.method, c.path, body); r.status != 409 || r.errorCode(t) != "ANALYSIS_IN_PROGRESS" {
			t.Errorf("%s %s during the run = %d %s", c.method, c.path, r.status, r.body)
		}
	}
	var st struct {
		AccessMode string `json:"accessMode"`
	}
	s.must(200, "GET", "/job/status", nil).decode(t, &st)
	if st.AccessMode != "ReadOnly" {
		t.Errorf("accessMode during the run %q", st.AccessMode)
	}
	s.must(200, "GET", "/job/structure/nodes/1", nil)
	if r := s.call("GET", "/job/analysis/runs/"+run.RunID+"/result", nil); r.status != 409 {
		t.Errorf("result while running = %d", r.status)
	}

	asked := time.Now()
	s.must(204, "DELETE", "/job/analysis/runs/"+run.RunID, nil)
	var seen model.RunStatus
	end := s.waitFor(run.RunID, "cancelled", func(r model.Run) bool {
		if r.Status == model.RunCancelling {
			seen = r.Status
		}
		return r.Status.Finished()
	})
	t.Logf("cancelled %v after the request", time.Since(asked))
	if end.Status != model.RunCancelled {
		t.Errorf("run ended %s after the cancel, want Cancelled", end.Status)
	}
	if p := end.Progress; p.CurrentStep != 4 || len(p.StepPercentages) < 4 || p.StepPercentages[3] >= 100 {
		t.Errorf("the cancelled run's record is at step %d of %v (%v %%): want it stopped in step 4, the factorization, unfinished",
			p.CurrentStep, p.StepLabels, p.StepPercentages)
	}
	if seen != model.RunCancelling {
		t.Log("the Cancelling status passed between two polls")
	}
	// The solver has returned and the lock with it: changes work again.
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"x": -3, "y": 0, "z": 0})
	if r := s.call("DELETE", "/job/analysis/runs/"+run.RunID, nil); r.status != 404 {
		t.Errorf("second cancel = %d, want 404", r.status)
	}
}

// A run cancelled before any worker takes it ends at once.
func TestCancelQueuedRun(t *testing.T) {
	s := startStack(t, 0) // no worker: the run stays queued
	proppedCantilever(s)
	run := s.run(nil)
	s.must(204, "DELETE", "/job/analysis/runs/"+run.RunID, nil)
	var got model.Run
	s.must(200, "GET", "/job/analysis/runs/"+run.RunID, nil).decode(t, &got)
	if got.Status != model.RunCancelled {
		t.Errorf("queued run after cancel: %s", got.Status)
	}
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"x": -3, "y": 0, "z": 0})
}

// DEFECT. A 204 to DELETE /runs/{id} of a Running run means "cancellation
// initiated": the documented lifecycle is Running → Cancelling → Cancelled,
// and the client was told the run stops. Yet the worker looks for the
// Cancelling status only on its 250 ms ticker (Runner.supervise), and
// finish() in runStatic overwrites Cancelling with Completed when the solve
// ended before the next tick (static_run.go: `case err == nil:` finishes
// Completed without re-checking the stored status; finish's update fn does
// not look at run.Status; the pending change in runStatic covers only a
// cancel that lands before the run is marked Running). The run must end
// Cancelled (and its results
// should not be published), or the DELETE must answer 404 because the run
// had already finished — never 204 followed by Completed.
func TestCancelOfRunningRunNeverEndsCompleted(t *testing.T) {
	s := startStack(t, 1)
	s.upload(gridjob.File(6, 1)) // solves in ~0.1 s: inside one tick
	for attempt := range 3 {
		run := s.run(nil)
		s.waitFor(run.RunID, "running", func(r model.Run) bool {
			return r.Status == model.RunRunning || r.Status.Finished()
		})
		r := s.call("DELETE", "/job/analysis/runs/"+run.RunID, nil)
		end := s.wait(run.RunID)
		if r.status == 204 && end.Status != model.RunCancelled {
			var st struct {
				Analysis struct{ HasStaticResults bool } `json:"analysis"`
			}
			s.must(200, "GET", "/job/status", nil).decode(t, &st)
			t.Fatalf("attempt %d: DELETE answered 204, then the run ended %s (hasStaticResults %v)",
				attempt, end.Status, st.Analysis.HasStaticResults)
		}
	}
}
