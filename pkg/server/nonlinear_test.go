package server

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// The AISC benchmark cantilever (AISC 360 Commentary, chapter C,
// second-order benchmark case 1), in kip and inch: a fixed-base column,
// E = 29500 ksi, A = 51.7 in², I = 2150 in⁴, L = 196 in, a lateral tip
// load H = 10 kip and an axial load P = 0.5·P_cr, P_cr = π²EI/(4L²). The
// closed form of the beam-column (Timoshenko & Gere, Theory of Elastic
// Stability, §1.11) is Δ = H/(P·k)·(tan kL − kL), k = √(P/EI), and the
// base moment M = H·L + P·Δ: 0.786011 in and 3560.983 kip·in.
const (
	aiscE = 29500.0
	aiscA = 51.7
	aiscI = 2150.0
	aiscL = 196.0
	aiscH = 10.0
)

// aiscColumn builds the benchmark column through the API in kip and inch:
// n members, nodes 1 … n+1 up the Y axis, node 1 fixed, and load case c
// with the tip loads H (+X) and −f·P_cr (Y) for each c, f of axial.
func aiscColumn(s *stack, n int, axial map[int]float64) {
	s.t.Helper()
	s.must(200, "POST", "/job/new", nil)
	s.must(200, "PATCH", "/job/units", map[string]any{"length": "in", "sectionProperties": "in", "materialStrength": "Ksi",
		"force": "K", "moment": "Kin", "translation": "inch"})
	s.must(201, "POST", "/job/structure/materials", map[string]any{"id": 1, "name": "steel", "youngsModulus": aiscE, "poissonsRatio": 0.3})
	// Shear-rigid, as the closed form; J large enough that the twist term
	// of the geometric stiffness, N·(Iy + Iz)/A, stays far from G·J.
	s.must(201, "POST", "/job/structure/sections", map[string]any{"id": 1, "name": "W14", "a": aiscA, "j": 500, "iy": aiscI, "iz": aiscI,
		"ay": 1e9, "az": 1e9})
	for i := range n + 1 {
		s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": i + 1, "x": 0, "y": aiscL * float64(i) / float64(n), "z": 0})
		if i > 0 {
			s.must(201, "POST", "/job/structure/members", map[string]any{"id": i, "nodeA": i, "nodeB": i + 1, "section": 1, "material": 1})
		}
	}
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 1, "restraintCode": "FFFFFF"})
	pcr := math.Pi * math.Pi * aiscE * aiscI / (4 * aiscL * aiscL)
	for lc, f := range axial {
		s.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": lc, "title": fmt.Sprintf("H and %.2f Pcr", f)})
		s.must(201, "POST", "/job/loads/node-loads", map[string]any{"loadCase": lc, "node": n + 1, "fx": aiscH, "fy": -f * pcr})
	}
}

// stationMz is a member-intermediate-forces row, bending about z only.
type stationMz struct {
	LoadCase int64     `json:"loadCase"`
	Member   int64     `json:"member"`
	Location []float64 `json:"location"`
	Mz       []float64 `json:"mz"`
}

// stations reads the member-intermediate-forces and -displacements rows
// of the cases of loadCases, which must be rows of each.
func (s *stack) stations(loadCases string, rows int) ([]stationMz, []model.MemberDisplacementsRow) {
	s.t.Helper()
	forces := query[stationMz](s, "member-intermediate-forces?loadCases="+loadCases)
	disps := query[model.MemberDisplacementsRow](s, "member-intermediate-displacements?loadCases="+loadCases)
	if len(forces.Results) != rows || len(disps.Results) != rows {
		s.t.Fatalf("%d force rows and %d displacement rows, want %d", len(forces.Results), len(disps.Results), rows)
	}
	return forces.Results, disps.Results
}

// runNonLinear starts a non-linear run with body.
func (s *stack) runNonLinear(body any) model.Run {
	s.t.Helper()
	var run model.Run
	s.must(202, "POST", "/job/analysis/static/run-non-linear", body).decode(s.t, &run)
	return run
}

