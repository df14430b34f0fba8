package httpapi_test

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/model"
)

const sp = "/job/structure"

// structureEnv opens a job with a steel material, a user section and a
// square of four nodes at z = 0 (1..4, 3 m sides).
func structureEnv(t *testing.T) *env {
	t.Helper()
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	e.must(201, "POST", sp+"/materials", map[string]any{"name": "steel", "youngsModulus": 200000, "poissonsRatio": 0.3, "massDensity": 7.85})
	e.must(201, "POST", sp+"/sections", map[string]any{"name": "box", "a": 1e4, "j": 2e8, "iy": 1e8, "iz": 1e8, "ay": 5e3, "az": 5e3})
	e.must(200, "POST", sp+"/nodes/bulk", []map[string]any{{"x": 0, "y": 0, "z": 0}, {"x": 3, "y": 0, "z": 0}, {"x": 3, "y": 3, "z": 0}, {"x": 0, "y": 3, "z": 0}})
	return e
}

func list[T any](t *testing.T, e *env, path string) ([]T, resp) {
	t.Helper()
	r := e.must(200, "GET", path, nil)
	var out []T
	r.decode(t, &out)
	return out, r
}

func TestNodesCollection(t *testing.T) {
	e := structureEnv(t)
	var n model.Node
	e.must(201, "POST", sp+"/nodes", map[string]any{"id": 10, "x": 1.5, "y": -2, "z": 7}).decode(t, &n)
	if n.ID != 10 || n.X != 1.5 || n.Y != -2 || n.Z != 7 || n.HasRestraint {
		t.Fatalf("created %+v", n)
	}
	e.wantError(409, "DUPLICATE_ENTITY", "POST", sp+"/nodes", map[string]any{"id": 10, "x": 0, "y": 0, "z": 0})
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/nodes", map[string]any{"x": 0, "y": 0})
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/nodes", map[string]any{"x": 0, "y": 0, "z": 0, "hasRestraint": true})
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/nodes", map[string]any{"id": 0, "x": 0, "y": 0, "z": 0})
	if r := e.raw("POST", sp+"/nodes", "application/json", []byte(`{"x": 1e400, "y": 0, "z": 0}`)); r.status != 400 {
		t.Errorf("x = 1e400: %d %s", r.status, r.body)
	}
	e.must(201, "POST", sp+"/nodes", map[string]any{"x": 9, "y": 9, "z": 9}).decode(t, &n)
	if n.ID != 5 {
		t.Errorf("auto id %d, want 5 (the smallest free, nodes being 1-4 and 10)", n.ID)
	}
	e.wantError(404, "NOT_FOUND", "GET", sp+"/nodes/99", nil)
	e.wantError(400, "VALIDATION_FAILED", "GET", sp+"/nodes/abc", nil)

	// Paging and headers.
	nodes, r := list[model.Node](t, e, sp+"/nodes?offset=1&limit=3")
	if ids := nodeIDs(nodes); !reflect.DeepEqual(ids, []int64{2, 3, 4}) || r.header.Get("Total-Count") != "6" ||
		r.header.Get("Offset") != "1" || r.header.Get("Limit") != "3" {
		t.Errorf("page %v headers %v", ids, r.header)
	}
	for _, q := range []string{"offset=-1", "offset=x", "limit=0", "limit=2147483648", "expand=some", "nodes=1-x", "nodeType=Free", "minX=abc"} {
		e.wantError(400, "VALIDATION_FAILED", "GET", sp+"/nodes?"+q, nil)
	}
	// Filters.
	cases := map[string][]int64{
		"nodes=2-3,10": {2, 3, 10}, "minX=2": {2, 3, 5}, "maxY=0&minX=1": {2, 10},
		"minZ=5&maxZ=8": {10}, "nodeType=All_Types": {1, 2, 3, 4, 5, 10}, "nodes=3-4&offset=1": {4},
	}
	for q, want := range cases {
		got, _ := list[model.Node](t, e, sp+"/nodes?"+q)
		if !reflect.DeepEqual(nodeIDs(got), want) {
			t.Errorf("?%s = %v, want %v", q, nodeIDs(got), want)
		}
	}
	e.must(201, "POST", sp+"/node-restraints", map[string]any{"node": 2})
	e.must(201, "POST", sp+"/node-constraints", map[string]any{"slaveNode": 3, "masterNode": 2})
	got, _ := list[model.Node](t, e, sp+"/nodes?nodeType=Restrained")
	if !reflect.DeepEqual(nodeIDs(got), []int64{2}) {
		t.Errorf("restrained = %v", nodeIDs(got))
	}
	// expand: lists default to none, gets to all.
	got, _ = list[model.Node](t, e, sp+"/nodes?nodes=2-3")
	if !got[0].HasRestraint || got[0].Restraint != nil || !got[1].HasConstraint || got[1].Constraint != nil {
		t.Errorf("list without expand: %+v", got)
	}
	got, _ = list[model.Node](t, e, sp+"/nodes?nodes=2-3&expand=All")
	if got[0].Restraint == nil || got[0].Restraint.RestraintCode != "FFFFFF" || got[1].Constraint == nil || got[1].Constraint.MasterNode != 2 {
		t.Errorf("list with expand=All: %+v", got)
	}
	e.must(200, "GET", sp+"/nodes/2", nil).decode(t, &n)
	if n.Restraint == nil {
		t.Error("get defaults to expand=All")
	}
	var bare model.Node
	e.must(200, "GET", sp+"/nodes/2?expand=None", nil).decode(t, &bare)
	if bare.Restraint != nil || !bare.HasRestraint {
		t.Error("get with expand=None")
	}
	// Partial update.
	e.must(200, "PATCH", sp+"/nodes/10", map[string]any{"y": 4}).decode(t, &n)
	if n.X != 1.5 || n.Y != 4 || n.Z != 7 {
		t.Errorf("patched %+v", n)
	}
	// An id in the body must be the route's (TestPatchIDAndDuplicates).
	e.wantError(400, "VALIDATION_FAILED", "PATCH", sp+"/nodes/10", map[string]any{"id": 999, "x": 2})
	e.must(200, "PATCH", sp+"/nodes/10", map[string]any{"id": 10, "x": 2}).decode(t, &n)
	if n.ID != 10 || n.X != 2 {
		t.Errorf("patch with its own id: %+v", n)
	}
	e.wantError(404, "NOT_FOUND", "PATCH", sp+"/nodes/99", map[string]any{"x": 1})
	e.wantError(400, "VALIDATION_FAILED", "PATCH", sp+"/nodes/10", map[string]any{"x": "far"})
	// by-location, next, metadata.
	e.must(200, "GET", sp+"/nodes/by-location?x=3.05&y=0&z=0&tolerance=0.1", nil).decode(t, &n)
	if n.ID != 2 {
		t.Errorf("by-location found %d", n.ID)
	}
	e.wantError(404, "NOT_FOUND", "GET", sp+"/nodes/by-location?x=50&y=0&z=0&tolerance=1", nil)
	var next int64
	e.must(200, "GET", sp+"/nodes/next?start=4", nil).decode(t, &next)
	if next != 6 {
		t.Errorf("next from 4 = %d, want 6 (1-5 and 10 are taken)", next)
	}
	e.must(200, "GET", sp+"/nodes/next?start=10", nil).decode(t, &next)
	if next != 11 {
		t.Errorf("next from 10 = %d", next)
	}
	var md httpapi.Metadata
	e.must(200, "GET", sp+"/nodes/metadata", nil).decode(t, &md)
	if *md.Count != 6 || md.MaxID != 10 || md.NextID != 6 || fieldUnit(md, "x") != "m" {
		t.Errorf("metadata %+v", md)
	}
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "mm"})
	e.must(200, "GET", sp+"/nodes/metadata", nil).decode(t, &md)
	if fieldUnit(md, "x") != "mm" {
		t.Errorf("metadata x unit %q after switching to mm", fieldUnit(md, "x"))
	}
}

