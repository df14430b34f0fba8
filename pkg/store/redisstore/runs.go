package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

var _ store.Runs = (*Runs)(nil)

// Runs is the Redis implementation of store.Runs.
type Runs struct {
	jobs *Jobs
}

// NewRuns returns the run store on rdb.
func NewRuns(rdb redis.UniversalClient) *Runs { return &Runs{jobs: &Jobs{rdb: rdb}} }

// runRecord is the stored form of a run: the record plus what the wire
// form leaves out.
type runRecord struct {
	model.Run
	Overrides json.RawMessage `json:"overrides,omitempty"`
	FanOut    bool            `json:"fanOut,omitempty"`
	Equations int             `json:"equations,omitempty"`
	// MemoryReserved and MemoryBudget are model.Run's.
	MemoryReserved int64 `json:"memoryReserved,omitempty"`
	MemoryBudget   int64 `json:"memoryBudget,omitempty"`
}

func encodeRun(r model.Run) string {
	rec := runRecord{Run: r, FanOut: r.FanOut, Equations: r.Equations, MemoryReserved: r.MemoryReserved, MemoryBudget: r.MemoryBudget}
	if len(r.Overrides) > 0 {
		rec.Overrides = json.RawMessage(r.Overrides)
	}
	return mustJSON(rec)
}

func decodeRun(s string) (model.Run, error) {
	var rec runRecord
	if err := json.Unmarshal([]byte(s), &rec); err != nil {
		return model.Run{}, fmt.Errorf("decode run record: %w", err)
	}
	rec.Run.Overrides = []byte(rec.Overrides)
	rec.Run.FanOut = rec.FanOut
	rec.Run.Equations = rec.Equations
	rec.Run.MemoryReserved, rec.Run.MemoryBudget = rec.MemoryReserved, rec.MemoryBudget
	return rec.Run, nil
}

// startScript takes the lock and records the run. KEYS: job hash, lock,
// run list, the new run's key. ARGV: run id, record, the run key prefix,
// the history length to keep. The old runs it deletes are named from the
// prefix, not declared: on a Redis Cluster they share the declared keys'
// slot through the workspace hash tag (see applyScript).
var startScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return {'nojob'} end
if not redis.call('SET', KEYS[2], ARGV[1], 'NX') then return {'locked', redis.call('GET', KEYS[2])} end
redis.call('SET', KEYS[4], ARGV[2])
redis.call('LPUSH', KEYS[3], ARGV[1])
local keep = tonumber(ARGV[4])
local old = redis.call('LRANGE', KEYS[3], keep, -1)
for _, id in ipairs(old) do redis.call('DEL', ARGV[3] .. id) end
redis.call('LTRIM', KEYS[3], 0, keep - 1)
return {'ok'}`)

// Start implements store.Runs.
func (s *Runs) Start(ctx context.Context, ws string, run model.Run) error {
	const op = "start analysis"
	k, err := s.jobs.keys(ws)
	if err != nil {
		return wrap(op, err)
	}
	// The new run is one of the runs kept.
	keep := model.MaxRunHistory
	res, err := startScript.Run(ctx, s.jobs.rdb, []string{k.job(), k.lock(), k.runs(), k.run(run.RunID)},
		run.RunID, encodeRun(run), k.run(""), keep).StringSlice()
	if err != nil {
		return wrap(op, err)
	}
	switch res[0] {
	case "ok":
		return nil
	case "nojob":
		return model.ErrNoJobOpen
	case "locked":
		return model.E(model.KindAnalysisInProgress,
			"another analysis (run %s) is in progress: wait for it to finish or cancel it first", res[1])
	}
	return wrap(op, fmt.Errorf("unexpected script reply %q", res))
}

// Run implements store.Runs.
func (s *Runs) Run(ctx context.Context, ws, id string) (model.Run, error) {
	const op = "read run"
	k, err := s.jobs.keys(ws)
	if err != nil {
		return model.Run{}, wrap(op, err)
	}
	_, r, err := readRun(ctx, s.jobs.rdb, k, id)
	return r, wrap(op, err)
}

// readRun reads the record of run id through r (a client or a WATCH
// transaction), as stored (for a script to check that it is unchanged)
// and decoded. A run that is not in the history is KindNotFound.
func readRun(ctx context.Context, r redis.Cmdable, k keys, id string) (string, model.Run, error) {
	raw, err := r.Get(ctx, k.run(id)).Result()
	if errors.Is(err, redis.Nil) {
		return "", model.Run{}, model.NotFound("analysis run", id)
	}
	if err != nil {
		return "", model.Run{}, err
	}
	run, err := decodeRun(raw)
	return raw, run, err
}

// List implements store.Runs.
func (s *Runs) List(ctx context.Context, ws string) ([]model.Run, error) {
	const op = "list runs"
	k, err := s.jobs.keys(ws)
	if err != nil {
		return nil, wrap(op, err)
	}
	ids, err := s.jobs.rdb.LRange(ctx, k.runs(), 0, -1).Result()
	if err != nil || len(ids) == 0 {
		return []model.Run{}, wrap(op, err)
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = k.run(id)
	}
	vals, err := s.jobs.rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return nil, wrap(op, err)
	}
	out := make([]model.Run, 0, len(vals))
	for _, v := range vals {
		str, ok := v.(string)
		if !ok {
			continue // trimmed meanwhile
		}
		r, err := decodeRun(str)
		if err != nil {
			return nil, wrap(op, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// Holder implements store.Runs.
func (s *Runs) Holder(ctx context.Context, ws string) (string, error) {
	k, err := s.jobs.keys(ws)
	if err != nil {
		return "", wrap("read analysis lock", err)
	}
	id, err := s.jobs.rdb.Get(ctx, k.lock()).Result()
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	return id, wrap("read analysis lock", err)
}
