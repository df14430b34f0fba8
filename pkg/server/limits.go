package server

import (
	"context"

	"github.com/gusset/gusset/pkg/auth"
	"github.com/gusset/gusset/pkg/model"
)

// workspaceReader reads a workspace's record (auth.Service).
type workspaceReader interface {
	Workspace(ctx context.Context, name string) (auth.Workspace, error)
}

// limitsOf returns the limits of each workspace: its own (set with
// gusset-admin) laid over defaults. Without API keys (ws nil) there is
// one workspace, and the defaults are its limits. The record is read on
// every call, so that a changed limit holds from the next request.
func limitsOf(defaults model.Limits, ws workspaceReader) func(ctx context.Context, name string) (model.Limits, error) {
	return func(ctx context.Context, name string) (model.Limits, error) {
		if ws == nil {
			return defaults, nil
		}
		w, err := ws.Workspace(ctx, name)
		if err != nil {
			return model.Limits{}, model.Wrap("read the workspace's limits", err)
		}
		return w.Limits.Over(defaults), nil
	}
}
