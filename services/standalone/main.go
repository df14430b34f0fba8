// Command gusset is the standalone service: the API, one worker and an
// embedded Redis in one process, with nothing to install. REDIS_URL
// switches it to a real Redis.
package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/gusset/gusset/pkg/server"
)

func main() {
	server.Main("gusset", false, func(ctx context.Context, cfg server.Config, log *slog.Logger) error {
		return server.RunStandalone(ctx, cfg, log, func(base string) { fmt.Println("gusset listening on", base) })
	})
}
