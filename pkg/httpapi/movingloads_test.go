package httpapi_test

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store/redisstore"
)

const mp = "/job/loads/moving-loads"

// closeTo reports whether got is within rel (relative) of want.
func closeTo(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), 1e-300)
}

func getSettings(t *testing.T, e *env) model.MovingLoadSettings {
	t.Helper()
	var s model.MovingLoadSettings
	e.must(200, "GET", mp+"/settings", nil).decode(t, &s)
	return s
}

func TestMovingLoadSettings(t *testing.T) {
	e := structureEnv(t)
	s := getSettings(t, e)
	want := model.MovingLoadSettings{VerticalProximity: 1, LoadedArea: [][]float64{}, LengthUnit: "m", ForceUnit: "kN"}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("defaults %+v, want %+v", s, want)
	}
	e.must(201, "POST", "/job/save", map[string]any{"filePath": "settings"})
	getSettings(t, e)
	var st httpapi.Status
	e.must(200, "GET", "/job/status", nil).decode(t, &st)
	if st.State.IsModified {
		t.Error("reading the default settings must not modify the job")
	}

	// Partial update: only the supplied fields change.
	e.must(200, "PATCH", mp+"/settings", map[string]any{"retainLoads": true})
	e.must(200, "PATCH", mp+"/settings", map[string]any{"checkVerticalProximity": true, "verticalProximity": 0.5})
	s = getSettings(t, e)
	if !s.RetainLoads || !s.CheckVerticalProximity || s.VerticalProximity != 0.5 || s.ApplyToClosestMember {
		t.Errorf("after two partial updates %+v", s)
	}
	e.must(200, "GET", "/job/status", nil).decode(t, &st)
	if !st.State.IsModified {
		t.Error("a settings update must mark the job modified")
	}

	square := [][]float64{{0, 0}, {10, 0}, {10, 5}, {0, 5}}
	e.must(200, "PATCH", mp+"/settings", map[string]any{"loadedArea": square, "ignoreOutsideLoadedArea": true})
	if s = getSettings(t, e); !reflect.DeepEqual(s.LoadedArea, square) || !s.IgnoreOutsideLoadedArea {
		t.Fatalf("loaded area %v", s.LoadedArea)
	}
	// Invalid polygons and fields are 400s that leave the settings alone.
	bowTie := [][]float64{{0, 0}, {1, 1}, {1, 0}, {0, 1}}
	many := make([][]float64, model.MaxLoadedAreaRows+1)
	for i := range many {
		a := 2 * math.Pi * float64(i) / float64(len(many))
		many[i] = []float64{math.Cos(a), math.Sin(a)}
	}
	bad := []struct {
		name string
		body any
		want string // a fragment of the detail
	}{
		{"self-intersecting", map[string]any{"loadedArea": bowTie}, "cross"},
		{"two points", map[string]any{"loadedArea": [][]float64{{0, 0}, {1, 0}}}, "at least 3"},
		{"repeated point", map[string]any{"loadedArea": [][]float64{{0, 0}, {1, 0}, {1, 0}, {0, 1}}}, "coincide"},
		{"first point repeated at the end", map[string]any{"loadedArea": [][]float64{{0, 0}, {1, 0}, {1, 1}, {0, 0}}}, "do not repeat"},
		{"collinear", map[string]any{"loadedArea": [][]float64{{0, 0}, {1, 0}, {2, 0}}}, "polygon"},
		{"row of three", map[string]any{"loadedArea": [][]float64{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}}}, "[x, y]"},
		{"row of strings", map[string]any{"loadedArea": [][]string{{"a", "b"}}}, "rows of numbers"},
		{"not an array", map[string]any{"loadedArea": 5}, "rows of numbers"},
		{"too many rows", map[string]any{"loadedArea": many}, "at most 1000"},
		{"negative proximity", map[string]any{"verticalProximity": -1}, "zero or more"},
		{"read-only unit", map[string]any{"lengthUnit": "mm"}, "read-only"},
		{"unknown property", map[string]any{"proximity": 1}, "unknown property"},
		{"wrong type", map[string]any{"retainLoads": "yes"}, "retainLoads"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			er := e.wantError(400, "VALIDATION_FAILED", "PATCH", mp+"/settings", tc.body)
			if !strings.Contains(er.Detail, tc.want) {
				t.Errorf("detail %q lacks %q", er.Detail, tc.want)
			}
		})
	}
	if s = getSettings(t, e); !reflect.DeepEqual(s.LoadedArea, square) || s.VerticalProximity != 0.5 {
		t.Errorf("failed updates changed the settings: %+v", s)
	}
	// The largest allowed polygon (1000 rows) is accepted.
	e.must(200, "PATCH", mp+"/settings", map[string]any{"loadedArea": many[:model.MaxLoadedAreaRows]})
	// A new polygon replaces the whole old one; leaving it out keeps it.
	tri := [][]float64{{0, 0}, {4, 0}, {0, 3}}
	e.must(200, "PATCH", mp+"/settings", map[string]any{"loadedArea": tri})
	e.must(200, "PATCH", mp+"/settings", map[string]any{"keepLoadsWithinTravelPath": true})
	if s = getSettings(t, e); !reflect.DeepEqual(s.LoadedArea, tri) || !s.KeepLoadsWithinTravelPath {
		t.Errorf("after replace %+v", s)
	}

	// Units at the edge: lengths in the job unit, the units read-only.
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "mm", "force": "N"})
	s = getSettings(t, e)
	if s.VerticalProximity != 500 || s.LengthUnit != "mm" || s.ForceUnit != "N" || !reflect.DeepEqual(s.LoadedArea, [][]float64{{0, 0}, {4000, 0}, {0, 3000}}) {
		t.Errorf("in mm: %+v", s)
	}
	e.must(200, "PATCH", mp+"/settings", map[string]any{"verticalProximity": 250})
	var md httpapi.TableMetadata
	e.must(200, "GET", mp+"/settings/loaded-area/metadata", nil).decode(t, &md)
	if md.TableName != "loadedArea" || md.MaxRows != model.MaxLoadedAreaRows || len(md.Columns) != 2 || *md.Columns[0].Units != "mm" || md.Columns[1].JSONName != "y" {
		t.Errorf("loaded-area metadata %+v", md)
	}
	var smd httpapi.Metadata
	e.must(200, "GET", mp+"/settings/metadata", nil).decode(t, &smd)
	if fieldUnit(smd, "verticalProximity") != "mm" || fieldUnit(smd, "loadedArea") != "mm, mm" {
		t.Errorf("settings metadata %+v", smd)
	}
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "m"})
	if s = getSettings(t, e); !closeTo(s.VerticalProximity, 0.25, 1e-12) {
		t.Errorf("250 mm read back as %g m", s.VerticalProximity)
	}
	// Concurrent partial updates of different fields lose none of them:
	// each write expects the revision it read and is planned again if the
	// model moved.
	flags := []string{"retainLoads", "applyToClosestMember", "ignoreLoadsOnOneMember", "keepLoadsWithinTravelPath"}
	e.must(200, "PATCH", mp+"/settings", map[string]any{flags[0]: false, flags[1]: false, flags[2]: false, flags[3]: false})
	statuses := make(chan int, len(flags))
	for _, f := range flags {
		go func() { statuses <- e.do("PATCH", mp+"/settings", map[string]any{f: true}).status }()
	}
	for range flags {
		if st := <-statuses; st != 200 {
			t.Errorf("concurrent PATCH: status %d", st)
		}
	}
	if s = getSettings(t, e); !s.RetainLoads || !s.ApplyToClosestMember || !s.IgnoreLoadsOnOneMember || !s.KeepLoadsWithinTravelPath {
		t.Errorf("a concurrent update was lost: %+v", s)
	}
	// An empty array clears the polygon.
	e.must(200, "PATCH", mp+"/settings", map[string]any{"loadedArea": []any{}})
	if s = getSettings(t, e); len(s.LoadedArea) != 0 || s.LoadedArea == nil {
		t.Errorf("cleared area %#v", s.LoadedArea)
	}
}

