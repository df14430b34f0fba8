//go:build cluster

package main_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
)

// Six workspaces, six clients at once, each on its own key and
// alternating between the two apis: every run completes on its first
// attempt, the runs are spread over the workers, and each workspace's
// results are those of its own model.
func TestClusterSixWorkspaces(t *testing.T) {
	c := newCluster(t)

	// AUTH_MODE=keys is in force on both replicas: no key, no job.
	for i, base := range c.bases {
		res, err := c.http.Get(base + "/job/status")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("api-%d answered %d to a request without a key, want 401", i+1, res.StatusCode)
		}
	}

	// Six sizes from grid-13 to grid-18, so that each run takes 1-3 s
	// (more under load) with the six sharing two cores, and no two
	// workspaces have the same model: a result that crossed workspaces
	// would have the wrong number of nodes and the wrong reactions. The
	// floor loads differ too.
	grids := []grid{{13, -1e3}, {14, -2e3}, {15, -3e3}, {16, -4e3}, {17, -5e3}, {18, -6e3}}
	clients := make([]*client, len(grids))
	for i := range grids {
		// Clients start on alternate apis.
		clients[i] = c.workspace(t, fmt.Sprintf("team-%d", i+1), i%2)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 3*runLimit)
	defer cancel()
	began := time.Now()
	runs := make([]model.Run, len(grids))
	took := make([]time.Duration, len(grids))
	errs := make([]error, len(grids))
	var wg sync.WaitGroup
	for i, cl := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			runs[i], errs[i] = cl.analyse(ctx, grids[i], nil)
			took[i] = time.Since(start)
		}()
	}
	wg.Wait()
	for i, cl := range clients {
		t.Run(cl.ws, func(t *testing.T) {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			if runs[i].Attempt != 1 {
				t.Errorf("run %s completed on attempt %d, want 1: no worker was lost", runs[i].RunID, runs[i].Attempt)
			}
			if len(cl.failovers) > 0 {
				t.Errorf("connection errors with both apis up: %q", cl.failovers)
			}
			elapsed := "?"
			if runs[i].ElapsedTime != nil {
				elapsed = *runs[i].ElapsedTime
			}
			t.Logf("grid-%d: run %s completed, solved in %s, %v from upload to checked results",
				grids[i].n, runs[i].RunID, elapsed, took[i].Round(time.Millisecond))
		})
	}
	t.Logf("six workspaces done in %v", time.Since(began).Round(time.Millisecond))

	// Which worker solved which run shows in no run record, but each
	// worker process counts the runs it completed. asynq gives a task to
	// whichever idle worker polls the queue first, so a worker may take
	// two runs while another takes none: two of three is what a spread
	// can promise, and one would mean the others never took a task.
	done := c.completedBy(t)
	var total float64
	var spread []string
	took0 := 0
	for _, w := range c.workers {
		total += done[w]
		spread = append(spread, fmt.Sprintf("%s %v", w.Name, done[w]))
		if done[w] > 0 {
			took0++
		}
	}
	t.Logf("completed runs per worker: %s", strings.Join(spread, ", "))
	if total != float64(len(grids)) {
		t.Errorf("the workers completed %v runs in all, want %d", total, len(grids))
	}
	if took0 < 2 {
		t.Errorf("runs were solved by %d worker(s), want at least 2: %s", took0, strings.Join(spread, ", "))
	}
}

