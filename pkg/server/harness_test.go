package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// stack is the service as deployed, in one test process: a real
// redis-server, the API on a free loopback port and asynq workers.
type stack struct {
	t     testing.TB
	base  string
	redis *redistest.Server
	// key, when set, goes with every request (Authorization: Bearer).
	key string
}

// startStack starts the API and n workers.
func startStack(t testing.TB, workers int) *stack {
	t.Helper()
	return startStackWith(t, workers, Config{}, io.Discard)
}

// startStackWith starts the API and n workers with cfg (its port, host
// and, when empty, jobs directory and job-file keys are set here),
// logging to logs.
func startStackWith(t testing.TB, workers int, cfg Config, logs io.Writer) *stack {
	t.Helper()
	if cfg.JobfileKeys.Empty() && !cfg.KeepJobfileKeys {
		// As a deployment sets JOBFILE_KEYS: saved files reopen with
		// their results.
		cfg.JobfileKeys = testJobfileKeys(t)
	}
	return startStackKeys(t, workers, cfg, logs)
}

// startStackKeys is startStackWith with cfg's job-file keys as they are,
// none included.
func startStackKeys(t testing.TB, workers int, cfg Config, logs io.Writer) *stack {
	t.Helper()
	return startStackOn(t, redistest.Start(t), workers, cfg, logs)
}

