package server

import (
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// A propped cantilever: node 1 fixed at x = 0, node 2 on a roller (Ty
// restrained) at x = L, uniform load w down (global −Y) on the member.
// Hand statics (Roark, "propped cantilever, uniform load"): R_A = 5wL/8,
// R_B = 3wL/8, M_A = wL²/8, δ(L/2) = wL⁴/(192EI) with shear deformation
// made negligible by huge shear areas.
const (
	pcL = 6.0    // m
	pcW = 10.0   // kN/m
	pcE = 200e3  // MPa
	pcI = 1e8    // mm⁴
	pcA = 5000.0 // mm²
)

// proppedCantilever builds the model through the API, in the default job
// units (m, mm, MPa, kN, kNm), with load case 1 (w) and case 2 (2w), and
// combination 3 = 1.5 × case 1.
func proppedCantilever(s *stack) {
	s.t.Helper()
	s.must(200, "POST", "/job/new", nil)
	s.must(201, "POST", "/job/structure/materials", map[string]any{"id": 1, "name": "steel", "youngsModulus": pcE, "poissonsRatio": 0.3})
	s.must(201, "POST", "/job/structure/sections", map[string]any{"id": 1, "name": "beam", "a": pcA, "j": 2 * pcI, "iy": pcI, "iz": pcI,
		"ay": 1e12, "az": 1e12})
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 1, "x": 0, "y": 0, "z": 0})
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 2, "x": pcL, "y": 0, "z": 0})
	s.must(201, "POST", "/job/structure/members", map[string]any{"id": 1, "nodeA": 1, "nodeB": 2, "section": 1, "material": 1})
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 1, "restraintCode": "FFFFFF"})
	// The roller holds Ty and, to keep the model stable out of plane, Tz,
	// Rx and the sway Tx; rotations about Y and Z stay free.
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 2, "restraintCode": "FFFFRR"})
	for lc, f := range map[int]float64{1: 1, 2: 2} {
		s.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": lc, "title": "w"})
		s.must(201, "POST", "/job/loads/member-distributed-loads", map[string]any{"loadCase": lc, "member": 1,
			"axes": "GlobalInclined", "fyStart": -f * pcW, "fyFinish": -f * pcW})
	}
	s.must(201, "POST", "/job/loads/combination-load-cases", map[string]any{"id": 3, "title": "1.5 w",
		"combinationItems": []map[string]any{{"loadCase": 1, "multiplyingFactor": 1.5}}})
}

func near(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), 1e-12)
}

