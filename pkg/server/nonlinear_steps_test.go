package server

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
)

// stepCase is a load case row as the load-case list returns it.
type stepCase struct {
	ID     int64  `json:"id"`
	Title  string `json:"title"`
	Type   string `json:"type"`
	StepOf int64  `json:"stepOf"`
}

// stepCases lists the Step load cases of the open job.
func (s *stack) stepCases() []stepCase {
	s.t.Helper()
	var out []stepCase
	s.must(200, "GET", "/job/loads/load-cases?type=Step", nil).decode(s.t, &out)
	return out
}

// TestNonLinearStepCases keeps the load steps of a non-linear run as Step
// load cases and reads them back through the load-case list and the
// result queries.
//
// The model is the AISC benchmark column (aiscColumn, kip and inch, ten
// members): case 1 has the tip loads H and 0.5·P_cr; case 2 a uniform
// lateral load w on every member and 0.3·P_cr at the tip; combination 4 is
// 0.5 × case 1. With four linear steps the steps of case c are at
// λ = 0.25, 0.5, 0.75, 1, numbered from the largest case id (4) up, case
// then step: 5–8 (case 1), 9–12 (case 2), 13–16 (combination 4).
//
//   - Each step of case 1 and of combination 4 is the beam-column under
//     its fraction of H and P: the closed form of Timoshenko & Gere §1.11,
//     Δ = H/(P·k)·(tan kL − kL), k = √(P/EI). Ten members in the Small
//     theory are within 2e-6 of it (the engine's TestSmallAISCBenchmark);
//     1e-4 leaves room for the convergence tolerance and no room for a
//     step carrying another step's load.
//   - The stations of each step of case 2 and of combination 4 follow the
//     deformed statics of the column above them under the step's own
//     load: M(y) = λ·w·(L − y)²/2 + λ·H·(L − y) + λ·P·(Δ − u(y)), Δ and u
//     the step's tip and station sways. The stations integrate the same state they are
//     checked against, so this holds to round-off (measured 1.2e-10
//     kip·in; bound 1e-9 of the base moment). Stations built from the full
//     load instead would be off by (1 − λ)·w·(L − y)²/2, up to 720 kip·in
//     at the base of step 1.
//   - The last step of a case is that case's state.
func TestNonLinearStepCases(t *testing.T) {
	s := startStack(t, 2)
	const n = 10
	const w = 0.05 // kip/in
	aiscColumn(s, n, map[int]float64{1: 0.5})
	pcr := math.Pi * math.Pi * aiscE * aiscI / (4 * aiscL * aiscL)
	s.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": 2, "title": "w and 0.3 Pcr"})
	s.must(201, "POST", "/job/loads/node-loads", map[string]any{"loadCase": 2, "node": n + 1, "fy": -0.3 * pcr})
	for m := 1; m <= n; m++ {
		s.must(201, "POST", "/job/loads/member-distributed-loads", map[string]any{"loadCase": 2, "member": m,
			"axes": "GlobalInclined", "fxStart": w, "fxFinish": w})
	}
	s.must(201, "POST", "/job/loads/combination-load-cases", map[string]any{"id": 4, "title": "half of case 1",
		"combinationItems": []map[string]any{{"loadCase": 1, "multiplyingFactor": 0.5}}})
	settings := map[string]any{"theory": "Small", "loadSteps": 4, "keepLoadSteps": true, "convergenceAccuracy": 1e-6,
		"matrixType": "Tangent", "deflectionsConvergence": false}
	done := s.wait(s.runNonLinear(settings).RunID)
	if done.Status != model.RunCompleted || len(done.Warnings) != 0 {
		t.Fatalf("run %s: %q %v", done.Status, done.ErrorMessage, done.Warnings)
	}
	for lc, want := range map[int]string{1: "Step load cases 5–8", 2: "Step load cases 9–12", 4: "Step load cases 13–16"} {
		found := false
		for _, m := range done.Progress.Messages {
			found = found || strings.HasPrefix(m.Text, fmt.Sprintf("load case %d:", lc)) && strings.Contains(m.Text, want)
		}
		if !found {
			t.Errorf("no run message of case %d naming its %s: %+v", lc, want, done.Progress.Messages)
		}
	}

	// The load-case list: twelve Step cases, each naming its case.
	steps := s.stepCases()
	if len(steps) != 12 {
		t.Fatalf("%d Step load cases, want 12: %+v", len(steps), steps)
	}
	for i, c := range steps {
		of := []int64{1, 2, 4}[i/4]
		if c.ID != int64(5+i) || c.StepOf != of || c.Type != model.CaseStep ||
			!strings.HasPrefix(c.Title, fmt.Sprintf("Step %d of case %d", i%4+1, of)) {
			t.Errorf("Step case %d: %+v, want id %d, a step %d of case %d", i, c, 5+i, i%4+1, of)
		}
	}
	var one stepCase
	s.must(200, "GET", "/job/loads/load-cases/6", nil).decode(t, &one)
	if one.Type != model.CaseStep || one.StepOf != 1 {
		t.Errorf("load case 6: %+v", one)
	}
	// A Step case takes no loads and joins no combination.
	if r := s.call("POST", "/job/loads/combination-load-cases", map[string]any{"id": 40, "title": "bad",
		"combinationItems": []map[string]any{{"loadCase": 6}}}); r.status != 400 {
		t.Errorf("combination of a Step case: %d %s", r.status, r.body)
	}
	if r := s.call("POST", "/job/loads/node-loads", map[string]any{"loadCase": 6, "node": 2, "fx": 1}); r.status != 400 {
		t.Errorf("load on a Step case: %d %s", r.status, r.body)
	}

	// Tips of the steps of case 1 and combination 4 against the closed form.
	closedForm := func(h, p float64) float64 {
		k := math.Sqrt(p / (aiscE * aiscI))
		return h / (p * k) * (math.Tan(k*aiscL) - k*aiscL)
	}
	tips := query[model.NodeDisplacementRow](s, fmtPath("node-displacements?loadCases=1,2,4-16&nodes=%d", n+1))
	tip := map[int64]float64{}
	for _, r := range tips.Results {
		tip[r.LoadCase] = r.Tx
	}
	for k := 1; k <= 4; k++ {
		lambda := float64(k) / 4
		for _, c := range []struct {
			id int64
			f  float64
		}{{int64(4 + k), 1}, {int64(12 + k), 0.5}} {
			want := closedForm(c.f*lambda*aiscH, c.f*lambda*0.5*pcr)
			if got, ok := tip[c.id]; !ok || !near(got, want, 1e-4) {
				t.Errorf("Step case %d (λ = %g of %g × case 1): tip %.6f in, closed form %.6f", c.id, lambda, c.f, got, want)
			}
		}
	}
	if tip[8] != tip[1] || tip[12] != tip[2] || tip[16] != tip[4] {
		t.Errorf("last steps %v, %v, %v differ from their cases %v, %v, %v", tip[8], tip[12], tip[16], tip[1], tip[2], tip[4])
	}

	// Stations of the steps of case 2 (λ·w and λ·0.3·P_cr) and of
	// combination 4 (0.5·λ·H at the tip and 0.5·λ·0.5·P_cr): the deformed
	// statics of the column above each station under the step's own load.
	for _, c := range []struct {
		cases           string
		first           int64   // the first step's id
		w, h, p, moment float64 // the loads at λ = 1 and the scale of the moments
	}{
		{"9-12", 9, w, 0, 0.3 * pcr, w*aiscL*aiscL/2 + 0.3*pcr*tip[2]},
		{"13-16", 13, 0, 0.5 * aiscH, 0.25 * pcr, 0.5*aiscH*aiscL + 0.25*pcr*tip[4]},
	} {
		forces, disps := s.stations(c.cases, 4*n)
		for i, r := range forces {
			lambda := float64(r.LoadCase-c.first+1) / 4
			y0 := aiscL * float64(r.Member-1) / n
			worst := 0.0
			for k, x := range r.Location {
				u := disps[i].TxGlobal[k]
				y := y0 + x
				want := lambda*c.w*(aiscL-y)*(aiscL-y)/2 + lambda*c.h*(aiscL-y) + lambda*c.p*(tip[r.LoadCase]-u)
				worst = math.Max(worst, math.Abs(r.Mz[k]-want))
			}
			if !(worst <= 1e-9*c.moment) {
				t.Errorf("Step case %d member %d: station moments off the deformed statics by %.3g kip·in", r.LoadCase, r.Member, worst)
			}
		}
	}

	// With retainLoadCases, analysing case 2 again replaces its steps
	// (9–12 go) and numbers the new ones above every case that stays.
	settings["loadCases"], settings["retainLoadCases"] = "2", true
	if again := s.wait(s.runNonLinear(settings).RunID); again.Status != model.RunCompleted {
		t.Fatalf("second run %s: %q", again.Status, again.ErrorMessage)
	}
	var ids []int64
	for _, c := range s.stepCases() {
		ids = append(ids, c.ID)
	}
	if fmt.Sprint(ids) != "[5 6 7 8 13 14 15 16 17 18 19 20]" {
		t.Errorf("Step cases after re-running case 2: %v", ids)
	}
	if r := query[model.NodeDisplacementRow](s, fmtPath("node-displacements?loadCases=20&nodes=%d", n+1)); len(r.Results) != 1 ||
		r.Results[0].Tx != tip[2] {
		t.Errorf("new last step of case 2: %+v, want tip %v", r.Results, tip[2])
	}

	// The Step cases and their results survive a save and an open.
	s.must(201, "POST", "/job/save", map[string]any{"filePath": "steps"})
	s.must(200, "POST", "/job/close", nil)
	s.must(200, "POST", "/job/open", map[string]any{"filePath": "steps.gsj"})
	if got := len(s.stepCases()); got != 12 {
		t.Errorf("%d Step cases after save and open, want 12", got)
	}
	if r := query[model.NodeDisplacementRow](s, fmtPath("node-displacements?loadCases=6&nodes=%d", n+1)); len(r.Results) != 1 ||
		r.Results[0].Tx != tip[6] {
		t.Errorf("Step case 6 after save and open: %+v", r.Results)
	}

	// A Step case is not analysed itself.
	if run := s.wait(s.run(map[string]any{"loadCases": "6"}).RunID); run.Status != model.RunFailed ||
		!strings.Contains(run.ErrorMessage, "only Step load cases") {
		t.Errorf("linear run of Step case 6: %s %q", run.Status, run.ErrorMessage)
	}
	// A run that keeps no steps and retains nothing leaves no Step case.
	delete(settings, "loadCases")
	settings["keepLoadSteps"], settings["retainLoadCases"] = false, false
	if last := s.wait(s.runNonLinear(settings).RunID); last.Status != model.RunCompleted {
		t.Fatalf("third run %s: %q", last.Status, last.ErrorMessage)
	}
	if left := s.stepCases(); len(left) != 0 {
		t.Errorf("Step cases left after a run keeping none: %+v", left)
	}
	var info model.ResultsInfo
	s.must(200, "GET", "/job/analysis/static/info", nil).decode(t, &info)
	if len(info.LoadCases) != 3 {
		t.Errorf("results info %+v: want the three cases only", info.LoadCases)
	}
}

