package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/analysis/query"
	"github.com/gusset/gusset/pkg/model"
)

// A result query or a model list answers every row when it has no limit,
// and a non-linear run of a thousand steps has millions. Its answer is
// therefore encoded as it is read and written through the response's
// body stream: the api holds a batch of rows and a buffer, whatever the
// size of the answer. The bytes are those one json.Marshal of the whole
// answer gave (a result query's {"results":[row,...],"warnings":{...}},
// a list's [row,...]).
//
// Until commitBytes of the answer are encoded (for a result query, its
// first segment, see below) nothing is sent, so that a query that fails
// early (a bad filter, no results, a value that JSON cannot carry) still
// answers its 4xx, and a small answer goes out whole with a
// Content-Length as before. Past it the status is 200 and the rest
// follows chunked, each part within the write timeout of the one before
// (rather than the whole answer within it), the whole within
// streamLimit; a failure after that (the results replaced by a run,
// Redis gone) can only cut the answer short: the connection closes
// without the last chunk, so the client sees an incomplete body, never a
// complete-looking one.

// DefaultMaxResponseRows is the most rows one answer of a result query
// or a model list holds by default (MAX_RESPONSE_ROWS). Streaming makes
// the api's memory independent of it; it bounds the work and the time of
// one request and what a client must take in at once: a million rows is
// the whole answer of node displacements for 100,000 nodes × 10 cases
// (about 150 MB of JSON), and of 1,000 steps over 1,000 members of a
// station query (about 1.5 GB, some minutes to encode and send). Larger
// answers are read in pages.
const DefaultMaxResponseRows = 1_000_000

// limitDescription documents the limit parameter of the result queries
// and the model lists.
const limitDescription = "rows to return, 1 to 2147483647 (default all). One answer holds at most MAX_RESPONSE_ROWS rows " +
	"(default 1000000): a request whose page would hold more (no limit, or a limit past it) is a 400 VALIDATION_FAILED " +
	"naming MAX_RESPONSE_ROWS and its value, answered before any row; read such an answer in pages with offset and limit."

// commitBytes is how much of an answer is encoded before the status is
// sent (see above).
const commitBytes = 1 << 20

// streamLimit bounds the time one streamed answer may take.
const streamLimit = 30 * time.Minute

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

// outcome is what the producer of an answer tells the handler once: its
// error, or the headers of its status 200 with either the whole body
// (body != nil) or the stream that carries it.
type outcome struct {
	err     error
	headers func(c *fiber.Ctx)
	body    []byte
}

// jsonStream writes one JSON answer whose bulk is an array of items, as
// it is produced (see above).
type jsonStream struct {
	buf     bytes.Buffer
	enc     *json.Encoder
	headers func(c *fiber.Ctx)
	items   int64
	// out receives the outcome; committed once it has been sent with the
	// stream, after which the output goes to pipe.
	out       chan outcome
	committed bool
	// started is committed for the timer of the request timeout, which
	// bounds the work before the answer starts.
	started atomic.Bool
	pipe    *io.PipeWriter
	// conn is the connection the answer goes out on: each part sent
	// gives it a new write deadline.
	conn net.Conn
}

// stream answers c with what produce writes to a jsonStream. produce
// runs on after the handler returns, while the connection takes the
// answer, with a context of its own: it ends after the request timeout
// when the answer has not started by then, and after streamLimit in
// any case. What reaches the log when an answer is cut short names what.
func (a *API) stream(c *fiber.Ctx, what string, produce func(ctx context.Context, s *jsonStream) error) error {
	s := &jsonStream{out: make(chan outcome, 1), conn: c.Context().Conn()}
	s.enc = json.NewEncoder(&s.buf)
	pr, pw := io.Pipe()
	s.pipe = pw
	ws := workspace(c)
	ctx, cancel := context.WithTimeout(context.Background(), streamLimit)
	timer := time.AfterFunc(a.timeout, func() {
		if !s.started.Load() {
			cancel()
		}
	})
	go func() {
		defer cancel()
		defer timer.Stop()
		err := s.run(ctx, what, produce)
		if !s.committed {
			s.out <- outcome{err: err, headers: s.headers, body: s.buf.Bytes()}
			pw.Close()
			return
		}
		switch {
		case errors.Is(err, io.ErrClosedPipe):
			// The connection let go of it: the client left, or took
			// longer than the write timeout over a part.
			a.log.Info("answer not taken to its end", "answer", what, "workspace", ws, "items", s.items)
		case err != nil:
			a.log.Error("answer cut short", "answer", what, "workspace", ws, "items", s.items, "err", err)
		}
		_ = pw.CloseWithError(err)
	}()
	o := <-s.out
	if o.err != nil {
		_ = pr.Close()
		return o.err
	}
	o.headers(c)
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	if o.body != nil {
		return c.Send(o.body)
	}
	c.Response().SetBodyStream(answerStream(c, pr), -1)
	return nil
}