func TestLinearStaticRunLifecycle(t *testing.T) {
	s := startStack(t, 1)
	// Runs need an open job.
	if r := s.call("POST", "/job/analysis/static/run-linear", nil); r.status != 409 || r.errorCode(t) != "NO_JOB_OPEN" {
		t.Errorf("run without a job = %d %s", r.status, r.body)
	}
	proppedCantilever(s)

	run := s.run(nil)
	if run.Status != model.RunQueued || run.AnalysisType != model.AnalysisType("LinearStaticAnalysis") || run.ElapsedTime != nil {
		t.Fatalf("new run %+v, want Queued LinearStaticAnalysis without elapsed time", run)
	}
	done := s.wait(run.RunID)
	if done.Status != model.RunCompleted || done.ErrorMessage != "" || done.ElapsedTime == nil || done.CompletedAt == nil {
		t.Fatalf("run ended %+v", done)
	}
	if !strings.Contains(done.Header, "LINEAR STATIC") {
		t.Errorf("header %q", done.Header)
	}
	params := map[string]string{}
	for _, p := range done.Parameters {
		params[p.Label] = p.Value
	}
	// 2 nodes × 6 DOFs, minus 6 fixed at node 1 and 4 at node 2.
	if params["Nodes"] != "2" || params["Members"] != "1" || params["Degrees of freedom"] != "2" || params["Load cases"] != "3" {
		t.Errorf("parameters %v", params)
	}
	// The worker's admission shows what the run reserved of its budget
	// (WORKER_MEMORY's default here: the machine's memory).
	if est := params["Memory estimate"]; !strings.Contains(est, " KiB of ") {
		t.Errorf("memory estimate %q, want \"N KiB of M MiB\"", est)
	}
	var res model.RunResult
	s.must(200, "GET", "/job/analysis/runs/"+run.RunID+"/result", nil).decode(t, &res)
	if res.Status != model.RunCompleted || res.RunID != run.RunID {
		t.Errorf("result %+v", res)
	}

	// Reactions (kN, kNm): Roark's propped cantilever, exact for the
	// element (1e-9: round-off of a 2-equation solve).
	reacts := query[model.NodeReactionRow](s, "node-reactions?loadCases=1")
	if len(reacts.Results) != 2 {
		t.Fatalf("reactions %+v", reacts)
	}
	rA, rB := reacts.Results[0], reacts.Results[1]
	if !near(rA.Fy, 5*pcW*pcL/8, 1e-9) || !near(rB.Fy, 3*pcW*pcL/8, 1e-9) || !near(rA.Mz, pcW*pcL*pcL/8, 1e-9) {
		t.Errorf("R_A %g (want %g), R_B %g (want %g), M_A %g (want %g)", rA.Fy, 5*pcW*pcL/8, rB.Fy, 3*pcW*pcL/8, rA.Mz, pcW*pcL*pcL/8)
	}
	// The combination is 1.5 × case 1 (superposition).
	combo := query[model.NodeReactionRow](s, "node-reactions?loadCases=3&nodes=1")
	if len(combo.Results) != 1 || !near(combo.Results[0].Fy, 1.5*5*pcW*pcL/8, 1e-9) {
		t.Errorf("combination reactions %+v", combo.Results)
	}
	// Rotation at the roller: θ_B = wL³/(48EI) (Roark), in rad.
	disp := query[model.NodeDisplacementRow](s, "node-displacements?loadCases=1&nodes=2")
	ei := pcE * 1e6 * pcI * 1e-12 // N·m²
	if len(disp.Results) != 1 || !near(disp.Results[0].Rz, pcW*1e3*pcL*pcL*pcL/(48*ei), 1e-6) {
		t.Errorf("θ_B %+v, want %g", disp.Results, pcW*1e3*pcL*pcL*pcL/(48*ei))
	}
	sum := query[model.ReactionSummaryRow](s, "reaction-summary?loadCases=2")
	if len(sum.Results) != 3 || sum.Results[0].SummaryType != "Load" || !near(sum.Results[0].Fy, -2*pcW*pcL, 1e-9) ||
		!near(sum.Results[1].Fy, 2*pcW*pcL, 1e-9) || math.Abs(sum.Results[2].Fy) > 1e-9*2*pcW*pcL {
		t.Errorf("summary %+v", sum.Results)
	}
	ends := query[model.MemberEndForcesRow](s, "member-end-forces?loadCases=1")
	// End A shear is R_A (the node pushes the member up), end moment M_A.
	if len(ends.Results) != 1 || !near(ends.Results[0].Fy[0], 5*pcW*pcL/8, 1e-9) || ends.Results[0].Node[1] != 2 {
		t.Errorf("end forces %+v", ends.Results)
	}

	// Along the member, derived at query time: M(x) = R_A·x − M_A − wx²/2
	// (sagging positive, the engine's Mz sign for a beam along +X with Y
	// up), V(x) = R_A − wx, and the midspan deflection wL⁴/(192EI), all
	// Roark's propped cantilever; 1e-9 as above.
	forces := query[model.MemberForcesRow](s, "member-intermediate-forces?loadCases=1")
	if len(forces.Results) != 1 || len(forces.Results[0].Location) != 11 {
		t.Fatalf("intermediate forces %+v", forces.Results)
	}
	f := forces.Results[0]
	for i, x := range f.Location {
		m := 5*pcW*pcL/8*x - pcW*pcL*pcL/8 - pcW*x*x/2
		v := 5*pcW*pcL/8 - pcW*x
		if !near(f.Mz[i], m, 1e-9) && math.Abs(f.Mz[i]-m) > 1e-9*pcW*pcL*pcL {
			t.Errorf("Mz(%g) = %g, want %g", x, f.Mz[i], m)
		}
		// Vy is the action of the part beyond on the part before: −V.
		if math.Abs(f.Fy[i]+v) > 1e-9*pcW*pcL || f.Fx[i] != 0 || f.Station[i] != i+1 {
			t.Errorf("station %d at %g: Fy %g (want %g), Fx %g", f.Station[i], x, f.Fy[i], -v, f.Fx[i])
		}
	}
	dm := query[model.MemberDisplacementsRow](s, "member-intermediate-displacements?loadCases=1&members=1")
	mid := -pcW * 1e3 * math.Pow(pcL, 4) / (192 * ei) * 1e3 // mm
	if len(dm.Results) != 1 || !near(dm.Results[0].TyLocal[5], mid, 1e-6) || !near(dm.Results[0].TyGlobal[5], mid, 1e-6) ||
		dm.Results[0].Location[5] != pcL/2 {
		t.Errorf("midspan deflection %+v, want %g mm", dm.Results, mid)
	}
	stress := query[model.MemberStressesRow](s, "member-stresses?loadCases=1&members=1")
	// vy = Vy/Ay in MPa = N/mm²: −R_A (N) over Ay = 1e12 mm² at end A.
	if len(stress.Results) != 1 || stress.Results[0].N[0] != 0 || !near(stress.Results[0].Vy[0], -5*pcW*pcL/8*1e3/1e12, 1e-9) {
		t.Errorf("stresses %+v", stress.Results)
	}

	var st struct {
		Analysis   struct{ HasStaticResults bool } `json:"analysis"`
		AccessMode string                          `json:"accessMode"`
	}
	s.must(200, "GET", "/job/status", nil).decode(t, &st)
	if !st.Analysis.HasStaticResults || st.AccessMode != "ReadWrite" {
		t.Errorf("status after the run %+v", st)
	}
	var info model.ResultsInfo
	s.must(200, "GET", "/job/analysis/static/info", nil).decode(t, &info)
	if !info.HasResults || len(info.LoadCases) != 3 || info.NotAnalyzed != "" {
		t.Errorf("info %+v", info)
	}
	// The run was counted by outcome, with its size; nothing waits or runs.
	metrics := string(s.must(200, "GET", strings.TrimSuffix(s.base, "/api/v1")+"/metrics", nil).body)
	for _, want := range []string{`gusset_analysis_duration_seconds_count{kind="LinearStaticAnalysis",outcome="Completed",workspace="default"} 1`,
		"gusset_analysis_dofs_count 1", "gusset_analysis_runs_in_flight 0", "gusset_analysis_queue_depth 0"} {
		if !strings.Contains(metrics, want+"\n") {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	var runs []model.Run
	s.must(200, "GET", "/job/analysis/runs", nil).decode(t, &runs)
	if len(runs) != 1 || runs[0].RunID != run.RunID {
		t.Errorf("runs %+v", runs)
	}
	// Cancelling a finished run is a 404, as is an unknown run.
	if r := s.call("DELETE", "/job/analysis/runs/"+run.RunID, nil); r.status != 404 {
		t.Errorf("cancel finished run: %d %s", r.status, r.body)
	}
	if r := s.call("GET", "/job/analysis/runs/00000000-0000-0000-0000-000000000000", nil); r.status != 404 {
		t.Errorf("unknown run: %d", r.status)
	}
	// Filters naming ids the model lacks are 400s.
	for _, q := range []string{"node-displacements?nodes=9", "node-reactions?loadCases=1-4", "member-end-forces?members=2"} {
		if r := s.call("GET", "/job/query/analysis/static/"+q, nil); r.status != 400 {
			t.Errorf("%s = %d, want 400: %s", q, r.status, r.body)
		}
	}

	// Any model change deletes the results.
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 3, "x": 0, "y": 5, "z": 0})
	s.must(200, "GET", "/job/status", nil).decode(t, &st)
	if st.Analysis.HasStaticResults {
		t.Error("results survived a model change")
	}
	if r := s.call("GET", "/job/query/analysis/static/node-displacements", nil); r.status != 409 {
		t.Errorf("query after a change = %d, want 409", r.status)
	}
}