func fieldUnit(md httpapi.Metadata, name string) string {
	for _, f := range md.Fields {
		if f.JSONName == name && f.Units != nil {
			return *f.Units
		}
	}
	return ""
}

func nodeIDs(ns []model.Node) []int64 {
	out := []int64{}
	for _, n := range ns {
		out = append(out, n.ID)
	}
	return out
}

// Values cross the edge in job units and are stored in SI: a round trip
// through any unit system returns the same SI values to 1e-12 relative.
func TestUnitsRoundTrip(t *testing.T) {
	e := structureEnv(t)
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "ft", "sectionProperties": "in", "materialStrength": "Ksi", "force": "K", "moment": "Kft"})
	var n model.Node
	e.must(201, "POST", sp+"/nodes", map[string]any{"x": 10, "y": 0.1, "z": -3}).decode(t, &n)
	if n.X != 10 {
		t.Errorf("read back in ft: %g", n.X)
	}
	var sec model.Section
	e.must(201, "POST", sp+"/sections", map[string]any{"name": "w", "a": 10, "j": 1, "iy": 100, "iz": 200, "ay": 4, "az": 5}).decode(t, &sec)
	for _, system := range []map[string]any{
		{"length": "mm", "sectionProperties": "mm"}, {"length": "cm", "sectionProperties": "cm"},
		{"length": "in", "sectionProperties": "ft"}, {"length": "m", "sectionProperties": "m"},
		{"length": "ft", "sectionProperties": "in"},
	} {
		e.must(200, "PATCH", "/job/units", system)
	}
	e.must(200, "GET", fmt.Sprintf("%s/nodes/%d", sp, n.ID), nil).decode(t, &n)
	e.must(200, "GET", fmt.Sprintf("%s/sections/%d", sp, sec.ID), nil).decode(t, &sec)
	// Back in ft and in: the values must be the ones sent, to round-off.
	for name, pair := range map[string][2]float64{"x": {n.X, 10}, "y": {n.Y, 0.1}, "z": {n.Z, -3}, "a": {sec.A, 10}, "iz": {sec.Iz, 200}} {
		if math.Abs(pair[0]-pair[1]) > 1e-12*math.Abs(pair[1]) {
			t.Errorf("%s = %.17g after the round trip, want %g", name, pair[0], pair[1])
		}
	}
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "m", "sectionProperties": "m"})
	e.must(200, "GET", fmt.Sprintf("%s/nodes/%d", sp, n.ID), nil).decode(t, &n)
	e.must(200, "GET", fmt.Sprintf("%s/sections/%d", sp, sec.ID), nil).decode(t, &sec)
	// 10 ft = 3.048 m exactly; 200 in⁴ = 200 × 0.0254⁴ m⁴.
	if math.Abs(n.X-3.048) > 1e-12*3.048 || math.Abs(sec.Iz-200*math.Pow(0.0254, 4)) > 1e-12*sec.Iz {
		t.Errorf("SI values: x = %.17g, iz = %.17g", n.X, sec.Iz)
	}
}

