package editor

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Change is one update: the key and how to change the record.
type Change[T any] struct {
	Key []int64
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
func (c *Collection[T]) Update(ctx context.Context, ws string, changes []Change[T], continueOnError bool) (out Updated[T], err error) {
	err = c.e.replan(ctx, ws, "the "+c.k.Noun+"s kept changing under this update", func(ctx context.Context) error {
		out, err = c.updateOnce(ctx, ws, changes, continueOnError)
		return err
	})
	return out, err
}

// replan runs plan until it succeeds or fails other than with
// store.ErrStale (another request changed what it read); after
// maxWriteRetries it answers a conflict saying what kept changing.
//
// Optimistic retries alone livelock a planned change (a cascading delete
// reads the whole model) under many concurrent single-row writers: the
// revision moves between every read and commit. So after the first stale
// plan, replan takes the workspace's write lease and plans again under it;
// other writes wait for the lease (store.Model.Apply), so the next plan
// commits unless a job-level change intervenes. A plan run inside another
// replan's lease uses that lease rather than waiting for itself.
func (e *Editor) replan(ctx context.Context, ws, what string, plan func(ctx context.Context) error) error {
	return e.planWrite(ctx, ws, what, false, plan)
}

// replanLeased is replan for a change whose plan reads much of the model
// (a cascade): it takes the write lease before the first plan, since under
// concurrent writers an optimistic first plan is almost always stale and
// would cost a second read of the model.
func (e *Editor) replanLeased(ctx context.Context, ws, what string, plan func(ctx context.Context) error) error {
	return e.planWrite(ctx, ws, what, true, plan)
}

func (e *Editor) planWrite(ctx context.Context, ws, what string, leaseFirst bool, plan func(ctx context.Context) error) error {
	token, inherited := ctx.Value(leaseKey{}).(string)
	if !inherited {
		defer func() {
			if token != "" {
				// Released even when ctx has ended, so that other writers
				// need not wait for the lease to lapse.
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
				defer cancel()
				_ = e.model.Release(rctx, ws, token)
			}
		}()
	}
	if leaseFirst && !inherited {
		t, err := e.model.Lease(ctx, ws, "")
		if err != nil {
			return err
		}
		token = t
	}
	for attempt := 0; ; attempt++ {
		pctx := ctx
		if token != "" {
			pctx = context.WithValue(ctx, leaseKey{}, token)
		}
		err := plan(pctx)
		if !errors.Is(err, store.ErrStale) {
			return err
		}
		if attempt == maxWriteRetries {
			return model.E(model.KindConflict, "%s; retry", what)
		}
		if inherited {
			backoff(ctx, attempt)
			continue
		}
		t, err := e.model.Lease(ctx, ws, token)
		if err != nil {
			return err
		}
		token = t
	}
}

// leaseKey is the context key of the write lease token a replan holds.
type leaseKey struct{}

// maxWriteRetries bounds how often a create or update is planned again
// after another request changed the rows it read.
const maxWriteRetries = 20

// backoff waits a random, growing time so that writers that keep
// colliding spread out.
func backoff(ctx context.Context, attempt int) {
	d := time.Duration(rand.Int64N(int64(time.Millisecond) << min(attempt, 6)))
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

func (c *Collection[T]) updateOnce(ctx context.Context, ws string, changes []Change[T], continueOnError bool) (Updated[T], error) {
	op := "update " + c.k.Noun
	if len(changes) > 1 {
		op = "bulk update " + c.k.Noun + "s"
	}
	r := newResults()
	keys := make([][]int64, len(changes))
	seen := map[string]int{}
	for i, ch := range changes {
		keys[i] = ch.Key
		if ch.Err != nil {
			r.fail(i, ch.Key, ch.Err)
			continue
		}
		ks := store.Key(ch.Key...)
		if j, dup := seen[ks]; dup {
			r.fail(i, ch.Key, model.Invalid(c.k.KeyFields[len(c.k.KeyFields)-1], "%s appears twice in the request (items %d and %d)", c.describe(ch.Key), j, i))
		}
		seen[ks] = i
	}
	olds, raws, err := c.getKeysRaw(ctx, ws, keys)
	if err != nil {
		return Updated[T]{}, err
	}
	recs := make([]*T, len(changes))
	for i, ch := range changes {
		if r.failed[i] {
			continue
		}
		if olds[i] == nil {
			r.fail(i, ch.Key, c.notFound(ch.Key))
			continue
		}
		rec := *olds[i]
		if err := ch.Apply(&rec); err != nil {
			r.fail(i, ch.Key, err)
			continue
		}
		c.k.SetKey(&rec, ch.Key) // the route key wins over the body
		recs[i] = &rec
	}
	if err := c.checkRecords(ctx, ws, recs, r); err != nil {
		return Updated[T]{}, err
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
		// Only over the row as read: a concurrent update makes this one
		// plan again instead of overwriting it.
		b.UpdateFrom(c.k.Coll, store.Key(keys[i]...), c.encode(*rec), raws[i])
		for len(owner) < len(b.Ops) {
			owner = append(owner, i)
		}
		out.Records = append(out.Records, *rec)
		r.res.Succeeded = append(r.res.Succeeded, success(i, keys[i]))
	}
	if _, err := c.e.apply(ctx, ws, &b, func(ce *store.ConflictError) error { return c.explainConflict(ce, owner) }); err != nil {
		return Updated[T]{}, fmt.Errorf("%s: %w", op, err)
	}
	out.Result = r.res
	return out, nil
}

// DeleteRows removes rows that nothing else depends on (attribute rows,
// loads, sections in no use...). Missing keys are 404s per item.
func (c *Collection[T]) DeleteRows(ctx context.Context, ws string, keys [][]int64, continueOnError bool) (res BulkResult, err error) {
	err = c.e.replan(ctx, ws, "the model kept changing while "+c.k.Noun+"s were deleted", func(ctx context.Context) error {
		res, err = c.deleteRowsOnce(ctx, ws, keys, continueOnError)
		return err
	})
	return res, err
}

func (c *Collection[T]) deleteRowsOnce(ctx context.Context, ws string, keys [][]int64, continueOnError bool) (BulkResult, error) {
	op := "delete " + c.k.Noun
	r := newResults()
	var b store.Batch
	var users map[int64]error
	if c.k.Users != nil || c.k.Deleting != nil {
		// Planned at this revision: a user that appears later makes the
		// delete stale, and it is planned again.
		slot, err := c.e.jobs.Slot(ctx, ws)
		if err != nil {
			return BulkResult{}, err
		}
		b.ExpectRev = slot.Rev
		ids := map[int64]bool{}
		for _, key := range keys {
			ids[key[0]] = true
		}
		if c.k.Users != nil {
			if users, err = c.k.Users(ctx, ws, ids); err != nil {
				return BulkResult{}, err
			}
		}
	}
	found, err := c.GetKeys(ctx, ws, keys)
	if err != nil {
		return BulkResult{}, err
	}
	seen := map[string]bool{}
	for i, key := range keys {
		ks := store.Key(key...)
		switch {
		case found[i] == nil:
			r.fail(i, key, c.notFound(key))
		case users[key[0]] != nil:
			r.fail(i, key, users[key[0]])
		case seen[ks]:
			r.fail(i, key, model.Invalid(c.k.KeyFields[0], "%s appears twice in the request", c.describe(key)))
		default:
			seen[ks] = true
			b.Delete(c.k.Coll, ks)
			r.res.Succeeded = append(r.res.Succeeded, success(i, key))
		}
	}
	if r.anyFailed() && !continueOnError {
		return BulkResult{}, r.rejection(op)
	}
	if c.k.Deleting != nil && len(r.res.Succeeded) > 0 {
		ids := make([]int64, 0, len(r.res.Succeeded))
		for _, ok := range r.res.Succeeded {
			ids = append(ids, keys[ok.Index][0])
		}
		if err := c.k.Deleting(ctx, ws, ids, &b); err != nil {
			return BulkResult{}, err
		}
	}
	if _, err := c.e.apply(ctx, ws, &b, func(ce *store.ConflictError) error {
		return model.E(model.KindConflict, "%s %s was deleted by another request meanwhile", c.k.Noun, ce.Op.Key)
	}); err != nil {
		return BulkResult{}, fmt.Errorf("%s: %w", op, err)
	}
	return r.res, nil
}
