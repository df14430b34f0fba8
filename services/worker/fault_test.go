//go:build fault

// Fault tests: real gusset-api and gusset-worker processes on one
// redis-server, and a worker killed with SIGKILL in the middle of a
// factorization. They take minutes, because asynq only gives a lost task
// to another worker once its 30 s lease has expired and then some 30 s
// more have passed (clock-skew margin), checked by a recoverer that runs
// once a minute in every worker: so `make test-fault` runs them, not
// `make test`.
package main_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
	"github.com/gusset/gusset/pkg/testutil/proctest"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

const (
	// gridN is the size of the test structure: grid-20 (9,261 nodes,
	// 52,920 equations) shows its factorization step for about 2-3 s on 2
	// cores, long enough for the test to see step 4 and kill the worker
	// inside it.
	gridN = 20
	// pollEvery is how often the test polls a run or a process.
	pollEvery = 100 * time.Millisecond
	// recoveryLimit bounds how long a lost run may take to complete or to
	// fail: lease 30 s + 30 s skew margin + up to 60 s until the next
	// recoverer pass + the forwarder's 5 s + the solve itself, with room
	// for a slow machine.
	recoveryLimit = 4 * time.Minute
	// solveLimit bounds an undisturbed grid-20 run.
	solveLimit = 2 * time.Minute
	// stepFactorizing is the progress step of the factorization (1-based:
	// stepLabels[3] is "Factorizing").
	stepFactorizing = 4
)

// binaries are gusset-api and gusset-worker, built once per test binary
// into a directory that TestMain removes (t.TempDir would vanish with the
// first test that used it).
var binaries struct {
	once        sync.Once
	dir         string
	api, worker string
	err         error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binaries.dir != "" {
		_ = os.RemoveAll(binaries.dir)
	}
	os.Exit(code)
}

// build compiles both binaries the first time a test asks for them.
func build(t *testing.T) (api, worker string) {
	t.Helper()
	binaries.once.Do(func() {
		start := time.Now()
		binaries.dir, binaries.err = os.MkdirTemp("", "gusset-fault-")
		if binaries.err != nil {
			return
		}
		binaries.err = proctest.Build(context.Background(), binaries.dir, "../api", ".")
		binaries.api = filepath.Join(binaries.dir, "api")
		binaries.worker = filepath.Join(binaries.dir, "worker")
		if binaries.err != nil {
			return
		}
		t.Logf("built gusset-api and gusset-worker in %v", time.Since(start).Round(time.Millisecond))
	})
	if binaries.err != nil {
		t.Fatal(binaries.err)
	}
	return binaries.api, binaries.worker
}

// cluster is the service as deployed: one redis-server, one gusset-api and
// gusset-worker processes.
type cluster struct {
	// owner is the top-level test: processes live as long as it does, so
	// that workers outlast the round (subtest) that started them.
	owner   *testing.T
	dir     string
	redis   *redistest.Server
	api     *proctest.Proc
	base    string
	workers []*proctest.Proc // live workers
	all     []*proctest.Proc // every process started, for the logs of a failure
	started int              // workers started so far, for their names
	http    *http.Client
}

// newCluster starts redis-server, the API (with apiEnv added to its
// environment) and two workers.
func newCluster(t *testing.T, apiEnv ...string) *cluster {
	t.Helper()
	apiBin, _ := build(t)
	c := &cluster{owner: t, dir: t.TempDir(), redis: redistest.Start(t), http: &http.Client{Timeout: 30 * time.Second}}
	// Registered before any process starts, so it runs after they were
	// killed and before their log directory goes.
	t.Cleanup(func() {
		if t.Failed() {
			for _, p := range c.all {
				t.Logf("%s log tail:\n%s", p.Name, p.LogTail(15))
			}
		}
	})
	c.startAPI(t, apiBin, apiEnv)
	c.startWorker(t)
	c.startWorker(t)
	return c
}

// own keeps a started process: the owner test kills it at the end, and
// its log is shown when the test fails.
func (c *cluster) own(p *proctest.Proc) *proctest.Proc {
	c.owner.Cleanup(p.Kill)
	c.all = append(c.all, p)
	return p
}

// startAPI runs gusset-api on a free port and reads its base URL from the
// line it prints on start.
func (c *cluster) startAPI(t *testing.T, bin string, extra []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	env := proctest.Env(append([]string{"REDIS_URL=" + c.redis.URL(), "PORT=0", "HOST=127.0.0.1",
		"JOBS_DIR=" + filepath.Join(c.dir, "jobs"), "LOG_LEVEL=warn"}, extra...)...)
	p, base, err := proctest.StartAPI(ctx, c.dir, "api", bin, env)
	if err != nil {
		t.Fatal(err)
	}
	c.api, c.base = c.own(p), base
}

