package httpapi

import (
	"context"
	"errors"
	"reflect"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/analysis/query"
	"github.com/gusset/gusset/pkg/model"
)

// A result query reads its rows inside one consistent read of the
// results (Results.View), which holds a Redis connection. The answer is
// therefore read in segments: a query from where the last one ended,
// stopped once it has encoded segmentBytes (errSegmentFull), whose
// output is held, then handed to the connection with no Redis
// connection held while the client takes it.
// Every segment must come from the same set of results (query.Head.Set)
// with the same total: when a run replaced them in between, an answer
// not started reads again from its start, and one started breaks off.

// segmentBytes is the JSON one segment of a result answer aims at.
const segmentBytes = 4 << 20

// errSegmentFull stops the query of a segment that has encoded
// segmentBytes: what it sent is one consistent part of the answer.
var errSegmentFull = errors.New("segment full")

// maxAnswerRestarts bounds how many times an answer not started reads
// again from its start because the results changed under it.
const maxAnswerRestarts = 5

// errSetChanged tells resultSink.run that a segment came from another set
// of results than the segments before it.
var errSetChanged = errors.New("another set of results")

// resultSink is the analysis.AnySink of a result query's answer.
type resultSink struct {
	api   *API
	s     *jsonStream
	units model.Units
	flt   query.Filter
	// head is the first segment's; end the end of the page, once known.
	head *query.Head
	end  int64
	// mark is the output before the current segment, to drop it when the
	// segment reads again.
	mark jsonMark
}

var _ analysis.AnySink = (*resultSink)(nil)

// answerResults answers the result query rq in the job units u.
func (a *API) answerResults(c *fiber.Ctx, rq analysis.ResultQuery, ws string, flt query.Filter, u model.Units) error {
	return a.stream(c, "result query "+rq.Name, func(ctx context.Context, s *jsonStream) error {
		r := &resultSink{api: a, s: s, units: u, flt: flt}
		return r.run(ctx, rq, ws)
	})
}

// run reads the answer segment by segment and sends each.
func (r *resultSink) run(ctx context.Context, rq analysis.ResultQuery, ws string) error {
	pos := r.flt.Offset
	for restarts := 0; ; {
		f := r.flt
		f.Offset = pos
		if r.head != nil {
			f.Limit = r.end - pos
		}
		r.mark = r.s.markOf()
		err := rq.Stream(r.api.query, ctx, ws, f, r)
		if errors.Is(err, errSegmentFull) {
			err = nil
		}
		if err == nil && r.head == nil {
			return nil // the stream reports that the query answered nothing
		}
		rows := r.s.items - r.mark.items
		if err == nil && rows == 0 && pos < r.end {
			err = errSetChanged // the page ends sooner than its total said
		}
		if errors.Is(err, errSetChanged) {
			if r.s.committed {
				return query.ErrResultsChanged
			}
			if restarts++; restarts > maxAnswerRestarts {
				return model.E(model.KindUnavailable, "the results kept changing while this answer was read (runs publishing): ask again")
			}
			if err := r.s.restart(); err != nil {
				return err
			}
			r.head, pos = nil, r.flt.Offset
			continue
		}
		if err != nil {
			return err
		}
		if pos += rows; pos >= r.end {
			w := r.head.Warnings
			if w.ModesNotAnalyzed == nil {
				w.ModesNotAnalyzed = []model.ModesNotFound{}
			}
			return r.s.end(`],"warnings":`, w, "}")
		}
		if err := r.s.send(); err != nil {
			return err
		}
	}
}

// Begin implements analysis.AnySink: the first segment's refuses an
// answer over the row limit before a byte of it; the others must be of
// the same results.
func (r *resultSink) Begin(h query.Head) error {
	if r.head != nil {
		if h.Set != r.head.Set || h.Total != r.head.Total {
			return errSetChanged
		}
		return nil
	}
	f := r.flt
	lo, hi := query.PageOf(h.Total, f.Offset, f.Limit)
	if err := r.api.checkRows(hi - lo); err != nil {
		return err
	}
	r.head, r.end = &h, hi
	r.s.begin(func(c *fiber.Ctx) {
		setPaging(c, h.Total, f.Offset, f.Limit, f.Limit >= 0 && f.Offset+f.Limit < h.Total)
	}, `{"results":[`)
	return nil
}

// Rows implements analysis.AnySink: rows is a []Row, converted to the
// job units in place and encoded.
func (r *resultSink) Rows(rows any) error {
	scaleRows(rows, r.units)
	rv := reflect.ValueOf(rows)
	for i := range rv.Len() {
		if err := r.s.item(rv.Index(i).Addr().Interface()); err != nil {
			return err
		}
	}
	if int64(r.s.buf.Len())-r.mark.bytes >= segmentBytes {
		return errSegmentFull
	}
	return nil
}

// Restart implements analysis.AnySink: the segment reads again, its
// output so far dropped (it is held until the segment ends).
func (r *resultSink) Restart() error {
	if r.mark.items == 0 && r.mark.bytes == 0 {
		r.head = nil
	}
	r.s.truncate(r.mark)
	return nil
}
