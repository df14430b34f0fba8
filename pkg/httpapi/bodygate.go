package httpapi

import (
	"context"
	"errors"
	"io"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/valyala/fasthttp"

	"github.com/gusset/gusset/pkg/model"
)

// The body gate bounds the memory of request bodies. Fasthttp, left to
// itself, allocates a body's declared Content-Length as soon as the headers
// arrive and then waits for the bytes: a few clients that declare 64 MiB and
// send nothing pin gigabytes, and a few real 64 MiB bulk bodies, decoded,
// take many times that. So the server streams bodies (fiber's
// StreamRequestBody) and the gate reads each one itself:
//
//   - in chunks of at most bodyChunk bytes, taking weight for a chunk from a
//     process-wide byte-weighted semaphore (Config.BodyMemory) before it
//     reads it, so memory is reserved as bytes arrive, never for what a
//     header promises;
//   - counting each byte BodyWeightFactor times, for the copies and decoded
//     values a handler makes of it, and holding the weight until the
//     handler returns;
//   - answering 503 when the semaphore has no weight for it within
//     Config.BodyWait, or at once when it would wait, holding part of a
//     body, behind an older request (see weighted): half-read bodies that
//     wait for each other would otherwise fill the budget and none would
//     finish. A refused request gives back what it held;
//   - refusing a body over the limit with a 413, whether its length is
//     declared or it comes in chunks, and a compressed body with a 415,
//     since decompressing is not bounded;
//   - dropping a client whose body arrives slower than MinBodyRate after
//     the HeaderTimeout grace.
//
// It runs before the guard, which looks at the body of non-JSON requests:
// nothing reads a body before the gate has. Its refusals, like the
// guard's, are not written to the job's error log, since it has not yet
// checked where the request comes from.

// DefaultBodyMemory is the default of Config.BodyMemory: room for one
// maximal body (DefaultBodyLimit) at its full weight, or for many
// ordinary ones.
const DefaultBodyMemory = BodyWeightFactor * DefaultBodyLimit

// BodyWeightFactor is how many times each body byte counts against
// Config.BodyMemory, for what a handler makes of a body while it holds
// it: the chunks read and the joined body, Fiber's copy (Immutable), the
// items split out of it, their decoded values and the garbage the
// collector has not reclaimed yet. Bulk creates of 1,000 to 10,000 items
// in 8 to 60 MiB bodies grew the Go heap by 3.2 to 5.3 times the body.
// (The fixed cost of 10,000 items, about 11 MB, is bounded by
// MaxBulkItems rather than by this factor.)
const BodyWeightFactor = 6

// DefaultHeaderTimeout is the default of Config.HeaderTimeout.
const DefaultHeaderTimeout = 10 * time.Second

// DefaultBodyWait is the default of Config.BodyWait.
const DefaultBodyWait = 5 * time.Second

// MinBodyRate is the slowest a body may arrive, in bytes per second, once
// the HeaderTimeout grace has passed: a 64 MiB body gets 10 s + 64 s, a
// client that declares 64 MiB and sends nothing is dropped after 10 s.
const MinBodyRate = 1 << 20

// bodyChunk is the most the gate reads (and reserves) at a time.
const bodyChunk = 64 << 10

// drainIdle is how long the gate waits for more of a refused body before
// it answers (see drain).
const drainIdle = 500 * time.Millisecond

// errYield is a waiter's answer when it must give way to an older one.
var errYield = errors.New("an older request needs the weight")

// bodyGate is the middleware that reads request bodies under the budget.
type bodyGate struct {
	api   *API
	sem   *weighted
	limit int
	wait  time.Duration
	grace time.Duration
	seq   atomic.Uint64 // orders requests by age
	held  prometheus.Gauge
}