func TestBulkForms(t *testing.T) {
	e := structureEnv(t)
	// continueOnError=false: one bad item rejects everything.
	er := e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/nodes/bulk",
		[]map[string]any{{"x": 1, "y": 1, "z": 1}, {"x": 1, "y": "bad", "z": 1}, {"id": 1, "x": 0, "y": 0, "z": 0}})
	if len(er.Errors) != 2 || !strings.HasPrefix(er.Errors[0].Field, "[1]") || !strings.HasPrefix(er.Errors[1].Field, "[2]") {
		t.Errorf("rejection lists %+v", er.Errors)
	}
	if nodes, _ := list[model.Node](t, e, sp+"/nodes"); len(nodes) != 4 {
		t.Fatalf("a rejected bulk create stored %d nodes", len(nodes)-4)
	}
	// continueOnError=true: valid items land, failures are reported.
	var br editor.BulkResult
	e.must(200, "POST", sp+"/nodes/bulk?continueOnError=true",
		[]map[string]any{{"x": 1, "y": 1, "z": 1}, {"x": 1, "y": "bad", "z": 1}, {"id": 1, "x": 0, "y": 0, "z": 0}, {"id": 20, "x": 2, "y": 2, "z": 2}}).decode(t, &br)
	if len(br.Succeeded) != 2 || br.Succeeded[0].Index != 0 || br.Succeeded[1].ID != 20 || len(br.Errors) != 2 ||
		br.Errors[0].Index != 1 || br.Errors[1].Index != 2 || br.ErrorsTruncated {
		t.Errorf("bulk result %+v", br)
	}
	// Duplicate ids within one request.
	e.must(200, "POST", sp+"/nodes/bulk?continueOnError=true", []map[string]any{{"id": 30, "x": 0, "y": 0, "z": 0}, {"id": 30, "x": 1, "y": 0, "z": 0}}).decode(t, &br)
	if len(br.Succeeded) != 1 || len(br.Errors) != 1 || br.Errors[0].Index != 1 {
		t.Errorf("duplicate in request: %+v", br)
	}
	// The error list is capped.
	many := make([]map[string]any, 150)
	for i := range many {
		many[i] = map[string]any{"x": "bad", "y": 0, "z": 0}
	}
	e.must(200, "POST", sp+"/nodes/bulk?continueOnError=true", many).decode(t, &br)
	if len(br.Errors) != editor.MaxBulkErrors || !br.ErrorsTruncated {
		t.Errorf("150 failures: %d errors, truncated %v", len(br.Errors), br.ErrorsTruncated)
	}
	// Bulk update needs ids; unknown ids are 404s per item.
	e.wantError(400, "VALIDATION_FAILED", "PATCH", sp+"/nodes/bulk", []map[string]any{{"x": 5}})
	e.wantError(404, "NOT_FOUND", "PATCH", sp+"/nodes/bulk", []map[string]any{{"id": 1, "x": 5}, {"id": 77, "x": 5}})
	var n model.Node
	e.must(200, "GET", sp+"/nodes/1", nil).decode(t, &n)
	if n.X != 0 {
		t.Error("a rejected bulk update changed node 1")
	}
	e.must(200, "PATCH", sp+"/nodes/bulk?continueOnError=true", []map[string]any{{"id": 1, "x": 5}, {"id": 77, "x": 5}}).decode(t, &br)
	e.must(200, "GET", sp+"/nodes/1", nil).decode(t, &n)
	if n.X != 5 || len(br.Errors) != 1 || br.Errors[0].ID != 77 {
		t.Errorf("bulk update: %+v, node %+v", br, n)
	}
	// Bulk delete of attribute rows; the body is an array of ids.
	e.must(201, "POST", sp+"/node-restraints", map[string]any{"node": 1})
	e.wantError(404, "NOT_FOUND", "DELETE", sp+"/node-restraints/bulk", []int64{1, 2})
	e.must(200, "DELETE", sp+"/node-restraints/bulk?continueOnError=true", []int64{1, 2}).decode(t, &br)
	if len(br.Succeeded) != 1 || br.Succeeded[0].ID != 1 || len(br.Errors) != 1 {
		t.Errorf("bulk delete: %+v", br)
	}
	e.wantError(400, "VALIDATION_FAILED", "DELETE", sp+"/node-restraints/bulk", []int64{})
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/nodes/bulk", map[string]any{"x": 1})
}