// startStackOn is startStackKeys on a Redis the test started itself (with
// arguments of its own).
func startStackOn(t testing.TB, srv *redistest.Server, workers int, cfg Config, logs io.Writer) *stack {
	t.Helper()
	rdb := srv.Client(t)
	log := slog.New(slog.NewJSONHandler(logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Port, cfg.Host = "0", "127.0.0.1"
	if cfg.JobsDir == "" {
		cfg.JobsDir = t.TempDir()
	}
	baseURL := make(chan string, 1)
	done := make(chan error, 1+workers)
	// One registry, as in the standalone: the API serves the metrics the
	// first worker records.
	reg := newRegistry()
	go func() { done <- ServeAPI(ctx, cfg, rdb, log, reg, func(b string) { baseURL <- b }) }()
	for i := range workers {
		// An interface, so that nil stays nil (a nil *Registry would not).
		var wreg prometheus.Registerer = reg
		if i > 0 {
			wreg = nil
		}
		go func() { done <- RunWorker(ctx, cfg, rdb, log, wreg) }()
	}
	t.Cleanup(func() {
		cancel()
		for range 1 + workers {
			<-done
		}
	})
	select {
	case b := <-baseURL:
		return &stack{t: t, base: b, redis: srv}
	case err := <-done:
		t.Fatalf("api stopped: %v", err)
	case <-time.After(patience):
		t.Fatal("api did not start")
	}
	return nil
}

// reply is one HTTP exchange.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

// errorCode returns the errorCode of an ErrorResponse body.
func (r reply) errorCode(t testing.TB) string {
	t.Helper()
	var e struct {
		ErrorCode string `json:"errorCode"`
		Detail    string `json:"detail"`
	}
	r.decode(t, &e)
	return e.ErrorCode
}

// call sends body (nil: none) as JSON.
func (s *stack) call(method, path string, body any) reply {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			s.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	url := s.base + path
	if strings.HasPrefix(path, "http") {
		url = path
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return s.send(req)
}

func (s *stack) send(req *http.Request) reply {
	s.t.Helper()
	if s.key != "" && req.Header.Get("Authorization") == "" {
		req.Header.Set("Authorization", "Bearer "+s.key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return reply{status: res.StatusCode, header: res.Header, body: b}
}

// must sends a request and fails the test unless it answers want.
func (s *stack) must(want int, method, path string, body any) reply {
	s.t.Helper()
	r := s.call(method, path, body)
	if r.status != want {
		s.t.Fatalf("%s %s = %d, want %d: %s", method, path, r.status, want, r.body)
	}
	return r
}

// upload opens a job file as a new job (POST /job/new-from-template).
func (s *stack) upload(file []byte) {
	s.t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	part, err := w.CreateFormFile("template", "job.gsj")
	if err != nil {
		s.t.Fatal(err)
	}
	_, _ = part.Write(file)
	_ = w.Close()
	req, _ := http.NewRequest("POST", s.base+"/job/new-from-template", &b)
	req.Header.Set("Content-Type", w.FormDataContentType())
	if r := s.send(req); r.status != 200 {
		s.t.Fatalf("upload job: %d %s", r.status, r.body)
	}
}

// run starts a linear static run with body (nil: no overrides).
func (s *stack) run(body any) model.Run {
	s.t.Helper()
	var run model.Run
	s.must(202, "POST", "/job/analysis/static/run-linear", body).decode(s.t, &run)
	return run
}

// patience is how long a test waits for what must happen before it fails
// as hung: a safety net against a run, a browser or a process that never
// ends, never a speed target (those are benchmarks), so generous for a
// loaded 2-core machine, where the longest wait (grid-25 reaching its
// factorization, a page drawn in Chromium) takes well under a minute.
const patience = 3 * time.Minute

// wait polls a run until it has finished, or fails after patience.
func (s *stack) wait(id string) model.Run {
	s.t.Helper()
	return s.waitUpTo(id, patience)
}

// waitUpTo is wait with a limit of its own, for the benchmarks' large
// models.
func (s *stack) waitUpTo(id string, limit time.Duration) model.Run {
	s.t.Helper()
	deadline := time.Now().Add(limit)
	for {
		var run model.Run
		s.must(200, "GET", "/job/analysis/runs/"+id, nil).decode(s.t, &run)
		if run.Status.Finished() {
			return run
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("run %s still %s after %v: %+v", id, run.Status, limit, run.Progress)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitFor polls a run until cond holds, or fails after patience.
func (s *stack) waitFor(id string, what string, cond func(model.Run) bool) model.Run {
	s.t.Helper()
	limit := patience
	deadline := time.Now().Add(limit)
	for {
		var run model.Run
		s.must(200, "GET", "/job/analysis/runs/"+id, nil).decode(s.t, &run)
		if cond(run) {
			return run
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("run %s: not %s after %v: %s %+v", id, what, limit, run.Status, run.Progress)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// envelope is a result query body.
type envelope[T any] struct {
	Results  []T                   `json:"results"`
	Warnings model.ResultsWarnings `json:"warnings"`
}

// query reads a result query into rows.
func query[T any](s *stack, path string) envelope[T] {
	s.t.Helper()
	var e envelope[T]
	s.must(200, "GET", "/job/query/analysis/static/"+path, nil).decode(s.t, &e)
	return e
}

func fmtPath(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// rawRequest builds a request with a JSON body given as text.
func (s *stack) rawRequest(method, path, body string) *http.Request {
	s.t.Helper()
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return req
}

// startStackDir is startStack with a jobs directory the test can read;
// GUSSET_TEST_LOG set shows the services' logs.
func startStackDir(t *testing.T, workers int) (*stack, string) {
	t.Helper()
	var logw io.Writer = io.Discard
	if os.Getenv("GUSSET_TEST_LOG") != "" {
		logw = os.Stderr
	}
	dir := t.TempDir()
	return startStackWith(t, workers, Config{JobsDir: dir}, logw), dir
}

// uploadReply posts a job file to new-from-template and returns the reply.
func (s *stack) uploadReply(file []byte) reply {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	part, _ := w.CreateFormFile("template", "job.gsj")
	_, _ = part.Write(file)
	_ = w.Close()
	req, _ := http.NewRequest("POST", s.base+"/job/new-from-template", &b)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return s.send(req)
}

// isErrorResponse reports whether r carries an ErrorResponse with a
// message and at least one entry in errors.
func isErrorResponse(r reply) bool {
	var e struct {
		ErrorCode string `json:"errorCode"`
		Detail    string `json:"detail"`
		Errors    []any  `json:"errors"`
	}
	return json.Unmarshal(r.body, &e) == nil && e.ErrorCode != "" && e.Detail != "" && len(e.Errors) > 0
}