// TestNonLinearStepCasesCapped: a run that would keep more load steps than
// the workspace's stepCases limit allows (default 1,000) is refused when
// it is started, naming the limit, and nothing is queued; a workspace
// whose limit is raised keeps them all, the worker holding the run to the
// limit the run carries rather than to the default.
func TestNonLinearStepCasesCapped(t *testing.T) {
	t.Run("default", func(t *testing.T) {
		s := startStack(t, 1)
		aiscColumn(s, 2, map[int]float64{1: 0.1, 2: 0.2})
		r := s.call("POST", "/job/analysis/static/run-non-linear", map[string]any{"loadSteps": 600, "keepLoadSteps": true})
		if r.status != 403 || r.errorCode(t) != "LIMIT_EXCEEDED" || !strings.Contains(string(r.body), "at most 1,000") ||
			!strings.Contains(string(r.body), "MAX_STEP_CASES") || !strings.Contains(string(r.body), "1200 load steps (2 load cases") {
			t.Errorf("600 steps of 2 cases: %d %s", r.status, r.body)
		}
		var runs []model.Run
		if s.must(200, "GET", "/job/analysis/runs", nil).decode(t, &runs); len(runs) != 0 {
			t.Errorf("the refused run was recorded: %+v", runs)
		}
		// loadCases narrows the count: one case of 600 steps fits.
		r = s.call("POST", "/job/analysis/static/run-non-linear", map[string]any{"loadSteps": 600, "keepLoadSteps": true, "loadCases": "2"})
		if r.status != 202 {
			t.Errorf("600 steps of 1 case: %d %s", r.status, r.body)
		}
	})
	t.Run("raised", func(t *testing.T) {
		s := startStackWith(t, 1, Config{Limits: model.Limits{StepCases: 1200}}, io.Discard)
		aiscColumn(s, 2, map[int]float64{1: 0.1, 2: 0.2})
		run := s.wait(s.runNonLinear(map[string]any{"loadSteps": 600, "keepLoadSteps": true}).RunID)
		if run.Status != model.RunCompleted || len(s.stepIDs()) != 1200 {
			t.Errorf("run %s %q with %d Step cases, want 1200", run.Status, run.ErrorMessage, len(s.stepIDs()))
		}
	})
}

