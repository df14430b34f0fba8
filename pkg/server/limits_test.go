package server

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/auth"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store/redisstore"
)

// The workspace limits over HTTP: a change that would take a workspace
// past one answers 403 LIMIT_EXCEEDED naming the limit, its value and
// its variable, and writes nothing; a limit an administrator sets for
// one workspace holds for it alone, from its next request; and a job
// file whose model is over a limit does not open.
func TestWorkspaceLimits(t *testing.T) {
	k := startKeyedWith(t, Config{Limits: model.Limits{Nodes: 4, LoadCases: 3}})
	a, b := k.alpha, k.beta
	svc := &auth.Service{Store: redisstore.NewAuth(k.redis.Client(t))}
	count := func(s *stack, path string) int {
		t.Helper()
		r := s.must(200, "GET", path+"?limit=1", nil)
		var n int
		if _, err := fmt.Sscan(r.header.Get("Total-Count"), &n); err != nil {
			t.Fatalf("Total-Count of %s: %q", path, r.header.Get("Total-Count"))
		}
		return n
	}
	refused := func(r reply, limit string, value int) {
		t.Helper()
		var e struct {
			ErrorCode, Detail, Message string
		}
		r.decode(t, &e)
		text := e.Detail + e.Message
		if r.status != 403 || e.ErrorCode != "LIMIT_EXCEEDED" || !strings.Contains(text, limit) ||
			!strings.Contains(text, model.FormatCount(int64(value), false)) {
			t.Fatalf("got %d %s, want 403 LIMIT_EXCEEDED naming %s and %d", r.status, r.body, limit, value)
		}
	}
	nodes := func(from, n int) []map[string]any {
		out := make([]map[string]any, n)
		for i := range out {
			out[i] = map[string]any{"id": from + i, "x": float64(from + i), "y": 0, "z": 0}
		}
		return out
	}

	proppedCantilever(a) // 2 nodes, 3 load cases (2 primary, 1 combination)
	// A bulk create past the limit writes nothing.
	{
		r := a.call("POST", "/job/structure/nodes/bulk", nodes(3, 3))
		refused(r, "MAX_NODES", 4)
		if n := count(a, "/job/structure/nodes"); n != 2 {
			t.Errorf("the refused bulk left %d nodes, want 2", n)
		}
		a.must(200, "POST", "/job/structure/nodes/bulk", nodes(3, 2)) // exactly the limit
	}
	// A single create past the limit.
	{
		refused(a.call("POST", "/job/structure/nodes", nodes(5, 1)[0]), "MAX_NODES", 4)
		// Edits and deletes of a workspace at its limit still work.
		a.must(200, "PATCH", "/job/structure/nodes/4", map[string]any{"y": 1})
	}
	// Load cases count primary and combination cases.
	{
		refused(a.call("POST", "/job/loads/load-cases", map[string]any{"id": 9, "title": "more"}), "MAX_LOAD_CASES", 3)
		refused(a.call("POST", "/job/loads/combination-load-cases", map[string]any{"id": 9, "title": "more",
			"combinationItems": []map[string]any{{"loadCase": 1, "multiplyingFactor": 1}}}), "MAX_LOAD_CASES", 3)
	}
	// A workspace's own limit holds for it alone, from its next request.
	{
		ctx := context.Background()
		if _, err := svc.SetLimits(ctx, "alpha", model.Limits{Nodes: 6}); err != nil {
			t.Fatal(err)
		}
		a.must(201, "POST", "/job/structure/nodes", nodes(5, 1)[0])
		a.must(200, "POST", "/job/structure/nodes/bulk", nodes(6, 1))
		refused(a.call("POST", "/job/structure/nodes", nodes(7, 1)[0]), "MAX_NODES", 6)
		// alpha's own node limit leaves its load-case limit the default.
		refused(a.call("POST", "/job/loads/load-cases", map[string]any{"id": 9, "title": "more"}), "MAX_LOAD_CASES", 3)
		b.must(200, "POST", "/job/new", nil)
		b.must(200, "POST", "/job/structure/nodes/bulk", nodes(1, 4))
		refused(b.call("POST", "/job/structure/nodes", nodes(5, 1)[0]), "MAX_NODES", 4)
	}
	// A job file over a limit does not open.
	{
		a.must(201, "POST", "/job/save", map[string]any{"filePath": "six-nodes"})
		a.must(200, "POST", "/job/close", map[string]any{"force": true})
		if _, err := svc.SetLimits(context.Background(), "alpha", model.Limits{}); err != nil {
			t.Fatal(err)
		}
		refused(a.call("POST", "/job/open", map[string]any{"filePath": "six-nodes"}), "MAX_NODES", 4)
		if r := a.call("GET", "/job", nil); r.status != 409 || r.errorCode(t) != "NO_JOB_OPEN" {
			t.Errorf("the refused file opened: %d %s", r.status, r.body)
		}
	}
}
