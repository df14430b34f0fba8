package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/httpapi"
)

// sg is the URL of path on the SDK's base path (/api/sg/v1).
func (e *env) sg(path string) string {
	return strings.TrimSuffix(e.base, "/api/v1") + "/api/sg/v1" + path
}

// sgBeam opens a job with two nodes, a member, load case 1 (Primary
// once it has a load) and combination case 2 = 1.5 × case 1, written in
// the SDK's names where they differ.
func sgBeam(e *env) {
	e.t.Helper()
	e.must(200, "POST", e.sg("/job/new"), nil)
	e.must(201, "POST", e.sg("/job/structure/materials"), map[string]any{"id": 1, "name": "steel", "youngsModulus": 200e3, "poissonsRatio": 0.3})
	e.must(201, "POST", e.sg("/job/structure/sections"), map[string]any{"id": 1, "name": "b", "a": 5000, "j": 1e8, "iy": 1e8, "iz": 1e8, "ay": 1e4, "az": 1e4})
	for id, x := range map[int]float64{1: 0, 2: 6} {
		e.must(201, "POST", e.sg("/job/structure/nodes"), map[string]any{"id": id, "x": x, "y": 0, "z": 0})
	}
	e.must(201, "POST", e.sg("/job/structure/members"), map[string]any{"id": 1, "nodeA": 1, "nodeB": 2, "section": 1, "material": 1})
	e.must(201, "POST", e.sg("/job/loads/load-cases"), map[string]any{"id": 1, "title": "dead"})
	e.must(201, "POST", e.sg("/job/loads/combination-load-cases"), map[string]any{"id": 2, "title": "1.5 dead",
		"combinationItems": []map[string]any{{"case": 1, "multiplyingFactor": 1.5}}})
}

// keysOf decodes a JSON object body into its top-level keys and values.
func keysOf(t *testing.T, r resp) map[string]any {
	t.Helper()
	var m map[string]any
	r.decode(t, &m)
	return m
}