// stepIDs lists the ids of the Step load cases.
func (s *stack) stepIDs() []int64 {
	var ids []int64
	for _, c := range s.stepCases() {
		ids = append(ids, c.ID)
	}
	return ids
}

// resultCases lists the load cases the static results hold.
func (s *stack) resultCases() []int64 {
	var ids []int64
	for _, c := range s.staticInfo().LoadCases {
		if c.HasResults {
			ids = append(ids, c.LoadCase)
		}
	}
	return ids
}

var stepSettings = map[string]any{"theory": "Small", "loadSteps": 4, "keepLoadSteps": true, "convergenceAccuracy": 1e-6,
	"matrixType": "Tangent", "deflectionsConvergence": false}

func copySettings(extra map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range stepSettings {
		out[k] = v
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

// TestStepCasesOfFailedCaseKept: case 2 at 1.2·P_cr converges its
// first three steps (0.3, 0.6, 0.9 P_cr) and fails the fourth. Its three
// steps are kept as Step cases with results, the step after them is not
// listed, and step 3 matches the beam-column closed form at 0.75 of the
// load.
func TestStepCasesOfFailedCaseKept(t *testing.T) {
	s := startStack(t, 1)
	const n = 10
	aiscColumn(s, n, map[int]float64{1: 0.1, 2: 1.2})
	done := s.wait(s.runNonLinear(copySettings(nil)).RunID)
	if done.Status != model.RunCompleted {
		t.Fatalf("run %s: %q", done.Status, done.ErrorMessage)
	}
	if len(done.Warnings) != 1 || !strings.Contains(done.Warnings[0], "7–9") {
		t.Errorf("warnings %q: want one naming the kept steps 7–9", done.Warnings)
	}
	if got := fmt.Sprint(s.stepIDs()); got != "[3 4 5 6 7 8 9]" {
		t.Errorf("Step cases %s, want [3 4 5 6 7 8 9]", got)
	}
	if got := fmt.Sprint(s.resultCases()); got != "[1 3 4 5 6 7 8 9]" {
		t.Errorf("cases with results %s, want [1 3 4 5 6 7 8 9]", got)
	}
	pcr := math.Pi * math.Pi * aiscE * aiscI / (4 * aiscL * aiscL)
	lambda := 0.75
	p, h := lambda*1.2*pcr, lambda*aiscH
	k := math.Sqrt(p / (aiscE * aiscI))
	want := h / (p * k) * (math.Tan(k*aiscL) - k*aiscL)
	r := query[model.NodeDisplacementRow](s, fmtPath("node-displacements?loadCases=9&nodes=%d", n+1))
	if len(r.Results) != 1 || !near(r.Results[0].Tx, want, 1e-3) {
		t.Errorf("step 3 of case 2 (0.9 P_cr): %+v, closed form %.6f", r.Results, want)
	}
}

// TestStepCaseCannotBecomeCombination: a Step case cannot take loads or
// join a combination; it must not become a combination either. If it
// could, the engine would skip it (a row with stepOf) and the next static
// run would delete the user's combination.
func TestStepCaseCannotBecomeCombination(t *testing.T) {
	s := startStack(t, 1)
	aiscColumn(s, 2, map[int]float64{1: 0.1})
	if done := s.wait(s.runNonLinear(copySettings(map[string]any{"loadSteps": 2})).RunID); done.Status != model.RunCompleted {
		t.Fatalf("run %s: %q", done.Status, done.ErrorMessage)
	}
	if got := fmt.Sprint(s.stepIDs()); got != "[2 3]" {
		t.Fatalf("Step cases %s", got)
	}
	items := []map[string]any{{"loadCase": 1, "multiplyingFactor": 2}}
	var accepted []string
	for _, try := range []struct{ method, path string }{
		{"PATCH", "/job/loads/combination-load-cases/3"},
		{"PUT", "/job/loads/combination-load-cases/3"},
		{"POST", "/job/loads/combination-load-cases"},
		{"PATCH", "/job/loads/load-cases/3"},
		{"PUT", "/job/loads/combination-load-cases/3/items"},
	} {
		body := map[string]any{"id": 3, "title": "twice case 1", "combinationItems": items}
		if strings.HasSuffix(try.path, "/items") {
			body = map[string]any{"combinationItems": items}
		}
		r := s.call(try.method, try.path, body)
		t.Logf("%s %s = %d %s", try.method, try.path, r.status, r.body)
		if r.status/100 == 2 {
			var c struct {
				CombinationItems []model.CombinationItem `json:"combinationItems"`
			}
			s.must(200, "GET", "/job/loads/load-cases/3?expand=combinationItems", nil).decode(t, &c)
			if len(c.CombinationItems) > 0 {
				accepted = append(accepted, try.method+" "+try.path)
			}
		}
	}
	if len(accepted) == 0 {
		return
	}
	t.Errorf("a Step case was made a combination through %v", accepted)
	var one map[string]any
	s.must(200, "GET", "/job/loads/load-cases/3?expand=combinationItems", nil).decode(t, &one)
	t.Logf("case 3 now: %v", one)
	// A linear run of all cases: is combination 3 analysed?
	done := s.wait(s.run(map[string]any{"retainLoadCases": false}).RunID)
	t.Logf("linear run %s %q; results %v; load cases %v", done.Status, done.ErrorMessage, s.resultCases(), s.stepIDs())
	if !slices.Contains(s.resultCases(), 3) {
		t.Errorf("combination 3 was not analysed by a linear run of all cases")
	}
	if r := s.call("GET", "/job/loads/load-cases/3", nil); r.status != 200 {
		t.Errorf("the user's combination 3 was deleted by the run: %d %s", r.status, r.body)
	}
}

// TestStepCaseDeleteThenSaveOpen: deleting a Step case (it has neither
// loads nor items) and then saving and reopening the job.
func TestStepCaseDeleteThenSaveOpen(t *testing.T) {
	s := startStack(t, 1)
	aiscColumn(s, 2, map[int]float64{1: 0.1})
	if done := s.wait(s.runNonLinear(copySettings(map[string]any{"loadSteps": 2})).RunID); done.Status != model.RunCompleted {
		t.Fatalf("run %s: %q", done.Status, done.ErrorMessage)
	}
	r := s.call("DELETE", "/job/loads/load-cases/2", nil)
	t.Logf("DELETE step 2 = %d %s", r.status, r.body)
	g := s.call("GET", "/job/loads/load-cases/2", nil)
	t.Logf("GET 2 = %d %s; steps %v; results %v", g.status, g.body, s.stepIDs(), s.resultCases())
	if g.status != 404 {
		t.Errorf("README: deleting a case without loads or items removes its row (GET 404); got %d %s", g.status, g.body)
	}
	s.saveCloseOpen("del")
}

// saveCloseOpen saves the job as name, closes it and opens it again,
// which must succeed.
func (s *stack) saveCloseOpen(name string) {
	s.t.Helper()
	s.must(201, "POST", "/job/save", map[string]any{"filePath": name})
	s.must(200, "POST", "/job/close", nil)
	if r := s.call("POST", "/job/open", map[string]any{"filePath": name + ".gsj"}); r.status != 200 {
		s.t.Errorf("open after save: %d %s", r.status, r.body)
	}
}

// TestStepRowsWithoutResults: a model change clears the results and
// leaves the Step rows. Queries of those cases, eigen runs naming ranges
// over them and the next static run behave.
func TestStepRowsWithoutResults(t *testing.T) {
	s := startStack(t, 1)
	const n = 4
	aiscColumn(s, n, map[int]float64{1: 0.1, 2: 0.2})
	if done := s.wait(s.runNonLinear(copySettings(map[string]any{"loadSteps": 2})).RunID); done.Status != model.RunCompleted {
		t.Fatalf("run %s: %q", done.Status, done.ErrorMessage)
	}
	if got := fmt.Sprint(s.stepIDs()); got != "[3 4 5 6]" {
		t.Fatalf("Step cases %s", got)
	}
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 100, "x": 50, "y": 0, "z": 0})
	if got := fmt.Sprint(s.stepIDs()); got != "[3 4 5 6]" {
		t.Errorf("Step cases after a model change %s, want them listed", got)
	}
	for _, q := range []string{"node-displacements?loadCases=4", "member-intermediate-forces?loadCases=4",
		"member-intermediate-displacements?loadCases=3-6", "reaction-summary?loadCases=4", "member-end-forces?loadCases=4"} {
		if r := s.call("GET", "/job/query/analysis/static/"+q, nil); r.status >= 500 {
			t.Errorf("%s = %d %s", q, r.status, r.body)
		}
	}
	s.must(200, "DELETE", "/job/structure/nodes/100", nil)
	// Buckling of a range spanning the Step cases with the check on.
	b := s.call("POST", "/job/analysis/buckling/run", map[string]any{"loadCases": "1-6", "checkNonExistentLoadCases": true})
	if b.status == 202 {
		var run model.Run
		b.decode(t, &run)
		end := s.wait(run.RunID)
		if end.Status != model.RunCompleted {
			t.Errorf("buckling of 1-6 with Step rows: %s %q", end.Status, end.ErrorMessage)
		}
	} else {
		t.Logf("buckling start = %d %s", b.status, b.body)
	}
	// A run retaining results and keeping steps numbers above the Step
	// rows and removes them (they have no results).
	done := s.wait(s.runNonLinear(copySettings(map[string]any{"loadSteps": 2, "loadCases": "1", "retainLoadCases": true})).RunID)
	if done.Status != model.RunCompleted {
		t.Fatalf("run %s: %q", done.Status, done.ErrorMessage)
	}
	if got := fmt.Sprint(s.stepIDs()); got != "[7 8]" {
		t.Errorf("Step cases %s, want [7 8]", got)
	}
	if got := fmt.Sprint(s.resultCases()); got != "[1 7 8]" {
		t.Errorf("results %s, want [1 7 8]", got)
	}
}