// newBodyGate builds the gate of a for bodies up to limit bytes.
func newBodyGate(a *API, cfg Config, limit int) *bodyGate {
	budget := cfg.BodyMemory
	if budget <= 0 {
		budget = DefaultBodyMemory
	}
	if budget < int64(limit) {
		budget = int64(limit)
	}
	g := &bodyGate{api: a, sem: newWeighted(budget), limit: limit, wait: cfg.BodyWait, grace: cfg.headerTimeout(),
		held: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gusset_http_body_memory_bytes",
			Help: "Weight of the request bodies being read or handled (bytes times the decoding factor), at most BODY_MEMORY.",
		})}
	if g.wait <= 0 {
		g.wait = DefaultBodyWait
	}
	a.reg.MustRegister(g.held)
	return g
}

// headerTimeout is the HeaderTimeout in effect.
func (cfg Config) headerTimeout() time.Duration {
	if cfg.HeaderTimeout > 0 {
		return cfg.HeaderTimeout
	}
	return DefaultHeaderTimeout
}

// headerReceived gives the first bytes of a body (which the server reads
// before any handler) a fresh grace period once the headers are in.
func (g *bodyGate) headerReceived(*fasthttp.RequestHeader) fasthttp.RequestConfig {
	return fasthttp.RequestConfig{ReadTimeout: g.grace}
}

// handle is the middleware.
func (g *bodyGate) handle(c *fiber.Ctx) error {
	req := c.Request()
	declared := req.Header.ContentLength() // -1: chunked; -2: no body
	if (declared == 0 || declared < -1) || !req.IsBodyStream() {
		return c.Next()
	}
	if declared > g.limit {
		// Not drained: the client sends more than the service takes.
		return g.refuse(c, g.tooLarge(), nil)
	}
	r := &bodyRead{gate: g, conn: c.Context().Conn(), stream: req.BodyStream(), declared: declared,
		start: time.Now(), age: g.seq.Add(1)}
	defer r.release()
	if ce := req.Header.Peek(fiber.HeaderContentEncoding); len(ce) > 0 && !equalASCIIFold(ce, "identity") {
		return g.refuse(c, model.E(model.KindUnsupportedMedia,
			"Content-Encoding %s is not accepted: send the request body uncompressed", ce), r)
	}
	body, err := r.read(c.UserContext())
	if err != nil {
		var me *model.Error
		if errors.As(err, &me) && me.Kind == model.KindUnavailable {
			return g.refuse(c, err, r)
		}
		return g.refuse(c, err, nil)
	}
	req.SetBodyRaw(body)
	if declared < 0 {
		req.Header.SetContentLength(len(body))
	}
	return c.Next()
}

// tooLarge is the refusal of a body over the limit.
func (g *bodyGate) tooLarge() error {
	return model.E(model.KindTooLarge, "the request body is larger than the limit of %d bytes (MAX_BODY_BYTES): "+
		"split the data over several requests", g.limit)
}

// refuse answers err and closes the connection, whose unread body bytes
// would otherwise be taken for the next request. With r it first drains
// the rest of r's body.
func (g *bodyGate) refuse(c *fiber.Ctx, err error, r *bodyRead) error {
	if r != nil {
		r.release()
		r.drain()
	}
	c.Context().SetConnectionClose()
	resp := buildError(c, err, g.api.log)
	return c.Status(resp.Status).JSON(resp)
}

// bodyRead is the reading of one body.
type bodyRead struct {
	gate     *bodyGate
	conn     net.Conn
	stream   io.Reader
	declared int // -1 when chunked
	start    time.Time
	age      uint64
	waited   time.Duration // spent waiting for weight, not charged to the client
	held     int64         // weight taken from the semaphore
	chunks   [][]byte
	total    int
}

