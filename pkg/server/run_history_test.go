package server

import (
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// The run list holds the 10 most recent runs (interface Limits table: "run
// history | list runs | the 10 most recent runs"), the current one
// included; an older run is a 404. No worker runs, so each run stays
// Queued until it is cancelled, which ends it at once: twelve runs are
// twelve finished records without an analysis.
func TestRunHistoryKeepsTenMostRecent(t *testing.T) {
	s := startStack(t, 0)
	s.must(200, "POST", "/job/new", nil)
	const started = 12
	ids := make([]string, 0, started)
	for range started {
		run := s.run(nil)
		ids = append(ids, run.RunID)
		s.must(204, "DELETE", "/job/analysis/runs/"+run.RunID, nil)
	}
	var runs []model.Run
	s.must(200, "GET", "/job/analysis/runs", nil).decode(t, &runs)
	if len(runs) != model.MaxRunHistory {
		t.Fatalf("the run list holds %d runs after %d, want the %d most recent", len(runs), started, model.MaxRunHistory)
	}
	for i, r := range runs {
		// Newest first: runs[0] is the last started.
		if want := ids[started-1-i]; r.RunID != want {
			t.Errorf("runs[%d] = %s, want %s", i, r.RunID, want)
		}
		if r.Status != model.RunCancelled {
			t.Errorf("runs[%d] is %s, want Cancelled", i, r.Status)
		}
	}
	for _, old := range ids[:started-model.MaxRunHistory] {
		if r := s.call("GET", "/job/analysis/runs/"+old, nil); r.status != 404 {
			t.Errorf("GET of run %s, older than the 10 most recent = %d %s, want 404", old, r.status, r.body)
		}
	}

	// While a run is current it is one of the ten.
	current := s.run(nil)
	s.must(200, "GET", "/job/analysis/runs", nil).decode(t, &runs)
	if len(runs) != model.MaxRunHistory || runs[0].RunID != current.RunID || runs[0].Status != model.RunQueued {
		t.Errorf("with a run queued the list holds %d runs, the first %s %s; want %d, the first the queued %s",
			len(runs), runs[0].RunID, runs[0].Status, model.MaxRunHistory, current.RunID)
	}
}
