package redisstore

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"net"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// The write lease of a workspace is the string ws:{w}:lease holding the
// holder's token, set with a TTL of store.LeaseTTL. Apply refuses a batch
// that does not carry the token while the lease is held ("leased"), and the
// writer waits for the release. Receipts (ws:{w}:w:{writeId}) record that a
// batch committed, so that a reply lost on the way back can be settled.

// errLeased reports a batch refused because another caller holds the
// workspace's write lease; Apply waits and tries again.
var errLeased = errors.New("the workspace's write lease is held by another change")

// errVoid reports a batch whose write id was fenced off after a lost reply:
// it did not land and never will, so the caller may retry it.
var errVoid = &model.Error{Kind: model.KindUnavailable,
	Msg: "the store did not answer in time; the change was not applied; retry"}

// leaseWait bounds how long a writer waits for another caller's lease: a
// lease lapses after store.LeaseTTL unless renewed, and a holder renews it
// only while it keeps planning.
const leaseWait = 2 * store.LeaseTTL

// receiptTTL is how long the receipt of a committed batch is kept. It only
// has to outlive the client's read timeout plus one reconnection.
const receiptTTL = 2 * time.Minute

func (k keys) lease() string            { return k.prefix + "lease" }
func (k keys) hold(name string) string  { return k.prefix + "hold:" + name }
func (k keys) receipt(id string) string { return k.prefix + "w:" + id }

// newToken returns a random lease token or write id.
func newToken() string {
	b := make([]byte, 12)
	_, _ = crand.Read(b)
	return hex.EncodeToString(b)
}

// pause is a random wait around d.
func pause(d time.Duration) time.Duration { return d/2 + time.Duration(rand.Int64N(int64(d))) }

// takeLease sets the lease to the token when it is free or already the
// token's, renewing its TTL. KEYS: lease. ARGV: token, TTL in ms. It
// deletes the lease before it sets it, so that a full Redis (which
// refuses a script's first write only when that write may grow memory,
// see storage.go) still grants it: a delete of many rows takes the lease.
var takeLease = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v and v ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`)

// dropLease deletes the lease if the token still holds it.
var dropLease = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`)

// fence settles the outcome of a batch whose reply was lost: it returns the
// revision the batch committed at, or marks the write id void so that the
// batch, should it still arrive, is refused. KEYS: receipt.
var fence = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v then return v end
redis.call('SET', KEYS[1], 'void', 'EX', ARGV[1])
return 'void'`)

// Lease implements store.Model.
func (m *Model) Lease(ctx context.Context, ws, token string) (string, error) {
	k, err := m.keys(ws)
	if err != nil {
		return "", wrap("take the write lease", err)
	}
	if token == "" {
		token = newToken()
	}
	deadline := time.Now().Add(leaseWait)
	for {
		ok, err := takeLease.Run(ctx, m.rdb, []string{k.lease()}, token, store.LeaseTTL.Milliseconds()).Int()
		if err != nil {
			return "", wrap("take the write lease", err)
		}
		if ok == 1 {
			return token, nil
		}
		if err := m.waitFree(ctx, k, token, deadline); err != nil {
			return "", err
		}
	}
}

// Release implements store.Model.
func (m *Model) Release(ctx context.Context, ws, token string) error {
	k, err := m.keys(ws)
	if err != nil {
		return wrap("release the write lease", err)
	}
	return wrap("release the write lease", dropLease.Run(ctx, m.rdb, []string{k.lease()}, token).Err())
}

// waitFree waits until the lease is free or the token's, polling with a
// short random pause so that waiting writers do not move in lock step.
func (m *Model) waitFree(ctx context.Context, k keys, token string, deadline time.Time) error {
	step := time.Millisecond
	for {
		v, err := m.rdb.Get(ctx, k.lease()).Result()
		if errors.Is(err, redis.Nil) || (err == nil && v == token) {
			return nil
		}
		if err != nil {
			return wrap("wait for the write lease", err)
		}
		if time.Now().After(deadline) {
			return model.E(model.KindConflict,
				"other changes held the model for more than %s while this one waited; nothing was applied; retry", leaseWait)
		}
		t := time.NewTimer(pause(step))
		select {
		case <-ctx.Done():
			t.Stop()
			return &model.Error{Kind: model.KindUnavailable, Err: ctx.Err(),
				Msg: "the request's time ran out while it waited for other changes to the model; nothing was applied; retry"}
		case <-t.C:
		}
		step = min(2*step, 10*time.Millisecond)
	}
}

// settle decides the outcome of a batch whose reply did not arrive: the
// command may have committed before the connection failed. It runs on its
// own deadline, since the request's may be what expired.
func (m *Model) settle(ctx context.Context, k keys, writeID string, cause error) (int64, error) {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), settleTimeout)
	defer cancel()
	var v string
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		v, err = fence.Run(sctx, m.rdb, []string{k.receipt(writeID)}, int64(receiptTTL/time.Second)).Text()
		if err == nil {
			break
		}
	}
	switch {
	case err != nil:
		return 0, &model.Error{Kind: model.KindUnavailable, Err: errors.Join(cause, err),
			Msg: "the store stopped answering while the change was being committed, so whether it landed is unknown; read the rows before retrying"}
	case v == "void":
		return 0, &model.Error{Kind: model.KindUnavailable, Err: cause,
			Msg: "the store did not answer in time; the change was not applied; retry"}
	}
	rev, perr := strconv.ParseInt(v, 10, 64)
	if perr != nil {
		return 0, wrap("settle a change", perr)
	}
	return rev, nil
}

// settleTimeout bounds the settling of one lost reply.
const settleTimeout = 30 * time.Second

// ambiguous reports whether err leaves the outcome of a sent command
// open: the connection failed or timed out instead of Redis replying.
func ambiguous(err error) bool {
	return brokenConn(err) || errors.Is(err, net.ErrClosed) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}

// Hold implements store.Model.
func (m *Model) Hold(ctx context.Context, ws, name string, ttl time.Duration) (string, bool, error) {
	k, err := m.keys(ws)
	if err != nil {
		return "", false, wrap("take the "+name+" mark", err)
	}
	token := newToken()
	ok, err := m.rdb.SetNX(ctx, k.hold(name), token, ttl).Result()
	if err != nil {
		return "", false, wrap("take the "+name+" mark", err)
	}
	return token, ok, nil
}

// Unhold implements store.Model.
func (m *Model) Unhold(ctx context.Context, ws, name, token string) error {
	k, err := m.keys(ws)
	if err != nil {
		return wrap("release the "+name+" mark", err)
	}
	return wrap("release the "+name+" mark", dropLease.Run(ctx, m.rdb, []string{k.hold(name)}, token).Err())
}
