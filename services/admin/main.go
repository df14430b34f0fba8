// Command gusset-admin manages the workspaces and API keys of a gusset
// service (AUTH_MODE=keys) on the Redis of REDIS_URL. Run it without
// arguments for its commands.
package main

import (
	"os"

	"github.com/gusset/gusset/pkg/server"
)

func main() { server.AdminMain(os.Args[1:]) }
