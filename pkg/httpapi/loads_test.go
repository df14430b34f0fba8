package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
)

const lp = "/job/loads"

// loadsEnv is structureEnv plus members 1 (nodes 1→2, 3 m) and 2 (2→3), a
// plate 1 and load cases 1 "Dead" and 2 "Live".
func loadsEnv(t *testing.T) *env {
	t.Helper()
	e := structureEnv(t)
	e.must(200, "POST", sp+"/members/bulk", []map[string]any{{"nodeA": 1, "nodeB": 2, "section": 1, "material": 1}, {"nodeA": 2, "nodeB": 3, "section": 1, "material": 1}})
	e.must(201, "POST", sp+"/plates", map[string]any{"nodeA": 1, "nodeB": 2, "nodeC": 3, "nodeD": 4, "material": 1, "actualThickness": 10})
	e.must(201, "POST", lp+"/load-cases", map[string]any{"title": "Dead"})
	e.must(201, "POST", lp+"/load-cases", map[string]any{"title": "Live", "notes": "office"})
	return e
}

func caseType(t *testing.T, e *env, id int64) string {
	t.Helper()
	var c model.LoadCase
	e.must(200, "GET", fmt.Sprintf("%s/load-cases/%d", lp, id), nil).decode(t, &c)
	return c.Type
}

func TestLoadCaseTypesFollowTheLoads(t *testing.T) {
	e := loadsEnv(t)
	if got := caseType(t, e, 1); got != model.CaseUnused {
		t.Fatalf("new case is %s, want Unused", got)
	}
	// Each kind of load makes its case Primary, and removing it makes the
	// case Unused again.
	loads := []struct {
		path string
		body map[string]any
		key  string
	}{
		{"/node-loads", map[string]any{"loadCase": 1, "node": 2, "fy": -10}, "/1/2"},
		{"/prescribed-displacements", map[string]any{"loadCase": 1, "node": 1, "tz": 5}, "/1/1"},
		{"/lumped-mass-loads", map[string]any{"loadCase": 1, "node": 3, "tmx": 2}, "/1/3"},
		{"/member-concentrated-loads", map[string]any{"loadCase": 1, "member": 1, "subLoad": 1, "position": 50, "positionUnits": "Percent", "fy": -3}, "/1/1/1"},
		{"/member-distributed-loads", map[string]any{"loadCase": 1, "member": 2, "subLoad": 1, "fyStart": -1, "fyFinish": -2}, "/1/2/1"},
		{"/member-distributed-moments", map[string]any{"loadCase": 1, "member": 1, "subLoad": 1, "mxStart": 1}, "/1/1/1"},
		{"/member-prestress-loads", map[string]any{"loadCase": 1, "member": 1, "prestress": 100}, "/1/1"},
		{"/plate-pressure-loads", map[string]any{"loadCase": 1, "plate": 1, "pz": -5}, "/1/1"},
		{"/self-weight-loads", map[string]any{"loadCase": 1, "accelerationY": -1}, "/1"},
		{"/thermal-loads", map[string]any{"loadCase": 1, "elementType": "Plate", "elementId": 1, "thermalLoad": 30}, "/1/Plate/1"},
	}
	for _, l := range loads {
		t.Run(l.path, func(t *testing.T) {
			e.must(201, "POST", lp+l.path, l.body)
			if got := caseType(t, e, 1); got != model.CasePrimary {
				t.Errorf("after a load: %s, want Primary", got)
			}
			e.wantError(409, "DUPLICATE_ENTITY", "POST", lp+l.path, l.body)
			e.must(200, "GET", lp+l.path+l.key, nil)
			e.must(204, "DELETE", lp+l.path+l.key, nil)
			e.wantError(404, "NOT_FOUND", "GET", lp+l.path+l.key, nil)
			if got := caseType(t, e, 1); got != model.CaseUnused {
				t.Errorf("after removing the only load: %s, want Unused", got)
			}
		})
	}
	// Type filter.
	e.must(201, "POST", lp+"/node-loads", map[string]any{"loadCase": 2, "node": 1, "fx": 1})
	cs, _ := list[model.LoadCase](t, e, lp+"/load-cases?type=Primary")
	if len(cs) != 1 || cs[0].ID != 2 {
		t.Errorf("type=Primary: %+v", cs)
	}
	cs, _ = list[model.LoadCase](t, e, lp+"/load-cases?type=unused&titleSearch=DEA")
	if len(cs) != 1 || cs[0].ID != 1 {
		t.Errorf("type=unused&titleSearch=DEA: %+v", cs)
	}
	e.wantError(400, "VALIDATION_FAILED", "GET", lp+"/load-cases?type=Secondary", nil)
}