func TestMembersAndPlates(t *testing.T) {
	e := structureEnv(t)
	var m model.Member
	e.must(201, "POST", sp+"/members", map[string]any{"nodeA": 1, "nodeB": 2, "section": 1, "material": 1}).decode(t, &m)
	if m.Type != "Normal" || m.Releases.FixityCodeAtA != "FFFFFF" || m.Direction.Source != "Angle" || m.Direction.DirAxis != "NotApplicable" {
		t.Errorf("defaults: %+v", m)
	}
	bad := []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"nodeA": 1, "nodeB": 1, "section": 1, "material": 1}, "nodeB"},
		{map[string]any{"nodeA": 1, "nodeB": 9, "section": 1, "material": 1}, "nodeB"},
		{map[string]any{"nodeA": 1, "nodeB": 2, "section": 5, "material": 1}, "section"},
		{map[string]any{"nodeA": 1, "nodeB": 2, "section": 1, "material": 5}, "material"},
		{map[string]any{"nodeA": 1, "nodeB": 2, "section": 1, "material": 1, "type": "Rope"}, "type"},
		{map[string]any{"nodeA": 1, "nodeB": 2, "section": 1, "material": 1, "releases": map[string]any{"fixityCodeAtA": "FFFFFX"}}, "releases.fixityCodeAtA"},
		{map[string]any{"nodeA": 1, "nodeB": 2, "section": 1, "material": 1, "direction": map[string]any{"dirNode": 2}}, "direction.dirNode"},
		{map[string]any{"nodeA": 1, "nodeB": 2, "section": 1, "material": 1, "direction": map[string]any{"dirNode": 3, "dirAngle": 5}}, "direction"},
		{map[string]any{"nodeA": 1, "nodeB": 2, "section": 1, "material": 1, "cableLength": -1}, "cableLength"},
	}
	for _, b := range bad {
		er := e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/members", b.body)
		if er.Errors[0].Field != b.field {
			t.Errorf("%v: field %q, want %q (%s)", b.body, er.Errors[0].Field, b.field, er.Detail)
		}
	}
	e.must(201, "POST", sp+"/members", map[string]any{"nodeA": 2, "nodeB": 3, "section": 1, "material": 1, "type": "Truss",
		"direction": map[string]any{"dirNode": 4}}).decode(t, &m)
	if m.Direction.Source != "Node" || m.Direction.DirNode != 4 {
		t.Errorf("direction by node: %+v", m.Direction)
	}
	var d model.Direction
	e.must(200, "PUT", fmt.Sprintf("%s/members/%d/direction", sp, m.ID), map[string]any{"dirAngle": 30}).decode(t, &d)
	if d != (model.Direction{Source: "Angle", DirAngle: 30, DirAxis: "NotApplicable"}) {
		t.Errorf("PUT dirAngle: %+v (the node must be zeroed)", d)
	}
	e.wantError(400, "VALIDATION_FAILED", "PUT", sp+"/members/2/direction", map[string]any{})
	e.wantError(400, "VALIDATION_FAILED", "PUT", sp+"/members/2/direction", map[string]any{"dirAngle": 1, "dirAxis": "XAxis"})
	var rel model.Releases
	e.must(200, "PATCH", sp+"/members/2/releases", map[string]any{"fixityCodeAtB": "FFFFRS", "rzStiffnessAtB": 10}).decode(t, &rel)
	if rel.FixityCodeAtA != "FFFFFF" || rel.FixityCodeAtB != "FFFFRS" || rel.RzStiffnessAtB != 10 {
		t.Errorf("releases %+v", rel)
	}
	ms, _ := list[model.Member](t, e, sp+"/members?type=Truss")
	if len(ms) != 1 || ms[0].ID != 2 {
		t.Errorf("type filter: %+v", ms)
	}
	ms, _ = list[model.Member](t, e, sp+"/members?section=1&material=2")
	if len(ms) != 0 {
		t.Errorf("material filter: %+v", ms)
	}

	var p model.Plate
	e.must(201, "POST", sp+"/plates", map[string]any{"nodeA": 1, "nodeB": 2, "nodeC": 3, "material": 1, "actualThickness": 200}).decode(t, &p)
	if p.NodeD != 0 || p.MembraneThickness != 200 || p.Theory != "Kirchoff" {
		t.Errorf("triangle plate: %+v", p)
	}
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/plates", map[string]any{"nodeA": 1, "nodeB": 2, "nodeC": 2, "material": 1, "actualThickness": 200})
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/plates", map[string]any{"nodeA": 1, "nodeB": 2, "nodeC": 3, "nodeD": 9, "material": 1, "actualThickness": 200})
	// A thickness or material of 0 is none yet (an analysis refuses it); below 0 is no value at all.
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/plates", map[string]any{"nodeA": 1, "nodeB": 2, "nodeC": 3, "material": 1, "actualThickness": -5})
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/plates", map[string]any{"nodeA": 1, "nodeB": 2, "nodeC": 3, "material": -1, "actualThickness": 5})
	e.must(201, "POST", sp+"/plates", map[string]any{"nodeA": 1, "nodeB": 2, "nodeC": 3, "nodeD": 4, "material": 1, "actualThickness": 150, "theory": "Mindlin"})
	ps, _ := list[model.Plate](t, e, sp+"/plates?theory=Mindlin")
	if len(ps) != 1 || ps[0].NodeD != 4 {
		t.Errorf("theory filter: %+v", ps)
	}
	e.wantError(400, "VALIDATION_FAILED", "PUT", sp+"/plates/1/direction", nil)
	e.must(200, "PUT", sp+"/plates/1/direction", map[string]any{"dirAxis": "YAxis"}).decode(t, &d)
	if d.Source != "Axis" || d.DirAxis != "YAxis" {
		t.Errorf("plate direction %+v", d)
	}
	// A section or material in use cannot be deleted; in a bulk delete
	// with continueOnError the unused ones go and the others are listed.
	er := e.wantError(409, "CONFLICT", "DELETE", sp+"/sections/1", nil)
	if !strings.Contains(er.Detail, "section 1 is used by members") {
		t.Errorf("section in use: %q", er.Detail)
	}
	e.wantError(409, "CONFLICT", "DELETE", sp+"/materials/1", nil)
	e.must(201, "POST", sp+"/sections", map[string]any{"id": 7, "name": "spare", "a": 1, "j": 1, "iy": 1, "iz": 1, "ay": 1, "az": 1})
	e.wantError(409, "CONFLICT", "DELETE", sp+"/sections/bulk", []int{1, 7})
	var res editor.BulkResult
	e.must(200, "DELETE", sp+"/sections/bulk?continueOnError=true", []int{1, 7}).decode(t, &res)
	if len(res.Succeeded) != 1 || res.Succeeded[0].ID != 7 || len(res.Errors) != 1 || res.Errors[0].ID != 1 ||
		!strings.Contains(res.Errors[0].Error, "used by members") {
		t.Errorf("bulk delete of a used and a spare section: %+v", res)
	}
}

