// Package store declares how the service keeps job state: the interfaces
// that the session and HTTP layers use, and the records that cross them.
// The Redis implementation lives in store/redisstore; every key it writes is
// scoped by workspace.
//
// All physical values in a Snapshot are SI, as everywhere below the HTTP edge.
package store

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gusset/gusset/pkg/model"
)

// DefaultWorkspace is the single workspace of open mode (no API keys).
const DefaultWorkspace = "default"

// Row is one stored record of a model collection. Key is the collection's
// key (an id, or a composite key such as "3:12" for case 3, node 12), Score
// orders rows for paging, and Value is the encoded record.
type Row struct {
	Key   string          `json:"key"`
	Score float64         `json:"score"`
	Value json.RawMessage `json:"value"`
}

// Snapshot is the whole content of a job: what a job file holds, what
// opening one loads, and what saving one writes. Collections maps a
// collection name (e.g. "nodes") to its rows; later model resources add
// collections without changing this type.
type Snapshot struct {
	Job         model.Job        `json:"job"`
	Collections map[string][]Row `json:"-"`
	// Results holds the stored analysis results by kind; they belong to
	// exactly this model.
	Results map[model.AnalysisFamily]ResultSet `json:"-"`
}

// Slot is the state of a workspace's job slot as the store keeps it.
type Slot struct {
	State model.State
	// Session identifies one opening of a job, so that background work (the
	// recovery writer) can tell whether the job it started for is still open.
	Session string
	// Rev is the model revision: every mutation increments it.
	Rev int64
	// Analysing is true while an analysis holds the workspace's lock; model
	// mutations are refused then.
	Analysing bool
}

// ErrorRecord is one entry of the job's error log (GET /job/errors).
type ErrorRecord struct {
	Timestamp time.Time `json:"timestamp"`
	Status    int       `json:"status"`
	ErrorCode string    `json:"errorCode"`
	Message   string    `json:"message"`
	Method    string    `json:"method"`
	Path      string    `json:"path"`
}

// MaxErrorRecords is how many entries the job error log keeps; older ones
// are dropped first.
const MaxErrorRecords = 100

// Jobs keeps the job slot of each workspace: its session state, the job
// record (headings, settings, units), the model revision and the error log.
// Every method that needs an open job returns model.ErrNoJobOpen otherwise.
type Jobs interface {
	// Open fills the empty job slot with snap. It fails with
	// model.ErrJobAlreadyOpen when a job is open, and writes nothing then.
	Open(ctx context.Context, ws string, snap Snapshot, st model.State) (Slot, error)
	// Close empties the slot and returns the slot as it was (State.IsOpen
	// false when nothing was open). Closing an empty slot is not an error.
	Close(ctx context.Context, ws string) (Slot, error)
	// Slot returns the slot; an empty slot is not an error.
	Slot(ctx context.Context, ws string) (Slot, error)
	// Job returns the job record and the slot of the open job.
	Job(ctx context.Context, ws string) (model.Job, Slot, error)
	// Update applies fn to the job record atomically, marks the job modified
	// and bumps the revision. fn may run more than once when another writer
	// races; it must not have side effects. An error from fn aborts the
	// update and is returned as is.
	Update(ctx context.Context, ws string, fn func(*model.Job) error) (model.Job, Slot, error)
	// MarkSaved records that the job content of revision rev was saved as
	// file. The job stays modified when the revision moved on meanwhile.
	MarkSaved(ctx context.Context, ws string, file model.FileInfo, rev int64) (Slot, error)
	// Snapshot reads the whole job content together with its slot.
	Snapshot(ctx context.Context, ws string) (Snapshot, Slot, error)
	// Clear removes all model data (collections and results) of the open job,
	// keeping headings, settings and units; it marks the job modified.
	Clear(ctx context.Context, ws string) (Slot, error)
	// Counts returns the number of rows of each registered collection.
	Counts(ctx context.Context, ws string) (map[string]int64, error)
	// AppendError adds a record to the error log of the open job; it is a
	// no-op when no job is open.
	AppendError(ctx context.Context, ws string, rec ErrorRecord) error
	// Errors returns the error log of the open job, oldest first.
	Errors(ctx context.Context, ws string) ([]ErrorRecord, error)
	// ClearErrors empties the error log of the open job.
	ClearErrors(ctx context.Context, ws string) error
	// Ping checks that the backing store answers.
	Ping(ctx context.Context) error
}