// retainLoadCases keeps the results of cases a run does not analyse;
// without it a run replaces them. notAnalyzed and loadCasesNotAnalyzed name
// the cases without results.
func TestRetainLoadCasesAndNotAnalyzed(t *testing.T) {
	s := startStack(t, 1)
	proppedCantilever(s)
	s.wait(s.run(map[string]any{"loadCases": "1"}).RunID)
	var info model.ResultsInfo
	s.must(200, "GET", "/job/analysis/static/info", nil).decode(t, &info)
	if info.NotAnalyzed != "2-3" {
		t.Errorf("notAnalyzed %q, want 2-3", info.NotAnalyzed)
	}
	info = model.ResultsInfo{}
	s.must(200, "GET", "/job/analysis/static/info?loadCases=1,9", nil).decode(t, &info)
	if info.NotAnalyzed != "" || len(info.LoadCases) != 1 {
		t.Errorf("info for 1,9: %+v (9 is not in the model, so it is dropped)", info)
	}
	e := query[model.NodeDisplacementRow](s, "node-displacements")
	if e.Warnings.LoadCasesNotAnalyzed != "2-3" || len(e.Results) != 2 {
		t.Errorf("envelope %+v", e)
	}
	s.wait(s.run(map[string]any{"loadCases": "2", "retainLoadCases": true}).RunID)
	if e := query[model.NodeDisplacementRow](s, "node-displacements"); e.Warnings.LoadCasesNotAnalyzed != "3" || len(e.Results) != 4 {
		t.Errorf("after a retaining run %+v", e)
	}
	s.wait(s.run(map[string]any{"loadCases": "3"}).RunID)
	if e := query[model.NodeDisplacementRow](s, "node-displacements"); e.Warnings.LoadCasesNotAnalyzed != "1-2" || len(e.Results) != 2 {
		t.Errorf("after a replacing run %+v", e)
	}
	// The overrides applied to those runs only.
	var settings model.StaticSettings
	s.must(200, "GET", "/job/analysis/static/settings", nil).decode(t, &settings)
	if settings.LoadCases != "" || settings.RetainLoadCases {
		t.Errorf("stored settings changed by overrides: %+v", settings)
	}
}

