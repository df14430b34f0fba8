package lifecycle_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/analysis/kinds"
	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/analysis/service"
	"github.com/gusset/gusset/pkg/analysis/statics"
	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// These tests drive a non-linear run's tasks by hand through a queue that
// the test holds (fakeQueue: what asynq does with task ids, no worker),
// so that the interleavings a real queue makes rarely (a cancel between
// two steps of the parent, a parent retried while a sub-task finishes)
// happen every time. The stores are the Redis ones on a real server.

// fakeQueue keeps tasks by id like asynq with TaskID: a task queued or
// under way blocks a second Enqueue of its id (ignored, as
// queue.Client.Enqueue ignores ErrTaskIDConflict); a finished task's id
// is free again.
type fakeQueue struct {
	mu     sync.Mutex
	queued map[string][]byte
	order  []string
	active map[string]bool
	// onEnqueue, when set, is called after each task is queued.
	onEnqueue func(id string)
}

func newFakeQueue() *fakeQueue {
	return &fakeQueue{queued: map[string][]byte{}, active: map[string]bool{}}
}

func (q *fakeQueue) Enqueue(_ context.Context, _, id string, payload []byte) error {
	q.mu.Lock()
	if _, ok := q.queued[id]; ok || q.active[id] {
		q.mu.Unlock()
		return nil
	}
	q.queued[id] = payload
	q.order = append(q.order, id)
	hook := q.onEnqueue
	q.mu.Unlock()
	if hook != nil {
		hook(id)
	}
	return nil
}

func (q *fakeQueue) Dequeue(_ context.Context, _, id string) (bool, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, ok := q.queued[id]; ok {
		delete(q.queued, id)
		return true, nil
	}
	return false, nil
}

func (q *fakeQueue) Lost(_ context.Context, id string) (bool, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	_, ok := q.queued[id]
	return !ok && !q.active[id], nil
}

// take hands the oldest queued task (of id, when id is not "") to a
// worker: it is active until finish.
func (q *fakeQueue) take(t *testing.T, id string) (string, lifecycle.Task, bool) {
	t.Helper()
	q.mu.Lock()
	defer q.mu.Unlock()
	for i, cand := range q.order {
		if _, ok := q.queued[cand]; !ok || id != "" && cand != id {
			continue
		}
		payload := q.queued[cand]
		delete(q.queued, cand)
		q.order = append(q.order[:i:i], q.order[i+1:]...)
		q.active[cand] = true
		var task lifecycle.Task
		if err := json.Unmarshal(payload, &task); err != nil {
			t.Fatal(err)
		}
		return cand, task, true
	}
	return "", lifecycle.Task{}, false
}

func (q *fakeQueue) finish(id string) {
	q.mu.Lock()
	delete(q.active, id)
	q.mu.Unlock()
}

func (q *fakeQueue) queuedIDs() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []string
	for _, id := range q.order {
		if _, ok := q.queued[id]; ok {
			out = append(out, id)
		}
	}
	return out
}

// fanEnv is a workspace "w" holding grid-2 with some load cases, a runner,
// a service and the fake queue between them.
type fanEnv struct {
	t       *testing.T
	ctx     context.Context
	srv     *redistest.Server
	runs    *redisstore.Runs
	results *redisstore.Results
	fan     *redisstore.FanOut
	q       *fakeQueue
	r       *lifecycle.Runner
	svc     *service.Service
	// clock is the service's clock: tests move it on to make runs old.
	mu    sync.Mutex
	clock time.Time
}

