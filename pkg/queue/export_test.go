package queue

import (
	"context"
	"strconv"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// Unfair makes w let every task run at once, as before fair scheduling:
// the baseline of BenchmarkFairWait.
func Unfair(w *Worker) { w.fair.off = true }

// SetFairLease sets how long a task under way counts without its worker
// renewing it, for the workers this process starts from now on.
func SetFairLease(d time.Duration) { fairLease = d }

// Busy counts the tasks of workspace ws under way whose lease has not run
// out, as the decision counts them.
func Busy(ctx context.Context, rdb redis.UniversalClient, ws string) (int64, error) {
	now, err := rdb.Time(ctx).Result()
	if err != nil {
		return 0, err
	}
	return rdb.ZCount(ctx, fairBusyPrefix+ws, "("+strconv.FormatInt(now.UnixMicro(), 10), "+inf").Result()
}

// BeforeLookup makes c call hook once, the first time Dequeue looks a
// task's state up after asynq refused to delete it: a test puts the
// task's next change of state in that window.
func BeforeLookup(c *Client, hook func()) {
	c.insp = &hookedInspector{inspector: c.insp, hook: hook}
}

type hookedInspector struct {
	inspector
	hook func()
}

func (h *hookedInspector) GetTaskInfo(queue, id string) (*asynq.TaskInfo, error) {
	if h.hook != nil {
		hook := h.hook
		h.hook = nil
		hook()
	}
	return h.inspector.GetTaskInfo(queue, id)
}
