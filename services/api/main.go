// Command gusset-api serves the HTTP interface over a shared Redis
// (REDIS_URL). Run as many replicas as needed; they keep no state.
package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/gusset/gusset/pkg/server"
)

func main() {
	server.Main("gusset-api", true, func(ctx context.Context, cfg server.Config, log *slog.Logger) error {
		rdb, err := server.Connect(ctx, cfg.RedisURL)
		if err != nil {
			return err
		}
		defer rdb.Close()
		return server.ServeAPI(ctx, cfg, rdb, log, nil, func(base string) { fmt.Println("gusset-api listening on", base) })
	})
}