// Each family of renames works both ways on /api/sg/v1: what a client
// sends in the SDK's names is stored as /api/v1 sends it, and what is
// read back carries the SDK's names.
func TestSGNamesBothWays(t *testing.T) {
	e := newEnv(t, envOptions{})
	sgBeam(e)
	for _, c := range []struct {
		name string
		run  func(t *testing.T)
	}{
		{"bodies: case in a load", func(t *testing.T) {
			got := keysOf(t, e.must(201, "POST", e.sg("/job/loads/node-loads"), map[string]any{"case": 1, "node": 2, "fy": -5}))
			if got["case"] != 1.0 || got["loadCase"] != nil {
				t.Errorf("created load in the SDK's names: %v", got)
			}
			if v1 := keysOf(t, e.must(200, "GET", "/job/loads/node-loads/1/2", nil)); v1["loadCase"] != 1.0 || v1["fy"] != -5.0 {
				t.Errorf("the same load on /api/v1: %v", v1)
			}
		}},
		{"metadata names the SDK's fields", func(t *testing.T) {
			var md httpapi.Metadata
			e.must(200, "GET", e.sg("/job/loads/node-loads/metadata"), nil).decode(t, &md)
			var names []string
			for _, f := range md.Fields {
				names = append(names, f.JSONName)
			}
			if !contains(names, "case") || contains(names, "loadCase") || !contains(names, "fy") {
				t.Errorf("node load fields %v", names)
			}
		}},
		{"bodies: case in combination items", func(t *testing.T) {
			var items struct {
				CombinationItems []map[string]any `json:"combinationItems"`
			}
			e.must(200, "GET", e.sg("/job/loads/combination-load-cases/2/items"), nil).decode(t, &items)
			if len(items.CombinationItems) != 1 || items.CombinationItems[0]["case"] != 1.0 {
				t.Errorf("items %v", items.CombinationItems)
			}
		}},
		{"filters: load and case lists take cases", func(t *testing.T) {
			// The SDK's reference pages name the case filter of its load
			// lists and case lists cases (GET /job/loads/member-distributed-loads,
			// /job/loads/load-cases), as its result queries.
			e.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": 3, "title": "live"})
			e.must(201, "POST", "/job/loads/node-loads", map[string]any{"loadCase": 3, "node": 1, "fx": 1})
			var rows []map[string]any
			e.must(200, "GET", e.sg("/job/loads/node-loads?cases=3"), nil).decode(t, &rows)
			if len(rows) != 1 || rows[0]["case"] != 3.0 {
				t.Errorf("cases=3: %v", rows)
			}
			e.must(400, "GET", e.sg("/job/loads/node-loads?loadCases=3"), nil)
			e.must(200, "GET", e.sg("/job/loads/load-cases?cases=1,3"), nil).decode(t, &rows)
			if len(rows) != 2 {
				t.Errorf("load cases 1,3: %v", rows)
			}
		}},
		{"path parameters: caseId", func(t *testing.T) {
			e.must(200, "PATCH", e.sg("/job/loads/node-loads/1/2"), map[string]any{"fy": -7})
			if got := keysOf(t, e.must(200, "GET", e.sg("/job/loads/node-loads/1/2"), nil)); got["fy"] != -7.0 || got["case"] != 1.0 {
				t.Errorf("load 1/2: %v", got)
			}
			er := e.wantError(400, "VALIDATION_FAILED", "GET", e.sg("/job/loads/node-loads/x/2"), nil)
			if er.Errors[0].Field != "caseId" || !strings.HasPrefix(er.Detail, `caseId "x" in the path`) {
				t.Errorf("a bad case in the path: %+v", er)
			}
		}},
		{"path parameters: nodeId, the value as sent", func(t *testing.T) {
			er := e.wantError(400, "VALIDATION_FAILED", "GET", e.sg("/job/loads/node-loads/1/node"), nil)
			if er.Errors[0].Field != "nodeId" || !strings.HasPrefix(er.Detail, `nodeId "node" in the path`) {
				t.Errorf("a bad node in the path: %+v", er)
			}
		}},
		{"nodes/exists: the first node near a point", func(t *testing.T) {
			// sgBeam's nodes stand at x = 0 and x = 6 (m) on the x axis.
			// (5.95, 0, 0) is 0.05 from node 2 and 5.95 from node 1:
			// within 0.1 of node 2 only.
			if got := keysOf(t, e.must(200, "GET", e.sg("/job/structure/nodes/exists?x=5.95&y=0&z=0&tolerance=0.1"), nil)); got["id"] != 2.0 {
				t.Errorf("node near (5.95, 0, 0): %v", got)
			}
			// (3, 0, 0) is 3 from both: none within 1.
			e.wantError(404, "NOT_FOUND", "GET", e.sg("/job/structure/nodes/exists?x=3&y=0&z=0&tolerance=1"), nil)
			er := e.wantError(400, "VALIDATION_FAILED", "GET", e.sg("/job/structure/nodes/exists?x=a&y=0&z=0"), nil)
			if er.Errors[0].Field != "x" {
				t.Errorf("a bad x: %+v", er)
			}
		}},
		{"node-displacements are the prescribed displacements", func(t *testing.T) {
			e.must(201, "POST", e.sg("/job/loads/node-displacements"), map[string]any{"case": 1, "node": 1, "ty": -2})
			if got := keysOf(t, e.must(200, "GET", "/job/loads/prescribed-displacements/1/1", nil)); got["ty"] != -2.0 || got["loadCase"] != 1.0 {
				t.Errorf("the same displacement on /api/v1: %v", got)
			}
			if got := keysOf(t, e.must(200, "GET", e.sg("/job/loads/node-displacements/1/1"), nil)); got["ty"] != -2.0 || got["case"] != 1.0 {
				t.Errorf("read back on the SDK's path: %v", got)
			}
			e.must(204, "DELETE", e.sg("/job/loads/node-displacements/1/1"), nil)
		}},
		{"nested routes", func(t *testing.T) {
			e.must(201, "POST", e.sg("/job/structure/node-restraints"), map[string]any{"node": 1, "restraintCode": "FFFFFF"})
			if got := keysOf(t, e.must(200, "GET", e.sg("/job/structure/nodes/1/restraint"), nil)); got["restraintCode"] != "FFFFFF" {
				t.Errorf("restraint of node 1: %v", got)
			}
			e.must(200, "PATCH", e.sg("/job/structure/nodes/1/restraint"), map[string]any{"restraintCode": "FFFRRR"})
			if got := keysOf(t, e.must(200, "GET", "/job/structure/node-restraints/1", nil)); got["restraintCode"] != "FFFRRR" {
				t.Errorf("restraint on /api/v1 after the nested PATCH: %v", got)
			}
			e.must(201, "POST", e.sg("/job/structure/node-constraints"), map[string]any{"slaveNode": 2, "masterNode": 1, "constraintCode": "FFFRRR"})
			if got := keysOf(t, e.must(200, "GET", e.sg("/job/structure/nodes/2/constraint"), nil)); got["masterNode"] != 1.0 {
				t.Errorf("constraint of node 2: %v", got)
			}
			e.must(204, "DELETE", e.sg("/job/structure/nodes/2/constraint"), nil)
			e.wantError(404, "NOT_FOUND", "GET", "/job/structure/node-constraints/2", nil)
			e.must(201, "POST", e.sg("/job/structure/member-offsets"), map[string]any{"member": 1, "axes": "Global", "xOffsetAtA": 0.1})
			if got := keysOf(t, e.must(200, "GET", e.sg("/job/structure/members/1/offsets"), nil)); got["xOffsetAtA"] != 0.1 {
				t.Errorf("offsets of member 1: %v", got)
			}
			e.must(204, "DELETE", e.sg("/job/structure/members/1/offsets"), nil)
		}},
		{"thermal loads split by element type", func(t *testing.T) {
			for i, n := range [][3]float64{{0, 1, 0}, {6, 1, 0}} {
				e.must(201, "POST", "/job/structure/nodes", map[string]any{"id": i + 3, "x": n[0], "y": n[1], "z": n[2]})
			}
			e.must(201, "POST", "/job/structure/plates", map[string]any{"id": 1, "nodeA": 1, "nodeB": 2, "nodeC": 4, "nodeD": 3,
				"material": 1, "actualThickness": 200})
			e.must(201, "POST", e.sg("/job/loads/thermal-loads"), map[string]any{"case": 1, "elementType": "Member", "elementId": 1, "thermalLoad": 20})
			e.must(201, "POST", e.sg("/job/loads/thermal-loads"), map[string]any{"case": 1, "elementType": "Plate", "elementId": 1, "thermalLoad": 5})
			for path, want := range map[string]float64{"/member/1/1": 20, "/plate/1/1": 5} {
				got := keysOf(t, e.must(200, "GET", e.sg("/job/loads/thermal-loads"+path), nil))
				if got["thermalLoad"] != want || got["case"] != 1.0 {
					t.Errorf("%s: %v", path, got)
				}
			}
			e.must(200, "PATCH", e.sg("/job/loads/thermal-loads/plate/1/1"), map[string]any{"thermalLoad": 6})
			if got := keysOf(t, e.must(200, "GET", "/job/loads/thermal-loads/1/Plate/1", nil)); got["thermalLoad"] != 6.0 {
				t.Errorf("the plate's load on /api/v1: %v", got)
			}
			e.must(204, "DELETE", e.sg("/job/loads/thermal-loads/member/1/1"), nil)
			e.wantError(404, "NOT_FOUND", "GET", "/job/loads/thermal-loads/1/Member/1", nil)
		}},
		{"settings", func(t *testing.T) {
			got := keysOf(t, e.must(200, "PATCH", e.sg("/job/analysis/static/settings"), map[string]any{"retainCases": true, "checkNonExistentCases": false}))
			if got["retainCases"] != true || got["checkNonExistentCases"] != false || got["retainLoadCases"] != nil {
				t.Errorf("static settings in the SDK's names: %v", got)
			}
			if v1 := keysOf(t, e.must(200, "GET", "/job/analysis/static/settings", nil)); v1["retainLoadCases"] != true || v1["checkNonExistentLoadCases"] != false {
				t.Errorf("static settings on /api/v1: %v", v1)
			}
			e.must(200, "PATCH", e.sg("/job/analysis/buckling/settings"), map[string]any{"retainCases": true})
			if v1 := keysOf(t, e.must(200, "GET", "/job/analysis/buckling/settings", nil)); v1["retainLoadCases"] != true {
				t.Errorf("buckling settings on /api/v1: %v", v1)
			}
		}},
		{"service info names the base path", func(t *testing.T) {
			var info httpapi.ServiceInfo
			e.must(200, "GET", e.sg("/service/info"), nil).decode(t, &info)
			if info.APIPath != "/api/sg/v1" {
				t.Errorf("apiPath %q", info.APIPath)
			}
		}},
	} {
		t.Run(c.name, c.run)
	}
}

