package queue

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// Fair scheduling across workspaces. asynq serves one queue in the order
// tasks were queued, and its queues are fixed when a worker starts, so
// per-workspace queues could not follow new workspaces. A run that fans
// out queues one task per load case; without more, another workspace's
// run queued after them waited until every one had been taken.
//
// So a worker decides, when it takes a task, whether the task's workspace
// may have it: it may, unless another workspace waits with fewer tasks
// under way (or as many, waiting since longer: it was served less
// recently). A task that may not goes back to the queue for a moment
// (waitDelay), behind the tasks queued meanwhile, and the worker takes
// the next one; the waiting workspace's task is reached within one pass
// over the queue. A fan-out still takes every idle worker while nobody
// else waits, and another workspace's run starts as soon as one of its
// tasks ends.
//
// The state, in Redis under one hash tag (one slot on a cluster):
//
//	{gusset:fair}:waiting      sorted set: workspace → when its oldest
//	                           waiting task was queued (µs)
//	{gusset:fair}:wait:{ws}    sorted set: the ids of ws's waiting tasks
//	                           → when each was queued (µs)
//	{gusset:fair}:busy:{ws}    sorted set: a token per task of ws under way
//	                           → when its lease runs out (µs)
//	{gusset:fair}:served       hash: workspace → when a task of it last
//	                           started or ended (µs)
//
// A task under way holds a lease its worker renews; a worker that is
// killed stops renewing, and the task stops counting after fairLease. A
// waiting mark whose task has left the queue without a worker (deleted,
// archived) is dropped when a decision would rest on it: the worker looks
// the task up in asynq first. Every time is Redis's clock, so that the
// workers' clocks need not agree.

// headerWorkspace is the task header naming the workspace a task is for;
// a task without one (queued by a build before fair scheduling) runs
// without taking part.
const headerWorkspace = "workspace"

// fairPrefix starts every key of the fair-scheduling state.
const fairPrefix = "{gusset:fair}:"

// fairLease is how long a task under way counts for its workspace
// without its worker renewing it (every fairLease/3): how long a killed
// worker's task goes on counting. A variable for the test that kills a
// worker.
var fairLease = 30 * time.Second

// waitDelay is how long a task that must wait is kept out of the queue.
// asynq rounds it to the second and moves it back within
// forwardInterval.
const waitDelay = time.Second

// forwardInterval is how often a worker moves the tasks whose delay has
// passed back to the queue (asynq's default is 5 s).
const forwardInterval = time.Second

// maxChecks bounds how many stale waiting marks one decision drops before
// it lets the task run.
const maxChecks = 8

// errWait is the handler error that hands a task back to wait: not a
// failure (asynq counts no attempt), retried after waitDelay.
var errWait = errors.New("another workspace waits with fewer tasks under way: this task waits its turn")

// fairKeys are the keys every script is given: the waiting and served
// sets, and workspace ws's wait and busy sets.
func fairKeys(ws string) []string {
	return []string{fairPrefix + "waiting", fairPrefix + "served", fairWaitPrefix + ws, fairBusyPrefix + ws}
}

// The prefixes of a workspace's wait and busy sets.
const (
	fairWaitPrefix = fairPrefix + "wait:"
	fairBusyPrefix = fairPrefix + "busy:"
)

// isWaiting reports whether a task in state s is in the queue, waiting
// for a worker.
func isWaiting(s asynq.TaskState) bool {
	return s == asynq.TaskStatePending || s == asynq.TaskStateScheduled || s == asynq.TaskStateRetry
}

// luaNow is Redis's clock in microseconds, as the scripts read it (a
// double holds it exactly): fine enough that a task ending after another
// was queued reads as later.
const luaNow = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
`

// luaRescore sets workspace ws's score in the waiting set to its oldest
// waiting task, or removes it when it has none. KEYS[1] is the waiting
// set, KEYS[3] ws's wait set.
const luaRescore = `local function rescore(ws)
  local first = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
  if first[2] then redis.call('ZADD', KEYS[1], first[2], ws) else redis.call('ZREM', KEYS[1], ws) end
