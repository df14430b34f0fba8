//go:build capacity

package main_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// The workspace limits: a workspace's model cannot grow past its limits,
// whatever it sends, and the administrator sets one workspace's limits
// without touching another's. gusset-admin gives workspace a 100 nodes
// and the bystander 1,000. a's bulk of 101 nodes is refused whole (403
// LIMIT_EXCEEDED naming the limit and its value) and writes nothing,
// while the bystander fills its own 1,000 and is refused the next.
// Before the limits there was no refusal at all: one workspace's bulk
// creates filled Redis for everyone (finding 5 of the capacity review
// counted 1,044,580 nodes).
func TestCapacityWorkspaceLimits(t *testing.T) {
	attackWorkspaceLimits(startCapStack(t, capOptions{}), "b")
}

// attackWorkspaceLimits is the limits scenario with by as the bystander;
// it gives both workspaces back the service's limits at its end.
func attackWorkspaceLimits(s *capStack, by string) {
	t := s.t
	t.Helper()
	for ws, n := range map[string]string{"a": "100", by: "1000"} {
		if out, err := s.admin("workspace", "limits", ws, "--nodes", n); err != nil {
			t.Fatalf("gusset-admin workspace limits %s: %v %s", ws, err, out)
		}
	}
	nodes := func(from, n int) string {
		rows := make([]string, n)
		for i := range rows {
			rows[i] = fmt.Sprintf(`{"id":%d,"x":%d,"y":0,"z":0}`, from+i, from+i)
		}
		return "[" + strings.Join(rows, ",") + "]"
	}
	refused := func(ws string, from, n int, limit string) {
		t.Helper()
		st, b := s.json(ws, "POST", "/job/structure/nodes/bulk", nodes(from, n))
		if st != 403 || !strings.Contains(string(b), "LIMIT_EXCEEDED") || !strings.Contains(string(b), "MAX_NODES") ||
			!strings.Contains(string(b), "at most "+limit+" nodes") {
			t.Fatalf("%s's bulk of %d nodes from %d: %d %.400s; want 403 LIMIT_EXCEEDED naming MAX_NODES and %s", ws, n, from, st, b, limit)
		}
	}
	total := func(ws string) string {
		t.Helper()
		req, err := http.NewRequest("GET", s.base+"/job/structure/nodes?limit=1", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+s.keys[ws])
		res, err := s.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("%s's nodes: %d", ws, res.StatusCode)
		}
		return res.Header.Get("Total-Count")
	}
	for _, ws := range []string{"a", by} {
		s.must(200, ws, "POST", "/job/new", "")
	}
	refused("a", 1, 101, "100")
	if n := total("a"); n != "0" {
		t.Errorf("a's refused bulk left %s nodes, want 0", n)
	}
	s.must(200, "a", "POST", "/job/structure/nodes/bulk", nodes(1, 100))
	s.must(200, by, "POST", "/job/structure/nodes/bulk", nodes(1, 1000))
	refused(by, 1001, 1, "1,000")
	if n := total(by); n != "1000" {
		t.Errorf("%s holds %s nodes, want 1000", by, n)
	}
	s.alive()
	for _, ws := range []string{"a", by} {
		s.must(200, ws, "POST", "/job/close", "")
		if out, err := s.admin("workspace", "limits", ws, "--nodes", "default"); err != nil {
			t.Fatalf("gusset-admin workspace limits %s --nodes default: %v %s", ws, err, out)
		}
	}
}
