package redisstore

import (
	"context"
	"errors"
	"io"
	"net"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// A Redis given a maxmemory and the noeviction policy (the deploy files
// set both) refuses, once it is full, every command that may grow its
// memory ("denyoom": SET, HSET, INCR, ...) and every command queued in a
// MULTI, while it still runs DEL, UNLINK and HDEL. A Lua script without
// flags runs, and Redis refuses only its first write when that write is a
// denyoom command: once a script has deleted something it may write, so
// that it is never stopped half way. The store relies on this to keep what
// frees storage working when Redis is full: closing and clearing a job,
// deleting rows and ending a run are scripts that delete before they
// write (their writes are a few small records), and reads never queue
// commands in a MULTI.

// storageFullMsg is what a client learns when Redis refused a write for
// want of memory. The edge names the routes that free storage.
const storageFullMsg = "the service's storage is full, so the change was refused and nothing of it was written: " +
	"close or clear a job, or delete rows, to free storage"

// storageFull turns Redis's refusal of a write at its memory limit (an OOM
// error, wrapped or not) into a KindStorageFull error; any other error is
// returned as it is.
func storageFull(err error) error {
	if err == nil || !redis.IsOOMError(err) {
		return err
	}
	return &model.Error{Kind: model.KindStorageFull, Msg: storageFullMsg, Err: err}
}

// wrap is model.Wrap for the errors of this store: a refusal at the memory
// limit becomes KindStorageFull, and a Redis that cannot be reached is
// marked store.ErrUnreachable, so that no layer above reads Redis's text.
func wrap(op string, err error) error { return model.Wrap(op, unreachable(storageFull(err))) }

// unreachable marks err with store.ErrUnreachable when it says that Redis
// could not be reached or cannot serve now: the connection failed or
// timed out, no connection was free in time, or the server is loading its
// data, failing over or full of clients. The caller's own context ending
// is not: the caller stopped waiting, and Redis may be fine. A connection
// that timed out is, even when its error also matches
// context.DeadlineExceeded, as net reports a dial that ran into
// DialTimeout (a Redis being stopped or replaced). Any other error is
// returned as it is.
func unreachable(err error) error {
	var me *model.Error
	switch {
	case err == nil, errors.As(err, &me):
		return err
	case brokenConn(err):
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, redis.ErrPoolTimeout), redis.IsLoadingError(err), redis.IsReadOnlyError(err),
		redis.IsMasterDownError(err), redis.IsClusterDownError(err), redis.IsTryAgainError(err), redis.IsMaxClientsError(err):
	default:
		return err
	}
	return &model.Error{Kind: store.ErrUnreachable.Kind, Msg: store.ErrUnreachable.Msg, Err: err}
}

// brokenConn reports whether err is the connection to Redis failing or
// timing out rather than Redis answering.
func brokenConn(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// txPipeliner runs commands in MULTI/EXEC: a client, or a WATCH
// transaction.
type txPipeliner interface {
	TxPipelined(ctx context.Context, fn func(redis.Pipeliner) error) ([]redis.Cmder, error)
}

// execTx runs fn's commands in one MULTI/EXEC. A Redis at its memory limit
// refuses the queued commands and then aborts the whole transaction with
// EXECABORT; execTx returns the refusal, which says why.
func execTx(ctx context.Context, r txPipeliner, fn func(redis.Pipeliner) error) error {
	cmds, err := r.TxPipelined(ctx, fn)
	if redis.IsExecAbortError(err) {
		for _, c := range cmds {
			if redis.IsOOMError(c.Err()) {
				return c.Err()
			}
		}
	}
	return err
}

// unchanged fails with redis.TxFailedErr when a key that tx watches has
// changed since WATCH, so that reads under WATCH are known to come from
// one state. It sends an empty MULTI/EXEC: Redis refuses every command
// queued in a MULTI when it is full, even a read, but never an EXEC, so
// reads keep working at the memory limit.
func unchanged(ctx context.Context, tx *redis.Tx) error {
	if err := tx.Process(ctx, redis.NewStatusCmd(ctx, "MULTI")); err != nil {
		return err
	}
	err := tx.Process(ctx, redis.NewSliceCmd(ctx, "EXEC"))
	if errors.Is(err, redis.Nil) {
		return redis.TxFailedErr
	}
	return err
}