// read reads the whole body, taking weight as it goes.
func (r *bodyRead) read(ctx context.Context) ([]byte, error) {
	g := r.gate
	for r.declared < 0 || r.total < r.declared {
		last := len(r.chunks) - 1
		if last < 0 || len(r.chunks[last]) == cap(r.chunks[last]) {
			size := bodyChunk
			if r.declared >= 0 {
				size = min(size, r.declared-r.total)
			} else {
				// One byte past the limit tells a chunked body over it.
				size = min(size, g.limit+1-r.total)
			}
			if err := r.take(ctx, int64(size)*BodyWeightFactor); err != nil {
				return nil, err
			}
			r.chunks = append(r.chunks, make([]byte, 0, size))
			last++
		}
		buf := r.chunks[last]
		r.setDeadline(cap(buf) - len(buf))
		n, err := r.stream.Read(buf[len(buf):cap(buf)])
		r.chunks[last] = buf[:len(buf)+n]
		r.total += n
		if r.total > g.limit {
			return nil, g.tooLarge()
		}
		if errors.Is(err, io.EOF) && (r.declared < 0 || r.total == r.declared) {
			break
		}
		if err != nil {
			return nil, r.readError(err)
		}
	}
	if len(r.chunks) == 1 {
		return r.chunks[0], nil
	}
	body := make([]byte, 0, r.total)
	for _, ch := range r.chunks {
		body = append(body, ch...)
	}
	r.chunks = nil
	return body, nil
}

// due is when the body must have arrived up to want more bytes: the
// grace, then MinBodyRate, not counting the waits for weight.
func (r *bodyRead) due(want int) time.Time {
	rate := time.Duration(float64(r.total+want) / MinBodyRate * float64(time.Second))
	return r.start.Add(r.waited + r.gate.grace + rate)
}

func (r *bodyRead) setDeadline(want int) {
	if r.conn != nil {
		_ = r.conn.SetReadDeadline(r.due(want))
	}
}

// take acquires weight w, or as much of it as leaves the request within
// the whole budget, so that one maximal body always fits alone.
func (r *bodyRead) take(ctx context.Context, w int64) error {
	g := r.gate
	w = min(w, g.sem.size-r.held)
	if w <= 0 {
		return nil
	}
	if !g.sem.TryAcquire(w, r.age) {
		began := time.Now()
		wctx, cancel := context.WithTimeout(ctx, g.wait)
		err := g.sem.Acquire(wctx, w, r.age, r.held > 0)
		cancel()
		r.waited += time.Since(began)
		if err != nil {
			return model.E(model.KindUnavailable, "the server is reading too many large request bodies at once "+
				"(BODY_MEMORY, %d bytes): retry the request in a few seconds", g.sem.size)
		}
	}
	r.held += w
	g.held.Add(float64(w))
	return nil
}

// release gives back the request's weight and drops what it read.
func (r *bodyRead) release() {
	r.chunks = nil
	if r.held > 0 {
		r.gate.sem.Release(r.held)
		r.gate.held.Sub(float64(r.held))
		r.held = 0
	}
}

// drain discards the rest of a refused body of declared length, so that a
// client still sending it reads the answer rather than the reset that
// closing a connection with unread bytes sends. It stops when the client
// pauses for drainIdle, so that a client waiting for the answer gets it
// soon, and holds no weight: it keeps nothing.
func (r *bodyRead) drain() {
	if r.declared < 0 || r.conn == nil {
		return
	}
	buf := make([]byte, 16<<10)
	for r.total < r.declared {
		want := min(len(buf), r.declared-r.total)
		due := r.due(want)
		if idle := time.Now().Add(drainIdle); idle.Before(due) {
			due = idle
		}
		_ = r.conn.SetReadDeadline(due)
		n, err := r.stream.Read(buf[:want])
		r.total += n
		if err != nil {
			return
		}
	}
}

// readError explains why a body could not be read.
func (r *bodyRead) readError(err error) error {
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		return model.E(model.KindMalformed, "the request body arrived too slowly: after %s it must arrive at %d KiB/s at least",
			r.gate.grace, MinBodyRate>>10)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return model.E(model.KindMalformed, "the request body ended after %d bytes, before its declared length of %d", r.total, r.declared)
	}
	return model.E(model.KindMalformed, "the request body could not be read: %v", err)
}

// equalASCIIFold reports whether b is s, ignoring ASCII case.
func equalASCIIFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		if b[i]|0x20 != s[i]|0x20 {
			return false
		}
	}
	return true
}