func newFanEnv(t *testing.T, cases int) *fanEnv {
	t.Helper()
	ctx := context.Background()
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	jobs := redisstore.NewJobs(rdb, editor.Collections())
	now := time.Now()
	if _, err := jobs.Open(ctx, "w", gridjob.Snapshot(2, cases), model.State{IsOpen: true, OpenedAt: &now}); err != nil {
		t.Fatal(err)
	}
	ed := editor.New(redisstore.NewModel(rdb), jobs)
	st := editor.NewStructure(ed)
	e := &fanEnv{t: t, ctx: ctx, srv: srv, runs: redisstore.NewRuns(rdb), results: redisstore.NewResults(rdb), fan: redisstore.NewFanOut(rdb),
		q: newFakeQueue(), clock: now}
	e.r = &lifecycle.Runner{Kinds: kinds.StandardKinds(), Source: adapter.Source{Structure: st, Loads: editor.NewLoads(ed, st)}, Jobs: jobs, Runs: e.runs,
		Results: e.results, FanOut: e.fan, Queue: e.q, Tick: 5 * time.Millisecond, Name: "test",
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	e.svc = &service.Service{Runs: e.runs, Queue: e.q, FanOut: e.fan, Now: e.now}
	return e
}

func (e *fanEnv) now() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.clock
}

func (e *fanEnv) advance(d time.Duration) {
	e.mu.Lock()
	e.clock = e.clock.Add(d)
	e.mu.Unlock()
}

// start starts a non-linear run of few steps.
func (e *fanEnv) start() model.Run {
	e.t.Helper()
	run, err := e.svc.Start(e.ctx, "w", model.AnalysisType("NonLinearStaticAnalysis"), json.RawMessage(`{"loadSteps":2}`))
	if err != nil {
		e.t.Fatal(err)
	}
	return run
}

// work takes the task id (any when ""), runs it as a worker would and
// finishes it; it reports whether there was one.
func (e *fanEnv) work(id string) bool {
	e.t.Helper()
	id, task, ok := e.q.take(e.t, id)
	if !ok {
		return false
	}
	if err := e.r.Run(e.ctx, task); err != nil && model.KindOf(err) != model.KindValidation {
		e.t.Fatalf("task %s: %v", id, err)
	}
	e.q.finish(id)
	return true
}

// drain runs every queued task, as one worker would.
func (e *fanEnv) drain() {
	e.t.Helper()
	for e.work("") {
	}
}

func (e *fanEnv) run(id string) model.Run {
	e.t.Helper()
	run, err := e.runs.Run(e.ctx, "w", id)
	if err != nil {
		e.t.Fatal(err)
	}
	return run
}

// endState checks the end state every finished run must leave: status
// want, the lock free, no task queued, no fan-out state; and, for a
// cancelled run, no results.
func (e *fanEnv) endState(id string, want model.RunStatus) model.Run {
	e.t.Helper()
	t := e.t
	run := e.run(id)
	if run.Status != want {
		pending, _ := e.fan.Pending(e.ctx, "w", id)
		t.Errorf("run %s (%q, progress %q, pending cases %v, queued %v), want %s", run.Status, run.ErrorMessage,
			run.Progress.StatusText, pending, e.q.queuedIDs(), want)
	}
	if h, err := e.runs.Holder(e.ctx, "w"); h != "" || err != nil {
		t.Errorf("lock held by %q (%v) after the run", h, err)
	}
	if q := e.q.queuedIDs(); len(q) > 0 {
		t.Errorf("tasks still queued: %v", q)
	}
	if p, _ := e.fan.Pending(e.ctx, "w", id); len(p) > 0 {
		t.Errorf("cases still pending: %v", p)
	}
	if st, _ := e.fan.Staged(e.ctx, "w", id); len(st) > 0 {
		t.Errorf("staged results left behind for cases %v", stagedKeys(st))
	}
	if want == model.RunCancelled {
		if meta, err := e.results.Meta(e.ctx, "w", model.AnalysisFamily("static")); meta != nil || err != nil {
			t.Errorf("a cancelled run stored results: %s (%v)", meta, err)
		}
	}
	return run
}

func stagedKeys(m map[int64]store.ResultSet) []int64 {
	var out []int64
	for k := range m {
		out = append(out, k)
	}
	return out
}

func solved(run model.Run) int {
	n := 0
	for _, m := range run.Progress.Messages {
		if m.Level == "Information" && strings.Contains(m.Text, "converged") {
			n++
		}
	}
	return n
}