func TestLoadRules(t *testing.T) {
	e := loadsEnv(t)
	e.must(201, "POST", lp+"/combination-load-cases", map[string]any{"title": "C", "combinationItems": []map[string]any{{"loadCase": 1}}})
	bad := []struct {
		name, path string
		body       map[string]any
		field      string
	}{
		{"missing case", "/node-loads", map[string]any{"loadCase": 9, "node": 1}, "loadCase"},
		{"missing node", "/node-loads", map[string]any{"loadCase": 1, "node": 9}, "node"},
		{"combination case", "/node-loads", map[string]any{"loadCase": 3, "node": 1}, "loadCase"},
		{"missing category", "/node-loads", map[string]any{"loadCase": 1, "node": 1, "loadCategory": 4}, "loadCategory"},
		{"missing member", "/member-prestress-loads", map[string]any{"loadCase": 1, "member": 7}, "member"},
		{"position past the end", "/member-concentrated-loads", map[string]any{"loadCase": 1, "member": 1, "positionUnits": "Actual", "position": 3.5}, "position"},
		{"percent over 100", "/member-concentrated-loads", map[string]any{"loadCase": 1, "member": 1, "positionUnits": "Percent", "position": 101}, "position"},
		{"finish before start", "/member-distributed-loads", map[string]any{"loadCase": 1, "member": 1, "startPosition": 60, "finishPosition": 40}, "finishPosition"},
		{"negative position", "/member-distributed-moments", map[string]any{"loadCase": 1, "member": 1, "startPosition": -1}, "startPosition"},
		{"bad axes", "/member-distributed-loads", map[string]any{"loadCase": 1, "member": 1, "axes": "Sideways"}, "axes"},
		{"missing plate", "/plate-pressure-loads", map[string]any{"loadCase": 1, "plate": 5}, "plate"},
		{"thermal on a missing plate", "/thermal-loads", map[string]any{"loadCase": 1, "elementType": "Plate", "elementId": 5}, "elementId"},
		{"thermal without a type", "/thermal-loads", map[string]any{"loadCase": 1, "elementId": 1}, "elementType"},
		{"negative mass", "/lumped-mass-loads", map[string]any{"loadCase": 1, "node": 1, "tmx": -1}, "tmx"},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			er := e.wantError(400, "VALIDATION_FAILED", "POST", lp+b.path, b.body)
			if er.Errors[0].Field != b.field {
				t.Errorf("field %q, want %q (%s)", er.Errors[0].Field, b.field, er.Detail)
			}
		})
	}
	// Actual positions are in the job length unit and sit on the member.
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "mm"})
	var cl model.MemberConcentratedLoad
	e.must(201, "POST", lp+"/member-concentrated-loads", map[string]any{"loadCase": 1, "member": 1, "positionUnits": "Actual", "position": 3000, "fy": -1}).decode(t, &cl)
	if cl.Position != 3000 || cl.SubLoad != 1 {
		t.Errorf("load at the end in mm: %+v", cl)
	}
	e.must(201, "POST", lp+"/member-concentrated-loads", map[string]any{"loadCase": 1, "member": 1, "positionUnits": "Percent", "position": 25}).decode(t, &cl)
	if cl.Position != 25 || cl.SubLoad != 2 {
		t.Errorf("percent position must not be scaled by the length unit: %+v", cl)
	}
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "m"})
	e.must(200, "GET", lp+"/member-concentrated-loads/1/1/1", nil).decode(t, &cl)
	if cl.Position != 3 {
		t.Errorf("3000 mm read back in m: %g", cl.Position)
	}
	// Filters.
	e.must(201, "POST", lp+"/member-concentrated-loads", map[string]any{"loadCase": 2, "member": 2, "position": 10, "positionUnits": "Percent"})
	cls, r := list[model.MemberConcentratedLoad](t, e, lp+"/member-concentrated-loads?loadCases=1")
	if len(cls) != 2 || r.header.Get("Total-Count") != "2" {
		t.Errorf("loadCases filter: %+v", cls)
	}
	cls, _ = list[model.MemberConcentratedLoad](t, e, lp+"/member-concentrated-loads?members=2")
	if len(cls) != 1 || cls[0].LoadCase != 2 {
		t.Errorf("members filter: %+v", cls)
	}
	// Bulk delete of composite keys takes key objects.
	var br editor.BulkResult
	e.must(200, "DELETE", lp+"/member-concentrated-loads/bulk?continueOnError=true",
		[]map[string]any{{"loadCase": 1, "member": 1, "subLoad": 2}, {"loadCase": 1, "member": 1, "subLoad": 9}}).decode(t, &br)
	if len(br.Succeeded) != 1 || !reflect.DeepEqual(br.Succeeded[0].IDs, []int64{1, 1, 2}) || len(br.Errors) != 1 {
		t.Errorf("bulk delete: %+v", br)
	}
}

