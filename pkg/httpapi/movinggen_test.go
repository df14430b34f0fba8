package httpapi_test

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store/redisstore"
)

// The generation tests share one deck: two girders along global X, 10 m
// long, in the plan (X, Z) at z = 0 (member 1) and z = 3 (member 2), Y up
// (the default), both elements to load; vehicle 1 "axle" is one wheel of
// mlgP (kN, downward) at its leading axle; travel path 1 "lane" runs along
// X at z = 1 from x = 0 to x = 10. Values are in the job units (m, kN).
const (
	mlgP    = 100.0 // kN
	mlgSpan = 10.0  // m
)

const (
	mlgGen     = mp + "/generate"
	mlgLoads   = "/job/loads"
	mlgConc    = mlgLoads + "/member-concentrated-loads"
	mlgCases   = mlgLoads + "/load-cases"
	mlgGroups  = mlgLoads + "/load-case-groups"
	mlgCats    = mlgLoads + "/load-categories"
	mlgScen    = mp + "/scenarios"
	mlgHoldKey = "hold:moving-load-generation"
)

// mlgDeck builds the deck on top of structureEnv's job.
func mlgDeck(t *testing.T, e *env) {
	t.Helper()
	e.must(200, "POST", sp+"/nodes/bulk", []map[string]any{
		{"id": 11, "x": 0, "y": 0, "z": 0}, {"id": 12, "x": mlgSpan, "y": 0, "z": 0},
		{"id": 13, "x": 0, "y": 0, "z": 3}, {"id": 14, "x": mlgSpan, "y": 0, "z": 3}})
	e.must(200, "POST", sp+"/members/bulk", []map[string]any{
		{"id": 1, "nodeA": 11, "nodeB": 12, "section": 1, "material": 1},
		{"id": 2, "nodeA": 13, "nodeB": 14, "section": 1, "material": 1}})
	e.must(200, "PATCH", mp+"/elements-to-load", map[string]any{"members": "1-2"})
	e.must(201, "POST", mp+"/vehicles", map[string]any{"name": "axle", "loads": []map[string]any{{"x": 0, "y": 0, "fz": -mlgP}}})
	e.must(201, "POST", mp+"/travel-paths", map[string]any{"name": "lane",
		"stations": []map[string]any{{"x": 0, "y": 0, "z": 1}, {"x": mlgSpan, "y": 0, "z": 1}}})
}

// mlgScenario creates a scenario of one load moving along path 1.
func mlgScenario(t *testing.T, e *env, name string, start int64, vehicle int64, speed float64) model.Scenario {
	t.Helper()
	var s model.Scenario
	e.must(201, "POST", mlgScen, map[string]any{"name": name, "startingLoadCase": start,
		"loads": []map[string]any{{"vehicleId": vehicle, "travelPathId": 1, "speed": speed}}}).decode(t, &s)
	return s
}

// mlgGenerate posts a generation (body nil: none) and decodes the answer.
func mlgGenerate(t *testing.T, e *env, body any) httpapi.GenerateResponse {
	t.Helper()
	var out httpapi.GenerateResponse
	e.must(200, "POST", mlgGen, body).decode(t, &out)
	return out
}

// mlgDumpPaths are the lists a generation may write.
var mlgDumpPaths = []string{mlgCases + "?expand=All", mlgLoads + "/combination-load-cases", mlgGroups, mlgCats,
	mlgLoads + "/node-loads", mlgConc, mlgLoads + "/plate-pressure-loads"}

// mlgDump reads every list a generation may write, body by body.
func mlgDump(t *testing.T, e *env) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range mlgDumpPaths {
		out[p] = string(e.must(200, "GET", p, nil).body)
	}
	return out
}

// mlgSameDump reports every list that differs.
func mlgSameDump(t *testing.T, before, after map[string]string) {
	t.Helper()
	for _, p := range mlgDumpPaths {
		if before[p] != after[p] {
			t.Errorf("%s changed:\nbefore %s\nafter  %s", p, before[p], after[p])
		}
	}
}

// mlgCaseLoads lists the member concentrated loads of the cases.
func mlgCaseLoads(t *testing.T, e *env, cases string) []model.MemberConcentratedLoad {
	t.Helper()
	out, _ := list[model.MemberConcentratedLoad](t, e, mlgConc+"?loadCases="+cases)
	return out
}

// mlgIDs formats case ids as an id list for a query.
func mlgIDs(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return strings.Join(s, ",")
}

// mlgSeq is lo, lo+1, …, hi.
func mlgSeq(lo, hi int64) []int64 {
	var out []int64
	for id := lo; id <= hi; id++ {
		out = append(out, id)
	}
	return out
}

