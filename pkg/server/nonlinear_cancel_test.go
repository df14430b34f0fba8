package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/queue"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
)

// Hostile tests of the non-linear fan-out: cancels at every phase of a
// run (queued, the parent planning, sub-tasks under way on one and on
// three workers), the lock, and settings at their edges. Each cancel
// checks the same end state (cancelledClean): the run Cancelled, the
// results as they were before the run, no sub-task left in the queue, no
// fan-out state left in Redis, and the workspace free (a model edit
// answers 201 and a new run completes).

// slowCases uploads grid-6 with cases load cases (a sub-task takes about
// 0.6 s with nlSlow) and runs a linear analysis of case 1 first, so that
// the workspace holds results that a cancelled run must leave as they
// are. It returns the results info of those results.
func slowCases(s *stack, cases int) model.ResultsInfo {
	s.t.Helper()
	s.upload(gridjob.File(6, cases))
	done := s.wait(s.run(map[string]any{"loadCases": "1"}).RunID)
	if done.Status != model.RunCompleted {
		s.t.Fatalf("linear run before the test: %s %q", done.Status, done.ErrorMessage)
	}
	return s.staticInfo()
}

// nlSlow are the run settings that make each case of slowCases take a
// while (20 steps on the tangent matrix).
var nlSlow = map[string]any{"loadSteps": 20, "matrixType": "Tangent", "convergenceAccuracy": 1e-4}

func (s *stack) staticInfo() model.ResultsInfo {
	s.t.Helper()
	var info model.ResultsInfo
	s.must(200, "GET", "/job/analysis/static/info", nil).decode(s.t, &info)
	return info
}

// leftovers lists what a finished run left behind: its sub-tasks still in
// the queue (any state) and its fan-out keys in Redis.
func (s *stack) leftovers(runID string, cases int) []string {
	s.t.Helper()
	ctx := context.Background()
	rdb := s.redis.Client(s.t)
	insp := asynq.NewInspectorFromRedisClient(rdb)
	var out []string
	for lc := 1; lc <= cases; lc++ {
		id := lifecycle.SubTaskID(runID, int64(lc))
		info, err := insp.GetTaskInfo(queue.QueueAnalysis, id)
		switch {
		case err == nil:
			out = append(out, fmt.Sprintf("sub-task %s (%s)", id, info.State))
		case !errors.Is(err, asynq.ErrTaskNotFound) && !errors.Is(err, asynq.ErrQueueNotFound):
			s.t.Fatalf("inspect %s: %v", id, err)
		}
	}
	for _, k := range []string{"pending", "stage"} {
		key := redisstore.WorkspaceKey(store.DefaultWorkspace, "run:"+runID+":"+k)
		if n, err := rdb.Exists(ctx, key).Result(); err != nil || n > 0 {
			out = append(out, fmt.Sprintf("key %s (%v)", key, err))
		}
	}
	return out
}