// The plain path, as a reference for the others: parent, then the three
// cases, Completed with every case stored.
func TestFanOutByHand(t *testing.T) {
	e := newFanEnv(t, 3)
	run := e.start()
	e.drain()
	done := e.endState(run.RunID, model.RunCompleted)
	if solved(done) != 3 || done.Progress.LoadCaseCount.Index != 3 {
		t.Errorf("solved %d, count %+v", solved(done), done.Progress.LoadCaseCount)
	}
}

// A cancel that comes while the parent queues its sub-tasks (the run
// Running, not yet marked fanned out): the cancel only marks the run
// Cancelling; each sub-task then counts itself done without solving, and
// the last ends the run Cancelled.
func TestFanOutCancelBeforeFanOutFlag(t *testing.T) {
	e := newFanEnv(t, 3)
	run := e.start()
	var cancelErr error
	once := sync.Once{}
	e.q.onEnqueue = func(id string) {
		if strings.Contains(id, "/") {
			once.Do(func() { cancelErr = e.svc.Cancel(e.ctx, "w", run.RunID) })
		}
	}
	e.drain()
	if cancelErr != nil {
		t.Fatalf("cancel: %v", cancelErr)
	}
	done := e.endState(run.RunID, model.RunCancelled)
	if n := solved(done); n != 0 {
		t.Errorf("%d case(s) solved after the cancel", n)
	}
}

// A cancel once every sub-task is queued and none taken ends the run at
// once and removes the sub-tasks.
func TestFanOutCancelAllQueued(t *testing.T) {
	e := newFanEnv(t, 3)
	run := e.start()
	e.work(run.RunID)
	if q := e.q.queuedIDs(); len(q) != 3 {
		t.Fatalf("queued after the parent: %v", q)
	}
	if err := e.svc.Cancel(e.ctx, "w", run.RunID); err != nil {
		t.Fatal(err)
	}
	e.endState(run.RunID, model.RunCancelled)
}

// A cancel while one sub-task is taken and not yet running (the others
// queued): the others are removed, and the taken one, when it runs, ends
// the run Cancelled without solving.
func TestFanOutCancelWithOneTaken(t *testing.T) {
	e := newFanEnv(t, 3)
	run := e.start()
	e.work(run.RunID)
	id, task, _ := e.q.take(t, "")
	if err := e.svc.Cancel(e.ctx, "w", run.RunID); err != nil {
		t.Fatal(err)
	}
	if got := e.run(run.RunID); got.Status != model.RunCancelling {
		t.Errorf("run %s with a sub-task taken, want Cancelling", got.Status)
	}
	if err := e.r.Run(e.ctx, task); err != nil {
		t.Fatal(err)
	}
	e.q.finish(id)
	if n := solved(e.endState(run.RunID, model.RunCancelled)); n != 0 {
		t.Errorf("%d case(s) solved after the cancel", n)
	}
}

// The last sub-task counted its case done and its worker was lost before
// it completed the run (no case pending, the task to be retried); a
// cancel then ends the run Cancelled, and the retried sub-task does
// nothing more.
func TestFanOutCancelWhileCompleting(t *testing.T) {
	e := newFanEnv(t, 3)
	run := e.start()
	e.work(run.RunID)
	e.work("")
	e.work("")
	id, task, _ := e.q.take(t, "")
	if _, _, err := e.fan.Done(e.ctx, "w", run.RunID, task.LoadCase); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Cancel(e.ctx, "w", run.RunID); err != nil {
		t.Fatal(err)
	}
	if err := e.r.Run(e.ctx, task); err != nil {
		t.Fatal(err)
	}
	e.q.finish(id)
	e.endState(run.RunID, model.RunCancelled)
}

