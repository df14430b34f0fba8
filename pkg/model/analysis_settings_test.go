package model_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// fieldMessages returns the failing fields of a validation error by name,
// failing the test for anything else.
func fieldMessages(t *testing.T, err error) map[string]string {
	t.Helper()
	var me *model.Error
	if !errors.As(err, &me) || me.Kind != model.KindValidation || len(me.Fields) == 0 {
		t.Fatalf("want a validation error with fields, got %#v", err)
	}
	out := map[string]string{}
	for _, f := range me.Fields {
		out[f.Field] = f.Message
	}
	return out
}

func TestDefaultAnalysisSettingsAreValid(t *testing.T) {
	def := defaultSettings()
	if err := def.Validate(); err != nil {
		t.Fatalf("defaults do not validate: %v", err)
	}
	// A new job sets no record: the families read their defaults.
	if a := model.NewJob().Analysis; a == nil || len(a) != 0 {
		t.Errorf("NewJob carries analysis settings %v, want none set", a)
	}
	// Every named enum value is one the tags allow.
	s := def.Static
	for _, v := range []string{model.TensionCompressionActivated, model.TensionCompressionNoReversal,
		model.TensionCompressionDeactivated, model.TensionCompressionGradualActivation} {
		s.TensionCompressionOnly = v
		if err := s.Validate(); err != nil {
			t.Errorf("tensionCompressionOnly %s: %v", v, err)
		}
	}
	for _, v := range []string{model.TheorySmall, model.TheoryFinite, model.TheoryLarge} {
		s.Theory = v
		if err := s.Validate(); err != nil {
			t.Errorf("theory %s: %v", v, err)
		}
	}
	for _, v := range [][3]string{{model.MatrixTangent, model.LoadingResidual, model.SteppingParabolic},
		{model.MatrixSecant, model.LoadingFull, model.SteppingFile}} {
		s.MatrixType, s.Loading, s.SteppingMethod = v[0], v[1], v[2]
		if err := s.Validate(); err != nil {
			t.Errorf("%v: %v", v, err)
		}
	}
	b := def.Buckling
	for _, v := range [][2]string{{model.EigenClassic, model.AxialForceNonLinear}, {model.EigenSigncount, model.AxialForceLinear}} {
		b.Theory, b.AxialForceDistribution = v[0], v[1]
		if err := b.Validate(); err != nil {
			t.Errorf("%v: %v", v, err)
		}
	}
	d := def.Dynamic
	d.OptimizationX = 1
	for _, m := range []string{model.OptimizeNone, model.OptimizeAuto, model.OptimizeGeneral, model.OptimizeLinear, model.OptimizeCircular} {
		for _, ax := range []string{model.OptimizationAxisX, model.OptimizationAxisY, model.OptimizationAxisZ, model.OptimizationAxisVector} {
			d.OptimizationMethod, d.OptimizationAxis = m, ax
			for _, p := range []string{model.PlateBC, model.PlateDL} {
				d.PlateType = p
				if err := d.Validate(); err != nil {
					t.Errorf("%s %s %s: %v", m, ax, p, err)
				}
			}
		}
	}
}

