// Package queue carries analysis work from the API to the solver workers
// over asynq (Redis): the task type, the client the API enqueues with, and
// the worker process that serves the tasks.
//
// Retries: a task whose worker dies keeps its lease for 30 s; asynq's
// recoverer then hands it to another worker (1 to about 2 min 10 s later:
// 30 s lease, 30 s margin, a recoverer that runs once a minute, the retry
// delay and the forwarding of the retried task), up to MaxRetry times (Client.MaxRetry). A handler error of model.KindValidation (the
// model cannot be analysed) is final: retrying cannot mend it.
//
// Workspaces share the workers fairly (fair.go): a task whose workspace
// has more tasks under way than another workspace that waits goes back to
// the queue for a moment, which asynq does not count as an attempt.
package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/model"
)

// QueueAnalysis is the asynq queue that analysis tasks go to.
const QueueAnalysis = "analysis"

// TypeAnalysisRun is the task type of an analysis run; its payload is the
// JSON of lifecycle.Task.
const TypeAnalysisRun = "analysis:run"

// MaxRetry is how many times a task is handed to another worker after its
// worker was lost, before the run is given up as "worker lost": the
// default of Client.MaxRetry.
const MaxRetry = 3

// TaskTimeout bounds one attempt of an analysis.
const TaskTimeout = 24 * time.Hour

// retryDelay is the wait before a failed attempt runs again. asynq's
// default grows to minutes; a lost worker's run should resume at once.
const retryDelay = time.Second

// TaskCheckInterval is how long an idle worker waits before it looks for
// a task again (asynq sleeps between a half and one and a half of it), so
// about how long a run queued for an idle worker waits to start. A second
// keeps an idle worker's Redis traffic low. Tests that run one small
// analysis after another shorten it before they start workers: their runs
// would otherwise spend most of their time waiting to be picked up.
var TaskCheckInterval = time.Second

// Handler serves one task type.
type Handler struct {
	TaskType string
	Handle   func(ctx context.Context, payload []byte) error
}

// Worker is an asynq server that runs one task at a time: an analysis uses
// every core it is given, so more throughput comes from more workers.
type Worker struct {
	srv  *asynq.Server
	mux  *asynq.ServeMux
	fair *fair
}

// NewWorker builds a worker on the Redis client rdb.
func NewWorker(rdb redis.UniversalClient, log *slog.Logger, handlers ...Handler) *Worker {
	srv := asynq.NewServerFromRedisClient(rdb, asynq.Config{
		Concurrency: 1,
		Queues:      map[string]int{QueueAnalysis: 1},
		Logger:      slogAdapter{log},
		RetryDelayFunc: func(_ int, err error, _ *asynq.Task) time.Duration {
			if errors.Is(err, errWait) {
				return waitDelay
			}
			return retryDelay
		},
		// A task waiting its turn has not failed: its attempts are left
		// as they were.
		IsFailure:                func(err error) bool { return err != nil && !errors.Is(err, errWait) },
		DelayedTaskCheckInterval: forwardInterval,
		TaskCheckInterval:        TaskCheckInterval,
		// A stopping worker hands its task back at once; the solver sees
		// the cancellation within a second.
		ShutdownTimeout: 5 * time.Second,
	})
	w := &Worker{srv: srv, mux: asynq.NewServeMux(), fair: &fair{rdb: rdb, insp: asynq.NewInspectorFromRedisClient(rdb), log: log}}
	for _, h := range handlers {
		w.mux.HandleFunc(h.TaskType, func(ctx context.Context, t *asynq.Task) error {
			release, err := w.fair.admit(ctx, t)
			if err != nil {
				return err
			}
			defer release()
			err = h.Handle(ctx, t.Payload())
			switch {
			case err == nil:
			case model.KindOf(err) == model.KindValidation:
				// The handler has told the user; retrying cannot help.
				log.Info("task refused", "type", h.TaskType, "err", err)
				return fmt.Errorf("%w: %w", asynq.SkipRetry, err)
			default:
				// asynq logs nothing of a handler's error: without this
				// line an operator sees a retried task and no reason.
				log.Warn("task failed; it is retried while retries remain", "type", h.TaskType, "err", err)
			}
			return err
		})
	}
	return w
}

