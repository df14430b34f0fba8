package redisstore

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

var _ store.Jobs = (*Jobs)(nil)

// Jobs is the Redis implementation of store.Jobs.
type Jobs struct {
	rdb         redis.UniversalClient
	collections []string
}

// NewJobs returns a job store on rdb. collections names every model
// collection, so that clear, close, counts and snapshots cover them all.
func NewJobs(rdb redis.UniversalClient, collections []string) *Jobs {
	return &Jobs{rdb: rdb, collections: append([]string(nil), collections...)}
}

// Hash fields of ws:{w}:job.
const (
	fState = "state"
	// fModified is kept apart from the state JSON so that a model mutation
	// (a Lua script) can set it without decoding JSON.
	fModified = "modified"
	fHeadings = "headings"
	fSettings = "settings"
	fUnits    = "units"
	// fAnalysis holds the analysis settings; jobs written before it
	// existed have none and read as the defaults.
	fAnalysis = "analysis"
)

// slotRecord is the JSON form of the state field.
type slotRecord struct {
	model.State
	Session string `json:"session"`
}

// maxTxRetries bounds optimistic retries when writers race on a WATCHed key.
const maxTxRetries = 50

func (s *Jobs) keys(ws string) (keys, error) {
	if !validWorkspace(ws) {
		return keys{}, model.E(model.KindValidation, "invalid workspace name %q", ws)
	}
	return keysFor(ws), nil
}

// watch runs fn under WATCH of the given keys and retries when another
// client changed them before EXEC.
func (s *Jobs) watch(ctx context.Context, fn func(tx *redis.Tx) error, watched ...string) error {
	return retry(ctx, func() error { return s.rdb.Watch(ctx, fn, watched...) })
}

// retry calls try until it fails with anything but redis.TxFailedErr (the
// sign that another client changed what try read), at most maxTxRetries
// times.
func retry(ctx context.Context, try func() error) error {
	for i := 0; i < maxTxRetries; i++ {
		err := try()
		if !errors.Is(err, redis.TxFailedErr) {
			return err
		}
		// Randomised, growing back-off spreads out writers that keep
		// colliding, so each gets its turn.
		backoff := time.Duration(rand.Int64N(int64(time.Millisecond) << min(i, 6)))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
	}
	return model.E(model.KindUnavailable, "the job is being changed by too many requests at once; retry")
}

// readSlot reads the slot through any reader (a client or a WATCH tx).
func readSlot(ctx context.Context, r redis.Cmdable, k keys) (Slot, error) {
	sl, _, err := readSlotRaw(ctx, r, k)
	return sl, err
}

// readSlotRaw is readSlot that also returns the state field as stored
// ("" when no job is open), for a script to check that it is unchanged.
func readSlotRaw(ctx context.Context, r redis.Cmdable, k keys) (Slot, string, error) {
	vals, err := r.HMGet(ctx, k.job(), fState, fModified).Result()
	if err != nil {
		return Slot{}, "", err
	}
	raw, _ := vals[0].(string)
	out, err := decodeSlot(vals[0], vals[1])
	if err != nil {
		return out, raw, err
	}
	rev, err := r.Get(ctx, k.rev()).Int64()
	if err != nil && !errors.Is(err, redis.Nil) {
		return out, raw, err
	}
	out.Rev = rev
	n, err := r.Exists(ctx, k.lock()).Result()
	if err != nil {
		return out, raw, err
	}
	out.Analysing = n > 0
	return out, raw, nil
}

// decodeSlot decodes the state and modified fields of a job hash (as
// HMGET or a script returns them: a string, or nil/false when absent)
// into a slot's state and session.
func decodeSlot(state, modified any) (Slot, error) {
	var out Slot
	raw, ok := state.(string)
	if !ok {
		out.State = model.ClosedState()
		return out, nil
	}
	var rec slotRecord
	if err := json.Unmarshal([]byte(raw), &rec); err != nil {
		return out, fmt.Errorf("decode job state: %w", err)
	}
	out.State, out.Session = rec.State, rec.Session
	out.State.IsModified = modified == "1"
	return out, nil
}

// Slot is store.Slot; the alias keeps signatures short.
type Slot = store.Slot

// stateFields are the hash fields that record a slot's state.
func stateFields(st model.State, session string) []any {
	b, _ := json.Marshal(slotRecord{State: st, Session: session})
	mod := "0"
	if st.IsModified {
		mod = "1"
	}
	return []any{fState, string(b), fModified, mod}
}

