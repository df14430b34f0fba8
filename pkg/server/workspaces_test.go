package server

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/auth"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/logtest"
)

// keyedStack is a service in AUTH_MODE=keys with the workspaces alpha
// and beta, one key each.
type keyedStack struct {
	*stack
	jobsDir      string
	logs         *logtest.Buffer
	alpha, beta  *stack // the same service, as each workspace's client
	keyA, keyB   string
	keyRecordIDA string
}

func startKeyed(t *testing.T) *keyedStack {
	t.Helper()
	return startKeyedWith(t, Config{})
}

// startKeyedWith is startKeyed with cfg (its auth mode and jobs
// directory are set here).
func startKeyedWith(t *testing.T, cfg Config) *keyedStack {
	t.Helper()
	jobs := t.TempDir()
	logs := &logtest.Buffer{}
	cfg.AuthMode, cfg.JobsDir = AuthKeys, jobs
	s := startStackWith(t, 2, cfg, logs)
	svc := &auth.Service{Store: redisstore.NewAuth(s.redis.Client(t))}
	ctx := context.Background()
	k := &keyedStack{stack: s, jobsDir: jobs, logs: logs}
	for _, ws := range []string{"alpha", "beta"} {
		if _, err := svc.CreateWorkspace(ctx, ws); err != nil {
			t.Fatal(err)
		}
	}
	var rec auth.Key
	var err error
	if k.keyA, rec, err = svc.CreateKey(ctx, "alpha", "alice"); err != nil {
		t.Fatal(err)
	}
	k.keyRecordIDA = rec.ID
	if k.keyB, _, err = svc.CreateKey(ctx, "beta", "bob"); err != nil {
		t.Fatal(err)
	}
	a, b := *s, *s
	a.key, b.key = k.keyA, k.keyB
	k.alpha, k.beta = &a, &b
	return k
}

// alphaMarker is in everything of alpha's that a leak could show.
const alphaMarker = "ALPHA-SECRET"

// Two workspaces, each with its own key, job, run, results, error log
// and jobs directory: no request of one reaches the other's, and none
// without a key reaches anything.
func TestWorkspacesKeepApart(t *testing.T) {
	k := startKeyed(t)
	a, b := k.alpha, k.beta

	// Each workspace opens its own job; alpha's carries the marker.
	proppedCantilever(a)
	a.must(200, "PATCH", "/job/headings", map[string]any{"projectHeading": alphaMarker + " project", "heading": alphaMarker})
	a.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": 5, "title": alphaMarker + " case"})
	a.must(201, "POST", "/job/loads/member-distributed-loads", map[string]any{"loadCase": 5, "member": 1,
		"axes": "GlobalInclined", "fyStart": -3 * pcW, "fyFinish": -3 * pcW})
	a.must(201, "POST", "/job/save", map[string]any{"filePath": "alpha-secret"})
	if r := a.call("POST", "/job/save", map[string]any{"filePath": "../" + alphaMarker}); r.status != 400 {
		t.Fatalf("alpha's bad save = %d, want 400 (it goes to alpha's error log)", r.status)
	}
	proppedCantilever(b)
	b.must(200, "PATCH", "/job/headings", map[string]any{"heading": "beta's own"})

	// Both run at once: each workspace has its own analysis lock, so
	// neither start is refused by the other's run.
	runA, runB := a.run(nil), b.run(nil)
	if done := a.wait(runA.RunID); done.Status != model.RunCompleted {
		t.Fatalf("alpha's run %s: %s", done.Status, done.ErrorMessage)
	}
	if done := b.wait(runB.RunID); done.Status != model.RunCompleted {
		t.Fatalf("beta's run %s: %s", done.Status, done.ErrorMessage)
	}
	if b.call("GET", "/job/analysis/runs/"+runA.RunID, nil).status != 404 {
		t.Error("beta reads alpha's run by its id")
	}
	before := alphaState(t, a)
	if !strings.Contains(before, alphaMarker) {
		t.Fatalf("alpha's state lacks the marker: %s", before)
	}

	ops := operations(t, a)
	if len(ops) < 300 {
		t.Fatalf("only %d operations in the OpenAPI document", len(ops))
	}
	anon := *k.stack
	anon.key = ""
	params := map[string]string{"runId": runA.RunID, "direction": "Tx", "elementType": "Member", "file": "viewer/main.js"}
	leaks, open := 0, 0
	for _, op := range ops {
		path := fillParams(op.path, params)
		// No key: 401, but for the probes and the metrics.
		r := anon.send(opRequest(t, op.method, k.base, path))
		// The probes, the metrics, the browser pages and their files, and
		// the API's own description hold no workspace's data.
		exempt := path == "/healthz" || path == "/readyz" || path == "/metrics" || path == "/" || path == "/viewer" ||
			path == "/docs" || strings.HasPrefix(path, "/ui/") || path == "/api/v1/openapi.json"
		switch {
		case exempt && r.status == 401:
			t.Errorf("%s %s without a key = 401; probes, scrapes, pages and the API description need none", op.method, path)
		case !exempt && (r.status != 401 || r.errorCode(t) != "UNAUTHORIZED" || r.header.Get("WWW-Authenticate") == ""):
			t.Errorf("%s %s without a key = %d %s, want 401 UNAUTHORIZED with WWW-Authenticate", op.method, path, r.status, r.body)
			open++
		}
		// Beta's key: whatever it answers, nothing of alpha's.
		r = b.send(opRequest(t, op.method, k.base, path))
		// (Alpha's run id is not a marker: beta sent it, and a 404 may
		// repeat it.)
		if body := string(r.body); strings.Contains(body, alphaMarker) || strings.Contains(body, "alpha-secret") {
			t.Errorf("%s %s with beta's key shows alpha's data: %d %.300s", op.method, path, r.status, body)
			leaks++
		}
	}
	t.Logf("%d operations tried without a key and with beta's: %d open, %d leaks", len(ops), open, leaks)

	// Nothing beta did reached alpha's job, runs or error log.
	if after := alphaState(t, a); after != before {
		t.Errorf("beta's requests changed alpha's workspace:\nbefore %s\nafter  %s", before, after)
	}

	// Metrics and logs name the workspace, never the key.
	metrics := string(a.must(200, "GET", strings.TrimSuffix(a.base, "/api/v1")+"/metrics", nil).body)
	if !strings.Contains(metrics, `workspace="alpha"`) || !strings.Contains(metrics, `workspace="beta"`) {
		t.Error("the request metrics do not carry the workspaces")
	}
	logs := k.logs.String()
	if !strings.Contains(logs, `"workspace":"alpha"`) {
		t.Error("the request log does not carry the workspace")
	}
	for _, key := range []string{k.keyA, k.keyB} {
		secret := key[len(key)-20:]
		if strings.Contains(metrics, secret) || strings.Contains(logs, secret) {
			t.Errorf("a key (…%s) is in the metrics or the logs", secret)
		}
	}
}