// Run serves tasks until ctx ends, then stops taking new tasks and waits
// for the running one.
func (w *Worker) Run(ctx context.Context) error {
	if err := w.srv.Start(w.mux); err != nil {
		return fmt.Errorf("start worker: %w", err)
	}
	<-ctx.Done()
	w.srv.Shutdown()
	return nil
}

// inspector is what Client reads and removes queued tasks through: an
// *asynq.Inspector.
type inspector interface {
	DeleteTask(queue, id string) error
	GetTaskInfo(queue, id string) (*asynq.TaskInfo, error)
	Queues() ([]string, error)
	GetQueueInfo(queue string) (*asynq.QueueInfo, error)
	Servers() ([]*asynq.ServerInfo, error)
}

var _ inspector = (*asynq.Inspector)(nil)

// Client enqueues analysis tasks and inspects them: the API's side of the
// queue.
type Client struct {
	rdb  redis.UniversalClient
	c    *asynq.Client
	insp inspector
	// MaxRetry is the retry count the tasks it enqueues carry (asynq keeps
	// it in each task, so the enqueuing process decides); NewClient sets
	// the package's MaxRetry.
	MaxRetry int
}

// NewClient returns a queue client on rdb.
func NewClient(rdb redis.UniversalClient) *Client {
	return &Client{rdb: rdb, c: asynq.NewClientFromRedisClient(rdb), insp: asynq.NewInspectorFromRedisClient(rdb), MaxRetry: MaxRetry}
}

// Enqueue queues an analysis task of workspace ws under id (a run's id,
// or a sub-task's), so that it can be found in the queue again (to cancel
// it, or to tell that it is lost). A task of that id still in the queue
// is left as it is: the enqueuer is a repeated attempt, and the task it
// queued before stands. The task takes its turn among the workspaces'
// (fair.go); ws "" takes no part.
func (c *Client) Enqueue(ctx context.Context, ws, id string, payload []byte) error {
	err := markWaiting(ctx, c.rdb, ws, id)
	if err == nil {
		task := asynq.NewTaskWithHeaders(TypeAnalysisRun, payload, map[string]string{headerWorkspace: ws})
		_, err = c.c.EnqueueContext(ctx, task, asynq.Queue(QueueAnalysis),
			asynq.TaskID(id), asynq.MaxRetry(c.MaxRetry), asynq.Timeout(TaskTimeout))
	}
	if errors.Is(err, asynq.ErrTaskIDConflict) {
		return nil
	}
	if err != nil {
		return model.Wrap("queue analysis", &model.Error{Kind: model.KindUnavailable,
			Msg: "the analysis could not be queued; retry", Err: err})
	}
	return nil
}

// Dequeue removes a task of workspace ws (by the id it was queued under)
// that no worker has taken yet. It reports false when a worker has it (or
// it is gone).
//
// asynq refuses to delete a task a worker holds. A worker can hand one
// back to the queue (its workspace waits its turn, or the attempt
// failed) just after the refusal, so a task found waiting again is
// deleted again, a few times at most.
func (c *Client) Dequeue(ctx context.Context, ws, id string) (bool, error) {
	var err error
	for range dequeueTries {
		err = c.insp.DeleteTask(QueueAnalysis, id)
		if err == nil || errors.Is(err, asynq.ErrTaskNotFound) || errors.Is(err, asynq.ErrQueueNotFound) {
			// It waits no more (a task a worker has was admitted, which
			// dropped its mark already). A mark left behind is dropped when a
			// worker finds it stale.
			// Failing to, it is dropped then too: the task is gone either way.
			_ = unmarkWaiting(ctx, c.rdb, ws, id)
			return err == nil, nil
		}
		info, ierr := c.insp.GetTaskInfo(QueueAnalysis, id)
		switch {
		case ierr == nil && info.State == asynq.TaskStateActive,
			// Finished between the two calls.
			errors.Is(ierr, asynq.ErrTaskNotFound), errors.Is(ierr, asynq.ErrQueueNotFound):
			return false, nil
		case ierr == nil && isWaiting(info.State):
			continue // handed back meanwhile
		case ierr != nil:
			// Neither call could read the task: Redis is down or
			// restarting.
			return false, model.Wrap("remove queued analysis", &model.Error{Kind: model.KindUnavailable,
				Msg: unreachableMsg, Err: errors.Join(err, ierr)})
		}
		return false, model.Wrap("remove queued analysis", err)
	}
	return false, model.Wrap("remove queued analysis", &model.Error{Kind: model.KindUnavailable,
		Msg: "the analysis task went back and forth between a worker and the queue; retry", Err: err})
}

