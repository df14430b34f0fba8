package queue

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// fairState drives the fair-scheduling scripts as workers and clients
// do, on a real Redis.
type fairState struct {
	t   *testing.T
	ctx context.Context
	rdb redis.UniversalClient
}

// mark records task id of ws as queued (Client.Enqueue).
func (s fairState) mark(ws, id string) {
	s.t.Helper()
	if err := markWaiting(s.ctx, s.rdb, ws, id); err != nil {
		s.t.Fatal(err)
	}
}

// aBusyBWaiting is the state most cases start from: a has task a/1 under
// way (a lease of a minute) and a/2 queued; b has b/1 queued.
func (s fairState) aBusyBWaiting() {
	s.t.Helper()
	s.mark("a", "a/1")
	s.mark("a", "a/2")
	s.decide("a", "a/1", time.Minute, false)
	s.mark("b", "b/1")
}

// decide runs the decision on task id of ws, admitting it for lease
// unless it must wait; must says it is on its last attempt. It returns
// "run", or the workspace it waits for.
func (s fairState) decide(ws, id string, lease time.Duration, must bool) string {
	s.t.Helper()
	res, err := admitScript.Run(s.ctx, s.rdb, fairKeys(ws), ws, id, id+"-token", lease.Milliseconds(), must,
		fairWaitPrefix, fairBusyPrefix).StringSlice()
	if err != nil {
		s.t.Fatal(err)
	}
	if res[0] == "run" {
		return "run"
	}
	return res[1]
}

// release ends the task id of ws that decide admitted.
func (s fairState) release(ws, id string) {
	s.t.Helper()
	if err := releaseScript.Run(s.ctx, s.rdb, fairKeys(ws), ws, id+"-token").Err(); err != nil {
		s.t.Fatal(err)
	}
}

// The decision when a worker takes a task, case by case: each case sets
// up tasks under way and waiting, then decides on one task.
func TestFairDecision(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(s fairState)
		// ws and id are the task decided on; must, its last attempt.
		ws, id string
		must   bool
		want   string
	}{
		{name: "a fan-out takes every idle worker while nobody else waits",
			setup: func(s fairState) {
				for _, id := range []string{"a/1", "a/2", "a/3"} {
					s.mark("a", id)
				}
				s.decide("a", "a/1", time.Minute, false)
			},
			ws: "a", id: "a/2", want: "run"},
		{name: "a workspace with a task under way waits for one with none",
			setup: func(s fairState) {
				s.aBusyBWaiting()
			},
			ws: "a", id: "a/2", want: "b"},
		{name: "the waiting workspace's own task runs",
			setup: func(s fairState) {
				s.aBusyBWaiting()
			},
			ws: "b", id: "b/1", want: "run"},
		{name: "with as many under way, the workspace served less recently goes first",
			setup: func(s fairState) {
				// a's tasks were queued before b's, but a has just been
				// served: its task ended after b's was queued.
				s.aBusyBWaiting()
				s.release("a", "a/1")
			},
			ws: "a", id: "a/2", want: "b"},
		{name: "a task on its last attempt runs all the same",
			setup: func(s fairState) {
				s.aBusyBWaiting()
			},
			ws: "a", id: "a/2", must: true, want: "run"},
		{name: "a task under way whose worker was killed stops counting when its lease runs out",
			setup: func(s fairState) {
				s.mark("a", "a/1")
				s.mark("a", "a/2")
				// Admitted for a lease of 1 ms and never renewed nor
				// released, as by a worker killed at once.
				s.decide("a", "a/1", time.Millisecond, false)
				s.mark("b", "b/1")
				time.Sleep(5 * time.Millisecond) // past the lease on Redis's clock
			},
			ws: "a", id: "a/2", want: "run"},
		{name: "a workspace that was dequeued waits no more",
			setup: func(s fairState) {
				s.aBusyBWaiting()
				if err := unmarkWaiting(s.ctx, s.rdb, "b", "b/1"); err != nil {
					s.t.Fatal(err)
				}
			},
			ws: "a", id: "a/2", want: "run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := fairState{t: t, ctx: context.Background(), rdb: redistest.Start(t).Client(t)}
			tc.setup(s)
			if got := s.decide(tc.ws, tc.id, time.Minute, tc.must); got != tc.want {
				t.Errorf("task %s of %s: decided %q, want %q", tc.id, tc.ws, got, tc.want)
			}
		})
	}
}

// A waiting mark whose task is not in the queue (deleted without its
// mark, or its client died between the two) is dropped when a decision
// would rest on it, and the task decided on runs.
func TestFairStaleMarkDropped(t *testing.T) {
	rdb := redistest.Start(t).Client(t)
	s := fairState{t: t, ctx: context.Background(), rdb: rdb}
	s.aBusyBWaiting() // b's task is never queued in asynq
	f := &fair{rdb: rdb, insp: asynq.NewInspectorFromRedisClient(rdb), log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if f.stillWaiting(s.ctx, "b", "b/1") {
		t.Fatal("a task that is not in the queue reads as waiting")
	}
	if err := rdb.ZScore(s.ctx, fairPrefix+"waiting", "b").Err(); !errors.Is(err, redis.Nil) {
		t.Errorf("b still waits after its stale mark was dropped (%v)", err)
	}
	if got := s.decide("a", "a/2", time.Minute, false); got != "run" {
		t.Errorf("a's task after b's stale mark was dropped: %q, want run", got)
	}
}
