package redisstore

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// freeIDsScript finds the smallest ids no row holds, in one atomic read.
// KEYS: job hash, the collection's sorted set of keys. ARGV: lo, hi, n,
// lo as a key. It answers {"nojob"} or {"ok", id, ...}.
//
// The keys are zero-padded ids in one sorted set, so the key of rank r
// is the (r+1)-th smallest id: from a rank r holding id v, the ranks r..q
// hold the run v..v+(q-r) exactly when the key of rank q is v+(q-r). The
// script walks from the rank of lo: where the next key is above the
// current id the ids between are free; where it is equal, the end of that
// run of taken ids is found by checking the last key first (a collection
// numbered 1..n without gaps costs two reads), then by galloping and
// bisecting over ranks, each read a ZRANGE of one rank (O(log n)). So the
// cost is about (free ids returned + runs crossed × log of their length)
// reads, never a scan of the collection.
var freeIDsScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return {'nojob'} end
local ids = KEYS[2]
local lo, hi, want = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local card = redis.call('ZCARD', ids)
local function at(r) return tonumber(redis.call('ZRANGE', ids, r, r)[1]) end
local r = redis.call('ZLEXCOUNT', ids, '-', '(' .. ARGV[4])
local cur, out, got = lo, {'ok'}, 0
while got < want and cur <= hi do
  if r >= card then
    for id = cur, math.min(hi, cur + want - got - 1) do out[#out + 1] = id end
    break
  end
  local v = at(r)
  if v > cur then
    for id = cur, math.min(v - 1, hi, cur + want - got - 1) do out[#out + 1] = id; got = got + 1 end
    cur = v
    if got >= want or cur > hi then break end
  end
  -- Ranks base.. hold cur, cur+1, ...: find the last rank of that run.
  local base, good, bad = r, r, card
  if at(card - 1) == cur + (card - 1 - base) then
    good = card - 1
  else
    local step = 1
    while good + step < card do
      local q = good + step
      if at(q) == cur + (q - base) then good = q; step = step * 2 else bad = q; break end
    end
    while bad - good > 1 do
      local mid = math.floor((good + bad) / 2)
      if at(mid) == cur + (mid - base) then good = mid else bad = mid end
    end
  end
  cur = cur + (good - base) + 1
  r = good + 1
end
return out`)

// FreeIDs implements store.Model.
func (m *Model) FreeIDs(ctx context.Context, ws, coll string, lo, hi int64, n int) ([]int64, error) {
	const op = "find free ids"
	k, err := m.keys(ws)
	if err != nil {
		return nil, wrap(op, err)
	}
	if n <= 0 || lo > hi {
		return []int64{}, nil
	}
	res, err := freeIDsScript.Run(ctx, m.rdb, []string{k.job(), k.collIDs(coll)}, lo, hi, n, store.Key(lo)).Slice()
	if err != nil {
		return nil, wrap(op, err)
	}
	if s, _ := res[0].(string); s == "nojob" {
		return nil, model.ErrNoJobOpen
	}
	out := make([]int64, 0, len(res)-1)
	for _, v := range res[1:] {
		id, ok := v.(int64)
		if !ok {
			return nil, wrap(op, fmt.Errorf("unexpected script reply %v", v))
		}
		out = append(out, id)
	}
	return out, nil
}
