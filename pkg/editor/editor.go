// Package editor changes the model of the open job: the generic collection
// operations (get, list, create, update, delete, bulk forms, next id) and
// the rules of each resource. Records are SI; the HTTP edge converts units.
// Every change goes to the store as one batch, so it lands whole or not at
// all, and bumps the model revision.
package editor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// MaxBulkErrors caps the per-item errors a bulk result carries; past it
// errorsTruncated is set.
const MaxBulkErrors = 100

// Editor is the model-editing service over a store.
type Editor struct {
	model store.Model
	jobs  store.Jobs
	// Touched is told after every committed change (the session's recovery
	// file); nil is fine.
	Touched func(ctx context.Context, ws string)
	// rowChecks check job file rows by collection (snapshot.go).
	rowChecks map[string]rowCheck
	// Limits gives a workspace's limits; a change that would take a
	// collection past its limit is refused whole (KindLimitExceeded).
	// nil sets no limit.
	Limits func(ctx context.Context, ws string) (model.Limits, error)
}

// New returns an editor over the model and job stores.
func New(m store.Model, jobs store.Jobs) *Editor { return &Editor{model: m, jobs: jobs} }

// apply commits b and reports the change; a failed precondition becomes a
// conflict error in the caller's terms through explain.
func (e *Editor) apply(ctx context.Context, ws string, b *store.Batch, explain func(*store.ConflictError) error) (int64, error) {
	if t, ok := ctx.Value(leaseKey{}).(string); ok && b.Lease == "" {
		b.Lease = t
	}
	if err := e.setCaps(ctx, ws, b); err != nil {
		return 0, err
	}
	rev, err := e.model.Apply(ctx, ws, b)
	var ce *store.ConflictError
	if errors.As(err, &ce) && explain != nil {
		return 0, explain(ce)
	}
	var capErr *store.CapError
	if errors.As(err, &capErr) {
		d, _ := model.LimitOfColl(capErr.Coll)
		return 0, model.Exceeded(d, capErr.Max, capErr.Would)
	}
	if err != nil {
		return 0, err
	}
	if e.Touched != nil && len(b.Ops) > 0 {
		e.Touched(ctx, ws)
	}
	return rev, nil
}

// setCaps caps the collections b may grow that a limit counts, so that
// the store refuses a batch past a limit in the same step as it applies
// it: two concurrent creates cannot both pass a check made beforehand.
// The limits are read only for a batch that creates or puts such rows.
func (e *Editor) setCaps(ctx context.Context, ws string, b *store.Batch) error {
	if e.Limits == nil {
		return nil
	}
	grows := false
	for _, o := range b.Ops {
		if _, counted := model.LimitOfColl(o.Coll); counted && (o.Kind == store.OpCreate || o.Kind == store.OpPut) {
			grows = true
			break
		}
	}
	if !grows {
		return nil
	}
	l, err := e.Limits(ctx, ws)
	if err != nil {
		return err
	}
	b.Caps = l.CollectionCaps()
	return nil
}

// Kind describes one collection to the editor.
type Kind[T any] struct {
	// Coll is the store collection.
	Coll string
	// Noun names one record in messages ("node").
	Noun string
	// KeyFields are the JSON names of the key parts, in key order: ["id"],
	// ["node"] for a restraint, ["loadCase", "node"] for a node load.
	KeyFields []string
	// Key and SetKey read and write the key parts of a record.
	Key    func(*T) []int64
	SetKey func(*T, []int64)
	// AutoKey lets a create leave out the last key part: it is assigned
	// after the greatest in use (within the same leading parts).
	AutoKey bool
	// Parent, when set, makes this an attribute collection keyed by the id
	// of a row of Parent (a restraint by its node): the parent must exist
	// (404 otherwise) and a second row for it is a 409.
	Parent string
	// ParentNoun names a parent row in messages.
	ParentNoun string
	// Defaults fills a new record before the client's fields are merged.
	Defaults func(*T)
	// Validate checks the rules a record must meet on its own.
	Validate func(*T) error
	// ValidateStored, when set, replaces Validate for a job file's rows:
	// the states the service itself stores (a deleted load case kept with
	// an empty title) must open again.
	ValidateStored func(*T) error
	// Refs lists the rows a record refers to; each must exist, and the
	// commit requires them, so it fails if one vanished meanwhile.
	Refs func(*T) []Ref
	// Check validates records against the rest of the model (a load's case
	// must not be a combination, a position must lie on its member); it
	// returns an error per failing record, by position.
	Check func(ctx context.Context, ws string, recs []*T) (map[int]error, error)
	// Strip clears derived fields before the record is stored.
	Strip func(*T)
	// Users, when set, reports the ids among ids that other rows still
	// refer to (a section's members), each with the conflict to answer:
	// such rows cannot be deleted. Deletes of the kind are then planned at
	// one model revision, so a row that gains a user meanwhile stays.
	Users func(ctx context.Context, ws string, ids map[int64]bool) (map[int64]error, error)
	// Deleting, when set, adds to a delete's batch what goes with the rows
	// it removes (ids: their first key parts). Deletes of the kind are then
	// planned at one model revision.
	Deleting func(ctx context.Context, ws string, ids []int64, b *store.Batch) error
}

// idKind fills the key of a resource with a single integer id field.
func idKind[T any](k Kind[T], field string, get func(*T) *int64) Kind[T] {
	k.KeyFields = []string{field}
	k.Key = func(r *T) []int64 { return []int64{*get(r)} }
	k.SetKey = func(r *T, key []int64) { *get(r) = key[0] }
	return k
}