// noLeftovers polls until the run left nothing behind (the sub-task that
// ends a run discards the state just after the final status), or fails
// after patience.
func (s *stack) noLeftovers(runID string, cases int) {
	s.t.Helper()
	deadline := time.Now().Add(patience)
	for {
		left := s.leftovers(runID, cases)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			s.t.Errorf("run %s left behind %v", runID, left)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cancelledClean checks the end state of a cancelled run (see the file
// comment). asked is when the cancel answered 204 (for the log).
func (s *stack) cancelledClean(runID string, cases int, before model.ResultsInfo, asked time.Time) model.Run {
	s.t.Helper()
	t := s.t
	end := s.waitFor(runID, "finished", func(r model.Run) bool { return r.Status.Finished() })
	took := time.Since(asked)
	if end.Status != model.RunCancelled {
		t.Errorf("cancelled run ended %s (%q, warnings %v), want Cancelled", end.Status, end.ErrorMessage, end.Warnings)
	}
	t.Logf("run ended %s %v after the cancel", end.Status, took)
	if after := s.staticInfo(); !sameJSON(t, before, after) {
		t.Errorf("static results changed by a cancelled run:\nbefore %+v\nafter  %+v", before, after)
	}
	s.noLeftovers(runID, cases)
	// The lock is gone with the run: edits and a new run work again.
	s.edit()
	next := s.wait(s.runNonLinear(map[string]any{"loadCases": "1", "loadSteps": 2}).RunID)
	if next.Status != model.RunCompleted {
		t.Errorf("run after the cancel ended %s: %q %v", next.Status, next.ErrorMessage, next.Warnings)
	}
	return end
}

func sameJSON(t testing.TB, a, b any) bool {
	t.Helper()
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return string(ja) == string(jb)
}

// edit changes the model (the headings' notes) and fails the test unless
// it is accepted: the workspace is not locked.
func (s *stack) edit() {
	s.t.Helper()
	if r := s.call("PATCH", "/job/headings", map[string]any{"notes": "edited " + time.Now().String()}); r.status/100 != 2 {
		s.t.Errorf("model edit after the run = %d %s", r.status, r.body)
	}
}

// solvedCases counts the cases a run's messages say were solved.
func solvedCases(run model.Run) int { return len(reportOf(run).cases) }

// cancel cancels a run and returns when the cancel answered.
func (s *stack) cancel(runID string) time.Time {
	s.t.Helper()
	s.must(204, "DELETE", "/job/analysis/runs/"+runID, nil)
	return time.Now()
}

// TestNonLinearCancelWhileSolvingOneWorker: 12 cases on one worker; once
// a case is done (the others queued behind the one under way), the cancel
// removes the queued sub-tasks, the case under way sees it within a tick,
// and the run ends Cancelled with the old results untouched.
func TestNonLinearCancelWhileSolvingOneWorker(t *testing.T) {
	s := startStack(t, 1)
	const cases = 12
	before := slowCases(s, cases)
	run := s.runNonLinear(nlSlow)
	mid := s.waitFor(run.RunID, "one case done", func(r model.Run) bool {
		return r.Progress.LoadCaseCount.Index >= 1 || r.Status.Finished()
	})
	if mid.Status != model.RunRunning {
		t.Fatalf("run %s before the cancel, want Running", mid.Status)
	}
	if c := mid.Progress.LoadCaseCount; c.Count != cases || c.Index >= cases {
		t.Fatalf("loadCaseCount %+v: want %d cases, some not done", c, cases)
	}
	if r := s.call("POST", "/job/analysis/static/run-non-linear", nil); r.status != 409 || r.errorCode(t) != "ANALYSIS_IN_PROGRESS" {
		t.Errorf("second non-linear start during the run = %d %s", r.status, r.body)
	}
	asked := s.cancel(run.RunID)
	// Right after the 204 no queued sub-task is left: at most the one
	// under way.
	var queued []string
	for _, l := range s.leftovers(run.RunID, cases) {
		if strings.Contains(l, "(pending)") || strings.Contains(l, "(scheduled)") || strings.Contains(l, "(retry)") {
			queued = append(queued, l)
		}
	}
	if len(queued) > 0 {
		t.Errorf("queued sub-tasks after the cancel: %v", queued)
	}
	end := s.cancelledClean(run.RunID, cases, before, asked)
	if n := solvedCases(end); n >= cases {
		t.Errorf("every case was solved before the cancel took: %d", n)
	}
}

// TestNonLinearCancelWhileSolvingThreeWorkers: the same with three
// workers, so that several sub-tasks are under way when the cancel comes.
func TestNonLinearCancelWhileSolvingThreeWorkers(t *testing.T) {
	s := startStack(t, 3)
	const cases = 18
	before := slowCases(s, cases)
	run := s.runNonLinear(nlSlow)
	s.waitFor(run.RunID, "solving", func(r model.Run) bool {
		return r.Status == model.RunRunning && len(r.ConvergenceHistory) > 0
	})
	// Wait until more than one sub-task is active, if the workers get
	// there (they wake about once a second).
	rdb := s.redis.Client(t)
	insp := asynq.NewInspectorFromRedisClient(rdb)
	deadline := time.Now().Add(5 * time.Second)
	active := 0
	for time.Now().Before(deadline) {
		tasks, err := insp.ListActiveTasks(queue.QueueAnalysis)
		if err != nil {
			t.Fatal(err)
		}
		if active = len(tasks); active >= 2 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("%d sub-tasks active at the cancel", active)
	asked := s.cancel(run.RunID)
	end := s.cancelledClean(run.RunID, cases, before, asked)
	if n := solvedCases(end); n >= cases {
		t.Errorf("every case was solved before the cancel took: %d", n)
	}
}

// TestNonLinearCancelRightAfterStart: a cancel as soon as the start
// answered ends the run Cancelled, whether the parent was still queued or
// a worker had taken it. With no worker the run ends at once.
func TestNonLinearCancelRightAfterStart(t *testing.T) {
	t.Run("no worker", func(t *testing.T) {
		s := startStack(t, 0)
		before := s.noWorkerCases(4)
		run := s.runNonLinear(nlSlow)
		s.cancel(run.RunID)
		var got model.Run
		s.must(200, "GET", "/job/analysis/runs/"+run.RunID, nil).decode(t, &got)
		if got.Status != model.RunCancelled {
			t.Errorf("queued run after the cancel: %s", got.Status)
		}
		if after := s.staticInfo(); !sameJSON(t, before, after) {
			t.Errorf("results changed: %+v → %+v", before, after)
		}
		if left := s.leftovers(run.RunID, 4); len(left) > 0 {
			t.Errorf("left behind %v", left)
		}
		s.edit()
	})
	t.Run("one worker", func(t *testing.T) {
		s := startStack(t, 1)
		const cases = 6
		before := slowCases(s, cases)
		run := s.runNonLinear(nlSlow)
		asked := s.cancel(run.RunID)
		s.cancelledClean(run.RunID, cases, before, asked)
	})
}

// noWorkerCases builds a model through the API (no worker to run a
// linear analysis first) and returns the (empty) results info.
func (s *stack) noWorkerCases(cases int) model.ResultsInfo {
	s.t.Helper()
	axial := map[int]float64{}
	for c := 1; c <= cases; c++ {
		axial[c] = 0.1
	}
	aiscColumn(s, 4, axial)
	return s.staticInfo()
}

// TestNonLinearCancelWhilePlanning: the cancel comes while the parent task
// reads the model (before any sub-task is queued, when the run has not
// fanned out yet). The parent still queues its sub-tasks; each must count
// itself done without solving, and the last end the run Cancelled. Tried
// a few times, as the planning is short; the test reports whether it hit
// the planning.
func TestNonLinearCancelWhilePlanning(t *testing.T) {
	s := startStack(t, 1)
	const cases = 40
	before := slowCases(s, cases)
	hit := false
	for try := 0; try < 3 && !hit; try++ {
		run := s.runNonLinear(nlSlow)
		var seen model.Run
		s.waitFor(run.RunID, "taken", func(r model.Run) bool {
			seen = r
			return r.Status != model.RunQueued
		})
		asked := s.cancel(run.RunID)
		hit = seen.Status == model.RunRunning && seen.Progress.CurrentStep == 1
		t.Logf("try %d: cancelled at %s step %d %q", try, seen.Status, seen.Progress.CurrentStep, seen.Progress.StatusText)
		end := s.waitFor(run.RunID, "finished", func(r model.Run) bool { return r.Status.Finished() })
		if end.Status != model.RunCancelled {
			t.Fatalf("run cancelled while %q ended %s: %q", seen.Progress.StatusText, end.Status, end.ErrorMessage)
		}
		t.Logf("ended %v after the cancel; %d case(s) solved", time.Since(asked), solvedCases(end))
		if after := s.staticInfo(); !sameJSON(t, before, after) {
			t.Fatalf("results changed: %+v → %+v", before, after)
		}
		s.noLeftovers(run.RunID, cases)
	}
	if !hit {
		t.Log("the cancel never came during the planning (see the analysis package's TestFanOutCancelBeforeFanOutFlag)")
	}
	s.edit()
}

// TestNonLinearLocksWorkspace: while a non-linear run is under way every
// other start is 409 and so are model edits; a finished run frees it.
func TestNonLinearLocksWorkspace(t *testing.T) {
	s := startStack(t, 1)
	slowCases(s, 6)
	run := s.runNonLinear(nlSlow)
	s.waitFor(run.RunID, "running", func(r model.Run) bool { return r.Status == model.RunRunning })
	for _, path := range []string{"/job/analysis/static/run-non-linear", "/job/analysis/static/run-linear",
		"/job/analysis/buckling/run", "/job/analysis/dynamic-frequency/run"} {
		if r := s.call("POST", path, nil); r.status != 409 || r.errorCode(t) != "ANALYSIS_IN_PROGRESS" {
			t.Errorf("POST %s during a non-linear run = %d %s", path, r.status, r.body)
		}
	}
	if r := s.call("POST", "/job/structure/nodes", map[string]any{"x": 1, "y": 1, "z": 1}); r.status != 409 {
		t.Errorf("edit during a non-linear run = %d %s", r.status, r.body)
	}
	if r := s.call("POST", "/job/close", nil); r.status != 409 {
		t.Errorf("close during a non-linear run = %d %s", r.status, r.body)
	}
	done := s.wait(run.RunID)
	if done.Status != model.RunCompleted {
		t.Fatalf("run ended %s: %q", done.Status, done.ErrorMessage)
	}
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"x": 1, "y": 1, "z": 1})
}

// ended waits for a run and checks that it ended as one of want, with a
// message when it Failed.
func (s *stack) ended(runID string, want ...model.RunStatus) model.Run {
	s.t.Helper()
	done := s.wait(runID)
	ok := false
	for _, w := range want {
		ok = ok || done.Status == w
	}
	if !ok {
		s.t.Errorf("run ended %s (%q, warnings %v), want one of %v", done.Status, done.ErrorMessage, done.Warnings, want)
	}
	if done.Status == model.RunFailed && strings.TrimSpace(done.ErrorMessage) == "" {
		s.t.Errorf("run Failed without a message")
	}
	return done
}

// TestNonLinearEdgeSettings: settings at the ends of their ranges through
// HTTP; each run ends (Completed, or Failed with a message) and none
// stays under way or answers 500.
func TestNonLinearEdgeSettings(t *testing.T) {
	s := startStack(t, 1)
	aiscColumn(s, 2, map[int]float64{1: 0.5, 2: 0.3})

	t.Run("1000 steps of 1000 iterations", func(t *testing.T) {
		t0 := time.Now()
		done := s.ended(s.runNonLinear(map[string]any{"loadSteps": 1000, "loadStepIterations": 1000}).RunID,
			model.RunCompleted, model.RunFailed)
		t.Logf("%s in %v, %d history points", done.Status, time.Since(t0), len(done.ConvergenceHistory))
		if len(done.ConvergenceHistory) > model.MaxConvergencePoints {
			t.Errorf("history of %d points, more than %d", len(done.ConvergenceHistory), model.MaxConvergencePoints)
		}
	})
	t.Run("convergenceAccuracy 1e-9", func(t *testing.T) {
		done := s.ended(s.runNonLinear(map[string]any{"convergenceAccuracy": 1e-9, "loadStepIterations": 5}).RunID,
			model.RunCompleted, model.RunFailed)
		// A case that does not converge says where it stopped.
		for _, w := range append(append([]string(nil), done.Warnings...), done.ErrorMessage) {
			if w != "" && !(strings.Contains(w, "step") && strings.Contains(strings.ToLower(w), "residual") || strings.Contains(w, "converge")) {
				t.Errorf("message %q does not name the step and the residual", w)
			}
		}
		t.Logf("%s %q %v", done.Status, done.ErrorMessage, done.Warnings)
	})
	t.Run("dampingFactor 99.99", func(t *testing.T) {
		done := s.ended(s.runNonLinear(map[string]any{"dampingFactor": 99.99, "dampingSteps": 3, "loadSteps": 3}).RunID,
			model.RunCompleted, model.RunFailed)
		t.Logf("%s %q %v", done.Status, done.ErrorMessage, done.Warnings)
	})
	for _, c := range []struct {
		body any
		want string
	}{
		{map[string]any{"dampingFactor": 100}, "dampingFactor"},
		{map[string]any{"loadSteps": 0}, "loadSteps"},
		{map[string]any{"loadSteps": 1001}, "loadSteps"},
		{map[string]any{"loadStepIterations": 0}, "loadStepIterations"},
		{map[string]any{"convergenceAccuracy": 0}, "convergenceAccuracy"},
		{map[string]any{"convergenceAccuracy": -1}, "convergenceAccuracy"},
		{map[string]any{"theory": "Huge"}, "theory"},
		{map[string]any{"loadCases": "1-"}, "loadCases"},
	} {
		r := s.call("POST", "/job/analysis/static/run-non-linear", c.body)
		if r.status != 400 || !strings.Contains(string(r.body), c.want) {
			t.Errorf("run-non-linear %v = %d %s, want 400 naming %s", c.body, r.status, r.body, c.want)
		}
	}
	// Bodies that are not settings: a 4xx with a message, never a 500.
	for _, body := range []string{`{`, `[]`, `"x"`, `{"loadSteps": "ten"}`, `{"loadSteps": 1.5}`, `{"loadSteps": 1e300}`,
		`{"convergenceAccuracy": "NaN"}`, `{"theory": null}`, `{"loadCases": "0"}`, `{"loadCases": "2147483648"}`} {
		r := s.send(s.rawRequest("POST", "/job/analysis/static/run-non-linear", body))
		if r.status/100 != 4 || !strings.Contains(string(r.body), "detail") {
			t.Errorf("run-non-linear %s = %d %s, want a 4xx with a message", body, r.status, r.body)
		}
		if r.status == 202 {
			var run model.Run
			r.decode(t, &run)
			s.wait(run.RunID)
		}
	}
	t.Run("loadCases naming no case", func(t *testing.T) {
		done := s.ended(s.runNonLinear(map[string]any{"loadCases": "77"}).RunID, model.RunFailed)
		if !strings.Contains(done.ErrorMessage, "77") {
			t.Errorf("message %q does not name the list", done.ErrorMessage)
		}
	})
}

// TestNonLinearLargeTheoryRefusals: the large-displacement theories
// refuse member releases and plates; the run Fails with a message naming
// the member or the plate, before any case is queued.
func TestNonLinearLargeTheoryRefusals(t *testing.T) {
	s := startStack(t, 1)
	for _, theory := range []string{"Finite", "Large"} {
		t.Run(theory+" releases", func(t *testing.T) {
			aiscColumn(s, 3, map[int]float64{1: 0.2, 2: 0.3})
			s.must(200, "PATCH", "/job/structure/members/2", map[string]any{
				"releases": map[string]any{"fixityCodeAtA": "FFFFFR", "fixityCodeAtB": "FFFFFF"}})
			run := s.runNonLinear(map[string]any{"theory": theory})
			done := s.ended(run.RunID, model.RunFailed)
			if !strings.Contains(done.ErrorMessage, "member 2") || !strings.Contains(done.ErrorMessage, "release") {
				t.Errorf("message %q does not name member 2 and its releases", done.ErrorMessage)
			}
			if left := s.leftovers(run.RunID, 2); len(left) > 0 {
				t.Errorf("a refused run left %v", left)
			}
			s.must(200, "POST", "/job/close", nil)
		})
		t.Run(theory+" plates", func(t *testing.T) {
			aiscColumn(s, 3, map[int]float64{1: 0.2})
			s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 20, "x": 50, "y": 0, "z": 0})
			s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 21, "x": 50, "y": 50, "z": 0})
			s.must(201, "POST", "/job/structure/plates", map[string]any{"id": 9, "nodeA": 1, "nodeB": 20, "nodeC": 21,
				"material": 1, "actualThickness": 0.5})
			// Plates take part; a thermal load on one does not yet.
			s.must(201, "POST", "/job/loads/thermal-loads", map[string]any{"loadCase": 1, "elementType": "Plate", "elementId": 9,
				"thermalLoad": 10})
			done := s.ended(s.runNonLinear(map[string]any{"theory": theory}).RunID, model.RunFailed)
			if !strings.Contains(done.ErrorMessage, "plate 9") || !strings.Contains(done.ErrorMessage, "thermal") {
				t.Errorf("message %q does not name plate 9 and its thermal load", done.ErrorMessage)
			}
			s.must(200, "POST", "/job/close", nil)
		})
	}
}