// The parent's worker was lost after it queued the sub-tasks; case 1 was
// solved and its task finished before the parent's retry, which counts
// every case again and queues case 1 anew. The run completes with all
// cases.
func TestFanOutParentRetryAfterCaseDone(t *testing.T) {
	e := newFanEnv(t, 3)
	run := e.start()
	_, parent, _ := e.q.take(t, run.RunID)
	if err := e.r.Run(e.ctx, parent); err != nil {
		t.Fatal(err)
	}
	e.work(lifecycle.SubTaskID(run.RunID, 1))
	if err := e.r.Run(e.ctx, parent); err != nil { // the retry
		t.Fatal(err)
	}
	e.q.finish(run.RunID)
	e.drain()
	done := e.endState(run.RunID, model.RunCompleted)
	if done.Attempt != 2 {
		t.Errorf("attempt %d, want 2", done.Attempt)
	}
	var meta statics.StaticMeta
	raw, _ := e.results.Meta(e.ctx, "w", model.AnalysisFamily("static"))
	if err := json.Unmarshal(raw, &meta); err != nil || len(meta.Cases) != 3 {
		t.Errorf("stored cases %+v (%v), want 3", meta.Cases, err)
	}
}

// The parent is retried while the sub-task of case 1 has counted its case
// done but not yet returned (its queue id still taken). The retry's Begin
// puts case 1 back in the pending set, and its Enqueue of case 1 is
// ignored (the id is taken): nothing will ever count case 1 again. Once
// every task has run, the run must have completed; instead it stays
// Running with case 1 pending, and after the grace it is reaped as
// "worker lost" although every case was solved.
func TestFanOutParentRetryWhileCaseFinishing(t *testing.T) {
	e := newFanEnv(t, 3)
	run := e.start()
	_, parent, _ := e.q.take(t, run.RunID)
	if err := e.r.Run(e.ctx, parent); err != nil {
		t.Fatal(err)
	}
	id1, case1, _ := e.q.take(t, lifecycle.SubTaskID(run.RunID, 1))
	if err := e.r.Run(e.ctx, case1); err != nil { // Done counted; the task not yet finished
		t.Fatal(err)
	}
	if err := e.r.Run(e.ctx, parent); err != nil { // the parent's retry meanwhile
		t.Fatal(err)
	}
	e.q.finish(run.RunID)
	e.q.finish(id1)
	e.drain()
	done := e.run(run.RunID)
	if done.Status != model.RunCompleted {
		pending, _ := e.fan.Pending(e.ctx, "w", run.RunID)
		e.advance(10 * time.Minute)
		reaped, err := e.svc.Get(e.ctx, "w", run.RunID)
		t.Errorf("every task ran and every case was solved, yet the run is %s with cases %v pending and nothing queued "+
			"to count them; after the grace it reads %s %q (%v)", done.Status, pending, reaped.Status, reaped.ErrorMessage, err)
	}
}

// A fanned-out run whose sub-tasks all wait in the queue (the workers busy
// elsewhere) for longer than the grace is not lost.
func TestFanOutQueuedSubTasksNotLost(t *testing.T) {
	e := newFanEnv(t, 3)
	run := e.start()
	e.work(run.RunID)
	e.advance(10 * time.Minute)
	got, err := e.svc.Get(e.ctx, "w", run.RunID)
	if err != nil || got.Status != model.RunRunning {
		t.Fatalf("run waiting for workers read as %s %q (%v), want Running", got.Status, got.ErrorMessage, err)
	}
	// Once a queued sub-task is lost (gone from the queue), the run is
	// Failed with a message, and the lock released.
	e.q.Dequeue(e.ctx, "w", lifecycle.SubTaskID(run.RunID, 2))
	got, err = e.svc.Get(e.ctx, "w", run.RunID)
	if err != nil || got.Status != model.RunFailed || !strings.Contains(got.ErrorMessage, "worker lost") {
		t.Errorf("run with a lost sub-task read as %s %q (%v), want Failed, worker lost", got.Status, got.ErrorMessage, err)
	}
	if h, _ := e.runs.Holder(e.ctx, "w"); h != "" {
		t.Errorf("lock held by %q after the run was reaped", h)
	}
	// The reaped run's remaining sub-tasks do nothing.
	e.drain()
	if got := e.run(run.RunID); got.Status != model.RunFailed {
		t.Errorf("run %s after its remaining sub-tasks ran", got.Status)
	}
	if meta, _ := e.results.Meta(e.ctx, "w", model.AnalysisFamily("static")); meta != nil {
		t.Error("a reaped run stored results")
	}
	// Its fan-out state goes with it.
	if st, _ := e.fan.Staged(e.ctx, "w", run.RunID); len(st) > 0 {
		p, _ := e.fan.Pending(e.ctx, "w", run.RunID)
		t.Errorf("a reaped run left its fan-out state (staged %v, pending %v) until the TTL (%v)", stagedKeys(st), p, store.FanOutTTL)
	}
}

