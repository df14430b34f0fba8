package queue_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/queue"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// gate is a handler whose tasks (payload: their id) run until the test
// lets each one end, and which records the order they started in.
type gate struct {
	mu      sync.Mutex
	started []string
	release map[string]chan struct{}
	changed chan struct{}
}

func newGate() *gate {
	return &gate{release: map[string]chan struct{}{}, changed: make(chan struct{}, 1)}
}

func (g *gate) ch(id string) chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	c, ok := g.release[id]
	if !ok {
		c = make(chan struct{})
		g.release[id] = c
	}
	return c
}

func (g *gate) handle(ctx context.Context, payload []byte) error {
	id := string(payload)
	g.mu.Lock()
	g.started = append(g.started, id)
	g.mu.Unlock()
	select {
	case g.changed <- struct{}{}:
	default:
	}
	select {
	case <-g.ch(id):
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// startedOrder returns the ids of the tasks started so far, in order.
func (g *gate) startedOrder() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.started...)
}

// waitStarted waits until n tasks have started, and returns them.
func (g *gate) waitStarted(t *testing.T, n int) []string {
	t.Helper()
	deadline := time.After(2 * time.Minute) // a safety net for a loaded machine
	for {
		if s := g.startedOrder(); len(s) >= n {
			return s
		}
		select {
		case <-g.changed:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("%d task(s) started, want %d: %v", len(g.startedOrder()), n, g.startedOrder())
		}
	}
}

// startWorkers starts n workers serving g on rdb until the test ends;
// unfair ones let every task run at once, as before fair scheduling.
func startWorkers(t testing.TB, rdb redis.UniversalClient, g *gate, n int, unfair bool) {
	t.Helper()
	queue.TaskCheckInterval = 100 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range n {
		w := queue.NewWorker(rdb, slog.New(slog.NewTextHandler(io.Discard, nil)),
			queue.Handler{TaskType: queue.TypeAnalysisRun, Handle: g.handle})
		if unfair {
			queue.Unfair(w)
		}
		wg.Add(1)
		go func() { defer wg.Done(); _ = w.Run(ctx) }()
	}
	t.Cleanup(func() {
		g.mu.Lock()
		for _, c := range g.release {
			select {
			case <-c:
			default:
				close(c)
			}
		}
		g.mu.Unlock()
		cancel()
		wg.Wait()
	})
}

// On two workers, workspace a's ten tasks take both; b's task, queued
// behind the eight left, is the next to start when one of a's ends, and
// a's tasks that waited for it did not use up an attempt.
func TestFairTurnAcrossWorkspaces(t *testing.T) {
	rdb := redistest.Start(t).Client(t)
	g := newGate()
	startWorkers(t, rdb, g, 2, false)
	ctx := context.Background()
	c := queue.NewClient(rdb)
	for i := 1; i <= 10; i++ {
		id := fmt.Sprintf("a/%d", i)
		if err := c.Enqueue(ctx, "a", id, []byte(id)); err != nil {
			t.Fatal(err)
		}
	}
	first := g.waitStarted(t, 2)
	if first[0][:2] != "a/" || first[1][:2] != "a/" {
		t.Fatalf("started %v, want two of a's tasks", first)
	}
	if err := c.Enqueue(ctx, "b", "b/1", []byte("b/1")); err != nil {
		t.Fatal(err)
	}
	close(g.ch(first[0]))
	if got := g.waitStarted(t, 3)[2]; got != "b/1" {
		t.Fatalf("after %s ended, %s started, want b/1", first[0], got)
	}
	// a's tasks that went back to wait (asynq keeps the reason) have all
	// their attempts left.
	insp := asynq.NewInspectorFromRedisClient(rdb)
	waited := 0
	for _, list := range []func(string, ...asynq.ListOption) ([]*asynq.TaskInfo, error){insp.ListRetryTasks, insp.ListPendingTasks} {
		tasks, err := list(queue.QueueAnalysis)
		if err != nil {
			t.Fatal(err)
		}
		for _, ti := range tasks {
			if ti.LastErr != "" {
				waited++
			}
			if ti.Retried != 0 {
				t.Errorf("task %s waited its turn and has used %d attempt(s) (%s), want 0", ti.ID, ti.Retried, ti.LastErr)
			}
		}
	}
	if waited == 0 {
		t.Error("none of a's tasks queued before b/1 went back to wait")
	}
	// Let every task end: all of a's run, none archived.
	for i := 1; i <= 10; i++ {
		id := fmt.Sprintf("a/%d", i)
		if id != first[0] {
			close(g.ch(id))
		}
	}
	close(g.ch("b/1"))
	g.waitStarted(t, 11)
	archived, err := insp.ListArchivedTasks(queue.QueueAnalysis)
	if err != nil {
		t.Fatal(err)
	}
	if len(archived) > 0 {
		t.Errorf("%d task(s) archived, first %s: %s", len(archived), archived[0].ID, archived[0].LastErr)
	}
	if s := g.startedOrder(); len(s) != 11 {
		t.Errorf("%d tasks started, want 11 (each once): %v", len(s), s)
	}
}

