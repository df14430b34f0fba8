package query

import (
	"errors"
	"fmt"
	"hash/fnv"

	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/model"
)

// Queries hand their rows to a Sink as they read them rather than
// building the page whole: a query with no limit answers every row, and
// a non-linear run of 1000 steps has millions, so only streaming keeps
// the cost of an answer of any size bounded (BatchRows rows and the
// stored columns of a few cases at a time).

// Head is what an answer states before its rows.
type Head struct {
	// Total is the number of rows the filter matches, over all pages.
	Total int64
	// Rows is the number of rows of the page, which follow.
	Rows     int64
	Warnings model.ResultsWarnings
	// Set identifies the set of results the rows come from (a digest of
	// its meta record), so that a caller reading an answer in several
	// queries knows they read the same set; empty when unknown.
	Set string
}

// Sink receives the answer of a query as the query reads it: Begin once,
// after every check that can refuse the query, then the rows of the page
// in order, a batch at a time. An error from the sink stops the query,
// which returns it. The query reuses a batch once Rows returns.
type Sink[T any] interface {
	Begin(Head) error
	Rows(rows []T) error
	// Restart is called when the query reads again from the start after
	// Begin (the results changed under it, Results.View): a sink that
	// kept what it got drops it; one that has passed rows on cannot take
	// them back and returns an error (ErrResultsChanged).
	Restart() error
}

// BatchRows is how many rows a query hands its sink at once and, for
// the rows derived at query time (the stations of members), how many it
// derives at once: a station row is about 2 KB of JSON, so a batch stays
// near half a megabyte.
const BatchRows = 256

// ErrResultsChanged is a sink's answer to Restart once rows are sent: a
// run published new results, or a model change cleared them, while the
// answer was being sent, and the rows sent cannot be mixed with others.
var ErrResultsChanged = errors.New("the results changed while they were being sent (a run published, or the model changed): ask again")

// Stream hands the rows of one query to its sink in batches of
// BatchRows.
type Stream[T any] struct {
	sink  Sink[T]
	f     Filter
	buf   []T
	begun bool
	set   string
}

// NewStream returns the stream of the page f selects into sink.
func NewStream[T any](sink Sink[T], f Filter) *Stream[T] {
	return &Stream[T]{sink: sink, f: f}
}

// Start marks the start of a read of the results whose meta record is
// meta: the first, or another after the results changed (Sink.Restart).
func (s *Stream[T]) Start(meta []byte) error {
	s.set = ""
	if meta != nil {
		h := fnv.New64a()
		h.Write(meta)
		s.set = fmt.Sprintf("%016x", h.Sum64())
	}
	clear(s.buf)
	s.buf = s.buf[:0]
	if !s.begun {
		return nil
	}
	s.begun = false
	return s.sink.Restart()
}

// Begin states the answer: total rows match, and the page of the filter
// follows.
func (s *Stream[T]) Begin(total int64, w model.ResultsWarnings) error {
	lo, hi := PageOf(total, s.f.Offset, s.f.Limit)
	s.begun = true
	return s.sink.Begin(Head{Total: total, Rows: hi - lo, Warnings: w, Set: s.set})
}

// Add queues the next row of the page.
func (s *Stream[T]) Add(row T) error {
	s.buf = append(s.buf, row)
	if len(s.buf) < BatchRows {
		return nil
	}
	return s.Flush()
}

// Flush hands the queued rows to the sink.
func (s *Stream[T]) Flush() error {
	if len(s.buf) == 0 {
		return nil
	}
	err := s.sink.Rows(s.buf)
	clear(s.buf) // let the rows' arrays go
	s.buf = s.buf[:0]
	return err
}

