package editor

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// BulkResult reports a bulk operation item by item (indexes are 0-based
// positions in the request).
type BulkResult struct {
	Succeeded       []BulkSuccess `json:"succeeded"`
	Errors          []BulkError   `json:"errors"`
	ErrorsTruncated bool          `json:"errorsTruncated"`
}

// BulkSuccess is one item that was applied.
type BulkSuccess struct {
	Index int   `json:"index"`
	ID    int64 `json:"id"`
}

// BulkError is one item that failed.
type BulkError struct {
	Index  int              `json:"index"`
	ID     int64            `json:"id"`
	IDs    []int64          `json:"ids"`
	Error  string           `json:"error"`
	Errors []BulkFieldError `json:"errors"`
	kind   model.Kind
}

// BulkFieldError names a field of a failed item.
type BulkFieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// results collects per-item outcomes.
type results struct {
	res     BulkResult
	failed  map[int]bool
	created []int
}

func newResults() *results {
	return &results{res: BulkResult{Succeeded: []BulkSuccess{}, Errors: []BulkError{}}, failed: map[int]bool{}}
}

func (r *results) fail(index int, id int64, err error) {
	if r.failed[index] {
		return
	}
	r.failed[index] = true
	if len(r.res.Errors) >= MaxBulkErrors {
		r.res.ErrorsTruncated = true
		return
	}
	be := BulkError{Index: index, ID: id, IDs: []int64{}, Error: err.Error(), Errors: []BulkFieldError{}, kind: model.KindOf(err)}
	if me, ok := err.(*model.Error); ok {
		be.Error = me.Msg
		for _, f := range me.Fields {
			be.Errors = append(be.Errors, BulkFieldError{Field: f.Field, Message: f.Message})
		}
	}
	if id != 0 {
		be.IDs = []int64{id}
	}
	r.res.Errors = append(r.res.Errors, be)
}

func (r *results) anyFailed() bool { return len(r.failed) > 0 }

// rejection turns the item errors of a request that may not partly succeed
// into one error: its kind is the first item's, and every item is listed.
func (r *results) rejection(op string) error {
	errs := r.res.Errors
	sort.Slice(errs, func(i, j int) bool { return errs[i].Index < errs[j].Index })
	e := &model.Error{Kind: errs[0].kind}
	if len(errs) == 1 {
		e.Msg = fmt.Sprintf("%s: item %d: %s", op, errs[0].Index, errs[0].Error)
	} else {
		e.Msg = fmt.Sprintf("%s: %d items failed, nothing was changed; item %d: %s", op, len(r.failed), errs[0].Index, errs[0].Error)
	}
	for _, be := range errs {
		field := fmt.Sprintf("[%d]", be.Index)
		if len(be.Errors) > 0 && be.Errors[0].Field != "" {
			field += "." + be.Errors[0].Field
		}
		e.Fields = append(e.Fields, model.FieldError{Field: field, Message: be.Error})
	}
	return e
}

// Item is one record to create, as decoded by the caller.
type Item[T any] struct {
	Rec T
	// HasID says the client chose the id (or, for an attribute row, the
	// parent key); otherwise the next free id is assigned.
	HasID bool
	// Err is a decoding error of this item, reported at its index.
	Err error
}

// Created is the outcome of a create: per item results and the records as
// stored, in request order (failed items absent).
type Created[T any] struct {
	Result  BulkResult
	Records []T
}

// checkRefs verifies that every reference of the given records exists,
// with one round trip per referenced collection, and returns the error of
// each failing record by position.
func (c *Collection[T]) checkRefs(ctx context.Context, ws string, recs []*T) (map[int]error, error) {
	out := map[int]error{}
	if c.k.Refs == nil {
		return out, nil
	}
	type use struct {
		rec int
		ref Ref
	}
	byColl := map[string][]use{}
	for i, rec := range recs {
		if rec == nil {
			continue
		}
		for _, ref := range c.k.Refs(rec) {
			byColl[ref.Coll] = append(byColl[ref.Coll], use{i, ref})
		}
	}
	for coll, uses := range byColl {
		// Many records share a referenced row (every member its section):
		// ask once per distinct id.
		index := map[int64]int{}
		var keys []string
		for _, u := range uses {
			if _, ok := index[u.ref.ID]; !ok {
				index[u.ref.ID] = len(keys)
				keys = append(keys, store.Key(u.ref.ID))
			}
		}
		found, err := c.e.model.Exists(ctx, ws, coll, keys...)
		if err != nil {
			return nil, err
		}
		for _, u := range uses {
			if !found[index[u.ref.ID]] && out[u.rec] == nil {
				out[u.rec] = model.Invalid(u.ref.Field, "%s: %s %d does not exist", u.ref.Field, u.ref.Noun, u.ref.ID)
			}
		}
	}
	return out, nil
}