// mlgHoldExists reports whether the generation mark is set in Redis.
func mlgHoldExists(t *testing.T, e *env) bool {
	t.Helper()
	n, err := e.rdb.Client(t).Exists(t.Context(), redisstore.WorkspaceKey("default", mlgHoldKey)).Result()
	if err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// Lever rule (statics of a simply supported transverse strip between
// girders): a wheel load P at distance a from one girder and b from the
// other (spacing a + b) puts P·b/(a+b) on the first and P·a/(a+b) on the
// second. With applyToClosestMember the nearest girder takes all of P; a
// load outside both girders has a girder on one side only and goes whole
// to the nearest, or is dropped with ignoreLoadsOnOneMember. A wheel at
// vehicle y stands y to the driver's left, along up × tangent: travelling
// +X with Y up that is −Z. Tolerance 1e-9 relative (the shares are a few
// floating-point operations).
func TestMovingLoadGenerateLeverRule(t *testing.T) {
	e := structureEnv(t)
	mlgDeck(t, e)
	const at = 4.0 // m along the path: a stationary wheel, one case
	e.must(201, "POST", mlgScen, map[string]any{"name": "parked",
		"loads": []map[string]any{{"vehicleId": 1, "travelPathId": 1, "speed": 0, "startPosition": at}}})
	tests := []struct {
		name           string
		pathZ, wheelY  float64
		closest, alone bool
		want           map[int64]float64 // member → share of P
	}{
		{"between, lever rule", 1, 0, false, false, map[int64]float64{1: 2.0 / 3, 2: 1.0 / 3}},
		{"wheel 1 m to the driver's left (−Z) of a path at z = 2", 2, 1, false, false, map[int64]float64{1: 2.0 / 3, 2: 1.0 / 3}},
		{"wheel 1.5 m to the driver's right (+Z) of a path at z = 1", 1, -1.5, false, false, map[int64]float64{1: 1.0 / 6, 2: 5.0 / 6}},
		{"between, applyToClosestMember", 1, 0, true, false, map[int64]float64{1: 1}},
		{"nearer the other girder, applyToClosestMember", 2, 0, true, false, map[int64]float64{2: 1}},
		{"on a girder", 3, 0, false, false, map[int64]float64{2: 1}},
		{"outside both girders", -1, 0, false, false, map[int64]float64{1: 1}},
		{"outside both girders, ignoreLoadsOnOneMember", -1, 0, false, true, map[int64]float64{}},
		{"outside, beyond girder 2, ignoreLoadsOnOneMember", 4.5, 0, false, true, map[int64]float64{}},
		{"outside, applyToClosestMember wins over ignoreLoadsOnOneMember", -1, 0, true, true, map[int64]float64{1: 1}},
		{"between, ignoreLoadsOnOneMember changes nothing", 1, 0, false, true, map[int64]float64{1: 2.0 / 3, 2: 1.0 / 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := e.in(t)
			e.must(200, "PATCH", mp+"/settings", map[string]any{"applyToClosestMember": tc.closest, "ignoreLoadsOnOneMember": tc.alone})
			e.must(200, "PUT", mp+"/travel-paths/1/stations", map[string]any{"stations": []map[string]any{
				{"x": 0, "y": 0, "z": tc.pathZ}, {"x": mlgSpan, "y": 0, "z": tc.pathZ}}})
			e.must(200, "PATCH", mp+"/vehicles/1", map[string]any{"loads": []map[string]any{{"x": 0, "y": tc.wheelY, "fz": -mlgP}}})
			out := mlgGenerate(t, e, nil)
			if len(out.GeneratedLoadCaseIDs) != 1 {
				t.Fatalf("generated %v, want one case (a stationary load)", out.GeneratedLoadCaseIDs)
			}
			loads := mlgCaseLoads(t, e, mlgIDs(out.GeneratedLoadCaseIDs))
			got := map[int64]float64{}
			for _, l := range loads {
				if l.Axes != "GlobalInclined" || l.PositionUnits != "Actual" {
					t.Errorf("member %d: axes %s, positionUnits %s; want GlobalInclined, Actual", l.Member, l.Axes, l.PositionUnits)
				}
				if !closeTo(l.Position, at, 1e-9) {
					t.Errorf("member %d: position %.12g m, want %g m", l.Member, l.Position, at)
				}
				for _, v := range []float64{l.Fx, l.Fz, l.Mx, l.My, l.Mz} {
					if math.Abs(v) > 1e-9*mlgP {
						t.Errorf("member %d: a component other than fy is %g: %+v", l.Member, v, l)
					}
				}
				got[l.Member] += -l.Fy / mlgP
			}
			if len(got) != len(tc.want) || len(loads) != len(tc.want) {
				t.Fatalf("loads %+v, want shares %v", loads, tc.want)
			}
			for m, share := range tc.want {
				if !closeTo(got[m], share, 1e-9) {
					t.Errorf("member %d takes %.12g·P, want %.12g·P", m, got[m], share)
				}
			}
		})
	}
}

// An excluded scenario keeps its cases; its loads go unless retainLoads.
// The included one is replaced by what its data now says.
func TestMovingLoadGenerateExcludedScenarioKeepsCases(t *testing.T) {
	for _, retain := range []bool{false, true} {
		t.Run(fmt.Sprintf("retainLoads=%v", retain), func(t *testing.T) {
			e := structureEnv(t)
			mlgDeck(t, e)
			e.must(201, "POST", mp+"/vehicles", map[string]any{"name": "light", "loads": []map[string]any{{"x": 0, "fz": -50}}})
			// A: wheel of vehicle 1 at 5 m/s, 1 s steps: x = 0, 5, 10 m.
			a := mlgScenario(t, e, "A", 101, 1, 5)
			b := mlgScenario(t, e, "B", 201, 2, 5)
			out := mlgGenerate(t, e, nil)
			if want := append(mlgSeq(101, 103), mlgSeq(201, 203)...); !reflect.DeepEqual(out.GeneratedLoadCaseIDs, want) {
				t.Fatalf("first generation %v, want %v", out.GeneratedLoadCaseIDs, want)
			}
			bCases := string(e.must(200, "GET", mlgCases+"?loadCases=201-203&expand=All", nil).body)
			bLoads := mlgCaseLoads(t, e, "201-203")
			if len(bLoads) != 6 { // 3 steps × 2 girders
				t.Fatalf("B's loads %+v", bLoads)
			}
			if retain {
				e.must(200, "PATCH", mp+"/settings", map[string]any{"retainLoads": true})
			}
			e.must(200, "PATCH", fmt.Sprintf("%s/%d", mlgScen, b.ID), map[string]any{"include": false})
			// A now starts at 111 and moves at 10 m/s: x = 0, 10 m.
			e.must(200, "PATCH", fmt.Sprintf("%s/%d", mlgScen, a.ID), map[string]any{"startingLoadCase": 111})
			e.must(200, "PUT", fmt.Sprintf("%s/%d/loads", mlgScen, a.ID), map[string]any{"loads": []map[string]any{
				{"vehicleId": 1, "travelPathId": 1, "speed": 10}}})
			out = mlgGenerate(t, e, nil)
			if want := []int64{111, 112, 201, 202, 203}; !reflect.DeepEqual(out.GeneratedLoadCaseIDs, want) {
				t.Errorf("second generation %v, want %v (A's new cases and B's kept ones)", out.GeneratedLoadCaseIDs, want)
			}
			if !reflect.DeepEqual(out.GeneratedGroups, []string{"A"}) {
				t.Errorf("groups written %q, want only A's", out.GeneratedGroups)
			}
			for id := int64(101); id <= 103; id++ {
				e.wantError(404, "NOT_FOUND", "GET", fmt.Sprintf("%s/%d", mlgCases, id), nil)
			}
			if old := mlgCaseLoads(t, e, "101-103"); len(old) != 0 {
				t.Errorf("A's old cases kept loads: %+v", old)
			}
			// A's loads follow its new speed: case 111 at x = 0, 112 at x = 10.
			aLoads := mlgCaseLoads(t, e, "111-112")
			if len(aLoads) != 4 {
				t.Fatalf("A's loads %+v", aLoads)
			}
			for _, l := range aLoads {
				x := 10 * float64(l.LoadCase-111)
				if !closeTo(l.Position, x, 1e-9) && !(x == 0 && math.Abs(l.Position) < 1e-9) {
					t.Errorf("case %d member %d at %g m, want %g m", l.LoadCase, l.Member, l.Position, x)
				}
			}
			if got := string(e.must(200, "GET", mlgCases+"?loadCases=201-203&expand=All", nil).body); retain && got != bCases {
				t.Errorf("B's cases changed:\nbefore %s\nafter  %s", bCases, got)
			}
			var cases []model.LoadCase
			e.must(200, "GET", mlgCases+"?loadCases=201-203", nil).decode(t, &cases)
			if len(cases) != 3 {
				t.Fatalf("B's cases %+v", cases)
			}
			for i, c := range cases {
				want := fmt.Sprintf("B: step %d, t = %d s", i+1, i)
				if c.ID != int64(201+i) || c.Title != want {
					t.Errorf("B's case %+v, want id %d titled %q", c, 201+i, want)
				}
			}
			after := mlgCaseLoads(t, e, "201-203")
			if retain && !reflect.DeepEqual(after, bLoads) {
				t.Errorf("with retainLoads B's loads changed:\nbefore %+v\nafter  %+v", bLoads, after)
			}
			if !retain && len(after) != 0 {
				t.Errorf("without retainLoads B's cases kept loads: %+v", after)
			}
			// B's group stays as the first generation wrote it.
			groups, _ := list[model.LoadCaseGroup](t, e, mlgGroups)
			titles := map[string]string{}
			for _, g := range groups {
				titles[g.Title] = g.LoadCaseList
			}
			if want := map[string]string{"A": "111-112", "B": "201-203"}; !reflect.DeepEqual(titles, want) {
				t.Errorf("groups %v, want %v", titles, want)
			}
		})
	}
}

// Generating twice from the same data writes the same rows under the same
// ids; the category "Moving loads" is made once and reused, or an
// explicit loadCategory takes the loads.
func TestMovingLoadGenerateIdempotent(t *testing.T) {
	e := structureEnv(t)
	mlgDeck(t, e)
	e.must(201, "POST", mlgCases, map[string]any{"title": "dead"})
	mlgScenario(t, e, "A", 0, 1, 5) // numbered after the greatest case in use: 2, 3, 4
	first := mlgGenerate(t, e, nil)
	if want := mlgSeq(2, 4); !reflect.DeepEqual(first.GeneratedLoadCaseIDs, want) {
		t.Fatalf("generated %v, want %v", first.GeneratedLoadCaseIDs, want)
	}
	before := mlgDump(t, e)
	second := mlgGenerate(t, e, nil)
	if !reflect.DeepEqual(second, first) {
		t.Errorf("second answer %+v, first %+v", second, first)
	}
	mlgSameDump(t, before, mlgDump(t, e))

	cats, _ := list[model.LoadCategory](t, e, mlgCats)
	if len(cats) != 1 || cats[0].Title != "Moving loads" {
		t.Fatalf("categories %+v, want one titled Moving loads", cats)
	}
	loads := mlgCaseLoads(t, e, "2-4")
	if len(loads) != 6 {
		t.Fatalf("loads %+v", loads)
	}
	for _, l := range loads {
		if l.LoadCategory != cats[0].ID {
			t.Errorf("load %+v not in category %d", l, cats[0].ID)
		}
	}

	// An explicit category takes the loads; no other is made.
	var traffic model.LoadCategory
	e.must(201, "POST", mlgCats, map[string]any{"title": "traffic"}).decode(t, &traffic)
	mlgGenerate(t, e, map[string]any{"loadCategory": traffic.ID})
	for _, l := range mlgCaseLoads(t, e, "2-4") {
		if l.LoadCategory != traffic.ID {
			t.Errorf("with loadCategory %d: load %+v", traffic.ID, l)
		}
	}
	if cats, _ = list[model.LoadCategory](t, e, mlgCats); len(cats) != 2 {
		t.Errorf("categories %+v", cats)
	}
	// Without it the loads go back to Moving loads, the same row.
	mlgGenerate(t, e, nil)
	mlgSameDump(t, before, func() map[string]string {
		d := mlgDump(t, e)
		d[mlgCats] = before[mlgCats] // traffic was added on purpose
		return d
	}())
}

// A user's category titled Moving loads (in any letter case) is the
// one the generator reuses.
func TestMovingLoadGenerateReusesUserCategory(t *testing.T) {
	e := structureEnv(t)
	mlgDeck(t, e)
	e.must(201, "POST", mlgCats, map[string]any{"title": "dead"})
	var mine model.LoadCategory
	e.must(201, "POST", mlgCats, map[string]any{"title": "moving LOADS"}).decode(t, &mine)
	mlgScenario(t, e, "A", 0, 1, 5)
	out := mlgGenerate(t, e, nil)
	for _, l := range mlgCaseLoads(t, e, mlgIDs(out.GeneratedLoadCaseIDs)) {
		if l.LoadCategory != mine.ID {
			t.Errorf("load %+v, want category %d", l, mine.ID)
		}
	}
	if cats, _ := list[model.LoadCategory](t, e, mlgCats); len(cats) != 2 {
		t.Errorf("categories %+v, want the two made by hand", cats)
	}
}

// Each scenario gets a group of its cases titled with its name and, with
// combinations, a group "<name> combinations"; a combination case is the
// generated case × scenarioFactor plus combineWithLoadCase ×
// loadCaseFactor.
func TestMovingLoadGenerateGroupsAndCombinations(t *testing.T) {
	e := structureEnv(t)
	mlgDeck(t, e)
	e.must(201, "POST", mlgCases, map[string]any{"title": "dead"}) // case 1
	a := mlgScenario(t, e, "A", 10, 1, 5)                          // cases 10-12
	e.must(200, "PUT", fmt.Sprintf("%s/%d/combinations", mlgScen, a.ID), map[string]any{"combinations": []map[string]any{
		{"scenarioFactor": 1.5, "combineWithLoadCase": 1, "loadCaseFactor": 1.2, "startingCombinationCase": 20},
		{"scenarioFactor": 0.5, "startingCombinationCase": 30}}})
	mlgScenario(t, e, "B", 40, 1, 5) // cases 40-42, no combinations
	out := mlgGenerate(t, e, nil)
	want := append(append(append(mlgSeq(10, 12), mlgSeq(20, 22)...), mlgSeq(30, 32)...), mlgSeq(40, 42)...)
	if !reflect.DeepEqual(out.GeneratedLoadCaseIDs, want) {
		t.Errorf("generated %v, want %v", out.GeneratedLoadCaseIDs, want)
	}
	if wantG := []string{"A", "A combinations", "B"}; !reflect.DeepEqual(out.GeneratedGroups, wantG) {
		t.Errorf("groups %q, want %q", out.GeneratedGroups, wantG)
	}
	groups, _ := list[model.LoadCaseGroup](t, e, mlgGroups)
	got := map[string]string{}
	ids := map[string]int64{}
	for _, g := range groups {
		got[g.Title], ids[g.Title] = g.LoadCaseList, g.ID
	}
	if wantL := map[string]string{"A": "10-12", "A combinations": "20-22,30-32", "B": "40-42"}; !reflect.DeepEqual(got, wantL) {
		t.Errorf("group lists %v, want %v", got, wantL)
	}
	items := []struct {
		id   int64
		want []model.CombinationItem
	}{
		{20, []model.CombinationItem{{LoadCase: 10, MultiplyingFactor: 1.5}, {LoadCase: 1, MultiplyingFactor: 1.2}}},
		{22, []model.CombinationItem{{LoadCase: 12, MultiplyingFactor: 1.5}, {LoadCase: 1, MultiplyingFactor: 1.2}}},
		{31, []model.CombinationItem{{LoadCase: 11, MultiplyingFactor: 0.5}}},
	}
	for _, it := range items {
		var c model.CombinationLoadCase
		e.must(200, "GET", fmt.Sprintf("%s/combination-load-cases/%d", mlgLoads, it.id), nil).decode(t, &c)
		if !reflect.DeepEqual(c.CombinationItems, it.want) || c.Type != model.CaseCombination || !strings.HasPrefix(c.Title, "A ") {
			t.Errorf("combination case %d: %+v, want items %+v", it.id, c, it.want)
		}
	}
	// Without its combinations the scenario's combination cases and their
	// group go; its case group keeps its id.
	e.must(200, "PUT", fmt.Sprintf("%s/%d/combinations", mlgScen, a.ID), map[string]any{"combinations": []any{}})
	out = mlgGenerate(t, e, nil)
	if want := append(mlgSeq(10, 12), mlgSeq(40, 42)...); !reflect.DeepEqual(out.GeneratedLoadCaseIDs, want) {
		t.Errorf("after dropping the combinations: %v, want %v", out.GeneratedLoadCaseIDs, want)
	}
	for _, id := range []int64{20, 22, 30, 32} {
		e.wantError(404, "NOT_FOUND", "GET", fmt.Sprintf("%s/%d", mlgCases, id), nil)
	}
	groups, _ = list[model.LoadCaseGroup](t, e, mlgGroups)
	got = map[string]string{}
	for _, g := range groups {
		got[g.Title] = g.LoadCaseList
		if g.ID != ids[g.Title] {
			t.Errorf("group %q has id %d, was %d", g.Title, g.ID, ids[g.Title])
		}
	}
	if wantL := map[string]string{"A": "10-12", "B": "40-42"}; !reflect.DeepEqual(got, wantL) {
		t.Errorf("group lists %v, want %v", got, wantL)
	}
}

// Data the generator cannot use is a 400 naming what to fix, and nothing
// is written: every list a generation writes reads the same before and
// after, and the generation mark is released.
func TestMovingLoadGenerateRefusals(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, e *env) // after a first good generation
		body  any
		field string   // the error's field starts so
		want  []string // fragments of the detail
	}{
		{name: "unknown loadCategory", body: map[string]any{"loadCategory": 99},
			field: "loadCategory", want: []string{"load category 99 does not exist"}},
		{name: "loadCategory 0", body: map[string]any{"loadCategory": 0},
			field: "loadCategory", want: []string{"loadCategory", "got 0"}},
		{name: "scenario without loads", setup: func(t *testing.T, e *env) {
			e.must(201, "POST", mlgScen, map[string]any{"name": "empty"})
		}, field: "scenario 2 loads", want: []string{"scenario 2 (empty) has no loads"}},
		{name: "travel path without stations", setup: func(t *testing.T, e *env) {
			e.must(201, "POST", mp+"/travel-paths", map[string]any{"name": "bare"})
			e.must(201, "POST", mlgScen, map[string]any{"name": "on bare",
				"loads": []map[string]any{{"vehicleId": 1, "travelPathId": 2, "speed": 5}}})
		}, field: "scenario 2 loads[0].travelPathId", want: []string{"travel path 2 has no stations"}},
		// A 90° corner of radius 10 m needs 10·tan(45°) = 10 m of each
		// adjacent segment; the segments are 5 m.
		{name: "radius too large", setup: func(t *testing.T, e *env) {
			e.must(201, "POST", mp+"/travel-paths", map[string]any{"name": "bend", "stations": []map[string]any{
				{"x": 0, "z": 1}, {"x": 5, "z": 1, "radius": 10}, {"x": 5, "z": 6}}})
			e.must(201, "POST", mlgScen, map[string]any{"name": "on bend",
				"loads": []map[string]any{{"vehicleId": 1, "travelPathId": 2, "speed": 5}}})
		}, field: "travel path 2 stations", want: []string{"travel path 2", "reduce a radius"}},
		{name: "no elements to load", setup: func(t *testing.T, e *env) {
			e.must(200, "PATCH", mp+"/elements-to-load", map[string]any{"members": ""})
		}, field: "elements-to-load", want: []string{"no members or plates"}},
		{name: "elements to load that do not exist", setup: func(t *testing.T, e *env) {
			e.must(200, "PATCH", mp+"/elements-to-load", map[string]any{"members": "50-60"})
		}, field: "elements-to-load", want: []string{"no members or plates"}},
		{name: "startingLoadCase on a user case", setup: func(t *testing.T, e *env) {
			e.must(200, "PATCH", mlgScen+"/1", map[string]any{"startingLoadCase": 1})
		}, field: "scenario 1 startingLoadCase", want: []string{"scenario 1 (A)", "load case 1 is in use"}},
		{name: "startingLoadCase on another scenario's cases", setup: func(t *testing.T, e *env) {
			mlgScenario(t, e, "B", 102, 1, 5)
		}, field: "scenario 2 startingLoadCase", want: []string{"scenario 2 (B)", "load case 102 is in use"}},
		{name: "startingCombinationCase on a user case", setup: func(t *testing.T, e *env) {
			e.must(200, "PUT", mlgScen+"/1/combinations", map[string]any{"combinations": []map[string]any{{"startingCombinationCase": 1}}})
		}, field: "scenario 1 combinations[0].startingCombinationCase", want: []string{"load case 1 is in use"}},
		{name: "combineWithLoadCase the generation replaces", setup: func(t *testing.T, e *env) {
			e.must(200, "PUT", mlgScen+"/1/combinations", map[string]any{"combinations": []map[string]any{{"combineWithLoadCase": 102}}})
		}, field: "scenario 1 combinations[0].combineWithLoadCase", want: []string{"combineWithLoadCase 102"}},
		// 10 m at 5 m/s in steps of 0.1 ms: 20,001 steps.
		{name: "more than 10,000 steps", setup: func(t *testing.T, e *env) {
			e.must(200, "PATCH", mlgScen+"/1", map[string]any{"timeInterval": 0.0001})
		}, field: "scenario 1 timeInterval", want: []string{"scenario 1 (A) would step", "at most 10000", "raise timeInterval"}},
		// (100 / 0.5)² = 40,000 cells.
		{name: "pressure split into more than 10,000 cells", setup: func(t *testing.T, e *env) {
			e.must(201, "POST", mp+"/pressures", map[string]any{"name": "fine", "width": 100, "length": 100, "pz": -1, "loadSpacing": 0.5})
			e.must(201, "POST", mlgScen, map[string]any{"name": "udl",
				"loads": []map[string]any{{"loadType": "Pressure", "pressureId": 1, "travelPathId": 1, "speed": 5}}})
		}, field: "scenario 2 loads[0].pressureId", want: []string{"pressure 1 (fine)", "40000 cells", "raise its loadSpacing"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := structureEnv(t).in(t)
			mlgDeck(t, e)
			e.must(201, "POST", mlgCases, map[string]any{"title": "dead"}) // case 1
			mlgScenario(t, e, "A", 101, 1, 5)                              // cases 101-103
			mlgGenerate(t, e, nil)
			if tc.setup != nil {
				tc.setup(t, e)
			}
			before := mlgDump(t, e)
			er := e.wantError(400, "VALIDATION_FAILED", "POST", mlgGen, tc.body)
			for _, w := range tc.want {
				if !strings.Contains(er.Detail, w) {
					t.Errorf("detail %q lacks %q", er.Detail, w)
				}
			}
			if !strings.HasPrefix(er.Errors[0].Field, tc.field) {
				t.Errorf("field %q, want one starting %q", er.Errors[0].Field, tc.field)
			}
			mlgSameDump(t, before, mlgDump(t, e))
			if mlgHoldExists(t, e) {
				t.Error("a refused generation kept the generation mark")
			}
		})
	}
	// An excluded scenario is not checked: one without loads is no error.
	t.Run("excluded scenario without loads", func(t *testing.T) {
		e := structureEnv(t).in(t)
		mlgDeck(t, e)
		mlgScenario(t, e, "A", 0, 1, 5)
		e.must(201, "POST", mlgScen, map[string]any{"name": "empty", "include": false})
		if out := mlgGenerate(t, e, nil); len(out.GeneratedLoadCaseIDs) != 3 {
			t.Errorf("generated %v", out.GeneratedLoadCaseIDs)
		}
	})
}

