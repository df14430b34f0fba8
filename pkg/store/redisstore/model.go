package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

var _ store.Model = (*Model)(nil)

// Model is the Redis implementation of store.Model. Each collection is a
// hash (key → record) and a sorted set of the keys, all with score 0, so
// that the set orders keys by bytes: with zero-padded ids that is numeric
// order, and ranges of ids are ZRANGEBYLEX ranges.
type Model struct {
	rdb redis.UniversalClient
}

// NewModel returns the model store on rdb.
func NewModel(rdb redis.UniversalClient) *Model { return &Model{rdb: rdb} }

func (m *Model) keys(ws string) (keys, error) {
	if !validWorkspace(ws) {
		return keys{}, model.E(model.KindValidation, "invalid workspace name %q", ws)
	}
	return keysFor(ws), nil
}

// Get implements store.Model.
func (m *Model) Get(ctx context.Context, ws, coll string, ks ...string) ([][]byte, error) {
	const op = "read model rows"
	k, err := m.keys(ws)
	if err != nil {
		return nil, wrap(op, err)
	}
	var open *redis.IntCmd
	var vals *redis.SliceCmd
	_, err = m.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		open = p.Exists(ctx, k.job())
		if len(ks) > 0 {
			vals = p.HMGet(ctx, k.coll(coll), ks...)
		}
		return nil
	})
	if err != nil {
		return nil, wrap(op, err)
	}
	if open.Val() == 0 {
		return nil, model.ErrNoJobOpen
	}
	out := make([][]byte, len(ks))
	if vals != nil {
		for i, v := range vals.Val() {
			if s, ok := v.(string); ok {
				out[i] = []byte(s)
			}
		}
	}
	return out, nil
}

// Page implements store.Model.
func (m *Model) Page(ctx context.Context, ws, coll string, ranges []store.KeyRange, offset, limit int64) (store.Page, error) {
	const op = "list model rows"
	k, err := m.keys(ws)
	if err != nil {
		return store.Page{}, wrap(op, err)
	}
	ids := k.collIDs(coll)
	// Round trip 1: whether a job is open and how many keys each range holds.
	var open *redis.IntCmd
	counts := make([]*redis.IntCmd, max(len(ranges), 1))
	_, err = m.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		open = p.Exists(ctx, k.job())
		if len(ranges) == 0 {
			counts[0] = p.ZCard(ctx, ids)
		}
		for i, r := range ranges {
			counts[i] = p.ZLexCount(ctx, ids, "["+r.Lo, "["+r.Hi)
		}
		return nil
	})
	if err != nil {
		return store.Page{}, wrap(op, err)
	}
	if open.Val() == 0 {
		return store.Page{}, model.ErrNoJobOpen
	}
	var page store.Page
	for _, c := range counts {
		page.Total += c.Val()
	}
	if limit < 0 {
		limit = page.Total
	}
	// Round trip 2: the keys of the page, range by range.
	var keyCmds []*redis.StringSliceCmd
	_, err = m.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		skip, want := offset, limit
		if len(ranges) == 0 {
			if want > 0 && skip < page.Total {
				keyCmds = append(keyCmds, p.ZRange(ctx, ids, skip, skip+want-1))
			}
			return nil
		}
		for i, r := range ranges {
			n := counts[i].Val()
			if want <= 0 {
				break
			}
			if skip >= n {
				skip -= n
				continue
			}
			keyCmds = append(keyCmds, p.ZRangeByLex(ctx, ids, &redis.ZRangeBy{Min: "[" + r.Lo, Max: "[" + r.Hi, Offset: skip, Count: want}))
			want -= min(want, n-skip)
			skip = 0
		}
		return nil
	})
	if err != nil {
		return store.Page{}, wrap(op, err)
	}
	for _, c := range keyCmds {
		page.Keys = append(page.Keys, c.Val()...)
	}
	if len(page.Keys) == 0 {
		return page, nil
	}
	vals, err := m.rdb.HMGet(ctx, k.coll(coll), page.Keys...).Result()
	if err != nil {
		return store.Page{}, wrap(op, err)
	}
	// A row deleted between the two reads is left out: the page is then
	// one row short, as if the delete had come first.
	keys := page.Keys[:0]
	page.Values = make([][]byte, 0, len(vals))
	for i, v := range vals {
		if s, ok := v.(string); ok {
			keys = append(keys, page.Keys[i])
			page.Values = append(page.Values, []byte(s))
		}
	}
	page.Keys = keys
	return page, nil
}

// Count implements store.Model.
func (m *Model) Count(ctx context.Context, ws string, queries []store.CountQuery) ([]int64, error) {
	k, err := m.keys(ws)
	if err != nil {
		return nil, wrap("count model rows", err)
	}
	cmds := make([]*redis.IntCmd, len(queries))
	_, err = m.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, q := range queries {
			cmds[i] = p.ZLexCount(ctx, k.collIDs(q.Coll), "["+q.Range.Lo, "["+q.Range.Hi)
		}
		return nil
	})
	if err != nil {
		return nil, wrap("count model rows", err)
	}
	out := make([]int64, len(queries))
	for i, c := range cmds {
		out[i] = c.Val()
	}
	return out, nil
}

