package httpapi

import (
	"context"
	"errors"
	"io"
	"net"
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
//   - holding each client (bodyOwner: the workspace, or the remote address
//     of a request without one) to its share of the semaphore
//     (Config.BodyMemoryPerClient, half of it by default), so that a
//     client whose bodies stall holds its share, not the budget: the
//     other workspaces' bodies still find room;
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
//   - dropping a client whose body stops arriving (see bodyRead.roll):
//     its first bytes must come within HeaderTimeout, and every later
//     HeaderTimeout must bring MinBodyRate bytes a second, or the rest of
//     the body. The rate is measured per window, not since the start, so
//     that a client that sent most of a body fast cannot bank the time to
//     stall on the rest.
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

// DefaultMinBodyRate is the default of Config.MinBodyRate: 1 MiB/s, so
// each 10 s window (DefaultHeaderTimeout) after the first must bring
// 10 MiB of a body, or its rest.
const DefaultMinBodyRate = 1 << 20

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
	grace time.Duration // HeaderTimeout: the length of a rate window
	rate  int           // MinBodyRate
	keys  bool          // requests name workspaces (API keys are on)
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
	g := &bodyGate{api: a, sem: newWeighted(budget, cfg.bodyShare(budget, limit)), limit: limit, wait: cfg.BodyWait,
		grace: cfg.headerTimeout(), rate: cfg.MinBodyRate, keys: cfg.Auth != nil,
		held: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "gusset_http_body_memory_bytes",
			Help: "Weight of the request bodies being read or handled (bytes times the decoding factor), at most BODY_MEMORY.",
		})}
	if g.wait <= 0 {
		g.wait = DefaultBodyWait
	}
	if g.rate <= 0 {
		g.rate = DefaultMinBodyRate
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

// bodyShare is the most one client may hold of a budget for bodies up
// to limit bytes: BodyMemoryPerClient, half the budget by default, at
// least limit (the largest body fits) and at most the budget.
func (cfg Config) bodyShare(budget int64, limit int) int64 {
	share := cfg.BodyMemoryPerClient
	if share <= 0 {
		share = budget / 2
	}
	return min(max(share, int64(limit)), budget)
}

// bodyOwner names the client a request's body counts against: its
// workspace when API keys are on and it carries one, else its remote
// address (open mode, where every request is in the one workspace, and
// the routes that need no key). Fiber's IP is the connection's peer, not
// a header a client could set.
func (g *bodyGate) bodyOwner(c *fiber.Ctx) string {
	if ws, ok := c.Locals(localWorkspace).(string); ok && g.keys && ws != "" {
		return "workspace " + ws
	}
	return "address " + c.IP()
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
	r := newBodyRead(g, c.Context().Conn(), req.BodyStream(), declared, g.bodyOwner(c))
	if onSGPath(c) {
		r.weight += sgCopyWeight
	}
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
	declared int    // -1 when chunked
	owner    string // the client it counts against (bodyOwner)
	age      uint64
	held     int64 // weight taken from the semaphore
	// weight is how many times each byte counts: BodyWeightFactor, and
	// sgCopyWeight more on the SDK's base path, whose handler holds a
	// renamed copy of the body beside it (sgserve.go).
	weight int64
	chunks [][]byte
	total  int
	// The rate window: by winEnd the body must bring winNeed more bytes.
	// The clock stops while the request waits for weight, which is not
	// the client's doing.
	winEnd  time.Time
	winNeed int
}

// newBodyRead starts the reading of a body of declared length (-1:
// chunked) from stream. Its first window asks for one byte: the grace
// for a client to start sending.
func newBodyRead(g *bodyGate, conn net.Conn, stream io.Reader, declared int, owner string) *bodyRead {
	return &bodyRead{gate: g, conn: conn, stream: stream, declared: declared, owner: owner, age: g.seq.Add(1),
		weight: BodyWeightFactor, winEnd: time.Now().Add(g.grace), winNeed: 1}
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
			if err := r.take(ctx, int64(size)*r.weight); err != nil {
				return nil, err
			}
			r.chunks = append(r.chunks, make([]byte, 0, size))
			last++
		}
		buf := r.chunks[last]
		r.setDeadline()
		n, err := r.stream.Read(buf[len(buf):cap(buf)])
		r.arrived(n)
		r.chunks[last] = buf[:len(buf)+n]
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

// roll moves on to the window that holds now once the current one has
// brought its bytes. Each window after the first must bring MinBodyRate
// times its length, or the rest of a body of declared length.
func (r *bodyRead) roll(now time.Time) {
	g := r.gate
	for r.winNeed <= 0 && !now.Before(r.winEnd) {
		r.winEnd = r.winEnd.Add(g.grace)
		r.winNeed = int(float64(g.rate) * g.grace.Seconds())
		if r.declared >= 0 {
			r.winNeed = min(r.winNeed, r.declared-r.total)
		}
		r.winNeed = max(r.winNeed, 1)
	}
}

// deadline is when the body has not arrived fast enough unless more of
// it comes: the end of the window if it still needs bytes, else the end
// of the next one, which will.
func (r *bodyRead) deadline() time.Time {
	r.roll(time.Now())
	if r.winNeed > 0 {
		return r.winEnd
	}
	return r.winEnd.Add(r.gate.grace)
}

// arrived counts n bytes read now against the window they came in.
func (r *bodyRead) arrived(n int) {
	if n <= 0 {
		return
	}
	r.roll(time.Now())
	r.winNeed -= n
	r.total += n
}

func (r *bodyRead) setDeadline() {
	if r.conn != nil {
		_ = r.conn.SetReadDeadline(r.deadline())
	}
}

// take acquires weight w, or as much of it as leaves the request within
// its client's share, so that one maximal body always fits alone.
func (r *bodyRead) take(ctx context.Context, w int64) error {
	g := r.gate
	w = min(w, g.sem.share-r.held)
	if w <= 0 {
		return nil
	}
	if !g.sem.TryAcquire(w, r.age, r.owner) {
		began := time.Now()
		wctx, cancel := context.WithTimeout(ctx, g.wait)
		err := g.sem.Acquire(wctx, w, r.age, r.owner, r.held > 0)
		cancel()
		r.winEnd = r.winEnd.Add(time.Since(began))
		if err != nil {
			if g.sem.heldBy(r.owner)+w > g.sem.share {
				return model.E(model.KindUnavailable, "this workspace's (or, without an API key, this address's) other "+
					"requests hold its share of the memory for request bodies (BODY_MEMORY_PER_CLIENT, %d bytes): "+
					"send large bodies one after another, or retry the request in a few seconds", g.sem.share)
			}
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
		r.gate.sem.Release(r.owner, r.held)
		r.gate.held.Sub(float64(r.held))
		r.held = 0
	}
}

// drain discards the rest of a refused body of declared length, so that a
// client still sending it reads the answer rather than the reset that
// closing a connection with unread bytes sends. It stops when the client
// pauses for drainIdle, so that a client waiting for the answer gets it
// soon, or falls behind the rate, and holds no weight: it keeps nothing.
func (r *bodyRead) drain() {
	if r.declared < 0 || r.conn == nil {
		return
	}
	buf := make([]byte, 16<<10)
	for r.total < r.declared {
		want := min(len(buf), r.declared-r.total)
		due := r.deadline()
		if idle := time.Now().Add(drainIdle); idle.Before(due) {
			due = idle
		}
		_ = r.conn.SetReadDeadline(due)
		n, err := r.stream.Read(buf[:want])
		r.arrived(n)
		if err != nil {
			return
		}
	}
}

// readError explains why a body could not be read.
func (r *bodyRead) readError(err error) error {
	var ne net.Error
	g := r.gate
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		return model.E(model.KindMalformed, "the request body arrived too slowly: its first bytes must come within %s, "+
			"and every %s after that must bring %d bytes (BODY_MIN_RATE, %d bytes/s) or the rest of the body",
			g.grace, g.grace, int(float64(g.rate)*g.grace.Seconds()), g.rate)
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
