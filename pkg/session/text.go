package session

import (
	"context"
	"fmt"
	"io"

	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/sgtext"
)

// ImportText opens the text file read from r (the desktop program's
// format, pkg/sgtext) as a new, never-saved job. It opens like a
// template: nothing while a job is open (409), the model checked as
// every job file's is and held to the workspace's limits, then opened in
// one step, so that a refused file leaves the slot empty. What of the
// file has no place in the model is listed in the state's warnings.
func (s *Service) ImportText(ctx context.Context, ws string, r io.Reader, name string) (Opened, error) {
	const op = "import text file"
	if err := s.refuseIfOpen(ctx, ws); err != nil {
		return Opened{}, fmt.Errorf("%s: %w", op, outOfTime(ctx, err))
	}
	imp, err := sgtext.Read(r)
	if err != nil {
		return Opened{}, fmt.Errorf("%s %q: %w", op, name, err)
	}
	st := s.openState(model.FileInfo{Source: model.SourceNewJob}, true, false)
	st.Warnings = imp.Warnings
	sl, err := s.load(ctx, ws, jobfile.Decoded{Snapshot: imp.Snapshot}, st)
	if err != nil {
		// A rule a row broke is told as its line's.
		return Opened{}, fmt.Errorf("%s %q: %w", op, name, imp.Explain(outOfTime(ctx, err)))
	}
	return Opened{Job: imp.Snapshot.Job, State: sl.State}, nil
}

// ExportText writes the model of the open job as a text file.
func (s *Service) ExportText(ctx context.Context, ws string, w io.Writer) error {
	snap, _, err := s.jobs.Snapshot(ctx, ws)
	if err != nil {
		return fmt.Errorf("export text file: %w", err)
	}
	if err := sgtext.Write(w, snap); err != nil {
		return fmt.Errorf("export text file: %w", err)
	}
	return nil
}