// On /api/sg/v1 the names /api/v1 uses where the SDK renamed them are
// unknown, as a misspelt name is: a 400 that names what was sent, in the
// body and in the query string. Errors about a renamed field name the
// SDK's field.
func TestSGNamesUnknownNames(t *testing.T) {
	e := newEnv(t, envOptions{})
	sgBeam(e)
	for _, c := range []struct {
		name, method, path string
		body               any
		field, detail      string
	}{
		{"our case key", "POST", "/job/loads/node-loads", map[string]any{"loadCase": 1, "node": 1, "fy": 1}, "loadCase", `unknown property "loadCase"`},
		{"our key in an item", "POST", "/job/loads/node-loads/bulk", []map[string]any{{"case": 1, "node": 1}, {"loadCase": 1, "node": 2}}, "loadCase", `unknown property "loadCase"`},
		{"our settings key", "PATCH", "/job/analysis/static/settings", map[string]any{"retainLoadCases": true}, "retainLoadCases", `unknown property "retainLoadCases"`},
		{"a misspelt key", "POST", "/job/loads/node-loads", map[string]any{"case": 1, "node": 1, "fyy": 1}, "fyy", `unknown property "fyy"`},
		{"the SDK's key where it does not belong", "PATCH", "/job/structure/nodes/1", map[string]any{"case": 1}, "case", `unknown property "case"`},
		{"a bad filter names cases", "GET", "/job/loads/node-loads?cases=x", nil, "cases", "cases"},
		{"a missing case names case", "POST", "/job/loads/node-loads", map[string]any{"node": 1, "fy": 1}, "case", "case"},
	} {
		t.Run(c.name, func(t *testing.T) {
			er := e.wantError(400, "VALIDATION_FAILED", c.method, e.sg(c.path), c.body)
			if !strings.HasPrefix(er.Instance, "/api/sg/v1/") {
				t.Errorf("instance %q is not the path as sent", er.Instance)
			}
			if er.Errors[0].Field != c.field || !strings.Contains(er.Detail, c.detail) {
				t.Errorf("field %q, detail %q; want field %q and %q in the detail", er.Errors[0].Field, er.Detail, c.field, c.detail)
			}
			if strings.Contains(er.Detail, "loadCase") && c.field != "loadCase" && c.field != "loadCases" {
				t.Errorf("the detail names our name: %q", er.Detail)
			}
		})
	}
	// Nothing of a refused body was applied.
	var rows []map[string]any
	e.must(200, "GET", "/job/loads/node-loads", nil).decode(t, &rows)
	if len(rows) != 0 {
		t.Errorf("refused loads were stored: %v", rows)
	}
}

