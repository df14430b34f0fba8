package store

import (
	"context"
	"encoding/json"
	"time"

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
	// still holds it). attempt is the writer's (see AnyAttempt): a run
	// whose Attempt is another is ErrRunSuperseded, checked in the same
	// transaction that writes. Updating a finished run is ErrRunFinished.
	// In both cases nothing is written and fn is not called.
	Update(ctx context.Context, ws, id string, attempt int, fn func(*model.Run) error) (model.Run, error)
	// Holder returns the id of the run that holds the lock, "" if none.
	Holder(ctx context.Context, ws string) (string, error)
}

// ErrRunFinished is returned by Runs.Update for a run that has ended.
var ErrRunFinished = model.E(model.KindNotFound, "the run has already finished")

// ErrRunCancelled is returned by Results.Publish for a run whose cancel
// came first.
var ErrRunCancelled = model.E(model.KindConflict, "the run was cancelled before its results were stored")

// ErrRunSuperseded is returned by the writes of one attempt of a run
// (Runs.Update, Results.Publish, FanOut.Begin) once the run record names
// another attempt: the queue gave the run's task to another worker (its
// worker was lost, or cut off from the store for longer than the task's
// lease), whose begin counted a new attempt. That attempt owns the run
// now; the stale one's progress, results and end are refused, so that
// they cannot overwrite the newer attempt's, and nothing is written.
var ErrRunSuperseded = model.E(model.KindConflict, "another attempt of the run has begun: this attempt's writes to it are refused")

// AnyAttempt is the attempt of a write that no one attempt of the run
// makes, which is therefore not fenced: the API's (a cancel, a lost run
// given up), a worker's begin (which counts the next attempt) and the
// writes of a fanned-out run's parts, which serve whichever attempt holds
// the run. Attempts that a worker began count from 1.
const AnyAttempt = 0

// ErrUnreachable marks a store error that means the store could not be
// reached or cannot serve now (the connection failed or timed out, the
// server is loading its data or failing over): the same write may succeed
// later, and whether a write whose reply was lost landed is unknown.
// errors.Is finds it through the operations that wrap it. It is
// KindUnavailable, 503 SERVICE_UNAVAILABLE to a client, which retries: a
// Redis restart is not a fault of the service, and as KindInternal it
// answered 500 (the compose scenario that restarts Redis under a bulk
// load). Its message is what the client reads.
var ErrUnreachable = model.E(model.KindUnavailable, "the service's storage cannot be reached right now (it may be restarting): "+
	"retry in a few seconds; a change asked for when this happened may or may not have been made, "+
	"so read before repeating one that must not happen twice")

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
	// lock is released. attempt is the attempt that solved the results
	// (Runs.Update). Only a Running run of that attempt that holds the
	// lock publishes: a run of another attempt gets ErrRunSuperseded, one
	// that a cancel reached first (Cancelling) ErrRunCancelled, one that
	// lost the workspace (finished) KindConflict, and nothing is written.
	// So a run whose cancel was accepted never ends with new results, and
	// a stale attempt's results never replace a newer attempt's.
	//
	// rows are model rows that belong to these results (the Step load
	// cases of a non-linear run), written (OpPut) or removed
	// (OpDeleteIfAny) in the same transaction; rows of other kinds, or
	// whose keys have more than one part, are refused. When there are any,
	// the model revision moves on and the job counts as modified, but the
	// results stay: they are of the model these rows complete.
	Publish(ctx context.Context, ws, runID string, attempt int, kind model.AnalysisFamily, set ResultSet, drop []string, rows []Op,
		complete func(*model.Run)) error
	// Meta reads the meta record of kind; nil when there are no results.
	Meta(ctx context.Context, ws string, kind model.AnalysisFamily) (json.RawMessage, error)
	// View calls fn with the meta record of kind (nil when there are no
	// results) and a reader of its columns that sees the same results: a
	// run publishing or a model change clearing them meanwhile makes View
	// call fn again. fn must therefore start afresh each time.
	View(ctx context.Context, ws string, kind model.AnalysisFamily,
		fn func(meta json.RawMessage, columns func(names ...string) ([][]byte, error)) error) error
	// Columns reads columns of kind; a missing column is nil.
	Columns(ctx context.Context, ws string, kind model.AnalysisFamily, names ...string) ([][]byte, error)
	// Bytes returns the bytes of the results ws stores (meta records and
	// columns), by family; a family without results is left out. It is
	// read from what is stored, so it is right whatever stored or deleted
	// the results (a run, a job file, a model change, a clear or close).
	Bytes(ctx context.Context, ws string) (map[model.AnalysisFamily]int64, error)
}

// FanOut keeps the shared state of a run split into sub-tasks, one per
// load case (a non-linear run): the set of cases still pending, whose
// size is the counter that tells the last sub-task to finish that it
// completes the run, and the results each sub-task staged. The state
// expires on its own (FanOutTTL) when a run is lost, and Discard removes
// it when the run ends.
type FanOut interface {
	// Begin records cases as the run's pending cases, replacing any
	// earlier set (a parent task that runs again starts afresh). attempt
	// is the run's own task's (Runs.Update): a run of another attempt is
	// ErrRunSuperseded, and its pending cases stay as that attempt left
	// them.
	Begin(ctx context.Context, ws, runID string, attempt int, cases []int64) error
	// Stage keeps the results of one case until the run completes.
	Stage(ctx context.Context, ws, runID string, lc int64, set ResultSet) error
	// Done removes lc from the pending cases and returns how many are
	// left, and whether this call removed it (false: it was not pending,
	// so another attempt of the same sub-task already counted it).
	Done(ctx context.Context, ws, runID string, lc int64) (left int, removed bool, err error)
	// Pending returns the cases not done yet, ascending.
	Pending(ctx context.Context, ws, runID string) ([]int64, error)
	// Staged returns the results staged so far, by case.
	Staged(ctx context.Context, ws, runID string) (map[int64]ResultSet, error)
	// Discard deletes the run's fan-out state.
	Discard(ctx context.Context, ws, runID string) error
}

// FanOutTTL bounds how long the fan-out state of a run outlives its last
// write: longer than any one sub-task may run (queue.TaskTimeout), so
// only a lost run's state expires.
const FanOutTTL = 48 * time.Hour
