package editor

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// FilterPageRows is how many rows a filtered list reads from the store at
// a time. A filter cannot be pushed into the store, so a filtered list
// reads rows, decodes and tests them; reading them a page at a time keeps
// its memory to one page plus the rows it returns, and lets it stop as
// soon as it has found enough, however large the collection.
const FilterPageRows = 1000

// maxStalls bounds the pages in a row that come back empty although the
// store counted rows in them: rows deleted between the store's reads do
// that, and a few retries see past them, but a store that keeps counting
// rows it cannot return must not hold a list forever.
const maxStalls = 100

// everyKey is the key range of a whole collection: the first part of a
// key never has more than store.KeyWidth digits.
var everyKey = store.PrefixRange(0, 9_999_999_999)

// ListQuery selects rows of a collection.
type ListQuery[T any] struct {
	// IDs restricts the rows to these values of the first key part; nil
	// means all.
	IDs *model.IDList
	// Filter keeps the rows it returns true for; nil keeps all. A filtered
	// list reads the id ranges in key order only until it has found the
	// page and one more match, so its total is known only when that read
	// reached the end.
	Filter func(*T) bool
	// Offset and Limit page the result; Limit < 0 means no limit.
	Offset, Limit int64
}

// ListResult is one page of a list.
type ListResult[T any] struct {
	Rows []T
	// Total counts every match, or is -1 when a filtered list stopped
	// before the end of its ranges: counting every match would mean
	// reading every row, which is what paging a filter avoids.
	Total int64
	// More says whether rows past this page match (always true when
	// Total is -1: the list stops only once it has seen one).
	More bool
}

// List returns a page of records in id order and the number of matches;
// the number is -1 when a filtered list did not read to the end (see
// ListPage, which also says whether more rows match).
func (c *Collection[T]) List(ctx context.Context, ws string, q ListQuery[T]) ([]T, int64, error) {
	res, err := c.ListPage(ctx, ws, q)
	return res.Rows, res.Total, err
}

// ListPage returns a page of records in id order, with what is known of
// the rows past it.
func (c *Collection[T]) ListPage(ctx context.Context, ws string, q ListQuery[T]) (ListResult[T], error) {
	if q.Filter != nil {
		rows := []T{}
		res, err := c.listFiltered(ctx, ws, q, func(r *T) error {
			rows = append(rows, *r)
			return nil
		})
		res.Rows = rows
		return res, err
	}
	var ranges []store.KeyRange
	if q.IDs != nil {
		for _, r := range q.IDs.Ranges {
			ranges = append(ranges, c.keyRange(r))
		}
	}
	// Without a filter the store pages and counts by itself, cheaply.
	page, err := c.e.model.Page(ctx, ws, c.k.Coll, ranges, q.Offset, q.Limit)
	if err != nil {
		return ListResult[T]{}, err
	}
	out := make([]T, len(page.Values))
	if err := c.decodeRows(page.Values, out); err != nil {
		return ListResult[T]{}, err
	}
	more := q.Limit >= 0 && max(q.Offset, 0) < page.Total-q.Limit
	return ListResult[T]{Rows: out, Total: page.Total, More: more}, nil
}

// Stream reads the page q selects for a caller that sends it on as it
// reads: begin gets Total and More (ListPage's), then rows gets the
// records in order, at most FilterPageRows at a time, so a page of any
// size costs the memory of one read. Without a filter the store counts
// the rows; with one the matches are counted in a first pass (as
// ListPage reads them, up to the page and one more) before a second
// sends them. Rows created or deleted between the reads may make the
// rows sent differ from the count, never a row that stays sent twice or
// left out.
func (c *Collection[T]) Stream(ctx context.Context, ws string, q ListQuery[T], begin func(total int64, more bool) error,
	rows func([]T) error) error {
	buf := make([]T, 0, FilterPageRows)
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		err := rows(buf)
		clear(buf)
		buf = buf[:0]
		return err
	}
	if q.Filter != nil {
		res, err := c.listFiltered(ctx, ws, q, nil)
		if err != nil {
			return err
		}
		if err := begin(res.Total, res.More); err != nil {
			return err
		}
		if _, err = c.listFiltered(ctx, ws, q, func(r *T) error {
			if buf = append(buf, *r); len(buf) == FilterPageRows {
				return flush()
			}
			return nil
		}); err != nil {
			return err
		}
		return flush()
	}
	ranges := everyRange(q.IDs, c.keyRange)
	offset, left := q.Offset, q.Limit
	for first := true; ; first = false {
		n := int64(FilterPageRows)
		if left >= 0 {
			n = min(n, left)
		}
		page, err := c.e.model.Page(ctx, ws, c.k.Coll, ranges, offset, n)
		if err != nil {
			return err
		}
		if first {
			if err := begin(page.Total, q.Limit >= 0 && max(q.Offset, 0) < page.Total-q.Limit); err != nil {
				return err
			}
		}
		if len(page.Values) == 0 {
			return nil
		}
		buf = buf[:len(page.Values)]
		if err := c.decodeRows(page.Values, buf); err != nil {
			return err
		}
		if err := flush(); err != nil {
			return err
		}
		if left >= 0 {
			if left -= int64(len(page.Values)); left == 0 {
				return nil
			}
		}
		// The next read starts after the last key read, not at an offset.
		offset, ranges = 0, after(ranges, page.Keys[len(page.Keys)-1])
		if len(ranges) == 0 {
			return nil
		}
	}
}

