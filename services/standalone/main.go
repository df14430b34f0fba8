// Command gusset is the standalone service: the API, one worker and an
// embedded Redis in one process, with nothing to install. REDIS_URL
// switches it to a real Redis.
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
		fmt.Fprintln(os.Stderr, "gusset:", err)
		os.Exit(2)
	}
	log := cfg.Logger()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = server.RunStandalone(ctx, cfg, log, func(base string) { fmt.Println("gusset listening on", base) })
	if err != nil {
		log.Error("stopped", "err", err)
		os.Exit(1)
	}
}
