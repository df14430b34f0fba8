package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/analysis/query"
	"github.com/gusset/gusset/pkg/model"
)

// A result query answers every row when it has no limit, and a
// non-linear run of a thousand steps has millions. Its answer is
// therefore encoded as the query reads it and written through the
// response's body stream: the api holds a batch of rows and a buffer,
// whatever the size of the answer. The bytes are those one json.Marshal
// of the whole envelope gave: {"results":[row,...],"warnings":{...}}.
//
// Until commitBytes of the answer are encoded nothing is sent, so that
// a query that fails early (a bad filter, no results, a value that JSON
// cannot carry) still answers its 4xx, and a small answer goes out whole
// with a Content-Length as before. Past it the status is 200 and the rest
// follows chunked; a failure after that (the results replaced by a run,
// Redis gone) can only cut the answer short: the connection closes
// without the last chunk, so the client sees an incomplete body, never a
// complete-looking one.

// DefaultMaxResponseRows is the most rows one answer of a result query
// or a model list holds by default (MAX_RESPONSE_ROWS). Streaming makes
// the api's memory independent of it; it bounds the work and the time of
// one request and what a client must take in at once: a million rows is
// the whole answer of node displacements for 100,000 nodes × 10 cases
// (about 150 MB of JSON), and of 1,000 steps over 1,000 members of a
// station query (about 2 GB), the largest a client can read within the
// write timeout on a good link. Larger answers are read in pages.
const DefaultMaxResponseRows = 1_000_000

// limitDescription documents the limit parameter of the result queries
// and the model lists.
const limitDescription = "rows to return, 1 to 2147483647 (default all). One answer holds at most MAX_RESPONSE_ROWS rows " +
	"(default 1000000): a request whose page would hold more (no limit, or a limit past it) is a 400 VALIDATION_FAILED " +
	"naming MAX_RESPONSE_ROWS and its value, answered before any row; read such an answer in pages with offset and limit."

// commitBytes is how much of an answer is encoded before the status is
// sent (see above).
const commitBytes = 1 << 20

// flushBytes is how much encoded output is gathered before it is handed
// to the connection once the answer is committed.
const flushBytes = 64 << 10

// tooManyRows is the refusal of an answer of rows rows (-1: more than
// max, not counted) over the row limit max.
func tooManyRows(rows, max int64) error {
	n := fmt.Sprintf("%d", rows)
	if rows < 0 {
		n = fmt.Sprintf("more than %d", max)
	}
	return model.Invalid("limit", "this answer would hold %s rows; one response holds at most %d (MAX_RESPONSE_ROWS=%d): "+
		"read it in pages with offset and limit (limit at most %d)", n, max, max, max)
}

// checkRows refuses a page of rows rows over the limit.
func (a *API) checkRows(rows int64) error {
	if rows > a.maxRows {
		return tooManyRows(rows, a.maxRows)
	}
	return nil
}

// outcome is what the producer of an answer tells the handler once: the
// query's error, or its head with either the whole body (body != nil) or
// the stream that carries it.
type outcome struct {
	err  error
	head query.Head
	body []byte
}

// resultStream is the analysis.AnySink that encodes an answer.
type resultStream struct {
	api   *API
	units model.Units
	head  query.Head
	begun bool
	rows  int64
	buf   bytes.Buffer
	enc   *json.Encoder
	// out receives the outcome; committed once it has been sent with the
	// stream, after which the output goes to pipe.
	out       chan outcome
	committed bool
	pipe      *io.PipeWriter
}

var _ analysis.AnySink = (*resultStream)(nil)