// TestLinearRetainRemovesOnlyItsCasesSteps: a linear run of case 2 retaining results
// removes the steps of case 2 only; a buckling run leaves them.
func TestLinearRetainRemovesOnlyItsCasesSteps(t *testing.T) {
	s := startStack(t, 1)
	aiscColumn(s, 2, map[int]float64{1: 0.1, 2: 0.2})
	if done := s.wait(s.runNonLinear(copySettings(map[string]any{"loadSteps": 2})).RunID); done.Status != model.RunCompleted {
		t.Fatalf("run %s: %q", done.Status, done.ErrorMessage)
	}
	if end := s.wait(s.run(map[string]any{"loadCases": "2", "retainLoadCases": true}).RunID); end.Status != model.RunCompleted {
		t.Fatalf("linear %s %q", end.Status, end.ErrorMessage)
	}
	if got := fmt.Sprint(s.stepIDs()); got != "[3 4]" {
		t.Errorf("Step cases %s, want [3 4]", got)
	}
	if got := fmt.Sprint(s.resultCases()); got != "[1 2 3 4]" {
		t.Errorf("results %s, want [1 2 3 4]", got)
	}
	var run model.Run
	s.must(202, "POST", "/job/analysis/buckling/run", map[string]any{"loadCases": "1"}).decode(t, &run)
	if end := s.wait(run.RunID); end.Status != model.RunCompleted {
		t.Errorf("buckling %s %q", end.Status, end.ErrorMessage)
	}
	if got := fmt.Sprint(s.stepIDs()); got != "[3 4]" {
		t.Errorf("Step cases after buckling %s, want [3 4]", got)
	}
	// Paging of the Step list.
	r := s.must(200, "GET", "/job/loads/load-cases?type=Step&limit=1&offset=1", nil)
	var page []stepCase
	r.decode(t, &page)
	if len(page) != 1 || page[0].ID != 4 {
		t.Errorf("page %+v", page)
	}
	t.Logf("Total-Count %q", r.header.Get("Total-Count"))
	if tc := r.header.Get("Total-Count"); tc != "" && tc != "2" {
		t.Errorf("Total-Count %s, want 2", tc)
	}
}

