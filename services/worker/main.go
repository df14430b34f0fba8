// Command gusset-worker takes analyses from the queue on REDIS_URL and
// solves them, one at a time. Add workers to add throughput.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/gusset/gusset/pkg/server"
)

func main() {
	// The container image has no shell or curl: its HEALTHCHECK runs the
	// binary itself.
	if len(os.Args) > 1 && os.Args[1] == "healthcheck" {
		os.Exit(server.RunHealthcheck(true))
	}
	server.Main("gusset-worker", true, func(ctx context.Context, cfg server.Config, log *slog.Logger) error {
		rdb, err := server.Connect(ctx, cfg.RedisURL)
		if err != nil {
			return err
		}
		defer rdb.Close()
		return server.ServeWorker(ctx, cfg, rdb, log)
	})
}