// startWorker starts a gusset-worker with its own METRICS_ADDR and waits
// until its /healthz answers.
func (c *cluster) startWorker(t *testing.T) *proctest.Proc {
	t.Helper()
	_, bin := build(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c.started++
	p, err := proctest.StartWorker(ctx, c.dir, fmt.Sprintf("worker-%d", c.started), bin,
		proctest.Env("REDIS_URL="+c.redis.URL(), "LOG_LEVEL=info"))
	if err != nil {
		t.Fatal(err)
	}
	c.workers = append(c.workers, c.own(p))
	return p
}

// kill sends SIGKILL to a worker (no shutdown hook runs, the task keeps
// its lease) and waits until it has gone.
func (c *cluster) kill(t *testing.T, p *proctest.Proc) {
	t.Helper()
	if err := p.Cmd.Process.Kill(); err != nil {
		t.Fatalf("kill %s: %v", p.Name, err)
	}
	<-p.Done
	for i, w := range c.workers {
		if w == p {
			c.workers = append(c.workers[:i], c.workers[i+1:]...)
			break
		}
	}
}

// workerMetrics are the series of a worker that the test reads.
type workerMetrics struct {
	inFlight  float64 // gusset_analysis_runs_in_flight
	completed float64 // gusset_analysis_duration_seconds_count of Completed static runs
}

// scrape reads a worker's /metrics (Prometheus text format).
func (c *cluster) scrape(t *testing.T, p *proctest.Proc) workerMetrics {
	t.Helper()
	res, err := c.http.Get("http://" + p.Metrics + "/metrics")
	if err != nil {
		t.Fatalf("scrape %s: %v", p.Name, err)
	}
	defer res.Body.Close()
	var m workerMetrics
	seen := false
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		line := sc.Text()
		name, value, ok := strings.Cut(line, " ")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue
		}
		switch {
		case name == "gusset_analysis_runs_in_flight":
			m.inFlight, seen = v, true
		case strings.HasPrefix(name, "gusset_analysis_duration_seconds_count{") &&
			strings.Contains(name, `kind="`+string(model.AnalysisType("LinearStaticAnalysis"))+`"`) && strings.Contains(name, `outcome="Completed"`):
			m.completed = v
		}
	}
	if !seen {
		t.Fatalf("%s serves no gusset_analysis_runs_in_flight", p.Name)
	}
	return m
}

// solver returns the one live worker that is solving a run now.
func (c *cluster) solver(t *testing.T) *proctest.Proc {
	t.Helper()
	var busy []*proctest.Proc
	for _, w := range c.workers {
		if c.scrape(t, w).inFlight == 1 {
			busy = append(busy, w)
		}
	}
	if len(busy) != 1 {
		t.Fatalf("%d of %d workers report a run in flight, want 1", len(busy), len(c.workers))
	}
	return busy[0]
}

// do sends a request and fails the test unless it answers want.
func (c *cluster) do(t *testing.T, want int, req *http.Request) []byte {
	t.Helper()
	res, err := c.http.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != want {
		t.Fatalf("%s %s = %d, want %d: %s", req.Method, req.URL, res.StatusCode, want, b)
	}
	return b
}

// must sends body (nil: none) as JSON and decodes the answer into out
// (nil: ignored).
func (c *cluster) must(t *testing.T, want int, method, path string, body, out any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	b := c.do(t, want, req)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("decode %s %s: %v: %.300s", method, path, err, b)
		}
	}
}

// upload opens a job file as a new job (POST /job/new-from-template).
func (c *cluster) upload(t *testing.T, file []byte) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	part, err := w.CreateFormFile("template", "job.gsj")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = part.Write(file)
	_ = w.Close()
	req, err := http.NewRequest("POST", c.base+"/job/new-from-template", &b)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	c.do(t, http.StatusOK, req)
}

// startRun starts a linear static run with the job's settings.
func (c *cluster) startRun(t *testing.T) model.Run {
	t.Helper()
	var run model.Run
	c.must(t, http.StatusAccepted, "POST", "/job/analysis/static/run-linear", nil, &run)
	return run
}

// poll reads a run until cond holds; each read also lets the API reap a
// lost run. It fails after limit.
func (c *cluster) poll(t *testing.T, id string, limit time.Duration, what string, cond func(model.Run) bool) model.Run {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		var run model.Run
		c.must(t, http.StatusOK, "GET", "/job/analysis/runs/"+id, nil, &run)
		if cond(run) {
			return run
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s not %s after %v: %s attempt %d, %+v", id, what, limit, run.Status, run.Attempt, run.Progress)
		}
		time.Sleep(pollEvery)
	}
}

