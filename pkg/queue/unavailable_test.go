package queue_test

import (
	"context"
	"testing"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/queue"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// With Redis down (stopped, restarting) every call the API makes on the
// queue is a KindUnavailable error, 503 on the wire, as Enqueue's is:
// reading a run whose worker went quiet asks the queue whether its task
// is lost, and cancelling a run dequeues it, so a Redis restart at that
// moment answered 500.
func TestQueueWithRedisDownIsUnavailable(t *testing.T) {
	srv := redistest.Start(t)
	c := queue.NewClient(srv.Client(t))
	ctx := context.Background()
	if err := c.Enqueue(ctx, "a", "run/1", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	srv.Kill()
	for _, call := range []struct {
		name string
		do   func() error
	}{
		{"Enqueue", func() error { return c.Enqueue(ctx, "a", "run/2", []byte("{}")) }},
		{"Lost", func() error { _, err := c.Lost(ctx, "run/1"); return err }},
		{"Dequeue", func() error { _, err := c.Dequeue(ctx, "a", "run/1"); return err }},
	} {
		if err := call.do(); model.KindOf(err) != model.KindUnavailable {
			t.Errorf("%s with Redis down: %v (kind %v), want KindUnavailable", call.name, err, model.KindOf(err))
		}
	}
}
