package httpapi_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// errorFields maps each field an error response names to its message.
func errorFields(t *testing.T, r resp) map[string]string {
	t.Helper()
	er := r.errBody(t)
	out := map[string]string{}
	for _, x := range er.Errors {
		out[x.Field] = x.Message
	}
	return out
}

// Every field error of a body is reported at once, for single and bulk
// creates and for updates: missing required fields, unknown and read-only
// properties and bad values alike.
func TestFieldErrorsAllAtOnce(t *testing.T) {
	e := structureEnv(t)
	tests := []struct {
		name, method, path string
		body               string
		want               []string // fields named in errors[]
	}{
		{"create", "POST", sp + "/members",
			`{"nodeA":1,"type":"Bogus","cableLength":-1,"hasOffsets":true,"bogus":1,"direction":{"source":"Sideways"}}`,
			[]string{"nodeB", "section", "material", "bogus", "type", "cableLength", "hasOffsets", "direction.source"}},
		{"update", "PATCH", sp + "/nodes/1", `{"x":"far","y":1e30,"hasRestraint":true,"w":1}`,
			[]string{"x", "y", "hasRestraint", "w"}},
		{"bulk create item", "POST", sp + "/nodes/bulk", `[{"x":0,"y":0,"z":0},{"x":"far","q":1}]`,
			[]string{"[1].y", "[1].z", "[1].q", "[1].x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.raw(tt.method, tt.path, "application/json", []byte(tt.body))
			if r.status != 400 {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			got := errorFields(t, r)
			if strings.HasPrefix(tt.want[0], "[") {
				// A rejected bulk body lists the item once; its errors are
				// in the item's own list (continueOnError=true below).
				r = e.raw(tt.method, tt.path+"?continueOnError=true", "application/json", []byte(tt.body))
				var res editor.BulkResult
				if r.status != 200 || json.Unmarshal(r.body, &res) != nil || len(res.Errors) != 1 {
					t.Fatalf("continueOnError: %d %s", r.status, r.body)
				}
				got = map[string]string{}
				for _, fe := range res.Errors[0].Errors {
					got["["+fmt.Sprint(res.Errors[0].Index)+"]."+fe.Field] = fe.Message
				}
			}
			for _, f := range tt.want {
				if _, ok := got[f]; !ok {
					t.Errorf("errors %v do not name %s", got, f)
				}
			}
		})
	}
	// Required fields come first, as before.
	r := e.raw("POST", sp+"/nodes", "application/json", []byte(`{"bogus":1}`))
	if er := r.errBody(t); r.status != 400 || er.Errors[0].Field != "x" || !strings.Contains(er.Detail, "x is required") {
		t.Errorf("first error: %d %s", r.status, r.body)
	}
}

// Enum values are matched ignoring case and stored and answered in their
// canonical spelling, in single and bulk bodies.
func TestEnumValuesCaseInsensitive(t *testing.T) {
	e := structureEnv(t)
	tests := []struct {
		name, method, path string
		body               any
		check              func(t *testing.T, m model.Member)
	}{
		{"create", "POST", sp + "/members", map[string]any{"id": 1, "nodeA": 1, "nodeB": 2, "section": 1, "material": 1,
			"type": "tensiononly", "direction": map[string]any{"source": "AXIS", "dirAxis": "negativeZaxis"}},
			func(t *testing.T, m model.Member) {
				if m.Type != "TensionOnly" || m.Direction.Source != "Axis" || m.Direction.DirAxis != "NegativeZAxis" {
					t.Errorf("not canonical: %q %+v", m.Type, m.Direction)
				}
			}},
		{"update", "PATCH", sp + "/members/1", map[string]any{"type": "CABLE"},
			func(t *testing.T, m model.Member) {
				if m.Type != "Cable" {
					t.Errorf("type %q", m.Type)
				}
			}},
		{"bulk create", "POST", sp + "/members/bulk", []map[string]any{{"id": 2, "nodeA": 2, "nodeB": 3, "section": 1, "material": 1, "type": "normal"}},
			func(t *testing.T, m model.Member) {
				if m.Type != "Normal" {
					t.Errorf("type %q", m.Type)
				}
			}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(tt.method, tt.path, tt.body)
			if r.status != 200 && r.status != 201 {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			id := 1
			if i == 2 {
				id = 2
			}
			var m model.Member
			if strings.Contains(string(r.body), `"type"`) && !strings.HasSuffix(tt.path, "bulk") {
				r.decode(t, &m)
				tt.check(t, m) // as answered
			}
			e.must(200, "GET", fmt.Sprintf("%s/members/%d", sp, id), nil).decode(t, &m)
			tt.check(t, m) // as stored
		})
	}
	e.wantError(400, "VALIDATION_FAILED", "PATCH", sp+"/members/1", map[string]any{"type": "tension only"})
}

// An id in a PATCH body must be the integer of the route; a member name
// given twice is a 400 naming it, whichever path decodes the body.
func TestPatchIDAndDuplicateNames(t *testing.T) {
	e := structureEnv(t)
	tests := []struct {
		name, method, path, body string
		status                   int
		field                    string
	}{
		{"patch with its own id", "PATCH", sp + "/nodes/2", `{"id":2,"x":4}`, 200, ""},
		{"patch with another id", "PATCH", sp + "/nodes/2", `{"id":3,"x":4}`, 400, "id"},
		{"patch with a text id", "PATCH", sp + "/nodes/2", `{"id":"2","x":4}`, 400, "id"},
		{"patch with a fractional id", "PATCH", sp + "/nodes/2", `{"id":2.5}`, 400, "id"},
		{"patch with a null id", "PATCH", sp + "/nodes/2", `{"id":null}`, 400, "id"},
		{"load key in the body differs", "PATCH", lp + "/node-loads/1/1", `{"loadCase":1,"node":2,"fx":1}`, 400, "node"},
		{"load key in the body agrees", "PATCH", lp + "/node-loads/1/1", `{"loadCase":1,"node":1,"fx":1}`, 200, ""},
		{"create with a repeated name", "POST", sp + "/nodes", `{"x":1,"y":0,"z":0,"x":2}`, 400, "x"},
		{"repeated escaped name", "POST", sp + "/nodes", `{"x":1,"y":0,"z":0,"\u0078":2}`, 400, "x"},
		{"patch with a repeated name", "PATCH", sp + "/nodes/2", `{"y":1,"y":2}`, 400, "y"},
		{"repeated name in a nested object", "PATCH", sp + "/members/1", `{"direction":{"dirAngle":1,"dirAngle":2}}`, 400, "direction.dirAngle"},
		{"bulk create item with a repeated name", "POST", sp + "/nodes/bulk", `[{"x":1,"y":0,"z":0},{"x":1,"y":0,"z":0,"z":1}]`, 400, "[1].z"},
		{"bulk update item with a repeated name", "PATCH", sp + "/nodes/bulk", `[{"id":2,"x":1,"x":1}]`, 400, "[0].x"},
	}
	e.must(201, "POST", sp+"/members", map[string]any{"id": 1, "nodeA": 1, "nodeB": 2, "section": 1, "material": 1})
	e.must(201, "POST", lp+"/load-cases", map[string]any{"id": 1, "title": "dead"})
	e.must(201, "POST", lp+"/node-loads", map[string]any{"loadCase": 1, "node": 1, "fy": -1})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.raw(tt.method, tt.path, "application/json", []byte(tt.body))
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			if tt.status == 400 {
				if got := errorFields(t, r); got[tt.field] == "" {
					t.Errorf("errors %v do not name %s", got, tt.field)
				}
			}
		})
	}
	var n model.Node
	if e.must(200, "GET", sp+"/nodes/2", nil).decode(t, &n); n.ID != 2 || n.X != 4 || n.Y != 0 {
		t.Errorf("node 2 after the patches: %+v", n)
	}
}

