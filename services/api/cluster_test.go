//go:build cluster

// Cluster tests: the service wired as docker-compose wires it (one Redis,
// two gusset-api replicas sharing the jobs directory, three
// gusset-worker processes), in AUTH_MODE=keys with workspaces and keys
// made by the real gusset-admin, all as real processes on one
// redis-server. They take a few minutes and most of the machine, so `make
// test-cluster` runs them, not `make test`.
package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/fem/gridn"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
	"github.com/gusset/gusset/pkg/testutil/proctest"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

const (
	// pollEvery is how often a client polls a run and the test polls a
	// process or a worker's metrics.
	pollEvery = 100 * time.Millisecond
	// runLimit bounds one run from its start to its end, queueing behind
	// the other workspaces' runs included; a slow machine has room.
	runLimit = 2 * time.Minute
	// startLimit bounds starting a process (an api printing its URL, a
	// worker answering /healthz) and one gusset-admin command.
	startLimit = 30 * time.Second
	// workerCount is the number of worker processes of every cluster:
	// one more than docker-compose's two, so that a stopped worker still
	// leaves two to take its run.
	workerCount = 3
	// durationCount counts a worker's finished runs (by kind and outcome);
	// inFlight is the number it is solving now.
	durationCount = "gusset_analysis_duration_seconds_count"
	inFlight      = "gusset_analysis_runs_in_flight"
	// sigtermGridN is the grid of the SIGTERM test: grid-30 (29,791
	// nodes) takes about 12 s to solve alone on 2 cores, so that it is
	// still solving when the stopped worker's 5 s grace (asynq's
	// ShutdownTimeout) runs out, and the task is handed back.
	sigtermGridN = 30
	// killGridN is the grid of the api-kill test: grid-8 solves in about
	// 0.3 s, so that the clients go through many rounds, and some are
	// always under way when the api dies.
	killGridN = 8
)

var (
	linearKind  = `kind="` + string(model.LinearStatic) + `"`
	outcomeDone = `outcome="` + string(model.RunCompleted) + `"`
	// underWay are the states of a run that holds its workspace.
	underWay = []model.RunStatus{model.RunQueued, model.RunRunning}
)

// binaries are gusset-api, gusset-worker and gusset-admin, built once per
// test binary into a directory TestMain removes (a test's TempDir would go
// with the first test that used it).
var binaries struct {
	once               sync.Once
	dir                string
	api, worker, admin string
	err                error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binaries.dir != "" {
		_ = os.RemoveAll(binaries.dir)
	}
	os.Exit(code)
}

// buildBinaries compiles the three commands the first time a test asks.
func buildBinaries(t *testing.T) {
	t.Helper()
	binaries.once.Do(func() {
		start := time.Now()
		if binaries.dir, binaries.err = os.MkdirTemp("", "gusset-cluster-"); binaries.err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		// Build names each binary after its directory: api, worker, admin.
		binaries.err = proctest.Build(ctx, binaries.dir, ".", "../worker", "../admin")
		binaries.api = filepath.Join(binaries.dir, "api")
		binaries.worker = filepath.Join(binaries.dir, "worker")
		binaries.admin = filepath.Join(binaries.dir, "admin")
		if binaries.err == nil {
			t.Logf("built gusset-api, gusset-worker and gusset-admin in %v", time.Since(start).Round(time.Millisecond))
		}
	})
	if binaries.err != nil {
		t.Fatal(binaries.err)
	}
}

// cluster is one deployment: a redis-server, two api replicas and three
// workers.
type cluster struct {
	t     *testing.T
	dir   string
	redis *redistest.Server
	// apiEnv and workerEnv are each role's environment, the same for every
	// replica of it, as docker-compose gives one service's environment to
	// all its replicas.
	apiEnv, workerEnv []string
	apis              []*proctest.Proc
	bases             []string         // each api's base URL (…/api/v1)
	workers           []*proctest.Proc // in start order; a stopped one stays listed
	all               []*proctest.Proc // every process, for the logs of a failure
	http              *http.Client
	// down[i] is set just before the test kills api i: from then on a
	// connection error from that api is expected, and clients retry on the
	// other; before, any connection error fails the test.
	down [2]atomic.Bool
}

