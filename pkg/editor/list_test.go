package editor_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// countingModel is the real store that also counts the rows its Page
// calls return: how much of a collection a list reads.
type countingModel struct {
	store.Model
	rows atomic.Int64
}

func (m *countingModel) Page(ctx context.Context, ws, coll string, ranges []store.KeyRange, offset, limit int64) (store.Page, error) {
	p, err := m.Model.Page(ctx, ws, coll, ranges, offset, limit)
	m.rows.Add(int64(len(p.Values)))
	return p, err
}

// listFixture is an open job in workspace "w" whose nodes have the ids
// step, 2·step, … n·step and x = id mod 10: the gaps between ids put
// id ranges on and off stored rows.
func listFixture(tb testing.TB, n, step int64) (*editor.Structure, *countingModel) {
	tb.Helper()
	ctx := context.Background()
	rdb := redistest.Start(tb).Client(tb)
	jobs := redisstore.NewJobs(rdb, editor.StructureCollections)
	now := time.Now()
	if _, err := jobs.Open(ctx, "w", store.Snapshot{Job: model.NewJob()}, model.State{OpenedAt: &now}); err != nil {
		tb.Fatal(err)
	}
	cm := &countingModel{Model: redisstore.NewModel(rdb)}
	st := editor.NewStructure(editor.New(cm, jobs))
	const chunk = 10_000
	for lo := int64(1); lo <= n; lo += chunk {
		items := make([]editor.Item[model.Node], 0, chunk)
		for i := lo; i <= n && i < lo+chunk; i++ {
			id := i * step
			items = append(items, editor.Item[model.Node]{Rec: model.Node{ID: id, X: float64(id % 10), Y: 1}, HasKey: true})
		}
		if _, err := st.Nodes.Create(ctx, "w", items, false); err != nil {
			tb.Fatal(err)
		}
	}
	cm.rows.Store(0)
	return st, cm
}

// xIs keeps the nodes at x = v.
func xIs(v float64) func(*model.Node) bool { return func(n *model.Node) bool { return n.X == v } }