// A generation is refused with 409 while an analysis runs or another
// generation holds the mark, and writes nothing.
func TestMovingLoadGenerateConflicts(t *testing.T) {
	e := structureEnv(t)
	mlgDeck(t, e)
	mlgScenario(t, e, "A", 0, 1, 5)
	first := mlgGenerate(t, e, nil)
	if mlgHoldExists(t, e) {
		t.Error("a finished generation kept the generation mark")
	}
	// Change the data so that a generation that ran would write.
	e.must(200, "PUT", mlgScen+"/1/loads", map[string]any{"loads": []map[string]any{{"vehicleId": 1, "travelPathId": 1, "speed": 10}}})
	before := mlgDump(t, e)
	rdb := e.rdb.Client(t)
	keys := []struct {
		name, key, code, detail string
	}{
		{"analysis running", redisstore.WorkspaceKey("default", "lock"), "ANALYSIS_IN_PROGRESS", "analysis is in progress"},
		{"another generation", redisstore.WorkspaceKey("default", mlgHoldKey), "CONFLICT", "another moving-load generation"},
	}
	for _, k := range keys {
		t.Run(k.name, func(t *testing.T) {
			e := e.in(t)
			if err := rdb.Set(t.Context(), k.key, "other", 0).Err(); err != nil {
				t.Fatal(err)
			}
			er := e.wantError(409, k.code, "POST", mlgGen, nil)
			if !strings.Contains(er.Detail, k.detail) {
				t.Errorf("detail %q lacks %q", er.Detail, k.detail)
			}
			mlgSameDump(t, before, mlgDump(t, e))
			if v, err := rdb.Get(t.Context(), k.key).Result(); err != nil || v != "other" {
				t.Errorf("the refused generation touched %s: %q, %v", k.key, v, err)
			}
			if err := rdb.Del(t.Context(), k.key).Err(); err != nil {
				t.Fatal(err)
			}
		})
	}
	// With both keys gone it runs again.
	out := mlgGenerate(t, e, nil)
	if want := first.GeneratedLoadCaseIDs[:2]; !reflect.DeepEqual(out.GeneratedLoadCaseIDs, want) {
		t.Errorf("generated %v, want %v (10 m at 10 m/s: two steps)", out.GeneratedLoadCaseIDs, want)
	}

	// Generations at once: each runs whole or is refused with CONFLICT,
	// and the result is that of one.
	after := mlgDump(t, e)
	const n = 8
	var wg sync.WaitGroup
	res := make([]resp, n)
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); res[i] = e.do("POST", mlgGen, nil) }()
	}
	wg.Wait()
	ok := 0
	for _, r := range res {
		switch {
		case r.status == 200:
			ok++
		case r.status == 409 && strings.Contains(string(r.body), `"CONFLICT"`):
		default:
			t.Errorf("concurrent generation: %d %s", r.status, r.body)
		}
	}
	if ok == 0 {
		t.Error("no concurrent generation succeeded")
	}
	mlgSameDump(t, after, mlgDump(t, e))
	if mlgHoldExists(t, e) {
		t.Error("the generation mark was left behind")
	}
}

