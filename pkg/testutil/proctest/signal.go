package proctest

import (
	"context"
	"fmt"
	"os"
)

// Stop sends sig (SIGTERM, say, to see a graceful shutdown) and waits
// until the process has exited or ctx ends; it does not kill the process
// when ctx ends first.
func (p *Proc) Stop(ctx context.Context, sig os.Signal) error {
	if err := p.Cmd.Process.Signal(sig); err != nil && !p.Exited() {
		return fmt.Errorf("signal %s to %s: %w", sig, p.Name, err)
	}
	select {
	case <-p.Done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s still running after %s: %w", p.Name, sig, ctx.Err())
	}
}
