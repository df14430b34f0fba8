package analysis_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/analysis/kinds"
	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// family returns the standard family named name.
func family(t *testing.T, name model.AnalysisFamily) *analysis.Family {
	t.Helper()
	f := kinds.StandardKinds().Family(name)
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
	_, err := kinds.StandardKinds().CheckSettings(a)
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
	out, err := kinds.StandardKinds().CheckSettings(a)
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

// A file written by hand may spell a family's key in another case; the
// record is read as the family's, and one under the family's own key
// wins.
func TestCheckSettingsReadsKeysInAnyCase(t *testing.T) {
	a := model.AnalysisSettings{"Static": json.RawMessage(`{"loadSteps":7}`), "BUCKLING": json.RawMessage(`{"modes":3}`),
		"buckling": json.RawMessage(`{"modes":4}`)}
	out, err := kinds.StandardKinds().CheckSettings(a)
	if err != nil {
		t.Fatal(err)
	}
	st, err := analysis.SettingsOf[model.StaticSettings](family(t, "static"), out)
	if err != nil || st.LoadSteps != 7 {
		t.Errorf("static loadSteps %d (%v), want 7 from the record keyed Static", st.LoadSteps, err)
	}
	b, err := analysis.SettingsOf[model.BucklingSettings](family(t, "buckling"), out)
	if err != nil || b.Modes != 4 {
		t.Errorf("buckling modes %d (%v), want 4 from the record under its own key", b.Modes, err)
	}
	for _, k := range []string{"Static", "BUCKLING"} {
		if _, ok := out[k]; ok {
			t.Errorf("the record keyed %s is still there beside the family's", k)
		}
	}
}

// Saving writes every family's record over its defaults without
// validating (a job stored under older rules must still save), and
// leaves out the results of families this version does not know (a file
// holding them would not reopen).
func TestPrepareSave(t *testing.T) {
	snap := store.Snapshot{Job: model.Job{Analysis: model.AnalysisSettings{"buckling": json.RawMessage(`{"modes":0}`)}},
		Results: map[model.AnalysisFamily]store.ResultSet{"static": {Meta: []byte(`{}`)}, "future": {Meta: []byte(`{}`)}}}
	kinds.StandardKinds().PrepareSave(&snap)
	for _, f := range kinds.StandardKinds().Families() {
		if _, ok := snap.Job.Analysis[f.SettingsKey]; !ok {
			t.Errorf("no %s record written", f.SettingsKey)
		}
	}
	b, err := analysis.SettingsOf[model.BucklingSettings](family(t, "buckling"), snap.Job.Analysis)
	if err != nil || b.Modes != 0 || b.Tolerance != model.DefaultBucklingSettings().Tolerance {
		t.Errorf("buckling record %+v (%v), want modes kept at 0 and the default tolerance", b, err)
	}
	if _, ok := snap.Results["future"]; ok || len(snap.Results) != 1 {
		t.Errorf("results saved: %v, want the static ones only", snap.Results)
	}
}

// A family that a job file could not carry is refused when registered,
// not when a job is saved.
func TestRegisterRefusesUnstorableFamilies(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    analysis.Family
	}{
		{"underscore in the name", analysis.Family{Name: "moving_load", QueryDir: "m", SettingsKey: "movingLoad", Default: model.DefaultStaticSettings()}},
		{"hyphen in the settings key", analysis.Family{Name: "moving-load", QueryDir: "m", SettingsKey: "moving-load", Default: model.DefaultStaticSettings()}},
		{"no default record", analysis.Family{Name: "moving-load", QueryDir: "m", SettingsKey: "movingLoad"}},
		{"a pointer as the default", analysis.Family{Name: "moving-load", QueryDir: "m", SettingsKey: "movingLoad", Default: &model.DynamicSettings{}}},
		{"the static settings key in another case", analysis.Family{Name: "moving-load", QueryDir: "m", SettingsKey: "Static", Default: model.DefaultStaticSettings()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("registered")
				}
			}()
			kinds.StandardKinds().Register(probeKind{f: &tc.f})
		})
	}
}

// probeKind is a kind of family f that is never run.
type probeKind struct{ f *analysis.Family }

func (k probeKind) Type() model.AnalysisType                                     { return "ProbeAnalysis" }
func (k probeKind) Family() *analysis.Family                                     { return k.f }
func (k probeKind) Describe() string                                             { return "probe" }
func (k probeKind) Start() analysis.StartRoute                                   { return analysis.StartRoute{Path: "probe/run"} }
func (k probeKind) Check(analysis.Settings) error                                { return nil }
func (k probeKind) ResultBytes(analysis.Settings, analysis.Admission) int64      { return 0 }
func (k probeKind) Run(context.Context, *lifecycle.Runner, lifecycle.Task) error { return nil }