// alphaState is what beta must not change: alpha's job status, headings,
// load cases, results, runs and error log.
func alphaState(t *testing.T, a *stack) string {
	t.Helper()
	var b strings.Builder
	for _, p := range []string{"/job/headings", "/job/loads/load-cases", "/job/analysis/runs", "/job/errors",
		"/job/query/analysis/static/node-displacements?loadCases=5"} {
		r := a.must(200, "GET", p, nil)
		b.WriteString(p + " " + volatile.ReplaceAllString(string(r.body), "") + "\n")
	}
	var st map[string]any
	a.must(200, "GET", "/job/status", nil).decode(t, &st)
	delete(st, "serverTime")
	js, _ := json.Marshal(st)
	b.Write(js)
	return b.String()
}

// volatile matches the parts of a reply that change by themselves (the
// time a reply was made).
var volatile = regexp.MustCompile(`"(timestamp|serverTime)":"[^"]*"`)

type operation struct{ method, path string }

// operations lists every operation of the OpenAPI document.
func operations(t *testing.T, s *stack) []operation {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	s.must(200, "GET", "/openapi.json", nil).decode(t, &doc)
	var out []operation
	for p, ms := range doc.Paths {
		for m := range ms {
			out = append(out, operation{strings.ToUpper(m), p})
		}
	}
	// Reads first, then writes, deletes last: every read sees beta's job
	// still open, and the deletes cannot empty it before the reads ran.
	rank := map[string]int{"GET": 0, "POST": 1, "PUT": 1, "PATCH": 1, "DELETE": 2}
	sort.Slice(out, func(i, j int) bool {
		if rank[out[i].method] != rank[out[j].method] {
			return rank[out[i].method] < rank[out[j].method]
		}
		return out[i].path+out[i].method < out[j].path+out[j].method
	})
	return out
}

var pathParam = regexp.MustCompile(`\{([^}]+)\}`)

// fillParams puts values into an OpenAPI path: params by name, else 1.
func fillParams(p string, params map[string]string) string {
	return pathParam.ReplaceAllStringFunc(p, func(m string) string {
		if v, ok := params[m[1:len(m)-1]]; ok {
			return v
		}
		return "1"
	})
}