func TestMovingLoadElementsToLoad(t *testing.T) {
	e := structureEnv(t)
	get := func() model.MovingLoadElements {
		t.Helper()
		var x model.MovingLoadElements
		e.must(200, "GET", mp+"/elements-to-load", nil).decode(t, &x)
		return x
	}
	if x := get(); x != (model.MovingLoadElements{}) {
		t.Errorf("default %+v", x)
	}
	steps := []struct {
		body any
		want model.MovingLoadElements
	}{
		{map[string]any{"members": "7, 1-3,2"}, model.MovingLoadElements{Members: "1-3,7"}},
		{map[string]any{"plates": "10-12,4"}, model.MovingLoadElements{Members: "1-3,7", Plates: "4,10-12"}},
		{map[string]any{"members": ""}, model.MovingLoadElements{Plates: "4,10-12"}},
		{map[string]any{"members": "5", "plates": nil}, model.MovingLoadElements{Members: "5", Plates: "4,10-12"}},
		{map[string]any{}, model.MovingLoadElements{Members: "5", Plates: "4,10-12"}},
	}
	for i, s := range steps {
		var got model.MovingLoadElements
		e.must(200, "PATCH", mp+"/elements-to-load", s.body).decode(t, &got)
		if got != s.want || get() != s.want {
			t.Errorf("step %d: %+v, want %+v", i, got, s.want)
		}
	}
	for _, body := range []any{map[string]any{"members": "1-x"}, map[string]any{"plates": "5-2"}, map[string]any{"members": "0"},
		map[string]any{"members": ",1"}, map[string]any{"members": 3}, map[string]any{"nodes": "1"}} {
		e.wantError(400, "VALIDATION_FAILED", "PATCH", mp+"/elements-to-load", body)
	}
	if x := get(); x != steps[len(steps)-1].want {
		t.Errorf("failed updates changed the selection: %+v", x)
	}
}