// Results are saved in the job file and restored on open.
func TestResultsSurviveSaveCloseOpen(t *testing.T) {
	s := startStack(t, 1)
	proppedCantilever(s)
	s.wait(s.run(nil).RunID)
	before := query[model.MemberEndForcesRow](s, "member-end-forces")
	s.must(201, "POST", "/job/save", map[string]any{"filePath": "propped"})
	s.must(200, "POST", "/job/close", nil)
	s.must(200, "POST", "/job/open", map[string]any{"filePath": "propped.gsj"})
	after := query[model.MemberEndForcesRow](s, "member-end-forces")
	if len(after.Results) != 3 || len(before.Results) != 3 {
		t.Fatalf("rows before %d, after %d", len(before.Results), len(after.Results))
	}
	for i := range before.Results {
		b, a := before.Results[i], after.Results[i]
		for k := range 2 {
			if a.Fy[k] != b.Fy[k] || a.Mz[k] != b.Mz[k] {
				t.Errorf("row %d end %d: after open %+v, before %+v", i, k, a, b)
			}
		}
	}
}

// Model errors end the run Failed with a message naming the problem (a
// mechanism, a degenerate plate), and bad override bodies are a 400.
func TestRunFailures(t *testing.T) {
	s := startStack(t, 1)
	proppedCantilever(s)
	// Free the roller's Ty: with node 1 fixed it is still stable, so
	// release node 1 instead, leaving a mechanism.
	s.must(204, "DELETE", "/job/structure/node-restraints/1", nil)
	failed := s.wait(s.run(nil).RunID)
	if failed.Status != model.RunFailed || !strings.Contains(failed.ErrorMessage, "mechanism at node") {
		t.Errorf("mechanism run %s: %q", failed.Status, failed.ErrorMessage)
	}
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 1, "restraintCode": "FFFFFF"})
	// Node 3 lies on the line from node 1 to node 2: plate 7 has no area.
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 3, "x": pcL / 2, "y": 0, "z": 0})
	s.must(201, "POST", "/job/structure/plates", map[string]any{"id": 7, "nodeA": 1, "nodeB": 2, "nodeC": 3, "material": 1,
		"actualThickness": 10})
	plates := s.wait(s.run(nil).RunID)
	if plates.Status != model.RunFailed || !strings.Contains(plates.ErrorMessage, "plate 7") {
		t.Errorf("degenerate plate run %s: %q", plates.Status, plates.ErrorMessage)
	}
	// Bodies are checked before the run starts.
	if r := s.call("POST", "/job/analysis/buckling/run", map[string]any{"modes": 0}); r.status != 400 {
		t.Errorf("bad buckling override = %d", r.status)
	}
	for body, want := range map[string]int{`{"solverType": 2}`: 400, `{"solverType": "Fast"}`: 400, `{"bogus": 1}`: 400,
		`{"loadCases": "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51"}`: 400} {
		req := s.rawRequest("POST", "/job/analysis/static/run-linear", body)
		if r := s.send(req); r.status != want {
			t.Errorf("override %s = %d, want %d: %s", body, r.status, want, r.body)
		}
	}
}

