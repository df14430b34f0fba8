package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/gusset/gusset/pkg/admin"
	"github.com/gusset/gusset/pkg/auth"
	"github.com/gusset/gusset/pkg/store/redisstore"
)

// AdminMain runs the gusset-admin command (args without the program
// name) against the Redis of REDIS_URL and exits: 0 done, 1 failed, 2
// misused.
func AdminMain(args []string) {
	os.Exit(runAdmin(args, os.Getenv("REDIS_URL"), os.Stdout, os.Stderr))
}

func runAdmin(args []string, redisURL string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, admin.Usage)
		return 2
	}
	if redisURL == "" {
		fmt.Fprintln(stderr, "gusset-admin: REDIS_URL is required: the Redis the api and workers use (e.g. redis://localhost:6379/0)")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rdb, err := Connect(ctx, redisURL)
	if err != nil {
		fmt.Fprintln(stderr, "gusset-admin:", err)
		return 1
	}
	defer rdb.Close()
	err = admin.Run(ctx, args, &auth.Service{Store: redisstore.NewAuth(rdb)}, stdout, stderr)
	switch {
	case errors.Is(err, admin.ErrUsage):
		fmt.Fprintf(stderr, "gusset-admin: %v\n\n%s", err, admin.Usage)
		return 2
	case err != nil:
		fmt.Fprintln(stderr, "gusset-admin:", err)
		return 1
	}
	return 0
}