// groupTotals sums the downward wheel loads of axle groups: axles closer
// than gap along x belong to one group.
func groupTotals(v model.Vehicle, gap float64) []float64 {
	loads := append([]model.VehicleLoad(nil), v.Loads...)
	sort.Slice(loads, func(i, j int) bool { return loads[i].X > loads[j].X })
	var out []float64
	for i, l := range loads {
		if i == 0 || loads[i-1].X-l.X > gap {
			out = append(out, 0)
		}
		out[len(out)-1] -= l.Fz
	}
	return out
}

func TestMovingLoadVehicles(t *testing.T) {
	e := structureEnv(t)
	vp := mp + "/vehicles"
	var v model.Vehicle
	body := map[string]any{"name": "two axles", "loads": []map[string]any{{"x": 0, "y": 1, "fz": -50}, {"x": -3, "y": 1, "fz": -70, "mx": 2}}}
	e.must(201, "POST", vp, body).decode(t, &v)
	if v.ID != 1 || v.Source != "User" || v.Library != "" || len(v.Loads) != 2 || v.Loads[1].Fz != -70 || v.Loads[1].Mx != 2 ||
		v.LoadUnits != (model.VehicleLoadUnits{Length: "m", Force: "kN", Moment: "kNm"}) {
		t.Fatalf("created %+v", v)
	}
	for name, b := range map[string]any{
		"no loads":          map[string]any{"name": "x", "loads": []any{}},
		"loads missing":     map[string]any{"name": "x"},
		"blank name":        map[string]any{"name": " ", "loads": body["loads"]},
		"unknown load prop": map[string]any{"name": "x", "loads": []map[string]any{{"x": 0, "force": 1}}},
		"read-only units":   map[string]any{"name": "x", "loads": body["loads"], "loadUnits": map[string]any{"force": "N"}},
		"read-only source":  map[string]any{"name": "x", "loads": body["loads"], "source": "Library"},
	} {
		t.Run(name, func(t *testing.T) { e.wantError(400, "VALIDATION_FAILED", "POST", vp, b) })
	}
	e.must(200, "PATCH", vp+"/1", map[string]any{"name": "renamed"}).decode(t, &v)
	if v.Name != "renamed" || len(v.Loads) != 2 {
		t.Errorf("patched %+v", v)
	}
	// Units: loads cross the edge in the job units, which loadUnits names.
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "mm", "force": "N", "moment": "Nm"})
	e.must(200, "GET", vp+"/1", nil).decode(t, &v)
	if v.Loads[1].X != -3000 || v.Loads[1].Fz != -70000 || v.Loads[1].Mx != 2000 || v.LoadUnits != (model.VehicleLoadUnits{Length: "mm", Force: "N", Moment: "Nm"}) {
		t.Errorf("in mm, N: %+v", v)
	}
	var md httpapi.Metadata
	e.must(200, "GET", vp+"/loads/metadata", nil).decode(t, &md)
	if fieldUnit(md, "x") != "mm" || fieldUnit(md, "fz") != "N" || fieldUnit(md, "mz") != "Nm" {
		t.Errorf("load metadata %+v", md)
	}
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "m", "force": "kN", "moment": "kNm"})

	// Library vehicles. AS 5100.2:2017 Cl. 7.2.4, Fig. 7.2.4(B): the M1600
	// moving traffic load is four tri-axle groups of 3 × 120 kN = 360 kN.
	e.must(201, "POST", vp+"/library", map[string]any{"name": "m1600", "library": "as5100"}).decode(t, &v)
	if v.ID != 2 || v.Name != "M1600" || v.Library != "AS5100" || v.Source != "Library" || len(v.Loads) != 24 {
		t.Fatalf("M1600 %+v", v)
	}
	if g := groupTotals(v, 2); len(g) != 4 || !closeTo(g[0], 360, 1e-12) || !closeTo(g[3], 360, 1e-12) {
		t.Errorf("M1600 group totals %v kN, want 4 × 360 kN", g)
	}
	// AASHTO LRFD Art. 3.6.1.2.2: the HL-93 design truck is 8 + 32 + 32 =
	// 72 kip, 72 × 4.4482216152605 kN = 320.27 kN (NIST SP 811 kip).
	e.must(201, "POST", vp+"/library", map[string]any{"id": 9, "name": "HL-93 Design Truck", "library": "AASHTO"}).decode(t, &v)
	if g := groupTotals(v, 100); v.ID != 9 || len(g) != 1 || !closeTo(g[0], 72*4.4482216152605, 1e-12) || math.Abs(g[0]-320.27) > 0.005 {
		t.Errorf("HL-93 truck %v kN, want 320.27 kN", g)
	}
	e.must(200, "PATCH", "/job/units", map[string]any{"force": "K"})
	e.must(200, "GET", vp+"/9", nil).decode(t, &v)
	if g := groupTotals(v, 100); !closeTo(g[0], 72, 1e-12) {
		t.Errorf("HL-93 truck in kip: %v, want 72", g)
	}
	e.must(200, "PATCH", "/job/units", map[string]any{"force": "kN"})
	misses := []struct{ name, library, want string }{
		{"M2000", "AS5100", `vehicle "M2000" not found in library "AS5100"`},
		{"M1600", "BS5400", `unknown vehicle library "BS5400"`},
		{"HL-93 Design Lane Load", "AASHTO", "lane load"},
	}
	for _, m := range misses {
		er := e.wantError(400, "VALIDATION_FAILED", "POST", vp+"/library", map[string]any{"name": m.name, "library": m.library})
		if !strings.Contains(er.Detail, m.want) {
			t.Errorf("%s/%s: detail %q lacks %q", m.library, m.name, er.Detail, m.want)
		}
	}
	e.wantError(409, "DUPLICATE_ENTITY", "POST", vp+"/library", map[string]any{"id": 9, "name": "M1600", "library": "AS5100"})

	// The rest of the collection shape.
	list, r := list[model.Vehicle](t, e, vp+"?vehicles=1-5")
	if len(list) != 2 || r.header.Get("Total-Count") != "2" {
		t.Errorf("list %d, Total-Count %s", len(list), r.header.Get("Total-Count"))
	}
	var next int64
	e.must(200, "GET", vp+"/next", nil).decode(t, &next)
	e.must(200, "GET", vp+"/metadata", nil).decode(t, &md)
	if next != 3 || md.MaxID != 9 || *md.Count != 3 {
		t.Errorf("next %d, metadata %+v", next, md)
	}
	var br struct {
		Succeeded []struct{ ID int64 } `json:"succeeded"`
	}
	e.must(200, "POST", vp+"/bulk", []any{body, body}).decode(t, &br)
	if len(br.Succeeded) != 2 || br.Succeeded[0].ID != 3 || br.Succeeded[1].ID != 4 {
		t.Errorf("bulk create %+v, want ids 3 and 4 (next, then the next free)", br)
	}
	e.must(200, "DELETE", vp+"/bulk", []int64{3, 4})
	e.must(204, "DELETE", vp+"/1", nil)
	e.wantError(404, "NOT_FOUND", "GET", vp+"/1", nil)
}

