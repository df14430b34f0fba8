package analysis_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/model"
)

// family returns the standard family named name.
func family(t *testing.T, name model.AnalysisFamily) *analysis.Family {
	t.Helper()
	f := analysis.StandardKinds().Family(name)
	if f == nil {
		t.Fatalf("no family %s", name)
	}
	return f
}

// A job file's settings are checked across families at once, each field
// named with its family's key.
func TestCheckSettingsNamesTheFamily(t *testing.T) {
	a := model.AnalysisSettings{"buckling": json.RawMessage(`{"modes":0}`),
		"dynamicFrequency": json.RawMessage(`{"tolerance":-1}`), "static": json.RawMessage(`{"loadCases":" 7, 1-3,2 "}`)}
	_, err := analysis.StandardKinds().CheckSettings(a)
	var me *model.Error
	if !errors.As(err, &me) {
		t.Fatalf("CheckSettings = %v, want field errors", err)
	}
	got := map[string]bool{}
	for _, f := range me.Fields {
		got[f.Field] = true
	}
	if !got["buckling.modes"] || !got["dynamicFrequency.tolerance"] || len(got) != 2 {
		t.Errorf("fields %v, want buckling.modes and dynamicFrequency.tolerance", got)
	}

	// Valid settings come back with their load case lists normalised,
	// and the records of families nobody registered kept as they are.
	a = model.AnalysisSettings{"static": json.RawMessage(`{"loadCases":" 7, 1-3,2 "}`), "future": json.RawMessage(`{"x":1}`)}
	out, err := analysis.StandardKinds().CheckSettings(a)
	if err != nil {
		t.Fatal(err)
	}
	s, err := analysis.SettingsOf[model.StaticSettings](family(t, "static"), out)
	if err != nil || s.LoadCases != "1-3,7" {
		t.Errorf("normalised loadCases %q (%v), want 1-3,7", s.LoadCases, err)
	}
	if string(out["future"]) != `{"x":1}` || string(a["static"]) != `{"loadCases":" 7, 1-3,2 "}` {
		t.Errorf("CheckSettings changed what it was given or dropped a record: %s, %s", out["future"], a["static"])
	}
}

// A workspace or file stored by a version that allowed drillingStiffness
// 0 (which the engine read as 1) reads back as 1, so that the present
// rule (> 0) does not refuse every later settings change or run override;
// other values and the fields a record lacks (the defaults) are kept.
func TestStoredZeroDrillingStiffnessReadsAsOne(t *testing.T) {
	a := model.AnalysisSettings{"static": json.RawMessage(`{"drillingStiffness":0}`),
		"buckling": json.RawMessage(`{"drillingStiffness":0}`), "dynamicFrequency": json.RawMessage(`{"drillingStiffness":2.5}`)}
	for _, tc := range []struct {
		name model.AnalysisFamily
		want float64
	}{{"static", 1}, {"buckling", 1}, {"dynamic-frequency", 2.5}} {
		t.Run(string(tc.name), func(t *testing.T) {
			s, err := family(t, tc.name).Settings(a)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(); err != nil {
				t.Errorf("the settings read back do not validate: %v", err)
			}
			d := map[model.AnalysisFamily]float64{}
			switch r := s.(type) {
			case model.StaticSettings:
				d[tc.name] = r.DrillingStiffness
			case model.BucklingSettings:
				d[tc.name] = r.DrillingStiffness
			case model.DynamicSettings:
				d[tc.name] = r.DrillingStiffness
			}
			if d[tc.name] != tc.want {
				t.Errorf("drilling stiffness read as %g, want %g", d[tc.name], tc.want)
			}
		})
	}
	// The defaults fill in what a record lacks.
	s, err := analysis.SettingsOf[model.DynamicSettings](family(t, "dynamic-frequency"), a)
	if err != nil || s.Modes != model.DefaultDynamicSettings().Modes {
		t.Errorf("modes %d (%v), want the default %d", s.Modes, err, model.DefaultDynamicSettings().Modes)
	}
}