// Each rule fails alone, on its own field, with a message that names the
// field and says what is allowed.
func TestAnalysisSettingsRules(t *testing.T) {
	type settings = allSettings
	cases := []struct {
		name   string
		kind   string // static, buckling, dynamic
		change func(*settings)
		field  string
		says   string // part of the message: what is allowed
	}{
		{"unknown tension/compression mode", "static", func(s *settings) { s.Static.TensionCompressionOnly = "Sometimes" }, "tensionCompressionOnly", "Activated, NoReversal, Deactivated, GradualActivation"},
		{"reversalIterations 0", "static", func(s *settings) { s.Static.ReversalIterations = 0 }, "reversalIterations", "from 1 to 1000"},
		{"reversalIterations over the cap", "buckling", func(s *settings) { s.Buckling.ReversalIterations = 1001 }, "reversalIterations", "from 1 to 1000"},
		{"static theory", "static", func(s *settings) { s.Static.Theory = "SigncountEigensolver" }, "theory", "Small, Finite, Large"},
		{"negative damping", "static", func(s *settings) { s.Static.DampingFactor = -1 }, "dampingFactor", "0 or more"},
		{"damping of 100 %", "static", func(s *settings) { s.Static.DampingFactor = 100 }, "dampingFactor", "less than 100"},
		{"negative damping steps", "static", func(s *settings) { s.Static.DampingSteps = -1 }, "dampingSteps", "from 0 to 1000"},
		{"no load steps", "static", func(s *settings) { s.Static.LoadSteps = 0 }, "loadSteps", "from 1 to 1000"},
		{"zero convergence accuracy", "static", func(s *settings) { s.Static.ConvergenceAccuracy = 0 }, "convergenceAccuracy", "greater than 0 and less than 100"},
		{"load step iterations 0", "static", func(s *settings) { s.Static.LoadStepIterations = 0 }, "loadStepIterations", "from 1 to 1000"},
		{"matrix type", "static", func(s *settings) { s.Static.MatrixType = "Diagonal" }, "matrixType", "Secant, Tangent"},
		{"loading", "static", func(s *settings) { s.Static.Loading = "Half" }, "loading", "Full, Residual"},
		{"stepping method", "static", func(s *settings) { s.Static.SteppingMethod = "Cubic" }, "steppingMethod", "Linear, Parabolic, File"},
		{"optimisation method", "static", func(s *settings) { s.Static.OptimizationMethod = "Best" }, "optimizationMethod", "None, Auto, General, Linear, Circular"},
		{"optimisation axis", "buckling", func(s *settings) { s.Buckling.OptimizationAxis = "W" }, "optimizationAxis", "X, Y, Z, Vector"},
		{"zero optimisation vector", "dynamic", func(s *settings) {
			s.Dynamic.OptimizationMethod, s.Dynamic.OptimizationAxis = model.OptimizeLinear, model.OptimizationAxisVector
		}, "optimizationAxis", "non-zero vector"},
		{"optimisation coordinate beyond 1e20", "static", func(s *settings) { s.Static.OptimizationY = 1e21 }, "optimizationY", "finite number"},
		{"NaN drilling stiffness", "static", func(s *settings) { s.Static.DrillingStiffness = math.NaN() }, "drillingStiffness", "finite number"},
		{"negative drilling stiffness", "dynamic", func(s *settings) { s.Dynamic.DrillingStiffness = -1 }, "drillingStiffness", "greater than 0"},
		// Without a drilling stiffness a plate's in-plane rotation is a
		// mechanism wherever no member holds it.
		{"zero drilling stiffness", "buckling", func(s *settings) { s.Buckling.DrillingStiffness = 0 }, "drillingStiffness", "greater than 0"},
		{"solver name", "static", func(s *settings) { s.Static.SolverType = "Cloud" }, "solverType", "Paradise, Wavefront (or the integer codes 0 and 1)"},
		{"plate type", "buckling", func(s *settings) { s.Buckling.PlateType = "QuadPlates" }, "plateType", "BCPlates, DLPlates"},
		{"load case list syntax", "static", func(s *settings) { s.Static.LoadCases = "1,,3" }, "loadCases", "empty item"},
		{"load case id 0", "dynamic", func(s *settings) { s.Dynamic.LoadCases = "0" }, "loadCases", "range like 3-7"},
		{"backward range", "buckling", func(s *settings) { s.Buckling.LoadCases = "7-3" }, "loadCases", "runs backwards"},
		{"zero tolerance", "buckling", func(s *settings) { s.Buckling.Tolerance = 0 }, "tolerance", "greater than 0 and less than 1"},
		{"tolerance of 1", "dynamic", func(s *settings) { s.Dynamic.Tolerance = 1 }, "tolerance", "greater than 0 and less than 1"},
		{"no modes", "buckling", func(s *settings) { s.Buckling.Modes = 0 }, "modes", "from 1 to 1000"},
		{"too many modes", "dynamic", func(s *settings) { s.Dynamic.Modes = 1001 }, "modes", "from 1 to 1000"},
		{"buckling limits reversed", "buckling", func(s *settings) { s.Buckling.LowerLimit, s.Buckling.UpperLimit = 5, 2 }, "lowerLimit", "upperLimit to 0"},
		{"axial force distribution", "buckling", func(s *settings) { s.Buckling.AxialForceDistribution = "Cubic" }, "axialForceDistribution", "Linear, NonLinear"},
		{"buckling theory", "buckling", func(s *settings) { s.Buckling.Theory = model.TheorySmall }, "theory", "SigncountEigensolver, ClassicEigensolver"},
		{"negative frequency limit", "dynamic", func(s *settings) { s.Dynamic.UpperLimit = -1 }, "upperLimit", "0 or more"},
		{"frequency limits reversed", "dynamic", func(s *settings) { s.Dynamic.LowerLimit, s.Dynamic.UpperLimit = 30, 10 }, "lowerLimit", "must be below upperLimit"},
		{"frequency limits equal", "dynamic", func(s *settings) { s.Dynamic.LowerLimit, s.Dynamic.UpperLimit = 10, 10 }, "lowerLimit", "must be below upperLimit"},
		// Buckling finds positive load factors only: loads reversed are
		// another case.
		{"negative buckling limit", "buckling", func(s *settings) { s.Buckling.LowerLimit = -1 }, "lowerLimit", "0 or more"},
		{"negative frequency shift", "dynamic", func(s *settings) { s.Dynamic.FrequencyShift = -0.5 }, "frequencyShift", "0 or more"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := defaultSettings()
			tc.change(&s)
			err := map[string]error{"static": s.Static.Validate(), "buckling": s.Buckling.Validate(), "dynamic": s.Dynamic.Validate()}[tc.kind]
			got := fieldMessages(t, err)
			msg, ok := got[tc.field]
			if !ok || len(got) != 1 {
				t.Fatalf("failing fields %v, want only %s", got, tc.field)
			}
			if !strings.Contains(msg, tc.field) || !strings.Contains(msg, tc.says) {
				t.Errorf("message %q does not name %s and say %q", msg, tc.field, tc.says)
			}
			if err := s.Validate(); err == nil || !strings.Contains(err.Error(), tc.field) {
				t.Errorf("AnalysisSettings.Validate = %v, want it to report %s", err, tc.field)
			}
		})
	}
}