func newSession() string {
	var b [12]byte
	_, _ = crand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("redisstore: encode %T: %v", v, err))
	}
	return string(b)
}

// Open implements store.Jobs.
func (s *Jobs) Open(ctx context.Context, ws string, snap store.Snapshot, st model.State) (Slot, error) {
	const op = "open job"
	k, err := s.keys(ws)
	if err != nil {
		return Slot{}, wrap(op, err)
	}
	if err := s.checkSnapshot(snap); err != nil {
		return Slot{}, wrap(op, err)
	}
	session := newSession()
	var out Slot
	err = s.watch(ctx, func(tx *redis.Tx) error {
		cur, err := readSlot(ctx, tx, k)
		if err != nil {
			return err
		}
		if cur.State.IsOpen {
			return model.ErrJobAlreadyOpen
		}
		leftovers, err := tx.SMembers(ctx, k.resultKeys()).Result()
		if err != nil {
			return err
		}
		st.IsOpen = true
		err = execTx(ctx, tx, func(p redis.Pipeliner) error {
			// Leftovers of a crashed close must not leak into the new job.
			p.Del(ctx, append(k.modelKeys(s.collections), k.errors())...)
			clearResults(ctx, p, k, leftovers)
			p.HSet(ctx, k.job(), append(stateFields(st, session),
				fHeadings, mustJSON(snap.Job.Headings), fSettings, mustJSON(snap.Job.Settings),
				fUnits, mustJSON(snap.Job.Units), fAnalysis, mustJSON(snap.Job.Analysis))...)
			writeCollections(ctx, p, k, snap.Collections)
			writeResults(ctx, p, k, snap.Results)
			p.Incr(ctx, k.rev())
			return nil
		})
		if err != nil {
			return err
		}
		out = Slot{State: st, Session: session, Rev: cur.Rev + 1, Analysing: cur.Analysing}
		return nil
	}, k.job())
	return out, wrap(op, err)
}

// checkSnapshot refuses content the store could not keep: a job file is
// the client's input, so an unknown collection, a malformed key or a row
// that is not a JSON object is a validation error, found before anything
// is written.
func (s *Jobs) checkSnapshot(snap store.Snapshot) error {
	known := map[string]bool{}
	for _, c := range s.collections {
		known[c] = true
	}
	for name, rows := range snap.Collections {
		if !known[name] {
			return model.E(model.KindValidation, "the job file holds an unknown collection %q", name)
		}
		width := 0 // key parts, the same for every row of a collection
		for _, r := range rows {
			parts, err := store.ParseKey(r.Key)
			if err != nil || store.Key(parts...) != r.Key || width != 0 && len(parts) != width {
				return model.E(model.KindValidation, "the job file's collection %s holds a malformed key %q", name, r.Key)
			}
			width = len(parts)
			if v := bytes.TrimSpace(r.Value); len(v) == 0 || v[0] != '{' {
				return model.E(model.KindValidation, "the job file's collection %s holds a row %s that is not a JSON object", name, r.Key)
			}
		}
	}
	return nil
}

// writeCollections queues the rows of every collection; Redis limits the
// arguments of one command, so large collections go in chunks.
func writeCollections(ctx context.Context, p redis.Pipeliner, k keys, colls map[string][]store.Row) {
	const chunk = 5000
	for name, rows := range colls {
		for i := 0; i < len(rows); i += chunk {
			part := rows[i:min(i+chunk, len(rows))]
			hv := make([]any, 0, 2*len(part))
			zs := make([]redis.Z, 0, len(part))
			for _, r := range part {
				hv = append(hv, r.Key, []byte(r.Value))
				zs = append(zs, redis.Z{Score: r.Score, Member: r.Key})
			}
			p.HSet(ctx, k.coll(name), hv...)
			p.ZAdd(ctx, k.collIDs(name), zs...)
		}
		keys := make([]string, len(rows))
		for i, r := range rows {
			keys[i] = r.Key
		}
		if last := lastParts(keys); len(last) > 0 {
			args := make([]any, 0, 2*len(last))
			for pfx, l := range last {
				args = append(args, pfx, l)
			}
			p.HSet(ctx, k.collLast(name), args...)
		}
	}
}

// Slot implements store.Jobs.
func (s *Jobs) Slot(ctx context.Context, ws string) (Slot, error) {
	k, err := s.keys(ws)
	if err != nil {
		return Slot{}, wrap("read job state", err)
	}
	sl, err := readSlot(ctx, s.rdb, k)
	return sl, wrap("read job state", err)
}