// The lever rule shares a load with the nearest member on the other side
// of it, not with the second nearest: with girders at z = 0, 2.5, 3 and 6
// a wheel at z = 3.2 is nearest girder 2 (z = 3, 0.2 m); girder 3
// (z = 2.5, 0.7 m) is on the same side, so the other girder is 4 (z = 6,
// 2.8 m): girder 2 takes 2.8/3 of P, girder 4 0.2/3 (lever rule, statics
// of a simply supported transverse strip between girders; 1e-9 relative).
func TestMovingLoadGenerateLeverRuleOtherSide(t *testing.T) {
	e := structureEnv(t)
	mlgDeck(t, e)
	e.must(200, "POST", sp+"/nodes/bulk", []map[string]any{
		{"id": 15, "x": 0, "y": 0, "z": 2.5}, {"id": 16, "x": mlgSpan, "y": 0, "z": 2.5},
		{"id": 17, "x": 0, "y": 0, "z": 6}, {"id": 18, "x": mlgSpan, "y": 0, "z": 6}})
	e.must(200, "POST", sp+"/members/bulk", []map[string]any{
		{"id": 3, "nodeA": 15, "nodeB": 16, "section": 1, "material": 1},
		{"id": 4, "nodeA": 17, "nodeB": 18, "section": 1, "material": 1}})
	e.must(200, "PATCH", mp+"/elements-to-load", map[string]any{"members": "1-4"})
	e.must(200, "PUT", mp+"/travel-paths/1/stations", map[string]any{"stations": []map[string]any{
		{"x": 0, "y": 0, "z": 3.2}, {"x": mlgSpan, "y": 0, "z": 3.2}}})
	e.must(201, "POST", mlgScen, map[string]any{"name": "parked",
		"loads": []map[string]any{{"vehicleId": 1, "travelPathId": 1, "speed": 0, "startPosition": 7}}})
	out := mlgGenerate(t, e, nil)
	got := map[int64]float64{}
	for _, l := range mlgCaseLoads(t, e, mlgIDs(out.GeneratedLoadCaseIDs)) {
		got[l.Member] += -l.Fy / mlgP
		if !closeTo(l.Position, 7, 1e-9) {
			t.Errorf("member %d: position %.12g m, want 7 m", l.Member, l.Position)
		}
	}
	want := map[int64]float64{2: 2.8 / 3, 4: 0.2 / 3}
	if len(got) != len(want) {
		t.Fatalf("shares %v, want %v", got, want)
	}
	for m, share := range want {
		if !closeTo(got[m], share, 1e-9) {
			t.Errorf("member %d takes %.12g·P, want %.12g·P", m, got[m], share)
		}
	}
}

