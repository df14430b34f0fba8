package server

// The static result queries, end to end: one consistent result set
// during runs, numbers that agree from query to query, paging, filters
// and job units, and never a 500.

import (
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// frame extends the propped cantilever: member 1 gets rigid offsets and a
// midspan point load in case 1, member 2 (node 2 → 3, hinged at A, node 3
// a roller) a point load at quarter span in case 1, self-weight (density
// 7.85 T/m³) acts in case 2, and combination 4 = 2 × combination 3 +
// case 2 (a combination of a combination).
func frame(s *stack) {
	s.t.Helper()
	proppedCantilever(s)
	s.must(200, "PATCH", "/job/structure/materials/1", map[string]any{"massDensity": 7.85})
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 3, "x": 10, "y": 0, "z": 0})
	s.must(201, "POST", "/job/structure/members", map[string]any{"id": 2, "nodeA": 2, "nodeB": 3, "section": 1, "material": 1,
		"releases": map[string]any{"fixityCodeAtA": "FFFFFR", "fixityCodeAtB": "FFFFFF"}})
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 3, "restraintCode": "FFFFRR"})
	s.must(201, "POST", "/job/structure/member-offsets", map[string]any{"member": 1, "axes": "Global", "xOffsetAtA": 0.5, "yOffsetAtB": 0.2})
	for m, pos := range map[int]float64{1: 50, 2: 25} {
		s.must(201, "POST", "/job/loads/member-concentrated-loads", map[string]any{"loadCase": 1, "member": m,
			"axes": "GlobalInclined", "positionUnits": "Percent", "position": pos, "fy": -20})
	}
	s.must(201, "POST", "/job/loads/self-weight-loads", map[string]any{"loadCase": 2, "accelerationY": -1})
	s.must(201, "POST", "/job/loads/combination-load-cases", map[string]any{"id": 4, "title": "2 × (1.5 w) + 2w",
		"combinationItems": []map[string]any{{"loadCase": 3, "multiplyingFactor": 2}, {"loadCase": 2, "multiplyingFactor": 1}}})
}

// DEFECT. "While a run is Queued, Running or Cancelling … reads and
// queries still work." A query reads the results meta, then the columns
// it names, in separate Redis calls (analysis/query.go: static() then
// caseColumns()); a run that replaces the results in between drops the
// columns of the cases it does not analyse, and the query fails with a
// 500 "static results of load case N lack the column" (caseColumns). A
// query must see one consistent result set (or answer a 409), never a 500.
func TestQueriesDuringReplacingRunsNever500(t *testing.T) {
	s, _ := startStackDir(t, 1) // GUSSET_TEST_LOG=1 shows the causes
	proppedCantilever(s)
	s.wait(s.run(map[string]any{"loadCases": "1"}).RunID)
	var failed atomic.Value
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			path := []string{"node-displacements", "member-intermediate-forces", "reaction-summary"}[i%3]
			for failed.Load() == nil {
				res, err := http.Get(s.base + "/job/query/analysis/static/" + path)
				if err != nil {
					return
				}
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode >= 500 {
					failed.CompareAndSwap(nil, fmtPath("%s = %d %.200s", path, res.StatusCode, b))
				}
			}
		})
	}
	for i := 0; i < 8 && failed.Load() == nil; i++ {
		s.wait(s.run(map[string]any{"loadCases": []string{"2", "1"}[i%2]}).RunID)
	}
	failed.CompareAndSwap(nil, "")
	wg.Wait()
	if msg := failed.Load().(string); msg != "" {
		t.Errorf("a query during a replacing run: %s", msg)
	}
}