// TestPrimaryCaseDeleteThenSaveOpen: the same for a Primary case kept
// (it has loads): is the blank title a pre-existing problem?
func TestPrimaryCaseDeleteThenSaveOpen(t *testing.T) {
	s := startStack(t, 1)
	aiscColumn(s, 2, map[int]float64{1: 0.1})
	r := s.call("DELETE", "/job/loads/load-cases/1", nil)
	t.Logf("DELETE 1 = %d %s", r.status, r.body)
	s.saveCloseOpen("del")
}

// TestStepCaseIDsBeyondMaxIDRefused: a load case near the largest id puts the
// Step cases above model.MaxID (2147483647): ids the API cannot address
// and a job file may not hold.
func TestStepCaseIDsBeyondMaxIDRefused(t *testing.T) {
	s := startStack(t, 1)
	const top = model.MaxID - 1
	aiscColumn(s, 2, map[int]float64{top: 0.1})
	done := s.wait(s.runNonLinear(copySettings(nil)).RunID)
	t.Logf("run %s %q %v", done.Status, done.ErrorMessage, done.Warnings)
	if done.Status != model.RunFailed || !strings.Contains(done.ErrorMessage, "past the largest load case id") {
		t.Errorf("run %s %q: want it refused, naming the largest id", done.Status, done.ErrorMessage)
	}
	ids := s.stepIDs()
	t.Logf("Step cases %v", ids)
	for _, id := range ids {
		if id > model.MaxID {
			t.Errorf("Step case %d is above MaxID %d", id, model.MaxID)
			if r := s.call("GET", fmtPath("/job/loads/load-cases/%d", id), nil); r.status != 200 {
				t.Logf("GET it = %d %s", r.status, r.body)
			}
			break
		}
	}
	s.must(201, "POST", "/job/save", map[string]any{"filePath": "top"})
	s.must(200, "POST", "/job/close", nil)
	if r := s.call("POST", "/job/open", map[string]any{"filePath": "top.gsj"}); r.status != 200 {
		t.Errorf("open = %d %s", r.status, r.body)
	}
}

