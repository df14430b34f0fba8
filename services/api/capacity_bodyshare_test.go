//go:build capacity

package main_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Finding 7: a workspace that sends all but the end of a large body and
// then stalls held the whole body budget (BODY_MEMORY), and every
// body-carrying request of every workspace was a 503 until the server
// dropped it. Now the stalled body holds its workspace's share
// (BODY_MEMORY_PER_CLIENT, half the budget by default): b's requests
// with bodies, even one of the largest size, are served while a's body
// stalls; a cannot take more by stalling more bodies (a 503 naming its
// share); and the stalled body, then one that trickles in below
// BODY_MIN_RATE, is dropped (400, connection closed) and gives its share
// back.
func TestCapacityStalledUploadLeavesRoom(t *testing.T) {
	const limit = 1 << 20
	s := startCapStack(t, capOptions{APIEnv: bodyshareEnv(limit)})
	attackStalledUpload(s, "b", limit)
}

// bodyshareEnv bounds bodies to limit bytes and the body budget to one
// body of that size, with a minimum rate of 64 KiB/s.
func bodyshareEnv(limit int) []string {
	return []string{
		"MAX_BODY_BYTES=" + strconv.Itoa(limit),
		// One body of the largest size, at 6 times its bytes.
		"BODY_MEMORY=" + strconv.Itoa(6*limit),
		// 64 KiB/s: each 10 s after the first must bring 640 KiB.
		"BODY_MIN_RATE=65536",
	}
}

// attackStalledUpload is finding 7 by workspace a, with by as the
// bystander, on an api configured by bodyshareEnv(limit). Other
// requests may hold body memory meanwhile (TestCapacityCombined), so the
// memory given back is read as a's share freed, not as none held.
func attackStalledUpload(s *capStack, by string, limit int) {
	t := s.t
	t.Helper()
	for _, ws := range []string{"a", by} {
		s.must(200, ws, "POST", "/job/new", "")
	}
	bulk := "/job/structure/nodes/bulk"
	largest := bodyshareNodes(t, 5, limit)
	freed := func() bool { return bodyshareHeld(t, s) < 3*float64(limit) }

	stalled := bodyshareOpen(t, s, "a", bulk, len(largest))
	stalled.write(largest[:len(largest)-1])
	poll(t, time.Minute, "a's stalled body holds memory", func() bool { return bodyshareHeld(t, s) >= 3*float64(limit) })

	// The bystander's bodies while a's stalls: a PATCH, a small bulk
	// create, and a bulk create of the largest size.
	s.must(200, by, "PATCH", "/job/headings", `{"notes":"written while a stalls"}`)
	s.must(200, by, "POST", bulk, string(bodyshareNodes(t, 3, 4<<10)))
	s.must(200, by, "POST", bulk, string(largest))

	// a's next body finds a's share taken.
	st, b := s.json("a", "POST", bulk, string(bodyshareNodes(t, 1, 1<<10)))
	if st != 503 || !strings.Contains(string(b), "BODY_MEMORY_PER_CLIENT") {
		t.Errorf("a's second body while its first stalls: %d %s, want 503 naming BODY_MEMORY_PER_CLIENT", st, b)
	}

	// The stalled body is dropped: first bytes came, then none for a
	// whole window (documented: within 20 s of the stall).
	stalled.dropped(400, "BODY_MIN_RATE")
	poll(t, time.Minute, "the stalled body's memory is given back", freed)

	// A body that trickles in at 4 KiB/s, below BODY_MIN_RATE, is
	// dropped too, while the bystander is served.
	trickle := bodyshareOpen(t, s, "a", bulk, len(largest))
	stop := make(chan struct{})
	go func() {
		for off := 0; off < len(largest)-1; off += 1 << 10 {
			select {
			case <-stop:
				return
			case <-time.After(250 * time.Millisecond):
			}
			if _, err := trickle.conn.Write(largest[off : off+1<<10]); err != nil {
				return
			}
		}
	}()
	s.must(200, by, "PATCH", "/job/headings", `{"notes":"written while a trickles"}`)
	trickle.dropped(400, "BODY_MIN_RATE")
	close(stop)
	poll(t, time.Minute, "the trickling body's memory is given back", freed)

	// Both workspaces are served as before.
	s.must(200, "a", "POST", bulk, string(bodyshareNodes(t, 3, 4<<10)))
	s.must(200, by, "POST", bulk, string(largest))
	s.alive()
	for _, ws := range []string{"a", by} {
		s.must(200, ws, "POST", "/job/close", "")
	}
}

// bodyshareNodes is a bulk create body of n nodes padded with blanks to
// size bytes.
func bodyshareNodes(t *testing.T, n, size int) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"x":%d,"y":0,"z":0}`, i)
	}
	b.WriteString(strings.Repeat(" ", size-b.Len()-1))
	b.WriteByte(']')
	return b.Bytes()
}

// bodyshareConn is an upload written by hand over its own connection.
type bodyshareConn struct {
	t    *testing.T
	conn net.Conn
	br   *bufio.Reader
}

// bodyshareOpen connects to the api and sends the headers of a POST to
// path as workspace ws, declaring a JSON body of length bytes.
func bodyshareOpen(t *testing.T, s *capStack, ws, path string, length int) *bodyshareConn {
	t.Helper()
	u, err := url.Parse(s.base)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	head := fmt.Sprintf("POST %s%s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
		"Content-Length: %d\r\n\r\n", u.Path, path, u.Host, s.keys[ws], length)
	if _, err := conn.Write([]byte(head)); err != nil {
		t.Fatal(err)
	}
	return &bodyshareConn{t: t, conn: conn, br: bufio.NewReader(conn)}
}

func (c *bodyshareConn) write(b []byte) {
	c.t.Helper()
	if _, err := c.conn.Write(b); err != nil {
		c.t.Fatal(err)
	}
}

// dropped waits (a minute at most, a safety net) for the server to
// answer the upload with status and a detail holding want, and to close
// the connection.
func (c *bodyshareConn) dropped(status int, want string) {
	c.t.Helper()
	_ = c.conn.SetReadDeadline(time.Now().Add(time.Minute))
	res, err := http.ReadResponse(c.br, nil)
	if err != nil {
		c.t.Fatalf("the upload was not answered: %v", err)
	}
	b, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if res.StatusCode != status || !strings.Contains(string(b), want) {
		c.t.Fatalf("the upload was answered %d %s, want %d naming %s", res.StatusCode, b, status, want)
	}
	if _, err := io.Copy(io.Discard, c.br); err != nil {
		c.t.Fatalf("the connection stayed open: %v", err)
	}
}

// bodyshareHeld reads gusset_http_body_memory_bytes, the body memory in
// use, from the api's /metrics.
func bodyshareHeld(t *testing.T, s *capStack) float64 {
	t.Helper()
	res, err := s.http.Get(strings.TrimSuffix(s.base, "/api/v1") + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "gusset_http_body_memory_bytes "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("gusset_http_body_memory_bytes %q: %v", v, err)
			}
			return f
		}
	}
	t.Fatalf("/metrics has no gusset_http_body_memory_bytes:\n%s", b)
	return 0
}