func TestLibrariesAndMaterials(t *testing.T) {
	e := structureEnv(t)
	var s model.Section
	e.must(201, "POST", sp+"/sections/library", map[string]any{"name": "W310X97", "library": "AISC15"}).decode(t, &s)
	// AISC Shapes Database v15.0 (SI): W310X97 has A = 12300 mm², Ix = 222e6 mm⁴.
	if s.Source != "Library" || s.A != 12300 || s.Iz != 222e6 || len(s.Shapes) != 1 || s.Shapes[0].YTop <= 0 {
		t.Errorf("AISC section %+v", s)
	}
	er := e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/sections/library", map[string]any{"name": "360 UB 45", "library": "Aust300"})
	if !strings.Contains(er.Detail, "360 UB 45") || !strings.Contains(er.Detail, "Aust300") {
		t.Errorf("library miss: %s", er.Detail)
	}
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/sections", map[string]any{"name": "z", "a": 0, "j": 1, "iy": 1, "iz": 1, "ay": 1, "az": 1})
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/sections", map[string]any{"name": "z", "a": 1, "j": 1, "iy": 1, "iz": 1, "ay": 1})
	var m model.Material
	e.must(201, "POST", sp+"/materials/library", map[string]any{"name": "STEEL", "library": "Aust"}).decode(t, &m)
	if m.Source != "Library" || m.YoungsModulus <= 0 {
		t.Errorf("library material %+v", m)
	}
	for _, nu := range []float64{0.5, -1, 0.7} {
		e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/materials", map[string]any{"name": "x", "youngsModulus": 1, "poissonsRatio": nu})
	}
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/materials", map[string]any{"name": "x", "youngsModulus": -1, "poissonsRatio": 0.2})
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/materials", map[string]any{"name": "x", "youngsModulus": 1, "poissonsRatio": 0.2, "source": "Library"})
	e.must(204, "DELETE", sp+"/materials/2", nil)
}