// TestNonLinearCombinations: a combination is analysed as its combined
// load (not superposed): a run listing only a combination stores its
// results, non-linear, under the combination's id; and a run of all the
// cases includes the combination.
func TestNonLinearCombinations(t *testing.T) {
	s := startStack(t, 1)
	aiscColumn(s, 10, map[int]float64{1: 0.25, 2: 0.25})
	s.must(201, "POST", "/job/loads/combination-load-cases", map[string]any{"id": 5, "title": "1 + 2",
		"combinationItems": []map[string]any{{"loadCase": 1, "multiplyingFactor": 1}, {"loadCase": 2, "multiplyingFactor": 1}}})
	done := s.ended(s.runNonLinear(map[string]any{"loadCases": "5", "theory": "Small", "loadSteps": 4,
		"convergenceAccuracy": 1e-6}).RunID, model.RunCompleted)
	if done.Progress.LoadCaseCount.Count != 1 {
		t.Errorf("loadCaseCount %+v, want the one combination", done.Progress.LoadCaseCount)
	}
	info := s.staticInfo()
	var got []string
	for _, c := range info.LoadCases {
		if c.HasResults {
			got = append(got, fmt.Sprintf("%d nl=%v", c.LoadCase, c.IsNonLinear))
		}
	}
	if fmt.Sprint(got) != "[5 nl=true]" {
		t.Errorf("cases with results %v, want [5 nl=true]; info %+v", got, info)
	}
	// Combined as one load: 0.5 P_cr on the column, the AISC closed form.
	pcr := math.Pi * math.Pi * aiscE * aiscI / (4 * aiscL * aiscL)
	P := 0.5 * pcr
	disp := query[model.NodeDisplacementRow](s, "node-displacements?loadCases=5&nodes=11")
	k := math.Sqrt(P / (aiscE * aiscI))
	want := 2 * aiscH / (P * k) * (math.Tan(k*aiscL) - k*aiscL)
	if len(disp.Results) != 1 || !near(disp.Results[0].Tx, want, 0.005) {
		t.Errorf("combination tip %+v, want %.5f in (2H with 0.5 P_cr, not superposed)", disp.Results, want)
	}
	all := s.ended(s.runNonLinear(map[string]any{"loadSteps": 4, "convergenceAccuracy": 1e-6}).RunID, model.RunCompleted)
	if all.Progress.LoadCaseCount.Count != 3 {
		t.Errorf("all cases: loadCaseCount %+v, want 3 (two primaries and the combination)", all.Progress.LoadCaseCount)
	}
}

