package httpapi_test

// D1, D2, D3, D6 and D7 of README "Differences from the contract".

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/model"
)

// GET /job/status reports the job-session table's "no job open" state
// instead of refusing it: 200, isOpen false, job null, zero counts and
// accessMode NoAccess, before any job and after a close; with a job open
// it reports that job.
func TestStatusWithNoJobOpen(t *testing.T) {
	e := newEnv(t, envOptions{})
	closed := func(when string) {
		t.Helper()
		var raw map[string]json.RawMessage
		e.must(200, "GET", "/job/status", nil).decode(t, &raw)
		var st httpapi.Status
		e.must(200, "GET", "/job/status", nil).decode(t, &st)
		if string(raw["job"]) != "null" || st.State.IsOpen || st.State.OpenedAt != nil || st.AccessMode != httpapi.AccessNoAccess ||
			st.Structure != (httpapi.StructureCounts{}) || st.Analysis != (httpapi.AnalysisFlags{}) {
			t.Errorf("%s: status %s, want isOpen false, job null, zero counts, accessMode NoAccess", when, e.must(200, "GET", "/job/status", nil).body)
		}
	}
	closed("before any job")
	e.must(200, "POST", "/job/new", nil)
	e.must(201, "POST", sp+"/nodes", map[string]any{"x": 0, "y": 0, "z": 0})
	var st httpapi.Status
	e.must(200, "GET", "/job/status", nil).decode(t, &st)
	if !st.State.IsOpen || st.Job == nil || st.Job.Units.Length != "m" || st.AccessMode != httpapi.AccessReadWrite || st.Structure.Nodes != 1 {
		t.Errorf("open job: %+v", st)
	}
	e.must(200, "POST", "/job/close", nil)
	closed("after a close")
	// Still no error for the job's error log to keep: the next job's is empty.
	e.must(200, "POST", "/job/new", nil)
	var log httpapi.ErrorsResponse
	if e.must(200, "GET", "/job/errors", nil).decode(t, &log); log.Count != 0 {
		t.Errorf("the error log holds %+v", log.Errors)
	}
}

// Every list sends Total-Count, Offset and Limit (interface: "headers
// Total-Count, Offset, Limit" on every list); without a limit, Limit is
// the greatest a request may give, 2147483647, and sending it back asks
// for the same rows.
func TestLimitHeaderOnEveryList(t *testing.T) {
	e := structureEnv(t)
	e.must(201, "POST", sp+"/members", map[string]any{"nodeA": 1, "nodeB": 2, "section": 1, "material": 1})
	e.must(201, "POST", sp+"/node-restraints", map[string]any{"node": 1})
	e.must(201, "POST", "/job/loads/load-cases", map[string]any{"title": "dead"})
	lists := []string{sp + "/nodes", sp + "/nodes?minX=1", sp + "/members", sp + "/node-restraints", "/job/loads/load-cases",
		"/job/loads/node-loads", "/job/query/geometry/members", sp + "/sections/library?library=AISC15&search=W14X9"}
	for _, path := range lists {
		t.Run(path, func(t *testing.T) {
			sep := "?"
			if strings.Contains(path, "?") {
				sep = "&"
			}
			for _, tt := range []struct{ query, limit string }{{"", "2147483647"}, {"limit=2", "2"}, {"offset=1", "2147483647"}} {
				p := path
				if tt.query != "" {
					p += sep + tt.query
				}
				r := e.must(200, "GET", p, nil)
				if got := r.header.Get("Limit"); got != tt.limit {
					t.Errorf("%s: Limit %q, want %q", p, got, tt.limit)
				}
				if r.header.Get("Offset") == "" {
					t.Errorf("%s: no Offset header", p)
				}
				if tt.query == "" {
					again := e.must(200, "GET", path+sep+"limit="+tt.limit, nil)
					if string(again.body) != string(r.body) {
						t.Errorf("%s: sending Limit back answers other rows:\n%s\n%s", path, r.body, again.body)
					}
				}
			}
		})
	}
}