// rowsOf reads a static query of one case as generic rows without the
// loadCase field.
func (s *stack) rowsOf(q string, lc int64) string {
	s.t.Helper()
	e := query[map[string]any](s, fmtPath("%s?loadCases=%d", q, lc))
	for _, r := range e.Results {
		delete(r, "loadCase")
	}
	return fmt.Sprint(e.Results)
}

var staticQueries = []string{"node-displacements", "node-reactions", "reaction-summary", "member-end-forces",
	"member-intermediate-forces", "member-intermediate-displacements", "member-stresses"}

// TestLastStepEqualsItsCase: in each theory, with a member load in
// local axes and node loads, the last step of a case answers every static
// query as the case does, and the case answers as a run without
// keepLoadSteps does.
func TestLastStepEqualsItsCase(t *testing.T) {
	for _, theory := range []string{"Small", "Large"} {
		t.Run(theory, func(t *testing.T) {
			s := startStack(t, 1)
			const n = 4
			aiscColumn(s, n, map[int]float64{1: 0.2})
			for m := 1; m <= n; m++ {
				s.must(201, "POST", "/job/loads/member-distributed-loads", map[string]any{"loadCase": 1, "member": m,
					"axes": "Local", "fyStart": 0.05, "fyFinish": 0.05})
			}
			settings := copySettings(map[string]any{"theory": theory, "loadSteps": 3})
			done := s.wait(s.runNonLinear(settings).RunID)
			if done.Status != model.RunCompleted || len(done.Warnings) > 0 {
				t.Fatalf("run %s %q %v", done.Status, done.ErrorMessage, done.Warnings)
			}
			with := map[string]string{}
			for _, q := range staticQueries {
				with[q] = s.rowsOf(q, 1)
				if last := s.rowsOf(q, 4); last != with[q] {
					t.Errorf("%s: last step 4\n%s\ncase 1\n%s", q, last, with[q])
				}
			}
			settings["keepLoadSteps"] = false
			if done := s.wait(s.runNonLinear(settings).RunID); done.Status != model.RunCompleted {
				t.Fatalf("run %s %q", done.Status, done.ErrorMessage)
			}
			for _, q := range staticQueries {
				if got := s.rowsOf(q, 1); got != with[q] {
					t.Errorf("%s: case 1 without keepLoadSteps\n%s\nwith\n%s", q, got, with[q])
				}
			}
		})
	}
}