// requireRefs adds a Require op for each reference not already required
// by this batch (seen tracks them), so a batch of members requires the
// shared section once.
func (c *Collection[T]) requireRefs(b *store.Batch, rec *T, seen map[Ref]bool) {
	if c.k.Refs == nil {
		return
	}
	for _, ref := range c.k.Refs(rec) {
		key := Ref{Coll: ref.Coll, ID: ref.ID}
		if seen[key] {
			continue
		}
		seen[key] = true
		b.Require(ref.Coll, store.Key(ref.ID))
	}
}

// Create validates and stores new records. With continueOnError false any
// failing item rejects the whole request; with true the valid items are
// stored and the failures reported.
func (c *Collection[T]) Create(ctx context.Context, ws string, items []Item[T], continueOnError bool) (Created[T], error) {
	op := "create " + c.k.Noun
	if len(items) > 1 {
		op = "bulk create " + c.k.Noun + "s"
	}
	r := newResults()
	recs := make([]*T, len(items))
	for i := range items {
		it := &items[i]
		if it.Err != nil {
			r.fail(i, 0, it.Err)
			continue
		}
		if c.k.Parent != "" && !it.HasID {
			r.fail(i, 0, model.Invalid(c.k.IDField, "%s is required", c.k.IDField))
			continue
		}
		if it.HasID {
			if id := c.k.ID(&it.Rec); id < 1 || id > model.MaxID {
				r.fail(i, id, model.Invalid(c.k.IDField, "%s must be between 1 and %d, got %d", c.k.IDField, model.MaxID, id))
				continue
			}
		}
		if c.k.Validate != nil {
			if err := c.k.Validate(&it.Rec); err != nil {
				r.fail(i, c.k.ID(&it.Rec), err)
				continue
			}
		}
		recs[i] = &it.Rec
	}
	// Client-chosen ids: unique in the request, free in the store.
	seen := map[int64]int{}
	var chosen []int
	for i, rec := range recs {
		if rec == nil || !items[i].HasID {
			continue
		}
		id := c.k.ID(rec)
		if j, dup := seen[id]; dup {
			r.fail(i, id, &model.Error{Kind: model.KindDuplicate, Msg: fmt.Sprintf("%s %d appears twice in the request (items %d and %d)", c.k.Noun, id, j, i)})
			recs[i] = nil
			continue
		}
		seen[id] = i
		chosen = append(chosen, i)
	}
	if err := c.checkChosen(ctx, ws, recs, chosen, r); err != nil {
		return Created[T]{}, err
	}
	refErrs, err := c.checkRefs(ctx, ws, recs)
	if err != nil {
		return Created[T]{}, err
	}
	for i, e := range refErrs {
		r.fail(i, c.k.ID(recs[i]), e)
		recs[i] = nil
	}
	if r.anyFailed() && !continueOnError {
		return Created[T]{}, r.rejection(op)
	}
	if err := c.assignIDs(ctx, ws, recs, items, seen); err != nil {
		return Created[T]{}, err
	}
	var b store.Batch
	owner := []int{} // batch op index → item index
	required := map[Ref]bool{}
	out := Created[T]{}
	for i, rec := range recs {
		if rec == nil {
			continue
		}
		key := store.Key(c.k.ID(rec))
		if c.k.Parent != "" {
			b.Require(c.k.Parent, key)
			owner = append(owner, i)
		}
		c.requireRefs(&b, rec, required)
		for len(owner) < len(b.Ops) {
			owner = append(owner, i)
		}
		b.Create(c.k.Coll, key, c.encode(*rec))
		owner = append(owner, i)
		out.Records = append(out.Records, *rec)
		r.res.Succeeded = append(r.res.Succeeded, BulkSuccess{Index: i, ID: c.k.ID(rec)})
	}
	_, err = c.e.apply(ctx, ws, &b, func(ce *store.ConflictError) error {
		return c.explainConflict(ce, owner, recs)
	})
	if err != nil {
		return Created[T]{}, fmt.Errorf("%s: %w", op, err)
	}
	out.Result = r.res
	return out, nil
}

