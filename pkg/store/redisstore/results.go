package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

var _ store.Results = (*Results)(nil)

// Results is the Redis implementation of store.Results. Each column is a
// string of its own, so a query reads only the columns it needs, and every
// results key is listed in the set ws:{w}:res:keys so that a model change
// can delete them all in the same transaction.
type Results struct {
	jobs *Jobs
}

// NewResults returns the results store on rdb.
func NewResults(rdb redis.UniversalClient) *Results { return &Results{jobs: &Jobs{rdb: rdb}} }

// Publish implements store.Results.
func (s *Results) Publish(ctx context.Context, ws, runID string, attempt int, kind model.AnalysisFamily, set store.ResultSet, drop []string,
	rows []store.Op, complete func(*model.Run)) error {
	const op = "publish results"
	k, err := s.jobs.keys(ws)
	if err != nil {
		return wrap(op, err)
	}
	for _, o := range rows {
		if (o.Kind != store.OpPut && o.Kind != store.OpDeleteIfAny) || strings.Contains(o.Key, ":") {
			return wrap(op, fmt.Errorf("model row %s/%s: only puts and deletes of single-part keys go with results", o.Coll, o.Key))
		}
	}
	err = s.jobs.watch(ctx, func(tx *redis.Tx) error {
		holder, err := tx.Get(ctx, k.lock()).Result()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		raw, err := tx.Get(ctx, k.run(runID)).Result()
		if errors.Is(err, redis.Nil) {
			return lostWorkspace(runID)
		}
		if err != nil {
			return err
		}
		run, err := decodeRun(raw)
		if err != nil {
			return err
		}
		// The attempt first: a stale attempt learns that it is one even
		// once the newer attempt has finished the run.
		if attempt != store.AnyAttempt && run.Attempt != attempt {
			return store.ErrRunSuperseded
		}
		if holder != runID {
			return lostWorkspace(runID)
		}
		if run.Status != model.RunRunning {
			return store.ErrRunCancelled
		}
		complete(&run)
		if !run.Status.Finished() {
			return fmt.Errorf("publish results: run %s left %s", runID, run.Status)
		}
		err = execTx(ctx, tx, func(p redis.Pipeliner) error {
			for _, c := range drop {
				ck := k.resultColumn(string(kind), c)
				p.Del(ctx, ck)
				p.SRem(ctx, k.resultKeys(), ck)
			}
			writeResults(ctx, p, k, map[model.AnalysisFamily]store.ResultSet{kind: set})
			writeRows(ctx, p, k, rows)
			p.Set(ctx, k.run(runID), encodeRun(run), 0)
			p.Del(ctx, k.lock())
			return nil
		})
		return err
	}, k.lock(), k.run(runID))
	return wrap(op, err)
}

// lostWorkspace is Publish's refusal of a run that no longer holds the
// workspace: it finished (reaped as lost, or completed) or left the
// history.
func lostWorkspace(runID string) error {
	return model.E(model.KindConflict, "run %s no longer holds the workspace: its results are discarded", runID)
}

// writeRows applies the model rows of a publish (Results.Publish has
// checked their kinds) and, when there are any, moves the revision on and
// marks the job modified, as a model change does, without deleting the
// results being written.
func writeRows(ctx context.Context, p redis.Pipeliner, k keys, rows []store.Op) {
	for _, o := range rows {
		if o.Kind == store.OpPut {
			p.HSet(ctx, k.coll(o.Coll), o.Key, o.Value)
			p.ZAdd(ctx, k.collIDs(o.Coll), redis.Z{Member: o.Key})
			continue
		}
		p.HDel(ctx, k.coll(o.Coll), o.Key)
		p.ZRem(ctx, k.collIDs(o.Coll), o.Key)
	}
	if len(rows) > 0 {
		p.HSet(ctx, k.job(), fModified, "1")
		p.Incr(ctx, k.rev())
	}
}

// Meta implements store.Results.
func (s *Results) Meta(ctx context.Context, ws string, kind model.AnalysisFamily) (json.RawMessage, error) {
	const op = "read results"
	k, err := s.jobs.keys(ws)
	if err != nil {
		return nil, wrap(op, err)
	}
	b, err := s.jobs.rdb.Get(ctx, k.resultMeta(string(kind))).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	return b, wrap(op, err)
}

// View implements store.Results: fn runs under WATCH of the meta key,
// which every publish and every clearing writes, and an empty transaction
// at the end (unchanged) fails, and View retries, if it moved.
func (s *Results) View(ctx context.Context, ws string, kind model.AnalysisFamily,
	fn func(meta json.RawMessage, columns func(names ...string) ([][]byte, error)) error) error {
	const op = "read results"
	k, err := s.jobs.keys(ws)
	if err != nil {
		return wrap(op, err)
	}
	mk := k.resultMeta(string(kind))
	err = s.jobs.watch(ctx, func(tx *redis.Tx) error {
		meta, err := tx.Get(ctx, mk).Bytes()
		if errors.Is(err, redis.Nil) {
			meta = nil
		} else if err != nil {
			return err
		}
		ferr := fn(meta, func(names ...string) ([][]byte, error) { return readColumns(ctx, tx, k, kind, names) })
		// Even when fn failed: what it read may be half of two sets (a
		// column gone), which only a moved meta key explains; then read
		// again.
		if err := unchanged(ctx, tx); err != nil {
			return err
		}
		return ferr
	}, mk)
	return wrap(op, err)
}

