// Package queue carries analysis work from the API to the solver workers
// over asynq (Redis). It defines the task types and payloads, and the
// worker process that serves them.
package queue

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// QueueAnalysis is the asynq queue that analysis tasks go to.
const QueueAnalysis = "analysis"

// Handler serves one task type.
type Handler struct {
	TaskType string
	Handle   func(ctx context.Context, payload []byte) error
}

// Worker is an asynq server that runs one task at a time: an analysis uses
// every core it is given, so more throughput comes from more workers.
type Worker struct {
	srv *asynq.Server
	mux *asynq.ServeMux
}

// NewWorker builds a worker on the Redis client rdb.
func NewWorker(rdb redis.UniversalClient, log *slog.Logger, handlers ...Handler) *Worker {
	srv := asynq.NewServerFromRedisClient(rdb, asynq.Config{
		Concurrency: 1,
		Queues:      map[string]int{QueueAnalysis: 1},
		Logger:      slogAdapter{log},
	})
	mux := asynq.NewServeMux()
	for _, h := range handlers {
		h := h
		mux.HandleFunc(h.TaskType, func(ctx context.Context, t *asynq.Task) error {
			return h.Handle(ctx, t.Payload())
		})
	}
	return &Worker{srv: srv, mux: mux}
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

// slogAdapter lets asynq log through slog.
type slogAdapter struct{ l *slog.Logger }

func (a slogAdapter) Debug(args ...any) { a.l.Debug(fmt.Sprint(args...), "component", "asynq") }
func (a slogAdapter) Info(args ...any)  { a.l.Info(fmt.Sprint(args...), "component", "asynq") }
func (a slogAdapter) Warn(args ...any)  { a.l.Warn(fmt.Sprint(args...), "component", "asynq") }
func (a slogAdapter) Error(args ...any) { a.l.Error(fmt.Sprint(args...), "component", "asynq") }
func (a slogAdapter) Fatal(args ...any) {
	a.l.Error(fmt.Sprint(args...), "component", "asynq", "fatal", true)
}