// TestNonLinearAISCBenchmark runs the benchmark through HTTP with the
// Small theory (P-Δ and P-δ through the consistent geometric stiffness):
// tip deflection and base moment within 0.5 % (the bound; the
// engine's own test measures the 10-member Small error at 4e-7, so the
// bound is loose against the engine and tight against any unit or sign
// slip). Load case 2, at 1.2 P_cr, is past the buckling load: it fails
// alone, and the run completes with case 1 and warns. The run record
// carries the convergence history and the case count, and the results
// are marked non-linear.
func TestNonLinearAISCBenchmark(t *testing.T) {
	s := startStack(t, 1)
	const n = 10
	aiscColumn(s, n, map[int]float64{1: 0.5, 2: 1.2})
	run := s.runNonLinear(map[string]any{"theory": "Small", "loadSteps": 2, "convergenceAccuracy": 1e-6,
		"matrixType": "Tangent", "deflectionsConvergence": false})
	if run.AnalysisType != model.AnalysisType("NonLinearStaticAnalysis") {
		t.Fatalf("run %+v", run)
	}
	done := s.wait(run.RunID)
	if done.Status != model.RunCompleted {
		t.Fatalf("run ended %s: %q %v", done.Status, done.ErrorMessage, done.Warnings)
	}
	if len(done.Warnings) != 1 || !strings.Contains(done.Warnings[0], "load case 2 has no results") ||
		!strings.Contains(done.Warnings[0], "buckling") {
		t.Errorf("warnings %q: want one naming load case 2, past its buckling load", done.Warnings)
	}
	if c := done.Progress.LoadCaseCount; c.Count != 2 || c.Index != 2 {
		t.Errorf("loadCaseCount %+v, want 2 of 2", c)
	}
	if !strings.Contains(done.Header, "NON-LINEAR STATIC") {
		t.Errorf("header %q", done.Header)
	}
	// Convergence history: every iteration of case 1, numbered from 1; the
	// last of each step converged, at or below the accuracy (percent).
	h := done.ConvergenceHistory
	var steps []int
	for i, p := range h {
		if p.Iteration != i+1 {
			t.Errorf("history point %d numbered %d", i, p.Iteration)
		}
		if p.LoadCase == 1 && p.Converged {
			steps = append(steps, p.Step)
			if !(p.Percentage <= 1e-6) {
				t.Errorf("converged point %+v above the accuracy", p)
			}
		}
	}
	if fmt.Sprint(steps) != "[1 2]" {
		t.Errorf("converged steps of case 1: %v, want [1 2]; history %+v", steps, h)
	}

	pcr := math.Pi * math.Pi * aiscE * aiscI / (4 * aiscL * aiscL)
	P := 0.5 * pcr
	k := math.Sqrt(P / (aiscE * aiscI))
	delta := aiscH / (P * k) * (math.Tan(k*aiscL) - k*aiscL)
	moment := aiscH*aiscL + P*delta
	if !near(delta, 0.786011, 1e-6) || !near(moment, 3560.983, 1e-6) {
		t.Fatalf("closed form Δ = %.6f in, M = %.3f kip·in: not the benchmark's", delta, moment)
	}
	disp := query[model.NodeDisplacementRow](s, fmtPath("node-displacements?loadCases=1&nodes=%d", n+1))
	if len(disp.Results) != 1 || !near(disp.Results[0].Tx, delta, 0.005) {
		t.Errorf("tip deflection %+v, want %.6f in within 0.5 %%", disp.Results, delta)
	}
	react := query[model.NodeReactionRow](s, "node-reactions?loadCases=1&nodes=1")
	if len(react.Results) != 1 || !near(math.Abs(react.Results[0].Mz), moment, 0.005) || !near(react.Results[0].Fy, P, 1e-9) {
		t.Errorf("base reaction %+v, want |Mz| %.3f kip·in within 0.5 %% and Fy = P = %.3f kip", react.Results, moment, P)
	}
	// The base member's end moment is the base moment too.
	ends := query[model.MemberEndForcesRow](s, "member-end-forces?loadCases=1&members=1")
	if len(ends.Results) != 1 || !near(math.Abs(ends.Results[0].Mz[0]), moment, 0.005) {
		t.Errorf("base member end forces %+v, want |Mz(A)| %.3f kip·in", ends.Results, moment)
	}
	// Member stations hold the moments of the deformed column.
	// Equilibrium of the column above a station at height y:
	// M(y) = H·(L − y) + P·(Δ − u(y)), u the sway there (the station's
	// own tx), checked at every station to 1e-6 of the base moment: the
	// stations follow the deformed statics, not the straight column's
	// H·(L − y) (off by P·Δ = 1601 kip·in at the base). The stations'
	// displacements integrate each member's first-order curvature from
	// its end A, so at the tip they reach 0.78626 in against the node's
	// 0.78601 in, and the top station's moment is −0.5 kip·in, not 0:
	// within 2e-4 of the base moment, the 10-member discretisation's
	// share.
	forces, disps := s.stations("1", n)
	tip := disp.Results[0].Tx
	worst := 0.0
	for i, r := range forces {
		y0 := aiscL * float64(r.Member-1) / n
		for k, x := range r.Location {
			u := disps[i].TxGlobal[k]
			want := aiscH*(aiscL-y0-x) + P*(tip-u)
			worst = math.Max(worst, math.Abs(r.Mz[k]-want))
		}
	}
	if !(worst <= 1e-6*moment) {
		t.Errorf("station moments off the deformed column's statics by up to %.3g kip·in", worst)
	}
	last := forces[n-1].Mz
	if top := last[len(last)-1]; !(math.Abs(top) <= 2e-4*moment) {
		t.Errorf("moment at the free top %.3f kip·in, want about 0", top)
	}
	// Case 2 has no results; case 1 is marked non-linear.
	var info model.ResultsInfo
	s.must(200, "GET", "/job/analysis/static/info", nil).decode(t, &info)
	if len(info.LoadCases) != 2 || !info.LoadCases[0].HasResults || !info.LoadCases[0].IsNonLinear || info.LoadCases[1].HasResults {
		t.Errorf("results info %+v: want case 1 non-linear with results, case 2 without", info)
	}
}