// Columns implements store.Results.
func (s *Results) Columns(ctx context.Context, ws string, kind model.AnalysisFamily, names ...string) ([][]byte, error) {
	k, err := s.jobs.keys(ws)
	if err != nil {
		return nil, wrap("read results", err)
	}
	out, err := readColumns(ctx, s.jobs.rdb, k, kind, names)
	return out, wrap("read results", err)
}

// bytesScript returns every key of the results index with its length, in
// one step. KEYS: the results index. The keys it reads are not declared:
// on a Redis Cluster they share the index's slot (see applyScript).
var bytesScript = redis.NewScript(`
local keys = redis.call('SMEMBERS', KEYS[1])
local out = {}
for i, k in ipairs(keys) do
  out[2 * i - 1] = k
  out[2 * i] = redis.call('STRLEN', k)
end
return out`)

// Bytes implements store.Results: it sums the lengths of the keys the
// results index lists, a few per case and family, so the sum costs one
// step in Redis and cannot drift from what is stored.
func (s *Results) Bytes(ctx context.Context, ws string) (map[model.AnalysisFamily]int64, error) {
	const op = "read stored result bytes"
	k, err := s.jobs.keys(ws)
	if err != nil {
		return nil, wrap(op, err)
	}
	res, err := bytesScript.Run(ctx, s.jobs.rdb, []string{k.resultKeys()}).Slice()
	if err != nil {
		return nil, wrap(op, err)
	}
	prefix := k.resultMeta("")
	prefix = prefix[:len(prefix)-len(":meta")]
	out := map[model.AnalysisFamily]int64{}
	for i := 0; i+1 < len(res); i += 2 {
		key, _ := res[i].(string)
		n, _ := res[i+1].(int64)
		rest, ok := strings.CutPrefix(key, prefix)
		kind, _, cut := strings.Cut(rest, ":")
		if !ok || !cut || kind == "" {
			continue
		}
		out[model.AnalysisFamily(kind)] += n
	}
	return out, nil
}

// readColumns reads columns through r (a client or a WATCH transaction);
// a missing column is nil.
func readColumns(ctx context.Context, r redis.Cmdable, k keys, kind model.AnalysisFamily, names []string) ([][]byte, error) {
	cmds := make([]*redis.StringCmd, len(names))
	_, err := r.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, n := range names {
			cmds[i] = p.Get(ctx, k.resultColumn(string(kind), n))
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	out := make([][]byte, len(names))
	for i, c := range cmds {
		b, err := c.Bytes()
		if errors.Is(err, redis.Nil) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// readResults reads every stored result set (for a snapshot); r is a
// client or a WATCH transaction.
func readResults(ctx context.Context, r redis.Cmdable, k keys) (map[model.AnalysisFamily]store.ResultSet, error) {
	out := map[model.AnalysisFamily]store.ResultSet{}
	members, err := r.SMembers(ctx, k.resultKeys()).Result()
	if err != nil {
		return nil, err
	}
	// The families are those with a meta record: the store keeps
	// whatever families the analyses wrote, and names none itself.
	var kinds []string
	metaPrefix, metaSuffix := k.resultMeta(""), ":meta"
	metaPrefix = strings.TrimSuffix(metaPrefix, metaSuffix)
	for _, m := range members {
		if rest, ok := strings.CutPrefix(m, metaPrefix); ok {
			if kind, ok := strings.CutSuffix(rest, metaSuffix); ok && kind != "" && !strings.Contains(kind, ":") {
				kinds = append(kinds, kind)
			}
		}
	}
	slices.Sort(kinds)
	for _, kind := range kinds {
		meta, err := r.Get(ctx, k.resultMeta(kind)).Bytes()
		if errors.Is(err, redis.Nil) {
			continue
		}
		if err != nil {
			return nil, err
		}
		set := store.ResultSet{Meta: meta, Columns: map[string][]byte{}}
		prefix := k.resultColumn(kind, "")
		for _, m := range members {
			if len(m) <= len(prefix) || m[:len(prefix)] != prefix {
				continue
			}
			col, err := r.Get(ctx, m).Bytes()
			if errors.Is(err, redis.Nil) {
				continue
			}
			if err != nil {
				return nil, err
			}
			set.Columns[m[len(prefix):]] = col
		}
		out[model.AnalysisFamily(kind)] = set
	}
	return out, nil
}

// writeResults queues the result sets of a snapshot.
func writeResults(ctx context.Context, p redis.Pipeliner, k keys, sets map[model.AnalysisFamily]store.ResultSet) {
	for kind, set := range sets {
		mk := k.resultMeta(string(kind))
		p.Set(ctx, mk, []byte(set.Meta), 0)
		p.SAdd(ctx, k.resultKeys(), mk)
		for name, col := range set.Columns {
			ck := k.resultColumn(string(kind), name)
			p.Set(ctx, ck, col, 0)
			p.SAdd(ctx, k.resultKeys(), ck)
		}
	}
}

// clearResults queues the deletion of every results key listed in
// members (SMEMBERS of the index, read under WATCH) and of the index.
func clearResults(ctx context.Context, p redis.Pipeliner, k keys, members []string) {
	const chunk = 1000
	for i := 0; i < len(members); i += chunk {
		p.Del(ctx, members[i:min(i+chunk, len(members))]...)
	}
	p.Del(ctx, k.resultKeys())
}
