package lifecycle_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/logtest"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// These tests play what a network partition does to a worker: its task
// handed to another worker while it is cut off from Redis (a second
// Runner begins attempt 2 of the run while the first is still in its
// attempt 1), and Redis unreachable for real (a proxy between the worker
// and redis-server, cut and restored).

// toyKinds serve a kind whose solve calls hold with its context (a solve
// that hold stops returns hold's error), then publishes a result naming
// its worker.
func toyKinds(hold func(ctx context.Context) error) solverKinds {
	return solverKinds{solverKind{func(r *lifecycle.Runner, t lifecycle.Task) lifecycle.Solver {
		return func(ctx context.Context, _ model.Job, _ *lifecycle.Progress) (lifecycle.Publisher, error) {
			if err := hold(ctx); err != nil {
				return nil, err
			}
			return func(ctx context.Context, _ int64, complete lifecycle.Completion) error {
				set := store.ResultSet{Meta: json.RawMessage(`{"worker":"` + r.Name + `"}`)}
				return r.Publish(ctx, t, "toy", set, nil, nil, complete)
			}, nil
		}
	}}}
}

// held is a solve that tells started and waits for release, or for its
// context to end.
type held struct {
	started chan struct{}
	release chan struct{}
}

func newHeld() held { return held{started: make(chan struct{}, 1), release: make(chan struct{})} }

func (h held) hold(ctx context.Context) error {
	h.started <- struct{}{}
	select {
	case <-h.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// worker is another Runner on r's stores, named name, that solves with
// kinds and refreshes its run every tick.
func worker(r *lifecycle.Runner, name string, kinds lifecycle.Kinds, tick time.Duration) *lifecycle.Runner {
	return &lifecycle.Runner{Kinds: kinds, Jobs: r.Jobs, Runs: r.Runs, Results: r.Results, Name: name, Tick: tick,
		Log: slog.New(slog.NewTextHandler(&logtest.Buffer{}, nil))}
}

// goRun runs task t on w in the background; the channel yields what Run
// returned.
func goRun(ctx context.Context, w *lifecycle.Runner, t lifecycle.Task) <-chan error {
	out := make(chan error, 1)
	go func() { out <- w.Run(ctx, t) }()
	return out
}

// await returns what ch yields; a minute without it fails the test (a
// safety net: it comes in milliseconds).
func await[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(time.Minute):
		t.Fatalf("%s: nothing after a minute", what)
	}
	var zero T
	return zero
}

// storedWorker returns the worker named in the stored toy results, "" for
// none.
func storedWorker(t *testing.T, res store.Results, ws string) string {
	t.Helper()
	raw, err := res.Meta(context.Background(), ws, "toy")
	if err != nil {
		t.Fatal(err)
	}
	var meta struct{ Worker string }
	if raw != nil {
		if err := json.Unmarshal(raw, &meta); err != nil {
			t.Fatal(err)
		}
	}
	return meta.Worker
}

// Worker a's attempt 1 is superseded by worker b's attempt 2 (a was cut
// off, and the queue gave b the task). a's writes are refused, whether
// its solve ends while b's attempt is under way or after b completed the
// run, or a's supervisor refreshes the run while b solves: b's record and
// results stand, a's task ends without asking for another attempt, and
// the refusal is logged (naming both attempts) and counted.
func TestStaleAttemptIsFenced(t *testing.T) {
	for _, tc := range []struct {
		name string
		// aTick is a's refresh period: an hour keeps its supervisor
		// quiet, so that what meets the fence is a's end of solve.
		aTick time.Duration
		// bFirst: b completes the run before a's solve ends.
		bFirst bool
	}{
		{"solve ends while attempt 2 runs", time.Hour, false},
		{"solve ends after attempt 2 completed", time.Hour, true},
		{"refresh while attempt 2 runs", 5 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			base, runs := emptyJobRunner(t, "w")
			task := lifecycle.Task{Workspace: "w", RunID: "r1", Kind: "Toy"}
			if err := runs.Start(ctx, "w", model.Run{RunID: "r1", AnalysisType: "Toy", Status: model.RunQueued, QueuedAt: time.Now()}); err != nil {
				t.Fatal(err)
			}
			ha, hb := newHeld(), newHeld()
			a, b := worker(base, "a", toyKinds(ha.hold), tc.aTick), worker(base, "b", toyKinds(hb.hold), time.Hour)
			var log logtest.Buffer
			a.Log = slog.New(slog.NewTextHandler(&log, nil))
			var ev events
			a.Fenced = ev.fence

			aDone := goRun(ctx, a, task)
			await(t, ha.started, "a's solve")
			bDone := goRun(ctx, b, task)
			await(t, hb.started, "b's solve")
			begun, err := runs.Run(ctx, "w", "r1")
			if err != nil || begun.Attempt != 2 {
				t.Fatalf("run after b began: attempt %d (%v), want 2", begun.Attempt, err)
			}
			if tc.bFirst {
				close(hb.release)
				if err := await(t, bDone, "b's task"); err != nil {
					t.Fatalf("b: %v", err)
				}
			}
			if tc.aTick == time.Hour {
				close(ha.release)
			}
			// a's refreshes stop a's solve, which waits for nothing else.
			if err := await(t, aDone, "a's task"); err != nil {
				t.Errorf("a's task returned %v: the queue would run the run again for it", err)
			}
			if !tc.bFirst {
				now, err := runs.Run(ctx, "w", "r1")
				if err != nil || !reflect.DeepEqual(now, begun) {
					t.Errorf("b's run record changed while b solved (%v):\n got %+v\nwant %+v", err, now, begun)
				}
				close(hb.release)
				if err := await(t, bDone, "b's task"); err != nil {
					t.Fatalf("b: %v", err)
				}
			}

			done, err := runs.Run(ctx, "w", "r1")
			if err != nil || done.Status != model.RunCompleted || done.Attempt != 2 {
				t.Errorf("run %s at attempt %d (%v), want Completed by attempt 2", done.Status, done.Attempt, err)
			}
			if got := storedWorker(t, base.Results, "w"); got != "b" {
				t.Errorf("stored results are worker %q's, want b's", got)
			}
			if len(ev.fenced) != 1 || ev.fenced[0] != "Toy" {
				t.Errorf("fenced writes counted %v, want one of Toy", ev.fenced)
			}
			line := ""
			for l := range strings.Lines(log.String()) {
				if strings.Contains(l, "write refused") {
					line = l
				}
			}
			for _, want := range []string{"level=WARN", "run=r1", "attempt=1", "current=2", "worker=a"} {
				if !strings.Contains(line, want) {
					t.Errorf("the refusal's log line %q lacks %s; log:\n%s", line, want, log.String())
					break
				}
			}
		})
	}
}