// run runs produce and sends what it left. A panic is an error here: no
// handler's recovery reaches this goroutine.
func (s *jsonStream) run(ctx context.Context, what string, produce func(ctx context.Context, s *jsonStream) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic in %s: %v", what, r)
		}
	}()
	if err := produce(ctx, s); err != nil {
		return err
	}
	if s.headers == nil {
		return fmt.Errorf("%s answered nothing", what)
	}
	if !s.committed {
		return nil
	}
	return s.flush()
}

// begin starts the answer: headers are those of its 200, prefix the
// JSON before the items.
func (s *jsonStream) begin(headers func(c *fiber.Ctx), prefix string) {
	s.headers = headers
	s.buf.WriteString(prefix)
}

// item adds one item of the array.
func (s *jsonStream) item(v any) error {
	if s.items > 0 {
		s.buf.WriteByte(',')
	}
	s.items++
	return s.encode(v)
}

// end adds the JSON after the items: text, then v encoded unless nil,
// then close.
func (s *jsonStream) end(text string, v any, close string) error {
	s.buf.WriteString(text)
	if v != nil {
		if err := s.encode(v); err != nil {
			return err
		}
	}
	s.buf.WriteString(close)
	return nil
}

// jsonMark is a point of a jsonStream's output not sent yet.
type jsonMark struct{ bytes, items int64 }

// markOf returns the point the output has reached.
func (s *jsonStream) markOf() jsonMark { return jsonMark{int64(s.buf.Len()), s.items} }

// truncate drops the output after m, which must not be sent yet; at the
// very start it also drops the headers begin set.
func (s *jsonStream) truncate(m jsonMark) {
	s.buf.Truncate(int(m.bytes))
	s.items = m.items
	if m == (jsonMark{}) {
		s.headers = nil
	}
}

// send commits the answer once commitBytes are encoded, and then hands
// on everything encoded.
func (s *jsonStream) send() error {
	if !s.committed && s.buf.Len() < commitBytes {
		return nil
	}
	if !s.committed {
		s.committed = true
		s.started.Store(true)
		s.out <- outcome{headers: s.headers}
	}
	return s.flush()
}

// sent is called after a batch of items: it commits the answer once
// commitBytes are encoded and then hands the output on every flushBytes.
func (s *jsonStream) sent() error {
	switch {
	case !s.committed && s.buf.Len() >= commitBytes:
		s.committed = true
		s.started.Store(true)
		s.out <- outcome{headers: s.headers}
		return s.flush()
	case s.committed && s.buf.Len() >= flushBytes:
		return s.flush()
	}
	return nil
}

// restart drops the answer so far, when none of it is sent; once it is,
// the answer cannot start again.
func (s *jsonStream) restart() error {
	if s.committed {
		return query.ErrResultsChanged
	}
	s.buf.Reset()
	s.headers, s.items = nil, 0
	return nil
}

// encode appends v's JSON, as json.Marshal writes it, to the buffer.
func (s *jsonStream) encode(v any) error {
	if err := s.enc.Encode(v); err != nil {
		return err
	}
	s.buf.Truncate(s.buf.Len() - 1) // the Encoder's newline
	return nil
}

// flush hands the encoded output to the connection; it blocks until the
// connection has taken it, and fails once the connection is gone. The
// client has the write timeout to take each part, so a large answer is
// not cut for its size and a stalled client still lets go.
func (s *jsonStream) flush() error {
	if s.conn != nil {
		_ = s.conn.SetWriteDeadline(time.Now().Add(responseWriteTimeout))
	}
	_, err := s.pipe.Write(s.buf.Bytes())
	s.buf.Reset()
	return err
}