func TestRestraintsConstraintsOffsets(t *testing.T) {
	e := structureEnv(t)
	e.wantError(404, "NOT_FOUND", "POST", sp+"/node-restraints", map[string]any{"node": 99})
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/node-restraints", map[string]any{"restraintCode": "FFFFFF"})
	var r model.NodeRestraint
	e.must(201, "POST", sp+"/node-restraints", map[string]any{"node": 1, "restraintCode": "FFSVRR", "tzStiffness": 50}).decode(t, &r)
	if r.ActiveDirection != "BBBBBB" || r.TzStiffness != 50 {
		t.Errorf("restraint %+v", r)
	}
	e.wantError(409, "DUPLICATE_ENTITY", "POST", sp+"/node-restraints", map[string]any{"node": 1})
	for _, code := range []string{"FFFFF", "FFFFFX", "ffffff"} {
		e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/node-restraints", map[string]any{"node": 2, "restraintCode": code})
	}
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/node-restraints", map[string]any{"node": 2, "activeDirection": "BBBBBX"})
	// Tables: the Rx position is V; the tables follow the spec's rules.
	tbl := sp + "/node-restraints/1/table/"
	e.wantError(404, "NOT_FOUND", "GET", tbl+"Rx", nil)
	for _, rows := range [][][]float64{{}, {{1, 5}}, {{0, 5}, {0, 6}}, {{0, 5}, {-1, 6}}, {{0, -5}},
		{{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}, {7, 1}, {8, 1}, {9, 1}, {10, 1}, {11, 1}, {12, 1}, {13, 1}, {14, 1}, {15, 1}}} {
		e.wantError(400, "VALIDATION_FAILED", "PUT", tbl+"Rx", map[string]any{"rows": rows})
	}
	e.wantError(400, "VALIDATION_FAILED", "PUT", tbl+"Tx", map[string]any{"rows": [][]float64{{0, 5}}})
	e.wantError(400, "VALIDATION_FAILED", "PUT", tbl+"Up", map[string]any{"rows": [][]float64{{0, 5}}})
	var tb model.Table
	e.must(200, "PUT", tbl+"Rx", map[string]any{"rows": [][]float64{{0, 100}, {0.02, 40}}}).decode(t, &tb)
	e.must(200, "GET", tbl+"rx", nil).decode(t, &tb)
	if !reflect.DeepEqual(tb.Rows, [][]float64{{0, 100}, {0.02, 40}}) {
		t.Errorf("table %+v", tb)
	}
	// Translational tables convert: x in the translation unit (mm), y in force/length (kN/m).
	e.must(200, "PATCH", sp+"/node-restraints/1", map[string]any{"restraintCode": "VFSVRR"})
	e.must(200, "PUT", tbl+"Tx", map[string]any{"rows": [][]float64{{0, 100}, {5, 40}}})
	e.must(200, "PATCH", "/job/units", map[string]any{"translation": "m", "force": "N"})
	e.must(200, "GET", tbl+"Tx", nil).decode(t, &tb)
	if math.Abs(tb.Rows[1][0]-0.005) > 1e-15 || math.Abs(tb.Rows[1][1]-40000) > 1e-9 {
		t.Errorf("converted table %+v, want [0.005, 40000]", tb.Rows)
	}
	e.wantError(400, "VALIDATION_FAILED", "PATCH", sp+"/node-restraints/1", map[string]any{"restraintCode": "FFFFFF"})
	var tmd httpapi.TableMetadata
	e.must(200, "GET", sp+"/node-restraints/table/Tx/metadata", nil).decode(t, &tmd)
	if tmd.MaxRows != 15 || len(tmd.Columns) != 2 || *tmd.Columns[0].Units != "m" || *tmd.Columns[1].Units != "N/m" {
		t.Errorf("table metadata %+v", tmd)
	}
	e.must(204, "DELETE", tbl+"Rx", nil)
	e.wantError(404, "NOT_FOUND", "GET", tbl+"Rx", nil)
	// General restraint.
	e.must(200, "POST", sp+"/node-restraints/set-general", map[string]any{"node": 1}).decode(t, &r)
	if !r.GeneralRestraint {
		t.Error("set-general")
	}
	e.wantError(404, "NOT_FOUND", "POST", sp+"/node-restraints/set-general", map[string]any{"node": 3})
	e.must(204, "POST", sp+"/node-restraints/set-general", map[string]any{"node": nil})
	e.must(200, "GET", sp+"/node-restraints/1", nil).decode(t, &r)
	if r.GeneralRestraint {
		t.Error("set-general null did not clear")
	}
	e.must(204, "DELETE", sp+"/node-restraints/1", nil)
	e.wantError(404, "NOT_FOUND", "GET", sp+"/node-restraints/1", nil)
	e.wantError(404, "NOT_FOUND", "DELETE", sp+"/node-restraints/1", nil)

	// Constraints.
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/node-constraints", map[string]any{"slaveNode": 2, "masterNode": 2})
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/node-constraints", map[string]any{"slaveNode": 2, "masterNode": 9})
	e.wantError(404, "NOT_FOUND", "POST", sp+"/node-constraints", map[string]any{"slaveNode": 9, "masterNode": 2})
	e.wantError(400, "VALIDATION_FAILED", "POST", sp+"/node-constraints", map[string]any{"slaveNode": 2, "masterNode": 1, "axes": "Inclined"})
	e.must(201, "POST", sp+"/node-constraints", map[string]any{"slaveNode": 2, "masterNode": 1, "constraintCode": "FFFRRR"})
	e.must(201, "POST", sp+"/node-constraints", map[string]any{"slaveNode": 3, "masterNode": 4})
	e.wantError(409, "DUPLICATE_ENTITY", "POST", sp+"/node-constraints", map[string]any{"slaveNode": 2, "masterNode": 3})
	e.wantError(400, "VALIDATION_FAILED", "PATCH", sp+"/node-constraints/2", map[string]any{"masterNode": 2})
	cs, _ := list[model.NodeConstraint](t, e, sp+"/node-constraints?masterNode=4")
	if len(cs) != 1 || cs[0].SlaveNode != 3 {
		t.Errorf("masterNode filter %+v", cs)
	}
	cs, _ = list[model.NodeConstraint](t, e, sp+"/node-constraints?slaves=2")
	if len(cs) != 1 || cs[0].ConstraintCode != "FFFRRR" {
		t.Errorf("slaves filter %+v", cs)
	}

	// Offsets.
	e.must(201, "POST", sp+"/members", map[string]any{"nodeA": 1, "nodeB": 2, "section": 1, "material": 1})
	e.wantError(404, "NOT_FOUND", "POST", sp+"/member-offsets", map[string]any{"member": 9})
	e.must(201, "POST", sp+"/member-offsets", map[string]any{"member": 1, "xOffsetAtA": 100})
	e.wantError(409, "DUPLICATE_ENTITY", "POST", sp+"/member-offsets", map[string]any{"member": 1})
	var m model.Member
	e.must(200, "GET", sp+"/members/1", nil).decode(t, &m)
	if !m.HasOffsets || m.Offsets == nil || m.Offsets.XOffsetAtA != 100 || m.Offsets.Axes != "Global" {
		t.Errorf("member with offsets %+v", m.Offsets)
	}
	e.must(204, "DELETE", sp+"/member-offsets/1", nil)
	var after model.Member
	e.must(200, "GET", sp+"/members/1", nil).decode(t, &after)
	if after.HasOffsets || after.Offsets != nil {
		t.Error("offsets survive their delete")
	}
}