func TestMovingLoadPressuresAndTravelPaths(t *testing.T) {
	e := structureEnv(t)
	pp, tp := mp+"/pressures", mp+"/travel-paths"
	var p model.MovingPressure
	e.must(201, "POST", pp, map[string]any{"name": "patch", "width": 3.2, "length": 2, "pz": -10, "loadSpacing": 0.5}).decode(t, &p)
	if p.ID != 1 || p.Pz != -10 || p.Width != 3.2 {
		t.Fatalf("pressure %+v", p)
	}
	for name, b := range map[string]any{
		"zero width":          map[string]any{"name": "x", "width": 0, "length": 1, "loadSpacing": 1},
		"missing loadSpacing": map[string]any{"name": "x", "width": 1, "length": 1},
		"negative length":     map[string]any{"name": "x", "width": 1, "length": -1, "loadSpacing": 1},
	} {
		t.Run(name, func(t *testing.T) { e.wantError(400, "VALIDATION_FAILED", "POST", pp, b) })
	}
	// Pressures are in the job Force/Length²: 10 kN/m² = 0.01 N/mm².
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "mm", "force": "N"})
	e.must(200, "GET", pp+"/1", nil).decode(t, &p)
	if !closeTo(p.Pz, -0.01, 1e-12) || !closeTo(p.Width, 3200, 1e-12) {
		t.Errorf("in N, mm: %+v", p)
	}
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "m", "force": "kN"})

	var path model.TravelPath
	e.must(201, "POST", tp, map[string]any{"name": "lane 1"}).decode(t, &path)
	if path.ID != 1 || path.HasStations || path.Stations != nil {
		t.Fatalf("path %+v", path)
	}
	var sb httpapi.StationsBody
	e.must(200, "PUT", tp+"/1/stations", map[string]any{"stations": []map[string]any{
		{"nodeKey": 2, "x": 99}, {"x": 20, "y": 0, "z": 1, "radius": 5}}}).decode(t, &sb)
	want := []model.TravelStation{{NodeKey: 2, X: 3}, {X: 20, Z: 1, Radius: 5}}
	if !reflect.DeepEqual(sb.Stations, want) {
		t.Errorf("stations %+v, want %+v (a node station sits at its node)", sb.Stations, want)
	}
	bad := map[string]any{
		"one station":      map[string]any{"stations": []map[string]any{{"x": 0}}},
		"negative radius":  map[string]any{"stations": []map[string]any{{"x": 0}, {"x": 1, "radius": -1}}},
		"missing node":     map[string]any{"stations": []map[string]any{{"nodeKey": 99}, {"x": 1}}},
		"negative nodeKey": map[string]any{"stations": []map[string]any{{"nodeKey": -1}, {"x": 1}}},
		"unknown property": map[string]any{"stations": []map[string]any{{"x": 0, "w": 1}, {"x": 1}}},
		"not an array":     map[string]any{"stations": 3},
		"null":             map[string]any{"stations": nil},
		"missing stations": map[string]any{},
		"extra property":   map[string]any{"stations": []any{}, "name": "x"},
	}
	for name, b := range bad {
		t.Run(name, func(t *testing.T) { e.wantError(400, "VALIDATION_FAILED", "PUT", tp+"/1/stations", b) })
	}
	e.wantError(404, "NOT_FOUND", "PUT", tp+"/7/stations", map[string]any{"stations": []map[string]any{{"x": 0}, {"x": 1}}})
	e.wantError(400, "VALIDATION_FAILED", "POST", tp, map[string]any{"name": "x", "stations": []map[string]any{{"x": 0}}})
	// Lists leave stations out unless expand=All; radius in the job unit.
	paths, _ := list[model.TravelPath](t, e, tp)
	if len(paths) != 1 || !paths[0].HasStations || paths[0].Stations != nil {
		t.Errorf("list %+v", paths)
	}
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "mm"})
	paths, _ = list[model.TravelPath](t, e, tp+"?expand=All")
	if len(paths[0].Stations) != 2 || paths[0].Stations[1].Radius != 5000 || paths[0].Stations[0].X != 3000 {
		t.Errorf("expanded list in mm %+v", paths)
	}
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "m"})
	// Deleting the node keeps the station where the node was.
	e.must(200, "DELETE", sp+"/nodes/2", nil)
	e.must(200, "GET", tp+"/1/stations", nil).decode(t, &sb)
	if sb.Stations[0] != (model.TravelStation{X: 3}) {
		t.Errorf("after deleting node 2: %+v", sb.Stations[0])
	}
	e.must(204, "DELETE", pp+"/1", nil)
	e.must(204, "DELETE", tp+"/1", nil)
}

