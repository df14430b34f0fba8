package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Closing and clearing a job are what a workspace does to free storage,
// so they must work when Redis is full; so must saving the job first, and
// ending a run (which releases the job). A MULTI is refused whole at the
// memory limit (see storage.go), so each is one script that deletes before
// it writes anything: the checks, the deletes and the few small writes of
// a clearing happen in one atomic step, as the transaction did.
//
// Both scripts delete the results keys listed in the index without
// declaring them, as applyScript does: on a Redis Cluster they share the
// declared keys' slot through the workspace hash tag. They UNLINK rather
// than DEL, so that freeing a large model does not stall Redis.

// closeScript deletes every key of an open job that no analysis holds.
// KEYS: job hash, analysis lock, results index, then the other keys to
// delete (error log, model collections). It returns {status, state,
// modified}: status "closed" (no job was open), "locked" or "ok", and the
// state and modified fields of the job hash before the close.
var closeScript = redis.NewScript(`
local st = redis.call('HMGET', KEYS[1], 'state', 'modified')
if not st[1] then return {'closed'} end
if redis.call('EXISTS', KEYS[2]) == 1 then return {'locked', st[1], st[2]} end
local res = redis.call('SMEMBERS', KEYS[3])
for i = 1, #res, 1000 do redis.call('UNLINK', unpack(res, i, math.min(i + 999, #res))) end
redis.call('UNLINK', KEYS[1], unpack(KEYS, 3))
return {'ok', st[1], st[2]}`)

// Close implements store.Jobs.
func (s *Jobs) Close(ctx context.Context, ws string) (Slot, error) {
	const op = "close job"
	k, err := s.keys(ws)
	if err != nil {
		return Slot{}, wrap(op, err)
	}
	keys := append([]string{k.job(), k.lock(), k.resultKeys(), k.errors()}, k.modelKeys(s.collections)...)
	res, err := closeScript.Run(ctx, s.rdb, keys).Slice()
	if err != nil {
		return Slot{}, wrap(op, err)
	}
	out, err := scriptSlot(res)
	if err != nil {
		return Slot{}, wrap(op, err)
	}
	rev, err := s.rdb.Get(ctx, k.rev()).Int64()
	if err != nil && !errors.Is(err, redis.Nil) {
		return Slot{}, wrap(op, err)
	}
	out.Rev = rev
	if res[0] == "locked" {
		out.Analysing = true
		return out, wrap(op, model.E(model.KindAnalysisInProgress,
			"an analysis of this job is in progress: cancel it (or wait for it) before closing the job"))
	}
	return out, nil
}

// scriptSlot decodes the slot a script returned as {status, state,
// modified}; a reply of the status alone is a closed job.
func scriptSlot(res []any) (Slot, error) {
	if len(res) == 0 {
		return Slot{}, errors.New("empty script reply")
	}
	if len(res) < 3 {
		return decodeSlot(nil, nil)
	}
	return decodeSlot(res[1], res[2])
}

// clearScript deletes the model rows and results of an open job that no
// analysis holds, marks it modified and moves the revision on. KEYS: job
// hash, revision, analysis lock, results index, then the model keys. It
// returns {status, state, modified, revision}: status "nojob", "locked"
// or "ok".
var clearScript = redis.NewScript(`
local st = redis.call('HMGET', KEYS[1], 'state', 'modified')
if not st[1] then return {'nojob'} end
if redis.call('EXISTS', KEYS[3]) == 1 then return {'locked'} end
local res = redis.call('SMEMBERS', KEYS[4])
for i = 1, #res, 1000 do redis.call('UNLINK', unpack(res, i, math.min(i + 999, #res))) end
-- The first write deletes: from here on a full Redis lets the script write.
redis.call('UNLINK', unpack(KEYS, 4))
redis.call('HSET', KEYS[1], 'modified', '1')
return {'ok', st[1], '1', redis.call('INCR', KEYS[2])}`)