// Deleting a node removes what depends on it, and the DeleteResult lists
// exactly what went.
func TestCascadeDelete(t *testing.T) {
	e := structureEnv(t)
	e.must(201, "POST", sp+"/nodes", map[string]any{"id": 5, "x": 6, "y": 0, "z": 0})
	e.must(200, "POST", sp+"/members/bulk", []map[string]any{
		{"nodeA": 1, "nodeB": 2, "section": 1, "material": 1},                                            // 1: goes with node 2
		{"nodeA": 2, "nodeB": 5, "section": 1, "material": 1},                                            // 2: goes; node 5 is left disconnected
		{"nodeA": 3, "nodeB": 4, "section": 1, "material": 1, "direction": map[string]any{"dirNode": 2}}, // 3: stays, direction reset
		{"nodeA": 1, "nodeB": 4, "section": 1, "material": 1},                                            // 4: stays
	})
	e.must(201, "POST", sp+"/plates", map[string]any{"nodeA": 1, "nodeB": 2, "nodeC": 3, "material": 1, "actualThickness": 10})
	e.must(201, "POST", sp+"/plates", map[string]any{"nodeA": 1, "nodeB": 3, "nodeC": 4, "material": 1, "actualThickness": 10,
		"direction": map[string]any{"dirNode": 2}})
	e.must(201, "POST", sp+"/node-restraints", map[string]any{"node": 2})
	e.must(201, "POST", sp+"/node-restraints", map[string]any{"node": 5})
	e.must(201, "POST", sp+"/node-restraints", map[string]any{"node": 1})
	e.must(201, "POST", sp+"/node-constraints", map[string]any{"slaveNode": 3, "masterNode": 2})
	e.must(201, "POST", sp+"/node-constraints", map[string]any{"slaveNode": 4, "masterNode": 1})
	e.must(201, "POST", sp+"/member-offsets", map[string]any{"member": 1})
	e.must(201, "POST", sp+"/member-offsets", map[string]any{"member": 4})

	var res editor.DeleteResult
	e.must(200, "DELETE", sp+"/nodes/2", nil).decode(t, &res)
	want := editor.DeleteResult{Nodes: []int64{2, 5}, Members: []int64{1, 2}, Plates: []int64{1}, NodeRestraints: []int64{2, 5},
		NodeConstraints: []int64{3}, MemberOffsets: []int64{1}, PlateCuts: []int64{}, PlateStrips: []int64{},
		MembersDirectionReset: []int64{3}, PlatesDirectionReset: []int64{2}, TotalRemoved: 9}
	emptyLoads(&want)
	if !reflect.DeepEqual(res, want) {
		t.Fatalf("delete result\n got %+v\nwant %+v", res, want)
	}
	var st httpapi.Status
	e.must(200, "GET", "/job/status", nil).decode(t, &st)
	if st.Structure != (httpapi.StructureCounts{Nodes: 3, Members: 2, Plates: 1, NodeRestraints: 1, NodeConstraints: 1, MemberOffsets: 1, Sections: 1, Materials: 1}) {
		t.Errorf("counts after cascade %+v", st.Structure)
	}
	var m model.Member
	e.must(200, "GET", sp+"/members/3", nil).decode(t, &m)
	if m.Direction != (model.Direction{Source: "Angle", DirAxis: "NotApplicable"}) {
		t.Errorf("member 3 direction %+v", m.Direction)
	}
	// Bulk delete: a missing id aborts unless continueOnError.
	e.wantError(404, "NOT_FOUND", "DELETE", sp+"/members/bulk", []int64{3, 99})
	var bd httpapi.BulkDeleteResult
	e.must(200, "DELETE", sp+"/members/bulk?continueOnError=true", []int64{3, 99}).decode(t, &bd)
	if len(bd.Succeeded) != 1 || len(bd.Errors) != 1 || !reflect.DeepEqual(bd.Deleted.Members, []int64{3}) {
		t.Errorf("bulk delete %+v", bd)
	}
	e.wantError(404, "NOT_FOUND", "DELETE", sp+"/nodes/2", nil)
}