// A create without an id gets the next available number, the smallest
// free id, which the metadata's nextId and GET next report beforehand;
// a bulk create numbers its items in order around the ids it gives
// itself; no id left above the greatest in use is no reason to refuse.
func TestAutoIDsTakeTheNextAvailableNumber(t *testing.T) {
	node := func(id int64) map[string]any {
		n := map[string]any{"x": 0, "y": 0, "z": float64(id)}
		if id != 0 {
			n["id"] = id
		}
		return n
	}
	tests := []struct {
		name   string
		held   []int64
		create [][]int64 // requests, each a bulk of ids (0: none given)
		want   [][]int64
	}{
		{"nodes 1 and 10", []int64{1, 10}, [][]int64{{0}, {0}}, [][]int64{{2}, {3}}},
		{"the greatest id held", []int64{1, model.MaxID}, [][]int64{{0}}, [][]int64{{2}}},
		{"nodes 1-4 deleted around", []int64{2, 4}, [][]int64{{0, 0, 0}}, [][]int64{{1, 3, 5}}},
		{"a bulk that gives some ids", []int64{1, 10}, [][]int64{{0, 3, 0, 2, 0}}, [][]int64{{4, 3, 5, 2, 6}}},
		{"past the last run", []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, [][]int64{{0, 0}}, [][]int64{{11, 12}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, envOptions{})
			e.must(200, "POST", "/job/new", nil)
			var held []map[string]any
			for _, id := range tt.held {
				held = append(held, node(id))
			}
			e.must(200, "POST", sp+"/nodes/bulk", held)
			for i, req := range tt.create {
				var md httpapi.Metadata
				e.must(200, "GET", sp+"/nodes/metadata", nil).decode(t, &md)
				var next int64
				e.must(200, "GET", sp+"/nodes/next", nil).decode(t, &next)
				// A request that gives ids of its own may number around
				// them; one that gives none starts at nextId.
				if !slices.ContainsFunc(req, func(id int64) bool { return id != 0 }) {
					if want := tt.want[i][0]; md.NextID != want || next != want {
						t.Errorf("request %d: nextId %d, next %d; the create assigns %d", i, md.NextID, next, want)
					}
				}
				if len(req) == 1 {
					var n model.Node
					e.must(201, "POST", sp+"/nodes", node(req[0])).decode(t, &n)
					if n.ID != tt.want[i][0] {
						t.Errorf("request %d: created node %d, want %d", i, n.ID, tt.want[i][0])
					}
					continue
				}
				body := make([]map[string]any, len(req))
				for j, id := range req {
					body[j] = node(id)
				}
				var br editor.BulkResult
				e.must(200, "POST", sp+"/nodes/bulk", body).decode(t, &br)
				var got []int64
				for _, s := range br.Succeeded {
					got = append(got, s.ID)
				}
				if !reflect.DeepEqual(got, tt.want[i]) {
					t.Errorf("request %d: bulk created %v, want %v", i, got, tt.want[i])
				}
			}
		})
	}
}

// Concurrent creates without ids, from many clients, each get a
// distinct id, and together they fill the gaps from the smallest up: the
// store takes an id once, and a create that lost its id to another is
// numbered again.
func TestAutoIDsUnderConcurrentCreates(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	// Held: 1, 3, 5, ..., 39 and 100; free below 100: the 20 even ids
	// 2..40 and 41..99.
	var held []map[string]any
	for id := 1; id <= 39; id += 2 {
		held = append(held, map[string]any{"id": id, "x": 0, "y": 0, "z": 0})
	}
	held = append(held, map[string]any{"id": 100, "x": 0, "y": 0, "z": 0})
	e.must(200, "POST", sp+"/nodes/bulk", held)
	const clients, each = 8, 5
	ids := make(chan int64, clients*each)
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for range each {
				r := e.do("POST", sp+"/nodes", map[string]any{"x": 1, "y": 1, "z": 1})
				var n model.Node
				if r.status != 201 || json.Unmarshal(r.body, &n) != nil {
					t.Errorf("concurrent create: %d %s", r.status, r.body)
					return
				}
				ids <- n.ID
			}
		})
	}
	wg.Wait()
	close(ids)
	var got []int64
	for id := range ids {
		got = append(got, id)
	}
	slices.Sort(got)
	var want []int64 // the 40 smallest free ids
	for id := int64(2); len(want) < clients*each; id++ {
		if id > 40 || id%2 == 0 {
			want = append(want, id)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ids created %v, want the %d smallest free %v", got, len(want), want)
	}
}