// newCluster starts the deployment and returns once every process is up.
func newCluster(t *testing.T) *cluster {
	t.Helper()
	buildBinaries(t)
	dir := t.TempDir()
	c := &cluster{t: t, dir: dir, redis: redistest.Start(t),
		http: &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}}
	// Registered before any process starts, so that it runs after they
	// have been killed and before their log directory goes.
	t.Cleanup(func() {
		if t.Failed() {
			for _, p := range c.all {
				t.Logf("%s (pid %d) log tail:\n%s", p.Name, p.PID(), p.LogTail(25))
			}
		}
	})
	t.Cleanup(c.http.CloseIdleConnections)
	jobs := filepath.Join(dir, "jobs")
	// docker-compose's api service, with what this test needs on top:
	// keys, a port of its own per process (PORT=0: both replicas share one
	// host here, not one container each) and any Host name, as behind a
	// proxy.
	c.apiEnv = proctest.Env("REDIS_URL="+c.redis.URL(), "AUTH_MODE=keys", "JOBS_DIR="+jobs, "HOST=127.0.0.1",
		"PORT=0", "ALLOWED_HOSTS=*", "LOG_LEVEL=info")
	// docker-compose's worker service; StartWorker adds a METRICS_ADDR of
	// its own to each.
	c.workerEnv = proctest.Env("REDIS_URL="+c.redis.URL(), "JOBS_DIR="+jobs, "LOG_LEVEL=info")

	ctx, cancel := context.WithTimeout(context.Background(), startLimit)
	defer cancel()
	for i := range 2 {
		p, base, err := proctest.StartAPI(ctx, dir, fmt.Sprintf("api-%d", i+1), binaries.api, c.apiEnv)
		if err != nil {
			t.Fatal(err)
		}
		c.own(p)
		c.apis, c.bases = append(c.apis, p), append(c.bases, base)
	}
	for i := range workerCount {
		p, err := proctest.StartWorker(ctx, dir, fmt.Sprintf("worker-%d", i+1), binaries.worker, c.workerEnv)
		if err != nil {
			t.Fatal(err)
		}
		c.workers = append(c.workers, c.own(p))
	}
	return c
}

// own has the test kill p at its end and show p's log if it fails.
func (c *cluster) own(p *proctest.Proc) *proctest.Proc {
	c.t.Cleanup(p.Kill)
	c.all = append(c.all, p)
	return p
}

// admin runs gusset-admin against the cluster's Redis and returns its
// stdout.
func (c *cluster) admin(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), startLimit)
	defer cancel()
	out, err := proctest.Output(ctx, binaries.admin, proctest.Env("REDIS_URL="+c.redis.URL()), args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// workspace creates a workspace and a key for it with gusset-admin, as an
// operator would, and returns the workspace's client. first is the api
// the client's first request goes to.
func (c *cluster) workspace(t *testing.T, name string, first int) *client {
	t.Helper()
	c.admin(t, "workspace", "create", name)
	key := strings.TrimSpace(c.admin(t, "key", "create", "--workspace", name, "--label", "cluster test"))
	if key == "" || strings.ContainsAny(key, " \n") {
		t.Fatalf("gusset-admin key create printed %q, want the key alone", key)
	}
	return &client{c: c, ws: name, key: key, next: first}
}

// metrics scrapes every live worker's /metrics.
func (c *cluster) metrics(ctx context.Context) (map[*proctest.Proc]proctest.Metrics, error) {
	out := map[*proctest.Proc]proctest.Metrics{}
	for _, w := range c.workers {
		if w.Exited() {
			continue
		}
		m, err := proctest.Scrape(ctx, c.http, w.Metrics)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", w.Name, err)
		}
		if !m.Has(inFlight) {
			return nil, fmt.Errorf("%s serves no %s", w.Name, inFlight)
		}
		out[w] = m
	}
	return out, nil
}