// The whole model round-trips through save, close and open.
func TestModelSaveOpenRoundTrip(t *testing.T) {
	e := structureEnv(t)
	e.must(201, "POST", sp+"/members", map[string]any{"nodeA": 1, "nodeB": 2, "section": 1, "material": 1, "releases": map[string]any{"fixityCodeAtB": "FFFFFR"}})
	e.must(201, "POST", sp+"/node-restraints", map[string]any{"node": 1, "restraintCode": "FFFVFF"})
	e.must(200, "PUT", sp+"/node-restraints/1/table/Rx", map[string]any{"rows": [][]float64{{0, 1}, {1, 2}}})
	e.must(201, "POST", sp+"/member-offsets", map[string]any{"member": 1, "axes": "Local", "yOffsetAtB": 0.25})
	e.must(201, "POST", sp+"/sections/library", map[string]any{"name": "360UB44.7", "library": "Aust300"})
	paths := []string{"/nodes?expand=All", "/members?expand=All", "/sections", "/materials", "/node-restraints", "/member-offsets"}
	before := map[string]string{}
	for _, p := range paths {
		before[p] = string(e.must(200, "GET", sp+p, nil).body)
	}
	e.must(201, "POST", "/job/save", map[string]any{"filePath": "model"})
	e.must(200, "POST", "/job/close", nil)
	e.must(200, "POST", "/job/open", map[string]any{"filePath": "model"})
	for _, p := range paths {
		if after := string(e.must(200, "GET", sp+p, nil).body); after != before[p] {
			t.Errorf("%s changed across save and open:\n%s\n%s", p, before[p], after)
		}
	}
	var st httpapi.Status
	e.must(200, "GET", "/job/status", nil).decode(t, &st)
	if st.Structure.Nodes != 4 || st.Structure.Sections != 2 || st.State.IsModified {
		t.Errorf("status after open %+v", st)
	}
	raw, _ := json.Marshal(st.Structure)
	if !strings.Contains(string(raw), `"members":1`) {
		t.Errorf("counts %s", raw)
	}
}

// emptyLoads sets the load lists of a DeleteResult to empty, as the wire
// shows them when no load went.
func emptyLoads(r *editor.DeleteResult) {
	for _, l := range []*[]editor.LoadKey{&r.NodeLoads, &r.PrescribedDisplacements, &r.LumpedMassLoads, &r.MemberConcentratedLoads,
		&r.MemberDistributedLoads, &r.MemberDistributedMoments, &r.MemberPrestressLoads, &r.PlatePressureLoads, &r.ThermalLoads} {
		if *l == nil {
			*l = []editor.LoadKey{}
		}
	}
}