// Ten simultaneous starts: exactly one 202, the others 409
// ANALYSIS_IN_PROGRESS naming the run (checked fine).
func TestConcurrentStartsOneWins(t *testing.T) {
	s := startStack(t, 0)
	proppedCantilever(s)
	codes := make(chan int, 10)
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			res, err := http.Post(s.base+"/job/analysis/static/run-linear", "application/json", nil)
			if err == nil {
				res.Body.Close()
				codes <- res.StatusCode
			}
		})
	}
	wg.Wait()
	close(codes)
	n := map[int]int{}
	for c := range codes {
		n[c]++
	}
	var runs []model.Run
	if s.must(200, "GET", "/job/analysis/runs", nil).decode(t, &runs); n[202] != 1 || n[409] != 9 || len(runs) != 1 {
		t.Errorf("statuses %v, %d runs recorded; want one 202, nine 409, one run", n, len(runs))
	}
}

// Bad run bodies are 400 ErrorResponses and start nothing; a run queued
// with no worker keeps the job read-only, cannot be closed under, and a
// malformed run id is a 404 (checked fine).
func TestRunBodiesRefusedAndQueuedRunLocksJob(t *testing.T) {
	s := startStack(t, 0)
	proppedCantilever(s)
	for _, body := range []string{`null`, `[]`, `"x"`, `{"loadCases": 5}`, `{"loadCases": null}`, `{"solverType": null}`,
		`{"loadCases": "0"}`, `{"loadCases": "1-2147483648"}`, `{"loadCases": "3-1"}`, `{"reversalIterations": 1e9}`,
		`{"retainLoadCases": "yes"}`, `{"loadCases": "1"} x`, `{"optimizationX": 1e300}`} {
		r := s.send(s.rawRequest("POST", "/job/analysis/static/run-linear", body))
		if r.status != 400 || !isErrorResponse(r) {
			t.Errorf("override %s = %d %s, want a 400 ErrorResponse", body, r.status, r.body)
		}
	}
	var runs []model.Run
	s.must(200, "GET", "/job/analysis/runs", nil).decode(t, &runs)
	if len(runs) != 0 {
		t.Fatalf("refused bodies started %d run(s)", len(runs))
	}
	start := s.must(202, "POST", "/job/analysis/static/run-linear", nil)
	var run model.Run
	start.decode(t, &run)
	if loc := start.header.Get("Location"); !strings.HasSuffix(loc, "/job/analysis/runs/"+run.RunID) {
		t.Errorf("Location %q", loc)
	}
	var st struct {
		AccessMode string `json:"accessMode"`
	}
	if s.must(200, "GET", "/job/status", nil).decode(t, &st); st.AccessMode != "ReadOnly" {
		t.Errorf("accessMode while queued %q", st.AccessMode)
	}
	for _, c := range []struct{ method, path string }{{"POST", "/job/close"}, {"DELETE", "/job/structure/nodes/2"},
		{"DELETE", "/job/data?force=true"}} {
		if r := s.call(c.method, c.path, nil); r.status != 409 || r.errorCode(t) != "ANALYSIS_IN_PROGRESS" {
			t.Errorf("%s %s while queued = %d %s", c.method, c.path, r.status, r.body)
		}
	}
	for _, id := range []string{"nope", "x%3Ay", strings.Repeat("a", 2000), "%2e%2e"} {
		if r := s.call("GET", "/job/analysis/runs/"+id, nil); r.status != 404 || !isErrorResponse(r) {
			t.Errorf("GET run %.20q = %d %s", id, r.status, r.body)
		}
		if r := s.call("DELETE", "/job/analysis/runs/"+id, nil); r.status != 404 {
			t.Errorf("DELETE run %.20q = %d", id, r.status)
		}
	}
	if r := s.call("GET", "/job/analysis/runs/"+run.RunID+"/result", nil); r.status != 409 {
		t.Errorf("result of a queued run = %d", r.status)
	}
	s.must(204, "DELETE", "/job/analysis/runs/"+run.RunID, nil)
	s.must(200, "POST", "/job/close", nil)
}
