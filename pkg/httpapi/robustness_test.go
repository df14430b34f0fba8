package httpapi_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store/redisstore"
)

// While an analysis holds the workspace, model changes are refused with
// 409 ANALYSIS_IN_PROGRESS and reads still work.
func TestModelIsReadOnlyDuringAnalysis(t *testing.T) {
	e := structureEnv(t)
	rdb := e.rdb.Client(t)
	if err := rdb.Set(t.Context(), redisstore.WorkspaceKey("default", "lock"), "run-1", 0).Err(); err != nil {
		t.Fatal(err)
	}
	var st httpapi.Status
	e.must(200, "GET", "/job/status", nil).decode(t, &st)
	if st.AccessMode != httpapi.AccessReadOnly {
		t.Errorf("accessMode %s during an analysis", st.AccessMode)
	}
	e.wantError(409, "ANALYSIS_IN_PROGRESS", "POST", sp+"/nodes", map[string]any{"x": 0, "y": 0, "z": 0})
	e.wantError(409, "ANALYSIS_IN_PROGRESS", "PATCH", sp+"/nodes/1", map[string]any{"x": 1})
	e.wantError(409, "ANALYSIS_IN_PROGRESS", "DELETE", sp+"/nodes/1", nil)
	e.wantError(409, "ANALYSIS_IN_PROGRESS", "PATCH", "/job/units", map[string]any{"force": "N"})
	e.must(200, "GET", sp+"/nodes", nil)
	rdb.Del(t.Context(), redisstore.WorkspaceKey("default", "lock"))
	e.must(201, "POST", sp+"/nodes", map[string]any{"x": 0, "y": 0, "z": 0})
	e.must(200, "GET", "/job/status", nil).decode(t, &st)
	if st.AccessMode != httpapi.AccessReadWrite || !st.State.IsModified {
		t.Errorf("after the analysis: %+v", st)
	}
}

// Replicas serve requests at once: two partial updates of one row keep
// both changes, and creates without ids never collide.
func TestConcurrentWrites(t *testing.T) {
	e := structureEnv(t)
	for round := 0; round < 20; round++ {
		e.must(200, "PATCH", sp+"/nodes/1", map[string]any{"x": 0, "y": 0})
		done := make(chan int, 2)
		go func() { done <- e.do("PATCH", sp+"/nodes/1", map[string]any{"x": 1}).status }()
		go func() { done <- e.do("PATCH", sp+"/nodes/1", map[string]any{"y": 1}).status }()
		if a, b := <-done, <-done; a != 200 || b != 200 {
			t.Fatalf("round %d: statuses %d %d", round, a, b)
		}
		var n model.Node
		e.must(200, "GET", sp+"/nodes/1", nil).decode(t, &n)
		if n.X != 1 || n.Y != 1 {
			t.Fatalf("round %d: an update was lost: %+v", round, n)
		}
	}
	const creators = 20
	statuses := make(chan int, creators)
	for i := 0; i < creators; i++ {
		go func() { statuses <- e.do("POST", sp+"/nodes", map[string]any{"x": 1, "y": 2, "z": 3}).status }()
	}
	for i := 0; i < creators; i++ {
		if s := <-statuses; s != 201 {
			t.Errorf("concurrent create without id: %d", s)
		}
	}
	if nodes, _ := list[model.Node](t, e, sp+"/nodes"); len(nodes) != 4+creators {
		t.Errorf("%d nodes after %d concurrent creates", len(nodes), creators)
	}
}

// Hostile values are 400s, never 500s (found in review).
func TestHostileValues(t *testing.T) {
	e := structureEnv(t)
	// 1e305 MPa is 1e311 Pa: beyond float64 once in SI.
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/materials", map[string]any{"name": "x", "youngsModulus": 1e305, "poissonsRatio": 0.3})
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/nodes", map[string]any{"x": 1e21, "y": 0, "z": 0})
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/nodes", map[string]any{"x": nil, "y": 0, "z": 0})
	e.wantError(400, "VALIDATION_FAILED", "PATCH", sp+"/nodes/1", map[string]any{"y": nil})
	// A patch refused on one field leaves the others unchanged too.
	var before, after model.Node
	e.must(200, "GET", sp+"/nodes/1", nil).decode(t, &before)
	e.wantError(400, "VALIDATION_FAILED", "PATCH", sp+"/nodes/1", map[string]any{"y": before.Y + 7, "z": 1e21})
	if e.must(200, "GET", sp+"/nodes/1", nil).decode(t, &after); after != before {
		t.Errorf("a refused patch changed node 1: %+v, was %+v", after, before)
	}
	e.must(201, "POST", sp+"/node-restraints", map[string]any{"node": 1, "restraintCode": "VFFFFF"})
	e.wantError(400, "VALIDATION_FAILED", "PUT", sp+"/node-restraints/1/table/Tx", map[string]any{"rows": [][]float64{{0, 1e306}}})
	// Cut-off bulk bodies are 400s (found in review: the scanner read past
	// the end of the body).
	for _, body := range []string{`["abc`, `["`, `["\`, `[{"x":1},"`} {
		if r := e.raw("POST", sp+"/nodes/bulk", "application/json", []byte(body)); r.status != 400 {
			t.Errorf("bulk body %s: %d %s", body, r.status, r.body)
		}
	}
	// A repeated name is a 400 naming it, in bulk as in a single create
	// (the decoder would keep the last value silently).
	if r := e.raw("POST", sp+"/nodes/bulk", "application/json", []byte(`[{"x":"bad","x":5,"y":0,"z":0}]`)); r.status != 400 ||
		!strings.Contains(string(r.body), `\"[0].x\"`) {
		t.Fatalf("bulk create with a repeated name: %d %s", r.status, r.body)
	}
	// Saving where a folder stands is a 400 that says so.
	if err := os.MkdirAll(filepath.Join(e.dir, "dirjob.gsj"), 0o755); err != nil {
		t.Fatal(err)
	}
	er := e.wantError(400, "VALIDATION_FAILED", "POST", "/job/save", map[string]any{"filePath": "dirjob.gsj"})
	if !strings.Contains(er.Detail, "folder") {
		t.Errorf("save onto a folder: %s", er.Detail)
	}
}

// A slave cannot be a master and a master cannot be a slave: the engine
// eliminates each slave through its master (found in review).
func TestConstraintChainsRefused(t *testing.T) {
	e := structureEnv(t)
	e.must(201, "POST", sp+"/node-constraints", map[string]any{"slaveNode": 1, "masterNode": 2})
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/node-constraints", map[string]any{"slaveNode": 2, "masterNode": 1})
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/node-constraints", map[string]any{"slaveNode": 3, "masterNode": 1})
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/node-constraints", map[string]any{"slaveNode": 2, "masterNode": 3})
	e.must(201, "POST", sp+"/node-constraints", map[string]any{"slaveNode": 3, "masterNode": 2})
}
