package httpapi

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
)

// keyTable is an Authenticator over a fixed table of keys.
type keyTable map[string]string

// Authenticate implements Authenticator.
func (k keyTable) Authenticate(_ context.Context, key string) (string, error) {
	if ws, ok := k[key]; ok {
		return ws, nil
	}
	return "", model.E(model.KindUnauthorized, "unknown key")
}

// A workspace whose body stalls holds its share of BodyMemory, not the
// budget: another workspace's bodies, even one of the largest size, are
// served meanwhile; the stalled workspace's next body finds its share
// taken and is a 503 that says so; and the stalled body is dropped once a
// rate window passes without its bytes.
func TestBodyGateShares(t *testing.T) {
	const limit = 256 << 10
	const budget = 2 * limit * BodyWeightFactor // two of the largest bodies
	e := newGateEnv(t, Config{BodyLimit: limit, BodyMemory: budget, BodyWait: 500 * time.Millisecond,
		HeaderTimeout: time.Second, Auth: keyTable{"key-a": "a", "key-b": "b"}})
	bulk := "/job/structure/nodes/bulk"
	full := nodesBody(t, 10, limit)
	length := fmt.Sprintf("Content-Length: %d", len(full))
	for _, k := range []string{"key-a", "key-b"} {
		c := e.open("/job/new", "Authorization: Bearer "+k, "Content-Length: 0")
		if status, body := c.response(); status != 200 {
			t.Fatalf("%s: new job: %d %s", k, status, body)
		}
	}

	stalled := e.open(bulk, "Authorization: Bearer key-a", length)
	stalled.write(full[:len(full)-1])
	share := int64(budget / 2)
	poll(t, "a's stalled body holds its share", func() bool { return e.sem().heldBy("workspace a") == share })

	t.Run("another workspace's largest body is served", func(t *testing.T) {
		c := e.open(bulk, "Authorization: Bearer key-b", length)
		c.write(full)
		if status, body := c.response(); status != 200 {
			t.Fatalf("b's body while a's stalls: %d %s", status, body)
		}
	})
	t.Run("the stalled workspace's next body is a 503 naming its share", func(t *testing.T) {
		c := e.open(bulk, "Authorization: Bearer key-a", length)
		c.write(full[:8<<10])
		status, body := c.response()
		er := errorOf(t, status, body, 503, "SERVICE_UNAVAILABLE")
		if !strings.Contains(er.Detail, "BODY_MEMORY_PER_CLIENT") || !strings.Contains(er.Detail, fmt.Sprint(share)) {
			t.Errorf("detail %q does not name the share", er.Detail)
		}
	})
	t.Run("the stalled body is dropped", func(t *testing.T) {
		status, body := stalled.response()
		er := errorOf(t, status, body, 400, "MALFORMED_REQUEST")
		if !strings.Contains(er.Detail, "BODY_MIN_RATE") {
			t.Errorf("detail %q does not name BODY_MIN_RATE", er.Detail)
		}
		poll(t, "every body's memory is released", func() bool { return e.sem().Held() == 0 })
	})
}

// The rate is measured per window, not since the start: a client that
// sent most of a body at once and then stalls is dropped when the next
// window passes without its bytes, although at the minimum rate the bytes
// it sent would have bought it a quarter of an hour.
func TestBodyGateStallAfterFastStart(t *testing.T) {
	e := newGateEnv(t, Config{BodyLimit: 1 << 20, HeaderTimeout: time.Second, MinBodyRate: 1024})
	e.must("POST", "/job/new", nil)
	body := nodesBody(t, 10, 1<<20)
	c := e.open("/job/structure/nodes/bulk", fmt.Sprintf("Content-Length: %d", len(body)))
	c.write(body[:len(body)-1])
	status, got := c.response()
	er := errorOf(t, status, got, 400, "MALFORMED_REQUEST")
	if !strings.Contains(er.Detail, "too slowly") || !strings.Contains(er.Detail, "1024 bytes/s") {
		t.Errorf("detail %q does not say the body was too slow and name the rate", er.Detail)
	}
	// The server closed the connection.
	_ = c.conn.SetReadDeadline(time.Now().Add(patience))
	if _, err := io.Copy(io.Discard, c.br); err != nil {
		t.Errorf("connection still open: %v", err)
	}
	poll(t, "the body's memory is released", func() bool { return e.sem().Held() == 0 })
}
