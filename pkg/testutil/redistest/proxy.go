package redistest

import (
	"io"
	"net"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"
)

// Endpoint is what a test's clients connect to: a Server, or a Proxy in
// front of one.
type Endpoint interface {
	Client(t testing.TB) redis.UniversalClient
}

// Proxy is a TCP proxy in front of one redis-server that a test can cut
// and restore: its clients then lose Redis for real (their connections
// drop, and new ones are closed as soon as they are made) while the
// server and its data stay, as when a network partition cuts a process
// off and heals.
type Proxy struct {
	// Addr is where clients connect.
	Addr   string
	target string
	ln     net.Listener

	mu      sync.Mutex
	cut     bool
	refused int
	conns   map[net.Conn]struct{}
}

// StartProxy runs a proxy in front of srv, a single server (a cluster's
// clients would be redirected to its nodes, past the proxy), until the
// test ends.
func StartProxy(t testing.TB, srv *Server) *Proxy {
	t.Helper()
	if srv.cluster != nil {
		t.Fatal("a proxy stands in front of a single server: start it with StartSingle")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{Addr: ln.Addr().String(), target: srv.Addr, ln: ln, conns: map[net.Conn]struct{}{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.serve()
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		<-done
		p.Cut()
	})
	return p
}

// Client returns a plain client of the proxy, closed when the test ends.
func (p *Proxy) Client(t testing.TB) redis.UniversalClient {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: p.Addr})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// Cut drops every connection through the proxy and closes the ones made
// until Restore.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = true
	for c := range p.conns {
		_ = c.Close()
	}
	clear(p.conns)
}

// Restore lets connections through again.
func (p *Proxy) Restore() {
	p.mu.Lock()
	p.cut = false
	p.mu.Unlock()
}

// Refused returns how many connections the proxy closed because it was
// cut when they were made: how a test learns that a client tried to
// reach Redis meanwhile, without sleeping.
func (p *Proxy) Refused() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.refused
}

// serve accepts connections until the listener closes.
func (p *Proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.relay(c)
	}
}

// relay joins the client connection c to a new connection to the server,
// unless the proxy is cut.
func (p *Proxy) relay(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		_ = c.Close()
		return
	}
	if !p.track(c, up) {
		_ = c.Close()
		_ = up.Close()
		return
	}
	defer p.untrack(c, up)
	// Either side's end (or Cut) closes both.
	go func() {
		_, _ = io.Copy(up, c)
		_ = up.Close()
		_ = c.Close()
	}()
	_, _ = io.Copy(c, up)
	_ = c.Close()
	_ = up.Close()
}

// track records both connections for Cut; it reports false, counting a
// refusal, when the proxy is cut.
func (p *Proxy) track(c, up net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cut {
		p.refused++
		return false
	}
	p.conns[c], p.conns[up] = struct{}{}, struct{}{}
	return true
}

// untrack forgets two connections that ended.
func (p *Proxy) untrack(c, up net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.conns, c)
	delete(p.conns, up)
}