// TestStepsOfNestedCombination: the steps of a combination of a
// combination; their stations are the deformed statics under λ times the
// nested factors (0.5 × 2 × case 1 = case 1).
func TestStepsOfNestedCombination(t *testing.T) {
	s := startStack(t, 1)
	const n = 4
	aiscColumn(s, n, map[int]float64{1: 0.2})
	s.must(201, "POST", "/job/loads/combination-load-cases", map[string]any{"id": 2, "title": "half",
		"combinationItems": []map[string]any{{"loadCase": 1, "multiplyingFactor": 0.5}}})
	s.must(201, "POST", "/job/loads/combination-load-cases", map[string]any{"id": 3, "title": "twice half",
		"combinationItems": []map[string]any{{"loadCase": 2, "multiplyingFactor": 2}}})
	done := s.wait(s.runNonLinear(copySettings(map[string]any{"loadSteps": 2, "loadCases": "1,3"})).RunID)
	if done.Status != model.RunCompleted || len(done.Warnings) > 0 {
		t.Fatalf("run %s %q %v", done.Status, done.ErrorMessage, done.Warnings)
	}
	// Steps: case 1 → 4, 5; combination 3 → 6, 7. 7 is combination 3 = case 1.
	if got := fmt.Sprint(s.stepIDs()); got != "[4 5 6 7]" {
		t.Fatalf("Step cases %s", got)
	}
	for _, q := range staticQueries {
		a, b := s.rowsOf(q, 4), s.rowsOf(q, 6)
		if !sameNumbers(a, b) {
			t.Errorf("%s: step 1 of case 1 (4) and of combination 3 (6) differ\n%s\n%s", q, a, b)
		}
	}
	// A step is not analysed: loadCases naming Step cases and a case.
	r := s.wait(s.runNonLinear(copySettings(map[string]any{"loadSteps": 2, "loadCases": "4-7", "checkNonExistentLoadCases": true})).RunID)
	if r.Status != model.RunFailed || !strings.Contains(r.ErrorMessage, "only Step") {
		t.Errorf("run of only Step cases: %s %q", r.Status, r.ErrorMessage)
	}
}

