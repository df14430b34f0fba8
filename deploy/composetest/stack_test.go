//go:build compose

package composetest_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The stack every scenario runs against, brought up once by TestMain.
//
// Environment:
//
//	COMPOSE_PROJECT       the compose project name (default gussetci)
//	COMPOSE_KEEP=1        leave the stack up at the end (to look at it)
//	COMPOSE_WORKER_IMAGE  run the workers from this image instead of
//	                      gusset:local (the self-check's broken image)
//	DOCKER                the docker client (default /usr/bin/docker when
//	                      present: a newer client earlier on PATH may lack
//	                      the plugins it expects)
var stk *stack

// Limits of the harness: safety nets for a loaded machine, not speed
// targets.
const (
	// upLimit bounds bringing the stack up until the proxy answers.
	upLimit = 5 * time.Minute
	// pollEvery is how often a condition is polled.
	pollEvery = 200 * time.Millisecond
)

func TestMain(m *testing.M) {
	flag.Parse()
	s, err := up()
	if err != nil {
		fmt.Fprintln(os.Stderr, "compose: bring-up failed:", err)
		if s != nil {
			s.dumpLogs()
			s.down()
		}
		os.Exit(1)
	}
	stk = s
	code := m.Run()
	if code != 0 {
		s.dumpLogs()
	}
	if os.Getenv("COMPOSE_KEEP") == "" {
		s.down()
	}
	os.Exit(code)
}

// stack is one compose project of docker-compose.yml.
type stack struct {
	root    string   // the repository, where docker-compose.yml is
	project string   // compose project name
	files   []string // -f arguments, in order
	env     []string // variables the compose file reads
	docker  string   // the docker client
	// base is the API through the proxy (http://127.0.0.1:port/api/v1);
	// prom is Prometheus (http://127.0.0.1:port).
	base, prom string
	http       *http.Client
}

// up starts the stack: Redis, two API replicas, the proxy, two workers and
// Prometheus, with the proxy and Prometheus published on free loopback
// ports. It removes what an earlier run of the same project left first.
func up() (*stack, error) {
	root, err := filepath.Abs("../..")
	if err != nil {
		return nil, err
	}
	s := &stack{root: root, project: envOr("COMPOSE_PROJECT", "gussetci"),
		files: []string{"docker-compose.yml"}, http: &http.Client{Timeout: 5 * time.Minute}}
	s.docker = os.Getenv("DOCKER")
	if s.docker == "" {
		s.docker = "docker"
		if _, err := os.Stat("/usr/bin/docker"); err == nil {
			s.docker = "/usr/bin/docker"
		}
	}
	s.env = []string{"GUSSET_PUBLISH=127.0.0.1:", "PROMETHEUS_PUBLISH=127.0.0.1:"}
	if img := os.Getenv("COMPOSE_WORKER_IMAGE"); img != "" {
		override := filepath.Join(os.TempDir(), s.project+"-worker-image.yml")
		if err := os.WriteFile(override, fmt.Appendf(nil, "services:\n  worker:\n    image: %s\n", img), 0o644); err != nil {
			return nil, err
		}
		s.files = append(s.files, override)
	}
	s.down()
	if out, err := s.compose("up", "-d", "--scale", "worker=2"); err != nil {
		return s, fmt.Errorf("docker-compose up: %w\n%s", err, out)
	}
	proxy, err := s.published("proxy", 8080)
	if err != nil {
		return s, err
	}
	prom, err := s.published("prometheus", 9090)
	if err != nil {
		return s, err
	}
	s.base, s.prom = "http://"+proxy+"/api/v1", "http://"+prom
	deadline := time.Now().Add(upLimit)
	for {
		res, err := s.http.Get("http://" + proxy + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			return s, fmt.Errorf("the proxy at %s did not answer /readyz 200 within %v (last: %v)", proxy, upLimit, err)
		}
		time.Sleep(pollEvery)
	}
	return s, nil
}