// BenchmarkFairWait measures the choice: how long a task of workspace b
// waits for one of two workers while workspace a's 20 tasks of 100 ms
// hold both, with fair scheduling and without. Without, b waits for the
// 18 tasks queued before it (about 0.9 s); with, for the first of a's
// two tasks under way to end (up to 100 ms) and a pass over the 18 (each
// sent back to the queue for a moment).
func BenchmarkFairWait(b *testing.B) {
	for _, bc := range []struct {
		name   string
		unfair bool
	}{{"fair", false}, {"unfair", true}} {
		b.Run(bc.name, func(b *testing.B) {
			var total time.Duration
			for range b.N {
				total += fairWaitOnce(b, bc.unfair)
			}
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-b-waited")
		})
	}
}

// fairWaitOnce is one round of BenchmarkFairWait: how long b's task
// waited.
func fairWaitOnce(b *testing.B, unfair bool) time.Duration {
	b.Helper()
	rdb := redistest.Start(b).Client(b)
	ctx := context.Background()
	bStarted := make(chan time.Time, 1)
	var mu sync.Mutex
	running := 0
	handle := func(ctx context.Context, payload []byte) error {
		if string(payload) == "b" {
			bStarted <- time.Now()
			return nil
		}
		mu.Lock()
		running++
		mu.Unlock()
		time.Sleep(100 * time.Millisecond)
		mu.Lock()
		running--
		mu.Unlock()
		return nil
	}
	queue.TaskCheckInterval = 100 * time.Millisecond
	wctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for range 2 {
		w := queue.NewWorker(rdb, slog.New(slog.NewTextHandler(io.Discard, nil)), queue.Handler{TaskType: queue.TypeAnalysisRun, Handle: handle})
		if unfair {
			queue.Unfair(w)
		}
		wg.Add(1)
		go func() { defer wg.Done(); _ = w.Run(wctx) }()
	}
	defer func() { cancel(); wg.Wait() }()
	c := queue.NewClient(rdb)
	for i := range 20 {
		if err := c.Enqueue(ctx, "a", fmt.Sprintf("a/%d", i), []byte("a")); err != nil {
			b.Fatal(err)
		}
	}
	for {
		mu.Lock()
		n := running
		mu.Unlock()
		if n == 2 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	queued := time.Now()
	if err := c.Enqueue(ctx, "b", "b/1", []byte("b")); err != nil {
		b.Fatal(err)
	}
	return (<-bStarted).Sub(queued)
}

// On one worker, workspaces alternate: when a's task ends, a's next one
// waits for b's, queued later but by a workspace served less recently.
// A task that went back to wait is still in the queue for a cancel:
// Dequeue removes it and drops its waiting mark, so that it holds no
// other workspace back.
func TestFairWaitingTaskDequeued(t *testing.T) {
	rdb := redistest.Start(t).Client(t)
	g := newGate()
	startWorkers(t, rdb, g, 1, false)
	ctx := context.Background()
	c := queue.NewClient(rdb)
	for _, task := range []struct{ ws, id string }{{"a", "a/1"}, {"a", "a/2"}} {
		if err := c.Enqueue(ctx, task.ws, task.id, []byte(task.id)); err != nil {
			t.Fatal(err)
		}
	}
	g.waitStarted(t, 1)
	if err := c.Enqueue(ctx, "b", "b/1", []byte("b/1")); err != nil {
		t.Fatal(err)
	}
	close(g.ch("a/1"))
	if got := g.waitStarted(t, 2)[1]; got != "b/1" {
		t.Fatalf("after a/1 ended, %s started, want b/1", got)
	}
	insp := asynq.NewInspectorFromRedisClient(rdb)
	info, err := insp.GetTaskInfo(queue.QueueAnalysis, "a/2")
	if err != nil || info.LastErr == "" || info.State == asynq.TaskStateActive {
		t.Fatalf("a/2 while b/1 runs: %+v (%v), want it back in the queue, waiting", info, err)
	}
	removed, err := c.Dequeue(ctx, "a", "a/2")
	if err != nil || !removed {
		t.Fatalf("Dequeue of a/2 waiting its turn: %v, %v; want removed", removed, err)
	}
	if n, err := rdb.Exists(ctx, "{gusset:fair}:wait:a").Result(); err != nil || n != 0 {
		t.Errorf("a's waiting marks still held (%v) after its only waiting task was dequeued", err)
	}
	close(g.ch("b/1"))
}