func TestMovingLoadScenarios(t *testing.T) {
	e := structureEnv(t)
	sc := mp + "/scenarios"
	e.must(201, "POST", mp+"/vehicles/library", map[string]any{"name": "M1600 Tri-Axle Group", "library": "AS5100"})
	e.must(201, "POST", mp+"/pressures", map[string]any{"name": "udl", "width": 3, "length": 1, "pz": -6, "loadSpacing": 0.5})
	e.must(201, "POST", mp+"/travel-paths", map[string]any{"name": "lane", "stations": []map[string]any{{"x": 0}, {"x": 30}}})
	e.must(201, "POST", "/job/loads/load-cases", map[string]any{"title": "dead"})

	var s model.Scenario
	e.must(201, "POST", sc, map[string]any{"name": "trucks"}).decode(t, &s)
	if s.ID != 1 || !s.Include || s.TimeInterval != 1 || s.StartingLoadCase != 0 || s.HasLoads || s.Loads != nil {
		t.Fatalf("defaults %+v", s)
	}
	var lb httpapi.ScenarioLoadsBody
	e.must(200, "PUT", sc+"/1/loads", map[string]any{"loads": []map[string]any{
		{"vehicleId": 1, "travelPathId": 1, "speed": 10},
		{"loadType": "Pressure", "pressureId": 1, "travelPathId": 1, "delay": 2, "generateStationaryLc": "AllLoadCases", "loadFactor": 1.5}}}).decode(t, &lb)
	want := []model.ScenarioLoad{
		{LoadType: "Vehicle", VehicleID: 1, TravelPathID: 1, Speed: 10, LoadFactor: 1, LaneFactor: 1, DynamicFactor: 1, GenerateStationaryLc: "StartingLoadCase"},
		{LoadType: "Pressure", PressureID: 1, TravelPathID: 1, Delay: 2, LoadFactor: 1.5, LaneFactor: 1, DynamicFactor: 1, GenerateStationaryLc: "AllLoadCases"},
	}
	if !reflect.DeepEqual(lb.Loads, want) {
		t.Errorf("loads %+v\nwant %+v", lb.Loads, want)
	}
	badLoads := map[string]map[string]any{
		"missing vehicle":      {"vehicleId": 9, "travelPathId": 1},
		"missing pressure":     {"loadType": "Pressure", "pressureId": 9, "travelPathId": 1},
		"missing travel path":  {"vehicleId": 1, "travelPathId": 9},
		"no travel path":       {"vehicleId": 1},
		"vehicle and pressure": {"vehicleId": 1, "pressureId": 1, "travelPathId": 1},
		"bad loadType":         {"loadType": "Train", "vehicleId": 1, "travelPathId": 1},
		"bad stationary":       {"vehicleId": 1, "travelPathId": 1, "generateStationaryLc": "Never"},
		"negative speed":       {"vehicleId": 1, "travelPathId": 1, "speed": -1},
		"unknown property":     {"vehicleId": 1, "travelPathId": 1, "lane": 2},
	}
	for name, l := range badLoads {
		t.Run(name, func(t *testing.T) {
			e.wantError(400, "VALIDATION_FAILED", "PUT", sc+"/1/loads", map[string]any{"loads": []any{l}})
			// The same rules apply inline on create.
			e.wantError(400, "VALIDATION_FAILED", "POST", sc, map[string]any{"name": "x", "loads": []any{l}})
		})
	}
	var cb httpapi.ScenarioCombinationsBody
	e.must(200, "PUT", sc+"/1/combinations", map[string]any{"combinations": []map[string]any{
		{"combineWithLoadCase": 1, "loadCaseFactor": 1.2, "startingCombinationCase": 100}, {"scenarioFactor": 0.5}}}).decode(t, &cb)
	if !reflect.DeepEqual(cb.Combinations, []model.ScenarioCombination{{ScenarioFactor: 1, CombineWithLoadCase: 1, LoadCaseFactor: 1.2, StartingCombinationCase: 100},
		{ScenarioFactor: 0.5, LoadCaseFactor: 1}}) {
		t.Errorf("combinations %+v", cb.Combinations)
	}
	e.wantError(400, "VALIDATION_FAILED", "PUT", sc+"/1/combinations", map[string]any{"combinations": []map[string]any{{"combineWithLoadCase": 99}}})
	e.wantError(400, "VALIDATION_FAILED", "PUT", sc+"/1/combinations", map[string]any{"combinations": []map[string]any{{"startingCombinationCase": -1}}})
	e.wantError(400, "VALIDATION_FAILED", "PATCH", sc+"/1", map[string]any{"timeInterval": 0})
	e.wantError(400, "VALIDATION_FAILED", "PATCH", sc+"/1", map[string]any{"hasLoads": false})

	// Lists show the flags; expand=All brings the rows; speed in job units.
	list1, _ := list[model.Scenario](t, e, sc)
	if len(list1) != 1 || !list1[0].HasLoads || !list1[0].HasCombinations || list1[0].Loads != nil {
		t.Errorf("list %+v", list1)
	}
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "mm"})
	e.must(200, "GET", sc+"/1", nil).decode(t, &s)
	if len(s.Loads) != 2 || s.Loads[0].Speed != 10000 || len(s.Combinations) != 2 {
		t.Errorf("scenario in mm %+v", s)
	}
	var md httpapi.Metadata
	e.must(200, "GET", sc+"/loads/metadata", nil).decode(t, &md)
	if fieldUnit(md, "speed") != "mm/s" || fieldUnit(md, "delay") != "s" || fieldUnit(md, "startPosition") != "mm" {
		t.Errorf("scenario load metadata %+v", md)
	}
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "m"})

	// Rows a scenario uses cannot be deleted.
	for _, p := range []string{"/vehicles/1", "/pressures/1", "/travel-paths/1"} {
		er := e.wantError(409, "CONFLICT", "DELETE", mp+p, nil)
		if !strings.Contains(er.Detail, "scenarios 1") {
			t.Errorf("DELETE %s: %s", p, er.Detail)
		}
	}
	var br struct {
		Succeeded []any `json:"succeeded"`
		Errors    []any `json:"errors"`
	}
	e.must(201, "POST", mp+"/vehicles", map[string]any{"name": "spare", "loads": []map[string]any{{"fz": -1}}})
	e.wantError(409, "CONFLICT", "DELETE", mp+"/vehicles/bulk", []int64{1, 2})
	e.must(200, "DELETE", mp+"/vehicles/bulk?continueOnError=true", []int64{1, 2}).decode(t, &br)
	if len(br.Succeeded) != 1 || len(br.Errors) != 1 {
		t.Errorf("bulk delete %+v", br)
	}
	// Once the loads go, so can the vehicle.
	e.must(200, "PUT", sc+"/1/loads", map[string]any{"loads": []any{}}).decode(t, &lb)
	if len(lb.Loads) != 0 || lb.Loads == nil {
		t.Errorf("cleared loads %#v", lb.Loads)
	}
	e.must(204, "DELETE", mp+"/vehicles/1", nil)
	e.must(204, "DELETE", sc+"/1", nil)
	e.must(204, "DELETE", mp+"/travel-paths/1", nil)
}

