// Package redistest starts a real redis-server for tests. Store tests run
// against Redis itself, never a mock: WATCH/MULTI semantics, Lua and
// argument limits are part of what they check.
package redistest

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server is a redis-server process owned by one test.
type Server struct {
	Addr string
	cmd  *exec.Cmd
}

// URL is the redis:// URL of the server.
func (s *Server) URL() string { return "redis://" + s.Addr + "/0" }

// Client returns a client of the server, closed when the test ends.
func (s *Server) Client(t testing.TB) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: s.Addr})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// Kill stops the server process at once, as a crash would.
func (s *Server) Kill() {
	_ = s.cmd.Process.Kill()
	_, _ = s.cmd.Process.Wait()
}

// Binary finds redis-server on PATH or in its Debian location.
func Binary() (string, error) {
	if p, err := exec.LookPath("redis-server"); err == nil {
		return p, nil
	}
	for _, p := range []string{"/usr/bin/redis-server", "/usr/local/bin/redis-server"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("redis-server not found: install it (apt-get install redis-server); .ci/run does this")
}

// Start runs a fresh redis-server on a free loopback port, without
// persistence, and stops it when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		t.Fatal(err)
	}
	var lastErr error
	// Another process can take the free port between the probe and
	// redis-server's bind, so try a few ports.
	for attempt := 0; attempt < 5; attempt++ {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		srv, err := launch(t, bin, port)
		if err == nil {
			return srv
		}
		lastErr = err
	}
	t.Fatalf("start redis-server: %v", lastErr)
	return nil
}

// launch starts redis-server on port and waits until it answers.
func launch(t testing.TB, bin string, port int) (*Server, error) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "",
		"--appendonly", "no", "--dir", dir, "--logfile", filepath.Join(dir, "redis.log"))
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	srv := &Server{Addr: addr, cmd: cmd}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if pingOK(addr) {
			t.Cleanup(func() {
				_ = cmd.Process.Kill()
				_, _ = cmd.Process.Wait()
			})
			return srv, nil
		}
		if cmd.ProcessState != nil || time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_, _ = cmd.Process.Wait()
			log, _ := os.ReadFile(filepath.Join(dir, "redis.log"))
			return nil, fmt.Errorf("redis-server on port %d did not answer: %s", port, lastLines(string(log)))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func pingOK(addr string) bool {
	c := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	return c.Ping(ctx).Err() == nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func lastLines(s string) string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return strings.Join(lines, " | ")
}