// PUT combination items takes the items object or a bare array of items.
func TestCombinationItemsPutBareArray(t *testing.T) {
	e := structureEnv(t)
	e.must(201, "POST", lp+"/load-cases", map[string]any{"id": 1, "title": "dead"})
	e.must(201, "POST", lp+"/load-cases", map[string]any{"id": 2, "title": "live"})
	e.must(201, "POST", lp+"/combination-load-cases", map[string]any{"id": 3, "title": "ULS",
		"combinationItems": []map[string]any{{"loadCase": 1, "multiplyingFactor": 1.2}}})
	path := lp + "/combination-load-cases/3/items"
	tests := []struct {
		name   string
		body   string
		status int
		want   []model.CombinationItem
	}{
		{"bare array", `[{"loadCase":1,"multiplyingFactor":1.35},{"loadCase":2}]`, 200,
			[]model.CombinationItem{{LoadCase: 1, MultiplyingFactor: 1.35}, {LoadCase: 2, MultiplyingFactor: 1}}},
		{"object", `{"combinationItems":[{"loadCase":2,"multiplyingFactor":1.5}]}`, 200,
			[]model.CombinationItem{{LoadCase: 2, MultiplyingFactor: 1.5}}},
		{"bare array, padded", " \n[{\"loadCase\":1}]", 200, []model.CombinationItem{{LoadCase: 1, MultiplyingFactor: 1}}},
		{"bare array with an unknown property", `[{"loadCase":1,"factor":2}]`, 400, nil},
		{"empty bare array", `[]`, 400, nil},
		{"bare array naming the combination itself", `[{"loadCase":3}]`, 400, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.raw("PUT", path, "application/json", []byte(tt.body))
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			if tt.status != 200 {
				r.errBody(t)
				return
			}
			var ib struct {
				CombinationItems []model.CombinationItem `json:"combinationItems"`
			}
			e.must(200, "GET", path, nil).decode(t, &ib)
			if fmt.Sprint(ib.CombinationItems) != fmt.Sprint(tt.want) {
				t.Errorf("items %v, want %v", ib.CombinationItems, tt.want)
			}
		})
	}
}