// Numbers (checked fine unless a line below fails): at every member end
// the intermediate forces are the end forces with the documented signs
// (−end A, +end B); the hinge carries no moment; a member's end stations
// move with its nodes; residuals vanish; a combination of a combination is
// the factored sum of its cases, also when it is analysed alone through a
// loadCases range reaching 2147483647.
func TestStaticResultsAgreeAcrossQueries(t *testing.T) {
	s := startStack(t, 1)
	frame(s)
	if r := s.wait(s.run(nil).RunID); r.Status != model.RunCompleted {
		t.Fatalf("run %s %s", r.Status, r.ErrorMessage)
	}
	const tol = 1e-9
	ends := query[model.MemberEndForcesRow](s, "member-end-forces").Results
	forces := query[model.MemberForcesRow](s, "member-intermediate-forces").Results
	if len(ends) != 8 || len(forces) != 8 {
		t.Fatalf("%d end rows, %d station rows, want 8", len(ends), len(forces))
	}
	for i, e := range ends {
		f := forces[i]
		n := len(f.Location)
		if f.LoadCase != e.LoadCase || f.Member != e.Member {
			t.Fatalf("row %d: %d/%d vs %d/%d", i, f.LoadCase, f.Member, e.LoadCase, e.Member)
		}
		for k, pair := range [][3][]float64{{e.Fx, f.Fx}, {e.Fy, f.Fy}, {e.Fz, f.Fz}, {e.Mx, f.Mx}, {e.My, f.My}, {e.Mz, f.Mz}} {
			scale := 1 + math.Abs(pair[0][0]) + math.Abs(pair[0][1])
			if math.Abs(pair[1][0]+pair[0][0]) > tol*scale || math.Abs(pair[1][n-1]-pair[0][1]) > tol*scale {
				t.Errorf("case %d member %d component %d: stations %g…%g, end forces A %g B %g (want −A, +B)",
					e.LoadCase, e.Member, k, pair[1][0], pair[1][n-1], pair[0][0], pair[0][1])
			}
		}
		if e.Member == 2 && math.Abs(e.Mz[0]) > 1e-9 {
			t.Errorf("case %d: the hinge at A of member 2 carries Mz %g", e.LoadCase, e.Mz[0])
		}
		if want := map[int64]int{1: 12, 2: 13}[e.Member]; e.LoadCase == 1 && n != want {
			t.Errorf("case 1 member %d: %d stations, want %d (11 + both sides of the point load)", e.Member, n, want)
		}
	}
	disp := query[model.NodeDisplacementRow](s, "node-displacements").Results
	byNode := map[[2]int64]model.NodeDisplacementRow{}
	for _, d := range disp {
		byNode[[2]int64{d.LoadCase, d.Node}] = d
	}
	at := func(lc, node int64) model.NodeDisplacementRow { return byNode[[2]int64{lc, node}] }
	for _, md := range query[model.MemberDisplacementsRow](s, "member-intermediate-displacements?members=2").Results {
		n := len(md.Location)
		a, b := at(md.LoadCase, 2), at(md.LoadCase, 3)
		for k, pair := range [][3]float64{{md.TxGlobal[0], a.Tx}, {md.TyGlobal[0], a.Ty}, {md.TxGlobal[n-1], b.Tx}, {md.TyGlobal[n-1], b.Ty}} {
			if math.Abs(pair[0]-pair[1]) > 1e-9*(1+math.Abs(pair[1])) {
				t.Errorf("case %d member 2 end station %d: %g, node %g", md.LoadCase, k, pair[0], pair[1])
			}
		}
	}
	for _, r := range query[model.ReactionSummaryRow](s, "reaction-summary").Results {
		if r.SummaryType == model.SummaryResidual && math.Abs(r.Fx)+math.Abs(r.Fy)+math.Abs(r.Mz) > 1e-9*200 {
			t.Errorf("case %d residual %+v", r.LoadCase, r)
		}
	}
	// Combination 4 = 2 × 1.5 × case 1 + case 2.
	for _, d := range disp {
		if want := 3*at(1, d.Node).Ty + at(2, d.Node).Ty; d.LoadCase == 4 && math.Abs(d.Ty-want) > 1e-9*(1+math.Abs(want)) {
			t.Errorf("combination 4 node %d Ty %g, want %g", d.Node, d.Ty, want)
		}
	}
	// A range far past the model's cases fails with the check on, naming
	// the missing ids; with it off it selects the cases it holds: analysed
	// alone, the nested combination gives the same numbers.
	if r := s.wait(s.run(map[string]any{"loadCases": "3-2147483647"}).RunID); r.Status != model.RunFailed ||
		!strings.Contains(r.ErrorMessage, "5-") {
		t.Errorf("wide range with the check: %s %q", r.Status, r.ErrorMessage)
	}
	full := query[model.NodeReactionRow](s, "node-reactions?loadCases=4")
	fullF := query[model.MemberForcesRow](s, "member-intermediate-forces?loadCases=4").Results
	if r := s.wait(s.run(map[string]any{"loadCases": "4-2147483647", "checkNonExistentLoadCases": false}).RunID); r.Status != model.RunCompleted {
		t.Fatalf("combination-only run %s %s", r.Status, r.ErrorMessage)
	}
	alone := query[model.NodeReactionRow](s, "node-reactions?loadCases=4")
	if len(alone.Results) != 3 || alone.Warnings.LoadCasesNotAnalyzed != "" {
		t.Fatalf("combination-only reactions %+v", alone)
	}
	for i := range alone.Results {
		if a, f := alone.Results[i], full.Results[i]; math.Abs(a.Fy-f.Fy) > 1e-9*(1+math.Abs(f.Fy)) || math.Abs(a.Mz-f.Mz) > 1e-9*(1+math.Abs(f.Mz)) {
			t.Errorf("combination-only node %d: %+v, in the full run %+v", a.Node, a, f)
		}
	}
	e := query[model.MemberForcesRow](s, "member-intermediate-forces")
	if len(e.Results) != 2 || e.Warnings.LoadCasesNotAnalyzed != "1-3" {
		t.Fatalf("after the combination-only run: %d rows, notAnalyzed %q", len(e.Results), e.Warnings.LoadCasesNotAnalyzed)
	}
	for i, f := range e.Results {
		for k := range f.Mz {
			if math.Abs(f.Mz[k]-fullF[i].Mz[k]) > 1e-9*(1+math.Abs(fullF[i].Mz[k])) {
				t.Errorf("combination-only member %d station %d: Mz %g, full run %g", f.Member, k+1, f.Mz[k], fullF[i].Mz[k])
			}
		}
	}
}

