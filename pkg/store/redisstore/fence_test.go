package redisstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// The writes of an attempt of a run (its record, its results, its
// fan-out) are refused with ErrRunSuperseded, writing nothing, once the
// run is at attempt 2, whether attempt 2 still runs or completed the run
// with its results; attempt 2's own writes, and writes of no attempt,
// are accepted.
func TestWritesFencedByAttempt(t *testing.T) {
	ctx := context.Background()
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	jobs, runs, res, fan := redisstore.NewJobs(rdb, nil), redisstore.NewRuns(rdb), redisstore.NewResults(rdb), redisstore.NewFanOut(rdb)
	meta := func(attempt int) json.RawMessage { return json.RawMessage(fmt.Sprintf(`{"attempt":%d}`, attempt)) }
	publish := func(ws string, attempt int) error {
		return res.Publish(ctx, ws, "r", attempt, "toy", store.ResultSet{Meta: meta(attempt)}, nil, nil,
			func(r *model.Run) { r.Status = model.RunCompleted })
	}
	writes := map[string]func(ws string, attempt int) error{
		"update": func(ws string, attempt int) error {
			_, err := runs.Update(ctx, ws, "r", attempt, func(r *model.Run) error {
				r.Progress.StatusText = fmt.Sprintf("attempt %d was here", attempt)
				return nil
			})
			return err
		},
		"publish": publish,
		"fan out": func(ws string, attempt int) error { return fan.Begin(ctx, ws, "r", attempt, []int64{1, 2}) },
	}
	for i, tc := range []struct {
		write     string
		attempt   int
		completed bool // attempt 2 completed the run first
		want      error
	}{
		{"update", 1, false, store.ErrRunSuperseded},
		{"publish", 1, false, store.ErrRunSuperseded},
		{"fan out", 1, false, store.ErrRunSuperseded},
		{"update", 1, true, store.ErrRunSuperseded},
		{"publish", 1, true, store.ErrRunSuperseded},
		{"fan out", 1, true, store.ErrRunSuperseded},
		{"update", 2, false, nil},
		{"publish", 2, false, nil},
		{"fan out", 2, false, nil},
		{"update", store.AnyAttempt, false, nil},
	} {
		t.Run(fmt.Sprintf("%s of attempt %d, attempt 2 completed %v", tc.write, tc.attempt, tc.completed), func(t *testing.T) {
			ws := fmt.Sprintf("w%d", i)
			if _, err := jobs.Open(ctx, ws, store.Snapshot{Job: model.NewJob()}, openState()); err != nil {
				t.Fatal(err)
			}
			if err := runs.Start(ctx, ws, model.Run{RunID: "r", Status: model.RunRunning, Attempt: 2, QueuedAt: time.Now()}); err != nil {
				t.Fatal(err)
			}
			if tc.completed {
				if err := publish(ws, 2); err != nil {
					t.Fatal(err)
				}
			}
			before, _ := runs.Run(ctx, ws, "r")
			beforeMeta, _ := res.Meta(ctx, ws, "toy")

			err := writes[tc.write](ws, tc.attempt)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if after, _ := runs.Run(ctx, ws, "r"); !reflect.DeepEqual(after, before) {
				t.Errorf("run record changed:\n got %+v\nwant %+v", after, before)
			}
			if m, _ := res.Meta(ctx, ws, "toy"); string(m) != string(beforeMeta) {
				t.Errorf("results %s, want %s", m, beforeMeta)
			}
			if p, _ := fan.Pending(ctx, ws, "r"); len(p) > 0 {
				t.Errorf("cases %v pending", p)
			}
		})
	}
}

// A store that cannot be reached says so (store.ErrUnreachable), for the
// worker to try again later; a caller that stopped waiting, or a store
// that answered with a refusal, does not.
func TestUnreachableIsMarked(t *testing.T) {
	srv := redistest.StartSingle(t)
	proxy := redistest.StartProxy(t, srv)
	rdb := proxy.Client(t)
	jobs, runs := redisstore.NewJobs(rdb, nil), redisstore.NewRuns(rdb)
	ctx := context.Background()
	if _, err := jobs.Open(ctx, "w", store.Snapshot{Job: model.NewJob()}, openState()); err != nil {
		t.Fatal(err)
	}
	if err := runs.Start(ctx, "w", model.Run{RunID: "r", Status: model.RunCancelled, QueuedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	for _, tc := range []struct {
		name        string
		ctx         context.Context
		cut         bool
		unreachable bool
	}{
		{"cut off", ctx, true, true},
		{"the caller gave up", gone, false, false},
		{"refused", ctx, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.cut {
				proxy.Cut()
				defer proxy.Restore()
			}
			_, err := runs.Update(tc.ctx, "w", "r", store.AnyAttempt, func(*model.Run) error { return nil })
			if err == nil || errors.Is(err, store.ErrUnreachable) != tc.unreachable {
				t.Errorf("err = %v: marked unreachable %v, want %v", err, errors.Is(err, store.ErrUnreachable), tc.unreachable)
			}
			// Cut off is a 503 to a client (retry), the others are not.
			if unavailable := model.KindOf(err) == model.KindUnavailable; unavailable != tc.unreachable {
				t.Errorf("err = %v: KindUnavailable %v, want %v", err, unavailable, tc.unreachable)
			}
		})
	}
}