// Job-file rows meet the field rules of the struct tags, the ones bodies
// meet: enum values, bounds, and no unknown properties.
func TestJobFileRowsMeetFieldRules(t *testing.T) {
	e := structureEnv(t)
	e.must(201, "POST", sp+"/members", map[string]any{"id": 1, "nodeA": 1, "nodeB": 2, "section": 1, "material": 1})
	e.must(201, "POST", "/job/save", map[string]any{"filePath": "rules"})
	e.must(200, "POST", "/job/close", nil)
	dir, err := jobfile.OpenDir(e.dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := dir.Resolve("rules.gsj")
	if err != nil {
		t.Fatal(err)
	}
	base, err := dir.Read(p)
	if err != nil {
		t.Fatal(err)
	}
	// with returns the base snapshot with the member row's JSON edited.
	with := func(edit func(m map[string]any)) store.Snapshot {
		snap := store.Snapshot{Job: base.Snapshot.Job, Collections: map[string][]store.Row{}}
		for c, rows := range base.Snapshot.Collections {
			snap.Collections[c] = append([]store.Row{}, rows...)
		}
		rows := snap.Collections[model.CollMembers]
		var m map[string]any
		if err := json.Unmarshal(rows[0].Value, &m); err != nil {
			t.Fatal(err)
		}
		edit(m)
		b, _ := json.Marshal(m)
		rows[0].Value = b
		return snap
	}
	tests := []struct {
		name string
		snap store.Snapshot
		want []string // in the detail; none: the file opens
	}{
		{"as saved", base.Snapshot, nil},
		{"unknown member type", with(func(m map[string]any) { m["type"] = "Bogus" }), []string{"members row 1", "type", `"Bogus"`}},
		{"enum in another spelling", with(func(m map[string]any) { m["type"] = "truss" }), []string{"members row 1", `"truss"`}},
		{"unknown nested enum", with(func(m map[string]any) { m["direction"].(map[string]any)["dirAxis"] = "Up" }),
			[]string{"members row 1", "direction.dirAxis", `"Up"`}},
		{"unknown property", with(func(m map[string]any) { m["colour"] = "red" }), []string{"members row 1", "unknown property", "colour"}},
		{"unknown nested property", with(func(m map[string]any) { m["releases"].(map[string]any)["spin"] = 1 }),
			[]string{"members row 1", "unknown property", "spin"}},
		{"below a bound", with(func(m map[string]any) { m["cableLength"] = -2 }), []string{"members row 1", "cableLength", "zero or more"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ct, body := snapshotUpload(t, "template", tt.snap)
			r := e.raw("POST", "/job/new-from-template", ct, body)
			if tt.want == nil {
				if r.status != 200 {
					t.Fatalf("status %d: %s", r.status, r.body)
				}
				e.must(200, "POST", "/job/close", nil)
				return
			}
			if r.status != 400 {
				e.raw("POST", "/job/close", "", nil)
				t.Fatalf("status %d, want 400: %s", r.status, r.body)
			}
			detail := r.errBody(t).Detail
			for _, w := range tt.want {
				if !strings.Contains(detail, w) {
					t.Errorf("detail %q lacks %q", detail, w)
				}
			}
		})
	}
}

// A plate thickness left at 0 follows the actual thickness (README,
// "Units of particular fields"): an explicit 0 is accepted, a negative one
// is not.
func TestPlateThicknessZeroFollowsActual(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	for i, n := range [][3]float64{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}} {
		e.must(201, "POST", "/job/structure/nodes", map[string]any{"id": i + 1, "x": n[0], "y": n[1], "z": n[2]})
	}
	e.must(201, "POST", "/job/structure/materials", map[string]any{"id": 1, "name": "c", "youngsModulus": 30000, "poissonsRatio": 0.2})
	e.must(201, "POST", "/job/structure/plates", map[string]any{"id": 1, "nodeA": 1, "nodeB": 2, "nodeC": 3, "material": 1,
		"actualThickness": 200, "membraneThickness": 0, "bendingThickness": 0, "shearThickness": 0})
	e.wantError(400, "VALIDATION_FAILED", "PATCH", "/job/structure/plates/1", map[string]any{"membraneThickness": -1})
}

