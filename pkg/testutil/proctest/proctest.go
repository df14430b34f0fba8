// Package proctest runs the service's own binaries (gusset-api,
// gusset-worker) as processes for the tests that need real processes: a
// restart, a worker killed mid-analysis, a load test on two replicas.
package proctest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Build compiles the packages (paths as go build takes them, relative to
// the test's package) into dir, in one go build so that they compile in
// parallel. Each binary is named after the last element of its path.
func Build(ctx context.Context, dir string, pkgs ...string) error {
	args := append([]string{"build", "-o", dir + string(filepath.Separator)}, pkgs...)
	if out, err := exec.CommandContext(ctx, "go", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", strings.Join(pkgs, " "), err, out)
	}
	return nil
}

// serviceVars are the variables the services read; Env leaves out any a
// developer's shell sets, so that only what a test sets applies.
var serviceVars = map[string]bool{"REDIS_URL": true, "PORT": true, "HOST": true, "JOBS_DIR": true,
	"METRICS_ADDR": true, "LOG_LEVEL": true, "ANALYSIS_MAX_RETRY": true, "MAX_BODY_BYTES": true,
	"MAX_JOB_BYTES": true, "BODY_MEMORY": true, "ALLOWED_HOSTS": true, "ALLOWED_ORIGINS": true,
	"RECOVERY_DELAY_MS": true, "AUTH_MODE": true, "BODY_MEMORY_PER_CLIENT": true, "BODY_MIN_RATE": true,
	"METRICS_WORKSPACE_LABELS": true, "WORKER_MEMORY": true, "MAX_RESPONSE_ROWS": true}

// Env is the test's environment without the service's variables, plus set.
func Env(set ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !serviceVars[k] {
			env = append(env, kv)
		}
	}
	return append(env, set...)
}

// Proc is one service process.
type Proc struct {
	Name string
	Cmd  *exec.Cmd
	// Done is closed once the process has exited.
	Done chan struct{}
	// LogPath holds its stderr (JSON log lines).
	LogPath string
	// Metrics is a worker's METRICS_ADDR.
	Metrics string
}

// Start starts bin with its stderr in dir/name.log and its stdout to
// stdout. The caller stops it with Kill, usually from a test's Cleanup.
func Start(dir, name, bin string, env []string, stdout io.Writer) (*Proc, error) {
	p := &Proc{Name: name, Done: make(chan struct{}), LogPath: filepath.Join(dir, name+".log")}
	logf, err := os.Create(p.LogPath)
	if err != nil {
		return nil, err
	}
	p.Cmd = exec.Command(bin)
	p.Cmd.Env, p.Cmd.Stdout, p.Cmd.Stderr = env, stdout, logf
	if err := p.Cmd.Start(); err != nil {
		_ = logf.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	go func() {
		_ = p.Cmd.Wait()
		_ = logf.Close()
		close(p.Done)
	}()
	return p, nil
}

// PID is the process id.
func (p *Proc) PID() int { return p.Cmd.Process.Pid }

// Exited reports whether the process has exited.
func (p *Proc) Exited() bool {
	select {
	case <-p.Done:
		return true
	default:
		return false
	}
}

// Kill sends SIGKILL (no shutdown hook runs) and waits until the process
// has gone.
func (p *Proc) Kill() {
	_ = p.Cmd.Process.Kill()
	<-p.Done
}

// LogTail returns the last n lines of the process's log, for failures.
func (p *Proc) LogTail(n int) string {
	b, _ := os.ReadFile(p.LogPath)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// StartAPI starts gusset-api (env should set PORT=0 and HOST) and reads its
// base URL from the line it prints once it listens. On an error the
// process has been killed.
func StartAPI(ctx context.Context, dir, name, bin string, env []string) (*Proc, string, error) {
	pr, pw := io.Pipe()
	p, err := Start(dir, name, bin, env, pw)
	if err != nil {
		return nil, "", err
	}
	go func() { <-p.Done; _ = pw.Close() }()
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if i := strings.Index(sc.Text(), "http://"); i >= 0 {
				select {
				case urls <- strings.TrimSpace(sc.Text()[i:]):
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	select {
	case base := <-urls:
		return p, base, nil
	case <-p.Done:
		return nil, "", fmt.Errorf("%s exited on start: %s", name, p.LogTail(15))
	case <-ctx.Done():
		p.Kill()
		return nil, "", fmt.Errorf("%s printed no base URL: %s", name, p.LogTail(15))
	}
}

// StartWorker starts gusset-worker with its own METRICS_ADDR and polls its
// /healthz until it answers. Another process may take the probed port
// before the worker binds it, so a worker that does not come up is tried
// again on another port, three times in all.
func StartWorker(ctx context.Context, dir, name, bin string, env []string) (*Proc, error) {
	var last error
	for try := 0; try < 3; try++ {
		addr, err := FreeAddr()
		if err != nil {
			return nil, err
		}
		p, err := Start(dir, name, bin, append(env[:len(env):len(env)], "METRICS_ADDR="+addr), io.Discard)
		if err != nil {
			return nil, err
		}
		p.Metrics = addr
		if last = waitHealthy(ctx, p); last == nil {
			return p, nil
		}
		p.Kill()
		if ctx.Err() != nil {
			break
		}
	}
	return nil, last
}

// waitHealthy polls a worker's /healthz until it answers 200.
func waitHealthy(ctx context.Context, p *Proc) error {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	client := &http.Client{Timeout: 5 * time.Second}
	for {
		if res, err := client.Get("http://" + p.Metrics + "/healthz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-p.Done:
			return fmt.Errorf("%s exited on start (metrics port %s taken?): %s", p.Name, p.Metrics, p.LogTail(15))
		case <-ctx.Done():
			return fmt.Errorf("%s /healthz on %s never answered: %s", p.Name, p.Metrics, p.LogTail(15))
		case <-tick.C:
		}
	}
}

// FreeAddr returns a loopback address whose port was free a moment ago.
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