// putStep stores a load case as a non-linear load step; only an analysis
// makes one, so the test writes the row itself.
func putStep(t *testing.T, e *env, id int64) {
	t.Helper()
	raw, _ := json.Marshal(model.LoadCase{ID: id, Title: "step", StepOf: 1})
	var b store.Batch
	b.Create(model.CollLoadCases, store.Key(id), raw)
	if _, err := redisstore.NewModel(e.rdb.Client(t)).Apply(context.Background(), "default", &b); err != nil {
		t.Fatal(err)
	}
}

func TestCombinationRules(t *testing.T) {
	e := loadsEnv(t)
	putStep(t, e, 50)
	if got := caseType(t, e, 50); got != model.CaseStep {
		t.Fatalf("stored step case reads as %s", got)
	}
	items := func(ids ...int64) []map[string]any {
		var out []map[string]any
		for _, id := range ids {
			out = append(out, map[string]any{"loadCase": id, "multiplyingFactor": 1.5})
		}
		return out
	}
	var cc model.CombinationLoadCase
	e.must(201, "POST", lp+"/combination-load-cases", map[string]any{"id": 10, "title": "ULS", "combinationItems": []map[string]any{{"loadCase": 1}, {"loadCase": 2, "multiplyingFactor": 1.5}}}).decode(t, &cc)
	if cc.Type != model.CaseCombination || cc.CombinationItems[0].MultiplyingFactor != 1 {
		t.Errorf("combination %+v (the factor defaults to 1)", cc)
	}
	rules := []struct {
		name string
		body map[string]any
		msg  string
	}{
		{"no items", map[string]any{"id": 20, "title": "x", "combinationItems": []map[string]any{}}, "at least one item"},
		{"items omitted", map[string]any{"id": 20, "title": "x"}, "combinationItems is required"},
		{"step component", map[string]any{"id": 20, "title": "x", "combinationItems": items(1, 50)}, "non-linear load step"},
		{"self reference", map[string]any{"id": 20, "title": "x", "combinationItems": items(1, 20)}, "cannot include itself"},
		{"duplicate component", map[string]any{"id": 20, "title": "x", "combinationItems": items(1, 2, 1)}, "each case may appear once"},
		{"missing component", map[string]any{"id": 20, "title": "x", "combinationItems": items(1, 99)}, "load case 99 does not exist"},
		{"unknown item property", map[string]any{"id": 20, "title": "x", "combinationItems": []map[string]any{{"loadCase": 1, "factor": 2}}}, `unknown property "factor"`},
	}
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			er := e.wantError(400, "VALIDATION_FAILED", "POST", lp+"/combination-load-cases", r.body)
			if !strings.Contains(er.Detail, r.msg) {
				t.Errorf("detail %q lacks %q", er.Detail, r.msg)
			}
			// The case row rolled back with its items.
			e.wantError(404, "NOT_FOUND", "GET", lp+"/load-cases/20", nil)
		})
	}
	// Combinations of combinations, and cycles through them.
	e.must(201, "POST", lp+"/combination-load-cases", map[string]any{"id": 11, "title": "env", "combinationItems": items(10, 2)})
	er := e.wantError(400, "VALIDATION_FAILED", "PUT", lp+"/combination-load-cases/10/items", map[string]any{"combinationItems": items(1, 11)})
	if !strings.Contains(er.Detail, "cycle") {
		t.Errorf("cycle: %s", er.Detail)
	}
	var ib httpapi.ItemsBody
	e.must(200, "GET", lp+"/combination-load-cases/10/items", nil).decode(t, &ib)
	if len(ib.CombinationItems) != 2 || ib.CombinationItems[1].LoadCase != 2 {
		t.Errorf("a refused PUT changed the items: %+v", ib)
	}
	e.must(200, "PUT", lp+"/combination-load-cases/10/items", map[string]any{"combinationItems": items(2)}).decode(t, &ib)
	if len(ib.CombinationItems) != 1 || ib.CombinationItems[0].MultiplyingFactor != 1.5 {
		t.Errorf("items after PUT: %+v", ib)
	}
	// A non-combination case is a 404 on the combination paths.
	e.wantError(404, "NOT_FOUND", "GET", lp+"/combination-load-cases/1", nil)
	e.wantError(404, "NOT_FOUND", "GET", lp+"/combination-load-cases/1/items", nil)
	e.wantError(404, "NOT_FOUND", "PUT", lp+"/combination-load-cases/1/items", map[string]any{"combinationItems": items(2)})
	combos, _ := list[model.CombinationLoadCase](t, e, lp+"/combination-load-cases")
	if len(combos) != 2 || combos[0].ID != 10 {
		t.Errorf("combination list %+v", combos)
	}
	var next int64
	e.must(200, "GET", lp+"/combination-load-cases/next?start=10", nil).decode(t, &next)
	if next != 12 {
		t.Errorf("next id shared with load cases: %d", next)
	}
	var md httpapi.Metadata
	e.must(200, "GET", lp+"/combination-load-cases/items/metadata", nil).decode(t, &md)
	if len(md.Fields) != 2 {
		t.Errorf("items metadata %+v", md)
	}
	var st httpapi.Status
	e.must(200, "GET", "/job/status", nil).decode(t, &st)
	if st.Loads.LoadCases != 5 || st.Loads.CombinationLoadCases != 2 {
		t.Errorf("load counts %+v", st.Loads)
	}
}