// Paging and filters on every query (checked fine): bad values are 400
// ErrorResponses, an offset past the end is an empty page with the right
// Total-Count, duplicates and overlapping ranges count once, whitespace
// is allowed, a range over a gap in the ids is a 400, ids that do not
// exist are 400s, 10,000 ids get a 4xx ErrorResponse; values follow a
// units change, and a change of the vertical axis deletes the results.
func TestQueryPagingFiltersAndUnits(t *testing.T) {
	s := startStack(t, 1)
	frame(s)
	queries := []string{"node-displacements", "node-reactions", "reaction-summary", "member-end-forces",
		"member-intermediate-forces", "member-intermediate-displacements", "member-stresses", "plate-element-forces"}
	// Before any analysis: 409.
	for _, q := range queries {
		if r := s.call("GET", "/job/query/analysis/static/"+q, nil); r.status != 409 || !isErrorResponse(r) {
			t.Errorf("%s before a run = %d %s", q, r.status, r.body)
		}
	}
	s.wait(s.run(nil).RunID)
	for _, q := range queries {
		for _, p := range []string{"limit=0", "limit=-1", "limit=abc", "offset=-1", "offset=1.5", "offset=99999999999",
			"limit=2147483648", "loadCases=9", "loadCases=1-5", "loadCases=a", "loadCases=1,,2", "loadCases=0"} {
			if r := s.call("GET", "/job/query/analysis/static/"+q+"?"+p, nil); r.status != 400 || !isErrorResponse(r) {
				t.Errorf("%s?%s = %d %s", q, p, r.status, r.body)
			}
		}
		all := s.must(200, "GET", "/job/query/analysis/static/"+q, nil)
		page := s.must(200, "GET", "/job/query/analysis/static/"+q+"?offset=2147483647&limit=2147483647", nil)
		var e envelope[map[string]any]
		page.decode(t, &e)
		if len(e.Results) != 0 || page.header.Get("Total-Count") != all.header.Get("Total-Count") {
			t.Errorf("%s far page: %d rows, Total-Count %s (all: %s)", q, len(e.Results), page.header.Get("Total-Count"), all.header.Get("Total-Count"))
		}
	}
	// Duplicates and overlaps count once; blanks around ids are allowed.
	for p, want := range map[string]int{"nodes=2,2,1-2": 8, "nodes=%201%20,%203": 8, "loadCases=1-2,2-3&nodes=1": 3} {
		if e := query[model.NodeDisplacementRow](s, "node-displacements?"+p); len(e.Results) != want {
			t.Errorf("node-displacements?%s: %d rows", p, len(e.Results))
		}
	}
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 5, "x": 20, "y": 0, "z": 0})
	s.must(201, "POST", "/job/structure/members", map[string]any{"id": 3, "nodeA": 3, "nodeB": 5, "section": 1, "material": 1})
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 5, "restraintCode": "FFFFFF"})
	s.wait(s.run(nil).RunID)
	if r := s.call("GET", "/job/query/analysis/static/node-displacements?nodes=3-5", nil); r.status != 400 ||
		!strings.Contains(string(r.body), "4") {
		t.Errorf("a range over the missing node 4 = %d %s", r.status, r.body)
	}
	if e := query[model.NodeReactionRow](s, "node-reactions?nodes=2-3,5&loadCases=2&offset=1&limit=1"); len(e.Results) != 1 || e.Results[0].Node != 3 {
		t.Errorf("paged reactions %+v", e.Results)
	}
	ids := make([]string, 10000)
	for i := range ids {
		ids[i] = fmtPath("%d", i+1)
	}
	// The message says what to do: write the ids as ranges.
	if r := s.call("GET", "/job/query/analysis/static/member-end-forces?members="+strings.Join(ids, ","), nil); r.status != 400 ||
		!isErrorResponse(r) || !strings.Contains(string(r.body), "as ranges") {
		t.Errorf("10,000 member ids = %d %.200s", r.status, r.body)
	}
	// Plates: the filter is checked against the model's plates.
	if r := s.call("GET", "/job/query/analysis/static/plate-element-forces?plates=1", nil); r.status != 400 {
		t.Errorf("plates=1 without plates = %d %s", r.status, r.body)
	}
	if e := query[struct{}](s, "plate-nodal-forces?loadCases=1"); len(e.Results) != 0 {
		t.Errorf("plate rows %+v", e)
	}
	// info: ids not in the model are dropped; a bad list is a 400.
	var info model.ResultsInfo
	s.must(200, "GET", "/job/analysis/static/info?loadCases=2,99-120", nil).decode(t, &info)
	if len(info.LoadCases) != 1 || !info.LoadCases[0].HasResults {
		t.Errorf("info %+v", info)
	}
	if r := s.call("GET", "/job/analysis/static/info?loadCases=x", nil); r.status != 400 {
		t.Errorf("info with a bad list = %d", r.status)
	}
	// Results follow the job units and go with a change of the vertical axis.
	r0 := query[model.NodeReactionRow](s, "node-reactions?loadCases=1&nodes=1").Results[0]
	d0 := query[model.NodeDisplacementRow](s, "node-displacements?loadCases=1&nodes=2").Results[0]
	f0 := query[model.MemberForcesRow](s, "member-intermediate-forces?loadCases=1&members=2").Results[0]
	s.must(200, "PATCH", "/job/units", map[string]any{"force": "N", "moment": "Nmm", "length": "mm", "translation": "m"})
	r1 := query[model.NodeReactionRow](s, "node-reactions?loadCases=1&nodes=1").Results[0]
	d1 := query[model.NodeDisplacementRow](s, "node-displacements?loadCases=1&nodes=2").Results[0]
	f1 := query[model.MemberForcesRow](s, "member-intermediate-forces?loadCases=1&members=2").Results[0]
	if !near(r1.Fy, 1000*r0.Fy, 1e-12) || !near(r1.Mz, 1e6*r0.Mz, 1e-12) || !near(d1.Tx, d0.Tx/1000, 1e-12) || d1.Rz != d0.Rz {
		t.Errorf("after the units change: reaction %+v (was %+v), displacement %+v (was %+v)", r1, r0, d1, d0)
	}
	if n := len(f1.Location) - 1; !near(f1.Location[n], 1000*f0.Location[n], 1e-12) || !near(f1.Mz[4], 1e6*f0.Mz[4], 1e-12) {
		t.Errorf("stations after the units change: %g m → %g, Mz %g → %g", f0.Location[n], f1.Location[n], f0.Mz[4], f1.Mz[4])
	}
	s.must(200, "PATCH", "/job/settings", map[string]any{"verticalAxis": "YAxis"}) // no change: results stay
	query[model.NodeReactionRow](s, "node-reactions")
	s.must(200, "PATCH", "/job/settings", map[string]any{"verticalAxis": "ZAxis"})
	if r := s.call("GET", "/job/query/analysis/static/node-reactions", nil); r.status != 409 {
		t.Errorf("query after a vertical axis change = %d", r.status)
	}
}