// A PATCH of a restraint, constraint or offset row takes its key from the
// route whatever key the body gives (interface: "the route id wins over
// the body key"): the route's row changes, the body's does not.
func TestAttributePatchTakesTheRouteKey(t *testing.T) {
	e := structureEnv(t)
	e.must(200, "POST", sp+"/members/bulk", []map[string]any{
		{"id": 1, "nodeA": 1, "nodeB": 2, "section": 1, "material": 1}, {"id": 2, "nodeA": 2, "nodeB": 3, "section": 1, "material": 1}})
	e.must(200, "POST", sp+"/node-restraints/bulk", []map[string]any{{"node": 1}, {"node": 2}})
	e.must(200, "POST", sp+"/node-constraints/bulk", []map[string]any{{"slaveNode": 3, "masterNode": 1}, {"slaveNode": 4, "masterNode": 1}})
	e.must(200, "POST", sp+"/member-offsets/bulk", []map[string]any{{"member": 1}, {"member": 2}})
	tests := []struct {
		path, field, other string
		body               map[string]any
		changed            string // the field the patch sets, and its value
		want               any
	}{
		{sp + "/node-restraints/1", "node", sp + "/node-restraints/2", map[string]any{"node": 2, "restraintCode": "RRRRRR"}, "restraintCode", "RRRRRR"},
		{sp + "/node-restraints/1", "node", sp + "/node-restraints/2", map[string]any{"node": "two", "activeDirection": "PPPPPP"}, "activeDirection", "PPPPPP"},
		{sp + "/node-constraints/3", "slaveNode", sp + "/node-constraints/4", map[string]any{"slaveNode": 4, "constraintCode": "RRRFFF"}, "constraintCode", "RRRFFF"},
		{sp + "/member-offsets/1", "member", sp + "/member-offsets/2", map[string]any{"member": 2, "xOffsetAtA": 50}, "xOffsetAtA", 50.0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %v", tt.path, tt.body[tt.field]), func(t *testing.T) {
			before := string(e.must(200, "GET", tt.other, nil).body)
			var got map[string]any
			e.must(200, "PATCH", tt.path, tt.body).decode(t, &got)
			key := tt.path[strings.LastIndexByte(tt.path, '/')+1:]
			if fmt.Sprint(got[tt.field]) != key || got[tt.changed] != tt.want {
				t.Errorf("answer %v, want %s %s and %s %v", got, tt.field, key, tt.changed, tt.want)
			}
			e.must(200, "GET", tt.path, nil).decode(t, &got)
			if got[tt.changed] != tt.want {
				t.Errorf("the route's row after the patch: %v", got)
			}
			if after := string(e.must(200, "GET", tt.other, nil).body); after != before {
				t.Errorf("the body's row changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// A load-case delete answers the delete result record (interface: "for
// load cases and combination cases the delete response is documented
// with the delete result record shape"): every member of it, its lists
// empty (a case delete removes no element, load or item) and totalRemoved
// the case rows removed, with loadCases and keptLoadCases saying which.
func TestLoadCaseDeleteAnswersTheDeleteResult(t *testing.T) {
	e := structureEnv(t)
	e.must(201, "POST", lp+"/load-cases", map[string]any{"id": 1, "title": "dead"})
	e.must(201, "POST", lp+"/load-cases", map[string]any{"id": 2, "title": "unused"})
	e.must(201, "POST", lp+"/load-cases", map[string]any{"id": 3, "title": "live"})
	e.must(201, "POST", lp+"/combination-load-cases", map[string]any{"id": 4, "title": "1.2G", "combinationItems": []map[string]any{{"loadCase": 1, "multiplyingFactor": 1.2}}})
	e.must(201, "POST", lp+"/node-loads", map[string]any{"loadCase": 3, "node": 2, "fy": -10})
	var members []string
	rt := reflect.TypeOf(editor.DeleteResult{})
	for i := range rt.NumField() {
		members = append(members, model.TagsOf(rt.Field(i)).JSONName)
	}
	tests := []struct {
		name, path      string
		removed, kept   []int64
		totalRemoved    float64
		listsAfterwards int // status of GET on the case afterwards
	}{
		{"an unused case", lp + "/load-cases/2", []int64{2}, []int64{}, 1, 404},
		{"a case with loads", lp + "/load-cases/3", []int64{}, []int64{3}, 0, 200},
		{"a combined case", lp + "/load-cases/1", []int64{}, []int64{1}, 0, 200},
		{"a combination", lp + "/combination-load-cases/4", []int64{}, []int64{4}, 0, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var raw map[string]any
			e.must(200, "DELETE", tt.path, nil).decode(t, &raw)
			for _, m := range members {
				v, ok := raw[m]
				if !ok {
					t.Errorf("the answer lacks %s: %v", m, raw)
					continue
				}
				if list, isList := v.([]any); isList && len(list) != 0 {
					t.Errorf("%s = %v, want [] (a case delete removes no element or load)", m, list)
				}
			}
			if raw["totalRemoved"] != tt.totalRemoved {
				t.Errorf("totalRemoved %v, want %v", raw["totalRemoved"], tt.totalRemoved)
			}
			var res editor.CaseDeleteResult
			b, err := json.Marshal(raw)
			if err == nil {
				err = json.Unmarshal(b, &res)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.LoadCases, tt.removed) || !reflect.DeepEqual(res.KeptLoadCases, tt.kept) {
				t.Errorf("loadCases %v keptLoadCases %v, want %v and %v", res.LoadCases, res.KeptLoadCases, tt.removed, tt.kept)
			}
			if r := e.do("GET", lp+"/load-cases/"+tt.path[strings.LastIndexByte(tt.path, '/')+1:], nil); r.status != tt.listsAfterwards {
				t.Errorf("GET of the case afterwards: %d, want %d", r.status, tt.listsAfterwards)
			}
		})
	}
}