// /api/v1 is unchanged: it takes and answers its own names, refuses the
// SDK's, and its document describes it alone.
func TestSGNamesLeaveV1Unchanged(t *testing.T) {
	e := newEnv(t, envOptions{})
	sgBeam(e)
	er := e.wantError(400, "VALIDATION_FAILED", "POST", "/job/loads/node-loads", map[string]any{"case": 1, "node": 1, "fy": 1})
	if fields := fieldsOf(er); fields["case"] == "" || fields["loadCase"] == "" {
		t.Errorf("/api/v1 took the SDK's case: %+v", er)
	}
	got := keysOf(t, e.must(201, "POST", "/job/loads/node-loads", map[string]any{"loadCase": 1, "node": 1, "fy": 1}))
	if got["loadCase"] != 1.0 || got["case"] != nil {
		t.Errorf("/api/v1 load: %v", got)
	}
	e.wantError(400, "VALIDATION_FAILED", "PATCH", "/job/analysis/static/settings", map[string]any{"retainCases": true})
	var info httpapi.ServiceInfo
	e.must(200, "GET", "/service/info", nil).decode(t, &info)
	if info.APIPath != "/api/v1" {
		t.Errorf("apiPath %q", info.APIPath)
	}
	var doc struct {
		Info  struct{ Description string }
		Paths map[string]any
	}
	e.must(200, "GET", "/openapi.json", nil).decode(t, &doc)
	for p := range doc.Paths {
		if strings.HasPrefix(p, "/api/sg/") {
			t.Errorf("the /api/v1 document lists %s", p)
		}
	}
	if _, ok := doc.Paths["/api/v1/job/loads/thermal-loads/{loadCase}/{elementType}/{elementId}"]; !ok {
		t.Error("the /api/v1 document lost the thermal load path")
	}
	if !strings.Contains(doc.Info.Description, "/api/sg/v1/openapi.json") {
		t.Error("the /api/v1 document does not point at the SDK-named one")
	}
}