// Only the whitespace JSON allows may surround a body: a form feed or a
// no-break space is not JSON, whatever bytes.TrimSpace thinks (found by
// FuzzSplitObject).
func TestBodyWhitespaceIsJSONs(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	for name, body := range map[string]string{"form feed": "{\"x\":1,\"y\":0,\"z\":0}\f", "no-break space": "\u00a0{\"x\":1,\"y\":0,\"z\":0}"} {
		t.Run(name, func(t *testing.T) {
			if r := e.raw("POST", "/job/structure/nodes", "application/json", []byte(body)); r.status != 400 {
				t.Errorf("status %d, want 400: %s", r.status, r.body)
			}
		})
	}
	if r := e.raw("POST", "/job/structure/nodes", "application/json", []byte(" \t{\"x\":1,\"y\":0,\"z\":0}\r\n")); r.status != 201 {
		t.Errorf("JSON whitespace around a body: %d %s", r.status, r.body)
	}
}

// A bulk request holds at most MaxBulkItems items: one more is a 413 that
// names the limit, and nothing is created.
func TestBulkItemCap(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	items := make([]map[string]any, httpapi.MaxBulkItems+1)
	for i := range items {
		items[i] = map[string]any{"id": i + 1, "x": float64(i), "y": 0, "z": 0}
	}
	er := e.wantError(413, "PAYLOAD_TOO_LARGE", "POST", "/job/structure/nodes/bulk", items)
	if !strings.Contains(er.Detail, "10000") {
		t.Errorf("detail %q does not name the limit", er.Detail)
	}
	if r := e.do("GET", "/job/structure/nodes?limit=1", nil); r.header.Get("Total-Count") != "0" {
		t.Errorf("nodes were created: Total-Count %s", r.header.Get("Total-Count"))
	}
	e.must(200, "POST", "/job/structure/nodes/bulk", items[:httpapi.MaxBulkItems])
}