func factorizing(r model.Run) bool {
	return r.Status == model.RunRunning && r.Progress.CurrentStep == stepFactorizing &&
		len(r.Progress.StepLabels) >= stepFactorizing && r.Progress.StepLabels[stepFactorizing-1] == "Factorizing"
}

func finished(r model.Run) bool { return r.Status.Finished() }

// noRunUnderWay checks that no run in the list is Queued, Running or
// Cancelling: none stays behind after a lost worker.
func (c *cluster) noRunUnderWay(t *testing.T) {
	t.Helper()
	var runs []model.Run
	c.must(t, http.StatusOK, "GET", "/job/analysis/runs", nil, &runs)
	for _, r := range runs {
		if !r.Status.Finished() {
			t.Errorf("run %s is still %s (attempt %d)", r.RunID, r.Status, r.Attempt)
		}
	}
}

// results are the numbers of a grid-20 run that the fault test compares.
type results struct {
	disp    []model.NodeDisplacementRow // every node
	summary []model.ReactionSummaryRow  // Load, Reaction, Residual
}

func (c *cluster) results(t *testing.T) results {
	t.Helper()
	var d struct {
		Results []model.NodeDisplacementRow `json:"results"`
	}
	c.must(t, http.StatusOK, "GET", "/job/query/analysis/static/node-displacements?loadCases=1", nil, &d)
	var s struct {
		Results []model.ReactionSummaryRow `json:"results"`
	}
	c.must(t, http.StatusOK, "GET", "/job/query/analysis/static/reaction-summary?loadCases=1", nil, &s)
	if want := gridjob.Size(gridN).Nodes; len(d.Results) != want || len(s.Results) != 3 {
		t.Fatalf("%d displacement rows (want %d) and %d summary rows (want 3)", len(d.Results), want, len(s.Results))
	}
	return results{disp: d.Results, summary: s.Results}
}

// topCorners are the ids of grid-n's four top corner nodes (gridjob
// numbers node (i, j, k) as i + side·(j + side·k) + 1).
func topCorners(n int) []int64 {
	side := int64(n + 1)
	top := side * side * int64(n)
	return []int64{top + 1, top + side, top + side*(side-1) + 1, side * side * side}
}

// sameResults requires got to equal want bit for bit: the retried attempt
// runs the same binary on the same model with the same settings, and the
// engine's orderings and parallel factorization are deterministic, so
// every floating-point operation happens again in the same order.
func sameResults(t *testing.T, got, want results) {
	t.Helper()
	diffs := 0
	for i := range want.disp {
		if got.disp[i] != want.disp[i] {
			if diffs++; diffs <= 5 {
				t.Errorf("node %d: displacements %+v, undisturbed run %+v", want.disp[i].Node, got.disp[i], want.disp[i])
			}
		}
	}
	for i := range want.summary {
		if got.summary[i] != want.summary[i] {
			diffs++
			t.Errorf("reaction summary %s: %+v, undisturbed run %+v", want.summary[i].SummaryType, got.summary[i], want.summary[i])
		}
	}
	if diffs > 0 {
		t.Errorf("%d rows differ from the undisturbed run", diffs)
	}
}