// Deleting a scenario leaves its cases, loads and group as the engineer's
// own (generateDoc: "a deleted scenario's cases, loads and groups stay as
// ordinary ones"): later generations neither list nor touch them, also
// when a new scenario gets the deleted one's id.
func TestMovingLoadGenerateDeletedScenarioKeepsCases(t *testing.T) {
	e := structureEnv(t)
	mlgDeck(t, e)
	mlgScenario(t, e, "A", 101, 1, 5)
	b := mlgScenario(t, e, "B", 201, 1, 5)
	mlgGenerate(t, e, nil)
	e.must(204, "DELETE", fmt.Sprintf("%s/%d", mlgScen, b.ID), nil)
	out := mlgGenerate(t, e, nil)
	if want := mlgSeq(101, 103); !reflect.DeepEqual(out.GeneratedLoadCaseIDs, want) {
		t.Errorf("after deleting B: %v, want %v", out.GeneratedLoadCaseIDs, want)
	}
	bLoads := mlgCaseLoads(t, e, "201-203")
	if len(bLoads) == 0 {
		t.Fatal("B's loads went with B")
	}
	c := mlgScenario(t, e, "C", 301, 1, 5)
	if c.ID != b.ID {
		t.Fatalf("scenario C has id %d, B had %d: the test needs the id used again", c.ID, b.ID)
	}
	out = mlgGenerate(t, e, nil)
	if want := append(mlgSeq(101, 103), mlgSeq(301, 303)...); !reflect.DeepEqual(out.GeneratedLoadCaseIDs, want) {
		t.Errorf("after generating C: %v, want %v", out.GeneratedLoadCaseIDs, want)
	}
	if after := mlgCaseLoads(t, e, "201-203"); !reflect.DeepEqual(after, bLoads) {
		t.Errorf("B's loads changed when C was generated:\nbefore %+v\nafter  %+v", bLoads, after)
	}
	var cases []model.LoadCase
	e.must(200, "GET", mlgCases+"?loadCases=201-203", nil).decode(t, &cases)
	if len(cases) != 3 {
		t.Fatalf("B's cases after C was generated: %+v, want 201-203 kept", cases)
	}
	for i, lc := range cases {
		if want := fmt.Sprintf("B: step %d, t = %d s", i+1, i); lc.Title != want {
			t.Errorf("case %d titled %q, want %q", lc.ID, lc.Title, want)
		}
	}
	groups, _ := list[model.LoadCaseGroup](t, e, mlgGroups)
	titles := map[string]string{}
	for _, g := range groups {
		titles[g.Title] = g.LoadCaseList
	}
	if titles["B"] != "201-203" || titles["C"] != "301-303" {
		t.Errorf("groups %v: B's group must stay and C get its own", titles)
	}
}

