// Command gusset-api serves the HTTP interface over a shared Redis
// (REDIS_URL). Run as many replicas as needed; they keep no state.
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
		fmt.Fprintln(os.Stderr, "gusset-api:", err)
		os.Exit(2)
	}
	if cfg.RedisURL == "" {
		fmt.Fprintln(os.Stderr, "gusset-api: REDIS_URL is required (e.g. redis://localhost:6379/0)")
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
	err = server.ServeAPI(ctx, cfg, rdb, log, func(base string) { fmt.Println("gusset-api listening on", base) })
	if err != nil {
		log.Error("stopped", "err", err)
		os.Exit(1)
	}
}
