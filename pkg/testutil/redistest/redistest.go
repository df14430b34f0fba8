// Package redistest starts a real redis-server for tests. Store tests run
// against Redis itself, never a mock: WATCH/MULTI semantics, Lua and
// argument limits are part of what they check.
//
// With GUSSET_TEST_REDIS=cluster in the environment, Start launches a
// three-master Redis Cluster instead of a single server: the same suites
// then check that every transaction and script stays in one hash slot.
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

// EnvMode names the environment variable that picks what Start runs:
// unset, empty or "single" for one redis-server, "cluster" for a
// three-master cluster.
const EnvMode = "GUSSET_TEST_REDIS"

// ClusterMode reports whether the tests run against a Redis Cluster.
func ClusterMode() bool { return os.Getenv(EnvMode) == "cluster" }

// Server is a redis-server process owned by one test; under cluster mode,
// the cluster Start made (Addr is then its first node).
type Server struct {
	Addr    string
	cmd     *exec.Cmd
	exited  chan struct{} // closed once the process has exited
	cluster *Cluster
}

// URL is the URL of the server: redis://host:port/0, or under cluster
// mode the cluster's redis-cluster:// URL.
func (s *Server) URL() string {
	if s.cluster != nil {
		return s.cluster.URL()
	}
	return "redis://" + s.Addr + "/0"
}

// Client returns a client of the server (a *redis.ClusterClient under
// cluster mode), closed when the test ends.
func (s *Server) Client(t testing.TB) redis.UniversalClient {
	t.Helper()
	if s.cluster != nil {
		return s.cluster.Client(t)
	}
	return s.node(t)
}

// node returns a plain client of this one process.
func (s *Server) node(t testing.TB) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: s.Addr})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// Cluster is the cluster behind the server under cluster mode, else nil.
func (s *Server) Cluster() *Cluster { return s.cluster }

// Kill stops the server process at once, as a crash would; under cluster
// mode every node of the cluster.
func (s *Server) Kill() {
	if s.cluster != nil {
		s.cluster.Kill()
		return
	}
	s.kill()
}

func (s *Server) kill() {
	_ = s.cmd.Process.Kill()
	<-s.exited
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
// persistence, and stops it when the test ends. Under cluster mode
// (GUSSET_TEST_REDIS=cluster) it starts a cluster (StartCluster) instead.
func Start(t testing.TB) *Server {
	t.Helper()
	switch m := os.Getenv(EnvMode); m {
	case "", "single":
	case "cluster":
		c := StartCluster(t)
		return &Server{Addr: c.Nodes[0].Addr, cluster: c}
	default:
		t.Fatalf("%s=%q: want single or cluster", EnvMode, m)
	}
	return StartSingle(t)
}

// StartSingle runs one redis-server as Start does, whatever
// GUSSET_TEST_REDIS says.
func StartSingle(t testing.TB) *Server {
	t.Helper()
	return startNode(t, nil)
}

// StartSingleArgs runs one redis-server as StartSingle does, with the
// redis-server arguments args added: e.g. "--maxmemory", "4mb",
// "--maxmemory-policy", "noeviction" for a Redis that fills up.
func StartSingleArgs(t testing.TB, args ...string) *Server {
	t.Helper()
	return startNode(t, func() ([]string, error) { return args, nil })
}

// startNode runs one redis-server, with the arguments extra (when not nil)
// returns added, trying a few ports: another process can take the free
// port between the probe and redis-server's bind.
func startNode(t testing.TB, extra func() ([]string, error)) *Server {
	t.Helper()
	return startProcess(t, func(port int, dir string) ([]string, error) {
		args := []string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "",
			"--appendonly", "no", "--dir", dir, "--logfile", filepath.Join(dir, "redis.log")}
		if extra == nil {
			return args, nil
		}
		more, err := extra()
		return append(args, more...), err
	})
}

// StartSentinel runs a Redis Sentinel on a free loopback port that
// monitors master under name with a quorum of one, and stops it when the
// test ends.
func StartSentinel(t testing.TB, name string, master *Server) *Server {
	t.Helper()
	host, port, err := net.SplitHostPort(master.Addr)
	if err != nil {
		t.Fatal(err)
	}
	return startProcess(t, func(p int, dir string) ([]string, error) {
		// Sentinel rewrites its configuration file, so it must be one.
		conf := filepath.Join(dir, "sentinel.conf")
		text := fmt.Sprintf("port %d\nbind 127.0.0.1\ndir %s\nlogfile %s\nsentinel monitor %s %s %s 1\n",
			p, dir, filepath.Join(dir, "redis.log"), name, host, port)
		return []string{conf, "--sentinel"}, os.WriteFile(conf, []byte(text), 0o600)
	})
}

// startProcess runs redis-server with the arguments args gives for a free
// port and a new directory, trying a few ports: another process can take
// the port between the probe and redis-server's bind.
func startProcess(t testing.TB, args func(port int, dir string) ([]string, error)) *Server {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		t.Fatal(err)
	}
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		a, err := args(port, dir)
		if err != nil {
			t.Fatal(err)
		}
		srv, err := launch(t, bin, port, dir, a)
		if err == nil {
			return srv
		}
		lastErr = err
	}
	t.Fatalf("start redis-server: %v", lastErr)
	return nil
}

// launch starts redis-server with args and waits until it answers on port.
func launch(t testing.TB, bin string, port int, dir string, args []string) (*Server, error) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	srv := &Server{Addr: addr, cmd: cmd, exited: exited}
	// A safety net against a server that never answers, generous for a
	// loaded machine (one answers in milliseconds).
	deadline := time.Now().Add(time.Minute)
	for {
		if pingOK(addr) {
			t.Cleanup(srv.kill)
			return srv, nil
		}
		gone := false
		select {
		case <-exited:
			gone = true
		default:
		}
		if gone || time.Now().After(deadline) {
			srv.kill()
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

// SetMaxMemory gives the server the noeviction policy and a maxmemory
// room bytes above what it uses now; under cluster mode, every node of
// the cluster, each above its own use. A negative room puts it over its
// limit at once: it then refuses every write that may grow its memory, as
// a full Redis does.
func (s *Server) SetMaxMemory(t testing.TB, room int64) {
	t.Helper()
	if s.cluster != nil {
		for _, n := range s.cluster.Nodes {
			n.SetMaxMemory(t, room)
		}
		return
	}
	ctx := context.Background()
	c := s.node(t)
	info, err := c.InfoMap(ctx, "memory").Result()
	if err != nil {
		t.Fatal(err)
	}
	used, err := strconv.ParseInt(info["Memory"]["used_memory"], 10, 64)
	if err != nil {
		t.Fatalf("used_memory %q: %v", info["Memory"]["used_memory"], err)
	}
	limit := used + room
	for _, kv := range [][2]string{{"maxmemory-policy", "noeviction"}, {"maxmemory", strconv.FormatInt(limit, 10)}} {
		if err := c.ConfigSet(ctx, kv[0], kv[1]).Err(); err != nil {
			t.Fatal(err)
		}
	}
}