// A filtered list with a limit reads a few pages of rows, not the
// collection: 16 such lists in parallel on a large job took half a
// minute and gigabytes when each read every row.
func TestFilteredListReadsBoundedRows(t *testing.T) {
	ctx := context.Background()
	st, cm := listFixture(t, 20_000, 1)
	cases := []struct {
		name   string
		filter func(*model.Node) bool
		offset int64
		want   []int64
	}{
		{"every row matches", func(*model.Node) bool { return true }, 0, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{"one row in ten matches", xIs(0), 0, []int64{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}},
		{"past an offset", xIs(3), 95, []int64{953, 963, 973, 983, 993, 1003, 1013, 1023, 1033, 1043}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cm.rows.Store(0)
			res, err := st.Nodes.ListPage(ctx, "w", editor.ListQuery[model.Node]{Filter: c.filter, Offset: c.offset, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			if got := nodeIDs(res.Rows); !reflect.DeepEqual(got, c.want) {
				t.Errorf("rows %v, want %v", got, c.want)
			}
			if !res.More || res.Total != -1 {
				t.Errorf("More %v Total %d, want true and -1 (unknown)", res.More, res.Total)
			}
			if read := cm.rows.Load(); read > 2*editor.FilterPageRows {
				t.Errorf("read %d rows of 20,000 for 10; want at most two pages (%d)", read, 2*editor.FilterPageRows)
			}
		})
	}
}

// A filtered list gives up between pages once its context is done (the
// request's deadline), rather than reading on to the end.
func TestFilteredListStopsWhenContextEnds(t *testing.T) {
	st, cm := listFixture(t, 3*editor.FilterPageRows, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, _, err := st.Nodes.List(ctx, "w", editor.ListQuery[model.Node]{Limit: 10, Filter: func(*model.Node) bool {
		cancel()
		return false
	}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
	if read := cm.rows.Load(); read > editor.FilterPageRows {
		t.Errorf("read %d rows after the context ended; want at most one page (%d)", read, editor.FilterPageRows)
	}
}

// A filtered page is the same slice of the matches as a full scan
// gives, whatever the offset, limit, id ranges and page boundaries; the
// total, when given, is exact, and More says whether matches follow.
func TestFilteredListPagesMatchFullScan(t *testing.T) {
	ctx := context.Background()
	// Ids 2, 4, …, 5000: three store pages, every odd id missing.
	st, _ := listFixture(t, 2500, 2)
	all, err := st.Nodes.All(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2500 {
		t.Fatalf("%d nodes, want 2500", len(all))
	}
	every := func(*model.Node) bool { return true }
	none := func(*model.Node) bool { return false }
	ids := func(s string) *model.IDList {
		l, _, err := model.ParseIDList("nodes", s)
		if err != nil {
			t.Fatal(err)
		}
		return &l
	}
	// manySingles names 600 single ids, most of them stored: several
	// reads of whole id runs.
	manySingles := ""
	for i := 1; i <= 600; i++ {
		manySingles += fmt.Sprintf("%d,", i*7)
	}
	manySingles = manySingles[:len(manySingles)-1]
	cases := []struct {
		name          string
		ids           *model.IDList
		filter        func(*model.Node) bool
		offset, limit int64
		// exact says the list must read to the end and so know its total.
		exact bool
	}{
		{"first rows", nil, every, 0, 10, false},
		{"no limit", nil, every, 0, -1, true},
		{"no limit past an offset", nil, xIs(4), 123, -1, true},
		{"limit 0", nil, xIs(2), 0, 0, false},
		{"limit 0 on no match", nil, none, 0, 0, true},
		{"across a page boundary", nil, xIs(0), 195, 10, false},
		{"page ending on the last match", nil, xIs(0), 490, 10, true},
		{"page ending one before the last match", nil, xIs(0), 489, 10, true},
		{"offset past the end", nil, xIs(0), 10_000, 10, true},
		{"offset at the end", nil, xIs(0), 500, 10, true},
		{"no match", nil, none, 0, 10, true},
		{"limit larger than the matches", nil, xIs(6), 0, 100_000, true},
		{"id ranges", ids("1-100,1500-1600,3000-5000"), xIs(0), 5, 20, false},
		{"id ranges to the end", ids("1-100,1500-1600,3000-5000"), xIs(0), 0, -1, true},
		{"id ranges near their end", ids("1-100,1500-1600,3000-5000"), xIs(8), 220, 10, true},
		{"unordered, overlapping ranges", ids("3000-5000,1-100,50-60,1500-1600"), xIs(2), 30, 40, false},
		{"ranges over missing ids", ids("1,3,5,7,9999-20000"), every, 0, 10, true},
		{"many single ids", ids(manySingles), xIs(4), 10, 30, false},
		{"many single ids to the end", ids(manySingles), xIs(4), 0, -1, true},
		{"many single ids past the end", ids(manySingles), every, 299, 10, true},
		{"a large range between small ones", ids("2-4,10-3000,4000,4002"), xIs(2), 150, 5, false},
		{"a large range between small ones, no match", ids("2-4,10-3000,4000,4002"), none, 0, 5, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var matches []int64
			for i := range all {
				if inIDs(c.ids, all[i].ID) && c.filter(&all[i]) {
					matches = append(matches, all[i].ID)
				}
			}
			lo := min(c.offset, int64(len(matches)))
			hi := int64(len(matches))
			if c.limit >= 0 {
				hi = min(lo+c.limit, hi)
			}
			want := append([]int64{}, matches[lo:hi]...)
			wantMore := c.limit >= 0 && int64(len(matches)) > c.offset+c.limit
			res, err := st.Nodes.ListPage(ctx, "w", editor.ListQuery[model.Node]{IDs: c.ids, Filter: c.filter, Offset: c.offset, Limit: c.limit})
			if err != nil {
				t.Fatal(err)
			}
			if got := nodeIDs(res.Rows); !reflect.DeepEqual(got, want) {
				t.Errorf("rows %v, want %v", got, want)
			}
			if res.More != wantMore {
				t.Errorf("More %v, want %v", res.More, wantMore)
			}
			switch {
			case res.Total >= 0 && res.Total != int64(len(matches)):
				t.Errorf("Total %d, want %d", res.Total, len(matches))
			case res.Total < 0 && (c.exact || !res.More):
				t.Errorf("Total unknown; the list read to the end (%d matches)", len(matches))
			}
		})
	}
}

// Rows deleted and created while a filtered list reads make it neither
// skip nor repeat the rows that stay: it pages by key, not by offset.
func TestFilteredListUnderConcurrentWrites(t *testing.T) {
	ctx := context.Background()
	st, _ := listFixture(t, 2500, 2)
	before, err := st.Nodes.All(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	var writeErr error
	res, err := st.Nodes.ListPage(ctx, "w", editor.ListQuery[model.Node]{Limit: -1, Filter: func(*model.Node) bool {
		// While the first page is being read: delete 50 of its rows and
		// create 20 rows between them, all behind the list's position.
		// Paging by offset would then skip 30 rows.
		once.Do(func() {
			var gone [][]int64
			var added []editor.Item[model.Node]
			for i := int64(1); i <= 50; i++ {
				gone = append(gone, []int64{2 * i})
				if i <= 20 {
					added = append(added, editor.Item[model.Node]{Rec: model.Node{ID: 2*i + 1, Y: 1}, HasKey: true})
				}
			}
			if _, writeErr = st.Nodes.DeleteRows(ctx, "w", gone, false); writeErr == nil {
				_, writeErr = st.Nodes.Create(ctx, "w", added, false)
			}
		})
		return true
	}})
	if err != nil || writeErr != nil {
		t.Fatal(err, writeErr)
	}
	if got, want := nodeIDs(res.Rows), nodeIDs(before); !reflect.DeepEqual(got, want) {
		t.Errorf("%d rows, want the %d that were there when the read began", len(got), len(want))
	}
	if res.Total != int64(len(before)) || res.More {
		t.Errorf("Total %d More %v, want %d false", res.Total, res.More, len(before))
	}
}

// An unfiltered list keeps its exact count and says whether rows follow.
func TestUnfilteredListTotals(t *testing.T) {
	ctx := context.Background()
	st, _ := listFixture(t, 30, 1)
	cases := []struct {
		offset, limit int64
		rows          int
		more          bool
	}{
		{0, 10, 10, true}, {20, 10, 10, false}, {25, 10, 5, false}, {0, -1, 30, false}, {0, 0, 0, true}, {40, 10, 0, false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("offset %d limit %d", c.offset, c.limit), func(t *testing.T) {
			res, err := st.Nodes.ListPage(ctx, "w", editor.ListQuery[model.Node]{Offset: c.offset, Limit: c.limit})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Rows) != c.rows || res.Total != 30 || res.More != c.more {
				t.Errorf("%d rows, Total %d, More %v; want %d, 30, %v", len(res.Rows), res.Total, res.More, c.rows, c.more)
			}
		})
	}
}

// BenchmarkFilteredListLarge runs 16 filtered lists of 10 rows at once
// on 200,000 nodes; each must cost a page of reads, not the collection.
func BenchmarkFilteredListLarge(b *testing.B) {
	st, cm := listFixture(b, 200_000, 1)
	ctx := context.Background()
	q := editor.ListQuery[model.Node]{Filter: xIs(5), Limit: 10}
	b.ReportAllocs()
	for b.Loop() {
		var wg sync.WaitGroup
		errs := make([]error, 16)
		for i := range errs {
			wg.Go(func() { _, _, errs[i] = st.Nodes.List(ctx, "w", q) })
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cm.rows.Load())/float64(16*b.N), "rows-read/list")
}

// inIDs says whether id is in the list; nil is every id.
func inIDs(l *model.IDList, id int64) bool {
	if l == nil {
		return true
	}
	for _, r := range l.Ranges {
		if r.Lo <= id && id <= r.Hi {
			return true
		}
	}
	return false
}

func nodeIDs(ns []model.Node) []int64 {
	out := []int64{}
	for _, n := range ns {
		out = append(out, n.ID)
	}
	return out
}

// Missing names the ids of a list the collection lacks, ascending, at
// most the number asked for, and reads no rows: nodes 3, 6, …, 300 (ids
// step 3, so each gap is known by hand).
func TestMissingCountsRanges(t *testing.T) {
	st, cm := listFixture(t, 100, 3)
	for _, tc := range []struct {
		list string
		most int
		want []int64
	}{
		{"3,6,300", 10, nil},
		{"3-9", 10, []int64{4, 5, 7, 8}},
		{"1-1000000", 3, []int64{1, 2, 4}},
		{"299-301,5", 10, []int64{5, 299, 301}},
		{"301-2147483647", 2, []int64{301, 302}},
	} {
		t.Run(tc.list, func(t *testing.T) {
			list, _, err := model.ParseIDList("nodes", tc.list)
			if err != nil {
				t.Fatal(err)
			}
			got, err := st.Nodes.Missing(context.Background(), "w", list, tc.most)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
				t.Errorf("Missing(%s, %d) = %v, want %v", tc.list, tc.most, got, tc.want)
			}
		})
	}
	if n := cm.rows.Load(); n != 0 {
		t.Errorf("Missing read %d rows; it only counts", n)
	}
}