// The generate endpoint's edges: an empty job answers empty lists; a
// bad body or category is a 400; an analysis, another generation or a
// closed job is a 409. The generation rules are in movinggen_test.go.
func TestMovingLoadGenerate(t *testing.T) {
	e := structureEnv(t)
	gp := mp + "/generate"
	// No scenarios: 200 with empty lists (not null), with or without a body.
	const empty = `{"generatedLoadCaseIds":[],"generatedGroups":[]}`
	if r := e.must(200, "POST", gp, nil); string(r.body) != empty {
		t.Errorf("no scenarios, no body: %s, want %s", r.body, empty)
	}
	if r := e.must(200, "POST", gp, map[string]any{}); string(r.body) != empty {
		t.Errorf("no scenarios, {}: %s, want %s", r.body, empty)
	}
	var cat model.LoadCategory
	e.must(201, "POST", "/job/loads/load-categories", map[string]any{"title": "traffic"}).decode(t, &cat)
	if r := e.must(200, "POST", gp, map[string]any{"loadCategory": cat.ID}); string(r.body) != empty {
		t.Errorf("no scenarios, loadCategory %d: %s", cat.ID, r.body)
	}
	bad := []struct {
		name string
		body any
		want string // a fragment of the detail
	}{
		{"missing category", map[string]any{"loadCategory": cat.ID + 1}, fmt.Sprintf("load category %d does not exist", cat.ID+1)},
		{"category 0", map[string]any{"loadCategory": 0}, "loadCategory must be a load category id"},
		{"negative category", map[string]any{"loadCategory": -1}, "loadCategory must be a load category id"},
		{"category as text", map[string]any{"loadCategory": "1"}, "loadCategory"},
		{"unknown property", map[string]any{"category": 1}, "category"},
		{"not an object", []int{1}, ""},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			er := e.in(t).wantError(400, "VALIDATION_FAILED", "POST", gp, tc.body)
			if !strings.Contains(er.Detail, tc.want) {
				t.Errorf("detail %q lacks %q", er.Detail, tc.want)
			}
		})
	}
	// An included scenario needs elements to load (the job has no
	// members); an excluded one is not generated.
	e.must(201, "POST", mp+"/scenarios", map[string]any{"name": "idle"})
	if er := e.wantError(400, "VALIDATION_FAILED", "POST", gp, nil); !strings.Contains(er.Detail, "no members or plates are selected") {
		t.Errorf("detail %q", er.Detail)
	}
	e.must(200, "PATCH", mp+"/scenarios/1", map[string]any{"include": false})
	if r := e.must(200, "POST", gp, nil); string(r.body) != empty {
		t.Errorf("only an excluded scenario: %s", r.body)
	}

	// While an analysis holds the workspace: generation and every change
	// of the moving-load data are 409s; reads still work.
	rdb := e.rdb.Client(t)
	lock := redisstore.WorkspaceKey("default", "lock")
	if err := rdb.Set(t.Context(), lock, "run-1", 0).Err(); err != nil {
		t.Fatal(err)
	}
	e.wantError(409, "ANALYSIS_IN_PROGRESS", "POST", gp, nil)
	e.wantError(409, "ANALYSIS_IN_PROGRESS", "PATCH", mp+"/settings", map[string]any{"retainLoads": true})
	e.wantError(409, "ANALYSIS_IN_PROGRESS", "PATCH", mp+"/elements-to-load", map[string]any{"members": "1"})
	e.wantError(409, "ANALYSIS_IN_PROGRESS", "POST", mp+"/pressures", map[string]any{"name": "p", "width": 1, "length": 1, "loadSpacing": 1})
	e.must(200, "GET", mp+"/settings", nil)
	if err := rdb.Del(t.Context(), lock).Err(); err != nil {
		t.Fatal(err)
	}
	e.must(200, "PATCH", mp+"/settings", map[string]any{"retainLoads": true})
	e.must(200, "POST", gp, nil)

	// While another generation holds its mark: 409 CONFLICT, the mark
	// left alone; once it goes, generation works again.
	hold := redisstore.WorkspaceKey("default", "hold:moving-load-generation")
	if err := rdb.Set(t.Context(), hold, "other", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if er := e.wantError(409, "CONFLICT", "POST", gp, nil); !strings.Contains(er.Detail, "another moving-load generation") {
		t.Errorf("detail %q", er.Detail)
	}
	if v, err := rdb.Get(t.Context(), hold).Result(); err != nil || v != "other" {
		t.Errorf("the refused generation changed the mark: %q, %v", v, err)
	}
	if err := rdb.Del(t.Context(), hold).Err(); err != nil {
		t.Fatal(err)
	}
	e.must(200, "POST", gp, nil)
	if n, err := rdb.Exists(t.Context(), hold).Result(); err != nil || n != 0 {
		t.Errorf("a finished generation left its mark: %d, %v", n, err)
	}

	e.must(200, "POST", "/job/close", nil)
	e.wantError(409, "NO_JOB_OPEN", "POST", gp, nil)
	e.wantError(409, "NO_JOB_OPEN", "GET", mp+"/settings", nil)
	e.wantError(409, "NO_JOB_OPEN", "PATCH", mp+"/elements-to-load", map[string]any{"members": "1"})
}

