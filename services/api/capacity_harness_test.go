//go:build capacity

// The capacity suite (tag capacity, `make test-capacity`): each finding of
// the capacity review is an HTTP scenario against real gusset-api and
// gusset-worker processes on a real redis-server, in AUTH_MODE=keys with
// three workspaces: "a" (the one that misbehaves) and the bystanders "b"
// and "c" (TestCapacityCombined loops b's session while a's scenarios use
// c as their bystander).
//
// The scenarios drive the binaries only over HTTP, so they run against
// any build: CAPACITY_BIN_DIR names a directory holding api, worker and
// admin binaries (go build -o DIR/ ./services/api ./services/worker
// ./services/admin) to test instead of the tree's own, which is how a
// finding is shown to fail on the build before its fix.
package main_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/testutil/proctest"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// capStartLimit bounds a build and a start-up, generous for a loaded
// machine.
const capStartLimit = 3 * time.Minute

// capBins are the binaries under test: the tree's own, built once per
// test binary, or those in CAPACITY_BIN_DIR.
var capBins struct {
	once                    sync.Once
	err                     error
	dir, api, worker, admin string
}

// capBinaries returns the directory and paths of the binaries under test.
func capBinaries(t *testing.T) (dir, api, worker, admin string) {
	t.Helper()
	capBins.once.Do(func() {
		if d := os.Getenv("CAPACITY_BIN_DIR"); d != "" {
			capBins.dir = d
		} else {
			d, err := os.MkdirTemp("", "gusset-capacity-")
			if err != nil {
				capBins.err = err
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), capStartLimit)
			defer cancel()
			capBins.dir = d
			// Build names each binary after its directory.
			capBins.err = proctest.Build(ctx, d, ".", "../worker", "../admin")
		}
		capBins.api = filepath.Join(capBins.dir, "api")
		capBins.worker = filepath.Join(capBins.dir, "worker")
		capBins.admin = filepath.Join(capBins.dir, "admin")
	})
	if capBins.err != nil {
		t.Fatal(capBins.err)
	}
	return capBins.dir, capBins.api, capBins.worker, capBins.admin
}

// capOptions shape a capacity stack.
type capOptions struct {
	// Workers is the number of gusset-worker processes (default 1).
	Workers int
	// APIEnv and WorkerEnv are extra variables (KEY=value) of the api and
	// of every worker.
	APIEnv, WorkerEnv []string
	// RedisArgs are extra redis-server arguments ("--maxmemory", "16mb");
	// with any, the stack runs on one redis-server whatever
	// GUSSET_TEST_REDIS says.
	RedisArgs []string
	// WorkerHardLimit, when positive, is memory in bytes that no worker
	// may exceed and live (capacity_memlimit_test.go): what a container's
	// limit does to a worker that takes more.
	WorkerHardLimit int64
}

// capStack is a redis-server, one gusset-api and its workers, with the
// workspaces A and B and a key for each.
type capStack struct {
	t       *testing.T
	redis   *redistest.Server
	api     *proctest.Proc
	base    string
	workers []*proctest.Proc
	keys    map[string]string // workspace → key
	jobs    string            // JOBS_DIR
	http    *http.Client
}

// startCapStack starts a capacity stack; the test stops it at its end.
func startCapStack(t *testing.T, o capOptions) *capStack {
	t.Helper()
	dir, apiBin, workerBin, adminBin := capBinaries(t)
	s := &capStack{t: t, keys: map[string]string{}, jobs: t.TempDir(), http: &http.Client{Timeout: 5 * time.Minute}}
	if len(o.RedisArgs) > 0 {
		s.redis = redistest.StartSingleArgs(t, o.RedisArgs...)
	} else {
		s.redis = redistest.Start(t)
	}
	ctx, cancel := context.WithTimeout(context.Background(), capStartLimit)
	defer cancel()
	adminEnv := proctest.Env("REDIS_URL=" + s.redis.URL())
	for _, ws := range []string{"a", "b", "c"} {
		if _, err := proctest.Output(ctx, adminBin, adminEnv, "workspace", "create", ws); err != nil {
			t.Fatal(err)
		}
		key, err := proctest.Output(ctx, adminBin, adminEnv, "key", "create", "--workspace", ws, "--label", "capacity")
		if err != nil {
			t.Fatal(err)
		}
		s.keys[ws] = strings.TrimSpace(key)
	}
	env := append([]string{"REDIS_URL=" + s.redis.URL(), "AUTH_MODE=keys", "JOBS_DIR=" + s.jobs, "HOST=127.0.0.1",
		"PORT=0", "LOG_LEVEL=warn"}, o.APIEnv...)
	api, base, err := proctest.StartAPI(ctx, dir, "api", apiBin, proctest.Env(env...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(api.Kill)
	s.api, s.base = api, base
	n := max(o.Workers, 1)
	for i := range n {
		wenv := append([]string{"REDIS_URL=" + s.redis.URL(), "JOBS_DIR=" + s.jobs, "LOG_LEVEL=warn"}, o.WorkerEnv...)
		w, err := proctest.StartWorker(ctx, dir, fmt.Sprintf("worker-%d", i+1), workerBin, proctest.Env(wenv...))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Kill)
		if o.WorkerHardLimit > 0 {
			hardMemoryLimit(t, w, o.WorkerHardLimit)
		}
		s.workers = append(s.workers, w)
	}
	return s
}

// admin runs gusset-admin with args on the stack's Redis and returns
// what it printed on stdout.
func (s *capStack) admin(args ...string) (string, error) {
	s.t.Helper()
	_, _, _, adminBin := capBinaries(s.t)
	ctx, cancel := context.WithTimeout(context.Background(), capStartLimit)
	defer cancel()
	return proctest.Output(ctx, adminBin, proctest.Env("REDIS_URL="+s.redis.URL()), args...)
}

// do sends a request as workspace ws and returns the status and the body.
// A transport error (the api gone, a reset) is status 0 with the error
// as the body, for the scenario to judge.
func (s *capStack) do(ws, method, path string, body io.Reader, contentType string) (int, []byte) {
	req, err := http.NewRequest(method, s.base+path, body)
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.keys[ws])
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := s.http.Do(req)
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// json sends a JSON body (nil for none) as workspace ws.
func (s *capStack) json(ws, method, path, body string) (int, []byte) {
	var rd io.Reader
	ctype := ""
	if body != "" {
		rd, ctype = bytes.NewReader([]byte(body)), "application/json"
	}
	return s.do(ws, method, path, rd, ctype)
}

// must sends a JSON body and fails the test on any status but want.
func (s *capStack) must(want int, ws, method, path, body string) []byte {
	s.t.Helper()
	st, b := s.json(ws, method, path, body)
	if st != want {
		s.t.Fatalf("%s %s %s: %d %s, want %d", ws, method, path, st, b, want)
	}
	return b
}

// alive fails the test when a service process has exited.
func (s *capStack) alive() {
	s.t.Helper()
	for _, p := range append([]*proctest.Proc{s.api}, s.workers...) {
		if p.Exited() {
			s.t.Fatalf("%s exited (%v); its log ends:\n%s", p.Name, p.Cmd.ProcessState, p.LogTail(20))
		}
	}
}

// rss returns the resident memory of p in bytes.
func rss(t *testing.T, p *proctest.Proc) int64 {
	t.Helper()
	return procStatus(t, p, "VmRSS:")
}

// poll calls ok until it reports true or limit passes.
func poll(t *testing.T, limit time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
