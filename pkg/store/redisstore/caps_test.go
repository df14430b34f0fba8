package redisstore_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gusset/gusset/pkg/store"
)

// A batch that would take a capped collection past its cap fails whole
// with a CapError and writes nothing, by either way a batch is applied
// (the script for small batches, WATCH/MULTI for large planned ones); one
// that does not grow the collection passes even when it is already over
// the cap (a limit lowered later must not stop edits and deletes).
func TestApplyCaps(t *testing.T) {
	// 300 rows take the WATCH/MULTI path (fastPathMin is 256) when the
	// batch is planned at a known revision; 3 rows take the script.
	// Verified batches (the caller checked the rows at the revision, as
	// bulk creates do) skip the store's reads of the rows, but not the
	// count.
	for _, tc := range []struct {
		size     int
		verified bool
	}{{3, false}, {300, false}, {300, true}} {
		size := tc.size
		t.Run(fmt.Sprintf("%d rows verified %v", size, tc.verified), func(t *testing.T) {
			m, jobs, ctx := openModel(t)
			rev := func() int64 {
				t.Helper()
				_, sl, err := jobs.Job(ctx, "w")
				if err != nil {
					t.Fatal(err)
				}
				return sl.Rev
			}
			count := func() int64 {
				t.Helper()
				p, err := m.Page(ctx, "w", "nodes", nil, 0, 1)
				if err != nil {
					t.Fatal(err)
				}
				return p.Total
			}
			// fill creates (or puts) rows from..from+n-1 with the cap max.
			fill := func(from, n int, max int64, put bool) error {
				b := store.Batch{ExpectRev: rev(), Verified: tc.verified, Caps: map[string]int64{"nodes": max}}
				for i := from; i < from+n; i++ {
					if put {
						b.Put("nodes", store.Key(int64(i)), []byte(`{}`))
					} else {
						b.Create("nodes", store.Key(int64(i)), []byte(`{}`))
					}
				}
				b.Put("members", store.Key(int64(from)), []byte(`{}`)) // an uncapped collection rides along
				_, err := m.Apply(ctx, "w", &b)
				return err
			}
			n := int64(size)
			if err := fill(1, size, n, false); err != nil {
				t.Fatalf("a batch that fills the cap exactly: %v", err)
			}
			before := rev()
			err := fill(size+1, size, n+int64(size)-1, false)
			var ce *store.CapError
			if !errors.As(err, &ce) || ce.Coll != "nodes" || ce.Max != n+n-1 || ce.Would != 2*n {
				t.Fatalf("a batch one row past the cap: %v, want a CapError nodes %d > %d", err, 2*n, 2*n-1)
			}
			if count() != n || rev() != before {
				t.Errorf("the refused batch wrote: %d nodes, rev %d → %d", count(), before, rev())
			}
			if err := fill(1, size, n, true); err != nil {
				t.Errorf("puts over rows that exist do not grow the collection: %v", err)
			}
			if err := fill(1, size, 1, true); err != nil {
				t.Errorf("a collection already over a lowered cap can still be rewritten: %v", err)
			}
			b := store.Batch{Caps: map[string]int64{"nodes": 1}}
			b.Delete("nodes", store.Key(1))
			if _, err := m.Apply(ctx, "w", &b); err != nil || count() != n-1 {
				t.Errorf("a delete under a lowered cap: %v (%d nodes)", err, count())
			}
		})
	}
}
