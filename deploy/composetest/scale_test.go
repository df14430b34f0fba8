//go:build compose

package composetest_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/fem/gridn"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
)

// The scale-out scenario's load: scaleWorkspaces workspaces each start one
// linear static run of grid-scaleGrid (one load case) at the same moment,
// on each count of workers in scaleCounts, every worker limited to
// scaleCPUs of a CPU so that the machine's cores are not what limits the
// throughput of four workers.
const (
	scaleWorkspaces = 8
	scaleGrid       = 15
	scaleCPUs       = 0.5
	// scaleRunsLimit bounds one round (all runs finished): a safety net
	// for one throttled worker on a loaded machine, not a speed target.
	scaleRunsLimit = 15 * time.Minute
	// healthyLimit bounds the wait for new workers to report healthy
	// (their healthcheck runs every 10 s after a 10 s start period).
	healthyLimit = 3 * time.Minute
)

var scaleCounts = []int{1, 2, 4}

// scaleRound is what one round of runs measured.
type scaleRound struct {
	workers  int
	runs     []model.Run
	makespan time.Duration // first run queued to last run completed
	perMin   float64       // runs completed per minute over the makespan
}

// Eight workspaces' grid-15 runs, started together, on 1, 2 and 4 workers
// limited to half a CPU each: every run completes on its first attempt
// with the reactions grid-15's loads call for, all 24 runs' displacements
// are the same to the last bit, and scaling the workers recreates none of
// the other containers. The throughput of each count and the runs each
// worker took are figures (target: 4 workers ≥ 3× one on an idle
// machine), not assertions. At the end the stack is back to two workers without a
// CPU limit, as the other scenarios expect.
func TestScaleOut(t *testing.T) {
	file := gridjob.File(scaleGrid, 1)
	clients := make([]*client, scaleWorkspaces)
	for i := range clients {
		clients[i] = stk.workspace(t, fmt.Sprintf("scale-%d", i+1))
		clients[i].upload(t, file)
	}
	others := otherContainers(t)
	limited := stk.withFiles(cpuOverride(t, scaleCPUs))
	t.Cleanup(func() {
		// Back to the stack every scenario starts from: two workers, no
		// CPU limit (a changed limit recreates the workers, and only them).
		scaleWorkers(t, stk, 2, 0)
		if got := otherContainers(t); !maps.Equal(got, others) {
			t.Errorf("restoring two workers changed other services' containers: %v, before %v", got, others)
		}
	})

	var ref []model.NodeDisplacementRow // the first run's, which every run must equal
	var rounds []scaleRound
	worst := 0.0 // the largest relative deviation of the reactions' sums
	for _, n := range scaleCounts {
		t.Run(fmt.Sprintf("%d workers", n), func(t *testing.T) {
			before := stk.containers(t, "worker")
			workers := scaleWorkers(t, limited, n, scaleCPUs)
			if got := otherContainers(t); !maps.Equal(got, others) {
				t.Fatalf("scaling the workers to %d changed other services' containers: %v, before %v", n, got, others)
			}
			if n > 1 {
				// Scaling out adds workers: the ones up stay (a worker
				// recreated while it solves would hand its run back).
				for _, id := range before {
					if !slices.Contains(workers, id) {
						t.Errorf("scaling out to %d workers replaced worker %.12s", n, id)
					}
				}
			}
			r := scaleRun(t, clients)
			r.workers = n
			rounds = append(rounds, r)
			for i, c := range clients {
				disp, dev := checkGrid(t, c, scaleGrid)
				worst = max(worst, dev)
				if ref == nil {
					ref = disp
				} else if !sameDisplacements(t, fmt.Sprintf("workspace scale-%d", i+1), disp, ref) {
					t.Errorf("workspace scale-%d on %d workers: displacements differ from the first run", i+1, n)
				}
			}
			// How the runs spread over the workers is a figure too: a
			// worker that polls the queue a moment late may find it empty
			// (seen in CI: [2 0 3 3] for eight one-second runs on four).
			took := runsPerWorker(t, workers, r.runs)
			logTimeline(t, r.runs)
			solve, wait := runTimes(r.runs)
			figure(t, "scale-out: %d worker(s) at %.1f CPU: %d grid-%d runs in %v, %.1f runs/min; solve mean %v, queue wait mean %v; runs per worker %v",
				n, scaleCPUs, len(r.runs), scaleGrid, r.makespan.Round(100*time.Millisecond), r.perMin,
				solve.Round(10*time.Millisecond), wait.Round(10*time.Millisecond), counts(took))
		})
	}
	if len(rounds) == len(scaleCounts) {
		first, last := rounds[0], rounds[len(rounds)-1]
		figure(t, "scale-out: %d workers / %d worker: %.2f× the throughput (target ≥ 3× on an idle machine)",
			last.workers, first.workers, last.perMin/first.perMin)
	}
	figure(t, "scale-out: reactions' sums off the exact ΣFx, ΣFz by at most %.2g (relative; tolerance %g) over every run", worst, equilibriumTol)
}

