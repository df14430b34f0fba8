package server

// Where the service meets or knowingly differs from the interface
// contract, end to end with workers (README "Differences from the
// contract"; pkg/httpapi/contract_test.go has the rest).

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// D10: without an open job every run start is a 409 NO_JOB_OPEN, as the
// desktop program's API answers (the contract lists 409 for run starts
// too, and 404 for settings, which answer 409 as well).
func TestRunStartWithoutJobIsConflict(t *testing.T) {
	s := startStack(t, 1)
	for _, path := range []string{"static/run-linear", "static/run-non-linear", "buckling/run", "dynamic-frequency/run"} {
		t.Run(path, func(t *testing.T) {
			if r := s.call("POST", "/job/analysis/"+path, nil); r.status != 409 || r.errorCode(t) != "NO_JOB_OPEN" {
				t.Errorf("status %d: %s", r.status, r.body)
			}
		})
	}
}

// D13: a filter naming ids the model lacks is a 400 whether or not an
// analysis has run; only a good filter meets the 409 of no results.
func TestUnknownFilterIDsBeforeAndAfterAnalysis(t *testing.T) {
	s := startStack(t, 1)
	proppedCantilever(s) // nodes 1-2, member 1, cases 1-3, no plates
	bad := []struct{ query, field string }{
		{"static/member-end-forces?members=999", "members"},
		{"static/member-stresses?members=1,5-7", "members"},
		{"static/node-displacements?nodes=3", "nodes"},
		{"static/node-reactions?loadCases=1&nodes=1-1000000", "nodes"},
		{"static/plate-element-forces?plates=1", "plates"},
		{"static/reaction-summary?loadCases=9", "loadCases"},
		{"buckling/member-effective-lengths?members=2", "members"},
		{"buckling/load-factors?loadCases=4", "loadCases"},
		{"dynamic/mode-shapes?nodes=7", "nodes"},
	}
	check := func(t *testing.T, state string) {
		t.Helper()
		for _, tc := range bad {
			r := s.call("GET", "/job/query/analysis/"+tc.query, nil)
			if r.status != 400 || r.errorCode(t) != "VALIDATION_FAILED" || !strings.Contains(string(r.body), tc.field+": the model has no") {
				t.Errorf("%s %s: %d %s", state, tc.query, r.status, r.body)
			}
		}
	}
	check(t, "before any analysis")
	// A filter the model satisfies still meets the 409 of no results.
	if r := s.call("GET", "/job/query/analysis/static/member-end-forces?members=1&loadCases=1-3", nil); r.status != 409 {
		t.Errorf("a good filter before any analysis: %d %s", r.status, r.body)
	}
	if run := s.wait(s.run(nil).RunID); run.Status != model.RunCompleted {
		t.Fatalf("run %s: %s", run.Status, run.ErrorMessage)
	}
	bad = bad[:6] // the static ones: the eigen kinds still have no results
	check(t, "after a static analysis")
}

// D12: the results info spells its flags hasResults, at the top and per
// case, as the wire names do; the contract's per-case HasResults is read
// as a slip of the pen (no other name of the contract is capitalised).
func TestResultsInfoSpellsHasResults(t *testing.T) {
	s := startStack(t, 1)
	proppedCantilever(s)
	// Case 2 alone: combination 3 (1.5 × case 1) has no component run.
	if run := s.wait(s.run(map[string]any{"loadCases": "2"}).RunID); run.Status != model.RunCompleted {
		t.Fatalf("run %s: %s", run.Status, run.ErrorMessage)
	}
	var info map[string]any
	s.must(200, "GET", "/job/analysis/static/info", nil).decode(t, &info)
	if info["hasResults"] != true || info["notAnalyzed"] != "1,3" {
		t.Errorf("info %v", info)
	}
	cases, _ := info["loadCases"].([]any)
	if len(cases) != 3 {
		t.Fatalf("loadCases %v", info["loadCases"])
	}
	for _, c := range cases {
		row, _ := c.(map[string]any)
		want := row["loadCase"] == 2.0
		if _, wrong := row["HasResults"]; wrong || row["hasResults"] != want {
			t.Errorf("case %v: %v (want hasResults %v, no HasResults)", row["loadCase"], row, want)
		}
	}
}