// completedBy returns each live worker's count of completed linear runs:
// the runs carry no worker name, so a worker's own metrics are what tell
// which process solved them.
func (c *cluster) completedBy(t *testing.T) map[*proctest.Proc]float64 {
	t.Helper()
	ms, err := c.metrics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[*proctest.Proc]float64{}
	for w, m := range ms {
		out[w] = m.Sum(durationCount, linearKind, outcomeDone)
	}
	return out
}

// busyWorker polls the workers' metrics until exactly one reports a run in
// flight, and returns it.
func (c *cluster) busyWorker(t *testing.T, limit time.Duration) *proctest.Proc {
	t.Helper()
	var busy []string
	deadline := time.Now().Add(limit)
	for {
		ms, err := c.metrics(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		busy = busy[:0]
		var one *proctest.Proc
		for w, m := range ms {
			if m.Sum(inFlight) > 0 {
				busy, one = append(busy, w.Name), w
			}
		}
		if len(busy) == 1 {
			return one
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v, workers solving a run: %v; want exactly one", limit, busy)
		}
		time.Sleep(pollEvery)
	}
}

// client is one workspace's client. It alternates its requests between
// the two apis, so that every step of its work crosses replicas (a job
// opened on one, its run started on the other, polled on both). Each
// client is used by one goroutine.
type client struct {
	c    *cluster
	ws   string
	key  string
	next int // the api of the next request
	// failovers are the requests sent again to the other api after a
	// connection error from a killed one.
	failovers []string
	// adopted are retried requests answered 409 because the lost first
	// try had taken effect (the job opened, the run started).
	adopted []string
}

// reply is one answered request.
type reply struct {
	status  int
	body    []byte
	api     int  // index of the api that answered
	retried bool // sent again after a connection error
}

// send sends a request (body may be nil) to the api next in turn. A
// connection error from an api the test has killed is a client's cue to
// retry on the other api, once; any other connection error is returned.
func (cl *client) send(ctx context.Context, method, path, ctype string, body []byte) (reply, error) {
	api := cl.next
	cl.next = 1 - cl.next
	retried := false
	for {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, method, cl.c.bases[api]+path, rd)
		if err != nil {
			return reply{}, err
		}
		req.Header.Set("Authorization", "Bearer "+cl.key)
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		res, err := cl.c.http.Do(req)
		if err == nil {
			b, rerr := io.ReadAll(res.Body)
			res.Body.Close()
			if rerr == nil {
				return reply{status: res.StatusCode, body: b, api: api, retried: retried}, nil
			}
			err = rerr
		}
		if retried || !cl.c.down[api].Load() || ctx.Err() != nil {
			return reply{}, fmt.Errorf("%s %s on api-%d: %w", method, path, api+1, err)
		}
		cl.failovers = append(cl.failovers, fmt.Sprintf("%s %s: %v", method, path, err))
		api, retried = 1-api, true
	}
}

// call sends body (nil: none) as JSON and decodes the answer into out
// (nil: ignored); any status but want is an error. A 409 to a retried
// request is an errRetryConflict, returned with the reply for the caller
// to judge.
func (cl *client) call(ctx context.Context, want int, method, path string, body, out any) (reply, error) {
	var b []byte
	ctype := ""
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			return reply{}, err
		}
		ctype = "application/json"
	}
	r, err := cl.send(ctx, method, path, ctype, b)
	if err != nil {
		return r, err
	}
	return r, cl.expect(r, want, method, path, out)
}

// errRetryConflict is a 409 to a request sent again after a connection
// error: the first try may have taken effect before the api died.
var errRetryConflict = errors.New("conflict on a retried request")

// expect checks r's status and decodes its body into out (nil: ignored).
func (cl *client) expect(r reply, want int, method, path string, out any) error {
	if r.status != want {
		if r.retried && r.status == http.StatusConflict {
			return fmt.Errorf("%w: %s %s on api-%d: %.400s", errRetryConflict, method, path, r.api+1, r.body)
		}
		return fmt.Errorf("%s %s on api-%d = %d, want %d: %.400s", method, path, r.api+1, r.status, want, r.body)
	}
	if out != nil {
		if err := json.Unmarshal(r.body, out); err != nil {
			return fmt.Errorf("decode %s %s: %v: %.300s", method, path, err, r.body)
		}
	}
	return nil
}

