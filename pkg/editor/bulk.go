package editor

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

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

// BulkSuccess is one item that was applied: its id, or for a composite
// key its last part in id and every part in ids.
type BulkSuccess struct {
	Index int     `json:"index"`
	ID    int64   `json:"id"`
	IDs   []int64 `json:"ids"`
}

func success(index int, key []int64) BulkSuccess {
	return BulkSuccess{Index: index, ID: key[len(key)-1], IDs: key}
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
	res    BulkResult
	failed map[int]bool
}

func newResults() *results {
	return &results{res: BulkResult{Succeeded: []BulkSuccess{}, Errors: []BulkError{}}, failed: map[int]bool{}}
}

func (r *results) fail(index int, key []int64, err error) {
	if r.failed[index] {
		return
	}
	r.failed[index] = true
	if len(r.res.Errors) >= MaxBulkErrors {
		r.res.ErrorsTruncated = true
		return
	}
	be := BulkError{Index: index, IDs: []int64{}, Error: err.Error(), Errors: []BulkFieldError{}, kind: model.KindOf(err)}
	if len(key) > 0 {
		be.ID, be.IDs = key[len(key)-1], key
	}
	if me, ok := err.(*model.Error); ok {
		be.Error = me.Msg
		for _, f := range me.Fields {
			be.Errors = append(be.Errors, BulkFieldError{Field: f.Field, Message: f.Message})
		}
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
	// HasKey says the client gave the last key part (the id); otherwise,
	// for an AutoKey kind, it is assigned.
	HasKey bool
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
	// Many records share a referenced row (every member its section): ask
	// once per distinct id, one round trip per referenced collection.
	refs := make([][]Ref, len(recs))
	type asked struct {
		index map[int64]int // id → position in keys
		keys  []string
		found []bool
	}
	byColl := map[string]*asked{}
	var order []string
	for i, rec := range recs {
		if rec == nil {
			continue
		}
		refs[i] = c.k.Refs(rec)
		for _, ref := range refs[i] {
			a := byColl[ref.Coll]
			if a == nil {
				a = &asked{index: map[int64]int{}}
				byColl[ref.Coll] = a
				order = append(order, ref.Coll)
			}
			if _, ok := a.index[ref.ID]; !ok {
				a.index[ref.ID] = len(a.keys)
				a.keys = append(a.keys, store.Key(ref.ID))
			}
		}
	}
	for _, coll := range order {
		a := byColl[coll]
		var err error
		if a.found, err = c.e.model.Exists(ctx, ws, coll, a.keys...); err != nil {
			return nil, err
		}
	}
	for i, rs := range refs {
		for _, ref := range rs {
			if a := byColl[ref.Coll]; !a.found[a.index[ref.ID]] {
				out[i] = model.Invalid(ref.Field, "%s: %s %d does not exist", ref.Field, ref.Noun, ref.ID)
				break
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

// checkRecords runs Validate, Refs and Check over the surviving records,
// failing the ones that break a rule.
func (c *Collection[T]) checkRecords(ctx context.Context, ws string, recs []*T, r *results) error {
	if c.k.Validate != nil {
		errs := make([]error, len(recs))
		Parallel(len(recs), func(i int) {
			if recs[i] != nil {
				errs[i] = c.k.Validate(recs[i])
			}
		})
		for i, err := range errs {
			if err != nil {
				r.fail(i, c.k.Key(recs[i]), err)
				recs[i] = nil
			}
		}
	}
	refErrs, err := c.checkRefs(ctx, ws, recs)
	if err != nil {
		return err
	}
	for i, e := range refErrs {
		r.fail(i, c.k.Key(recs[i]), e)
		recs[i] = nil
	}
	if c.k.Check != nil {
		errs, err := c.k.Check(ctx, ws, recs)
		if err != nil {
			return err
		}
		for i, e := range errs {
			if recs[i] != nil {
				r.fail(i, c.k.Key(recs[i]), e)
				recs[i] = nil
			}
		}
	}
	return nil
}

// Create validates and stores new records. With continueOnError false any
// failing item rejects the whole request; with true the valid items are
// stored and the failures reported.
func (c *Collection[T]) Create(ctx context.Context, ws string, items []Item[T], continueOnError bool) (out Created[T], err error) {
	err = c.e.replan(ctx, ws, fmt.Sprintf("the model kept changing while %d %ss were created", len(items), c.k.Noun), func(ctx context.Context) error {
		out, err = c.createOnce(ctx, ws, items, continueOnError)
		return err
	})
	return out, err
}

// bulkRefThreshold is the number of items or distinct referenced rows
// above which a create guards what it read by the model revision instead
// of one requirement per row: with thousands of rows, one revision check
// is far cheaper in the store than thousands of existence checks (and lets
// the store write in one MULTI/EXEC), and a batch that raced a change is
// simply planned again.
const bulkRefThreshold = 64

func (c *Collection[T]) createOnce(ctx context.Context, ws string, items []Item[T], continueOnError bool) (Created[T], error) {
	slot, err := c.e.jobs.Slot(ctx, ws)
	if err != nil {
		return Created[T]{}, err
	}
	op := "create " + c.k.Noun
	if len(items) > 1 {
		op = "bulk create " + c.k.Noun + "s"
	}
	r := newResults()
	recs := make([]*T, len(items))
	last := len(c.k.KeyFields) - 1
	for i := range items {
		it := &items[i]
		if it.Err != nil {
			r.fail(i, nil, it.Err)
			continue
		}
		if !it.HasKey && !c.k.AutoKey {
			r.fail(i, nil, model.Invalid(c.k.KeyFields[last], "%s is required", c.k.KeyFields[last]))
			continue
		}
		key := c.k.Key(&it.Rec)
		bad := false
		for j, v := range key {
			if (j < last || it.HasKey) && (v < 1 || v > model.MaxID) {
				r.fail(i, key, model.Invalid(c.k.KeyFields[j], "%s must be between 1 and %d, got %d", c.k.KeyFields[j], model.MaxID, v))
				bad = true
				break
			}
		}
		if !bad {
			recs[i] = &it.Rec
		}
	}
	// Client-chosen keys: unique in the request, free in the store.
	seen := map[string]int{}
	var chosen []int
	for i, rec := range recs {
		if rec == nil || !items[i].HasKey {
			continue
		}
		key := c.k.Key(rec)
		ks := store.Key(key...)
		if j, dup := seen[ks]; dup {
			r.fail(i, key, &model.Error{Kind: model.KindDuplicate, Msg: fmt.Sprintf("%s appears twice in the request (items %d and %d)", c.describe(key), j, i)})
			recs[i] = nil
			continue
		}
		seen[ks] = i
		chosen = append(chosen, i)
	}
	if err := c.checkChosen(ctx, ws, recs, chosen, r); err != nil {
		return Created[T]{}, err
	}
	if err := c.checkRecords(ctx, ws, recs, r); err != nil {
		return Created[T]{}, err
	}
	if r.anyFailed() && !continueOnError {
		return Created[T]{}, r.rejection(op)
	}
	lasts, err := c.assignKeys(ctx, ws, recs, items)
	if err != nil {
		return Created[T]{}, err
	}
	// A large batch is guarded by the model revision rather than by one
	// requirement per referenced row (see bulkRefThreshold).
	guarded := len(items) > bulkRefThreshold
	encoded := make([][]byte, len(recs))
	keys := make([]string, len(recs))
	Parallel(len(recs), func(i int) {
		if recs[i] != nil {
			encoded[i] = c.encode(*recs[i])
			keys[i] = store.Key(c.k.Key(recs[i])...)
		}
	})
	n := 0
	for _, rec := range recs {
		if rec != nil {
			n++
		}
	}
	b := store.Batch{Ops: make([]store.Op, 0, n)}
	owner := make([]int, 0, n) // batch op index → item index
	required := map[Ref]bool{}
	out := Created[T]{Records: make([]T, 0, n)}
	r.res.Succeeded = make([]BulkSuccess, 0, n)
	for i, rec := range recs {
		if rec == nil {
			continue
		}
		if !guarded {
			if c.k.Parent != "" {
				b.Require(c.k.Parent, keys[i])
			}
			c.requireRefs(&b, rec, required)
		}
		b.Create(c.k.Coll, keys[i], encoded[i])
		for len(owner) < len(b.Ops) {
			owner = append(owner, i)
		}
		out.Records = append(out.Records, *rec)
		r.res.Succeeded = append(r.res.Succeeded, success(i, c.k.Key(rec)))
	}
	if guarded || len(required) > bulkRefThreshold {
		// The references, the chosen keys and the greatest keys in use were
		// all read at slot.Rev or later; if the model is still at slot.Rev,
		// every reference still exists and every new key is still free.
		kept := b.Ops[:0]
		var keptOwner []int
		for j, o := range b.Ops {
			if o.Kind != store.OpRequire {
				kept = append(kept, o)
				keptOwner = append(keptOwner, owner[j])
			}
		}
		b.Ops, owner, b.ExpectRev, b.Verified = kept, keptOwner, slot.Rev, true
		b.Lasts = map[string]map[string]int64{c.k.Coll: lasts}
	}
	_, err = c.e.apply(ctx, ws, &b, func(ce *store.ConflictError) error {
		// Another request took an id this one assigned: number again.
		if ce.Op.Kind == store.OpCreate && ce.Exists && ce.Index < len(owner) && !items[owner[ce.Index]].HasKey {
			return store.ErrStale
		}
		return c.explainConflict(ce, owner)
	})
	if err != nil {
		return Created[T]{}, fmt.Errorf("%s: %w", op, err)
	}
	out.Result = r.res
	return out, nil
}

// checkChosen fails items whose chosen key is taken (or, for attribute
// rows, whose parent is missing).
func (c *Collection[T]) checkChosen(ctx context.Context, ws string, recs []*T, chosen []int, r *results) error {
	if len(chosen) == 0 {
		return nil
	}
	keys := make([]string, len(chosen))
	for j, i := range chosen {
		keys[j] = store.Key(c.k.Key(recs[i])...)
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
		key := c.k.Key(recs[i])
		switch {
		case parents != nil && !parents[j]:
			r.fail(i, key, model.NotFound(c.k.ParentNoun, key[0]))
			recs[i] = nil
		case taken[j] && c.k.Parent != "":
			r.fail(i, key, &model.Error{Kind: model.KindDuplicate, Msg: fmt.Sprintf("%s %d already has a %s; update it instead", c.k.ParentNoun, key[0], c.k.Noun)})
			recs[i] = nil
		case taken[j]:
			r.fail(i, key, &model.Error{Kind: model.KindDuplicate, Msg: c.describe(key) + " already exists"})
			recs[i] = nil
		}
	}
	return nil
}

// assignKeys numbers the items without a last key part. A single id gets
// the next available number, the smallest free (assignIDs); a sub-load
// the value after the greatest ever used under its leading parts, so that
// a deleted sub-load's number is not handed out again. It returns the
// greatest last parts it read, by prefix, which spare the store reading
// them again (store.Batch.Lasts).
func (c *Collection[T]) assignKeys(ctx context.Context, ws string, recs []*T, items []Item[T]) (map[string]int64, error) {
	last := len(c.k.KeyFields) - 1
	if last == 0 {
		return nil, c.assignIDs(ctx, ws, recs, items)
	}
	next := map[string]int64{} // leading parts → next free last part
	prefix := make([]string, len(recs))
	var prefixes []string // of records to number, each once
	asked := map[string]bool{}
	for i, rec := range recs {
		if rec == nil {
			continue
		}
		key := c.k.Key(rec)
		p := store.Key(key[:last]...)
		prefix[i] = p
		switch {
		case items[i].HasKey:
			// Keys chosen in this request count as in use.
			next[p] = max(next[p], key[last]+1)
		case !asked[p]:
			asked[p] = true
			prefixes = append(prefixes, p)
		}
	}
	var read map[string]int64
	if len(prefixes) > 0 {
		lasts, err := c.e.model.LastParts(ctx, ws, c.k.Coll, prefixes)
		if err != nil {
			return nil, err
		}
		read = make(map[string]int64, len(prefixes))
		for j, l := range lasts {
			read[prefixes[j]] = l
			next[prefixes[j]] = max(next[prefixes[j]], l+1, 1)
		}
	}
	for i, rec := range recs {
		if rec == nil || items[i].HasKey {
			continue
		}
		id := next[prefix[i]]
		if id > model.MaxID {
			return nil, model.E(model.KindConflict, "no %s ids left above %d; give ids explicitly", c.k.Noun, model.MaxID)
		}
		key := c.k.Key(rec)
		key[last] = id
		c.k.SetKey(rec, key)
		next[prefix[i]] = id + 1
	}
	return read, nil
}

// assignIDs gives the records without an id the smallest ids that neither
// a stored row nor another record of the request holds, in request order:
// the interface's "next available number", which GET next and the
// metadata's nextId report. The store finds them in one read that does
// not scan the collection (store.Model.FreeIDs). Another request may take
// one of them before this batch lands: the batch's create of that id
// fails, or its revision moved, and the create is planned again.
func (c *Collection[T]) assignIDs(ctx context.Context, ws string, recs []*T, items []Item[T]) error {
	chosen := map[int64]bool{} // ids given in this request
	var auto []int
	for i, rec := range recs {
		switch {
		case rec == nil:
		case items[i].HasKey:
			chosen[c.k.Key(rec)[0]] = true
		default:
			auto = append(auto, i)
		}
	}
	if len(auto) == 0 {
		return nil
	}
	// The request's own ids may be among the smallest free ones: ask for
	// enough to skip them all.
	free, err := c.e.model.FreeIDs(ctx, ws, c.k.Coll, 1, model.MaxID, len(auto)+len(chosen))
	if err != nil {
		return err
	}
	j := 0
	for _, i := range auto {
		for j < len(free) && chosen[free[j]] {
			j++
		}
		if j == len(free) {
			return model.E(model.KindConflict, "no free %s ids left from 1 to %d; delete some or give ids explicitly", c.k.Noun, model.MaxID)
		}
		c.k.SetKey(recs[i], []int64{free[j]})
		j++
	}
	return nil
}

func (c *Collection[T]) explainConflict(ce *store.ConflictError, owner []int) error {
	item := -1
	if ce.Index < len(owner) {
		item = owner[ce.Index]
	}
	what := strings.TrimSuffix(ce.Op.Coll, "s")
	ids, _ := store.ParseKey(ce.Op.Key)
	if ce.Exists {
		return &model.Error{Kind: model.KindDuplicate, Msg: fmt.Sprintf("item %d: %s %v was created by another request meanwhile", item, what, ids)}
	}
	return &model.Error{Kind: model.KindConflict, Msg: fmt.Sprintf("item %d: %s %v was deleted by another request meanwhile; retry", item, what, ids)}
}

// Parallel runs fn for 0..n-1 on every core when n is large enough to
// pay for the goroutines: decoding, validating and encoding the items of
// a bulk request are independent.
func Parallel(n int, fn func(i int)) {
	workers := runtime.GOMAXPROCS(0)
	if n < 512 || workers < 2 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	per := (n + workers - 1) / workers
	for w := 0; w < workers; w++ {
		lo, hi := w*per, min((w+1)*per, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				fn(i)
			}
		}()
	}
	wg.Wait()
}
