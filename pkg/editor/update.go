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
	err = replan(ctx, "the "+c.k.Noun+"s kept changing under this update", func() error {
		out, err = c.updateOnce(ctx, ws, changes, continueOnError)
		return err
	})
	return out, err
}

// replan runs plan until it succeeds or fails other than with
// store.ErrStale (another request changed what it read), backing off
// between tries; after maxWriteRetries it answers a conflict saying what
// kept changing.
func replan(ctx context.Context, what string, plan func() error) error {
	for attempt := 0; ; attempt++ {
		err := plan()
		if !errors.Is(err, store.ErrStale) {
			return err
		}
		if attempt == maxWriteRetries {
			return model.E(model.KindConflict, "%s; retry", what)
		}
		backoff(ctx, attempt)
	}
}

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
	err = replan(ctx, "the model kept changing while "+c.k.Noun+"s were deleted", func() error {
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
	if c.k.Users != nil {
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
		if users, err = c.k.Users(ctx, ws, ids); err != nil {
			return BulkResult{}, err
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
	if _, err := c.e.apply(ctx, ws, &b, func(ce *store.ConflictError) error {
		return model.E(model.KindConflict, "%s %s was deleted by another request meanwhile", c.k.Noun, ce.Op.Key)
	}); err != nil {
		return BulkResult{}, fmt.Errorf("%s: %w", op, err)
	}
	return r.res, nil
}
