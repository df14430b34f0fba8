package httpapi_test

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/httpapi"
)

// Every answer carries the security headers: the pages and their files a
// policy that lets them load from the service only (and the viewer's
// inline import map by its hash), everything else a policy that lets
// nothing run; framing is refused everywhere. Errors, the server's own
// included, carry them too.
func TestSecurityHeaders(t *testing.T) {
	e := newEnv(t, envOptions{})
	root := strings.TrimSuffix(e.base, "/api/v1")
	const apiPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
	for _, c := range []struct {
		name, method, url string
		header            map[string]string
		page              bool
	}{
		{"landing page", "GET", root + "/", nil, true},
		{"viewer", "GET", root + "/viewer", nil, true},
		{"docs", "GET", root + "/docs", nil, true},
		{"page file", "GET", root + "/ui/viewer/main.js", nil, true},
		{"missing page file (an ErrorResponse)", "GET", root + "/ui/nothing.js", nil, false},
		{"API answer", "GET", e.base + "/service/info", nil, false},
		{"API error", "GET", e.base + "/job", nil, false},
		{"unknown route", "GET", e.base + "/nowhere", nil, false},
		{"openapi.json", "GET", e.base + "/openapi.json", nil, false},
		{"metrics", "GET", root + "/metrics", nil, false},
		{"probe", "GET", root + "/healthz", nil, false},
		{"headers too long", "GET", e.base + "/service/info", map[string]string{"X-Long": strings.Repeat("a", httpapi.MaxHeaderBytes)}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, err := http.NewRequest(c.method, c.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range c.header {
				req.Header.Set(k, v)
			}
			r := do(t, http.DefaultClient, req)
			csp := r.header.Get("Content-Security-Policy")
			switch {
			case c.page && (!strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") ||
				!strings.Contains(csp, "object-src 'none'")):
				t.Errorf("status %d: page policy %q", r.status, csp)
			case !c.page && csp != apiPolicy:
				t.Errorf("status %d: policy %q, want %q", r.status, csp, apiPolicy)
			}
			for k, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
				"Referrer-Policy": "same-origin"} {
				if got := r.header.Get(k); got != want {
					t.Errorf("status %d: %s %q, want %q", r.status, k, got, want)
				}
			}
		})
	}

	// The viewer's import map is allowed by its hash; no inline script
	// runs without one.
	r := e.raw("GET", root+"/viewer", "", nil)
	m := regexp.MustCompile(`(?s)<script type="importmap">(.*?)</script>`).FindSubmatch(r.body)
	if m == nil {
		t.Fatal("the viewer has no import map")
	}
	sum := sha256.Sum256(m[1])
	csp := r.header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self' 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") {
		t.Errorf("policy %q does not allow the import map by its hash", csp)
	}
	if strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "script-src 'self' 'unsafe-inline'") {
		t.Errorf("policy %q lets any script run", csp)
	}
}

// A key sent in a path or a query is not logged, neither in the access
// log nor in the job's error log; its id is, to tell which key to revoke.
func TestKeysInURLsAreRedacted(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	const id, secret = "0123456789ab", "Zq9-Zq9-Zq9-Zq9-Zq9-Zq9-Zq9-Zq9-Zq9-Zq9-xyz"
	key := "gsk_" + id + "_" + secret
	for _, path := range []string{
		"/job/" + key,
		"/job/structure/nodes?key=" + key,
		"/job/" + strings.ReplaceAll(key, "_", "%5F"),
		"/" + key + "/status",
	} {
		e.do("GET", path, nil)
	}
	logs := e.logs.String()
	if strings.Contains(logs, secret) {
		t.Errorf("the log holds the key's secret:\n%s", logs)
	}
	if !strings.Contains(logs, "gsk_"+id+"_REDACTED") {
		t.Errorf("the log does not name the redacted key:\n%s", logs)
	}
	r := e.must(200, "GET", "/job/errors", nil)
	if strings.Contains(string(r.body), secret) || !strings.Contains(string(r.body), "gsk_"+id+"_REDACTED") {
		t.Errorf("the job's error log: %s", r.body)
	}
}

// With METRICS_WORKSPACE_LABELS=false /metrics names no workspace: the
// label of every request that had one reads _hidden.
func TestMetricsHideWorkspaceLabels(t *testing.T) {
	e := newEnv(t, envOptions{hideWorkspaceLabels: true})
	e.must(200, "POST", "/job/new", nil)
	root := strings.TrimSuffix(e.base, "/api/v1")
	m := e.raw("GET", root+"/metrics", "", nil)
	body := string(m.body)
	if strings.Contains(body, `workspace="default"`) {
		t.Errorf("/metrics names the workspace:\n%s", body)
	}
	if want := `gusset_http_requests_total{method="POST",route="/api/v1/job/new",status="200",workspace="` + httpapi.HiddenWorkspace + `"} 1`; !strings.Contains(body, want) {
		t.Errorf("/metrics lacks %s", want)
	}
}
