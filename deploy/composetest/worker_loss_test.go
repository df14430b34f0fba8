//go:build compose

package composetest_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
)

const (
	// lossGrid is grid-20 (9,261 nodes, 52,920 equations): its
	// factorization shows for a few seconds, room enough to kill the
	// worker inside it.
	lossGrid = 20
	// solveLimit bounds an undisturbed grid-20 run, queueing included.
	solveLimit = 3 * time.Minute
	// recoveryLimit bounds a run whose worker was lost: asynq's lease
	// (30 s) runs out, its recoverer (once a minute) hands the task back,
	// and the other worker solves it again from the start; with room for
	// a slow machine.
	recoveryLimit = 5 * time.Minute
	// stepFactorizing is the progress step of the factorization
	// (1-based).
	stepFactorizing = 4
)

func factorizing(r model.Run) bool {
	return r.Status == model.RunRunning && r.Progress.CurrentStep == stepFactorizing &&
		len(r.Progress.StepLabels) >= stepFactorizing && r.Progress.StepLabels[stepFactorizing-1] == "Factorizing"
}

// staticResults are the answers a run's numbers are compared by: every
// node's displacements and the reaction summary of load case 1, as the
// API sent them.
func staticResults(t *testing.T, c *client) []byte {
	t.Helper()
	d := c.must(t, http.StatusOK, "GET", "/job/query/analysis/static/node-displacements?loadCases=1", nil, nil)
	s := c.must(t, http.StatusOK, "GET", "/job/query/analysis/static/reaction-summary?loadCases=1", nil, nil)
	return append(append(d, '\n'), s...)
}

// holder returns the worker container whose log says it started attempt
// of run id; the test fails unless exactly one did.
func holder(t *testing.T, id string, attempt int) string {
	t.Helper()
	var found []string
	want := fmt.Sprintf(`"run":%q,"kind":"LinearStaticAnalysis","attempt":%d`, id, attempt)
	for _, c := range stk.containers(t, "worker") {
		for _, line := range strings.Split(stk.logs(t, c), "\n") {
			if strings.Contains(line, `"msg":"run started"`) && strings.Contains(line, want) {
				found = append(found, c)
				break
			}
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d worker containers logged the start of run %s attempt %d, want 1", len(found), id, attempt)
	}
	return found[0]
}

// A worker killed (docker kill, SIGKILL) while it factorizes grid-20:
// asynq hands the run to the other worker, which solves it again from the
// start and completes it with the undisturbed run's numbers, bit for bit
// (the same binary on the same model: the engine's orderings and its
// parallel factorization are deterministic). No run stays Running.
func TestWorkerLoss(t *testing.T) {
	c := stk.workspace(t, "worker-loss")
	c.upload(t, gridjob.File(lossGrid, 1))

	ref := c.startRun(t)
	began := time.Now()
	done := c.poll(t, ref.RunID, solveLimit, "finished", finished)
	if done.Status != model.RunCompleted || done.Attempt != 1 {
		t.Fatalf("the undisturbed run ended %s (attempt %d): %s", done.Status, done.Attempt, done.ErrorMessage)
	}
	undisturbed := time.Since(began)
	want := staticResults(t, c)

	run := c.startRun(t)
	c.poll(t, run.RunID, solveLimit, "factorizing", factorizing)
	victim := holder(t, run.RunID, 1)
	if out, err := stk.run("kill", victim); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	killed := time.Now()
	t.Cleanup(func() {
		// The stack goes on with two workers for the scenarios after
		// this one, whatever the restart policy did with the killed one.
		if out, err := stk.run("start", victim); err != nil {
			t.Errorf("restart the killed worker: %v\n%s", err, out)
		}
	})

	end := c.poll(t, run.RunID, recoveryLimit, "finished after the kill", finished)
	recovered := time.Since(killed)
	if end.Status != model.RunCompleted {
		t.Fatalf("after the kill the run ended %s: %s", end.Status, end.ErrorMessage)
	}
	if end.Attempt != 2 {
		t.Errorf("the run completed in attempt %d, want 2 (one lost, one completed)", end.Attempt)
	}
	survivor := holder(t, run.RunID, 2)
	if survivor == victim {
		t.Errorf("attempt 2 ran on the killed container %.12s, want the other worker", victim)
	}
	if got := staticResults(t, c); !bytes.Equal(got, want) {
		t.Errorf("the recovered run's results differ from the undisturbed run's (%d and %d bytes)", len(got), len(want))
	}
	c.noRunUnderWay(t)
	figure(t, "worker loss: grid-%d undisturbed in %v; worker %.12s killed while factorizing, run completed on %.12s %v after the kill, results identical",
		lossGrid, undisturbed.Round(time.Second), victim, survivor, recovered.Round(time.Second))
}
