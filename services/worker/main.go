// Command gusset-worker takes analyses from the queue on REDIS_URL and
// solves them, one at a time. Add workers to add throughput.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/gusset/gusset/pkg/server"
)

func main() {
	cfg, err := server.FromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gusset-worker:", err)
		os.Exit(2)
	}
	if cfg.RedisURL == "" {
		fmt.Fprintln(os.Stderr, "gusset-worker: REDIS_URL is required (e.g. redis://localhost:6379/0)")
		os.Exit(2)
	}
	log := cfg.Logger()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rdb, err := server.Connect(ctx, cfg.RedisURL)
	if err != nil {
		log.Error("start", "err", err)
		os.Exit(1)
	}
	defer rdb.Close()
	if err := server.RunWorker(ctx, rdb, log); err != nil {
		log.Error("stopped", "err", err)
		os.Exit(1)
	}
}