// DELETE of a load case removes only its title and notes: with loads or
// items left it stays listed with an empty title; without, it goes.
func TestDeleteLoadCase(t *testing.T) {
	e := loadsEnv(t)
	e.must(201, "POST", lp+"/node-loads", map[string]any{"loadCase": 1, "node": 2, "fy": -10})
	var res editor.CaseDeleteResult
	e.must(200, "DELETE", lp+"/load-cases/1", nil).decode(t, &res)
	if len(res.LoadCases) != 0 || !reflect.DeepEqual(res.KeptLoadCases, []int64{1}) {
		t.Errorf("delete with loads: %+v", res)
	}
	var c model.LoadCase
	e.must(200, "GET", lp+"/load-cases/1", nil).decode(t, &c)
	if c.Title != "" || c.Type != model.CasePrimary {
		t.Errorf("after delete: %+v", c)
	}
	e.must(200, "GET", lp+"/node-loads/1/2", nil)
	e.must(200, "DELETE", lp+"/load-cases/2", nil).decode(t, &res)
	if !reflect.DeepEqual(res.LoadCases, []int64{2}) || res.TotalRemoved != 1 {
		t.Errorf("delete of an unused case: %+v", res)
	}
	e.wantError(404, "NOT_FOUND", "GET", lp+"/load-cases/2", nil)
	e.wantError(404, "NOT_FOUND", "DELETE", lp+"/load-cases/2", nil)
	// An unused case that a combination includes keeps its row.
	e.must(201, "POST", lp+"/load-cases", map[string]any{"id": 5, "title": "Wind"})
	e.must(201, "POST", lp+"/combination-load-cases", map[string]any{"id": 6, "title": "C", "combinationItems": []map[string]any{{"loadCase": 5}}})
	e.must(200, "DELETE", lp+"/load-cases/5", nil).decode(t, &res)
	if !reflect.DeepEqual(res.KeptLoadCases, []int64{5}) {
		t.Errorf("delete of a combined case: %+v", res)
	}
	e.must(200, "GET", lp+"/combination-load-cases/6/items", nil)
	e.wantError(400, "VALIDATION_FAILED", "POST", lp+"/load-cases", map[string]any{"title": strings.Repeat("t", 101)})
	e.wantError(400, "VALIDATION_FAILED", "POST", lp+"/load-cases", map[string]any{"title": "x", "notes": strings.Repeat("n", 2049)})
	e.wantError(400, "VALIDATION_FAILED", "POST", lp+"/load-cases", map[string]any{"title": "x", "type": "Primary"})
}

