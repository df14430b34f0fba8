package redisstore_test

import (
	"bytes"
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

func newFanOut(t *testing.T) (*redisstore.FanOut, *redistest.Server) {
	t.Helper()
	srv := redistest.Start(t)
	return redisstore.NewFanOut(srv.Client(t)), srv
}

const (
	foPending = "{ws:w}:run:r:pending"
	foStage   = "{ws:w}:run:r:stage"
)

// Done counts a case once: a second Done of the same case, or of a case
// never pending, removes nothing and leaves the count as it is.
func TestFanOutDoneIdempotent(t *testing.T) {
	ctx := context.Background()
	f, _ := newFanOut(t)
	if err := f.Begin(ctx, "w", "r", store.AnyAttempt, []int64{3, 1, 2}); err != nil {
		t.Fatal(err)
	}
	check := func(lc int64, wantLeft int, wantRemoved bool) {
		t.Helper()
		left, removed, err := f.Done(ctx, "w", "r", lc)
		if err != nil || left != wantLeft || removed != wantRemoved {
			t.Errorf("Done(%d) = %d, %v, %v; want %d, %v", lc, left, removed, err, wantLeft, wantRemoved)
		}
	}
	check(2, 2, true)
	check(2, 2, false)
	check(9, 2, false)
	if p, err := f.Pending(ctx, "w", "r"); err != nil || !slices.Equal(p, []int64{1, 3}) {
		t.Errorf("Pending = %v, %v; want [1 3]", p, err)
	}
	check(1, 1, true)
	check(3, 0, true)
	check(3, 0, false)
	if p, err := f.Pending(ctx, "w", "r"); err != nil || len(p) != 0 {
		t.Errorf("Pending after all done = %v, %v", p, err)
	}
	// A run of another workspace or id is not touched.
	if err := f.Begin(ctx, "w", "r2", store.AnyAttempt, []int64{1}); err != nil {
		t.Fatal(err)
	}
	if left, removed, err := f.Done(ctx, "w2", "r2", 1); err != nil || removed || left != 0 {
		t.Errorf("Done in another workspace = %d, %v, %v", left, removed, err)
	}
	if p, _ := f.Pending(ctx, "w", "r2"); !slices.Equal(p, []int64{1}) {
		t.Errorf("r2 pending %v", p)
	}
	// A workspace name that would break the key layout is refused.
	if _, _, err := f.Done(ctx, "w:x", "r", 1); err == nil {
		t.Error("Done in workspace \"w:x\" accepted")
	}
}

// Under concurrent Done calls (every case twice, from many goroutines)
// exactly one call sees no case left and removed its own case, and the
// counts seen by the calls that removed a case are all different.
func TestFanOutConcurrentDone(t *testing.T) {
	ctx := context.Background()
	f, _ := newFanOut(t)
	const n = 200
	cases := make([]int64, n)
	for i := range cases {
		cases[i] = int64(i + 1)
	}
	if err := f.Begin(ctx, "w", "r", store.AnyAttempt, cases); err != nil {
		t.Fatal(err)
	}
	type res struct {
		left    int
		removed bool
	}
	out := make(chan res, 2*n)
	var wg sync.WaitGroup
	for rep := 0; rep < 2; rep++ {
		for _, lc := range cases {
			wg.Add(1)
			go func() {
				defer wg.Done()
				left, removed, err := f.Done(ctx, "w", "r", lc)
				if err != nil {
					t.Error(err)
				}
				out <- res{left, removed}
			}()
		}
	}
	wg.Wait()
	close(out)
	last, removedCount := 0, 0
	seen := map[int]bool{}
	for r := range out {
		if !r.removed {
			continue
		}
		removedCount++
		if seen[r.left] {
			t.Errorf("two calls that removed a case saw %d left", r.left)
		}
		seen[r.left] = true
		if r.left == 0 {
			last++
		}
	}
	if removedCount != n || last != 1 {
		t.Errorf("%d calls removed a case (want %d), %d saw none left having removed one (want 1)", removedCount, n, last)
	}
}

// Staged gives back what was staged, bytes for bytes: binary columns (NUL,
// 0xFF, invalid UTF-8), an empty column, column names holding a slash, a
// meta without columns (a failed case), and a later Stage of a case
// replacing its meta.
func TestFanOutStagedRoundTrip(t *testing.T) {
	ctx := context.Background()
	f, _ := newFanOut(t)
	bin := make([]byte, 512)
	for i := range bin {
		bin[i] = byte(i)
	}
	model := store.ResultSet{Meta: []byte("{}"), Columns: map[string][]byte{"nodes": bin, "members": {}, "lc/1/disp": {0, 0xff, 0xfe, 0}}}
	if err := f.Stage(ctx, "w", "r", 0, model); err != nil {
		t.Fatal(err)
	}
	if err := f.Stage(ctx, "w", "r", 7, store.ResultSet{Meta: []byte(`{"failed":"x"}`)}); err != nil {
		t.Fatal(err)
	}
	if err := f.Stage(ctx, "w", "r", 7, store.ResultSet{Meta: []byte(`{"meta":{"loadCase":7}}`),
		Columns: map[string][]byte{"c:7:disp": bytes.Repeat([]byte{0x80, 0}, 1000)}}); err != nil {
		t.Fatal(err)
	}
	got, err := f.Staged(ctx, "w", "r")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("staged entries %v, want cases 0 and 7", keysOf(got))
	}
	m := got[0]
	if string(m.Meta) != "{}" || len(m.Columns) != 3 || !bytes.Equal(m.Columns["nodes"], bin) ||
		len(m.Columns["members"]) != 0 || !bytes.Equal(m.Columns["lc/1/disp"], []byte{0, 0xff, 0xfe, 0}) {
		t.Errorf("model entry came back as meta %q columns %d: %v", m.Meta, len(m.Columns), m.Columns)
	}
	c := got[7]
	if string(c.Meta) != `{"meta":{"loadCase":7}}` || len(c.Columns) != 1 || !bytes.Equal(c.Columns["c:7:disp"], bytes.Repeat([]byte{0x80, 0}, 1000)) {
		t.Errorf("case 7 came back as meta %q columns %d", c.Meta, len(c.Columns))
	}
	if _, ok := got[7].Columns["members"]; ok {
		t.Error("a column of case 0 shows under case 7")
	}
}

