package server

import (
	"math"
	"strings"
	"testing"
)

// A plate is created from its corners alone (the interface makes only
// nodeA, nodeB and nodeC required); an analysis then refuses to start, a
// 400 naming the plate and what it lacks, with nothing queued; once the
// plate has a material and a thickness the same start runs. The model: a
// 2 m × 2 m plate (default job units: m, mm, kN, MPa, pressures in kPa)
// with its four corners fixed, under a pressure of 10 kPa: the corners
// carry it all, so the reactions sum to p·A = 10 kN/m² × 4 m² = 40 kN up
// (statics; 1e-9 relative covers the solver's round-off on a 24-equation
// system).
func TestPlateWithoutMaterialOrThicknessRefusesAnalysis(t *testing.T) {
	s := startStack(t, 1)
	s.must(200, "POST", "/job/new", nil)
	s.must(200, "POST", "/job/structure/nodes/bulk", []map[string]any{
		{"id": 1, "x": 0, "y": 0, "z": 0}, {"id": 2, "x": 2, "y": 0, "z": 0}, {"id": 3, "x": 2, "y": 2, "z": 0}, {"id": 4, "x": 0, "y": 2, "z": 0}})
	var plate struct {
		ID              int64   `json:"id"`
		Material        int64   `json:"material"`
		ActualThickness float64 `json:"actualThickness"`
	}
	s.must(201, "POST", "/job/structure/plates", map[string]any{"nodeA": 1, "nodeB": 2, "nodeC": 3, "nodeD": 4}).decode(t, &plate)
	if plate.Material != 0 || plate.ActualThickness != 0 {
		t.Errorf("a plate created from its corners: %+v, want material 0 and actualThickness 0 (none yet)", plate)
	}
	var supports []map[string]any
	for n := 1; n <= 4; n++ {
		supports = append(supports, map[string]any{"node": n, "restraintCode": "FFFFFF"})
	}
	s.must(200, "POST", "/job/structure/node-restraints/bulk", supports)
	s.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": 1, "title": "q"})
	s.must(201, "POST", "/job/loads/plate-pressure-loads", map[string]any{"loadCase": 1, "plate": plate.ID, "axes": "Local", "pz": -10})

	refusals := []struct {
		name  string
		patch map[string]any // applied before the start
		lacks []string
	}{
		{"neither", nil, []string{"material", "actualThickness"}},
		{"no thickness", map[string]any{"material": 1}, []string{"actualThickness"}},
	}
	s.must(201, "POST", "/job/structure/materials", map[string]any{"id": 1, "name": "steel", "youngsModulus": 200000, "poissonsRatio": 0.3, "massDensity": 7.85})
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			if tt.patch != nil {
				s.must(200, "PATCH", "/job/structure/plates/1", tt.patch)
			}
			r := s.call("POST", "/job/analysis/static/run-linear", nil)
			var body struct {
				ErrorCode string `json:"errorCode"`
				Detail    string `json:"detail"`
				Errors    []struct{ Field, Message string }
			}
			r.decode(t, &body)
			if r.status != 400 || body.ErrorCode != "VALIDATION_FAILED" || !strings.Contains(body.Detail, "plate 1 has no "+strings.Join(tt.lacks, " and no ")) {
				t.Fatalf("start = %d %s, want 400 VALIDATION_FAILED naming plate 1 and %v", r.status, r.body, tt.lacks)
			}
			if len(body.Errors) != len(tt.lacks) {
				t.Errorf("errors %+v, want one per property lacking %v", body.Errors, tt.lacks)
			}
			for i, f := range tt.lacks {
				if i < len(body.Errors) && body.Errors[i].Field != f {
					t.Errorf("errors[%d] names %q, want %q", i, body.Errors[i].Field, f)
				}
			}
			var runs []any
			if s.must(200, "GET", "/job/analysis/runs", nil).decode(t, &runs); len(runs) != 0 {
				t.Errorf("a refused start queued a run: %v", runs)
			}
		})
	}

	s.must(200, "PATCH", "/job/structure/plates/1", map[string]any{"actualThickness": 20})
	if run := s.wait(s.run(nil).RunID); run.Status != "Completed" {
		t.Fatalf("the run of the completed plate ended %s: %s", run.Status, run.ErrorMessage)
	}
	type summaryRow struct {
		SummaryType string  `json:"summaryType"`
		Fz          float64 `json:"fz"`
	}
	found := false
	for _, row := range query[summaryRow](s, "reaction-summary").Results {
		if row.SummaryType != "Reaction" {
			continue
		}
		found = true
		if math.Abs(row.Fz-40)/40 > 1e-9 {
			t.Errorf("sum of the vertical reactions %.12g kN, want 40 (p·A)", row.Fz)
		}
	}
	if !found {
		t.Error("the reaction summary has no Reaction row")
	}
}