// A case or group the user made at an id a generation once used is the
// user's: a later generation must not overwrite or delete it. (The
// generator may refuse with a 400 naming the id, or number around it.)
func TestMovingLoadGenerateKeepsUserRowsAtFormerIDs(t *testing.T) {
	t.Run("load case", func(t *testing.T) {
		e := structureEnv(t).in(t)
		mlgDeck(t, e)
		mlgScenario(t, e, "A", 101, 1, 5) // cases 101-103
		mlgGenerate(t, e, nil)
		// The user clears and deletes case 103, then makes a case of their
		// own at that id.
		e.must(204, "DELETE", mlgConc+"/103/1/1", nil)
		e.must(204, "DELETE", mlgConc+"/103/2/1", nil)
		e.must(200, "DELETE", mlgCases+"/103", nil)
		var wind model.LoadCase
		e.must(201, "POST", mlgCases, map[string]any{"id": 103, "title": "wind"}).decode(t, &wind)
		e.must(201, "POST", mlgConc, map[string]any{"loadCase": wind.ID, "member": 1, "positionUnits": "Actual", "position": 1, "fz": 7})
		before := string(e.must(200, "GET", fmt.Sprintf("%s/%d", mlgCases, wind.ID), nil).body)
		beforeLoads := mlgCaseLoads(t, e, fmt.Sprint(wind.ID))
		r := e.do("POST", mlgGen, nil)
		t.Logf("case %d; generation answered %d %s", wind.ID, r.status, r.body)
		if after := e.do("GET", fmt.Sprintf("%s/%d", mlgCases, wind.ID), nil); string(after.body) != before {
			t.Errorf("the user's case %d was overwritten:\nbefore %s\nafter  %s", wind.ID, before, after.body)
		}
		if after := mlgCaseLoads(t, e, fmt.Sprint(wind.ID)); !reflect.DeepEqual(after, beforeLoads) {
			t.Errorf("the user's loads in case %d changed:\nbefore %+v\nafter  %+v", wind.ID, beforeLoads, after)
		}
	})
	t.Run("load-case group", func(t *testing.T) {
		e := structureEnv(t).in(t)
		mlgDeck(t, e)
		mlgScenario(t, e, "A", 101, 1, 5)
		mlgGenerate(t, e, nil)
		groups, _ := list[model.LoadCaseGroup](t, e, mlgGroups)
		if len(groups) != 1 {
			t.Fatalf("groups %+v", groups)
		}
		e.must(204, "DELETE", fmt.Sprintf("%s/%d", mlgGroups, groups[0].ID), nil)
		var mine model.LoadCaseGroup
		e.must(201, "POST", mlgGroups, map[string]any{"title": "mine", "loadCaseList": "101"}).decode(t, &mine)
		mlgGenerate(t, e, nil)
		var got model.LoadCaseGroup
		e.must(200, "GET", fmt.Sprintf("%s/%d", mlgGroups, mine.ID), nil).decode(t, &got)
		if got != mine {
			t.Errorf("the user's group %d was overwritten: %+v, was %+v", mine.ID, got, mine)
		}
	})
}