// The SDK-named document is generated from the same routes: its paths
// are the SDK's, its schemas and parameters carry the SDK's names.
func TestSGNamesOpenAPI(t *testing.T) {
	e := newEnv(t, envOptions{})
	var doc struct {
		Paths      map[string]map[string]json.RawMessage
		Components struct {
			Schemas map[string]struct {
				Properties map[string]any
				Required   []string
			}
		}
	}
	e.must(200, "GET", e.sg("/openapi.json"), nil).decode(t, &doc)
	for _, p := range []string{
		"/api/sg/v1/job/loads/thermal-loads/member/{caseId}/{memberId}",
		"/api/sg/v1/job/loads/thermal-loads/plate/{caseId}/{plateId}",
		"/api/sg/v1/job/loads/node-loads/{caseId}/{nodeId}",
		"/api/sg/v1/job/loads/node-displacements/{caseId}/{nodeId}",
		"/api/sg/v1/job/structure/nodes/exists",
		"/api/sg/v1/job/loads/member-distributed-loads/{caseId}/{memberId}/{subLoadId}",
		"/api/sg/v1/job/structure/nodes/{id}/restraint",
		"/api/sg/v1/job/structure/nodes/{id}/constraint",
		"/api/sg/v1/job/structure/members/{id}/offsets",
		"/api/sg/v1/job/structure/node-restraints/{nodeId}",
		"/api/sg/v1/openapi.json",
	} {
		if doc.Paths[p] == nil {
			t.Errorf("no path %s", p)
		}
	}
	for _, p := range []string{"/api/sg/v1/job/loads/thermal-loads/{caseId}/{elementType}/{elementId}", "/api/v1/job/new",
		"/api/sg/v1/job/loads/prescribed-displacements", "/api/sg/v1/job/structure/nodes/by-location"} {
		if doc.Paths[p] != nil {
			t.Errorf("path %s is not the SDK's", p)
		}
	}
	nl := doc.Components.Schemas["NodeLoad"]
	if nl.Properties["case"] == nil || nl.Properties["loadCase"] != nil || !contains(nl.Required, "case") || contains(nl.Required, "loadCase") {
		t.Errorf("NodeLoad in the SDK's names: %v, required %v", keysList(nl.Properties), nl.Required)
	}
	st := doc.Components.Schemas["StaticSettings"]
	if st.Properties["retainCases"] == nil || st.Properties["retainLoadCases"] != nil || st.Properties["loadCases"] == nil {
		t.Errorf("StaticSettings in the SDK's names: %v", keysList(st.Properties))
	}
	var list struct {
		Parameters []struct{ Name, In string }
	}
	if err := json.Unmarshal(doc.Paths["/api/sg/v1/job/loads/node-loads"]["get"], &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Parameters {
		names = append(names, p.Name)
	}
	if contains(names, "loadCases") || !contains(names, "cases") {
		t.Errorf("node load list parameters %v", names)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func keysList(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A list too long to be held (over the MiB the api holds back) is
// renamed as it streams: its bytes are those of /api/v1's answer with the
// case key renamed, and it went out chunked.
func TestSGNamesStreamedList(t *testing.T) {
	e := newEnv(t, envOptions{})
	sgBeam(e)
	const n = 6000
	nodes := make([]map[string]any, n)
	for i := range nodes {
		nodes[i] = map[string]any{"id": i + 3, "x": i, "y": 1, "z": 0}
	}
	e.must(200, "POST", e.sg("/job/structure/nodes/bulk"), nodes)
	for lc := 3; lc <= 5; lc++ {
		e.must(201, "POST", e.sg("/job/loads/load-cases"), map[string]any{"id": lc, "title": fmt.Sprint(lc)})
		loads := make([]map[string]any, n)
		for i := range loads {
			loads[i] = map[string]any{"case": lc, "node": i + 3, "fx": lc, "fy": -i, "fz": 0.25}
		}
		e.must(200, "POST", e.sg("/job/loads/node-loads/bulk"), loads)
	}
	sg := e.must(200, "GET", e.sg("/job/loads/node-loads?cases=3-5"), nil)
	v1 := e.must(200, "GET", "/job/loads/node-loads?loadCases=3-5", nil)
	if sg.header.Get("Content-Length") != "" || len(v1.body) < 1<<20 {
		t.Errorf("not streamed: %d bytes, Content-Length %q", len(v1.body), sg.header.Get("Content-Length"))
	}
	if want := bytes.ReplaceAll(v1.body, []byte(`"loadCase":`), []byte(`"case":`)); !bytes.Equal(sg.body, want) {
		t.Errorf("the SDK-named list (%d bytes) is not /api/v1's renamed (%d bytes):\n%.300s\n%.300s", len(sg.body), len(want), sg.body, want)
	}
	if sg.header.Get("Total-Count") != "18000" {
		t.Errorf("Total-Count %q", sg.header.Get("Total-Count"))
	}
}

// Every body example of the SDK-named document passes its route on
// /api/sg/v1, as TestOpenAPIExamplesPassTheirRoutes checks /api/v1's: the
// document's renames and the translation agree. A refusal about the
// sample's rows is not one about the example's names.
func TestSGNamesOpenAPIExamplesPass(t *testing.T) {
	e := newEnv(t, envOptions{})
	var doc openAPIDoc
	e.must(200, "GET", e.sg("/openapi.json"), nil).decode(t, &doc)
	n := 0
	for p, methods := range doc.Paths {
		for m, op := range methods {
			if op.RequestBody == nil {
				continue
			}
			media, ok := op.RequestBody.Content["application/json"]
			if !ok {
				continue
			}
			n++
			t.Run(strings.ToUpper(m)+" "+p, func(t *testing.T) {
				e.must(200, "POST", e.sg("/job/close"), nil)
				e.must(200, "POST", e.sg("/job/open-sample"), map[string]any{"fileName": "portal frame"})
				if strings.Contains(p, "/table/") {
					// A variable table is given in a direction the code marks V.
					e.must(200, "PATCH", e.sg("/job/structure/node-restraints/1"), map[string]any{"restraintCode": "VFFFFF"})
				}
				path := pathParam.ReplaceAllStringFunc(p, func(s string) string {
					if v, ok := pathValues[s]; ok {
						return v
					}
					return "1"
				})
				r := e.raw(strings.ToUpper(m), strings.TrimSuffix(e.base, "/api/v1")+path, "application/json", media.Example)
				if r.status == 400 && allAbout(r.errBody(t), " does not exist") {
					return
				}
				if r.status == 400 || r.status == 415 || r.status >= 500 {
					t.Errorf("example %s answered %d: %s", media.Example, r.status, r.body)
				}
			})
		}
	}
	if n < 40 {
		t.Fatalf("only %d operations take a JSON body", n)
	}
}
