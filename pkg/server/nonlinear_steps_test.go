package server

import (
	"fmt"
	"math"
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
	s.must(200, "GET", "/job/loads/load-cases?type=Step&limit=1000", nil).decode(s.t, &out)
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
	done := s.wait(s.runNonLinear(settings).RunID, time.Minute)
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
	if again := s.wait(s.runNonLinear(settings).RunID, time.Minute); again.Status != model.RunCompleted {
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
	if run := s.wait(s.run(map[string]any{"loadCases": "6"}).RunID, time.Minute); run.Status != model.RunFailed ||
		!strings.Contains(run.ErrorMessage, "only Step load cases") {
		t.Errorf("linear run of Step case 6: %s %q", run.Status, run.ErrorMessage)
	}
	// A run that keeps no steps and retains nothing leaves no Step case.
	delete(settings, "loadCases")
	settings["keepLoadSteps"], settings["retainLoadCases"] = false, false
	if last := s.wait(s.runNonLinear(settings).RunID, time.Minute); last.Status != model.RunCompleted {
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
// a run may is refused, naming the limit.
func TestNonLinearStepCasesCapped(t *testing.T) {
	s := startStack(t, 1)
	aiscColumn(s, 2, map[int]float64{1: 0.1, 2: 0.2})
	run := s.wait(s.runNonLinear(map[string]any{"loadSteps": 600, "keepLoadSteps": true}).RunID, time.Minute)
	if run.Status != model.RunFailed || !strings.Contains(run.ErrorMessage, "at most 1000") {
		t.Errorf("run %s: %q", run.Status, run.ErrorMessage)
	}
}