// DEFECT. Accepted input must never lead to a 500. A section's shear
// areas only have to be greater than zero, so ay = az = 1e-300 mm² is
// stored; the run completes (with translations held, the member's bending
// stiffness carries the load), and member-stresses then answers 500: vy =
// V/Ay overflows to ±Inf, which encoding/json cannot write. Either such
// values are refused on input, or the run fails with a message, or the
// query reports them in a representable way — not a 500
// (analysis/query_stations.go MemberStresses copies st.ShearY unchecked;
// nothing on the path checks results for finiteness).
func TestMemberStressesOfTinyShearAreaNot500(t *testing.T) {
	s, _ := startStackDir(t, 1)
	proppedCantilever(s)
	if r := s.call("PATCH", "/job/structure/sections/1", map[string]any{"ay": 1e-300, "az": 1e-300}); r.status != 200 {
		t.Skipf("tiny shear areas refused on input (%d): fine", r.status)
	}
	if run := s.wait(s.run(nil).RunID); run.Status != model.RunCompleted {
		t.Skipf("run %s %q: the run refused the model, fine", run.Status, run.ErrorMessage)
	}
	if r := s.call("GET", "/job/query/analysis/static/member-stresses?loadCases=1", nil); r.status >= 500 {
		t.Errorf("member-stresses = %d %.200s", r.status, r.body)
	}
}