// SIGTERM to the worker solving a run: asynq stops taking tasks, waits
// its 5 s grace for the run, pushes the unfinished task back to the queue
// and the process exits; another worker takes the run at once, solves it
// again from the start (attempt 2) and completes it.
func TestClusterWorkerSIGTERM(t *testing.T) {
	c := newCluster(t)
	cl := c.workspace(t, "sigterm", 0)
	ctx, cancel := context.WithTimeout(context.Background(), 3*runLimit)
	defer cancel()
	g := grid{n: sigtermGridN, nodeFz: -2e3}
	if err := cl.upload(ctx, g.file()); err != nil {
		t.Fatal(err)
	}
	run, err := cl.startRun(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// A worker counts the run in flight a moment before it marks the run
	// Running: wait for Running, then the worker that took it is the one
	// with a run in flight.
	var cur model.Run
	deadline := time.Now().Add(runLimit)
	for cur.Status != model.RunRunning {
		if _, err := cl.call(ctx, http.StatusOK, "GET", "/job/analysis/runs/"+run.RunID, nil, &cur); err != nil {
			t.Fatal(err)
		}
		if cur.Status.Finished() || time.Now().After(deadline) {
			t.Fatalf("run %s is %s (attempt %d) instead of Running", run.RunID, cur.Status, cur.Attempt)
		}
		time.Sleep(pollEvery)
	}
	if cur.Attempt != 1 {
		t.Fatalf("before the SIGTERM the run is on attempt %d, want 1", cur.Attempt)
	}
	victim := c.busyWorker(t, runLimit)
	before := 0.0
	for w, n := range c.completedBy(t) {
		if w != victim {
			before += n
		}
	}

	sent := time.Now()
	stopCtx, stopDone := context.WithTimeout(ctx, startLimit)
	defer stopDone()
	if err := victim.Stop(stopCtx, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := time.Since(sent)
	if code := victim.Cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("%s exited with status %d after SIGTERM, want 0 (a clean stop)", victim.Name, code)
	}
	// Unless the run outlived the grace, nothing was handed back and the
	// test proves nothing: the grid must then grow.
	if _, err := cl.call(ctx, http.StatusOK, "GET", "/job/analysis/runs/"+run.RunID, nil, &cur); err != nil {
		t.Fatal(err)
	}
	if cur.Status.Finished() {
		t.Fatalf("the run ended %s (attempt %d) before %s exited %v after the SIGTERM: grid-%d is too small to outlast the grace",
			cur.Status, cur.Attempt, victim.Name, exited.Round(time.Millisecond), g.n)
	}

	// The run stays Running through the hand-over: the next attempt marks
	// it Running again.
	var retook time.Duration
	deadline = time.Now().Add(runLimit)
	for !cur.Status.Finished() {
		if retook == 0 && cur.Attempt >= 2 {
			retook = time.Since(sent)
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s not finished %v after the SIGTERM: %s attempt %d, %s", run.RunID, runLimit, cur.Status, cur.Attempt,
				cur.Progress.StatusText)
		}
		time.Sleep(pollEvery)
		if _, err := cl.call(ctx, http.StatusOK, "GET", "/job/analysis/runs/"+run.RunID, nil, &cur); err != nil {
			t.Fatal(err)
		}
	}
	done := time.Since(sent)
	if cur.Status != model.RunCompleted {
		t.Fatalf("run %s ended %s (attempt %d): %s", run.RunID, cur.Status, cur.Attempt, cur.ErrorMessage)
	}
	if cur.Attempt != 2 {
		t.Errorf("run completed on attempt %d, want 2 (one handed-back task)", cur.Attempt)
	}
	var texts []string
	for _, m := range cur.Progress.Messages {
		texts = append(texts, m.Level+": "+m.Text)
	}
	t.Logf("run messages: %q", texts)
	if !slices.ContainsFunc(texts, func(s string) bool { return strings.Contains(s, "attempt 2 on ") }) {
		t.Errorf("no message of the second attempt")
	}
	// The stopped worker said it gave the task (whose id is the run's)
	// back; one of the others completed it.
	if log, _ := os.ReadFile(victim.LogPath); !bytes.Contains(log, []byte("Pushed task id="+run.RunID+" back to queue")) {
		t.Errorf("%s's log does not say it pushed task %s back to the queue", victim.Name, run.RunID)
	}
	after := 0.0
	var by []string
	for w, n := range c.completedBy(t) {
		after += n
		by = append(by, fmt.Sprintf("%s %v", w.Name, n))
	}
	if after != before+1 {
		t.Errorf("the other workers completed %v runs before and %v after, want one more", before, after)
	}
	if err := cl.checkResults(ctx, g); err != nil {
		t.Error(err)
	}
	elapsed := "?"
	if cur.ElapsedTime != nil {
		elapsed = *cur.ElapsedTime
	}
	t.Logf("SIGTERM to %s during grid-%d run %s: it exited after %v; attempt %d began %v after the SIGTERM and completed %v after it (run elapsed %s); completed runs of the others: %s",
		victim.Name, g.n, run.RunID, exited.Round(time.Millisecond), cur.Attempt, retook.Round(time.Millisecond),
		done.Round(time.Millisecond), elapsed, strings.Join(by, ", "))
}