// withFiles returns a copy of the stack whose compose commands read the
// extra files after its own (overrides).
func (s *stack) withFiles(files ...string) *stack {
	c := *s
	c.files = append(slices.Clone(s.files), files...)
	return &c
}

// cpuOverride writes a compose override that limits every worker to cpus
// of a CPU (compose's service-level cpus, which docker-compose 1.29 maps to
// the container's NanoCpus) and returns its path.
func cpuOverride(t *testing.T, cpus float64) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "worker-cpus.yml")
	if err := os.WriteFile(path, fmt.Appendf(nil, "services:\n  worker:\n    cpus: %g\n", cpus), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// scaleWorkers brings the workers of s (its compose files) to n and waits
// until every one is healthy with the CPU limit cpus (0: none); it returns
// their ids. --no-deps with the one service named leaves every other
// container alone: only workers whose configuration changed (their CPU
// limit) are recreated, and the others are kept.
func scaleWorkers(t *testing.T, s *stack, n int, cpus float64) []string {
	t.Helper()
	if out, err := s.compose("up", "-d", "--no-deps", "--scale", fmt.Sprintf("worker=%d", n), "worker"); err != nil {
		t.Fatalf("scale the workers to %d: %v\n%s", n, err, out)
	}
	var ids []string
	waitFor(t, healthyLimit, fmt.Sprintf("%d healthy workers limited to %g CPU", n, cpus), func() (bool, error) {
		ids = stk.containers(t, "worker")
		if len(ids) != n {
			return false, fmt.Errorf("%d workers", len(ids))
		}
		out, err := stk.run(append([]string{"inspect", "-f", "{{.State.Health.Status}} {{.HostConfig.NanoCpus}}"}, ids...)...)
		if err != nil {
			return false, fmt.Errorf("%w: %s", err, out)
		}
		want := fmt.Sprintf("healthy %d", int64(math.Round(cpus*1e9)))
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if line != want {
				return false, fmt.Errorf("a worker is %q, want %q", line, want)
			}
		}
		return true, nil
	})
	return ids
}

// otherContainers are the ids of every service's containers but the
// workers', by service: scaling the workers must leave them running.
func otherContainers(t *testing.T) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, svc := range []string{"redis", "api", "proxy", "prometheus"} {
		ids := stk.containers(t, svc)
		slices.Sort(ids)
		m[svc] = strings.Join(ids, ",")
	}
	return m
}

// scaleRun starts one linear static run in every workspace at once and
// waits until all have finished; every run must complete on its first
// attempt (no worker stops meanwhile). The makespan is the service's own:
// from the first run's queuedAt to the last one's completedAt.
func scaleRun(t *testing.T, clients []*client) scaleRound {
	t.Helper()
	ids := make([]string, len(clients))
	errs := make([]error, len(clients))
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var run model.Run
			status, b, err := c.do("POST", "/job/analysis/static/run-linear", nil)
			switch {
			case err != nil:
				errs[i] = err
			case status != http.StatusAccepted:
				errs[i] = fmt.Errorf("%w: start a run: %d %s", errStatus, status, clip(b))
			default:
				errs[i] = json.Unmarshal(b, &run)
				ids[i] = run.RunID
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("workspace scale-%d: %v", i+1, err)
		}
	}
	runs := make([]model.Run, len(clients))
	waitFor(t, scaleRunsLimit, fmt.Sprintf("%d runs finished", len(clients)), func() (bool, error) {
		left := 0
		for i, c := range clients {
			if runs[i].Status.Finished() {
				continue
			}
			r, err := c.run(ids[i])
			if err != nil {
				return false, err
			}
			runs[i] = r
			if !r.Status.Finished() {
				left++
			}
		}
		return left == 0, fmt.Errorf("%d runs not finished", left)
	})
	var first, last time.Time
	for i, r := range runs {
		if r.Status != model.RunCompleted || r.Attempt != 1 || r.CompletedAt == nil {
			t.Fatalf("workspace scale-%d: run %s ended %s on attempt %d: %s", i+1, r.RunID, r.Status, r.Attempt, r.ErrorMessage)
		}
		if first.IsZero() || r.QueuedAt.Before(first) {
			first = r.QueuedAt
		}
		if r.CompletedAt.After(last) {
			last = *r.CompletedAt
		}
	}
	span := last.Sub(first)
	return scaleRound{runs: runs, makespan: span, perMin: float64(len(runs)) / span.Minutes()}
}

// equilibriumTol bounds the reactions' sums off their exact values,
// relative to them. The reactions are the member end forces gathered at
// the supports (pkg/fem/static/recover.go), and every member's end forces
// balance its own loads, so ΣReactions + ΣLoads is minus the sum of the
// out-of-balance forces left at the free DOFs: the residual of a direct
// (LDLᵀ) solve in float64, of order machine epsilon (2.2e-16) times the
// stiffness's condition number, plus the rounding of 3,840 sums. 1e-6 is
// far above that (the figure gives the largest deviation seen) and far
// below what a lost load would show: one node's lateral load is 1/3,840
// = 2.6e-4 of ΣFx.
const equilibriumTol = 1e-6

