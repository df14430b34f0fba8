package redisstore

import (
	"context"
	"errors"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// The two ways a batch is applied: WATCH/MULTI for a large batch planned
// at a known revision (applyWatched), the script for every other
// (applyScript). Both check every precondition and cap before they write.

// fastPathMin is the batch size from which a batch planned at a known
// revision is applied with WATCH/MULTI instead of the script: for bulk
// writes the script's per-op interpretation costs more than the writes.
const fastPathMin = 256

// writesOnly reports whether a batch only creates, updates or puts rows.
func writesOnly(b *store.Batch) bool {
	for _, o := range b.Ops {
		if o.Kind != store.OpCreate && o.Kind != store.OpUpdate && o.Kind != store.OpPut {
			return false
		}
	}
	return true
}

// applyWatched applies a write-only batch planned at b.ExpectRev under
// WATCH of the job, the revision and the lock: it checks the preconditions
// with one pipelined read, then writes everything in one MULTI/EXEC. Any
// change to the watched keys in between makes EXEC fail, which is reported
// as stale so the caller plans again; so the batch lands whole or not at
// all, exactly as with the script.
func (m *Model) applyWatched(ctx context.Context, k keys, b *store.Batch, writeID string) (int64, error) {
	const chunk = 5000
	var rev int64
	err := m.rdb.Watch(ctx, func(tx *redis.Tx) error {
		pipe := tx.Pipeline()
		open := pipe.Exists(ctx, k.job())
		locked := pipe.Exists(ctx, k.lock())
		holder := pipe.Get(ctx, k.lease())
		receipt := pipe.Get(ctx, k.receipt(writeID))
		cur := pipe.Get(ctx, k.rev())
		results := pipe.SMembers(ctx, k.resultKeys())
		type probe struct {
			coll string
			keys []string
			cmd  *redis.SliceCmd
		}
		var probes []probe
		byColl := map[string][]string{}
		var order []string
		for _, o := range b.Ops {
			if _, ok := byColl[o.Coll]; !ok {
				order = append(order, o.Coll)
			}
			byColl[o.Coll] = append(byColl[o.Coll], o.Key)
		}
		counts := map[string]*redis.IntCmd{}
		for _, c := range order {
			ks := byColl[c]
			_, capped := b.Caps[c]
			if capped {
				counts[c] = pipe.ZCard(ctx, k.collIDs(c))
			}
			if b.Verified {
				// The revision check below covers the rows; only a put
				// into a capped collection must be read, to count it.
				ks = nil
				if capped {
					ks = putKeys(b, c)
				}
			}
			for i := 0; i < len(ks); i += chunk {
				part := ks[i:min(i+chunk, len(ks))]
				probes = append(probes, probe{c, part, pipe.HMGet(ctx, k.coll(c), part...)})
			}
		}
		// The sub-load index of each collection, for the prefixes written:
		// read unless the caller read them at this revision (Lasts).
		type lastProbe struct {
			coll     string
			prefixes []string
			want     []string
			cmd      *redis.SliceCmd
			known    []string // the raise the caller's reads already decide
		}
		var lasts []lastProbe
		for _, c := range order {
			lp := lastParts(byColl[c])
			if len(lp) == 0 {
				continue
			}
			probe := lastProbe{coll: c}
			read := b.Lasts[c]
			for pfx, l := range lp {
				if cur, ok := read[pfx]; ok && b.Verified {
					if n, err := strconv.ParseInt(l, 10, 64); err != nil || n > cur {
						probe.known = append(probe.known, pfx, l)
					}
					continue
				}
				probe.prefixes = append(probe.prefixes, pfx)
				probe.want = append(probe.want, l)
			}
			if len(probe.prefixes) > 0 {
				probe.cmd = pipe.HMGet(ctx, k.collLast(c), probe.prefixes...)
			}
			lasts = append(lasts, probe)
		}
		if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		if open.Val() == 0 {
			return model.ErrNoJobOpen
		}
		if locked.Val() == 1 {
			return errAnalysing
		}
		switch r := receipt.Val(); {
		case r == "void":
			return errVoid
		case r != "":
			// Committed by an earlier try of this batch.
			n, err := strconv.ParseInt(r, 10, 64)
			rev = n
			if err == nil {
				err = errCommitted
			}
			return err
		}
		if h := holder.Val(); h != "" && h != b.Lease {
			return errLeased
		}
		if n, _ := cur.Int64(); n != b.ExpectRev {
			return store.ErrStale
		}
		exists := map[string]bool{}
		current := map[string]string{}
		for _, p := range probes {
			for i, v := range p.cmd.Val() {
				if s, ok := v.(string); ok {
					exists[p.coll+"\x00"+p.keys[i]] = true
					current[p.coll+"\x00"+p.keys[i]] = s
				}
			}
		}
		gained := map[string]int64{}
		for i, o := range b.Ops {
			if b.Verified && len(b.Caps) == 0 {
				break // nothing to check or count
			}
			id := o.Coll + "\x00" + o.Key
			e := exists[id]
			if !e && o.Kind != store.OpUpdate {
				gained[o.Coll]++
			}
			if b.Verified {
				exists[id] = true
				continue // checked by the caller at this revision
			}
			if o.Expect != nil && current[id] != string(o.Expect) {
				return store.ErrStale
			}
			if o.Kind == store.OpCreate && e {
				return &store.ConflictError{Index: i, Op: o, Exists: true}
			}
			if o.Kind == store.OpUpdate && !e {
				return &store.ConflictError{Index: i, Op: o, Exists: false}
			}
			exists[id] = true
		}
		for c, n := range counts {
			if would := n.Val() + gained[c]; gained[c] > 0 && would > b.Caps[c] {
				return &store.CapError{Coll: c, Max: b.Caps[c], Would: would}
			}
		}
		err := execTx(ctx, tx, func(p redis.Pipeliner) error {
			for i := 0; i < len(b.Ops); {
				j := i
				for j < len(b.Ops) && b.Ops[j].Coll == b.Ops[i].Coll && j-i < chunk {
					j++
				}
				hv := make([]any, 0, 2*(j-i))
				zs := make([]redis.Z, 0, j-i)
				for _, o := range b.Ops[i:j] {
					hv = append(hv, o.Key, o.Value)
					zs = append(zs, redis.Z{Member: o.Key})
				}
				p.HSet(ctx, k.coll(b.Ops[i].Coll), hv...)
				p.ZAdd(ctx, k.collIDs(b.Ops[i].Coll), zs...)
				i = j
			}
			for _, lp := range lasts {
				args := make([]any, 0, len(lp.known)+2*len(lp.prefixes))
				for _, s := range lp.known {
					args = append(args, s)
				}
				if lp.cmd != nil {
					for i, cur := range lp.cmd.Val() {
						if s, _ := cur.(string); s < lp.want[i] {
							args = append(args, lp.prefixes[i], lp.want[i])
						}
					}
				}
				if len(args) > 0 {
					p.HSet(ctx, k.collLast(lp.coll), args...)
				}
			}
			clearResults(ctx, p, k, results.Val())
			p.HSet(ctx, k.job(), fModified, "1")
			p.Incr(ctx, k.rev())
			p.Set(ctx, k.receipt(writeID), b.ExpectRev+1, receiptTTL)
			return nil
		})
		rev = b.ExpectRev + 1
		return err
	}, k.job(), k.rev(), k.lock(), k.resultKeys(), k.lease(), k.receipt(writeID))
	if errors.Is(err, redis.TxFailedErr) {
		return 0, store.ErrStale
	}
	if errors.Is(err, errCommitted) {
		return rev, nil
	}
	return rev, err
}

// putKeys lists the keys b puts into coll.
func putKeys(b *store.Batch, coll string) []string {
	var out []string
	for _, o := range b.Ops {
		if o.Kind == store.OpPut && o.Coll == coll {
			out = append(out, o.Key)
		}
	}
	return out
}

// errCommitted stops a WATCH whose batch an earlier try already committed.
var errCommitted = errors.New("committed by an earlier try")

// applyScript checks every precondition of a batch against the rows as the
// batch itself changes them, and only then applies the changes, so a
// failed check leaves Redis untouched. It runs as one atomic script.
// KEYS: job hash, rev counter, analysis lock, results index, write lease,
// the batch's receipt. ARGV: collection key prefix, op count, expected
// revision (0: any), the caller's lease token, the receipt's TTL in
// seconds, then per op: kind, collection, key, value, expected old value
// ("-" for none, else "=" and the value), then the number of caps and per
// cap: collection, most rows.
//
// The script also touches keys it does not declare: the collections it
// builds from the prefix, and the results keys listed in KEYS[4]. On a
// Redis Cluster that relies on the workspace hash tag: every one of them
// is in the slot of the declared keys, which the node serves (Redis 7.0
// refuses only an undeclared key of a slot another node owns; checked on
// a real cluster by the store tests under GUSSET_TEST_REDIS=cluster). While that slot is
// being migrated to another node, an undeclared key already moved would
// read as missing; reshard while the service is stopped.
var applyScript = redis.NewScript(`
-- A receipt first: the client resends a script whose reply it lost, and the
-- copy must answer what the first did, whatever happened since.
local receipt = redis.call('GET', KEYS[6])
if receipt == 'void' then return {'void'} end
if receipt then return {'ok', tonumber(receipt)} end
if redis.call('EXISTS', KEYS[1]) == 0 then return {'nojob'} end
if redis.call('EXISTS', KEYS[3]) == 1 then return {'locked'} end
local holder = redis.call('GET', KEYS[5])
if holder and holder ~= ARGV[4] then return {'leased'} end
local prefix = ARGV[1]
local n = tonumber(ARGV[2])
local expect = tonumber(ARGV[3])
if expect ~= 0 and tonumber(redis.call('GET', KEYS[2]) or '0') ~= expect then return {'stale'} end
local CHUNK = 1000
-- Which keys exist now: one HMGET per collection and chunk, far cheaper
-- than one HEXISTS per op.
local wanted, order = {}, {}
for j = 1, n do
  local base = 6 + (j - 1) * 5
  local h = prefix .. ARGV[base + 1]
  if wanted[h] == nil then wanted[h] = {}; order[#order + 1] = h end
  wanted[h][ARGV[base + 2]] = true
end
local state, current = {}, {}
for _, h in ipairs(order) do
  local keys = {}
  for k in pairs(wanted[h]) do keys[#keys + 1] = k end
  local st, cur = {}, {}
  for i = 1, #keys, CHUNK do
    local part = {unpack(keys, i, math.min(i + CHUNK - 1, #keys))}
    local vals = redis.call('HMGET', h, unpack(part))
    for x = 1, #part do st[part[x]] = (vals[x] ~= false); cur[part[x]] = vals[x] end
  end
  state[h] = st
  current[h] = cur
end
-- Check every op against the rows as the batch itself changes them, and
-- count how many rows each collection gains.
local gained = {}
for j = 1, n do
  local base = 6 + (j - 1) * 5
  local kind, h, k = ARGV[base], prefix .. ARGV[base + 1], ARGV[base + 2]
  local e = state[h][k]
  local expect = ARGV[base + 4]
  if expect ~= '-' and current[h][k] ~= string.sub(expect, 2) then return {'stale'} end
  if (kind == 'C' or kind == 'F') and e then return {'exists', j} end
  if (kind == 'U' or kind == 'D' or kind == 'R') and not e then return {'missing', j} end
  if (kind == 'C' or kind == 'U' or kind == 'P') and not e then
    state[h][k] = true
    gained[h] = (gained[h] or 0) + 1
  end
  if (kind == 'D' or kind == 'd') and e then
    state[h][k] = false
    gained[h] = (gained[h] or 0) - 1
  end
end
-- The caps (collection, most rows) follow the ops; only a collection the
-- batch grows is counted.
local capAt = 6 + n * 5
for c = 1, tonumber(ARGV[capAt] or '0') do
  local coll, max = ARGV[capAt + 2 * c - 1], tonumber(ARGV[capAt + 2 * c])
  local g = gained[prefix .. coll] or 0
  if g > 0 then
    local would = redis.call('ZCARD', prefix .. coll .. ':ids') + g
    if would > max then return {'cap', coll, max, would} end
  end
end
-- Apply in runs of the same collection and kind, with variadic commands.
local runH, runWrite, hargs, zargs = nil, nil, {}, {}
local function flush()
  if runH == nil then return end
  for i = 1, #zargs, CHUNK do
    local zpart = {unpack(zargs, i, math.min(i + CHUNK - 1, #zargs))}
    if runWrite then
      local hpart = {unpack(hargs, 2 * i - 1, math.min(2 * (i + CHUNK - 1), #hargs))}
      redis.call('HSET', runH, unpack(hpart))
      local zs = {}
      for x = 1, #zpart do zs[2 * x - 1] = 0; zs[2 * x] = zpart[x] end
      redis.call('ZADD', runH .. ':ids', unpack(zs))
    else
      redis.call('HDEL', runH, unpack(zpart))
      redis.call('ZREM', runH .. ':ids', unpack(zpart))
    end
  end
  runH, runWrite, hargs, zargs = nil, nil, {}, {}
end
local lastIdx = {}
for j = 1, n do
  local base = 6 + (j - 1) * 5
  local kind, h, k = ARGV[base], prefix .. ARGV[base + 1], ARGV[base + 2]
  local write = (kind == 'C' or kind == 'U' or kind == 'P')
  local del = (kind == 'D' or kind == 'd')
  if write or del then
    if runH ~= h or runWrite ~= write then flush(); runH, runWrite = h, write end
    zargs[#zargs + 1] = k
    if write then hargs[#hargs + 1] = k; hargs[#hargs + 1] = ARGV[base + 3] end
  end
  if write then
    local pfx, last = string.match(k, '^(.*):([^:]*)$')
    if pfx then
      local id = h .. '\0' .. pfx
      local cur = lastIdx[id]
      if cur == nil or cur[3] < last then lastIdx[id] = {h, pfx, last} end
    end
  end
end
flush()
-- Keep the greatest last part per prefix (zero-padded, so strings compare
-- as numbers) for sub-load numbering.
for _, v in pairs(lastIdx) do
  local cur = redis.call('HGET', v[1] .. ':last', v[2])
  if (not cur) or cur < v[3] then redis.call('HSET', v[1] .. ':last', v[2], v[3]) end
end
-- Results belong to the model they came from: a change deletes them all.
local res = redis.call('SMEMBERS', KEYS[4])
for i = 1, #res, CHUNK do redis.call('DEL', unpack(res, i, math.min(i + CHUNK - 1, #res))) end
redis.call('DEL', KEYS[4])
redis.call('HSET', KEYS[1], 'modified', '1')
local rev = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[6], rev, 'EX', ARGV[5])
return {'ok', rev}`)
