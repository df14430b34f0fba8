package jobfile

import (
	"context"
	"fmt"
)

// ReadContext decodes the job file at p as DecodeContext does: within
// maxBytes (zero or less: DefaultMaxJobBytes), until ctx ends, and with
// its results only when it is signed with one of d's keys.
func (d *Dir) ReadContext(ctx context.Context, p Path, maxBytes int64) (Decoded, error) {
	return d.readFileContext(ctx, p, p.real, p.Rel, maxBytes)
}

// ReadRecoveryContext decodes the recovery file of p as ReadContext does.
// A recovery file that is a symbolic link is refused, as Stat refuses it.
func (d *Dir) ReadRecoveryContext(ctx context.Context, p Path, maxBytes int64) (Decoded, error) {
	if p.real == "" {
		return Decoded{}, fmt.Errorf("job file path %q was not resolved", p.Rel)
	}
	if _, err := d.recoveryInfo(p); err != nil {
		return Decoded{}, err
	}
	return d.readFileContext(ctx, p, p.recovery(), p.RecoveryRel(), maxBytes)
}

func (d *Dir) readFileContext(ctx context.Context, p Path, name, display string, maxBytes int64) (Decoded, error) {
	f, size, err := d.openRegular(p, name, display)
	if err != nil {
		return Decoded{}, err
	}
	defer f.Close()
	dec, err := DecodeContext(ctx, f, size, maxBytes, d.keys)
	if err != nil {
		return dec, fmt.Errorf("read %s: %w", display, err)
	}
	return dec, nil
}