func keysOf(m map[int64]store.ResultSet) []int64 {
	var out []int64
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// The fan-out keys expire (FanOutTTL) and Discard deletes them; Begin
// replaces an earlier set (a parent that runs again).
func TestFanOutExpiryDiscardBegin(t *testing.T) {
	ctx := context.Background()
	f, srv := newFanOut(t)
	rdb := srv.Client(t)
	if err := f.Begin(ctx, "w", "r", store.AnyAttempt, []int64{1, 2}); err != nil {
		t.Fatal(err)
	}
	if err := f.Stage(ctx, "w", "r", 1, store.ResultSet{Meta: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{foPending, foStage} {
		ttl, err := rdb.TTL(ctx, k).Result()
		if err != nil || ttl <= 0 || ttl > store.FanOutTTL || ttl < store.FanOutTTL-time.Minute {
			t.Errorf("TTL of %s = %v, %v; want about %v", k, ttl, err, store.FanOutTTL)
		}
	}
	// Done keeps the expiry of the set.
	if _, _, err := f.Done(ctx, "w", "r", 1); err != nil {
		t.Fatal(err)
	}
	if ttl, _ := rdb.TTL(ctx, foPending).Result(); ttl <= 0 {
		t.Errorf("pending set lost its TTL after Done: %v", ttl)
	}
	if err := f.Begin(ctx, "w", "r", store.AnyAttempt, []int64{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if p, _ := f.Pending(ctx, "w", "r"); !slices.Equal(p, []int64{1, 2, 3}) {
		t.Errorf("pending after a second Begin %v", p)
	}
	if err := f.Begin(ctx, "w", "r", store.AnyAttempt, nil); err != nil {
		t.Fatal(err)
	}
	if p, _ := f.Pending(ctx, "w", "r"); len(p) != 0 {
		t.Errorf("pending after Begin with no case %v", p)
	}
	if err := f.Discard(ctx, "w", "r"); err != nil {
		t.Fatal(err)
	}
	if n, err := rdb.Exists(ctx, foPending, foStage).Result(); err != nil || n != 0 {
		t.Errorf("%d fan-out keys left after Discard (%v)", n, err)
	}
	if got, err := f.Staged(ctx, "w", "r"); err != nil || len(got) != 0 {
		t.Errorf("Staged after Discard = %v, %v", keysOf(got), err)
	}
	// Discard of a run with no state is fine.
	if err := f.Discard(ctx, "w", "nothing"); err != nil {
		t.Errorf("Discard of nothing: %v", err)
	}
}