// checkGrid checks the workspace's static results of load case 1 against
// grid-n's loads: a displacement row for every node, and reactions whose
// sums balance the loads gridjob applies (its doc: ΣFx = −10 kN × case ×
// free nodes; ΣFz = the members' weight), in the job's force unit, kN. It
// returns the displacements and the reactions' larger relative deviation
// from the exact sums.
func checkGrid(t *testing.T, c *client, n int) ([]model.NodeDisplacementRow, float64) {
	t.Helper()
	var d struct {
		Results []model.NodeDisplacementRow `json:"results"`
	}
	c.must(t, http.StatusOK, "GET", "/job/query/analysis/static/node-displacements?loadCases=1", nil, &d)
	size := gridjob.Size(n)
	if len(d.Results) != size.Nodes {
		t.Fatalf("%d displacement rows, want %d (grid-%d)", len(d.Results), size.Nodes, n)
	}
	var s struct {
		Results []model.ReactionSummaryRow `json:"results"`
	}
	c.must(t, http.StatusOK, "GET", "/job/query/analysis/static/reaction-summary?loadCases=1", nil, &s)
	const kN = 1e3
	const loadCase = 1
	wantFx := -gridn.Lateral * loadCase * float64(size.FreeNodes) / kN
	wantFz := gridn.Rho * gridn.Area * gridn.Bay * gridn.Gravity * float64(size.Members) / kN
	for _, r := range s.Results {
		if r.SummaryType != "Reaction" {
			continue
		}
		dev := max(math.Abs(r.Fx-wantFx)/math.Abs(wantFx), math.Abs(r.Fz-wantFz)/math.Abs(wantFz))
		if dev > equilibriumTol {
			t.Errorf("reactions Fx %.9g Fz %.9g kN, want %.9g and %.9g (grid-%d, case %d)", r.Fx, r.Fz, wantFx, wantFz, n, loadCase)
		}
		return d.Results, dev
	}
	t.Errorf("no Reaction row in the reaction summary: %+v", s.Results)
	return d.Results, math.Inf(1)
}

// sameDisplacements reports whether got equals want bit for bit: every run
// is the same model solved by the same binary with the same settings and
// the same CPU limit, and the engine's orderings and parallel
// factorization are deterministic (services/worker/fault_test.go's
// sameResults rests on the same), so any difference is a fault. It logs
// the first few rows that differ.
func sameDisplacements(t *testing.T, what string, got, want []model.NodeDisplacementRow) bool {
	t.Helper()
	if len(got) != len(want) {
		t.Logf("%s: %d displacement rows, want %d", what, len(got), len(want))
		return false
	}
	diffs := 0
	for i := range want {
		if got[i] != want[i] {
			if diffs++; diffs <= 3 {
				t.Logf("%s: node %d: %+v, want %+v", what, want[i].Node, got[i], want[i])
			}
		}
	}
	return diffs == 0
}

// runsPerWorker counts the runs each worker container solved, from the
// "run ended" lines of its log (its host name, the id's first 12
// characters, is its worker name), by the container's short id.
func runsPerWorker(t *testing.T, workers []string, runs []model.Run) map[string]int {
	t.Helper()
	ours := map[string]bool{}
	for _, r := range runs {
		ours[r.RunID] = true
	}
	took := map[string]int{}
	for _, id := range workers {
		took[id[:12]] = 0
		for _, line := range strings.Split(stk.logs(t, id), "\n") {
			var l struct {
				Msg string `json:"msg"`
				Run string `json:"run"`
			}
			if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "run ended" && ours[l.Run] {
				took[id[:12]]++
			}
		}
	}
	return took
}

// counts lists a worker map's counts in order of the workers' ids.
func counts(took map[string]int) []int {
	var ids []string
	for id := range took {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var c []int
	for _, id := range ids {
		c = append(c, took[id])
	}
	return c
}

// logTimeline logs when each run was queued, started and completed,
// from the first one queued: where a round's time went.
func logTimeline(t *testing.T, runs []model.Run) {
	t.Helper()
	first := runs[0].QueuedAt
	for _, r := range runs {
		if r.QueuedAt.Before(first) {
			first = r.QueuedAt
		}
	}
	at := func(tm *time.Time) string {
		if tm == nil {
			return "-"
		}
		return tm.Sub(first).Round(10 * time.Millisecond).String()
	}
	for _, r := range runs {
		t.Logf("run %.8s: queued %s, started %s, completed %s", r.RunID, at(&r.QueuedAt), at(r.StartedAt), at(r.CompletedAt))
	}
}

// runTimes are the runs' mean solve time (startedAt to completedAt) and
// mean wait in the queue (queuedAt to startedAt).
func runTimes(runs []model.Run) (solve, wait time.Duration) {
	for _, r := range runs {
		if r.StartedAt == nil || r.CompletedAt == nil {
			continue
		}
		solve += r.CompletedAt.Sub(*r.StartedAt)
		wait += r.StartedAt.Sub(r.QueuedAt)
	}
	n := time.Duration(len(runs))
	return solve / n, wait / n
}
