// Command gusset-worker takes analyses from the queue on REDIS_URL and
// solves them, one at a time. Add workers to add throughput.
package main

import (
	"context"
	"log/slog"

	"github.com/gusset/gusset/pkg/server"
)

func main() {
	server.Main("gusset-worker", true, func(ctx context.Context, cfg server.Config, log *slog.Logger) error {
		rdb, err := server.Connect(ctx, cfg.RedisURL)
		if err != nil {
			return err
		}
		defer rdb.Close()
		return server.ServeWorker(ctx, cfg, rdb, log)
	})
}