func TestGroupsAndCategories(t *testing.T) {
	e := loadsEnv(t)
	var g model.LoadCaseGroup
	e.must(201, "POST", lp+"/load-case-groups", map[string]any{"title": "ULS", "loadCaseList": "3-5, 1,2"}).decode(t, &g)
	if g.LoadCaseList != "1-5" {
		t.Errorf("list normalised to %q", g.LoadCaseList)
	}
	e.wantError(400, "VALIDATION_FAILED", "POST", lp+"/load-case-groups", map[string]any{"title": "x", "loadCaseList": "1-a"})
	var cat model.LoadCategory
	e.must(201, "POST", lp+"/load-categories", map[string]any{"title": "Wind"}).decode(t, &cat)
	if cat.Source != "Api" || cat.Version == "" || cat.Username != "default" {
		t.Errorf("server-filled fields: %+v", cat)
	}
	e.wantError(400, "VALIDATION_FAILED", "POST", lp+"/load-categories", map[string]any{"title": "x", "source": "me"})
	var nl model.NodeLoad
	e.must(201, "POST", lp+"/node-loads", map[string]any{"loadCase": 1, "node": 1, "loadCategory": cat.ID, "fx": 1}).decode(t, &nl)
	nls, _ := list[model.NodeLoad](t, e, fmt.Sprintf("%s/node-loads?loadCategory=%d", lp, cat.ID))
	if len(nls) != 1 {
		t.Errorf("loadCategory filter: %+v", nls)
	}
}