// checkChosen fails items whose chosen id is taken (or, for attribute
// rows, whose parent is missing).
func (c *Collection[T]) checkChosen(ctx context.Context, ws string, recs []*T, chosen []int, r *results) error {
	if len(chosen) == 0 {
		return nil
	}
	keys := make([]string, len(chosen))
	for j, i := range chosen {
		keys[j] = store.Key(c.k.ID(recs[i]))
	}
	taken, err := c.e.model.Exists(ctx, ws, c.k.Coll, keys...)
	if err != nil {
		return err
	}
	var parents []bool
	if c.k.Parent != "" {
		if parents, err = c.e.model.Exists(ctx, ws, c.k.Parent, keys...); err != nil {
			return err
		}
	}
	for j, i := range chosen {
		id := c.k.ID(recs[i])
		switch {
		case parents != nil && !parents[j]:
			r.fail(i, id, model.NotFound(c.k.ParentNoun, id))
			recs[i] = nil
		case taken[j] && c.k.Parent != "":
			r.fail(i, id, &model.Error{Kind: model.KindDuplicate, Msg: fmt.Sprintf("%s %d already has a %s; update it instead", c.k.ParentNoun, id, c.k.Noun)})
			recs[i] = nil
		case taken[j]:
			r.fail(i, id, &model.Error{Kind: model.KindDuplicate, Msg: fmt.Sprintf("%s %d already exists", c.k.Noun, id)})
			recs[i] = nil
		}
	}
	return nil
}

// assignIDs gives items without an id the ids after the greatest one in
// use, so that bulk creation needs no search for gaps.
func (c *Collection[T]) assignIDs(ctx context.Context, ws string, recs []*T, items []Item[T], chosen map[int64]int) error {
	var next int64
	for i, rec := range recs {
		if rec == nil || items[i].HasID {
			continue
		}
		if next == 0 {
			_, maxID, err := c.Stats(ctx, ws)
			if err != nil {
				return err
			}
			for id := range chosen {
				maxID = max(maxID, id)
			}
			next = maxID + 1
		}
		if next > model.MaxID {
			return model.E(model.KindConflict, "no %s ids left above %d; give ids explicitly", c.k.Noun, model.MaxID)
		}
		c.k.SetID(rec, next)
		next++
	}
	return nil
}

func (c *Collection[T]) explainConflict(ce *store.ConflictError, owner []int, recs []*T) error {
	item := -1
	if ce.Index < len(owner) {
		item = owner[ce.Index]
	}
	what := strings.TrimSuffix(ce.Op.Coll, "s")
	ids, _ := store.ParseKey(ce.Op.Key)
	var id int64
	if len(ids) > 0 {
		id = ids[0]
	}
	if ce.Exists {
		return &model.Error{Kind: model.KindDuplicate, Msg: fmt.Sprintf("item %d: %s %d was created by another request meanwhile", item, what, id)}
	}
	return &model.Error{Kind: model.KindConflict, Msg: fmt.Sprintf("item %d: %s %d was deleted by another request meanwhile; retry", item, what, id)}
}

// Change is one update: the id and how to change the record.
type Change[T any] struct {
	ID int64
	// Apply merges the client's fields into the stored record.
	Apply func(*T) error
	// Err is a decoding error of this item.
	Err error
}

// Updated is the outcome of an update.
type Updated[T any] struct {
	Result  BulkResult
	Records []T
}