// answerResults answers the result query rq in the job units u.
func (a *API) answerResults(c *fiber.Ctx, rq analysis.ResultQuery, ws string, flt query.Filter, u model.Units) error {
	s := &resultStream{api: a, units: u, out: make(chan outcome, 1)}
	s.enc = json.NewEncoder(&s.buf)
	pr, pw := io.Pipe()
	s.pipe = pw
	// The query outlives the handler: it goes on while the connection
	// reads the answer, for as long as the server lets a response take.
	ctx, cancel := context.WithTimeout(context.Background(), responseWriteTimeout)
	go func() {
		defer cancel()
		err := s.produce(ctx, rq, ws, flt)
		if !s.committed {
			s.out <- outcome{err: err, head: s.head, body: s.buf.Bytes()}
			pw.Close()
			return
		}
		if err != nil {
			a.log.Error("result answer cut short", "query", rq.Name, "workspace", ws, "rows", s.rows, "err", err)
		}
		_ = pw.CloseWithError(err)
	}()
	o := <-s.out
	if o.err != nil {
		_ = pr.Close()
		return o.err
	}
	setPaging(c, o.head.Total, flt.Offset, flt.Limit, flt.Limit >= 0 && flt.Offset+flt.Limit < o.head.Total)
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	if o.body != nil {
		return c.Send(o.body)
	}
	c.Response().SetBodyStream(pr, -1)
	return nil
}

// produce runs the query into s and ends the answer. A panic is an
// error here: no handler's recovery reaches this goroutine.
func (s *resultStream) produce(ctx context.Context, rq analysis.ResultQuery, ws string, flt query.Filter) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic in result query %s: %v", rq.Name, r)
		}
	}()
	if err := rq.Stream(s.api.query, ctx, ws, flt, s); err != nil {
		return err
	}
	if !s.begun {
		return fmt.Errorf("result query %s answered nothing", rq.Name)
	}
	w := s.head.Warnings
	if w.ModesNotAnalyzed == nil {
		w.ModesNotAnalyzed = []model.ModesNotFound{}
	}
	s.buf.WriteString(`],"warnings":`)
	if err := s.encode(w); err != nil {
		return err
	}
	s.buf.WriteByte('}')
	if !s.committed {
		return nil
	}
	return s.flush()
}

// Begin implements analysis.AnySink: it refuses an answer over the row
// limit before a byte of it.
func (s *resultStream) Begin(h query.Head) error {
	if err := s.api.checkRows(h.Rows); err != nil {
		return err
	}
	s.head, s.begun = h, true
	s.buf.WriteString(`{"results":[`)
	return nil
}

// Rows implements analysis.AnySink: rows is a []Row, converted to the
// job units in place and encoded.
func (s *resultStream) Rows(rows any) error {
	scaleRows(rows, s.units)
	rv := reflect.ValueOf(rows)
	for i := range rv.Len() {
		if s.rows > 0 {
			s.buf.WriteByte(',')
		}
		s.rows++
		if err := s.encode(rv.Index(i).Addr().Interface()); err != nil {
			return err
		}
	}
	switch {
	case !s.committed && s.buf.Len() >= commitBytes:
		s.committed = true
		s.out <- outcome{head: s.head}
		return s.flush()
	case s.committed && s.buf.Len() >= flushBytes:
		return s.flush()
	}
	return nil
}

// Restart implements analysis.AnySink: an answer not sent yet starts
// again; one whose status is sent cannot.
func (s *resultStream) Restart() error {
	if s.committed {
		return query.ErrResultsChanged
	}
	s.buf.Reset()
	s.begun, s.rows, s.head = false, 0, query.Head{}
	return nil
}

// encode appends v's JSON, as json.Marshal writes it, to the buffer.
func (s *resultStream) encode(v any) error {
	if err := s.enc.Encode(v); err != nil {
		return err
	}
	s.buf.Truncate(s.buf.Len() - 1) // the Encoder's newline
	return nil
}

// flush hands the encoded output to the connection; it blocks until the
// connection has taken it, and fails once the connection is gone.
func (s *resultStream) flush() error {
	_, err := s.pipe.Write(s.buf.Bytes())
	s.buf.Reset()
	return err
}