// upload opens a job file as the workspace's job (POST
// /job/new-from-template). A retried upload answered 409 (a job is
// already open) found the first try's job: nothing else opens jobs in
// this workspace, and the caller closed the previous one first.
func (cl *client) upload(ctx context.Context, file []byte) error {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	part, err := w.CreateFormFile("template", "grid.gsj")
	if err != nil {
		return err
	}
	_, _ = part.Write(file)
	if err := w.Close(); err != nil {
		return err
	}
	const path = "/job/new-from-template"
	r, err := cl.send(ctx, "POST", path, w.FormDataContentType(), b.Bytes())
	if err != nil {
		return err
	}
	err = cl.expect(r, http.StatusOK, "POST", path, nil)
	if errors.Is(err, errRetryConflict) && bytes.Contains(r.body, []byte("JOB_ALREADY_OPEN")) {
		cl.adopted = append(cl.adopted, "upload: "+string(r.body))
		return nil
	}
	return err
}

// closeJob closes the open job (idempotent: a retry is harmless).
func (cl *client) closeJob(ctx context.Context) error {
	_, err := cl.call(ctx, http.StatusOK, "POST", "/job/close", nil, nil)
	return err
}

// startRun starts a linear static run. A retried start answered 409 (an
// analysis in progress) found the run of the first try, which the client
// takes from the run list.
func (cl *client) startRun(ctx context.Context) (model.Run, error) {
	const path = "/job/analysis/static/run-linear"
	var run model.Run
	r, err := cl.call(ctx, http.StatusAccepted, "POST", path, nil, &run)
	if !errors.Is(err, errRetryConflict) || !bytes.Contains(r.body, []byte("ANALYSIS_IN_PROGRESS")) {
		return run, err
	}
	var runs []model.Run
	if _, err := cl.call(ctx, http.StatusOK, "GET", "/job/analysis/runs", nil, &runs); err != nil {
		return run, err
	}
	for _, x := range runs {
		if slices.Contains(underWay, x.Status) {
			cl.adopted = append(cl.adopted, fmt.Sprintf("run %s: %s", x.RunID, r.body))
			return x, nil
		}
	}
	return run, fmt.Errorf("POST %s retried: 409 %s, and no run under way in the list", path, r.body)
}

// waitRun polls the run until it finished. Every other poll reads the job
// status instead, as a client's screen would, so that the clients keep
// both apis busy with reads while runs are under way.
func (cl *client) waitRun(ctx context.Context, id string) (model.Run, error) {
	deadline := time.Now().Add(runLimit)
	for i := 0; ; i++ {
		if i%2 == 1 {
			if _, err := cl.status(ctx); err != nil {
				return model.Run{}, err
			}
		} else {
			var run model.Run
			if _, err := cl.call(ctx, http.StatusOK, "GET", "/job/analysis/runs/"+id, nil, &run); err != nil {
				return run, err
			}
			if run.Status.Finished() {
				return run, nil
			}
			if time.Now().After(deadline) {
				return run, fmt.Errorf("run %s not finished after %v: %s attempt %d, %s", id, runLimit, run.Status, run.Attempt,
					run.Progress.StatusText)
			}
		}
		time.Sleep(pollEvery)
	}
}

// jobStatus is the part of GET /job/status the tests read.
type jobStatus struct {
	Structure struct {
		Nodes   int64 `json:"nodes"`
		Members int64 `json:"members"`
	} `json:"structure"`
	Analysis struct {
		HasStaticResults bool `json:"hasStaticResults"`
	} `json:"analysis"`
	AccessMode string `json:"accessMode"`
}

func (cl *client) status(ctx context.Context) (jobStatus, error) {
	var st jobStatus
	_, err := cl.call(ctx, http.StatusOK, "GET", "/job/status", nil, &st)
	return st, err
}