// TestNonLinearSettingsRefused: settings a non-linear run cannot use are
// a 400 naming the field, before anything is queued; the same settings
// are fine for a linear run, which ignores them.
func TestNonLinearSettingsRefused(t *testing.T) {
	s := startStack(t, 1)
	aiscColumn(s, 10, map[int]float64{1: 0.5})
	for _, c := range []struct {
		body string
		want string
	}{
		{`{"steppingMethod": "File"}`, "steppingMethod"},
		{`{"pDeltaBig": false, "pDeltaSmall": true}`, "pDeltaSmall"},
		{`{"deflectionsConvergence": false, "residualsConvergence": false}`, "convergence"},
	} {
		r := s.send(s.rawRequest("POST", "/job/analysis/static/run-non-linear", c.body))
		if r.status != 400 || !strings.Contains(string(r.body), c.want) {
			t.Errorf("run-non-linear %s = %d %s, want 400 naming %s", c.body, r.status, r.body, c.want)
		}
	}
	var runs []model.Run
	s.must(200, "GET", "/job/analysis/runs", nil).decode(t, &runs)
	if len(runs) != 0 {
		t.Errorf("refused runs were recorded: %+v", runs)
	}
	if lin := s.wait(s.run(map[string]any{"steppingMethod": "File"}).RunID); lin.Status != model.RunCompleted {
		t.Errorf("linear run with steppingMethod File ended %s: %q; a linear run ignores it", lin.Status, lin.ErrorMessage)
	}
}

// TestNonLinearFanOut runs 12 load cases on 3 workers: each case is a
// sub-task that any idle worker takes, so the cases of one run are solved
// on more than one worker, which the run's messages name. Every case's
// result is its own: the tip deflection grows with the axial load of the
// case (the closed form above), which a mix-up between sub-tasks would
// break.
func TestNonLinearFanOut(t *testing.T) {
	s := startStack(t, 3)
	const cases = 12
	axial := map[int]float64{}
	for c := 1; c <= cases; c++ {
		axial[c] = 0.05 * float64(c)
	}
	// Cases that take a while each (several hundred members, many steps
	// on the tangent matrix), so that the workers asleep between polls of
	// the queue (about a second) wake while cases are still waiting.
	const n = 400
	aiscColumn(s, n, axial)
	done := s.wait(s.runNonLinear(map[string]any{"loadSteps": 20, "matrixType": "Tangent", "convergenceAccuracy": 1e-4}).RunID)
	if done.Status != model.RunCompleted || len(done.Warnings) != 0 {
		t.Fatalf("run ended %s: %q %v", done.Status, done.ErrorMessage, done.Warnings)
	}
	rep := reportOf(done)
	if len(rep.cases) != cases {
		t.Errorf("messages name %d solved cases, want %d: %+v", len(rep.cases), cases, done.Progress.Messages)
	}
	if len(rep.workers) < 2 {
		t.Errorf("the cases were solved by %d worker(s) %v, want more than one", len(rep.workers), rep.workers)
	}
	disp := query[model.NodeDisplacementRow](s, fmtPath("node-displacements?nodes=%d", n+1))
	if len(disp.Results) != cases {
		t.Fatalf("%d tip rows, want %d", len(disp.Results), cases)
	}
	pcr := math.Pi * math.Pi * aiscE * aiscI / (4 * aiscL * aiscL)
	for _, r := range disp.Results {
		P := axial[int(r.LoadCase)] * pcr
		k := math.Sqrt(P / (aiscE * aiscI))
		want := aiscH / (P * k) * (math.Tan(k*aiscL) - k*aiscL)
		if !near(r.Tx, want, 0.005) {
			t.Errorf("case %d: tip %.6f in, closed form %.6f", r.LoadCase, r.Tx, want)
		}
	}
}