// pressurePlate is a 2 m × 3 m Mindlin plate in the X–Z plane (Y up),
// fixed at its four corners, with case 1 a GlobalInclined py of -5 in the
// job's pressure unit.
func pressurePlate(s *stack) {
	s.t.Helper()
	s.must(200, "POST", "/job/new", nil)
	s.must(201, "POST", "/job/structure/materials", map[string]any{"id": 1, "name": "concrete", "youngsModulus": 30000,
		"poissonsRatio": 0.2, "massDensity": 2.4})
	s.must(200, "POST", "/job/structure/nodes/bulk", []map[string]any{{"id": 1, "x": 0, "y": 0, "z": 0},
		{"id": 2, "x": 2, "y": 0, "z": 0}, {"id": 3, "x": 2, "y": 0, "z": 3}, {"id": 4, "x": 0, "y": 0, "z": 3}})
	s.must(201, "POST", "/job/structure/plates", map[string]any{"id": 1, "nodeA": 1, "nodeB": 2, "nodeC": 3, "nodeD": 4,
		"material": 1, "actualThickness": 200, "theory": "Mindlin"})
	for n := 1; n <= 4; n++ {
		s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": n, "restraintCode": "FFFFFF"})
	}
	s.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": 1, "title": "q"})
	s.must(201, "POST", "/job/loads/plate-pressure-loads", map[string]any{"loadCase": 1, "plate": 1, "axes": "GlobalInclined", "py": -5})
}

// wantReactionY runs a linear analysis and checks the total vertical
// reaction: the pressure times the plate's area, 5 kPa × (2 m × 3 m) =
// 30 kN upward (the applied load row is its negative). A linear solve
// balances its loads to round-off: 1e-9 relative.
func wantReactionY(t *testing.T, s *stack, want float64) {
	t.Helper()
	if run := s.wait(s.run(nil).RunID); run.Status != model.RunCompleted {
		t.Fatalf("run %s: %s", run.Status, run.ErrorMessage)
	}
	for _, r := range query[model.ReactionSummaryRow](s, "reaction-summary?loadCases=1").Results {
		w := map[string]float64{"Load": -want, "Reaction": want}[r.SummaryType]
		if r.SummaryType != "Residual" && math.Abs(r.Fy-w) > 1e-9*want {
			t.Errorf("%s fy = %.12g kN, want %g kN", r.SummaryType, r.Fy, w)
		}
	}
}

// Plate pressures are read in the job's pressure unit: kPa in a new job.
// A job file saved without a pressure unit (before it existed) reads its
// pressures in its stress unit, as they were then read, so it keeps its
// meaning: the same 5 kPa shows as 0.005 MPa and analyses the same.
func TestPlatePressureUnit(t *testing.T) {
	s, dir := startStackDir(t, 1)
	pressurePlate(s)
	wantReactionY(t, s, 30)

	s.must(201, "POST", "/job/save", map[string]any{"filePath": "slab"})
	s.must(200, "POST", "/job/close", nil)
	file := jobFileBytes(t, dir, "slab.gsj")
	old := rezip(t, file, map[string]func([]byte) []byte{"job/units.json": func(b []byte) []byte {
		return mustReplace(t, b, ",\n  \"pressure\": \"kPa\"", "")
	}})
	s.upload(old)
	var u model.Units
	s.must(200, "GET", "/job/units", nil).decode(t, &u)
	if u.Pressure != "MPa" || u.Stress != "MPa" {
		t.Fatalf("a job file without a pressure unit: pressure %q, stress %q", u.Pressure, u.Stress)
	}
	var l model.PlatePressureLoad
	s.must(200, "GET", "/job/loads/plate-pressure-loads/1/1", nil).decode(t, &l)
	if math.Abs(l.Py+0.005) > 1e-15 {
		t.Errorf("py = %g MPa, want -0.005 (5 kPa)", l.Py)
	}
	wantReactionY(t, s, 30)
	// Saved again, the file states its pressure unit and keeps it.
	s.must(201, "POST", "/job/save", map[string]any{"filePath": "slab-again"})
	s.must(200, "POST", "/job/close", nil)
	s.upload(jobFileBytes(t, dir, "slab-again.gsj"))
	s.must(200, "GET", "/job/units", nil).decode(t, &u)
	if u.Pressure != "MPa" {
		t.Errorf("saved again: pressure %q, want MPa", u.Pressure)
	}
}

// jobFileBytes reads the job file name of the jobs directory dir.
func jobFileBytes(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