// describe names a record by its key in messages: "node 12", or
// "node load (loadCase 3, node 12)".
func (c *Collection[T]) describe(key []int64) string {
	if len(key) == 1 {
		return fmt.Sprintf("%s %d", c.k.Noun, key[0])
	}
	parts := make([]string, len(key))
	for i, v := range key {
		parts[i] = fmt.Sprintf("%s %d", c.k.KeyFields[i], v)
	}
	return c.k.Noun + " (" + strings.Join(parts, ", ") + ")"
}

// notFound reports a missing record by its key.
func (c *Collection[T]) notFound(key []int64) error {
	return &model.Error{Kind: model.KindNotFound, Msg: c.describe(key) + " not found"}
}

// Ref is a reference from a record to a row of another collection.
type Ref struct {
	Coll  string // collection of the referenced row
	Noun  string // its name in messages ("node")
	Field string // the referring field ("nodeA")
	ID    int64
}

// Collection is the editor's view of one collection of records.
type Collection[T any] struct {
	e *Editor
	k Kind[T]
}

// NewCollection binds a kind to the editor.
func NewCollection[T any](e *Editor, k Kind[T]) *Collection[T] {
	c := &Collection[T]{e: e, k: k}
	register(e, c)
	return c
}

// Kind is the collection's description.
func (c *Collection[T]) Kind() Kind[T] { return c.k }

func (c *Collection[T]) encode(rec T) []byte {
	if c.k.Strip != nil {
		c.k.Strip(&rec)
	}
	b, err := encodeCompact(rec)
	if err != nil {
		panic(fmt.Sprintf("editor: encode %s: %v", c.k.Noun, err))
	}
	return b
}

func (c *Collection[T]) decode(b []byte) (T, error) {
	var rec T
	if err := json.Unmarshal(b, &rec); err != nil {
		return rec, fmt.Errorf("decode stored %s: %w", c.k.Noun, err)
	}
	return rec, nil
}

// Get returns the record with the key.
func (c *Collection[T]) Get(ctx context.Context, ws string, key ...int64) (T, error) {
	var zero T
	vals, err := c.e.model.Get(ctx, ws, c.k.Coll, store.Key(key...))
	if err != nil {
		return zero, err
	}
	if vals[0] == nil {
		return zero, c.notFound(key)
	}
	return c.decode(vals[0])
}

// GetMany returns the records of single-id keys; a missing one is nil.
func (c *Collection[T]) GetMany(ctx context.Context, ws string, ids []int64) ([]*T, error) {
	keys := make([][]int64, len(ids))
	for i, id := range ids {
		keys[i] = []int64{id}
	}
	return c.GetKeys(ctx, ws, keys)
}

// GetKeys returns the records of keys; a missing one is nil.
func (c *Collection[T]) GetKeys(ctx context.Context, ws string, ks [][]int64) ([]*T, error) {
	recs, _, err := c.getKeysRaw(ctx, ws, ks)
	return recs, err
}

// getKeysRaw is GetKeys that also returns each row as stored.
func (c *Collection[T]) getKeysRaw(ctx context.Context, ws string, ks [][]int64) ([]*T, [][]byte, error) {
	keys := make([]string, len(ks))
	for i, k := range ks {
		keys[i] = store.Key(k...)
	}
	vals, err := c.e.model.Get(ctx, ws, c.k.Coll, keys...)
	if err != nil {
		return nil, nil, err
	}
	recs := make([]T, len(ks))
	if err := c.decodeRows(vals, recs); err != nil {
		return nil, nil, err
	}
	out := make([]*T, len(ks))
	for i, v := range vals {
		if v != nil {
			out[i] = &recs[i]
		}
	}
	return out, vals, nil
}

// decodeRows decodes every non-nil vals[i] into dst[i], on every core
// for large batches: reading a model for an analysis or a page of member
// results is mostly JSON decoding.
func (c *Collection[T]) decodeRows(vals [][]byte, dst []T) error {
	n := len(vals)
	workers := min(runtime.GOMAXPROCS(0), n/256)
	decode := func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			if vals[i] == nil {
				continue
			}
			if err := json.Unmarshal(vals[i], &dst[i]); err != nil {
				return fmt.Errorf("decode stored %s: %w", c.k.Noun, err)
			}
		}
		return nil
	}
	if workers <= 1 {
		return decode(0, n)
	}
	chunk := (n + workers - 1) / workers
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { errs[w] = decode(w*chunk, min(n, (w+1)*chunk)) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Stats returns the row count and the greatest id (0 when empty).
func (c *Collection[T]) Stats(ctx context.Context, ws string) (count, maxID int64, err error) {
	page, err := c.e.model.Page(ctx, ws, c.k.Coll, nil, 0, 0)
	if err != nil {
		return 0, 0, err
	}
	last, err := c.e.model.LastKey(ctx, ws, c.k.Coll, nil)
	if err != nil || last == "" {
		return page.Total, 0, err
	}
	ids, err := store.ParseKey(last)
	if err != nil {
		return 0, 0, err
	}
	return page.Total, ids[0], nil
}

// NextID returns the smallest free id at or above start: with start 1,
// the id a create without one is given (the interface's "next available
// number").
func (c *Collection[T]) NextID(ctx context.Context, ws string, start int64) (int64, error) {
	if start < 1 || start > model.MaxID {
		return 0, model.Invalid("start", "start must be between 1 and %d", model.MaxID)
	}
	free, err := c.e.model.FreeIDs(ctx, ws, c.k.Coll, start, model.MaxID, 1)
	if err != nil {
		return 0, err
	}
	if len(free) == 0 {
		return 0, model.E(model.KindConflict, "no free %s id at or above %d", c.k.Noun, start)
	}
	return free[0], nil
}