// Every load type survives save, close and open unchanged.
func TestLoadsSaveOpenRoundTrip(t *testing.T) {
	e := loadsEnv(t)
	bodies := map[string]map[string]any{
		"/node-loads":                 {"loadCase": 1, "node": 2, "fx": 1.25, "mz": -3},
		"/prescribed-displacements":   {"loadCase": 1, "node": 1, "tz": 5, "rx": 0.001},
		"/lumped-mass-loads":          {"loadCase": 2, "node": 3, "tmx": 2, "rmz": 0.5},
		"/member-concentrated-loads":  {"loadCase": 1, "member": 1, "positionUnits": "Actual", "position": 1.2, "axes": "GlobalInclined", "fy": -3},
		"/member-distributed-loads":   {"loadCase": 1, "member": 2, "axes": "GlobalProjected", "startPosition": 10, "finishPosition": 90, "fyStart": -1, "fyFinish": -2},
		"/member-distributed-moments": {"loadCase": 2, "member": 1, "mxStart": 1, "mxFinish": 2},
		"/member-prestress-loads":     {"loadCase": 2, "member": 1, "prestress": 100},
		"/plate-pressure-loads":       {"loadCase": 1, "plate": 1, "pz": -5},
		"/self-weight-loads":          {"loadCase": 1, "accelerationY": -1},
		"/thermal-loads":              {"loadCase": 2, "elementType": "Member", "elementId": 2, "thermalLoad": 30, "yThermalGradient": 5},
	}
	for p, b := range bodies {
		e.must(201, "POST", lp+p, b)
	}
	e.must(201, "POST", lp+"/combination-load-cases", map[string]any{"title": "C", "combinationItems": []map[string]any{{"loadCase": 1, "multiplyingFactor": 1.2}}})
	e.must(201, "POST", lp+"/load-case-groups", map[string]any{"title": "G", "loadCaseList": "1-3"})
	e.must(201, "POST", lp+"/load-categories", map[string]any{"title": "Dead"})
	paths := []string{"/load-cases?expand=All", "/load-case-groups", "/load-categories"}
	for p := range bodies {
		paths = append(paths, p)
	}
	before := map[string]string{}
	for _, p := range paths {
		before[p] = string(e.must(200, "GET", lp+p, nil).body)
	}
	e.must(201, "POST", "/job/save", map[string]any{"filePath": "loads"})
	e.must(200, "POST", "/job/close", nil)
	e.must(200, "POST", "/job/open", map[string]any{"filePath": "loads"})
	for _, p := range paths {
		if got := string(e.must(200, "GET", lp+p, nil).body); got != before[p] {
			t.Errorf("%s changed:\n%s\n%s", p, before[p], got)
		}
	}
	var st httpapi.Status
	e.must(200, "GET", "/job/status", nil).decode(t, &st)
	want := httpapi.LoadCounts{LoadCases: 3, LoadCaseGroups: 1, LoadCategories: 1, CombinationLoadCases: 1, NodeLoads: 1,
		MemberConcentratedLoads: 1, MemberDistributedLoads: 1, MemberTorsionLoads: 1, MemberPrestressLoads: 1, PlateLoads: 1,
		PrescribedDisplacements: 1, SelfWeightLoads: 1, ThermalLoads: 1, LumpedMassLoads: 1}
	if st.Loads != want {
		t.Errorf("load counts %+v, want %+v", st.Loads, want)
	}
}

// Deleting an element removes its loads and the result lists their keys.
func TestElementDeleteRemovesLoads(t *testing.T) {
	e := loadsEnv(t)
	e.must(201, "POST", lp+"/node-loads", map[string]any{"loadCase": 1, "node": 3, "fy": -1})
	e.must(201, "POST", lp+"/member-distributed-loads", map[string]any{"loadCase": 2, "member": 2, "fyStart": -1})
	e.must(201, "POST", lp+"/thermal-loads", map[string]any{"loadCase": 1, "elementType": "Plate", "elementId": 1, "thermalLoad": 5})
	e.must(201, "POST", lp+"/member-prestress-loads", map[string]any{"loadCase": 1, "member": 1, "prestress": 5})
	var res editor.DeleteResult
	e.must(200, "DELETE", sp+"/nodes/3", nil).decode(t, &res)
	if !reflect.DeepEqual(res.NodeLoads, []editor.LoadKey{{LoadCase: 1, Node: 3}}) ||
		!reflect.DeepEqual(res.MemberDistributedLoads, []editor.LoadKey{{LoadCase: 2, Member: 2, SubLoad: 1}}) ||
		!reflect.DeepEqual(res.ThermalLoads, []editor.LoadKey{{LoadCase: 1, ElementID: 1, ElementType: "Plate"}}) ||
		len(res.MemberPrestressLoads) != 0 {
		t.Errorf("removed loads: %+v", res)
	}
	e.must(200, "GET", lp+"/member-prestress-loads/1/1", nil)
	if caseType(t, e, 2) != model.CaseUnused {
		t.Error("case 2 lost its only load and must be Unused")
	}
}