// The limit of 10,000 cases per generation counts the combination cases
// too (generateDoc: "at most 10,000 cases ... per generation"): 10 m at
// 5 m/s in steps of 0.4 ms is 5,001 load cases, and one combination
// doubles them to 10,002.
func TestMovingLoadGenerateCaseLimitCountsCombinations(t *testing.T) {
	e := structureEnv(t)
	mlgDeck(t, e)
	e.must(201, "POST", mlgScen, map[string]any{"name": "fine", "timeInterval": 0.0004,
		"loads":        []map[string]any{{"vehicleId": 1, "travelPathId": 1, "speed": 5}},
		"combinations": []map[string]any{{"scenarioFactor": 1.5}}})
	before := mlgDump(t, e)
	r := e.do("POST", mlgGen, nil)
	if r.status != 400 {
		var out httpapi.GenerateResponse
		r.decode(t, &out)
		t.Fatalf("generation answered %d with %d cases, want 400 (more than 10,000 cases)", r.status, len(out.GeneratedLoadCaseIDs))
	}
	if er := r.errBody(t); !strings.Contains(er.Detail, "10000") {
		t.Errorf("detail %q does not name the limit", er.Detail)
	}
	mlgSameDump(t, before, mlgDump(t, e))
}

// A generation with nothing to generate (no included scenario) writes
// nothing: no "Moving loads" category, and the job stays unmodified.
func TestMovingLoadGenerateNothingToGenerateWritesNothing(t *testing.T) {
	e := structureEnv(t)
	mlgDeck(t, e)
	e.must(201, "POST", mlgScen, map[string]any{"name": "off", "include": false,
		"loads": []map[string]any{{"vehicleId": 1, "travelPathId": 1, "speed": 5}}})
	e.must(201, "POST", "/job/save", map[string]any{"filePath": "idle"})
	before := mlgDump(t, e)
	out := mlgGenerate(t, e, nil)
	if len(out.GeneratedLoadCaseIDs) != 0 || len(out.GeneratedGroups) != 0 {
		t.Errorf("generated %+v", out)
	}
	mlgSameDump(t, before, mlgDump(t, e))
	var st httpapi.Status
	e.must(200, "GET", "/job/status", nil).decode(t, &st)
	if st.State.IsModified {
		t.Error("a generation that generated nothing marked the job modified")
	}
}

