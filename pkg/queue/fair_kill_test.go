package queue_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/queue"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// killedWorkerEnv, set to the Redis addresses (comma-separated), makes
// the test binary a worker and nothing else: the process
// TestFairKilledWorkerStopsCounting kills.
const killedWorkerEnv = "GUSSET_QUEUE_TEST_KILLED_WORKER"

// killedLease is the lease of the killed worker's tasks: short, so that
// the test need not wait the 30 s of a real one.
const killedLease = 2 * time.Second

func TestMain(m *testing.M) {
	if addrs := os.Getenv(killedWorkerEnv); addrs != "" {
		runKilledWorker(strings.Split(addrs, ","))
		return
	}
	os.Exit(m.Run())
}

// runKilledWorker serves tasks that never end, printing the id of each
// as it starts, until the process is killed.
func runKilledWorker(addrs []string) {
	var rdb redis.UniversalClient
	if redistest.ClusterMode() {
		rdb = redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	} else {
		rdb = redis.NewClient(&redis.Options{Addr: addrs[0]})
	}
	queue.SetFairLease(killedLease)
	queue.TaskCheckInterval = 100 * time.Millisecond
	w := queue.NewWorker(rdb, slog.New(slog.NewTextHandler(io.Discard, nil)), queue.Handler{TaskType: queue.TypeAnalysisRun,
		Handle: func(ctx context.Context, payload []byte) error {
			fmt.Printf("started %s\n", payload)
			<-ctx.Done()
			return ctx.Err()
		}})
	_ = w.Run(context.Background())
}

// A worker killed (SIGKILL) while its task of workspace a runs stops
// counting for a once its lease runs out: a's next task then takes its
// turn before b's second, as it would had the task ended. Counted by
// increments and decrements, the killed task would count for ever, and a
// would wait behind every other workspace.
func TestFairKilledWorkerStopsCounting(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	addrs := []string{srv.Addr}
	if c := srv.Cluster(); c != nil {
		addrs = c.Addrs()
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killedWorkerEnv+"="+strings.Join(addrs, ","))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	c := queue.NewClient(rdb)
	if err := c.Enqueue(ctx, "a", "a/1", []byte("a/1")); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "started a/1\n" {
		t.Fatalf("the worker to be killed printed %q (%v), want it to start a/1", line, err)
	}
	if n, err := queue.Busy(ctx, rdb, "a"); err != nil || n != 1 {
		t.Fatalf("a has %d task(s) under way (%v), want 1", n, err)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	g := newGate()
	startWorkers(t, rdb, g, 1, false)
	for _, task := range []struct{ ws, id string }{{"b", "b/1"}, {"b", "b/2"}, {"a", "a/2"}} {
		if err := c.Enqueue(ctx, task.ws, task.id, []byte(task.id)); err != nil {
			t.Fatal(err)
		}
	}
	if got := g.waitStarted(t, 1)[0]; got != "b/1" {
		t.Fatalf("%s started first, want b/1", got)
	}
	// The killed worker's task stops counting after its lease; a safety
	// net of a minute for a loaded machine.
	deadline := time.Now().Add(time.Minute)
	for {
		n, err := queue.Busy(ctx, rdb, "a")
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a still has %d task(s) under way a minute after its worker was killed (lease %v)", n, killedLease)
		}
		time.Sleep(50 * time.Millisecond)
	}
	close(g.ch("b/1"))
	if got := g.waitStarted(t, 2)[1]; got != "a/2" {
		t.Errorf("after b/1 ended, %s started, want a/2: the killed worker's task still counts for a", got)
	}
}