// Exists implements store.Model.
func (m *Model) Exists(ctx context.Context, ws, coll string, ks ...string) ([]bool, error) {
	const op = "check model rows"
	k, err := m.keys(ws)
	if err != nil {
		return nil, wrap(op, err)
	}
	// HMGET in chunks: one command per thousand keys instead of one
	// HEXISTS per key.
	const chunk = 1000
	var cmds []*redis.SliceCmd
	var open *redis.IntCmd
	_, err = m.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		open = p.Exists(ctx, k.job())
		for i := 0; i < len(ks); i += chunk {
			cmds = append(cmds, p.HMGet(ctx, k.coll(coll), ks[i:min(i+chunk, len(ks))]...))
		}
		return nil
	})
	if err != nil {
		return nil, wrap(op, err)
	}
	if open.Val() == 0 {
		return nil, model.ErrNoJobOpen
	}
	out := make([]bool, 0, len(ks))
	for _, c := range cmds {
		for _, v := range c.Val() {
			out = append(out, v != nil)
		}
	}
	return out, nil
}

// LastKey implements store.Model.
func (m *Model) LastKey(ctx context.Context, ws, coll string, r *store.KeyRange) (string, error) {
	k, err := m.keys(ws)
	if err != nil {
		return "", wrap("read last key", err)
	}
	var ks []string
	if r == nil {
		ks, err = m.rdb.ZRange(ctx, k.collIDs(coll), -1, -1).Result()
	} else {
		ks, err = m.rdb.ZRevRangeByLex(ctx, k.collIDs(coll), &redis.ZRangeBy{Min: "[" + r.Lo, Max: "[" + r.Hi, Count: 1}).Result()
	}
	if err != nil || len(ks) == 0 {
		return "", wrap("read last key", err)
	}
	return ks[0], nil
}

// LastParts implements store.Model.
func (m *Model) LastParts(ctx context.Context, ws, coll string, prefixes []string) ([]int64, error) {
	k, err := m.keys(ws)
	if err != nil {
		return nil, wrap("read last key parts", err)
	}
	const chunk = 1000
	var cmds []*redis.SliceCmd
	_, err = m.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i := 0; i < len(prefixes); i += chunk {
			cmds = append(cmds, p.HMGet(ctx, k.collLast(coll), prefixes[i:min(i+chunk, len(prefixes))]...))
		}
		return nil
	})
	if err != nil {
		return nil, wrap("read last key parts", err)
	}
	out := make([]int64, 0, len(prefixes))
	for _, c := range cmds {
		for _, v := range c.Val() {
			var n int64
			if s, ok := v.(string); ok {
				if n, err = strconv.ParseInt(s, 10, 64); err != nil {
					return nil, wrap("read last key parts", err)
				}
			}
			out = append(out, n)
		}
	}
	return out, nil
}

// Apply implements store.Model.
func (m *Model) Apply(ctx context.Context, ws string, b *store.Batch) (int64, error) {
	const op = "change model"
	k, err := m.keys(ws)
	if err != nil {
		return 0, wrap(op, err)
	}
	if len(b.Ops) == 0 {
		return 0, nil
	}
	// The write id names this batch's receipt; a retry after waiting for
	// the lease keeps it, since nothing of the batch landed then.
	writeID := newToken()
	deadline := time.Now().Add(leaseWait)
	for {
		rev, err := m.applyOnce(ctx, k, b, writeID)
		if errors.Is(err, errLeased) {
			if err := m.waitFree(ctx, k, b.Lease, deadline); err != nil {
				return 0, err
			}
			continue
		}
		if ambiguous(err) {
			rev, err = m.settle(ctx, k, writeID, err)
		}
		return rev, wrap(op, err)
	}
}

// applyOnce tries a batch once: by WATCH/MULTI for a large batch planned at
// a known revision, by the script otherwise.
func (m *Model) applyOnce(ctx context.Context, k keys, b *store.Batch, writeID string) (int64, error) {
	if b.ExpectRev != 0 && writesOnly(b) && len(b.Ops) >= fastPathMin {
		return m.applyWatched(ctx, k, b, writeID)
	}
	args := make([]any, 0, 5+5*len(b.Ops))
	args = append(args, k.prefix+"m:", len(b.Ops), b.ExpectRev, b.Lease, int64(receiptTTL/time.Second))
	for _, o := range b.Ops {
		expect := any(false) // a Lua false: no expectation
		if o.Expect != nil {
			expect = o.Expect
		}
		args = append(args, string(rune(o.Kind)), o.Coll, o.Key, o.Value, expectArg(expect))
	}
	args = append(args, len(b.Caps))
	for coll, max := range b.Caps {
		args = append(args, coll, max)
	}
	res, err := applyScript.Run(ctx, m.rdb, []string{k.job(), k.rev(), k.lock(), k.resultKeys(), k.lease(), k.receipt(writeID)}, args...).Slice()
	if err != nil {
		return 0, err
	}
	switch status, _ := res[0].(string); status {
	case "ok":
		return res[1].(int64), nil
	case "nojob":
		return 0, model.ErrNoJobOpen
	case "locked":
		return 0, errAnalysing
	case "leased":
		return 0, errLeased
	case "void":
		return 0, errVoid
	case "stale":
		return 0, store.ErrStale
	case "cap":
		return 0, &store.CapError{Coll: res[1].(string), Max: res[2].(int64), Would: res[3].(int64)}
	case "exists", "missing":
		i := int(res[1].(int64)) - 1
		return 0, &store.ConflictError{Index: i, Op: b.Ops[i], Exists: status == "exists"}
	default:
		return 0, errors.New("unexpected script reply " + strconv.Quote(fmt.Sprint(res)))
	}
}

// errAnalysing refuses model changes while an analysis holds the workspace.
var errAnalysing = model.E(model.KindAnalysisInProgress,
	"the model is read-only while an analysis is in progress; wait for it or cancel it")

// expectArg encodes an op's expected old value for the script: "-" for
// none, "=" followed by the value otherwise (so an empty value differs
// from none).
func expectArg(v any) string {
	if b, ok := v.([]byte); ok {
		return "=" + string(b)
	}
	return "-"
}
