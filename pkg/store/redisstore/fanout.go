package redisstore

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/store"
)

var _ store.FanOut = (*FanOut)(nil)

// FanOut is the Redis implementation of store.FanOut: a set of the pending
// cases and a hash of the staged results, both under the run's key.
type FanOut struct {
	jobs *Jobs
}

// NewFanOut returns the fan-out store on rdb.
func NewFanOut(rdb redis.UniversalClient) *FanOut { return &FanOut{jobs: &Jobs{rdb: rdb}} }

// Begin implements store.FanOut. Fenced by an attempt, it writes under
// WATCH of the run record, so that the record it checked is the one
// current when the pending set is replaced.
func (s *FanOut) Begin(ctx context.Context, ws, runID string, attempt int, cases []int64) error {
	const op = "fan out run"
	k, err := s.jobs.keys(ws)
	if err != nil {
		return wrap(op, err)
	}
	members := make([]any, len(cases))
	for i, c := range cases {
		members[i] = strconv.FormatInt(c, 10)
	}
	key := k.runPending(runID)
	write := func(tx txPipeliner) error {
		return execTx(ctx, tx, func(p redis.Pipeliner) error {
			p.Del(ctx, key)
			if len(members) > 0 {
				p.SAdd(ctx, key, members...)
			}
			p.Expire(ctx, key, store.FanOutTTL)
			return nil
		})
	}
	if attempt == store.AnyAttempt {
		return wrap(op, write(s.jobs.rdb))
	}
	err = s.jobs.watch(ctx, func(tx *redis.Tx) error {
		_, run, err := readRun(ctx, tx, k, runID)
		if err != nil {
			return err
		}
		if run.Attempt != attempt {
			return store.ErrRunSuperseded
		}
		return write(tx)
	}, k.run(runID))
	return wrap(op, err)
}

// Stage implements store.FanOut.
func (s *FanOut) Stage(ctx context.Context, ws, runID string, lc int64, set store.ResultSet) error {
	const op = "stage case results"
	k, err := s.jobs.keys(ws)
	if err != nil {
		return wrap(op, err)
	}
	c := strconv.FormatInt(lc, 10)
	fields := make([]any, 0, 2+2*len(set.Columns))
	fields = append(fields, c, []byte(set.Meta))
	for name, col := range set.Columns {
		fields = append(fields, c+"/"+name, col)
	}
	key := k.runStage(runID)
	err = execTx(ctx, s.jobs.rdb, func(p redis.Pipeliner) error {
		p.HSet(ctx, key, fields...)
		p.Expire(ctx, key, store.FanOutTTL)
		return nil
	})
	return wrap(op, err)
}

// doneScript removes a case from the pending set. KEYS: the set. ARGV:
// the case. It returns {removed, left}.
var doneScript = redis.NewScript(`
local r = redis.call('SREM', KEYS[1], ARGV[1])
return {r, redis.call('SCARD', KEYS[1])}`)

// Done implements store.FanOut.
func (s *FanOut) Done(ctx context.Context, ws, runID string, lc int64) (int, bool, error) {
	const op = "count finished case"
	k, err := s.jobs.keys(ws)
	if err != nil {
		return 0, false, wrap(op, err)
	}
	res, err := doneScript.Run(ctx, s.jobs.rdb, []string{k.runPending(runID)}, strconv.FormatInt(lc, 10)).Int64Slice()
	if err != nil {
		return 0, false, wrap(op, err)
	}
	if len(res) != 2 {
		return 0, false, wrap(op, fmt.Errorf("unexpected script reply %v", res))
	}
	return int(res[1]), res[0] == 1, nil
}

// Pending implements store.FanOut.
func (s *FanOut) Pending(ctx context.Context, ws, runID string) ([]int64, error) {
	const op = "read pending cases"
	k, err := s.jobs.keys(ws)
	if err != nil {
		return nil, wrap(op, err)
	}
	ms, err := s.jobs.rdb.SMembers(ctx, k.runPending(runID)).Result()
	if err != nil {
		return nil, wrap(op, err)
	}
	out := make([]int64, 0, len(ms))
	for _, m := range ms {
		v, err := strconv.ParseInt(m, 10, 64)
		if err != nil {
			return nil, wrap(op, fmt.Errorf("pending case %q: %w", m, err))
		}
		out = append(out, v)
	}
	slices.Sort(out)
	return out, nil
}

// Staged implements store.FanOut.
func (s *FanOut) Staged(ctx context.Context, ws, runID string) (map[int64]store.ResultSet, error) {
	const op = "read staged results"
	k, err := s.jobs.keys(ws)
	if err != nil {
		return nil, wrap(op, err)
	}
	all, err := s.jobs.rdb.HGetAll(ctx, k.runStage(runID)).Result()
	if err != nil {
		return nil, wrap(op, err)
	}
	out := map[int64]store.ResultSet{}
	get := func(c string) (int64, store.ResultSet, error) {
		lc, err := strconv.ParseInt(c, 10, 64)
		if err != nil {
			return 0, store.ResultSet{}, fmt.Errorf("staged field %q: %w", c, err)
		}
		set, ok := out[lc]
		if !ok {
			set.Columns = map[string][]byte{}
		}
		return lc, set, nil
	}
	for f, v := range all {
		c, col, isCol := strings.Cut(f, "/")
		lc, set, err := get(c)
		if err != nil {
			return nil, wrap(op, err)
		}
		if isCol {
			set.Columns[col] = []byte(v)
		} else {
			set.Meta = []byte(v)
		}
		out[lc] = set
	}
	return out, nil
}

// Discard implements store.FanOut.
func (s *FanOut) Discard(ctx context.Context, ws, runID string) error {
	k, err := s.jobs.keys(ws)
	if err != nil {
		return wrap("discard fan-out state", err)
	}
	return wrap("discard fan-out state", s.jobs.rdb.Del(ctx, k.runPending(runID), k.runStage(runID)).Err())
}
