package store

import (
	"context"
	"encoding/json"

	"github.com/gusset/gusset/pkg/model"
)

// Runs keeps the analysis runs of each workspace and its analysis lock:
// the lock (a key holding the run id) is what makes a workspace run one
// analysis at a time and refuse model changes meanwhile, across every
// API replica and worker.
type Runs interface {
	// Start takes the workspace's analysis lock for run.RunID and records
	// the run first in the history, atomically. It fails with
	// model.ErrNoJobOpen, or with KindAnalysisInProgress naming the run
	// that holds the lock.
	Start(ctx context.Context, ws string, run model.Run) error
	// Run reads one run; a run that is not in the history is KindNotFound.
	Run(ctx context.Context, ws, id string) (model.Run, error)
	// List returns the runs of the history, newest first.
	List(ctx context.Context, ws string) ([]model.Run, error)
	// Update applies fn to an unfinished run atomically and stores it. fn
	// may run more than once when writers race. When fn leaves the run
	// finished, the lock is released in the same transaction (if the run
	// still holds it). Updating a finished run is ErrRunFinished, and fn
	// is not called.
	Update(ctx context.Context, ws, id string, fn func(*model.Run) error) (model.Run, error)
	// Holder returns the id of the run that holds the lock, "" if none.
	Holder(ctx context.Context, ws string) (string, error)
}

// ErrRunFinished is returned by Runs.Update for a run that has ended.
var ErrRunFinished = model.E(model.KindNotFound, "the run has already finished")

// ErrRunCancelled is returned by Results.Publish for a run whose cancel
// came first.
var ErrRunCancelled = model.E(model.KindConflict, "the run was cancelled before its results were stored")

// ResultSet is the stored results of one analysis kind: a small JSON meta
// record and named binary columns (packed little-endian float64 or int64),
// which stay opaque to the store.
type ResultSet struct {
	Meta    json.RawMessage
	Columns map[string][]byte
}

// Results keeps analysis results per workspace and kind. Any model change
// deletes every result (the Model store does that in the same transaction
// as the change), so stored results always belong to the current model.
type Results interface {
	// Publish stores set as the results of kind and completes run runID in
	// one transaction: the meta replaces the old meta, the columns named
	// in drop are deleted and the given columns written, complete is
	// applied to the run record (it must leave the run finished) and the
	// lock is released. Only a Running run that holds the lock publishes:
	// one that a cancel reached first (Cancelling) gets ErrRunCancelled,
	// one that lost the workspace KindConflict, and nothing is written.
	// So a run whose cancel was accepted never ends with new results.
	Publish(ctx context.Context, ws, runID string, kind model.AnalysisKind, set ResultSet, drop []string, complete func(*model.Run)) error
	// Meta reads the meta record of kind; nil when there are no results.
	Meta(ctx context.Context, ws string, kind model.AnalysisKind) (json.RawMessage, error)
	// View calls fn with the meta record of kind (nil when there are no
	// results) and a reader of its columns that sees the same results: a
	// run publishing or a model change clearing them meanwhile makes View
	// call fn again. fn must therefore start afresh each time.
	View(ctx context.Context, ws string, kind model.AnalysisKind,
		fn func(meta json.RawMessage, columns func(names ...string) ([][]byte, error)) error) error
	// Columns reads columns of kind; a missing column is nil.
	Columns(ctx context.Context, ws string, kind model.AnalysisKind, names ...string) ([][]byte, error)
}
