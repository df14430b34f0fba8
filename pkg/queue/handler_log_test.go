package queue_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/queue"
	"github.com/gusset/gusset/pkg/testutil/logtest"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// A handler's error reaches the worker's log: asynq itself logs nothing
// of it, so a task retried until it was given up left no reason anywhere.
func TestHandlerErrorIsLogged(t *testing.T) {
	for _, tc := range []struct {
		name, msg string
		err       error
	}{
		{"retried", "task failed; it is retried while retries remain", errors.New("publish results: the store went away")},
		{"refused", "task refused", model.E(model.KindValidation, "the model has no load cases to analyse")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rdb := redistest.Start(t).Client(t)
			log, got := logtest.Attr(tc.msg, "err")
			ctx, cancel := context.WithCancel(context.Background())
			w := queue.NewWorker(rdb, log, queue.Handler{TaskType: queue.TypeAnalysisRun,
				Handle: func(context.Context, []byte) error { return tc.err }})
			stopped := make(chan error, 1)
			go func() { stopped <- w.Run(ctx) }()
			t.Cleanup(func() { cancel(); <-stopped })
			c := queue.NewClient(rdb)
			c.MaxRetry = 0
			if err := c.Enqueue(ctx, "a", "run/1", []byte("{}")); err != nil {
				t.Fatal(err)
			}
			select {
			case v := <-got:
				if !strings.Contains(v, tc.err.Error()) {
					t.Errorf("logged err %q, want it to hold %q", v, tc.err)
				}
			case <-time.After(2 * time.Minute): // a safety net for a loaded machine
				t.Fatal("the handler's error was not logged")
			}
		})
	}
}
