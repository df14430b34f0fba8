package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"
)

// healthTimeout bounds one health probe: a container health check that
// hangs is worse than one that fails.
const healthTimeout = 2 * time.Second

// Healthcheck asks url (a /healthz) whether the process answers: a 2xx
// within 2 s is healthy. It is what `gusset-api healthcheck` and
// `gusset-worker healthcheck` run inside a container, where the image has
// no shell, curl or wget.
func Healthcheck(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("health check %s: %w", url, err)
	}
	// A redirect would be answered by someone else: report it instead.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("health check: %w", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 512))
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return fmt.Errorf("health check %s: %s %s", url, res.Status, body)
	}
	return nil
}

// HealthURL is the /healthz a process with cfg serves, as reached from
// inside its own container: the api's HTTP port, or a worker's
// METRICS_ADDR (a worker without METRICS_ADDR serves no HTTP, which is an
// error). A wildcard or empty host is probed on 127.0.0.1; a specific one
// is probed as it is, since the listener answers on that address only.
func HealthURL(cfg Config, worker bool) (string, error) {
	host, port := cfg.Host, cfg.Port
	if worker {
		if cfg.MetricsAddr == "" {
			return "", errors.New("METRICS_ADDR is not set: the worker serves no /healthz to check")
		}
		var err error
		if host, port, err = net.SplitHostPort(cfg.MetricsAddr); err != nil {
			return "", fmt.Errorf("METRICS_ADDR %q: %w", cfg.MetricsAddr, err)
		}
	}
	if port == "" || port == "0" {
		return "", fmt.Errorf("port %q: a health check needs a fixed port", port)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz", nil
}

// RunHealthcheck is the `healthcheck` argument of gusset-api (worker
// false) and gusset-worker (worker true): it reads the configuration from
// the environment, probes the process's /healthz and returns the exit
// code (0 healthy, 1 not), writing the reason to stderr.
func RunHealthcheck(worker bool) int {
	cfg, err := FromEnv()
	if err == nil {
		var url string
		if url, err = HealthURL(cfg, worker); err == nil {
			err = Healthcheck(context.Background(), url)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "unhealthy:", err)
		return 1
	}
	return 0
}
