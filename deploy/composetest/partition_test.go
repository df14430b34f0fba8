//go:build compose

package composetest_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
)

// What a worker logs (package lifecycle) when its solve has ended but the
// store cannot be reached, so that it keeps the results and tries again;
// and when the store refuses a write of an attempt that another attempt
// has superseded.
const (
	patientLog = "the store cannot be reached: storing the results is tried again"
	fencedLog  = "write refused: another attempt of the run holds it"
)

// logged returns the first line container id has logged that holds both
// msg and run, and whether there is one.
func logged(t *testing.T, id, msg, run string) (string, bool) {
	t.Helper()
	for _, line := range strings.Split(stk.logs(t, id), "\n") {
		if strings.Contains(line, msg) && strings.Contains(line, run) {
			return line, true
		}
	}
	return "", false
}

// A worker cut off from the network (docker network disconnect) while it
// factorizes grid-20 keeps solving; its lease runs out, the other worker
// runs the run again and completes it. When the first worker is
// reconnected, after its lease has passed and the run has completed
// elsewhere, its write of the results is refused by the attempt fence,
// and the stored results stay those of the completed run.
func TestNetworkPartition(t *testing.T) {
	c := stk.workspace(t, "partition")
	c.upload(t, gridjob.File(lossGrid, 1))
	ref := c.startRun(t)
	if done := c.poll(t, ref.RunID, solveLimit, "finished", finished); done.Status != model.RunCompleted {
		t.Fatalf("the undisturbed run ended %s: %s", done.Status, done.ErrorMessage)
	}
	want := staticResults(t, c)

	run := c.startRun(t)
	c.poll(t, run.RunID, solveLimit, "factorizing", factorizing)
	cut := holder(t, run.RunID, 1)
	network := stk.project + "_default"
	if out, err := stk.run("network", "disconnect", network, cut); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	disconnected := time.Now()
	connected := false
	reconnect := func() {
		if connected {
			return
		}
		connected = true
		// The alias keeps the container among the service's DNS answers,
		// which Prometheus finds the workers by.
		if out, err := stk.run("network", "connect", "--alias", "worker", network, cut); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
	}
	t.Cleanup(reconnect)

	end := c.poll(t, run.RunID, recoveryLimit, "finished on the other worker", finished)
	completedAfter := time.Since(disconnected)
	if end.Status != model.RunCompleted || end.Attempt != 2 {
		t.Fatalf("while the worker was cut off the run ended %s in attempt %d, want Completed in attempt 2: %s",
			end.Status, end.Attempt, end.ErrorMessage)
	}
	if other := holder(t, run.RunID, 2); other == cut {
		t.Fatalf("attempt 2 ran on the cut-off worker %.12s", cut)
	}

	// It kept solving while cut off: its solve ended, and it holds the
	// results for when the store can be reached again.
	if _, ok := logged(t, cut, patientLog, run.RunID); !ok {
		t.Errorf("the cut-off worker did not log %q for run %s: its solve did not end while it was cut off; its log:\n%s",
			patientLog, run.RunID, stk.logs(t, cut))
	}

	reconnect()
	reconnected := time.Now()
	var refused string
	waitFor(t, 3*time.Minute, "the reconnected worker's refused write in its log", func() (bool, error) {
		var ok bool
		refused, ok = logged(t, cut, fencedLog, run.RunID)
		return ok, nil
	})
	t.Logf("the cut-off worker's refused write: %s", refused)

	after, err := c.run(run.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Status != model.RunCompleted || after.Attempt != 2 || !after.CompletedAt.Equal(*end.CompletedAt) {
		t.Errorf("after the refused write the run is %s, attempt %d, completed at %v; it was Completed in attempt 2 at %v",
			after.Status, after.Attempt, after.CompletedAt, end.CompletedAt)
	}
	if got := staticResults(t, c); !bytes.Equal(got, want) {
		t.Errorf("the stored results changed: they differ from the undisturbed run's (%d and %d bytes)", len(got), len(want))
	}
	c.noRunUnderWay(t)
	figure(t, "network partition: worker %.12s cut off while factorizing grid-%d; run completed on the other worker %v later; reconnected, its write was refused within %v; stored results unchanged",
		cut, lossGrid, completedAfter.Round(time.Second), time.Since(reconnected).Round(time.Second))
}