// compose runs docker-compose on the stack's project and returns its
// standard output (standard error too when it fails).
func (s *stack) compose(args ...string) (string, error) {
	full := []string{"-p", s.project}
	for _, f := range s.files {
		full = append(full, "-f", f)
	}
	return s.command("docker-compose", append(full, args...)...)
}

// run runs the docker client.
func (s *stack) run(args ...string) (string, error) { return s.command(s.docker, args...) }

func (s *stack) command(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = s.root
	cmd.Env = append(os.Environ(), s.env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String() + errb.String(), fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return out.String(), nil
}

// published returns the loopback address the port of a service is
// published on.
func (s *stack) published(service string, port int) (string, error) {
	out, err := s.compose("port", service, fmt.Sprint(port))
	if err != nil {
		return "", fmt.Errorf("port of %s: %w\n%s", service, err, out)
	}
	addr := strings.TrimSpace(out)
	if !strings.HasPrefix(addr, "127.0.0.1:") {
		return "", fmt.Errorf("%s's port %d is published on %q, want 127.0.0.1 only", service, port, addr)
	}
	return addr, nil
}

// containers returns the ids of a service's containers (full ids; a
// container's host name, which the workers log as their name, is the
// first 12 characters).
func (s *stack) containers(t *testing.T, service string) []string {
	t.Helper()
	out, err := s.compose("ps", "-q", service)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return strings.Fields(out)
}

// logs returns a container's output so far, standard output and
// standard error together (the services log to standard error).
func (s *stack) logs(t *testing.T, id string) string {
	t.Helper()
	out, err := exec.Command(s.docker, "logs", id).CombinedOutput()
	if err != nil {
		t.Fatalf("docker logs %s: %v\n%s", id, err, out)
	}
	return string(out)
}

// admin runs gusset-admin in a one-off container and returns what it
// printed on standard output.
func (s *stack) admin(t *testing.T, args ...string) string {
	t.Helper()
	out, err := s.compose(append([]string{"run", "--rm", "-T", "admin"}, args...)...)
	if err != nil {
		t.Fatalf("gusset-admin %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// workspace creates a workspace and a key for it with gusset-admin, as an
// operator would, and returns a client of it through the proxy.
func (s *stack) workspace(t *testing.T, name string) *client {
	t.Helper()
	s.admin(t, "workspace", "create", name)
	key := ""
	for _, line := range strings.Split(s.admin(t, "key", "create", "--workspace", name, "--label", "compose test"), "\n") {
		if strings.HasPrefix(line, "gsk_") {
			key = strings.TrimSpace(line)
		}
	}
	if key == "" {
		t.Fatalf("gusset-admin key create printed no key")
	}
	return &client{base: s.base, key: key, http: s.http}
}

// dumpLogs prints the last lines of every service's log, for a failed run.
func (s *stack) dumpLogs() {
	out, _ := s.compose("logs", "--no-color", "--tail", "40")
	fmt.Fprintln(os.Stderr, "compose: the last lines of every container:\n"+out)
}

// down removes the stack, its volumes included.
func (s *stack) down() {
	if out, err := s.compose("down", "-v", "--remove-orphans", "--timeout", "10"); err != nil {
		fmt.Fprintln(os.Stderr, "compose: down:", err, out)
	}
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// waitFor polls cond until it holds or limit passes; it returns the time
// it took, and fails the test with what when the limit passes.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() (bool, error)) time.Duration {
	t.Helper()
	began := time.Now()
	var last error
	for time.Since(began) < limit {
		ok, err := cond()
		if ok {
			return time.Since(began)
		}
		last = err
		time.Sleep(pollEvery)
	}
	t.Fatalf("%s: not within %v (last error: %v)", what, limit, last)
	return 0
}

// figure logs one of the figures a scenario reports, in the form the
// README quotes.
func figure(t *testing.T, format string, args ...any) {
	t.Helper()
	t.Logf("figure: "+format, args...)
}

var errStatus = errors.New("unexpected status")