// TestBracedTowerNonLinear runs the braced-tower sample through the
// non-linear analysis with its default settings (Small theory, ten
// steps) and keepLoadSteps: every case and combination converges, and
// its steps are queryable; no tension-only brace
// ends in compression (the law drops them out, where the linear analysis
// needs its reversal loop); each case's applied loads and reactions
// balance (reaction summary: the drag of case 2 is 2.8 kN/m over 22 m,
// the figure the sample's own analysis test uses); and the drag case's
// sway comes out larger than in the linear analysis of the same model
// with tension-only members active (P-Δ on the leaning tower adds to it;
// that it is within 5 % of it says the tower is stiff, as a lattice
// tower is).
func TestBracedTowerNonLinear(t *testing.T) {
	s := startStack(t, 2)
	s.must(200, "POST", "/job/open-sample", map[string]any{"fileName": "Braced tower"})
	linear := s.wait(s.run(map[string]any{"tensionCompressionOnly": "Activated"}).RunID)
	if linear.Status != model.RunCompleted {
		t.Fatalf("linear run %s: %q", linear.Status, linear.ErrorMessage)
	}
	lin := query[model.NodeDisplacementRow](s, "node-displacements?loadCases=2&nodes=25")
	done := s.wait(s.runNonLinear(map[string]any{"keepLoadSteps": true}).RunID)
	if done.Status != model.RunCompleted {
		t.Fatalf("run %s: %q %v", done.Status, done.ErrorMessage, done.Warnings)
	}
	// Its ten steps per case are kept: step 5 of the drag case is the
	// state under half the drag, which its reaction summary applies.
	var drag []int64
	for _, c := range s.stepCases() {
		if c.StepOf == 2 {
			drag = append(drag, c.ID)
		}
	}
	if len(drag) != 10 {
		t.Fatalf("Step cases of case 2: %v, want ten", drag)
	}
	half := query[model.ReactionSummaryRow](s, fmtPath("reaction-summary?loadCases=%d", drag[4]))
	for _, r := range half.Results {
		if r.SummaryType == "Load" && !near(r.Fx, 0.5*2.8*22, 1e-9) {
			t.Errorf("step 5 of case 2 applies %.6f kN, want half the drag, %.1f", r.Fx, 0.5*2.8*22)
		}
	}
	if len(half.Results) == 0 {
		t.Error("no reaction summary of step 5 of case 2")
	}
	for _, w := range done.Warnings {
		if strings.Contains(w, "no results") {
			t.Errorf("warning %q", w)
		}
	}
	if c := done.Progress.LoadCaseCount; c.Count != 4 || c.Index != 4 || len(done.ConvergenceHistory) < 4*10 {
		t.Errorf("case count %+v and %d history points: want 4 of 4 and at least ten steps per case", c, len(done.ConvergenceHistory))
	}
	type memberRow struct {
		ID   int64  `json:"id"`
		Type string `json:"type"`
	}
	var members []memberRow
	s.must(200, "GET", "/job/structure/members?limit=1000", nil).decode(t, &members)
	braces := map[int64]bool{}
	for _, m := range members {
		if m.Type == "TensionOnly" {
			braces[m.ID] = true
		}
	}
	if len(braces) != 48 {
		t.Fatalf("%d tension-only braces, want 48 (6 panels × 4 faces × 2)", len(braces))
	}
	ends := query[model.MemberEndForcesRow](s, "member-end-forces?limit=10000")
	slack, worst := 0, 0.0
	for _, r := range ends.Results {
		if !braces[r.Member] {
			continue
		}
		n := r.Fx[1] // kN, tension positive at end B
		worst = math.Min(worst, n)
		if r.LoadCase == 2 && math.Abs(n) < 1e-6 {
			slack++
		}
	}
	// Under the drag alone each braced face panel has one diagonal slack
	// (the two side faces carry the shear: 2 faces × 6 panels).
	if !(worst >= -1e-6) || slack < 12 {
		t.Errorf("most compressed brace %.3g kN (want none below −1e-6 kN); %d slack braces in case 2, want at least 12", worst, slack)
	}
	sums := query[model.ReactionSummaryRow](s, "reaction-summary")
	for _, r := range sums.Results {
		if r.SummaryType == "Residual" && !(math.Abs(r.Fx)+math.Abs(r.Fy)+math.Abs(r.Fz) <= 1e-3) {
			t.Errorf("case %d: out of balance %+v kN", r.LoadCase, r)
		}
		if r.LoadCase == 2 && r.SummaryType == "Load" && !near(r.Fx, 2.8*22, 1e-9) {
			t.Errorf("case 2 drag %.6f kN, want %.1f", r.Fx, 2.8*22)
		}
	}
	nl := query[model.NodeDisplacementRow](s, "node-displacements?loadCases=2&nodes=25")
	if len(lin.Results) != 1 || len(nl.Results) != 1 {
		t.Fatalf("top node rows: linear %v, non-linear %v", lin.Results, nl.Results)
	}
	a, b := lin.Results[0].Tx, nl.Results[0].Tx
	if !(b > a && b < 1.05*a) {
		t.Errorf("top sway %.4f mm non-linear, %.4f mm linear: want a little more", b, a)
	}
}