// Update applies changes to existing records; like Create, with
// continueOnError false any failing item rejects the whole request.
func (c *Collection[T]) Update(ctx context.Context, ws string, changes []Change[T], continueOnError bool) (Updated[T], error) {
	op := "update " + c.k.Noun
	if len(changes) > 1 {
		op = "bulk update " + c.k.Noun + "s"
	}
	r := newResults()
	ids := make([]int64, len(changes))
	seen := map[int64]int{}
	for i, ch := range changes {
		ids[i] = ch.ID
		if ch.Err != nil {
			r.fail(i, ch.ID, ch.Err)
			continue
		}
		if j, dup := seen[ch.ID]; dup {
			r.fail(i, ch.ID, model.Invalid(c.k.IDField, "%s %d appears twice in the request (items %d and %d)", c.k.Noun, ch.ID, j, i))
		}
		seen[ch.ID] = i
	}
	olds, err := c.GetMany(ctx, ws, ids)
	if err != nil {
		return Updated[T]{}, err
	}
	recs := make([]*T, len(changes))
	for i, ch := range changes {
		if r.failed[i] {
			continue
		}
		if olds[i] == nil {
			r.fail(i, ch.ID, model.NotFound(c.k.Noun, ch.ID))
			continue
		}
		rec := *olds[i]
		if err := ch.Apply(&rec); err != nil {
			r.fail(i, ch.ID, err)
			continue
		}
		c.k.SetID(&rec, ch.ID) // the route id wins over the body
		if c.k.Validate != nil {
			if err := c.k.Validate(&rec); err != nil {
				r.fail(i, ch.ID, err)
				continue
			}
		}
		recs[i] = &rec
	}
	refErrs, err := c.checkRefs(ctx, ws, recs)
	if err != nil {
		return Updated[T]{}, err
	}
	for i, e := range refErrs {
		r.fail(i, ids[i], e)
		recs[i] = nil
	}
	if r.anyFailed() && !continueOnError {
		return Updated[T]{}, r.rejection(op)
	}
	var b store.Batch
	var owner []int
	required := map[Ref]bool{}
	out := Updated[T]{}
	for i, rec := range recs {
		if rec == nil {
			continue
		}
		c.requireRefs(&b, rec, required)
		b.Update(c.k.Coll, store.Key(ids[i]), c.encode(*rec))
		for len(owner) < len(b.Ops) {
			owner = append(owner, i)
		}
		out.Records = append(out.Records, *rec)
		r.res.Succeeded = append(r.res.Succeeded, BulkSuccess{Index: i, ID: ids[i]})
	}
	if _, err := c.e.apply(ctx, ws, &b, func(ce *store.ConflictError) error { return c.explainConflict(ce, owner, recs) }); err != nil {
		return Updated[T]{}, fmt.Errorf("%s: %w", op, err)
	}
	out.Result = r.res
	return out, nil
}

// DeleteRows removes rows that nothing else depends on (attribute rows,
// sections in no use...). Missing ids are 404s per item.
func (c *Collection[T]) DeleteRows(ctx context.Context, ws string, ids []int64, continueOnError bool) (BulkResult, error) {
	op := "delete " + c.k.Noun
	r := newResults()
	found, err := c.GetMany(ctx, ws, ids)
	if err != nil {
		return BulkResult{}, err
	}
	seen := map[int64]bool{}
	var b store.Batch
	for i, id := range ids {
		switch {
		case found[i] == nil:
			r.fail(i, id, model.NotFound(c.k.Noun, id))
		case seen[id]:
			r.fail(i, id, model.Invalid(c.k.IDField, "%s %d appears twice in the request", c.k.Noun, id))
		default:
			seen[id] = true
			b.Delete(c.k.Coll, store.Key(id))
			r.res.Succeeded = append(r.res.Succeeded, BulkSuccess{Index: i, ID: id})
		}
	}
	if r.anyFailed() && !continueOnError {
		return BulkResult{}, r.rejection(op)
	}
	if _, err := c.e.apply(ctx, ws, &b, func(ce *store.ConflictError) error {
		return model.E(model.KindConflict, "%s %s was deleted by another request meanwhile", c.k.Noun, ce.Op.Key)
	}); err != nil {
		return BulkResult{}, fmt.Errorf("%s: %w", op, err)
	}
	return r.res, nil
}