// SIGKILL to one api while six clients work through both: a request that
// meets the dead api's connection error goes to the other, and nothing
// else changes for the clients. Every round's run completes with its own
// results, no run is lost, and the surviving api answers no 5xx (any
// status a client does not expect fails the test).
func TestClusterAPIKilled(t *testing.T) {
	c := newCluster(t)
	const (
		nClients = 6
		// Each client does at least minRounds rounds, and goes on until
		// it has begun afterKill of them after the kill, so that every
		// client meets the dead api; maxRounds is the history of runs
		// a workspace keeps, so that the list shows all of them.
		minRounds, afterKill, maxRounds = 5, 2, model.MaxRunHistory
		// killAt is how many rounds (of all clients) end before the kill:
		// the second round of most clients.
		killAt = nClients + nClients/2
	)
	clients := make([]*client, nClients)
	for i := range clients {
		clients[i] = c.workspace(t, fmt.Sprintf("crew-%d", i+1), i%2)
	}
	// Each round has a floor load of its own, so that results left from
	// an earlier round, or another workspace's, would show.
	gridOf := func(client, round int) grid {
		return grid{n: killGridN, nodeFz: -1e3 * float64(1+client+nClients*round)}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 3*runLimit)
	defer cancel()
	var completed, underway atomic.Int64
	runIDs := make([][]string, nClients)
	errs := make([]error, nClients)
	var killed atomic.Bool
	var wg sync.WaitGroup
	for i, cl := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			after := 0 // rounds begun after the kill
			for r := 0; r < minRounds || after < afterKill; r++ {
				if r == maxRounds {
					errs[i] = fmt.Errorf("%d rounds, %d of them after the kill: the kill came too late", r, after)
					return
				}
				if killed.Load() {
					after++
				}
				run, err := cl.analyse(ctx, gridOf(i, r), &underway)
				if run.RunID != "" {
					runIDs[i] = append(runIDs[i], run.RunID)
				}
				if err != nil {
					errs[i] = fmt.Errorf("round %d: %w", r+1, err)
					return
				}
				completed.Add(1)
			}
		}()
	}
	allDone := make(chan struct{})
	go func() { wg.Wait(); close(allDone) }()

	// Kill api-1 at a moment when runs are under way (the clients poll
	// them on both apis, ten times a second each).
	var atKill string
	for atKill == "" {
		select {
		case <-allDone:
			t.Fatalf("the clients finished (%d rounds) before the kill: nothing was tested", completed.Load())
		case <-time.After(pollEvery / 4):
		}
		if n, u := completed.Load(), underway.Load(); n >= killAt && u > 0 {
			atKill = fmt.Sprintf("%d rounds done, %d runs under way", n, u)
		}
	}
	c.down[0].Store(true)
	killed.Store(true)
	c.apis[0].Kill()
	t.Logf("SIGKILL to api-1 with %s", atKill)
	<-allDone

	var failovers, adopted []string
	for i, cl := range clients {
		t.Run(cl.ws, func(t *testing.T) {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			// The final state, read through the surviving api: the last
			// round's job and results, and every run of the client
			// completed and kept.
			last := gridOf(i, len(runIDs[i])-1)
			st, err := cl.status(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !st.Analysis.HasStaticResults || st.AccessMode != "ReadWrite" || st.Structure.Nodes != int64(gridjob.Size(last.n).Nodes) {
				t.Errorf("final job status %+v", st)
			}
			if err := cl.checkResults(ctx, last); err != nil {
				t.Error(err)
			}
			var list []model.Run
			if _, err := cl.call(ctx, http.StatusOK, "GET", "/job/analysis/runs", nil, &list); err != nil {
				t.Fatal(err)
			}
			byID := map[string]model.Run{}
			for _, r := range list {
				byID[r.RunID] = r
				if r.Status != model.RunCompleted {
					t.Errorf("run %s is %s (attempt %d): %s", r.RunID, r.Status, r.Attempt, r.ErrorMessage)
				}
			}
			for _, id := range runIDs[i] {
				if _, ok := byID[id]; !ok {
					t.Errorf("run %s is missing from the run list", id)
				}
			}
			if len(list) != len(runIDs[i]) {
				t.Errorf("%d runs in the list, want %d (one per round)", len(list), len(runIDs[i]))
			}
			for _, f := range cl.failovers {
				failovers = append(failovers, cl.ws+": "+f)
			}
			for _, a := range cl.adopted {
				adopted = append(adopted, cl.ws+": "+a)
			}
		})
	}
	if !c.apis[0].Exited() || c.apis[1].Exited() {
		t.Errorf("api-1 exited %v, api-2 exited %v; want only api-1 gone", c.apis[0].Exited(), c.apis[1].Exited())
	}
	for _, w := range c.workers {
		if w.Exited() {
			t.Errorf("%s exited: %s", w.Name, w.LogTail(10))
		}
	}
	if len(failovers) == 0 {
		t.Error("no client met the dead api: the kill was not tested")
	}
	t.Logf("%d requests retried on api-2 after a connection error from api-1; first ones:\n%s", len(failovers),
		strings.Join(failovers[:min(len(failovers), 8)], "\n"))
	t.Logf("%d rounds in all; %d retried requests whose first try had taken effect: %q", completed.Load(), len(adopted), adopted)
}
