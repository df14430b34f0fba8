//go:build cluster

// Cluster tests: the service wired as docker-compose wires it (one Redis,
// two gusset-api replicas sharing the jobs directory, three
// gusset-worker processes), in AUTH_MODE=keys with workspaces and keys
// made by the real gusset-admin, all as real processes on one
// redis-server. They take a few minutes and most of the machine, so `make
// test-cluster` runs them, not `make test`.
package main_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
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
	// three, so that a stopped worker still leaves two to take its run
	// (docker-compose starts one and scales with --scale worker=N).
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
	linearKind  = `kind="` + string(model.AnalysisType("LinearStaticAnalysis")) + `"`
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
