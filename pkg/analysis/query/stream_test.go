package query

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// The grid walkers visit exactly the rows of the page, in order, and
// read what they visit a few cases (GridCases) or at most BatchRows rows
// (GridRows) at a time: small grids, grids whose case has more items
// than a batch, pages that start and end inside a case, empty pages and
// pages past the end.
func TestGridWalkersVisitThePage(t *testing.T) {
	for _, c := range []struct {
		cases, items  int
		offset, limit int64
	}{
		{3, 4, 0, -1}, {3, 4, 5, 3}, {3, 4, 0, 0}, {3, 4, 12, -1}, {3, 4, 100, 5},
		{10, 1000, 0, -1}, {10, 1000, 999, 2}, {10, 1000, 1500, 3000},
		{2000, 3, 0, -1}, {2000, 3, 4, 1000}, {5, 256, 255, 258}, {7, 0, 0, -1}, {0, 5, 0, -1},
	} {
		t.Run(fmt.Sprintf("%dx%d@%d+%d", c.cases, c.items, c.offset, c.limit), func(t *testing.T) {
			f := Filter{Offset: c.offset, Limit: c.limit}
			lo, hi := PageOf(int64(c.cases)*int64(c.items), c.offset, c.limit)
			// GridCases: every row once, in order, after its case was read.
			var got []int64
			read := [2]int{-1, -1}
			err := GridCases(c.cases, c.items, f, func(c0, c1 int) error {
				if c1 <= c0 || (c.items <= BatchRows && (c1-c0)*c.items > BatchRows && c1-c0 > 1) {
					return fmt.Errorf("read cases [%d, %d) of %d items each", c0, c1, c.items)
				}
				read = [2]int{c0, c1}
				return nil
			}, func(ci, i int) error {
				if ci < read[0] || ci >= read[1] {
					return fmt.Errorf("row of case %d emitted with cases [%d, %d) read", ci, read[0], read[1])
				}
				got = append(got, int64(ci)*int64(c.items)+int64(i))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			wantRows(t, "GridCases", got, lo, hi)
			// GridRows: runs of at most BatchRows rows that tile the page.
			got = got[:0]
			err = GridRows(c.cases, c.items, f, func(k0, k1 int64) error {
				if k1 <= k0 || k1-k0 > BatchRows {
					return fmt.Errorf("run [%d, %d)", k0, k1)
				}
				for k := k0; k < k1; k++ {
					got = append(got, k)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			wantRows(t, "GridRows", got, lo, hi)
		})
	}
}

// wantRows checks that got is lo, lo+1, …, hi-1.
func wantRows(t *testing.T, what string, got []int64, lo, hi int64) {
	t.Helper()
	if int64(len(got)) != hi-lo {
		t.Fatalf("%s visited %d rows, want %d (rows %d to %d)", what, len(got), hi-lo, lo, hi)
	}
	for i, k := range got {
		if k != lo+int64(i) {
			t.Fatalf("%s: visit %d is row %d, want %d", what, i, k, lo+int64(i))
		}
	}
}

// recorder is a Sink that keeps what it is told, and refuses a restart
// once it has rows, as a sink that sent them must.
type recorder struct {
	heads   []Head
	batches [][]int
}

func (r *recorder) Begin(h Head) error { r.heads = append(r.heads, h); return nil }
func (r *recorder) Rows(rows []int) error {
	r.batches = append(r.batches, append([]int(nil), rows...))
	return nil
}
func (r *recorder) Restart() error {
	if len(r.batches) > 0 {
		return ErrResultsChanged
	}
	r.heads = nil
	return nil
}

// A Stream states the page's row count, hands rows on in batches of
// BatchRows, restarts a sink that has no rows yet, and reports a
// restart after rows were handed on as the sink's error; Collect and
// SendPage round-trip a page.
func TestStream(t *testing.T) {
	r := &recorder{}
	s := NewStream[int](r, Filter{Offset: 10, Limit: 600})
	if err := s.Start([]byte("meta")); err != nil {
		t.Fatal(err)
	}
	w := model.ResultsWarnings{LoadCasesNotAnalyzed: "7"}
	if err := s.Begin(1000, w); err != nil {
		t.Fatal(err)
	}
	// A read that starts again before any row was handed on.
	if err := s.Start([]byte("meta")); err != nil || len(r.heads) != 0 {
		t.Fatalf("restart before rows: %v, heads %v", err, r.heads)
	}
	if err := s.Begin(1000, w); err != nil {
		t.Fatal(err)
	}
	for i := range 600 {
		if err := s.Add(i); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if len(r.heads) != 1 || r.heads[0].Set == "" ||
		fmt.Sprint(r.heads[0]) != fmt.Sprint(Head{Total: 1000, Rows: 600, Warnings: w, Set: r.heads[0].Set}) {
		t.Errorf("heads %+v, want one of 1000 rows, 600 in the page", r.heads)
	}
	sizes := []int{}
	for _, b := range r.batches {
		sizes = append(sizes, len(b))
	}
	if fmt.Sprint(sizes) != fmt.Sprint([]int{BatchRows, BatchRows, 600 - 2*BatchRows}) {
		t.Errorf("batches of %v rows", sizes)
	}
	if err := s.Start([]byte("meta")); !errors.Is(err, ErrResultsChanged) {
		t.Errorf("restart after rows: %v, want ErrResultsChanged", err)
	}

	page := Page[int]{Total: 700, Rows: make([]int, 600), Warnings: w}
	for i := range page.Rows {
		page.Rows[i] = i
	}
	got, err := Collect(func(sink Sink[int]) error { return SendPage(sink, page) })
	if err != nil || got.Total != page.Total || fmt.Sprint(got.Warnings) != fmt.Sprint(page.Warnings) || fmt.Sprint(got.Rows) != fmt.Sprint(page.Rows) {
		t.Errorf("Collect(SendPage(p)) = %d rows of %d, %v, want p", len(got.Rows), got.Total, err)
	}
}