// opRequest builds a request for an operation: an empty JSON object as
// the body of a write. base is the API's base URL; the path is absolute.
func opRequest(t *testing.T, method, base, path string) *http.Request {
	t.Helper()
	root := strings.TrimSuffix(base, "/api/v1")
	var body *strings.Reader
	if method == "GET" || method == "DELETE" {
		body = strings.NewReader("")
	} else {
		body = strings.NewReader("{}")
	}
	req, err := http.NewRequest(method, root+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if body.Len() > 0 {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// A file saved in one workspace is not in the other's jobs directory, and
// no path leads there: not "..", not an absolute path, not a link.
func TestWorkspaceFilesKeepApart(t *testing.T) {
	k := startKeyed(t)
	a, b := k.alpha, k.beta
	a.must(200, "POST", "/job/new", nil)
	a.must(200, "PATCH", "/job/headings", map[string]any{"heading": alphaMarker})
	a.must(201, "POST", "/job/save", map[string]any{"filePath": "alpha-secret"})
	saved := filepath.Join(k.jobsDir, "alpha", "alpha-secret.gsj")
	if _, err := os.Stat(saved); err != nil {
		t.Fatalf("alpha's save is not in JOBS_DIR/alpha/: %v", err)
	}
	// Beta's directory exists once beta touches a file; links are put in
	// it as an operator (or another process) could.
	b.must(200, "GET", "/file/status?filePath=none.gsj", nil)
	betaDir := filepath.Join(k.jobsDir, "beta")
	if err := os.Symlink(saved, filepath.Join(betaDir, "link.gsj")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(k.jobsDir, "alpha"), filepath.Join(betaDir, "dirlink")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       int
	}{
		{"same name", "alpha-secret.gsj", 404},
		{"dot-dot", "../alpha/alpha-secret.gsj", 400},
		{"absolute", saved, 400},
		{"file link", "link.gsj", 400},
		{"folder link", "dirlink/alpha-secret.gsj", 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := b.call("POST", "/job/open", map[string]any{"filePath": tt.path})
			if r.status != tt.want {
				t.Errorf("beta opens %q = %d %s, want %d", tt.path, r.status, r.body, tt.want)
			}
			for _, p := range []string{"/file/status", "/file/preview"} {
				r := b.call("GET", p+"?filePath="+tt.path, nil)
				if strings.Contains(string(r.body), alphaMarker) || (r.status == 200 && strings.Contains(string(r.body), `"Ready`)) {
					t.Errorf("%s of %q from beta = %d %s", p, tt.path, r.status, r.body)
				}
			}
		})
	}
	// Beta saving under the same name makes its own file.
	b.must(200, "POST", "/job/new", nil)
	b.must(201, "POST", "/job/save", map[string]any{"filePath": "alpha-secret"})
	a.must(200, "POST", "/job/close", nil)
	var opened struct {
		Headings model.Headings `json:"headings"`
	}
	a.must(200, "POST", "/job/open", map[string]any{"filePath": "alpha-secret.gsj"}).decode(t, &opened)
	if opened.Headings.Heading != alphaMarker {
		t.Errorf("alpha's file was replaced by beta's save: heading %q", opened.Headings.Heading)
	}
}

// A revoked key stops working at the next request; the other key goes on.
func TestRevokedKeyStopsAtOnce(t *testing.T) {
	k := startKeyed(t)
	k.alpha.must(200, "POST", "/job/new", nil)
	svc := &auth.Service{Store: redisstore.NewAuth(k.redis.Client(t))}
	if _, err := svc.Revoke(context.Background(), k.keyRecordIDA); err != nil {
		t.Fatal(err)
	}
	r := k.alpha.call("GET", "/service/info", nil)
	if r.status != 401 || !strings.Contains(string(r.body), "revoked") {
		t.Errorf("revoked key = %d %s, want 401 saying it was revoked", r.status, r.body)
	}
	k.beta.must(200, "GET", "/service/info", nil)
	// Both header forms, a wrong scheme and a mangled key.
	req := func(h, v string) *http.Request {
		r, _ := http.NewRequest("GET", k.base+"/service/info", nil)
		r.Header.Set(h, v)
		return r
	}
	anon := *k.stack
	tests := []struct {
		name string
		req  *http.Request
		want int
	}{
		{"X-API-Key", req("X-API-Key", k.keyB), 200},
		{"bearer lower case", req("Authorization", "bearer "+k.keyB), 200},
		{"basic scheme", req("Authorization", "Basic "+k.keyB), 401},
		{"one character changed", req("X-API-Key", k.keyB[:len(k.keyB)-1]+flip(k.keyB[len(k.keyB)-1])), 401},
		{"truncated", req("X-API-Key", k.keyB[:len(k.keyB)-1]), 401},
		{"revoked in the other header", req("X-API-Key", k.keyA), 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if r := anon.send(tt.req); r.status != tt.want {
				t.Errorf("= %d %s, want %d", r.status, r.body, tt.want)
			}
		})
	}
}

// flip returns a base64url character other than c.
func flip(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}