end
`

// markScript records task ARGV[2] of workspace ARGV[1] as waiting, since
// now unless it already was. KEYS: fairKeys.
var markScript = redis.NewScript(luaNow + luaRescore + `
redis.call('ZADD', KEYS[3], 'NX', now, ARGV[2])
rescore(ARGV[1])
return 1`)

// unmarkScript drops task ARGV[2] of workspace ARGV[1] from the waiting
// tasks. KEYS: fairKeys.
var unmarkScript = redis.NewScript(luaRescore + `
redis.call('ZREM', KEYS[3], ARGV[2])
rescore(ARGV[1])
return 1`)

// admitScript decides whether task ARGV[2] of workspace ARGV[1] may run
// now. It may unless another waiting workspace has fewer tasks under way,
// or as many and has waited since longer (since: the later of when it
// was last served and when its oldest waiting task was queued; names
// break a tie), or ARGV[5] is '1' (it must run). Admitted, it counts as
// under way with token ARGV[3] for ARGV[4] ms and the workspace as
// served; the reply is {'run'}. Otherwise the task stays marked waiting
// and the reply is {'wait', the workspace it waits for, that
// workspace's oldest waiting task}. KEYS: fairKeys. ARGV[6], ARGV[7]:
// the prefixes of the wait and busy sets, to name other workspaces' (one
// slot through the hash tag).
var admitScript = redis.NewScript(luaNow + luaRescore + `
local ws, id = ARGV[1], ARGV[2]
local function busy(key)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  return redis.call('ZCARD', key)
end
local function since(w, oldest)
  return math.max(tonumber(redis.call('HGET', KEYS[2], w) or '0'), oldest)
end
if ARGV[5] ~= '1' then
  local oldest = tonumber(redis.call('ZSCORE', KEYS[3], id) or now)
  local first = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
  if first[2] then oldest = math.min(oldest, tonumber(first[2])) end
  local mine, s = busy(KEYS[4]), since(ws, oldest)
  local others = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
  for i = 1, #others, 2 do
    local v = others[i]
    if v ~= ws then
      local b, sv = busy(ARGV[7] .. v), since(v, tonumber(others[i + 1]))
      if b < mine or (b == mine and (sv < s or (sv == s and v < ws))) then
        redis.call('ZADD', KEYS[3], 'NX', now, id)
        rescore(ws)
        local head = redis.call('ZRANGE', ARGV[6] .. v, 0, 0)
        return {'wait', v, head[1] or ''}
      end
    end
  end