// Values at the edges of the rules pass.
func TestAnalysisSettingsEdgesPass(t *testing.T) {
	s := defaultSettings()
	s.Static.DampingFactor, s.Static.DampingSteps, s.Static.LoadSteps, s.Static.ConvergenceAccuracy = 99.9, 1000, 1000, 0.001
	s.Buckling.LowerLimit, s.Buckling.UpperLimit = 0, 2
	s.Buckling.Modes, s.Dynamic.Modes = 1, 1000
	s.Dynamic.LowerLimit, s.Dynamic.UpperLimit = 50, 0 // upper 0: no upper limit
	s.Dynamic.OptimizationMethod, s.Dynamic.OptimizationAxis, s.Dynamic.OptimizationZ = model.OptimizeCircular, model.OptimizationAxisVector, 1
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestAnalysisSettingsReportEveryField(t *testing.T) {
	s := defaultSettings().Static
	s.LoadCases, s.Theory, s.LoadSteps, s.SolverType, s.DrillingStiffness = "x", "Huge", 0, "Cloud", -2
	got := fieldMessages(t, s.Validate())
	for _, f := range []string{"loadCases", "theory", "loadSteps", "solverType", "drillingStiffness"} {
		if _, ok := got[f]; !ok {
			t.Errorf("%s not reported; got %v", f, got)
		}
	}
	if len(got) != 5 {
		t.Errorf("got %d failing fields, want 5: %v", len(got), got)
	}
	// Across families the field names carry the family: see
	// analysis.TestCheckSettingsNamesTheFamily, where the families are.
}

// idList writes n entries, alternating ids and ranges, none adjacent.
func idList(n int) string {
	parts := make([]string, n)
	for i := range parts {
		if i%2 == 0 {
			parts[i] = fmt.Sprint(10*i + 1)
		} else {
			parts[i] = fmt.Sprintf("%d-%d", 10*i+1, 10*i+3)
		}
	}
	return strings.Join(parts, ",")
}

// consecutive writes the ids 1 to n one by one: n entries, one range.
func consecutive(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprint(i + 1)
	}
	return strings.Join(parts, ",")
}

func TestLoadCasesEntries(t *testing.T) {
	cases := []struct {
		name, list string
		ok         bool
	}{
		{"empty means all", "", true},
		{"50 entries", idList(50), true},
		{"51 entries", idList(51), false},
		{"a range counts as one", "1-3" + idList(50)[1:], true},
		{"entries count as written", consecutive(51), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := defaultSettings().Buckling
			s.LoadCases = tc.list
			err := s.Validate()
			if tc.ok && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !tc.ok {
				if msg := fieldMessages(t, err)["loadCases"]; !strings.Contains(msg, "at most 50") {
					t.Errorf("message %q does not give the limit", msg)
				}
			}
		})
	}
	a := defaultSettings()
	a.Static.LoadCases, a.Dynamic.LoadCases = " 7, 1-3,2 ", "bad"
	a.Normalize()
	if a.Static.LoadCases != "1-3,7" || a.Dynamic.LoadCases != "bad" {
		t.Errorf("normalised to %q and %q", a.Static.LoadCases, a.Dynamic.LoadCases)
	}
	if list, ok := a.Static.LoadCaseList(); !ok || !list.Contains(2) || list.Contains(5) {
		t.Errorf("LoadCaseList = %v, %v", list, ok)
	}
	if _, ok := a.Buckling.LoadCaseList(); ok {
		t.Errorf("an empty list must mean all")
	}
}

