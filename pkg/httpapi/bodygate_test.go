package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/session"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// gateEnv is an API over real TCP (streaming and read deadlines need a
// real connection), backed by its own redis-server. These tests sit in
// the package to see the gate's semaphore.
type gateEnv struct {
	t       *testing.T
	api     *API
	addr    string
	headers atomic.Int64 // requests whose headers the server has read
}

func newGateEnv(t *testing.T, cfg Config) *gateEnv {
	t.Helper()
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	dir, err := jobfile.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	jobs := redisstore.NewJobs(rdb, editor.Collections())
	mod := redisstore.NewModel(rdb)
	ed := editor.New(mod, jobs)
	sess := session.New(jobs, dir, session.Options{Log: quiet, CheckModel: ed.CheckSnapshot})
	ed.Touched = sess.Touched
	st := editor.NewStructure(ed)
	cfg.Session, cfg.Model, cfg.Structure, cfg.Loads, cfg.Ready, cfg.Log = sess, mod, st, editor.NewLoads(ed, st), jobs.Ping, quiet
	e := &gateEnv{t: t, api: New(cfg)}
	fs := e.api.App().Server()
	inner := fs.HeaderReceived
	fs.HeaderReceived = func(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
		e.headers.Add(1)
		if inner == nil {
			return fasthttp.RequestConfig{}
		}
		return inner(h)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = e.api.App().Listener(ln) }()
	t.Cleanup(func() {
		_ = e.api.App().ShutdownWithTimeout(5 * time.Second)
		sess.Flush()
	})
	e.addr = ln.Addr().String()
	return e
}

// sem is the semaphore of the API's body gate.
func (e *gateEnv) sem() *weighted {
	return e.api.gate.sem
}

// send makes one request over a fresh connection.
func (e *gateEnv) send(method, path, contentType string, body []byte) (int, []byte) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, "http://"+e.addr+apiPrefix+path, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return res.StatusCode, b
}

// must sends the request and fails unless the status is 2xx.
func (e *gateEnv) must(method, path string, body []byte) []byte {
	e.t.Helper()
	ct := ""
	if body != nil {
		ct = "application/json"
	}
	status, b := e.send(method, path, ct, body)
	if status/100 != 2 {
		e.t.Fatalf("%s %s: status %d: %s", method, path, status, b)
	}
	return b
}

// rawConn is a client connection written by hand.
type rawConn struct {
	t    *testing.T
	conn net.Conn
	br   *bufio.Reader
}

// open connects and sends the request line and headers of a POST of a
// JSON body to path; extra are more header lines.
func (e *gateEnv) open(path string, extra ...string) *rawConn {
	e.t.Helper()
	conn, err := net.Dial("tcp", e.addr)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { _ = conn.Close() })
	head := "POST " + apiPrefix + path + " HTTP/1.1\r\nHost: " + e.addr + "\r\nContent-Type: application/json\r\n" +
		strings.Join(extra, "\r\n") + "\r\n\r\n"
	if _, err := conn.Write([]byte(head)); err != nil {
		e.t.Fatal(err)
	}
	return &rawConn{t: e.t, conn: conn, br: bufio.NewReader(conn)}
}

func (r *rawConn) write(b []byte) {
	r.t.Helper()
	if _, err := r.conn.Write(b); err != nil {
		r.t.Fatal(err)
	}
}

