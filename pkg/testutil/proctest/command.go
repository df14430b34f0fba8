package proctest

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// Output runs a one-shot command (gusset-admin, say) to its end and
// returns what it printed on stdout. A failure (start error or non-zero
// exit) carries the command's stderr, so that the test can show why.
func Output(ctx context.Context, bin string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Env, cmd.Stdout, cmd.Stderr = env, &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%s %s: %v: %s", bin, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}
