package redisstore_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
)

func openModel(t *testing.T) (*redisstore.Model, *redisstore.Jobs, context.Context) {
	t.Helper()
	ctx := context.Background()
	s, srv := newStore(t, "nodes", "members")
	if _, err := s.Open(ctx, "w", store.Snapshot{Job: model.NewJob()}, openState()); err != nil {
		t.Fatal(err)
	}
	return redisstore.NewModel(srv.Client(t)), s, ctx
}

// A batch whose check fails anywhere, even after many changes, changes
// nothing: the script checks every op before it writes one.
func TestApplyIsAllOrNothing(t *testing.T) {
	m, jobs, ctx := openModel(t)
	var b store.Batch
	b.Create("nodes", store.Key(1), []byte(`{"id":1}`))
	b.Create("nodes", store.Key(2), []byte(`{"id":2}`))
	rev, err := m.Apply(ctx, "w", &b)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		build  func(b *store.Batch)
		index  int
		exists bool
	}{
		{"create an existing key", func(b *store.Batch) {
			b.Delete("nodes", store.Key(1))
			b.Create("members", store.Key(5), []byte(`{}`))
			b.Create("nodes", store.Key(2), []byte(`{}`))
		}, 2, true},
		{"require a key deleted earlier in the batch", func(b *store.Batch) {
			b.Delete("nodes", store.Key(1))
			b.Require("nodes", store.Key(1))
		}, 1, false},
		{"update a missing key", func(b *store.Batch) {
			b.Put("nodes", store.Key(3), []byte(`{}`))
			b.Update("nodes", store.Key(4), []byte(`{}`))
		}, 1, false},
		{"delete twice", func(b *store.Batch) {
			b.Delete("nodes", store.Key(2))
			b.Delete("nodes", store.Key(2))
		}, 1, false},
		{"forbid a key created in the batch", func(b *store.Batch) {
			b.Create("nodes", store.Key(9), []byte(`{}`))
			b.Forbid("nodes", store.Key(9))
		}, 1, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b store.Batch
			c.build(&b)
			_, err := m.Apply(ctx, "w", &b)
			var ce *store.ConflictError
			if !errors.As(err, &ce) || ce.Index != c.index || ce.Exists != c.exists {
				t.Fatalf("err = %v, want a conflict at op %d (exists %v)", err, c.index, c.exists)
			}
			page, _ := m.Page(ctx, "w", "nodes", nil, 0, -1)
			members, _ := m.Page(ctx, "w", "members", nil, 0, -1)
			if page.Total != 2 || members.Total != 0 || string(page.Values[0]) != `{"id":1}` {
				t.Errorf("a failed batch changed the rows: %v %v", page.Keys, members.Keys)
			}
			if _, sl, _ := jobs.Job(ctx, "w"); sl.Rev != rev {
				t.Errorf("a failed batch bumped rev to %d from %d", sl.Rev, rev)
			}
		})
	}
	// A batch planned at an old revision is refused as stale.
	b = store.Batch{ExpectRev: rev - 1}
	b.Delete("nodes", store.Key(1))
	if _, err := m.Apply(ctx, "w", &b); !errors.Is(err, store.ErrStale) {
		t.Errorf("stale batch: %v", err)
	}
	b.ExpectRev = rev
	if r, err := m.Apply(ctx, "w", &b); err != nil || r != rev+1 {
		t.Errorf("batch at the current rev: %d %v", r, err)
	}
}