// dequeueTries bounds how many times Dequeue deletes a task that a worker
// keeps handing back.
const dequeueTries = 3

// Lost reports whether a task (by the id it was queued under) has left
// the queue without a worker finishing it: archived after its retries ran
// out, or gone.
func (c *Client) Lost(_ context.Context, id string) (bool, error) {
	info, err := c.insp.GetTaskInfo(QueueAnalysis, id)
	switch {
	case errors.Is(err, asynq.ErrTaskNotFound), errors.Is(err, asynq.ErrQueueNotFound):
		return true, nil
	case err != nil:
		return false, model.Wrap("inspect analysis task", &model.Error{Kind: model.KindUnavailable, Msg: unreachableMsg, Err: err})
	}
	return info.State == asynq.TaskStateArchived, nil
}

// unreachableMsg is what a client learns when the queue's look-up of a
// task failed: asynq reports nothing else that way but a Redis it could
// not use (stopped, restarting), which a retry outlives.
const unreachableMsg = "the analysis queue cannot be read right now (its storage may be restarting); retry in a few seconds"

// Stats is a snapshot of the analysis queue.
type Stats struct {
	// Depth is the number of tasks waiting for a worker: pending,
	// scheduled and retrying.
	Depth int
	// Active is the number of tasks a worker holds.
	Active int
	// Oldest is the age of the oldest pending task (ready to run, not yet
	// taken); zero when none is pending.
	Oldest time.Duration
}

// Stats reads the analysis queue. A queue that was never used is empty.
func (c *Client) Stats(_ context.Context) (Stats, error) {
	// GetQueueInfo reports a queue asynq has not seen yet (no task was
	// ever queued) with an error that is not ErrQueueNotFound, so look
	// the queue up first.
	names, err := c.insp.Queues()
	if err != nil {
		return Stats{}, model.Wrap("list queues", err)
	}
	if !slices.Contains(names, QueueAnalysis) {
		return Stats{}, nil
	}
	qi, err := c.insp.GetQueueInfo(QueueAnalysis)
	if errors.Is(err, asynq.ErrQueueNotFound) {
		return Stats{}, nil
	}
	if err != nil {
		return Stats{}, model.Wrap("inspect analysis queue", err)
	}
	return Stats{Depth: qi.Pending + qi.Scheduled + qi.Retry, Active: qi.Active, Oldest: max(qi.Latency, 0)}, nil
}

// Workers counts the live worker servers that serve the analysis queue
// (asynq drops a server whose heartbeat stopped) and how many of them hold
// a task now.
func (c *Client) Workers(_ context.Context) (total, busy int, err error) {
	servers, err := c.insp.Servers()
	if err != nil {
		return 0, 0, model.Wrap("list analysis workers", err)
	}
	for _, s := range servers {
		if _, ok := s.Queues[QueueAnalysis]; !ok {
			continue
		}
		total++
		if len(s.ActiveWorkers) > 0 {
			busy++
		}
	}
	return total, busy, nil
}

// slogAdapter lets asynq log through slog.
type slogAdapter struct{ l *slog.Logger }

func (a slogAdapter) Debug(args ...any) { a.l.Debug(fmt.Sprint(args...), "component", "asynq") }
func (a slogAdapter) Info(args ...any)  { a.l.Info(fmt.Sprint(args...), "component", "asynq") }
func (a slogAdapter) Warn(args ...any)  { a.l.Warn(fmt.Sprint(args...), "component", "asynq") }
func (a slogAdapter) Error(args ...any) { a.l.Error(fmt.Sprint(args...), "component", "asynq") }
func (a slogAdapter) Fatal(args ...any) {
	a.l.Error(fmt.Sprint(args...), "component", "asynq", "fatal", true)
}