// response reads the response, waiting at most patience.
func (r *rawConn) response() (int, []byte) {
	r.t.Helper()
	_ = r.conn.SetReadDeadline(time.Now().Add(patience))
	res, err := http.ReadResponse(r.br, nil)
	if err != nil {
		r.t.Fatalf("read response: %v", err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		r.t.Fatal(err)
	}
	return res.StatusCode, b
}

// nodesBody is a bulk create body of n nodes padded with blanks to size
// bytes.
func nodesBody(t *testing.T, n, size int) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"x":%d,"y":0,"z":0}`, i)
	}
	if b.Len()+1 > size {
		t.Fatalf("%d nodes do not fit in %d bytes", n, size)
	}
	b.WriteString(strings.Repeat(" ", size-b.Len()-1))
	b.WriteByte(']')
	return b.Bytes()
}

// patience is how long a test waits for what must happen before it fails
// as hung: a safety net, never a speed target, so generous for a loaded
// 2-core machine (harness_test.go has the same for the package's outside
// tests).
const patience = 2 * time.Minute

// poll waits until cond holds, polling every 2 ms, and fails t after
// patience.
func poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting until %s", patience, what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func heapAlloc() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// errorOf decodes an ErrorResponse and checks its status and code.
func errorOf(t *testing.T, status int, body []byte, wantStatus int, wantCode string) ErrorResponse {
	t.Helper()
	var er ErrorResponse
	if err := json.Unmarshal(body, &er); err != nil {
		t.Fatalf("status %d, not an ErrorResponse: %s", status, body)
	}
	if status != wantStatus || er.Status != wantStatus || er.ErrorCode != wantCode || er.Detail == "" {
		t.Fatalf("status %d, want %d %s: %s", status, wantStatus, wantCode, body)
	}
	return er
}

// Clients that send headers declaring 64 MiB and then nothing hold next to
// no memory, and the server drops them once the header timeout has passed
// (it closes their connections: without the timeout they would stay open
// until the test's patience ran out), as it drops a client whose body
// stalls halfway (a 400 saying the body came too slowly).
func TestBodyGateSlowClients(t *testing.T) {
	const clients = 32
	e := newGateEnv(t, Config{HeaderTimeout: time.Second})
	e.must("POST", "/job/new", nil)

	t.Run("headers only", func(t *testing.T) {
		base := heapAlloc()
		seen := e.headers.Load()
		conns := make([]*rawConn, clients)
		sent := time.Now()
		for i := range conns {
			conns[i] = e.open("/job/structure/nodes/bulk", "Content-Length: 67108864")
		}
		poll(t, "the server has read every client's headers", func() bool { return e.headers.Load() >= seen+clients })
		grown := int64(heapAlloc()) - int64(base)
		t.Logf("%d clients declaring 64 MiB: heap grew by %.1f MiB", clients, float64(grown)/(1<<20))
		if grown > 64<<20 {
			t.Errorf("%d clients that sent no body grew the heap by %d MiB", clients, grown>>20)
		}
		for i, c := range conns {
			_ = c.conn.SetReadDeadline(time.Now().Add(patience))
			if _, err := io.Copy(io.Discard, c.br); err != nil {
				t.Fatalf("client %d still connected after %s: %v", i, time.Since(sent).Round(time.Millisecond), err)
			}
		}
		t.Logf("the clients were dropped after %s (header timeout 1 s)", time.Since(sent).Round(time.Millisecond))
	})

	t.Run("body stalls", func(t *testing.T) {
		c := e.open("/job/structure/nodes/bulk", "Content-Length: 1048576")
		c.write(bytes.Repeat([]byte(" "), 16<<10))
		status, body := c.response()
		er := errorOf(t, status, body, 400, "MALFORMED_REQUEST")
		if !strings.Contains(er.Detail, "too slowly") {
			t.Errorf("detail %q does not say the body was too slow", er.Detail)
		}
		poll(t, "the stalled body's memory is released", func() bool { return e.sem().Held() == 0 })
	})
}

// A body that finds BodyMemory taken waits for it, and is a 503 when it
// cannot get room within BodyWait; of two half-read bodies that would wait
// for each other, the younger is a 503 at once and gives back what it
// held: "at once" is told by a gate whose BodyWait outlasts the test's
// patience, where only giving way can answer 503. The semaphore never
// holds more than the budget.
func TestBodyGateBudget(t *testing.T) {
	const budget = 1 << 20
	// One client (every request comes from 127.0.0.1) may take it all.
	e := newGateEnv(t, Config{BodyLimit: 512 << 10, BodyMemory: budget, BodyMemoryPerClient: budget, BodyWait: 2 * time.Second})
	e.must("POST", "/job/new", nil)
	bulk := "/job/structure/nodes/bulk"
	// big holds 768 KiB of the budget, leaving less than a chunk of small.
	big, small := nodesBody(t, 10, 128<<10), nodesBody(t, 10, 64<<10)
	length := func(b []byte) string { return fmt.Sprintf("Content-Length: %d", len(b)) }
	// withinBudget checks that every body's memory is given back and that
	// the semaphore never held more than the budget.
	withinBudget := func(t *testing.T, e *gateEnv) {
		t.Helper()
		poll(t, "every body's memory is released", func() bool { return e.sem().Held() == 0 })
		if peak := e.sem().maxHeld(); peak > budget {
			t.Errorf("the semaphore held %d bytes at once, over the budget of %d", peak, budget)
		}
	}
	// holdBig sends all of big but its last byte, once it holds its weight.
	holdBig := func(t *testing.T) *rawConn {
		a := e.open(bulk, length(big))
		a.write(big[:len(big)-1])
		poll(t, "the first body holds its weight", func() bool { return e.sem().Held() == int64(len(big))*BodyWeightFactor })
		return a
	}
	ok := func(t *testing.T, c *rawConn) {
		t.Helper()
		if status, body := c.response(); status/100 != 2 {
			t.Fatalf("status %d: %s", status, body)
		}
	}

	t.Run("waits, then succeeds", func(t *testing.T) {
		a := holdBig(t)
		b := e.open(bulk, length(small))
		b.write(small)
		poll(t, "the second body waits", func() bool { return e.sem().waiting() == 1 })
		a.write(big[len(big)-1:])
		ok(t, a)
		ok(t, b)
	})

	t.Run("no room in time is a 503", func(t *testing.T) {
		a := holdBig(t)
		b := e.open(bulk, length(small))
		b.write(small[:8<<10])
		status, body := b.response()
		er := errorOf(t, status, body, 503, "SERVICE_UNAVAILABLE")
		if !strings.Contains(er.Detail, "retry") || !strings.Contains(er.Detail, "request bodies") {
			t.Errorf("detail %q does not say what happened and what to do", er.Detail)
		}
		a.write(big[len(big)-1:])
		ok(t, a)
	})

	t.Run("the younger of two half-read bodies gives way", func(t *testing.T) {
		e := newGateEnv(t, Config{BodyLimit: 512 << 10, BodyMemory: budget, BodyMemoryPerClient: budget, BodyWait: 1000 * patience})
		e.must("POST", "/job/new", nil)
		mid := nodesBody(t, 10, 160<<10) // 960 KiB each: both do not fit
		a := e.open(bulk, length(mid))
		a.write(mid[:bodyChunk-1])
		poll(t, "the first body holds a chunk", func() bool { return e.sem().Held() == bodyChunk*BodyWeightFactor })
		b := e.open(bulk, length(mid))
		b.write(mid[:8<<10])
		poll(t, "the second body holds a chunk", func() bool { return e.sem().Held() == 2*bodyChunk*BodyWeightFactor })
		a.write(mid[bodyChunk-1:])
		poll(t, "the first body waits", func() bool { return e.sem().waiting() == 1 })
		b.write(mid[8<<10 : bodyChunk])
		status, body := b.response()
		errorOf(t, status, body, 503, "SERVICE_UNAVAILABLE")
		ok(t, a)
		withinBudget(t, e)
	})

	withinBudget(t, e)
}

// Large bodies sent in full at once, each of which takes the whole
// budget: they are served one at a time and the others are 503s that each
// client reads, not a reset of its connection (the server reads the rest
// of a refused body before it answers and closes).
func TestBodyGateManyLargeBodies(t *testing.T) {
	const budget = 8 << 20
	e := newGateEnv(t, Config{BodyLimit: budget, BodyMemory: budget})
	e.must("POST", "/job/new", nil)
	body := nodesBody(t, 10, 6<<20)
	statuses := make([]int, 6)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, err := http.NewRequest("POST", "http://"+e.addr+apiPrefix+"/job/structure/nodes/bulk", bytes.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			req.Header.Set("Content-Type", "application/json")
			res, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
			if err != nil {
				t.Errorf("client %d: %v", i, err)
				return
			}
			_, _ = io.Copy(io.Discard, res.Body)
			_ = res.Body.Close()
			statuses[i] = res.StatusCode
		}()
	}
	wg.Wait()
	t.Logf("statuses %v", statuses)
	served := 0
	for _, st := range statuses {
		switch {
		case st/100 == 2:
			served++
		case st != 503 && st != 0:
			t.Errorf("status %d", st)
		}
	}
	if served == 0 {
		t.Error("no body was served")
	}
	poll(t, "every body's memory is released", func() bool { return e.sem().Held() == 0 })
	if peak := e.sem().maxHeld(); peak > budget {
		t.Errorf("the semaphore held %d bytes at once, over the budget of %d", peak, budget)
	}
}

// A body over the limit is a 413 naming the limit whether its length is
// declared or it comes in chunks; a body at the limit passes both ways. A
// compressed body is refused: decompressing it is not bounded.
func TestBodyGateLimit(t *testing.T) {
	const limit = 64 << 10
	e := newGateEnv(t, Config{BodyLimit: limit})
	e.must("POST", "/job/new", nil)
	atLimit := nodesBody(t, 10, limit)
	chunked := func(parts ...[]byte) []byte {
		var b bytes.Buffer
		for _, p := range parts {
			fmt.Fprintf(&b, "%x\r\n%s\r\n", len(p), p)
		}
		return b.Bytes()
	}
	var gz bytes.Buffer
	fmt.Fprint(&gz, "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff") // a gzip header: the body is refused before it is read
	for _, c := range []struct {
		name    string
		headers []string
		body    []byte
		status  int
		code    string
	}{
		{"declared over the limit", []string{"Content-Length: 1048576"}, bytes.Repeat([]byte(" "), 9<<10), 413, "PAYLOAD_TOO_LARGE"},
		{"chunked over the limit", []string{"Transfer-Encoding: chunked"},
			chunked(bytes.Repeat([]byte(" "), 32<<10), bytes.Repeat([]byte(" "), 32<<10), []byte(" ")), 413, "PAYLOAD_TOO_LARGE"},
		{"declared at the limit", []string{fmt.Sprintf("Content-Length: %d", limit)}, atLimit, 200, ""},
		{"chunked at the limit", []string{"Transfer-Encoding: chunked"},
			append(chunked(atLimit[:1000], atLimit[1000:]), "0\r\n\r\n"...), 200, ""},
		{"compressed", []string{"Content-Encoding: gzip", fmt.Sprintf("Content-Length: %d", gz.Len())}, gz.Bytes(), 415, "UNSUPPORTED_MEDIA_TYPE"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := e.open("/job/structure/nodes/bulk", c.headers...)
			r.write(c.body)
			status, body := r.response()
			if c.code == "" {
				if status != c.status {
					t.Fatalf("status %d, want %d: %s", status, c.status, body)
				}
				return
			}
			er := errorOf(t, status, body, c.status, c.code)
			if c.status == 413 && !strings.Contains(er.Detail, fmt.Sprint(limit)) {
				t.Errorf("detail %q does not name the limit", er.Detail)
			}
		})
	}
	poll(t, "every body's memory is released", func() bool { return e.sem().Held() == 0 })
}

// Ordinary requests pass the gate: GETs and body-less POSTs without
// touching the semaphore, JSON bodies of known length or chunked, several
// on one kept-alive connection.
func TestBodyGateOrdinaryRequests(t *testing.T) {
	e := newGateEnv(t, Config{})
	client := &http.Client{} // keeps connections alive
	do := func(method, path string, body io.Reader) []byte {
		t.Helper()
		req, err := http.NewRequest(method, "http://"+e.addr+apiPrefix+path, body)
		if err != nil {
			t.Fatal(err)
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode/100 != 2 {
			t.Fatalf("%s %s: status %d: %s", method, path, res.StatusCode, b)
		}
		return b
	}
	do("GET", "/service/info", nil)
	do("POST", "/job/new", nil)
	if e.sem().maxHeld() != 0 {
		t.Errorf("body-less requests took %d bytes of the budget", e.sem().maxHeld())
	}
	do("POST", "/job/structure/nodes", strings.NewReader(`{"x":1,"y":2,"z":3}`))
	// A reader of unknown length makes the client send the body chunked.
	do("POST", "/job/structure/nodes/bulk", io.MultiReader(strings.NewReader(`[{"x":4,"y":0,"z":0},`), strings.NewReader(`{"x":5,"y":0,"z":0}]`)))
	var nodes []struct {
		X float64 `json:"x"`
	}
	got := do("GET", "/job/structure/nodes", nil)
	if err := json.Unmarshal(got, &nodes); err != nil || len(nodes) != 3 || nodes[2].X != 5 {
		t.Errorf("nodes after the posts: %s", got)
	}
	do("POST", "/job/close", nil)
	if held := e.sem().Held(); held != 0 {
		t.Errorf("%d bytes of the budget still held", held)
	}
}
