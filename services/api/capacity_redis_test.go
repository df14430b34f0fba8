//go:build capacity

package main_test

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// capRedisMaxMemory is the maxmemory of the scenario's Redis: room for a
// few tens of thousands of nodes past an empty server (about 1 MiB), so
// that filling it takes seconds.
const capRedisMaxMemory = "24mb"

// capNodes is a bulk-create body of n nodes whose x starts at first.
func capNodes(first, n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"x":%d,"y":0,"z":0}`, first+i)
	}
	b.WriteByte(']')
	return b.String()
}

// capReady reads /readyz: its status code and whether its body says the
// storage is full.
func capReady(t *testing.T, s *capStack) (int, bool) {
	t.Helper()
	res, err := s.http.Get(strings.TrimSuffix(s.base, "/api/v1") + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	st := res.StatusCode
	var h struct {
		Storage *struct {
			Full bool `json:"full"`
		} `json:"storage"`
	}
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatalf("readyz: %d %s: %v", st, b, err)
	}
	return st, h.Storage != nil && h.Storage.Full
}

// capStorageFull reports an error unless a write answered 503 with the
// STORAGE_FULL errorCode and a detail that says the storage is full. The
// scenario goes on after one, so that a build that answers otherwise
// shows whether it can still free storage.
func capStorageFull(t *testing.T, what string, st int, body []byte) {
	t.Helper()
	if st != 503 || !strings.Contains(string(body), `"STORAGE_FULL"`) || !strings.Contains(string(body), "storage is full") {
		t.Errorf("%s on a full Redis: %d %s, want 503 STORAGE_FULL saying the storage is full", what, st, body)
	}
}

// Finding 5: workspace a filled a Redis given a maxmemory and the
// noeviction policy with nodes; then every write of every workspace
// answered 500, POST /job/close (the only way to free memory) too, and
// /readyz stayed 200 saying nothing. Now a write answers 503 STORAGE_FULL
// saying the storage is full, a can save and close its job and writes
// work again,
// and /readyz says the storage is full while it is (staying 200: every
// replica shares the one Redis, so a 503 would take all of them out of
// a load balancer and nobody could free storage).
func TestCapacityFullRedis(t *testing.T) {
	s := startCapStack(t, capOptions{RedisArgs: []string{"--maxmemory", capRedisMaxMemory, "--maxmemory-policy", "noeviction"}})
	for _, ws := range []string{"a", "b"} {
		s.must(200, ws, "POST", "/job/new", "")
	}
	s.must(200, "b", "POST", "/job/structure/nodes/bulk", capNodes(0, 10))
	if _, full := capReady(t, s); full {
		t.Fatal("readyz says the storage is full before anything was stored")
	}

	// a fills Redis. A refused batch may be refused for its own size
	// (Redis counts the request it reads), so a goes on with smaller ones
	// until one node is refused: then no write fits.
	next, refused := 0, false
	for size := 5000; !refused && next < 1_000_000; {
		st, body := s.json("a", "POST", "/job/structure/nodes/bulk", capNodes(next, size))
		if st == 200 {
			next += size
			continue
		}
		// Any other answer is a refusal; only 503 STORAGE_FULL is right.
		capStorageFull(t, fmt.Sprintf("a bulk create of %d nodes after %d", size, next), st, body)
		refused = size == 1
		size = max(size/10, 1)
	}
	if !refused {
		t.Fatalf("a created %d nodes and Redis (maxmemory %s) refused none", next, capRedisMaxMemory)
	}
	t.Logf("Redis was full after %d nodes", next)

	// Every workspace's writes are refused as storage full, not 500.
	for _, w := range []struct{ ws, method, path, body string }{
		{"a", "POST", "/job/structure/nodes", `{"x":-1,"y":0,"z":0}`},
		{"b", "POST", "/job/structure/nodes", `{"x":-1,"y":0,"z":0}`},
		{"b", "POST", "/job/structure/nodes/bulk", capNodes(-100, 50)},
	} {
		st, body := s.json(w.ws, w.method, w.path, w.body)
		capStorageFull(t, w.ws+" "+w.method+" "+w.path, st, body)
	}
	// Reads go on.
	s.must(200, "b", "GET", "/job/status", "")
	st, full := capReady(t, s)
	if st != 200 || !full {
		t.Errorf("readyz while Redis is full: %d, full %v; want 200 saying the storage is full", st, full)
	}

	// a saves its job, then frees what it stored by closing it; then
	// writes work again.
	if st, body := s.json("a", "POST", "/job/save", `{"filePath":"full"}`); st != 201 {
		t.Errorf("a's save on a full Redis: %d %s, want 201", st, body)
	}
	s.must(200, "a", "POST", "/job/close", "")
	// Redis frees a large collection in the background (UNLINK): writes
	// work again once it has, at once on an idle machine.
	poll(t, time.Minute, "b's write after a closed its job", func() bool {
		st, _ := s.json("b", "POST", "/job/structure/nodes", `{"x":-1,"y":0,"z":0}`)
		return st == 201
	})
	s.must(200, "a", "POST", "/job/new", "")
	s.must(200, "a", "POST", "/job/structure/nodes/bulk", capNodes(0, 100))
	if _, full := capReady(t, s); full {
		t.Error("readyz still says the storage is full after a closed its job")
	}
	s.alive()
}

// attackFillRedis is finding 5 as TestCapacityCombined runs it, on a
// Redis with a maxmemory that every workspace shares (maxMemory): a's own
// node limit, set with gusset-admin to a tenth of what fills that Redis
// (about 200 bytes a node, TestCapacityFullRedis), stops a's bulk
// creates with 403 LIMIT_EXCEEDED long before the storage is full, so the
// bystander's writes go on. It gives a back the service's limit.
func attackFillRedis(s *capStack, by string, maxMemory int64) {
	t := s.t
	t.Helper()
	limit := maxMemory / 200 / 10
	if out, err := s.admin("workspace", "limits", "a", "--nodes", fmt.Sprint(limit)); err != nil {
		t.Fatalf("gusset-admin workspace limits a: %v %s", err, out)
	}
	for _, ws := range []string{"a", by} {
		s.must(200, ws, "POST", "/job/new", "")
	}
	next := 0
	for {
		st, body := s.json("a", "POST", "/job/structure/nodes/bulk", capNodes(next, 5000))
		if st == 200 {
			next += 5000
			continue
		}
		if st != 403 || !strings.Contains(string(body), "LIMIT_EXCEEDED") || !strings.Contains(string(body), "MAX_NODES") {
			t.Fatalf("a's bulk create after %d nodes: %d %.300s, want 403 LIMIT_EXCEEDED naming MAX_NODES", next, st, body)
		}
		break
	}
	if int64(next) > limit || int64(next) < limit-5000 {
		t.Errorf("a was refused after %d nodes; its limit is %d", next, limit)
	}
	if _, full := capReady(t, s); full {
		t.Error("readyz says the storage is full: a's limit did not keep a from filling it")
	}
	s.must(201, by, "POST", "/job/structure/nodes", `{"x":-1,"y":0,"z":0}`)
	for _, ws := range []string{"a", by} {
		s.must(200, ws, "POST", "/job/close", "")
	}
	if out, err := s.admin("workspace", "limits", "a", "--nodes", "default"); err != nil {
		t.Fatalf("gusset-admin workspace limits a --nodes default: %v %s", err, out)
	}
}