// everyRange is the key ranges of ids (all keys when nil), in key order.
func everyRange(ids *model.IDList, keyRange func(model.IDRange) store.KeyRange) []store.KeyRange {
	if ids == nil {
		return []store.KeyRange{everyKey}
	}
	rs := disjoint(ids)
	out := make([]store.KeyRange, len(rs))
	for i, r := range rs {
		out[i] = keyRange(r)
	}
	return out
}

// disjoint returns the ranges of ids in order, overlapping and adjacent
// ones merged: a cursor moves through ranges only when they are in key
// order and disjoint. ParseIDList makes them so, other callers may not.
func disjoint(ids *model.IDList) []model.IDRange {
	rs := slices.SortedFunc(slices.Values(ids.Ranges), func(a, b model.IDRange) int { return cmp.Compare(a.Lo, b.Lo) })
	var merged []model.IDRange
	for _, r := range rs {
		if n := len(merged); n > 0 && r.Lo <= merged[n-1].Hi+1 {
			merged[n-1].Hi = max(merged[n-1].Hi, r.Hi)
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

// after returns the parts of ranges (in key order) past key.
func after(ranges []store.KeyRange, key string) []store.KeyRange {
	var out []store.KeyRange
	for _, r := range ranges {
		if r.Hi <= key {
			continue
		}
		if r.Lo <= key {
			r.Lo = key + "\x00"
		}
		out = append(out, r)
	}
	return out
}

// All returns every record in id order.
func (c *Collection[T]) All(ctx context.Context, ws string) ([]T, error) {
	out, _, err := c.List(ctx, ws, ListQuery[T]{Limit: -1})
	return out, err
}

// keyRange is the key range of the rows whose first key part is in r.
func (c *Collection[T]) keyRange(r model.IDRange) store.KeyRange {
	if len(c.k.KeyFields) > 1 {
		return store.PrefixRange(r.Lo, r.Hi)
	}
	return store.IDRange(r.Lo, r.Hi)
}

// listFiltered reads the id ranges a page at a time, in key order, and
// stops once it has the page and one match past it; it calls keep with
// each row of the page, in order (nil: counts only), and returns Total
// and More. Each read starts right after the last key seen, not at an
// offset, so rows created or deleted meanwhile cannot make it skip or
// repeat a row that stays.
func (c *Collection[T]) listFiltered(ctx context.Context, ws string, q ListQuery[T], keep func(*T) error) (ListResult[T], error) {
	offset := max(q.Offset, 0)
	// enough is the number of matches after which the list stops; -1
	// reads everything.
	enough := int64(-1)
	if q.Limit >= 0 && q.Limit < math.MaxInt64-offset {
		enough = offset + q.Limit + 1
	}
	inPage := func(i int64) bool { return i >= offset && (q.Limit < 0 || i-offset < q.Limit) }
	var res ListResult[T]
	var matched int64
	var buf []T
	windows := c.windows(q.IDs)
	stalls := 0
	for len(windows) > 0 {
		w := &windows[0]
		found := enough >= 0 && matched >= enough
		if found && len(windows) > 1 {
			break // matches may lie in the later windows: the total stays unknown
		}
		if err := ctx.Err(); err != nil {
			return ListResult[T]{}, err
		}
		// Once enough is found, a read of no rows still counts what is
		// left, which makes the total exact when nothing is.
		limit := int64(FilterPageRows)
		if found {
			limit = 0
		}
		page, err := c.e.model.Page(ctx, ws, c.k.Coll, w.ranges, 0, limit)
		if err != nil {
			return ListResult[T]{}, err
		}
		if page.Total == 0 {
			windows = windows[1:]
			continue
		}
		if found {
			break
		}
		if len(page.Values) == 0 {
			if stalls++; stalls > maxStalls {
				return ListResult[T]{}, fmt.Errorf("list %ss: the store keeps counting rows it does not return", c.k.Noun)
			}
			continue
		}
		stalls = 0
		buf = slices.Grow(buf[:0], len(page.Values))[:len(page.Values)]
		// Decoding into a used record would keep the fields a row leaves out.
		clear(buf)
		if err := c.decodeRows(page.Values, buf); err != nil {
			return ListResult[T]{}, err
		}
		for i := range buf {
			if !q.Filter(&buf[i]) {
				continue
			}
			if keep != nil && inPage(matched) {
				if err := keep(&buf[i]); err != nil {
					return ListResult[T]{}, err
				}
			}
			matched++
		}
		if w.whole {
			windows = windows[1:]
			continue
		}
		w.ranges[0].Lo = page.Keys[len(page.Keys)-1] + "\x00"
		if enough >= 0 && matched >= enough && page.Total > int64(len(page.Keys)) {
			break // the store counted rows past this page
		}
	}
	if len(windows) > 0 {
		res.Total, res.More = -1, true
		return res, nil
	}
	res.Total = matched
	res.More = q.Limit >= 0 && matched-offset > q.Limit
	return res, nil
}

// window is what one read of a filtered list asks the store for.
type window struct {
	ranges []store.KeyRange
	// whole says one read returns every row of the ranges: together they
	// span at most FilterPageRows ids, the rows a read asks for, so not
	// even rows created between the store's count and its read can push
	// a stored row out of it. Otherwise the window is a single range, read
	// from a cursor (its Lo) until the store counts no rows left in it.
	whole bool
	// ids is how many ids the ranges of a whole window span.
	ids int64
}

// windows splits the id ranges into reads in key order: short ranges of
// single ids together, so a list of many single ids costs few reads, and
// every other range alone.
func (c *Collection[T]) windows(ids *model.IDList) []window {
	if ids == nil {
		return []window{{ranges: []store.KeyRange{everyKey}}}
	}
	var out []window
	for _, r := range disjoint(ids) {
		span := r.Hi - r.Lo + 1
		if len(c.k.KeyFields) > 1 || span > FilterPageRows {
			out = append(out, window{ranges: []store.KeyRange{c.keyRange(r)}})
			continue
		}
		if n := len(out); n > 0 && out[n-1].whole && out[n-1].ids+span <= FilterPageRows {
			out[n-1].ranges = append(out[n-1].ranges, c.keyRange(r))
			out[n-1].ids += span
			continue
		}
		out = append(out, window{ranges: []store.KeyRange{c.keyRange(r)}, whole: true, ids: span})
	}
	return out
}

// Missing returns, ascending, up to most of the ids list names that the
// collection has no row for (a collection keyed by one id). It counts
// rows in ranges rather than reading them: each round trip halves the
// ranges that lack rows, keeping only the first most of them, so a list
// of a million ids costs about twenty round trips of at most 2×most
// counts, however many rows the collection holds.
func (c *Collection[T]) Missing(ctx context.Context, ws string, list model.IDList, most int) ([]int64, error) {
	pending := list.Ranges
	var missing []int64
	for len(pending) > 0 && len(missing) < most {
		qs := make([]store.CountQuery, len(pending))
		for i, r := range pending {
			qs[i] = store.CountQuery{Coll: c.k.Coll, Range: c.keyRange(r)}
		}
		counts, err := c.e.model.Count(ctx, ws, qs)
		if err != nil {
			return nil, fmt.Errorf("count %s rows: %w", c.k.Noun, err)
		}
		var short []model.IDRange
		for i, r := range pending {
			if counts[i] < r.Hi-r.Lo+1 && len(short) < most {
				short = append(short, r)
			}
		}
		pending = pending[:0:0]
		for _, r := range short {
			if r.Lo == r.Hi {
				missing = append(missing, r.Lo)
				continue
			}
			mid := r.Lo + (r.Hi-r.Lo)/2
			pending = append(pending, model.IDRange{Lo: r.Lo, Hi: mid}, model.IDRange{Lo: mid + 1, Hi: r.Hi})
		}
	}
	slices.Sort(missing)
	missing = slices.Compact(missing)
	return missing[:min(len(missing), most)], nil
}