// A worker whose solve ended as it was cut off from Redis, and whose
// task's context the queue then cancelled (its lease ran out), keeps
// trying to store the results: once Redis answers again the run
// completes with them. Cut off for longer than its patience, it gives
// them up and returns the task for another attempt, the run left
// Running.
func TestPublishWaitsForRedis(t *testing.T) {
	for _, tc := range []struct {
		name     string
		patience time.Duration
		restore  bool
	}{
		{"redis back within the patience", 0, true},
		{"redis away for longer than the patience", 500 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := redistest.StartSingle(t)
			proxy := redistest.StartProxy(t, srv)
			r, _ := emptyJobRunnerOn(t, proxy, "w")
			runs, results := redisstore.NewRuns(srv.Client(t)), redisstore.NewResults(srv.Client(t))
			if err := runs.Start(context.Background(), "w", model.Run{RunID: "r1", AnalysisType: "Toy", Status: model.RunQueued,
				QueuedAt: time.Now()}); err != nil {
				t.Fatal(err)
			}
			ctx, lapse := context.WithCancel(context.Background())
			defer lapse()
			r.Name, r.Tick, r.Patience = "a", 5*time.Millisecond, tc.patience
			var log logtest.Buffer
			r.Log = slog.New(slog.NewTextHandler(&log, nil))
			r.Kinds = toyKinds(func(context.Context) error {
				proxy.Cut()
				lapse() // the queue's lease on the task ran out
				return nil
			})
			done := goRun(ctx, r, lifecycle.Task{Workspace: "w", RunID: "r1", Kind: "Toy"})
			waited := func() bool {
				return proxy.Refused() > 0 && strings.Contains(log.String(), "the store cannot be reached")
			}
			// Redis comes back once a write failed for want of it (not
			// merely once the client, which retries by itself, tried).
			for tc.restore && !waited() {
				select {
				case err := <-done:
					t.Fatalf("the task returned %v while Redis was away; log:\n%s", err, log.String())
				case <-time.After(time.Millisecond):
				}
			}
			if tc.restore {
				proxy.Restore()
			}
			err := await(t, done, "the task")
			if !waited() {
				t.Errorf("the worker did not wait for Redis; log:\n%s", log.String())
			}
			run, rerr := runs.Run(context.Background(), "w", "r1")
			if rerr != nil {
				t.Fatal(rerr)
			}
			stored := storedWorker(t, results, "w")
			if tc.restore && (err != nil || run.Status != model.RunCompleted || stored != "a") {
				t.Errorf("after Redis came back: task %v, run %s, results of %q; want nil, Completed, a's", err, run.Status, stored)
			}
			if !tc.restore && (err == nil || model.KindOf(err) == model.KindValidation || run.Status != model.RunRunning || stored != "") {
				t.Errorf("with Redis away: task %v, run %s, results of %q; want an error to retry, Running, none", err, run.Status, stored)
			}
		})
	}
}

