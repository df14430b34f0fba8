package redisstore_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// freeByCount is the definition FreeIDs must meet, by counting: the n
// smallest ids in lo..hi that held lacks.
func freeByCount(held map[int64]bool, lo, hi int64, n int) []int64 {
	out := []int64{}
	for id := lo; id <= hi && len(out) < n; id++ {
		if !held[id] {
			out = append(out, id)
		}
	}
	return out
}

// FreeIDs answers what counting up from lo answers, on collections shaped
// to cross each branch of its walk: none held, 1..n without a gap (the
// last-key shortcut), gaps at the start, in the middle and past the end,
// long runs (galloping and bisecting), ids at the top of the range, and
// random sets.
func TestFreeIDs(t *testing.T) {
	m, _, ctx := openModel(t)
	run := func(lo, hi int64) []int64 {
		var out []int64
		for id := lo; id <= hi; id++ {
			out = append(out, id)
		}
		return out
	}
	rng := rand.New(rand.NewPCG(7, 11))
	randomSet := func(n int, span int64) []int64 {
		seen := map[int64]bool{}
		var out []int64
		for len(out) < n {
			if id := rng.Int64N(span) + 1; !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
		return out
	}
	cases := []struct {
		name string
		held []int64
	}{
		{"empty", nil},
		{"1..500 without a gap", run(1, 500)},
		{"gap at the start", run(4, 300)},
		{"one gap in a long run", append(run(1, 99), run(101, 700)...)},
		{"1 and 10", []int64{1, 10}},
		{"every other id", func() []int64 {
			var out []int64
			for id := int64(1); id <= 400; id += 2 {
				out = append(out, id)
			}
			return out
		}()},
		{"top of the id range", append([]int64{1}, run(model.MaxID-5, model.MaxID)...)},
		{"random dense", randomSet(600, 800)},
		{"random sparse", randomSet(200, 5000)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var wipe store.Batch
			page, err := m.Page(ctx, "w", "nodes", nil, 0, -1)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range page.Keys {
				wipe.Delete("nodes", k)
			}
			if _, err := m.Apply(ctx, "w", &wipe); err != nil {
				t.Fatal(err)
			}
			held := map[int64]bool{}
			var b store.Batch
			for _, id := range c.held {
				held[id] = true
				b.Create("nodes", store.Key(id), []byte(`{}`))
			}
			if _, err := m.Apply(ctx, "w", &b); err != nil {
				t.Fatal(err)
			}
			for _, q := range []struct {
				lo, hi int64
				n      int
			}{{1, model.MaxID, 1}, {1, model.MaxID, 7}, {1, model.MaxID, 1000}, {50, model.MaxID, 30},
				{101, 105, 10}, {model.MaxID - 10, model.MaxID, 20}, {model.MaxID, model.MaxID, 1}} {
				got, err := m.FreeIDs(ctx, "w", "nodes", q.lo, q.hi, q.n)
				if err != nil {
					t.Fatal(err)
				}
				if want := freeByCount(held, q.lo, q.hi, q.n); !reflect.DeepEqual(got, want) {
					t.Errorf("FreeIDs(%d, %d, %d) = %v, want %v", q.lo, q.hi, q.n, got, want)
				}
			}
		})
	}
}