func TestPageRangesAndExists(t *testing.T) {
	m, _, ctx := openModel(t)
	var b store.Batch
	for _, id := range []int64{1, 2, 3, 10, 11, 12, 100} {
		b.Create("nodes", store.Key(id), []byte(`{}`))
	}
	if _, err := m.Apply(ctx, "w", &b); err != nil {
		t.Fatal(err)
	}
	ranges := []store.KeyRange{store.IDRange(2, 10), store.IDRange(12, 1000)}
	cases := []struct {
		offset, limit int64
		want          []string
	}{
		{0, -1, []string{store.Key(2), store.Key(3), store.Key(10), store.Key(12), store.Key(100)}},
		{2, 2, []string{store.Key(10), store.Key(12)}},
		{3, 10, []string{store.Key(12), store.Key(100)}},
		{5, 10, nil},
	}
	for _, c := range cases {
		p, err := m.Page(ctx, "w", "nodes", ranges, c.offset, c.limit)
		if err != nil || p.Total != 5 || len(p.Keys) != len(c.want) {
			t.Fatalf("offset %d limit %d: %v total %d err %v", c.offset, c.limit, p.Keys, p.Total, err)
		}
		for i := range c.want {
			if p.Keys[i] != c.want[i] {
				t.Errorf("offset %d: keys %v, want %v", c.offset, p.Keys, c.want)
			}
		}
	}
	// Zero-padded keys sort numerically: 100 after 12.
	last, _ := m.LastKey(ctx, "w", "nodes", nil)
	if last != store.Key(100) {
		t.Errorf("last key %s", last)
	}
	ex, _ := m.Exists(ctx, "w", "nodes", store.Key(3), store.Key(4))
	if !ex[0] || ex[1] {
		t.Errorf("exists %v", ex)
	}
	if _, err := m.Page(ctx, "nobody", "nodes", nil, 0, -1); model.KindOf(err) != model.KindNoJobOpen {
		t.Errorf("page of a workspace without a job: %v", err)
	}
}

// Large write batches planned at a known revision take the WATCH/MULTI
// path; it must keep the script's all-or-nothing guarantees.
func TestWatchedBulkApply(t *testing.T) {
	m, jobs, ctx := openModel(t)
	_, sl, _ := jobs.Snapshot(ctx, "w")
	batch := func(from, n int, rev int64) *store.Batch {
		b := &store.Batch{ExpectRev: rev}
		for i := from; i < from+n; i++ {
			b.Create("nodes", store.Key(int64(i)), []byte(`{}`))
		}
		return b
	}
	rev, err := m.Apply(ctx, "w", batch(1, 1000, sl.Rev))
	if err != nil || rev != sl.Rev+1 {
		t.Fatalf("bulk apply: rev %d err %v", rev, err)
	}
	// One taken key among a thousand new ones: nothing lands.
	_, err = m.Apply(ctx, "w", batch(1000, 1000, rev))
	var ce *store.ConflictError
	if !errors.As(err, &ce) || ce.Index != 0 || !ce.Exists {
		t.Fatalf("conflict: %v", err)
	}
	if p, _ := m.Page(ctx, "w", "nodes", nil, 0, 0); p.Total != 1000 {
		t.Errorf("a failed bulk batch stored rows: total %d", p.Total)
	}
	// Planned at an older revision: stale, nothing lands.
	if _, err := m.Apply(ctx, "w", batch(5000, 1000, rev-1)); !errors.Is(err, store.ErrStale) {
		t.Errorf("stale bulk batch: %v", err)
	}
	if p, _ := m.Page(ctx, "w", "nodes", nil, 0, 0); p.Total != 1000 {
		t.Errorf("a stale bulk batch stored rows: total %d", p.Total)
	}
	if _, sl2, _ := jobs.Snapshot(ctx, "w"); sl2.Rev != rev || !sl2.State.IsModified {
		t.Errorf("rev %d modified %v", sl2.Rev, sl2.State.IsModified)
	}
	// Verified: the caller checked the rows at this revision, so only the
	// revision is checked. A stale one still lands nothing...
	stale := batch(2000, 1000, rev-1)
	stale.Verified = true
	if _, err := m.Apply(ctx, "w", stale); !errors.Is(err, store.ErrStale) {
		t.Errorf("stale verified batch: %v", err)
	}
	// ...and a current one is written without reading its rows first: the
	// taken key 1000 is not probed (its caller vouched for it) and is
	// overwritten, which is why only callers that did check may say so.
	fresh := batch(1000, 1000, rev)
	fresh.Verified = true
	fresh.Ops[0].Value = []byte(`{"x":1}`)
	if _, err := m.Apply(ctx, "w", fresh); err != nil {
		t.Fatalf("verified batch: %v", err)
	}
	if p, _ := m.Page(ctx, "w", "nodes", nil, 0, 0); p.Total != 1999 {
		t.Errorf("verified batch: total %d, want 1999", p.Total)
	}
	if v, _ := m.Get(ctx, "w", "nodes", store.Key(1000)); string(v[0]) != `{"x":1}` {
		t.Errorf("verified batch: row 1000 is %s", v[0])
	}
}