// A sub-task of a run trimmed from the history, or of a finished run, is
// dropped without error.
func TestFanOutStraySubTasks(t *testing.T) {
	e := newFanEnv(t, 2)
	for _, task := range []lifecycle.Task{
		{Workspace: "w", RunID: "gone", Kind: model.AnalysisType("NonLinearStaticAnalysis"), LoadCase: 1},
	} {
		if err := e.r.Run(e.ctx, task); err != nil {
			t.Errorf("task %+v: %v", task, err)
		}
	}
	run := e.start()
	e.drain()
	e.endState(run.RunID, model.RunCompleted)
	if err := e.r.Run(e.ctx, lifecycle.Task{Workspace: "w", RunID: run.RunID, Kind: model.AnalysisType("NonLinearStaticAnalysis"), LoadCase: 2}); err != nil {
		t.Errorf("late sub-task: %v", err)
	}
	if err := e.r.Run(e.ctx, lifecycle.Task{Workspace: "w", RunID: run.RunID, Kind: model.AnalysisType("NonLinearStaticAnalysis")}); err != nil {
		t.Errorf("late parent: %v", err)
	}
	e.endState(run.RunID, model.RunCompleted)
}

// updateCounter counts the run-record updates (the supervisor's ticks
// among them), so that a test can wait for a tick instead of sleeping.
type updateCounter struct {
	store.Runs
	mu sync.Mutex
	n  int
}

func (u *updateCounter) Update(ctx context.Context, ws, id string, attempt int, fn func(*model.Run) error) (model.Run, error) {
	u.mu.Lock()
	u.n++
	u.mu.Unlock()
	return u.Runs.Update(ctx, ws, id, attempt, fn)
}

func (u *updateCounter) count() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.n
}

// cancelOnShared cancels the run once its own task has staged what the
// parts share, and holds the planning until the supervisor has ticked
// twice since: the cancel reaches the run while it plans.
type cancelOnShared struct {
	store.FanOut
	t      *testing.T
	ticks  *updateCounter
	cancel func()
}

func (c cancelOnShared) Stage(ctx context.Context, ws, runID string, lc int64, set store.ResultSet) error {
	c.t.Helper()
	err := c.FanOut.Stage(ctx, ws, runID, lc, set)
	if lc == lifecycle.SharedPart {
		c.cancel()
		seen := c.ticks.count()
		deadline := time.Now().Add(time.Minute) // a safety net only
		for c.ticks.count() < seen+2 {
			if time.Now().After(deadline) {
				c.t.Fatal("the supervisor did not tick")
			}
			time.Sleep(time.Millisecond)
		}
	}
	return err
}

// A cancel that reaches a fan-out run while its own task plans ends it
// Cancelled there: the lock is freed and what the plan staged is
// discarded, with no part queued. (It once left the run Cancelling, the
// workspace locked until the run was given up as lost, and the staged
// columns in Redis.)
func TestFanOutCancelWhilePlanning(t *testing.T) {
	e := newFanEnv(t, 3)
	run := e.start()
	ticks := &updateCounter{Runs: e.runs}
	e.r.Runs = ticks
	e.r.FanOut = cancelOnShared{FanOut: e.fan, t: t, ticks: ticks, cancel: func() {
		if err := e.svc.Cancel(e.ctx, "w", run.RunID); err != nil {
			t.Errorf("cancel: %v", err)
		}
	}}
	e.drain()
	e.endState(run.RunID, model.RunCancelled)
}