// With Z up the plan is (X, Y) and the driver's left is up × tangent =
// Z × X = +Y: girders at y = 0 and y = 3, a path along y = 2 and a wheel
// 0.5 m to the left stand the load at y = 2.5, so girder 2 takes 2.5/3 of
// P and girder 1 0.5/3 (lever rule, statics of a simply supported
// transverse strip between girders), as global Fz. Read back in N and mm
// the forces are ×1000 and the position 4 m is 4000 mm (1e-9 relative).
func TestMovingLoadGenerateLeverRuleZUp(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	e.must(200, "PATCH", "/job/settings", map[string]any{"verticalAxis": "ZAxis"})
	e.must(201, "POST", sp+"/materials", map[string]any{"name": "steel", "youngsModulus": 200000, "poissonsRatio": 0.3})
	e.must(201, "POST", sp+"/sections", map[string]any{"name": "box", "a": 1e4, "j": 2e8, "iy": 1e8, "iz": 1e8, "ay": 5e3, "az": 5e3})
	e.must(200, "POST", sp+"/nodes/bulk", []map[string]any{
		{"id": 1, "x": 0, "y": 0, "z": 0}, {"id": 2, "x": mlgSpan, "y": 0, "z": 0},
		{"id": 3, "x": 0, "y": 3, "z": 0}, {"id": 4, "x": mlgSpan, "y": 3, "z": 0}})
	e.must(200, "POST", sp+"/members/bulk", []map[string]any{
		{"id": 1, "nodeA": 1, "nodeB": 2, "section": 1, "material": 1},
		{"id": 2, "nodeA": 3, "nodeB": 4, "section": 1, "material": 1}})
	e.must(200, "PATCH", mp+"/elements-to-load", map[string]any{"members": "1-2"})
	e.must(201, "POST", mp+"/vehicles", map[string]any{"name": "axle", "loads": []map[string]any{{"x": 0, "y": 0.5, "fz": -mlgP}}})
	e.must(201, "POST", mp+"/travel-paths", map[string]any{"name": "lane",
		"stations": []map[string]any{{"x": 0, "y": 2, "z": 0}, {"x": mlgSpan, "y": 2, "z": 0}}})
	e.must(201, "POST", mlgScen, map[string]any{"name": "parked",
		"loads": []map[string]any{{"vehicleId": 1, "travelPathId": 1, "speed": 0, "startPosition": 4}}})
	out := mlgGenerate(t, e, nil)
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "mm", "force": "N"})
	loads := mlgCaseLoads(t, e, mlgIDs(out.GeneratedLoadCaseIDs))
	want := map[int64]float64{1: 0.5 / 3, 2: 2.5 / 3}
	if len(loads) != len(want) {
		t.Fatalf("loads %+v, want one on each girder", loads)
	}
	for _, l := range loads {
		if !closeTo(l.Fz, -1000*mlgP*want[l.Member], 1e-9) || math.Abs(l.Fx)+math.Abs(l.Fy) > 1e-9*1000*mlgP {
			t.Errorf("member %d: (fx, fy, fz) = (%g, %g, %.12g) N, want (0, 0, %.12g)", l.Member, l.Fx, l.Fy, l.Fz, -1000*mlgP*want[l.Member])
		}
		if !closeTo(l.Position, 4000, 1e-9) {
			t.Errorf("member %d: position %.12g mm, want 4000", l.Member, l.Position)
		}
	}
}