// LastParts tracks the greatest last key part per prefix through every
// write path: the script (small batches), WATCH/MULTI (bulk batches) and
// loading a job; deletes do not lower it.
func TestLastParts(t *testing.T) {
	m, jobs, ctx := openModel(t)
	var small store.Batch
	small.Create("nodes", store.Key(1, 7, 1), []byte(`{}`))
	small.Create("nodes", store.Key(1, 7, 3), []byte(`{}`))
	small.Create("nodes", store.Key(2, 7, 2), []byte(`{}`))
	if _, err := m.Apply(ctx, "w", &small); err != nil {
		t.Fatal(err)
	}
	_, sl, _ := jobs.Snapshot(ctx, "w")
	bulk := &store.Batch{ExpectRev: sl.Rev}
	for i := int64(1); i <= 300; i++ {
		bulk.Create("nodes", store.Key(3, i, 5), []byte(`{}`))
	}
	bulk.Create("nodes", store.Key(1, 7, 10), []byte(`{}`))
	if _, err := m.Apply(ctx, "w", bulk); err != nil {
		t.Fatal(err)
	}
	var del store.Batch
	del.Delete("nodes", store.Key(1, 7, 10))
	if _, err := m.Apply(ctx, "w", &del); err != nil {
		t.Fatal(err)
	}
	prefixes := []string{store.Key(1, 7), store.Key(2, 7), store.Key(3, 150), store.Key(4, 1)}
	want := []int64{10, 2, 5, 0}
	check := func(label string) {
		t.Helper()
		got, err := m.LastParts(ctx, "w", "nodes", prefixes)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v (%v), want %v", label, got, err, want)
		}
	}
	check("after writes")
	// A verified bulk batch that brings the index values its caller read
	// (Lasts) raises those without reading them, and still reads and
	// raises, never lowers, the prefixes it does not bring.
	_, sl, _ = jobs.Snapshot(ctx, "w")
	known := &store.Batch{ExpectRev: sl.Rev, Verified: true,
		// (3, 2) claims 9 where the index holds 5: the store takes the
		// caller's word and leaves 5, which shows it did not read.
		Lasts: map[string]map[string]int64{"nodes": {store.Key(3, 1): 5, store.Key(3, 2): 9}}}
	for i := int64(1); i <= 300; i++ {
		known.Create("nodes", store.Key(3, i, 6), []byte(`{}`))
	}
	known.Create("nodes", store.Key(2, 7, 1), []byte(`{}`)) // below its last, 2
	if _, err := m.Apply(ctx, "w", known); err != nil {
		t.Fatal(err)
	}
	prefixes = append(prefixes, store.Key(3, 1), store.Key(3, 2))
	want = append(want, 6, 5)
	want[2] = 6
	check("after a batch with known index values")
	// A saved job reopened rebuilds the index from its rows; the deleted
	// sub-load 10 is gone, so the greatest in use is 3 again.
	snap, _, err := jobs.Snapshot(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	jobs.Close(ctx, "w")
	if _, err := jobs.Open(ctx, "w", snap, openState()); err != nil {
		t.Fatal(err)
	}
	want[0] = 3
	want[5] = 6 // rebuilt from the rows, whatever a caller claimed
	check("after reopening")
}