func readJob(ctx context.Context, r redis.Cmdable, k keys) (model.Job, error) {
	// A job stored before analysis settings existed has no field for
	// them: it has none set, and the analyses read their defaults.
	job := model.Job{Analysis: model.AnalysisSettings{}}
	vals, err := r.HMGet(ctx, k.job(), fHeadings, fSettings, fUnits, fAnalysis).Result()
	if err != nil {
		return job, err
	}
	dst := []any{&job.Headings, &job.Settings, &job.Units, &job.Analysis}
	for i, v := range vals {
		str, ok := v.(string)
		if !ok && i == 3 {
			continue // no analysis field: none set
		}
		if !ok {
			return job, model.ErrNoJobOpen
		}
		if err := json.Unmarshal([]byte(str), dst[i]); err != nil {
			return job, fmt.Errorf("decode job field: %w", err)
		}
	}
	return job, nil
}

// Job implements store.Jobs.
func (s *Jobs) Job(ctx context.Context, ws string) (model.Job, Slot, error) {
	const op = "read job"
	k, err := s.keys(ws)
	if err != nil {
		return model.Job{}, Slot{}, wrap(op, err)
	}
	// Read under WATCH of the job hash: the slot and the record come from
	// one opening of the job even if another request closes it.
	var job model.Job
	var sl Slot
	err = s.watch(ctx, func(tx *redis.Tx) error {
		var err error
		if sl, err = readSlot(ctx, tx, k); err != nil {
			return err
		}
		if !sl.State.IsOpen {
			return model.ErrNoJobOpen
		}
		job, err = readJob(ctx, tx, k)
		return err
	}, k.job())
	return job, sl, wrap(op, err)
}

// Update implements store.Jobs.
func (s *Jobs) Update(ctx context.Context, ws string, fn func(*model.Job) error) (model.Job, Slot, error) {
	const op = "update job"
	k, err := s.keys(ws)
	if err != nil {
		return model.Job{}, Slot{}, wrap(op, err)
	}
	var job model.Job
	var sl Slot
	err = s.watch(ctx, func(tx *redis.Tx) error {
		var err error
		if sl, err = s.mutable(ctx, tx, k); err != nil {
			return err
		}
		if job, err = readJob(ctx, tx, k); err != nil {
			return err
		}
		before := job.Settings
		if err := fn(&job); err != nil {
			return err
		}
		// The job settings (the vertical axis: gravity, member axes) change
		// the model; headings, units and analysis settings do not.
		var results []string
		if job.Settings != before {
			if results, err = tx.SMembers(ctx, k.resultKeys()).Result(); err != nil {
				return err
			}
		}
		sl.State.IsModified = true
		err = execTx(ctx, tx, func(p redis.Pipeliner) error {
			if len(results) > 0 {
				clearResults(ctx, p, k, results)
			}
			p.HSet(ctx, k.job(), append(stateFields(sl.State, sl.Session),
				fHeadings, mustJSON(job.Headings), fSettings, mustJSON(job.Settings), fUnits, mustJSON(job.Units),
				fAnalysis, mustJSON(job.Analysis))...)
			p.Incr(ctx, k.rev())
			return nil
		})
		sl.Rev++
		return err
	}, k.job(), k.rev(), k.lock(), k.resultKeys())
	return job, sl, wrap(op, err)
}

// mutable reads the slot and refuses when no job is open or an analysis
// holds the lock. The caller must WATCH the job, rev and lock keys.
func (s *Jobs) mutable(ctx context.Context, tx *redis.Tx, k keys) (Slot, error) {
	sl, err := readSlot(ctx, tx, k)
	if err != nil {
		return sl, err
	}
	if !sl.State.IsOpen {
		return sl, model.ErrNoJobOpen
	}
	if sl.Analysing {
		return sl, model.E(model.KindAnalysisInProgress,
			"the model is read-only while an analysis is in progress; wait for it or cancel it")
	}
	return sl, nil
}