// TestNonLinearRetainAcrossKinds: a linear run of cases 1 and 2, then a
// non-linear run of case 2 with retainLoadCases: case 1 keeps its linear
// results (isNonLinear false), case 2 is non-linear.
func TestNonLinearRetainAcrossKinds(t *testing.T) {
	s := startStack(t, 1)
	aiscColumn(s, 4, map[int]float64{1: 0.3, 2: 0.4, 3: 0.5})
	s.ended(s.run(map[string]any{"loadCases": "1-2"}).RunID, model.RunCompleted)
	lin := query[model.NodeDisplacementRow](s, "node-displacements?loadCases=1&nodes=5")
	s.ended(s.runNonLinear(map[string]any{"loadCases": "2", "retainLoadCases": true}).RunID, model.RunCompleted)
	info := s.staticInfo()
	var got []string
	for _, c := range info.LoadCases {
		got = append(got, fmt.Sprintf("%d:%v/%v", c.LoadCase, c.HasResults, c.IsNonLinear))
	}
	if fmt.Sprint(got) != "[1:true/false 2:true/true 3:false/false]" {
		t.Errorf("results info %v, want case 1 linear, case 2 non-linear, case 3 none", got)
	}
	if again := query[model.NodeDisplacementRow](s, "node-displacements?loadCases=1&nodes=5"); !sameJSON(t, lin, again) {
		t.Errorf("retained case 1 changed: %+v → %+v", lin, again)
	}
	// Without retain, the non-linear run replaces everything.
	s.ended(s.runNonLinear(map[string]any{"loadCases": "3"}).RunID, model.RunCompleted)
	got = got[:0]
	for _, c := range s.staticInfo().LoadCases {
		got = append(got, fmt.Sprintf("%d:%v/%v", c.LoadCase, c.HasResults, c.IsNonLinear))
	}
	if fmt.Sprint(got) != "[1:false/false 2:false/false 3:true/true]" {
		t.Errorf("results info after a run without retain %v", got)
	}
}

// TestNonLinearRetainFailedCase: with retainLoadCases, a case that the
// non-linear run analysed and that failed (past its buckling load) must
// not keep the results of an earlier linear run under a run that said it
// has none: the run's warning says "load case 2 has no results", so the
// results info must agree.
func TestNonLinearRetainFailedCase(t *testing.T) {
	s := startStack(t, 1)
	aiscColumn(s, 10, map[int]float64{1: 0.5, 2: 1.2})
	s.ended(s.run(nil).RunID, model.RunCompleted)
	done := s.ended(s.runNonLinear(map[string]any{"theory": "Small", "loadSteps": 2, "retainLoadCases": true}).RunID, model.RunCompleted)
	if len(done.Warnings) != 1 || !strings.Contains(done.Warnings[0], "load case 2 has no results") {
		t.Fatalf("warnings %q", done.Warnings)
	}
	for _, c := range s.staticInfo().LoadCases {
		if c.LoadCase == 2 && c.HasResults {
			t.Errorf("case 2 failed in the non-linear run (%q) but still shows results (isNonLinear %v): "+
				"the linear results of the earlier run are kept as if the case had not been analysed", done.Warnings[0], c.IsNonLinear)
		}
	}
}