// lostReply is a results store whose first publish lands but answers as
// if the connection failed on the way back.
type lostReply struct {
	store.Results
	lost bool
}

func (l *lostReply) Publish(ctx context.Context, ws, runID string, attempt int, kind model.AnalysisFamily, set store.ResultSet,
	drop []string, rows []store.Op, complete func(*model.Run)) error {
	err := l.Results.Publish(ctx, ws, runID, attempt, kind, set, drop, rows, complete)
	if err == nil && !l.lost {
		l.lost = true
		return store.ErrUnreachable
	}
	return err
}

// A publish whose reply was lost is tried again, finds the run completed
// by its own attempt, and the task ends as a completed run's does (it
// failed, saying the run no longer held the workspace, before).
func TestPublishAfterALostReply(t *testing.T) {
	ctx := context.Background()
	r, runs := emptyJobRunner(t, "w")
	if err := runs.Start(ctx, "w", model.Run{RunID: "r1", AnalysisType: "Toy", Status: model.RunQueued, QueuedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	r.Name = "a"
	r.Kinds = toyKinds(func(context.Context) error { return nil })
	lost := &lostReply{Results: r.Results}
	r.Results = lost
	var ev events
	r.Observe = ev.observe
	if err := r.Run(ctx, lifecycle.Task{Workspace: "w", RunID: "r1", Kind: "Toy"}); err != nil {
		t.Errorf("Run = %v, want nil", err)
	}
	run, err := runs.Run(ctx, "w", "r1")
	if err != nil || run.Status != model.RunCompleted || !lost.lost || storedWorker(t, lost.Results, "w") != "a" {
		t.Errorf("run %s (%v), reply lost %v: want Completed with a's results", run.Status, err, lost.lost)
	}
	if len(ev.observed) != 1 || ev.observed[0] != "w/Toy/Completed" {
		t.Errorf("observed %v, want the one completed run", ev.observed)
	}
}

// beginLate is a fan-out store whose first Begin lets late happen first:
// its caller was cut off just before it recorded the parts.
type beginLate struct {
	store.FanOut
	late func()
	once sync.Once
}

func (b *beginLate) Begin(ctx context.Context, ws, runID string, attempt int, cases []int64) error {
	b.once.Do(b.late)
	return b.FanOut.Begin(ctx, ws, runID, attempt, cases)
}

// The run's own task on worker a, cut off just before it recorded the
// parts, comes back after the queue gave the task to another worker,
// whose attempt 2 queued the parts and had case 1 counted done (its task
// not yet finished). a's attempt 1 records and queues nothing, and the
// refusal is counted: recording the parts afresh would count case 1
// pending again, with its task's id still taken, so that no task would
// ever count it and the run would never complete.
func TestFanOutStaleParentIsFenced(t *testing.T) {
	e := newFanEnv(t, 3)
	run := e.start()
	_, parent, _ := e.q.take(t, run.RunID)
	var ev events
	a := &lifecycle.Runner{Kinds: e.r.Kinds, Source: e.r.Source, Jobs: e.r.Jobs, Runs: e.r.Runs, Results: e.r.Results, Queue: e.q,
		Name: "a", Tick: time.Hour, Log: slog.New(slog.NewTextHandler(&logtest.Buffer{}, nil)), Fenced: ev.fence}
	var id1 string
	a.FanOut = &beginLate{FanOut: e.fan, late: func() {
		if err := e.r.Run(e.ctx, parent); err != nil { // attempt 2
			t.Errorf("attempt 2: %v", err)
		}
		var case1 lifecycle.Task
		id1, case1, _ = e.q.take(t, lifecycle.SubTaskID(run.RunID, 1))
		if err := e.r.Run(e.ctx, case1); err != nil {
			t.Errorf("case 1: %v", err)
		}
	}}
	if err := a.Run(e.ctx, parent); err != nil {
		t.Errorf("attempt 1 returned %v: the queue would run it again", err)
	}
	e.q.finish(run.RunID)
	e.q.finish(id1)
	e.drain()
	done := e.endState(run.RunID, model.RunCompleted)
	if done.Attempt != 2 || solved(done) != 3 {
		t.Errorf("attempt %d, %d cases solved; want attempt 2, 3 cases", done.Attempt, solved(done))
	}
	if len(ev.fenced) != 1 {
		t.Errorf("fenced writes counted %v, want one", ev.fenced)
	}
}
