package server

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/testutil/logtest"
)

// HealthURL must point where the process really listens from inside its
// container: a wildcard listener is probed on loopback, a specific one on
// its own address, and a worker without METRICS_ADDR (no HTTP at all)
// cannot be checked.
func TestHealthURL(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cfg     Config
		worker  bool
		want    string
		wantErr string
	}{
		{name: "api default host", cfg: Config{Port: "8080"}, want: "http://127.0.0.1:8080/healthz"},
		{name: "api all interfaces", cfg: Config{Host: "0.0.0.0", Port: "8081"}, want: "http://127.0.0.1:8081/healthz"},
		{name: "api all v6 interfaces", cfg: Config{Host: "::", Port: "8081"}, want: "http://127.0.0.1:8081/healthz"},
		{name: "api specific host", cfg: Config{Host: "10.1.2.3", Port: "80"}, want: "http://10.1.2.3:80/healthz"},
		{name: "api v6 loopback", cfg: Config{Host: "::1", Port: "80"}, want: "http://[::1]:80/healthz"},
		{name: "api port 0", cfg: Config{Port: "0"}, wantErr: "fixed port"},
		{name: "worker port only", cfg: Config{Port: "8080", MetricsAddr: ":9091"}, worker: true, want: "http://127.0.0.1:9091/healthz"},
		{name: "worker wildcard", cfg: Config{MetricsAddr: "0.0.0.0:9091"}, worker: true, want: "http://127.0.0.1:9091/healthz"},
		{name: "worker specific host", cfg: Config{MetricsAddr: "172.18.0.5:9100"}, worker: true, want: "http://172.18.0.5:9100/healthz"},
		{name: "worker without metrics", cfg: Config{Port: "8080"}, worker: true, wantErr: "METRICS_ADDR is not set"},
		{name: "worker bad address", cfg: Config{MetricsAddr: "9091"}, worker: true, wantErr: "METRICS_ADDR"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := HealthURL(tc.cfg, tc.worker)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("HealthURL = %q, %v; want an error naming %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("HealthURL = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// Healthcheck passes on a 2xx only, and gives up after its 2 s even when
// the server never answers (a wedged process must turn unhealthy, not
// hang the container runtime's probe): the hanging probe ends with its
// own deadline, context.DeadlineExceeded, while the server still holds
// the request; the others are answered before it.
func TestHealthcheck(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			_, _ = w.Write([]byte(`{"status":"ok"}`))
		case "/no-content":
			w.WriteHeader(http.StatusNoContent)
		case "/down":
			http.Error(w, "redis is not reachable", http.StatusServiceUnavailable)
		case "/moved":
			http.Redirect(w, r, "/ok", http.StatusFound)
		case "/hang":
			select {
			case <-release:
			case <-r.Context().Done():
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	for _, tc := range []struct {
		path     string
		healthy  bool
		timedOut bool // ended by the probe's own deadline
	}{{"/ok", true, false}, {"/no-content", true, false}, {"/down", false, false}, {"/moved", false, false},
		{"/missing", false, false}, {"/hang", false, true}} {
		t.Run(tc.path, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- Healthcheck(context.Background(), srv.URL+tc.path) }()
			var err error
			select {
			case err = <-done:
			case <-time.After(patience):
				t.Fatalf("Healthcheck(%s) still waiting after %v: its %v bound does not hold", tc.path, patience, healthTimeout)
			}
			if (err == nil) != tc.healthy {
				t.Fatalf("Healthcheck(%s) = %v, want healthy %v", tc.path, err, tc.healthy)
			}
			if errors.Is(err, context.DeadlineExceeded) != tc.timedOut {
				t.Errorf("Healthcheck(%s) = %v: ended by its own deadline %v, want %v", tc.path, err, !tc.timedOut, tc.timedOut)
			}
		})
	}
	// Nothing listens: refused at once.
	if err := Healthcheck(context.Background(), "http://127.0.0.1:1/healthz"); err == nil {
		t.Error("Healthcheck of a closed port passed")
	}
}

// The worker's own metrics listener answers the probe HealthURL builds
// for it, so that the container health check and the server agree.
func TestHealthcheckOfWorkerMetricsListener(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	log, addr := logtest.Attr("worker metrics listening", "addr")
	done := make(chan error, 1)
	go func() { done <- serveMetrics(ctx, "127.0.0.1:0", newRegistry(), log) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	var got string
	select {
	case got = <-addr:
	case err := <-done:
		t.Fatalf("serveMetrics stopped: %v", err)
	case <-time.After(patience):
		t.Fatal("worker metrics did not start")
	}
	url, err := HealthURL(Config{MetricsAddr: got}, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := Healthcheck(context.Background(), url); err != nil {
		t.Fatal(err)
	}
}
