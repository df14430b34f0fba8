// Command gusset-api serves the HTTP interface over a shared Redis
// (REDIS_URL). Run as many replicas as needed; they keep no state.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/gusset/gusset/pkg/server"
)

func main() {
	// The container image has no shell or curl: its HEALTHCHECK runs the
	// binary itself.
	if len(os.Args) > 1 && os.Args[1] == "healthcheck" {
		os.Exit(server.RunHealthcheck(false))
	}
	server.Main("gusset-api", true, func(ctx context.Context, cfg server.Config, log *slog.Logger) error {
		rdb, err := server.Connect(ctx, cfg.RedisURL)
		if err != nil {
			return err
		}
		defer rdb.Close()
		return server.ServeAPI(ctx, cfg, rdb, log, nil, func(base string) { fmt.Println("gusset-api listening on", base) })
	})
}
