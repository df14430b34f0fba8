package queue_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/gusset/gusset/pkg/queue"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// Dequeue of a task that a worker has and finishes meanwhile reports
// false, never an error: a cancel of a fanned-out run dequeues every
// pending sub-task while the workers finish theirs (they see the cancel
// within a tick), and an error there fails the cancel (500). Asynq
// refuses to delete an active task; when the task completes between that
// refusal and the look-up of its state, the look-up finds no task.
// Dequeue is called in a tight loop on each task while a worker runs it
// (a handler of about a millisecond), so that the task's completion falls
// between the two calls on some of the tasks.
func TestDequeueOfTaskFinishingMeanwhile(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx, cancel := context.WithCancel(context.Background())
	var handled atomic.Int64
	w := queue.NewWorker(rdb, slog.New(slog.NewTextHandler(io.Discard, nil)), queue.Handler{TaskType: queue.TypeAnalysisRun,
		Handle: func(context.Context, []byte) error {
			time.Sleep(time.Millisecond)
			handled.Add(1)
			return nil
		}})
	stopped := make(chan error, 1)
	go func() { stopped <- w.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-stopped })

	c := queue.NewClient(rdb)
	insp := asynq.NewInspectorFromRedisClient(rdb)
	const n = 40
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("run/%d", i+1)
		if err := c.Enqueue(ctx, "a", ids[i], []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	var errs []error
	removedCount := 0
	// A safety net for the loops below (each ends as soon as its task
	// has gone), generous for a loaded machine.
	deadline := time.Now().Add(2 * time.Minute)
	for _, id := range ids {
		// Wait until a worker has the task (or it has already finished).
		for time.Now().Before(deadline) {
			info, err := insp.GetTaskInfo(queue.QueueAnalysis, id)
			if err != nil || info.State == asynq.TaskStateActive {
				break
			}
		}
		for time.Now().Before(deadline) {
			removed, err := c.Dequeue(ctx, "a", id)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", id, err))
				break
			}
			if removed {
				removedCount++ // taken out before a worker got it: fine
			}
			if _, err := insp.GetTaskInfo(queue.QueueAnalysis, id); errors.Is(err, asynq.ErrTaskNotFound) {
				break
			}
		}
	}
	t.Logf("%d tasks handled, %d dequeued before a worker took them, %d Dequeue errors", handled.Load(), removedCount, len(errs))
	if len(errs) > 0 {
		t.Errorf("Dequeue of a task finishing meanwhile failed %d time(s), first: %v", len(errs), errs[0])
	}
}

// Dequeue of a task that a worker hands back to the queue between
// asynq's refusal to delete it (it was active) and the look-up of its
// state removes it, never fails: a worker hands a task back whenever its
// workspace must wait its turn (fair scheduling), and a cancel of a
// fanned-out run that met one answered 500. The handler here fails its
// attempt, which hands the task back the same way (state retry).
func TestDequeueOfTaskHandedBackMeanwhile(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx, cancel := context.WithCancel(context.Background())
	started, fail := make(chan struct{}, 1), make(chan struct{})
	w := queue.NewWorker(rdb, slog.New(slog.NewTextHandler(io.Discard, nil)), queue.Handler{TaskType: queue.TypeAnalysisRun,
		Handle: func(context.Context, []byte) error {
			started <- struct{}{}
			<-fail
			return errors.New("this attempt fails")
		}})
	stopped := make(chan error, 1)
	go func() { stopped <- w.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-stopped })

	c := queue.NewClient(rdb)
	insp := asynq.NewInspectorFromRedisClient(rdb)
	const id = "run/1"
	if err := c.Enqueue(ctx, "a", id, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(time.Minute):
		t.Fatal("no worker took the task within a minute")
	}
	queue.BeforeLookup(c, func() {
		close(fail)
		deadline := time.Now().Add(time.Minute)
		for time.Now().Before(deadline) {
			info, err := insp.GetTaskInfo(queue.QueueAnalysis, id)
			if err == nil && info.State == asynq.TaskStateRetry {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Error("the failed task did not reach state retry within a minute")
	})
	removed, err := c.Dequeue(ctx, "a", id)
	if err != nil {
		t.Fatalf("Dequeue: %v", err)
	}
	if !removed {
		t.Error("Dequeue reported false: the task, back in the queue, should have been removed")
	}
	if _, err := insp.GetTaskInfo(queue.QueueAnalysis, id); !errors.Is(err, asynq.ErrTaskNotFound) {
		t.Errorf("after Dequeue the task is still there (look-up: %v)", err)
	}
}