// sameNumbers compares two printed row lists, numbers to 1e-9 relative.
func sameNumbers(a, b string) bool {
	fa, fb := strings.Fields(strings.NewReplacer("[", " ", "]", " ", "map", " ").Replace(a)),
		strings.Fields(strings.NewReplacer("[", " ", "]", " ", "map", " ").Replace(b))
	if len(fa) != len(fb) {
		return false
	}
	for i := range fa {
		if fa[i] == fb[i] {
			continue
		}
		ka, va, _ := strings.Cut(fa[i], ":")
		kb, vb, _ := strings.Cut(fb[i], ":")
		var x, y float64
		if ka != kb {
			return false
		}
		if _, err := fmt.Sscan(va, &x); err != nil {
			return false
		}
		if _, err := fmt.Sscan(vb, &y); err != nil {
			return false
		}
		if math.Abs(x-y) > 1e-9*math.Max(1, math.Max(math.Abs(x), math.Abs(y))) {
			return false
		}
	}
	return true
}

// TestCancelWhileKeepingStepsPublishesNothing: a cancel while cases keeping their steps are
// solved publishes nothing: no Step rows, results as before, nothing left
// in Redis.
func TestCancelWhileKeepingStepsPublishesNothing(t *testing.T) {
	s := startStack(t, 2)
	const cases = 8
	before := slowCases(s, cases)
	settings := map[string]any{"keepLoadSteps": true}
	for k, v := range nlSlow {
		settings[k] = v
	}
	run := s.runNonLinear(settings)
	s.waitFor(run.RunID, "two cases done", func(r model.Run) bool {
		return r.Progress.LoadCaseCount.Index >= 2 || r.Status.Finished()
	})
	asked := s.cancel(run.RunID)
	end := s.waitFor(run.RunID, "finished", func(r model.Run) bool { return r.Status.Finished() })
	t.Logf("ended %s after %v", end.Status, time.Since(asked))
	if end.Status != model.RunCancelled {
		t.Errorf("run %s, want Cancelled", end.Status)
	}
	if ids := s.stepIDs(); len(ids) != 0 {
		t.Errorf("Step cases after a cancelled run: %v", ids)
	}
	if after := s.staticInfo(); !sameJSON(t, before, after) {
		t.Errorf("results changed: %+v", after)
	}
	s.noLeftovers(run.RunID, cases)
}

// TestJobFileWithTamperedStepResultsRefused: a job file whose Step results name a case
// that is not there, or whose Step row and results disagree.
func TestJobFileWithTamperedStepResultsRefused(t *testing.T) {
	s, dir := startStackDir(t, 1)
	aiscColumn(s, 2, map[int]float64{1: 0.1})
	if done := s.wait(s.runNonLinear(copySettings(map[string]any{"loadSteps": 2})).RunID); done.Status != model.RunCompleted {
		t.Fatalf("run %s: %q", done.Status, done.ErrorMessage)
	}
	s.must(201, "POST", "/job/save", map[string]any{"filePath": "steps"})
	s.must(200, "POST", "/job/close", nil)
	file, err := os.ReadFile(filepath.Join(dir, "steps.gsj"))
	if err != nil {
		t.Fatal(err)
	}
	zr, _ := zip.NewReader(bytes.NewReader(file), int64(len(file)))
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	t.Logf("entries %v", names)
	const meta = "results/static/meta.json"
	queries := []string{"member-intermediate-forces?loadCases=2", "reaction-summary?loadCases=2", "node-displacements?loadCases=2"}
	for name, edits := range map[string]map[string]func([]byte) []byte{
		"results of a step of case 99": {meta: func(m []byte) []byte { return mustReplace(t, m, `"stepOf":1,"step":1`, `"stepOf":99,"step":1`) }},
		"results of a step of itself":  {meta: func(m []byte) []byte { return mustReplace(t, m, `"stepOf":1,"step":1`, `"stepOf":2,"step":1`) }},
		"results of a step of step 3":  {meta: func(m []byte) []byte { return mustReplace(t, m, `"stepOf":1,"step":1`, `"stepOf":3,"step":1`) }},
	} {
		r, got := openTampered(t, s, file, edits, queries...)
		t.Logf("%s: open %d %.200s\n%s", name, r.status, r.body, got)
		if strings.Contains(got, "→ 500") {
			t.Errorf("%s: a 500 after open: %s", name, got)
		}
		if r.status != 400 || !strings.Contains(string(r.body), "load step") {
			t.Errorf("%s: open answered %d %s, want a 400 naming the load step", name, r.status, r.body)
		}
	}
}
