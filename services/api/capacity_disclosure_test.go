//go:build capacity

package main_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/testutil/proctest"
)

// Finding 11: the pages and the API sent no Content-Security-Policy,
// X-Frame-Options or X-Content-Type-Options; a key put in a URL was
// written to the api's log; /metrics, which answers without a key, named
// every workspace. Now every answer carries the security headers, a
// key-shaped path segment is logged with its secret redacted, and with
// METRICS_WORKSPACE_LABELS=false neither the api's nor a worker's
// metrics name a workspace.
func TestCapacitySecurityHeadersAndDisclosure(t *testing.T) {
	hide := "METRICS_WORKSPACE_LABELS=false"
	// The access log is at info.
	s := startCapStack(t, capOptions{APIEnv: []string{hide, "LOG_LEVEL=info"}, WorkerEnv: []string{hide}})
	root := strings.TrimSuffix(s.base, "/api/v1")

	// The headers, on a page and on API answers (a success and an error).
	for _, c := range []struct{ ws, url string }{
		{"", root + "/viewer"},
		{"", root + "/"},
		{"a", s.base + "/service/info"},
		{"a", s.base + "/job"},
		{"", s.base + "/job/status"},
	} {
		st, h, _ := disclosureGet(t, s, c.ws, c.url)
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "default-src") {
			t.Errorf("GET %s (%d): Content-Security-Policy %q", c.url, st, csp)
		}
		for k, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
			"Referrer-Policy": "same-origin"} {
			if got := h.Get(k); got != want {
				t.Errorf("GET %s (%d): %s %q, want %q", c.url, st, k, got, want)
			}
		}
	}

	// A key in the path and in a query, with the key and without: the
	// log names the requests but not the key.
	key := s.keys["a"]
	secret := key[len("gsk_0123456789ab_"):] // gsk_<id>_<secret>
	disclosureGet(t, s, "a", s.base+"/job/"+key)
	disclosureGet(t, s, "", s.base+"/"+key+"/status")
	disclosureGet(t, s, "a", s.base+"/job/status?key="+key)
	poll(t, time.Minute, "the api logs the requests", func() bool {
		b, err := os.ReadFile(s.api.LogPath)
		return err == nil && strings.Count(string(b), `"status":404`) >= 1 && strings.Contains(string(b), `"status":401`)
	})
	if b, _ := os.ReadFile(s.api.LogPath); strings.Contains(string(b), secret) {
		t.Errorf("the api's log holds a's key:\n%s", disclosureLines(string(b), secret))
	}

	// Traffic and an analysis in both workspaces, then no workspace name
	// in the api's or the worker's metrics.
	for _, ws := range []string{"a", "b"} {
		s.must(200, ws, "POST", "/job/open-sample", `{"fileName":"Portal frame"}`)
		var run struct {
			RunID  string `json:"runId"`
			Status string `json:"status"`
		}
		if err := json.Unmarshal(s.must(202, ws, "POST", "/job/analysis/static/run-linear", ""), &run); err != nil {
			t.Fatal(err)
		}
		poll(t, 2*time.Minute, ws+"'s run completes", func() bool {
			if err := json.Unmarshal(s.must(200, ws, "GET", "/job/analysis/runs/"+run.RunID, ""), &run); err != nil {
				t.Fatal(err)
			}
			return run.Status == "Completed" || run.Status == "Failed"
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	u, err := url.Parse(s.base)
	if err != nil {
		t.Fatal(err)
	}
	for name, addr := range map[string]string{"api": u.Host, "worker": s.workers[0].Metrics} {
		m, err := proctest.Scrape(ctx, s.http, addr)
		if err != nil {
			t.Fatal(err)
		}
		var named []string
		for series := range m {
			if strings.Contains(series, `workspace="a"`) || strings.Contains(series, `workspace="b"`) {
				named = append(named, series)
			}
		}
		if len(named) > 0 {
			t.Errorf("%d series of the %s's metrics name a workspace, such as %s", len(named), name, named[0])
		}
		// The series are there, under the hidden value.
		want := map[string]string{"api": "gusset_http_requests_total", "worker": "gusset_analysis_duration_seconds_count"}[name]
		if n := m.Sum(want, `workspace="_hidden"`); n < 2 {
			t.Errorf("the %s counts %v in %s under workspace _hidden, want 2 at least", name, n, want)
		}
	}
	s.alive()
}

// disclosureGet sends a GET as workspace ws (none: no key) to a full URL.
func disclosureGet(t *testing.T, s *capStack, ws, url string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ws != "" {
		req.Header.Set("Authorization", "Bearer "+s.keys[ws])
	}
	res, err := s.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, b
}

// disclosureLines are the lines of text that hold s.
func disclosureLines(text, s string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