func TestSolverTypeJSON(t *testing.T) {
	cases := []struct {
		json string
		want model.SolverType
		err  string // part of the message when refused
	}{
		{`0`, model.SolverParadise, ""},
		{`1`, model.SolverWavefront, ""},
		{`1.0`, model.SolverWavefront, ""},
		{`"Paradise"`, model.SolverParadise, ""},
		{`"Wavefront"`, model.SolverWavefront, ""},
		{`2`, "", "legacy solver"},
		{`3`, "", "cloud solver"},
		{`7`, "", "not a solver code"},
		{`true`, "", "name or an integer code"},
	}
	for _, tc := range cases {
		t.Run(tc.json, func(t *testing.T) {
			s := defaultSettings().Dynamic
			err := json.Unmarshal([]byte(`{"solverType": `+tc.json+`}`), &s)
			if tc.err == "" {
				if err != nil || s.SolverType != tc.want {
					t.Fatalf("got %q, %v; want %q", s.SolverType, err, tc.want)
				}
				b, _ := json.Marshal(s)
				if !strings.Contains(string(b), `"solverType":"`+string(tc.want)+`"`) {
					t.Errorf("output %s does not carry the name", b)
				}
				return
			}
			msg := fieldMessages(t, err)["solverType"]
			if !strings.Contains(msg, tc.err) || !strings.Contains(msg, "Paradise (or 0), Wavefront (or 1)") {
				t.Errorf("message %q does not say %q and what is allowed", msg, tc.err)
			}
		})
	}
}

// allSettings holds the settings record of each standard family, as the
// tests change them.
type allSettings struct {
	Static   model.StaticSettings
	Buckling model.BucklingSettings
	Dynamic  model.DynamicSettings
}

// defaultSettings returns the records of a new job.
func defaultSettings() allSettings {
	return allSettings{model.DefaultStaticSettings(), model.DefaultBucklingSettings(), model.DefaultDynamicSettings()}
}

// Validate reports the failures of every record.
func (a allSettings) Validate() error {
	return errors.Join(a.Static.Validate(), a.Buckling.Validate(), a.Dynamic.Validate())
}

// Normalize normalises every record.
func (a *allSettings) Normalize() {
	a.Static.Normalize()
	a.Buckling.Normalize()
	a.Dynamic.Normalize()
}

// The optimisation axis and vector are checked and kept for the desktop
// program's files but reach no analysis (the equation ordering is
// automatic): their docs, which the metadata and the API document show,
// must say so in every settings kind.
func TestIgnoredSettingsSayIgnored(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeOf(model.StaticSettings{}), reflect.TypeOf(model.BucklingSettings{}),
		reflect.TypeOf(model.DynamicSettings{})} {
		for _, name := range []string{"optimizationAxis", "optimizationX", "optimizationY", "optimizationZ"} {
			t.Run(typ.Name()+"."+name, func(t *testing.T) {
				f, ok := model.DefOf(typ).ByName[name]
				if !ok {
					t.Fatal("no such field")
				}
				if !strings.Contains(f.Doc, "ignored") {
					t.Errorf("doc %q does not say the field is ignored", f.Doc)
				}
			})
		}
	}
}

// The upper bounds in the struct tags are the limits' constants written
// again (a tag cannot name a constant): the constants are what the docs
// cite, so a tag that drifted from them would make the docs wrong.
func TestSettingsBoundsAreTheLimits(t *testing.T) {
	tests := []struct {
		typ    reflect.Type
		fields []string
		max    float64
	}{
		{reflect.TypeOf(model.BucklingSettings{}), []string{"modes"}, model.MaxModesSetting},
		{reflect.TypeOf(model.DynamicSettings{}), []string{"modes"}, model.MaxModesSetting},
		{reflect.TypeOf(model.StaticSettings{}), []string{"reversalIterations", "dampingSteps", "loadSteps", "loadStepIterations"}, model.MaxIterations},
		{reflect.TypeOf(model.BucklingSettings{}), []string{"reversalIterations"}, model.MaxIterations},
	}
	for _, tt := range tests {
		for _, name := range tt.fields {
			t.Run(tt.typ.Name()+"."+name, func(t *testing.T) {
				f, ok := model.DefOf(tt.typ).ByName[name]
				if !ok {
					t.Fatal("no such field")
				}
				switch {
				case f.Max == nil:
					t.Errorf("no max, want %g", tt.max)
				case *f.Max != tt.max:
					t.Errorf("max %g, want %g", *f.Max, tt.max)
				}
			})
		}
	}
}