// Every moving-load record survives save, close and open unchanged, and
// clearing the job data removes them all.
func TestMovingLoadSaveOpenRoundTrip(t *testing.T) {
	e := structureEnv(t)
	e.must(200, "PATCH", mp+"/settings", map[string]any{"retainLoads": true, "verticalProximity": 0.75,
		"loadedArea": [][]float64{{0, 0}, {30, 0}, {30, 8}, {0, 8}}})
	e.must(200, "PATCH", mp+"/elements-to-load", map[string]any{"members": "1-4", "plates": "2"})
	e.must(201, "POST", mp+"/vehicles/library", map[string]any{"name": "HL-93 Design Tandem", "library": "AASHTO"})
	e.must(201, "POST", mp+"/pressures", map[string]any{"name": "udl", "width": 3, "length": 1, "pz": -6, "loadSpacing": 0.5})
	e.must(201, "POST", mp+"/travel-paths", map[string]any{"name": "lane", "stations": []map[string]any{{"nodeKey": 1}, {"x": 30, "radius": 2}}})
	e.must(201, "POST", mp+"/scenarios", map[string]any{"name": "s", "include": false, "startingLoadCase": 101, "timeInterval": 0.25,
		"loads":        []map[string]any{{"vehicleId": 1, "travelPathId": 1, "speed": 20, "startPosition": -5}},
		"combinations": []map[string]any{{"scenarioFactor": 1.5}}})
	paths := []string{"/settings", "/elements-to-load", "/vehicles", "/pressures", "/travel-paths?expand=All", "/scenarios?expand=All"}
	before := map[string]string{}
	for _, p := range paths {
		before[p] = string(e.must(200, "GET", mp+p, nil).body)
	}
	e.must(201, "POST", "/job/save", map[string]any{"filePath": "bridge"})
	e.must(200, "POST", "/job/close", nil)
	e.must(200, "POST", "/job/open", map[string]any{"filePath": "bridge"})
	for _, p := range paths {
		if after := string(e.must(200, "GET", mp+p, nil).body); after != before[p] {
			t.Errorf("%s changed across save and open:\n%s\n%s", p, before[p], after)
		}
	}
	e.must(200, "DELETE", "/job/data?force=true", nil)
	if s := getSettings(t, e); s.RetainLoads || len(s.LoadedArea) != 0 {
		t.Errorf("settings after clear %+v", s)
	}
	for _, p := range []string{"/vehicles", "/pressures", "/travel-paths", "/scenarios"} {
		if got, _ := list[map[string]any](t, e, mp+p); len(got) != 0 {
			t.Errorf("%s after clear: %v", p, got)
		}
	}
	if b := string(e.must(200, "GET", mp+"/elements-to-load", nil).body); b != fmt.Sprint(`{"members":"","plates":""}`) {
		t.Errorf("elements after clear %s", b)
	}
}