// grid is one workspace's model: grid-n with a floor load nodeFz (N) at
// every node above the base, one load case.
type grid struct {
	n      int
	nodeFz float64
}

func (g grid) file() []byte { return gridjob.FileOf(g.n, 1, gridjob.Options{NodeFz: g.nodeFz}) }

// reactions are the support reactions of load case 1 in the job's force
// unit (kN): gridjob's loads are in equilibrium with them, so they follow
// from the model alone, and differ from one grid to another.
func (g grid) reactions() (fx, fz float64) {
	size := gridjob.Size(g.n)
	weight := gridn.Rho * gridn.Area * gridn.Bay * gridn.Gravity * float64(size.Members)
	free := float64(size.FreeNodes)
	return -gridn.Lateral * free / 1e3, (weight - g.nodeFz*free) / 1e3
}

// checkResults reads the workspace's static results and checks that they
// are those of g: one displacement row per node of grid-n, and the
// reactions g's loads call for.
func (cl *client) checkResults(ctx context.Context, g grid) error {
	var d struct {
		Results []model.NodeDisplacementRow `json:"results"`
	}
	if _, err := cl.call(ctx, http.StatusOK, "GET", "/job/query/analysis/static/node-displacements?loadCases=1", nil, &d); err != nil {
		return err
	}
	if want := gridjob.Size(g.n).Nodes; len(d.Results) != want {
		return fmt.Errorf("%d node displacement rows, want %d (grid-%d)", len(d.Results), want, g.n)
	}
	var s struct {
		Results []model.ReactionSummaryRow `json:"results"`
	}
	if _, err := cl.call(ctx, http.StatusOK, "GET", "/job/query/analysis/static/reaction-summary?loadCases=1", nil, &s); err != nil {
		return err
	}
	fx, fz := g.reactions()
	for _, r := range s.Results {
		if r.SummaryType != "Reaction" {
			continue
		}
		if !near(r.Fx, fx) || !near(r.Fz, fz) {
			return fmt.Errorf("reactions fx %.6g fz %.6g kN, want %.6g and %.6g for grid-%d with %g N per node", r.Fx, r.Fz, fx, fz, g.n, g.nodeFz)
		}
		return nil
	}
	return fmt.Errorf("no Reaction row in the reaction summary: %+v", s.Results)
}

// near compares a solved sum of reactions with its exact value: the
// residual of a direct solve is many orders below 1e-6 of it.
func near(got, want float64) bool { return math.Abs(got-want) <= 1e-6*math.Max(1, math.Abs(want)) }

// analyse is one workspace's round: open g's job, run it to its end and
// check the run and its results; it returns the finished run. underway
// (nil: none) counts the runs started and not yet seen finished.
func (cl *client) analyse(ctx context.Context, g grid, underway *atomic.Int64) (model.Run, error) {
	if err := cl.closeJob(ctx); err != nil {
		return model.Run{}, err
	}
	if err := cl.upload(ctx, g.file()); err != nil {
		return model.Run{}, err
	}
	run, err := cl.startRun(ctx)
	if err != nil {
		return run, err
	}
	if underway != nil {
		underway.Add(1)
	}
	run, err = cl.waitRun(ctx, run.RunID)
	if underway != nil {
		underway.Add(-1)
	}
	if err != nil {
		return run, err
	}
	if run.Status != model.RunCompleted {
		return run, fmt.Errorf("run %s ended %s (attempt %d): %s", run.RunID, run.Status, run.Attempt, run.ErrorMessage)
	}
	st, err := cl.status(ctx)
	if err != nil {
		return run, err
	}
	if !st.Analysis.HasStaticResults || st.AccessMode != "ReadWrite" || st.Structure.Nodes != int64(gridjob.Size(g.n).Nodes) {
		return run, fmt.Errorf("job status after run %s: %+v; want static results, ReadWrite and grid-%d's %d nodes",
			run.RunID, st, g.n, gridjob.Size(g.n).Nodes)
	}
	return run, cl.checkResults(ctx, g)
}

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
