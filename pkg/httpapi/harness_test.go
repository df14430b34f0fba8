package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/analysis/kinds"
	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/session"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/logtest"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// env is one API served over real HTTP on a free loopback port, backed by
// its own redis-server and jobs directory.
type env struct {
	t    testing.TB
	base string
	dir  string
	api  *httpapi.API
	jobs *redisstore.Jobs
	sess *session.Service
	rdb  *redistest.Server
	logs *logtest.Buffer
}

type envOptions struct {
	bodyLimit      int
	recoveryDelay  time.Duration
	maxJobBytes    int64
	requestTimeout time.Duration
	// allowedOrigins and allowedHosts are ALLOWED_ORIGINS and
	// ALLOWED_HOSTS as the environment gives them.
	allowedOrigins, allowedHosts string
	// beforeServe may add routes (e.g. one that panics) to the app.
	beforeServe func(a *httpapi.API)
	// hideWorkspaceLabels is METRICS_WORKSPACE_LABELS=false.
	hideWorkspaceLabels bool
	// storage reports how full the store is, for /readyz.
	storage func(ctx context.Context) (httpapi.Storage, error)
}

func newEnv(t testing.TB, opt envOptions) *env {
	t.Helper()
	origins, err := httpapi.ParseAllowedOrigins(opt.allowedOrigins)
	if err != nil {
		t.Fatal(err)
	}
	hosts, err := httpapi.ParseAllowedHosts(opt.allowedHosts)
	if err != nil {
		t.Fatal(err)
	}
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	dir, err := jobfile.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	jobs := redisstore.NewJobs(rdb, editor.Collections())
	mod := redisstore.NewModel(rdb)
	ed := editor.New(mod, jobs)
	sess := session.New(jobs, dir, session.Options{RecoveryDelay: opt.recoveryDelay, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		CheckModel: ed.CheckSnapshot, CheckAnalysis: kinds.StandardKinds().CheckSettings,
		PrepareSave: kinds.StandardKinds().PrepareSave, MaxJobBytes: opt.maxJobBytes})
	logs := &logtest.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	ed.Touched = sess.Touched
	st := editor.NewStructure(ed)
	api := httpapi.New(httpapi.Config{Session: sess, Model: mod, Structure: st, Loads: editor.NewLoads(ed, st),
		Ready: jobs.Ping, BodyLimit: opt.bodyLimit, RequestTimeout: opt.requestTimeout, Log: log,
		AllowedOrigins: origins, AllowedHosts: hosts, HideWorkspaceLabels: opt.hideWorkspaceLabels, Storage: opt.storage})
	if opt.beforeServe != nil {
		opt.beforeServe(api)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = api.App().Listener(ln) }()
	t.Cleanup(func() {
		_ = api.App().ShutdownWithTimeout(5 * time.Second)
		sess.Flush()
	})
	return &env{t: t, base: "http://" + ln.Addr().String() + "/api/v1", dir: dir.Root(), api: api, jobs: jobs, sess: sess, rdb: srv, logs: logs}
}

// patience is how long a test waits for what must happen before it fails
// as hung: a safety net, never a speed target (those are benchmarks), so
// generous for a loaded 2-core machine.
const patience = 2 * time.Minute

// poll waits until cond holds, polling every 2 ms, and fails tb after
// patience.
func poll(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out after %v waiting until %s", patience, what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// resp is a finished HTTP exchange.
type resp struct {
	status int
	header http.Header
	body   []byte
}

// decode unmarshals the body into v, failing the test on error.
func (r resp) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

// errBody decodes the body as an ErrorResponse and checks its invariants.
func (r resp) errBody(t testing.TB) httpapi.ErrorResponse {
	t.Helper()
	var e httpapi.ErrorResponse
	r.decode(t, &e)
	if e.Status != r.status || e.ErrorCode == "" || e.Detail == "" || len(e.Errors) == 0 || e.Title == "" || e.Source == "" {
		t.Fatalf("not a complete ErrorResponse for status %d: %s", r.status, r.body)
	}
	return e
}

// raw sends a request with an explicit body and content type.
func (e *env) raw(method, path, contentType string, body []byte) resp {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	url := e.base + path
	if len(path) > 0 && path[0] != '/' {
		url = path
	}
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return do(e.t, http.DefaultClient, req)
}

// do sends req with c and reads the whole answer.
func do(t testing.TB, c *http.Client, req *http.Request) resp {
	t.Helper()
	res, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp{status: res.StatusCode, header: res.Header, body: b}
}

// do sends v as JSON (no body when v is nil).
func (e *env) do(method, path string, v any) resp {
	e.t.Helper()
	if v == nil {
		return e.raw(method, path, "", nil)
	}
	b, err := json.Marshal(v)
	if err != nil {
		e.t.Fatal(err)
	}
	return e.raw(method, path, "application/json", b)
}

// must sends the request and fails unless the status is want.
func (e *env) must(want int, method, path string, v any) resp {
	e.t.Helper()
	r := e.do(method, path, v)
	if r.status != want {
		e.t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.status, want, r.body)
	}
	return r
}

// wantError sends the request and checks the status and errorCode.
func (e *env) wantError(status int, code, method, path string, v any) httpapi.ErrorResponse {
	e.t.Helper()
	r := e.do(method, path, v)
	if r.status != status {
		e.t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.status, status, r.body)
	}
	er := r.errBody(e.t)
	if er.ErrorCode != code {
		e.t.Fatalf("%s %s: errorCode %s, want %s: %s", method, path, er.ErrorCode, code, r.body)
	}
	return er
}