// Snapshot implements store.Jobs.
func (s *Jobs) Snapshot(ctx context.Context, ws string) (store.Snapshot, Slot, error) {
	const op = "read job content"
	k, err := s.keys(ws)
	if err != nil {
		return store.Snapshot{}, Slot{}, wrap(op, err)
	}
	var snap store.Snapshot
	var sl Slot
	err = s.watch(ctx, func(tx *redis.Tx) error {
		var err error
		if sl, err = readSlot(ctx, tx, k); err != nil {
			return err
		}
		if !sl.State.IsOpen {
			return model.ErrNoJobOpen
		}
		if snap.Job, err = readJob(ctx, tx, k); err != nil {
			return err
		}
		snap.Collections = make(map[string][]store.Row, len(s.collections))
		for _, c := range s.collections {
			rows, err := readCollection(ctx, tx, k, c)
			if err != nil {
				return err
			}
			if len(rows) > 0 {
				snap.Collections[c] = rows
			}
		}
		if snap.Results, err = readResults(ctx, tx, k); err != nil {
			return err
		}
		// An empty transaction makes EXEC fail when any watched key moved,
		// so the reads above are known to be one consistent revision.
		return unchanged(ctx, tx)
	}, k.job(), k.rev(), k.resultKeys())
	return snap, sl, wrap(op, err)
}

func readCollection(ctx context.Context, r redis.Cmdable, k keys, name string) ([]store.Row, error) {
	zs, err := r.ZRangeWithScores(ctx, k.collIDs(name), 0, -1).Result()
	if err != nil || len(zs) == 0 {
		return nil, err
	}
	vals, err := r.HGetAll(ctx, k.coll(name)).Result()
	if err != nil {
		return nil, err
	}
	rows := make([]store.Row, 0, len(zs))
	for _, z := range zs {
		key := z.Member.(string)
		v, ok := vals[key]
		if !ok {
			return nil, fmt.Errorf("collection %s: key %s is indexed but has no record", name, key)
		}
		rows = append(rows, store.Row{Key: key, Score: z.Score, Value: json.RawMessage(v)})
	}
	return rows, nil
}

// Counts implements store.Jobs.
func (s *Jobs) Counts(ctx context.Context, ws string) (map[string]int64, error) {
	const op = "count model rows"
	k, err := s.keys(ws)
	if err != nil {
		return nil, wrap(op, err)
	}
	cmds := make([]*redis.IntCmd, len(s.collections))
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, c := range s.collections {
			cmds[i] = p.ZCard(ctx, k.collIDs(c))
		}
		return nil
	})
	if err != nil {
		return nil, wrap(op, err)
	}
	out := make(map[string]int64, len(s.collections))
	for i, c := range s.collections {
		out[c] = cmds[i].Val()
	}
	return out, nil
}

// AppendError implements store.Jobs.
func (s *Jobs) AppendError(ctx context.Context, ws string, rec store.ErrorRecord) error {
	const op = "log job error"
	k, err := s.keys(ws)
	if err != nil {
		return wrap(op, err)
	}
	// The script keeps the log from outliving its job: it appends only while
	// the job hash exists.
	err = appendErrorScript.Run(ctx, s.rdb, []string{k.job(), k.errors()},
		mustJSON(rec), strconv.Itoa(store.MaxErrorRecords)).Err()
	if errors.Is(err, redis.Nil) {
		err = nil
	}
	return wrap(op, err)
}

var appendErrorScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[2]), -1)
return 1`)

// Errors implements store.Jobs.
func (s *Jobs) Errors(ctx context.Context, ws string) ([]store.ErrorRecord, error) {
	const op = "read job errors"
	k, err := s.keys(ws)
	if err != nil {
		return nil, wrap(op, err)
	}
	if err := s.requireOpen(ctx, k); err != nil {
		return nil, wrap(op, err)
	}
	raw, err := s.rdb.LRange(ctx, k.errors(), 0, -1).Result()
	if err != nil {
		return nil, wrap(op, err)
	}
	out := make([]store.ErrorRecord, 0, len(raw))
	for _, r := range raw {
		var rec store.ErrorRecord
		if err := json.Unmarshal([]byte(r), &rec); err != nil {
			return nil, wrap(op, err)
		}
		out = append(out, rec)
	}
	return out, nil
}

// ClearErrors implements store.Jobs.
func (s *Jobs) ClearErrors(ctx context.Context, ws string) error {
	const op = "clear job errors"
	k, err := s.keys(ws)
	if err != nil {
		return wrap(op, err)
	}
	if err := s.requireOpen(ctx, k); err != nil {
		return wrap(op, err)
	}
	return wrap(op, s.rdb.Del(ctx, k.errors()).Err())
}

func (s *Jobs) requireOpen(ctx context.Context, k keys) error {
	n, err := s.rdb.Exists(ctx, k.job()).Result()
	if err != nil {
		return err
	}
	if n == 0 {
		return model.ErrNoJobOpen
	}
	return nil
}

// Ping implements store.Jobs.
func (s *Jobs) Ping(ctx context.Context) error {
	return wrap("ping redis", s.rdb.Ping(ctx).Err())
}