// Review findings: the combination rules hold on every path.
func TestCombinationPathsKeepTheRules(t *testing.T) {
	e := loadsEnv(t)
	e.must(201, "POST", lp+"/node-loads", map[string]any{"loadCase": 2, "node": 1, "fx": 1})
	// Bulk PATCH on the combination path cannot turn a Primary case into
	// a combination (404, not a combination), and items on a case with
	// loads are refused anyway.
	e.wantError(404, "NOT_FOUND", "PATCH", lp+"/combination-load-cases/bulk", []map[string]any{{"id": 2, "combinationItems": []map[string]any{{"loadCase": 1}}}})
	e.wantError(404, "NOT_FOUND", "PATCH", lp+"/combination-load-cases/2", map[string]any{"title": "x"})
	if caseType(t, e, 2) != model.CasePrimary {
		t.Error("case 2 changed type")
	}
	// DELETE on the combination path of a non-combination is a 404.
	e.wantError(404, "NOT_FOUND", "DELETE", lp+"/combination-load-cases/1", nil)
	// A duplicate id in a bulk delete is a 400, not a 500.
	e.wantError(400, "VALIDATION_FAILED", "DELETE", lp+"/load-cases/bulk", []int64{1, 1})
	var bd httpapi.BulkCaseDeleteResult
	e.must(200, "DELETE", lp+"/load-cases/bulk?continueOnError=true", []int64{1, 1, 99}).decode(t, &bd)
	if len(bd.Succeeded) != 1 || len(bd.Errors) != 2 || !reflect.DeepEqual(bd.Deleted.LoadCases, []int64{1}) {
		t.Errorf("bulk case delete: %+v", bd)
	}
}

// Concurrent set-general calls leave exactly one general restraint.
func TestSetGeneralIsAtomic(t *testing.T) {
	e := structureEnv(t)
	for n := 1; n <= 4; n++ {
		e.must(201, "POST", sp+"/node-restraints", map[string]any{"node": n})
	}
	for round := 0; round < 10; round++ {
		done := make(chan int, 4)
		for n := 1; n <= 4; n++ {
			go func() { done <- e.do("POST", sp+"/node-restraints/set-general", map[string]any{"node": n}).status }()
		}
		for n := 0; n < 4; n++ {
			if s := <-done; s != 200 {
				t.Fatalf("set-general: %d", s)
			}
		}
		rs, _ := list[model.NodeRestraint](t, e, sp+"/node-restraints")
		general := 0
		for _, r := range rs {
			if r.GeneralRestraint {
				general++
			}
		}
		if general != 1 {
			t.Fatalf("round %d: %d general restraints", round, general)
		}
	}
}

func TestCategoryInUseAndTableOrder(t *testing.T) {
	e := loadsEnv(t)
	e.must(201, "POST", lp+"/load-categories", map[string]any{"title": "Wind"})
	e.must(201, "POST", lp+"/node-loads", map[string]any{"loadCase": 1, "node": 1, "loadCategory": 1, "fx": 1})
	er := e.wantError(409, "CONFLICT", "DELETE", lp+"/load-categories/1", nil)
	if !strings.Contains(er.Detail, "node loads") {
		t.Errorf("in-use detail: %s", er.Detail)
	}
	e.must(204, "DELETE", lp+"/node-loads/1/1", nil)
	e.must(204, "DELETE", lp+"/load-categories/1", nil)
	// Restraint tables list x in increasing order: the spring law reads
	// the rows as consecutive segments.
	e.must(201, "POST", sp+"/node-restraints", map[string]any{"node": 1, "restraintCode": "VFFFFF"})
	e.wantError(400, "VALIDATION_FAILED", "PUT", sp+"/node-restraints/1/table/Tx", map[string]any{"rows": [][]float64{{0, 1}, {5, 2}, {3, 4}}})
}