end
redis.call('ZREM', KEYS[3], id)
rescore(ws)
redis.call('ZADD', KEYS[4], now + 1000 * tonumber(ARGV[4]), ARGV[3])
redis.call('HSET', KEYS[2], ws, now)
return {'run'}`)

// renewScript extends the lease of token ARGV[1] to ARGV[2] ms from now,
// if it still counts. KEYS: fairKeys.
var renewScript = redis.NewScript(luaNow + `
return redis.call('ZADD', KEYS[4], 'XX', now + 1000 * tonumber(ARGV[2]), ARGV[1])`)

// releaseScript ends the task of token ARGV[2] of workspace ARGV[1]: it
// no longer counts, and the workspace was served until now. A workspace
// with nothing waiting or under way is forgotten: a task it queues later
// waits since it was queued, which is later than now. KEYS: fairKeys.
var releaseScript = redis.NewScript(luaNow + `
redis.call('ZREM', KEYS[4], ARGV[2])
if redis.call('EXISTS', KEYS[3]) == 0 and redis.call('EXISTS', KEYS[4]) == 0 then
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('HSET', KEYS[2], ARGV[1], now)
end
return 1`)

// fair is a worker's side of fair scheduling.
type fair struct {
	rdb  redis.UniversalClient
	insp *asynq.Inspector
	log  *slog.Logger
	// off lets every task run at once, as before fair scheduling (the
	// benchmark's baseline).
	off bool
}

// admit decides whether task (its id and workspace from ctx and t) may
// run on this worker now. It returns errWait when the task must wait,
// and otherwise a release to call when the task has ended. When the
// decision cannot be made (Redis failing) the task runs: fairness is
// given up, not the task.
func (f *fair) admit(ctx context.Context, t *asynq.Task) (release func(), err error) {
	ws := t.Headers()[headerWorkspace]
	id, _ := asynq.GetTaskID(ctx)
	if f.off || ws == "" || id == "" {
		return func() {}, nil
	}
	// A task on its last attempt cannot wait: asynq archives a task handed
	// back with its retries spent, whatever the error.
	retried, _ := asynq.GetRetryCount(ctx)
	maxRetry, _ := asynq.GetMaxRetry(ctx)
	must := retried >= maxRetry
	token := newToken()
	for checks := 0; ; checks++ {
		// Past maxChecks stale marks, the task runs.
		res, err := admitScript.Run(ctx, f.rdb, fairKeys(ws), ws, id, token, fairLease.Milliseconds(), must || checks == maxChecks,
			fairWaitPrefix, fairBusyPrefix).StringSlice()
		if err != nil {
			f.log.Warn("fair scheduling: the decision failed; the task runs", "task", id, "err", err)
			return func() {}, nil
		}
		if res[0] == "run" {
			return f.hold(ctx, ws, token), nil
		}
		if len(res) == 3 && f.stillWaiting(ctx, res[1], res[2]) {
			f.log.Debug("task waits its turn", "task", id, "workspace", ws, "for", res[1])
			return nil, errWait
		}
	}
}

// stillWaiting reports whether task id of workspace ws waits in the
// queue; a mark whose task does not (deleted, archived, or taken by a
// worker that died before it was admitted) is dropped.
func (f *fair) stillWaiting(ctx context.Context, ws, id string) bool {
	if id != "" {
		info, err := f.insp.GetTaskInfo(QueueAnalysis, id)
		if err == nil && isWaiting(info.State) {
			return true
		}
		if err != nil && !errors.Is(err, asynq.ErrTaskNotFound) && !errors.Is(err, asynq.ErrQueueNotFound) {
			// Cannot tell: trust the mark.
			return true
		}
	}
	if err := unmarkScript.Run(ctx, f.rdb, fairKeys(ws), ws, id).Err(); err != nil {
		f.log.Warn("fair scheduling: drop a stale waiting mark", "workspace", ws, "task", id, "err", err)
	}
	return false
}

// hold keeps the lease of an admitted task until the returned release is
// called.
func (f *fair) hold(ctx context.Context, ws, token string) func() {
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(fairLease / 3)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if err := renewScript.Run(context.WithoutCancel(ctx), f.rdb, fairKeys(ws), token, fairLease.Milliseconds()).Err(); err != nil {
					f.log.Warn("fair scheduling: renew a task's lease", "workspace", ws, "err", err)
				}
			}
		}
	}()
	return func() {
		close(stop)
		<-done
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if err := releaseScript.Run(rctx, f.rdb, fairKeys(ws), ws, token).Err(); err != nil {
			// The lease runs out by itself.
			f.log.Warn("fair scheduling: release a task's lease", "workspace", ws, "err", err)
		}
	}
}

// markWaiting records a task about to be queued as waiting; Client.Enqueue
// calls it before the task is queued, so that a worker taking the task
// at once finds the mark to clear.
func markWaiting(ctx context.Context, rdb redis.UniversalClient, ws, id string) error {
	if ws == "" {
		return nil
	}
	if err := markScript.Run(ctx, rdb, fairKeys(ws), ws, id).Err(); err != nil {
		return fmt.Errorf("mark task waiting: %w", err)
	}
	return nil
}

// unmarkWaiting drops a task's waiting mark (it was dequeued).
func unmarkWaiting(ctx context.Context, rdb redis.UniversalClient, ws, id string) error {
	if ws == "" {
		return nil
	}
	if err := unmarkScript.Run(ctx, rdb, fairKeys(ws), ws, id).Err(); err != nil {
		return fmt.Errorf("drop task's waiting mark: %w", err)
	}
	return nil
}

// newToken returns a random token naming one admitted task's lease.
func newToken() string {
	b := make([]byte, 12)
	_, _ = crand.Read(b)
	return hex.EncodeToString(b)
}