// weighted is a byte-weighted semaphore whose waiters are served oldest
// request first (by age, a sequence number), so that a large body is not
// starved by a stream of small ones. It also keeps half-read bodies from
// waiting for each other: only the oldest waiter may hold weight while it
// waits. A holder that would wait behind an older request, or is waiting
// when an older one comes to wait, is told to give way (errYield) and
// gives back what it holds. Every other holder is reading or handling its
// body and will give its weight back, so the oldest waiter always gets
// its weight in the end.
type weighted struct {
	size    int64
	mu      sync.Mutex
	cur     int64
	peak    int64     // the most ever held at once, for tests
	waiters []*waiter // oldest first
}

type waiter struct {
	n       int64
	age     uint64
	holding bool
	ready   chan error // nil: granted; errYield: give way
}

func newWeighted(size int64) *weighted { return &weighted{size: size} }

// TryAcquire takes n without waiting, if it is free and no older request
// waits.
func (s *weighted) TryAcquire(n int64, age uint64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.size-s.cur >= n && (len(s.waiters) == 0 || age < s.waiters[0].age) {
		s.take(n)
		return true
	}
	return false
}

// Acquire takes n for the request of the given age, which holds weight
// already if holding, waiting until it is free or ctx ends. It fails at
// once with errYield when the request holds weight and an older one
// waits, and with an error when n exceeds the size: it could never be
// free.
func (s *weighted) Acquire(ctx context.Context, n int64, age uint64, holding bool) error {
	s.mu.Lock()
	if n > s.size {
		s.mu.Unlock()
		return errors.New("weight larger than the semaphore")
	}
	if s.size-s.cur >= n && (len(s.waiters) == 0 || age < s.waiters[0].age) {
		s.take(n)
		s.mu.Unlock()
		return nil
	}
	if holding && len(s.waiters) > 0 && s.waiters[0].age < age {
		s.mu.Unlock()
		return errYield
	}
	w := &waiter{n: n, age: age, holding: holding, ready: make(chan error, 1)}
	at, _ := slices.BinarySearchFunc(s.waiters, age, func(x *waiter, a uint64) int {
		switch {
		case x.age < a:
			return -1
		case x.age > a:
			return 1
		}
		return 0
	})
	s.waiters = slices.Insert(s.waiters, at, w)
	if at == 0 {
		// Younger waiters that hold weight would keep it from w.
		s.waiters = slices.DeleteFunc(s.waiters, func(x *waiter) bool {
			if x != w && x.holding {
				x.ready <- errYield
				return true
			}
			return false
		})
	}
	s.mu.Unlock()
	select {
	case err := <-w.ready:
		return err
	case <-ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case err := <-w.ready:
		if err == nil {
			// Granted as ctx ended: give it back.
			s.cur -= n
		}
	default:
		s.waiters = slices.DeleteFunc(s.waiters, func(x *waiter) bool { return x == w })
	}
	// w may have held up the waiters behind it.
	s.grant()
	return ctx.Err()
}

// Release gives back n taken by TryAcquire or Acquire.
func (s *weighted) Release(n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cur -= n
	if s.cur < 0 {
		panic("weighted semaphore: released more than held")
	}
	s.grant()
}

// Held is the weight taken now.
func (s *weighted) Held() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

// waiting is the number of waiters, for tests.
func (s *weighted) waiting() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.waiters)
}

// maxHeld is the most ever held at once, for tests.
func (s *weighted) maxHeld() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak
}

// take records n as taken; the caller holds mu.
func (s *weighted) take(n int64) {
	s.cur += n
	s.peak = max(s.peak, s.cur)
}

// grant wakes the waiters at the front whose weight is free; the caller
// holds mu.
func (s *weighted) grant() {
	for len(s.waiters) > 0 && s.size-s.cur >= s.waiters[0].n {
		w := s.waiters[0]
		s.take(w.n)
		s.waiters = slices.Delete(s.waiters, 0, 1)
		w.ready <- nil
	}
}