// Clear implements store.Jobs.
func (s *Jobs) Clear(ctx context.Context, ws string) (Slot, error) {
	const op = "clear job data"
	k, err := s.keys(ws)
	if err != nil {
		return Slot{}, wrap(op, err)
	}
	keys := append([]string{k.job(), k.rev(), k.lock(), k.resultKeys()}, k.modelKeys(s.collections)...)
	res, err := clearScript.Run(ctx, s.rdb, keys).Slice()
	if err != nil {
		return Slot{}, wrap(op, err)
	}
	switch res[0] {
	case "nojob":
		return Slot{}, wrap(op, model.ErrNoJobOpen)
	case "locked":
		return Slot{}, wrap(op, model.E(model.KindAnalysisInProgress,
			"the model is read-only while an analysis is in progress; wait for it or cancel it"))
	}
	sl, err := scriptSlot(res)
	if err != nil {
		return Slot{}, wrap(op, err)
	}
	rev, ok := res[3].(int64)
	if !ok {
		return Slot{}, wrap(op, fmt.Errorf("clear: unexpected revision %v", res[3]))
	}
	sl.Rev = rev
	return sl, nil
}

// replaceRunScript replaces a run record that has not changed since it was
// read, and drops the analysis lock when the run, now finished, holds it.
// It deletes before it writes, so that a run can still be cancelled,
// failed or finished when Redis is full; the lock, once dropped, lets the
// job be closed. KEYS: run record, analysis lock. ARGV: the record read,
// the record to write, the run id, "1" when the run has finished. It
// returns 1, or 0 when the record changed.
var replaceRunScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[4] == '1' and redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[1], ARGV[2])
return 1`)

// Update implements store.Runs.
// The record is replaced only if it is still the one read (the script
// compares it whole), so the attempt checked here is the attempt of the
// record the update replaces: the fence is as atomic as the update.
func (s *Runs) Update(ctx context.Context, ws, id string, attempt int, fn func(*model.Run) error) (model.Run, error) {
	const op = "update run"
	k, err := s.jobs.keys(ws)
	if err != nil {
		return model.Run{}, wrap(op, err)
	}
	var out model.Run
	err = retry(ctx, func() error {
		raw, r, err := readRun(ctx, s.jobs.rdb, k, id)
		if err != nil {
			return err
		}
		if attempt != store.AnyAttempt && r.Attempt != attempt {
			return store.ErrRunSuperseded
		}
		if r.Status.Finished() {
			return store.ErrRunFinished
		}
		if err := fn(&r); err != nil {
			return err
		}
		finished := "0"
		if r.Status.Finished() {
			finished = "1"
		}
		n, err := replaceRunScript.Run(ctx, s.jobs.rdb, []string{k.run(id), k.lock()}, raw, encodeRun(r), id, finished).Int()
		if err != nil {
			return err
		}
		if n == 0 {
			return redis.TxFailedErr
		}
		out = r
		return nil
	})
	return out, wrap(op, err)
}

// markSavedScript rewrites the state fields of a job whose state and
// revision are still those read. It deletes them before it writes them
// again, so that a job can be saved when Redis is full (before it is
// closed, to free storage). KEYS: job hash, revision. ARGV: the state
// field read, the revision read, the state and modified fields to write.
// It returns 1, or 0 when the state or the revision moved.
var markSavedScript = redis.NewScript(`
if redis.call('HGET', KEYS[1], 'state') ~= ARGV[1] or (redis.call('GET', KEYS[2]) or '0') ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], 'state', 'modified')
redis.call('HSET', KEYS[1], 'state', ARGV[3], 'modified', ARGV[4])
return 1`)

// MarkSaved implements store.Jobs.
func (s *Jobs) MarkSaved(ctx context.Context, ws string, file model.FileInfo, rev int64) (Slot, error) {
	const op = "mark job saved"
	k, err := s.keys(ws)
	if err != nil {
		return Slot{}, wrap(op, err)
	}
	var sl Slot
	err = retry(ctx, func() error {
		var raw string
		var err error
		if sl, raw, err = readSlotRaw(ctx, s.rdb, k); err != nil {
			return err
		}
		if !sl.State.IsOpen {
			return model.ErrNoJobOpen
		}
		sl.State.File = file
		sl.State.IsNew = false
		sl.State.IsModified = sl.Rev != rev
		f := stateFields(sl.State, sl.Session)
		n, err := markSavedScript.Run(ctx, s.rdb, []string{k.job(), k.rev()}, raw, strconv.FormatInt(sl.Rev, 10), f[1], f[3]).Int()
		if err == nil && n == 0 {
			err = redis.TxFailedErr
		}
		return err
	})
	return sl, wrap(op, err)
}