// SendPage hands a page built whole to sink: the form of the queries
// whose answers are small enough to build (a kind's own, see
// analysis.NewResultQuery).
func SendPage[T any](sink Sink[T], p Page[T]) error {
	if err := sink.Begin(Head{Total: p.Total, Rows: int64(len(p.Rows)), Warnings: p.Warnings}); err != nil {
		return err
	}
	for lo := 0; lo < len(p.Rows); lo += BatchRows {
		if err := sink.Rows(p.Rows[lo:min(lo+BatchRows, len(p.Rows))]); err != nil {
			return err
		}
	}
	return nil
}

// Collect runs a streamed query and returns its answer as one page, for
// callers that want the rows themselves (tests, small answers).
func Collect[T any](run func(Sink[T]) error) (Page[T], error) {
	c := &collector[T]{}
	err := run(c)
	return c.p, err
}

// collector is the Sink of Collect.
type collector[T any] struct{ p Page[T] }

func (c *collector[T]) Begin(h Head) error {
	c.p = Page[T]{Total: h.Total, Warnings: h.Warnings, Rows: make([]T, 0, min(h.Rows, BatchRows))}
	return nil
}

func (c *collector[T]) Rows(rows []T) error {
	c.p.Rows = append(c.p.Rows, rows...)
	return nil
}

func (c *collector[T]) Restart() error {
	c.p = Page[T]{}
	return nil
}

// GridBatches walks the page f selects of a cases × nItems grid of rows
// (rows by case, then item) a few cases at a time: fn gets the cases
// [c0, c1) next reached, about BatchRows rows of the grid (at least one
// case), and the rows [k0, k1) of the page among them (row k is case
// k / nItems, item k % nItems).
func GridBatches(nCases, nItems int, f Filter, fn func(c0, c1 int, k0, k1 int64) error) error {
	if nItems == 0 {
		return nil
	}
	n := int64(nItems)
	lo, hi := PageOf(int64(nCases)*n, f.Offset, f.Limit)
	per := int64(max(1, BatchRows/nItems))
	for k := lo; k < hi; {
		c0 := k / n
		c1 := min(c0+per, (hi-1)/n+1)
		end := min(hi, c1*n)
		if err := fn(int(c0), int(c1), k, end); err != nil {
			return err
		}
		k = end
	}
	return nil
}

// GridCases is GridBatches with each row apart: read gets the cases
// [c0, c1) next reached, then emit each kept (case, item) of them, in
// order.
func GridCases(nCases, nItems int, f Filter, read func(c0, c1 int) error, emit func(c, i int) error) error {
	n := int64(nItems)
	return GridBatches(nCases, nItems, f, func(c0, c1 int, k0, k1 int64) error {
		if err := read(c0, c1); err != nil {
			return err
		}
		for k := k0; k < k1; k++ {
			if err := emit(int(k/n), int(k%n)); err != nil {
				return err
			}
		}
		return nil
	})
}

// GridColumn walks the page f selects of the rows of column c over
// cases × nItems, rows by case and then item, reading the columns of
// about BatchRows rows at a time (GridCases): emit gets each kept (case
// index, item index) with the case's column.
func GridColumn[R columns.Row](cols ColumnReader, cases []int64, c columns.Column[R], nItems int, f Filter,
	emit func(ci, i int, col []R) error) error {
	var read [][]R
	var first int
	return GridCases(len(cases), nItems, f, func(c0, c1 int) (err error) {
		first = c0
		read, err = ReadCaseRows(cols, cases[c0:c1], c)
		return err
	}, func(ci, i int) error { return emit(ci, i, read[ci-first]) })
}

// GridRows walks the page f selects of a cases × nItems grid in runs of
// at most BatchRows rows: fn gets the rows [k0, k1) of the grid (row k
// is case k / nItems, item k % nItems).
func GridRows(nCases, nItems int, f Filter, fn func(k0, k1 int64) error) error {
	lo, hi := PageOf(int64(nCases)*int64(nItems), f.Offset, f.Limit)
	for k := lo; k < hi; k += BatchRows {
		if err := fn(k, min(hi, k+BatchRows)); err != nil {
			return err
		}
	}
	return nil
}