// A worker killed with SIGKILL while it factorizes grid-20: asynq hands
// the run to the surviving worker, which runs it again from the start and
// completes it with the undisturbed run's numbers; no run stays Running.
// Five rounds, each with a fresh run and a fresh kill.
func TestWorkerKilledMidFactorization(t *testing.T) {
	c := newCluster(t)
	c.upload(t, gridjob.File(gridN, 1))

	// The reference: the same run with nobody killed.
	began := time.Now()
	ref := c.startRun(t)
	// How long step 4 is seen tells how much room the kill has.
	c.poll(t, ref.RunID, solveLimit, "factorizing", factorizing)
	sawFactor := time.Now()
	c.poll(t, ref.RunID, solveLimit, "past the factorization", func(r model.Run) bool {
		return r.Progress.CurrentStep > stepFactorizing || finished(r)
	})
	factorFor := time.Since(sawFactor)
	done := c.poll(t, ref.RunID, solveLimit, "finished", finished)
	if done.Status != model.RunCompleted || done.Attempt != 1 {
		t.Fatalf("undisturbed run ended %s (attempt %d): %s", done.Status, done.Attempt, done.ErrorMessage)
	}
	want := c.results(t)
	t.Logf("undisturbed grid-%d run: %v in all, factorization seen for about %v; parameters %v",
		gridN, time.Since(began).Round(time.Millisecond), factorFor.Round(time.Millisecond), done.Parameters)
	corners := map[int64]bool{}
	for _, id := range topCorners(gridN) {
		corners[id] = true
	}
	for _, d := range want.disp {
		if corners[d.Node] {
			t.Logf("undisturbed: top corner node %d tx %.17g ty %.17g tz %.17g", d.Node, d.Tx, d.Ty, d.Tz)
		}
	}
	for _, s := range want.summary {
		t.Logf("undisturbed: %s fx %.17g fz %.17g", s.SummaryType, s.Fx, s.Fz)
	}

	var timings []string
	for round := 1; round <= 5; round++ {
		ok := t.Run(fmt.Sprintf("round-%d", round), func(t *testing.T) {
			run := c.startRun(t)
			c.poll(t, run.RunID, solveLimit, "factorizing", factorizing)
			victim := c.solver(t)
			var survivor *proctest.Proc
			for _, w := range c.workers {
				if w != victim {
					survivor = w
				}
			}
			before := c.scrape(t, survivor).completed
			c.kill(t, victim)
			killed := time.Now()

			// The record keeps what the dead worker published last (at most
			// one 250 ms tick before the kill): it was factorizing.
			var last model.Run
			c.must(t, http.StatusOK, "GET", "/job/analysis/runs/"+run.RunID, nil, &last)
			if !factorizing(last) || last.Attempt != 1 {
				t.Errorf("after the kill the run shows %s step %d attempt %d, want Running step %d attempt 1",
					last.Status, last.Progress.CurrentStep, last.Attempt, stepFactorizing)
			}

			var retook time.Duration
			// The run stays Running through the recovery (the next attempt
			// sets Running again); anything else ends the wait.
			end := c.poll(t, run.RunID, recoveryLimit, "finished", func(r model.Run) bool {
				if retook == 0 && r.Attempt >= 2 {
					retook = time.Since(killed)
				}
				return r.Status != model.RunRunning
			})
			took := time.Since(killed)
			if end.Status != model.RunCompleted {
				t.Fatalf("run ended %s: %s", end.Status, end.ErrorMessage)
			}
			if end.Attempt != 2 {
				t.Errorf("attempt %d, want 2 (one lost worker)", end.Attempt)
			}
			second := false
			for _, m := range end.Progress.Messages {
				second = second || strings.HasPrefix(m.Text, "attempt 2 on ")
			}
			if !second {
				t.Errorf("no message of the second attempt: %+v", end.Progress.Messages)
			}
			// Only the survivor was alive: its count of completed runs went up.
			if after := c.scrape(t, survivor).completed; after != before+1 {
				t.Errorf("%s completed %v runs before and %v after, want one more", survivor.Name, before, after)
			}
			sameResults(t, c.results(t), want)
			c.noRunUnderWay(t)
			msg := fmt.Sprintf("round %d: killed %s, %s took the run again %v after the kill and completed it %v after the kill",
				round, victim.Name, survivor.Name, retook.Round(time.Millisecond), took.Round(time.Millisecond))
			t.Log(msg)
			timings = append(timings, msg)
			// The next round needs two workers again. The replacement starts
			// only now, so that the run above could only complete on the
			// worker that survived the kill.
			c.startWorker(t)
		})
		if !ok {
			break // the run of a failed round may still hold the workspace
		}
	}
	c.noRunUnderWay(t)
	t.Logf("recoveries:\n%s", strings.Join(timings, "\n"))
}

// With ANALYSIS_MAX_RETRY=0 a lost worker is final: once the worker's
// lease has expired, the surviving worker's asynq recoverer archives the
// task, and the API, asked for the run, marks it Failed "worker lost". The
// run never stays Running, and the workspace is free for a new run.
func TestWorkerLostRetriesRunOut(t *testing.T) {
	c := newCluster(t, "ANALYSIS_MAX_RETRY=0")
	c.upload(t, gridjob.File(gridN, 1))

	run := c.startRun(t)
	c.poll(t, run.RunID, solveLimit, "factorizing", factorizing)
	victim := c.solver(t)
	c.kill(t, victim)
	killed := time.Now()

	end := c.poll(t, run.RunID, recoveryLimit, "finished", func(r model.Run) bool { return r.Status != model.RunRunning })
	took := time.Since(killed)
	if end.Status != model.RunFailed || !strings.Contains(end.ErrorMessage, "worker lost") {
		t.Fatalf("run ended %s %q, want Failed with \"worker lost\"", end.Status, end.ErrorMessage)
	}
	if end.Attempt != 1 {
		t.Errorf("attempt %d, want 1: no retry was allowed", end.Attempt)
	}
	c.noRunUnderWay(t)
	t.Logf("killed %s; the run was Failed %v after the kill: %s", victim.Name, took.Round(time.Millisecond), end.ErrorMessage)

	// The failed run released the workspace: the survivor solves a new run.
	again := c.startRun(t)
	if got := c.poll(t, again.RunID, solveLimit, "finished", finished); got.Status != model.RunCompleted {
		t.Errorf("the next run ended %s: %s", got.Status, got.ErrorMessage)
	}
}
