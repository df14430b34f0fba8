package httpapi_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
)

const ap = "/job/analysis"

// settingsPaths are the settings routes of the three analysis kinds.
var settingsPaths = []string{ap + "/static/settings", ap + "/buckling/settings", ap + "/dynamic-frequency/settings"}

// settingsSet holds the settings record of each of the three families.
type settingsSet struct {
	Static   model.StaticSettings
	Buckling model.BucklingSettings
	Dynamic  model.DynamicSettings
}

// defaultSettingsSet returns the records of a new job.
func defaultSettingsSet() settingsSet {
	return settingsSet{model.DefaultStaticSettings(), model.DefaultBucklingSettings(), model.DefaultDynamicSettings()}
}

// allSettings reads the settings of the three kinds.
func allSettings(t *testing.T, e *env) settingsSet {
	t.Helper()
	var a settingsSet
	e.must(200, "GET", settingsPaths[0], nil).decode(t, &a.Static)
	e.must(200, "GET", settingsPaths[1], nil).decode(t, &a.Buckling)
	e.must(200, "GET", settingsPaths[2], nil).decode(t, &a.Dynamic)
	return a
}

// fieldsOf names the fields of an error response.
func fieldsOf(er httpapi.ErrorResponse) map[string]string {
	out := map[string]string{}
	for _, x := range er.Errors {
		out[x.Field] = x.Message
	}
	return out
}

func TestAnalysisSettingsDefaults(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, p := range settingsPaths {
		e.wantError(409, "NO_JOB_OPEN", "GET", p, nil)
		e.wantError(409, "NO_JOB_OPEN", "PATCH", p, map[string]any{"solverType": "Wavefront"})
		e.wantError(409, "NO_JOB_OPEN", "GET", p+"/metadata", nil)
	}
	e.must(200, "POST", "/job/new", nil)
	if got, want := allSettings(t, e), defaultSettingsSet(); got != want {
		t.Errorf("defaults\n got %+v\nwant %+v", got, want)
	}
	var raw map[string]any
	e.must(200, "GET", settingsPaths[0], nil).decode(t, &raw)
	if raw["solverType"] != "Paradise" || raw["loadCases"] != "" || raw["optimizationMethod"] != "Auto" {
		t.Errorf("static settings JSON %v", raw)
	}
	// The job record keeps its shape.
	var job map[string]any
	e.must(200, "GET", "/job", nil).decode(t, &job)
	if _, ok := job["analysis"]; ok || len(job) != 3 {
		t.Errorf("GET /job has members %v", job)
	}
	if status(t, e).State.IsModified {
		t.Errorf("reading the settings modified the job")
	}
	e.wantError(404, "NOT_FOUND", "GET", ap+"/modal/settings", nil)
}

func TestAnalysisSettingsPatch(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	def := defaultSettingsSet()
	cases := []struct {
		name  string
		path  string
		body  map[string]any
		apply func(*settingsSet) // what the body changes
	}{
		{"static non-linear fields", settingsPaths[0],
			map[string]any{"loadSteps": 25, "theory": "Large", "pDeltaSmall": false, "loadCases": " 7, 1-3,2"},
			func(a *settingsSet) {
				a.Static.LoadSteps, a.Static.Theory, a.Static.PDeltaSmall, a.Static.LoadCases = 25, "Large", false, "1-3,7"
			}},
		{"solver as integer code", settingsPaths[0], map[string]any{"solverType": 1},
			func(a *settingsSet) { a.Static.SolverType = model.SolverWavefront }},
		{"solver code 0", settingsPaths[0], map[string]any{"solverType": 0},
			func(a *settingsSet) { a.Static.SolverType = model.SolverParadise }},
		{"buckling range and modes", settingsPaths[1], map[string]any{"modes": 12, "upperLimit": 20, "lowerLimit": 5,
			"theory": "ClassicEigensolver", "axialForceDistribution": "NonLinear"},
			func(a *settingsSet) {
				a.Buckling.Modes, a.Buckling.UpperLimit, a.Buckling.LowerLimit = 12, 20, 5
				a.Buckling.Theory, a.Buckling.AxialForceDistribution = "ClassicEigensolver", "NonLinear"
			}},
		{"dynamic frequencies", settingsPaths[2], map[string]any{"frequencyShift": 2.5, "modes": 30, "lowerLimit": 1,
			"extraIterations": true, "solverType": "Wavefront"},
			func(a *settingsSet) {
				a.Dynamic.FrequencyShift, a.Dynamic.Modes, a.Dynamic.LowerLimit = 2.5, 30, 1
				a.Dynamic.ExtraIterations, a.Dynamic.SolverType = true, model.SolverWavefront
			}},
		{"empty body changes nothing", settingsPaths[2], map[string]any{}, func(*settingsSet) {}},
	}
	want := def
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.must(200, "PATCH", tc.path, tc.body)
			tc.apply(&want)
			got := allSettings(t, e)
			if got != want {
				t.Errorf("after PATCH\n got %+v\nwant %+v", got, want)
			}
			var answered, read map[string]any
			r.decode(t, &answered)
			e.must(200, "GET", tc.path, nil).decode(t, &read)
			if b1, b2 := mustJSON(t, answered), mustJSON(t, read); b1 != b2 {
				t.Errorf("PATCH answered %s, GET reads %s", b1, b2)
			}
		})
	}
	if !status(t, e).State.IsModified {
		t.Errorf("a settings change did not mark the job modified")
	}

	t.Run("optimisation coordinates are lengths", func(t *testing.T) {
		e.must(200, "PATCH", "/job/units", map[string]any{"length": "mm"})
		var s model.BucklingSettings
		e.must(200, "PATCH", settingsPaths[1], map[string]any{"optimizationX": 1500, "optimizationAxis": "Vector",
			"optimizationMethod": "Linear"}).decode(t, &s)
		if s.OptimizationX != 1500 {
			t.Errorf("answered optimizationX %g mm, want 1500", s.OptimizationX)
		}
		e.must(200, "PATCH", "/job/units", map[string]any{"length": "m"})
		e.must(200, "GET", settingsPaths[1], nil).decode(t, &s)
		if s.OptimizationX != 1.5 {
			t.Errorf("optimizationX %g m, want 1.5", s.OptimizationX)
		}
	})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAnalysisSettingsPatchErrors(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	cases := []struct {
		name   string
		path   string
		body   any
		fields []string // fields the errors must name
		says   []string // parts of the detail
	}{
		{"unknown enum value", settingsPaths[0], map[string]any{"tensionCompressionOnly": "Sometimes"},
			[]string{"tensionCompressionOnly"}, []string{"Activated, NoReversal, Deactivated, GradualActivation", "Sometimes"}},
		{"static theory on buckling", settingsPaths[1], map[string]any{"theory": "Small"},
			[]string{"theory"}, []string{"SigncountEigensolver, ClassicEigensolver"}},
		{"unknown property", settingsPaths[0], map[string]any{"modes": 5},
			[]string{"modes"}, []string{"unknown property"}},
		{"non-linear field on buckling", settingsPaths[1], map[string]any{"loadSteps": 5},
			[]string{"loadSteps"}, []string{"unknown property"}},
		{"legacy solver", settingsPaths[0], map[string]any{"solverType": 2},
			[]string{"solverType"}, []string{"legacy", "Paradise (or 0), Wavefront (or 1)"}},
		{"cloud solver", settingsPaths[2], map[string]any{"solverType": 3},
			[]string{"solverType"}, []string{"cloud solver", "in-process"}},
		{"unknown solver name", settingsPaths[2], map[string]any{"solverType": "Direct"},
			[]string{"solverType"}, []string{"Paradise, Wavefront"}},
		{"every failing field at once", settingsPaths[1], map[string]any{"modes": 0, "tolerance": 0, "loadCases": "1-"},
			[]string{"modes", "tolerance", "loadCases"}, []string{"from 1 to 1000", "greater than 0 and less than 1"}},
		{"limits reversed", settingsPaths[2], map[string]any{"lowerLimit": 40, "upperLimit": 10},
			[]string{"lowerLimit"}, []string{"must be below upperLimit"}},
		{"51 load case entries", settingsPaths[0], map[string]any{"loadCases": strings.Repeat("1,", 50) + "1"},
			[]string{"loadCases"}, []string{"at most 50"}},
		{"integer expected", settingsPaths[0], map[string]any{"loadSteps": 2.5},
			[]string{"loadSteps"}, []string{"integer"}},
		{"null", settingsPaths[0], map[string]any{"retainLoadCases": nil},
			[]string{"retainLoadCases"}, []string{"must not be null"}},
		{"not an object", settingsPaths[0], []int{1}, nil, []string{"JSON object"}},
	}
	before := allSettings(t, e)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			er := e.wantError(400, "VALIDATION_FAILED", "PATCH", tc.path, tc.body)
			got := fieldsOf(er)
			for _, f := range tc.fields {
				if _, ok := got[f]; !ok {
					t.Errorf("errors %v do not name %s", got, f)
				}
			}
			for _, s := range tc.says {
				if !strings.Contains(er.Detail, s) {
					t.Errorf("detail %q does not say %q", er.Detail, s)
				}
			}
		})
	}
	if after := allSettings(t, e); after != before {
		t.Errorf("refused patches changed the settings: %+v", after)
	}
	r := e.raw("PATCH", settingsPaths[0], "application/json", nil)
	if r.status != 400 {
		t.Errorf("PATCH without a body: %d %s", r.status, r.body)
	}

	t.Run("refused during an analysis", func(t *testing.T) {
		rdb := e.rdb.Client(t)
		if err := rdb.Set(t.Context(), redisstore.WorkspaceKey("default", "lock"), "run-1", 0).Err(); err != nil {
			t.Fatal(err)
		}
		for _, p := range settingsPaths {
			e.wantError(409, "ANALYSIS_IN_PROGRESS", "PATCH", p, map[string]any{"solverType": "Wavefront"})
			e.must(200, "GET", p, nil)
		}
		rdb.Del(t.Context(), redisstore.WorkspaceKey("default", "lock"))
		e.must(200, "PATCH", settingsPaths[0], map[string]any{"solverType": "Wavefront"})
	})
}

func TestAnalysisSettingsMetadata(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	e.must(200, "PATCH", "/job/units", map[string]any{"length": "ft"})
	unit := func(f httpapi.FieldMetadata) string {
		if f.Units == nil {
			return ""
		}
		return *f.Units
	}
	cases := []struct {
		path     string
		resource string
		fields   int
		check    func(t *testing.T, md httpapi.Metadata)
	}{
		{settingsPaths[0], "StaticSettings", 30, func(t *testing.T, md httpapi.Metadata) {
			if f := metadataField(t, md, "keepLoadSteps"); f.DataType != "Boolean" || f.Default != false || !strings.Contains(f.Description, "Step load case") {
				t.Errorf("keepLoadSteps %+v", f)
			}
			if f := metadataField(t, md, "optimizationX"); unit(f) != "ft" || f.DataType != "Double" {
				t.Errorf("optimizationX %+v", f)
			}
			if f := metadataField(t, md, "dampingFactor"); unit(f) != "%" || f.Default != 0.0 {
				t.Errorf("dampingFactor %+v", f)
			}
			if f := metadataField(t, md, "optimizationMethod"); f.Default != "Auto" || f.DataType != "Enum" || len(f.AllowedValues) != 5 {
				t.Errorf("optimizationMethod %+v", f)
			}
			if f := metadataField(t, md, "solverType"); f.Default != "Paradise" || len(f.AllowedValues) != 2 || !strings.Contains(f.Description, "codes 0 (Paradise) and 1 (Wavefront)") {
				t.Errorf("solverType %+v", f)
			}
			if f := metadataField(t, md, "loadSteps"); f.DataType != "Integer" || f.Default != 10.0 || *f.Min != 1 || *f.Max != 1000 {
				t.Errorf("loadSteps %+v", f)
			}
			if f := metadataField(t, md, "theory"); !strings.Contains(f.Description, "non-linear only") {
				t.Errorf("theory %+v", f)
			}
		}},
		{settingsPaths[1], "BucklingSettings", 21, func(t *testing.T, md httpapi.Metadata) {
			if f := metadataField(t, md, "modes"); f.Default != 5.0 || *f.Max != 1000 {
				t.Errorf("modes %+v", f)
			}
			if f := metadataField(t, md, "theory"); f.Default != "SigncountEigensolver" {
				t.Errorf("theory %+v", f)
			}
			if f := metadataField(t, md, "upperLimit"); unit(f) != "" {
				t.Errorf("load factors have no unit: %+v", f)
			}
		}},
		{settingsPaths[2], "DynamicSettings", 18, func(t *testing.T, md httpapi.Metadata) {
			if f := metadataField(t, md, "modes"); f.Default != 10.0 {
				t.Errorf("modes %+v", f)
			}
			for _, n := range []string{"upperLimit", "lowerLimit", "frequencyShift"} {
				if f := metadataField(t, md, n); unit(f) != "Hz" || *f.Min != 0 {
					t.Errorf("%s %+v", n, f)
				}
			}
			if f := metadataField(t, md, "tolerance"); f.Default != 1e-4 || !strings.Contains(f.Description, "bounds exclusive") {
				t.Errorf("tolerance %+v", f)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.resource, func(t *testing.T) {
			var md httpapi.Metadata
			e.must(200, "GET", tc.path+"/metadata", nil).decode(t, &md)
			if md.ResourceType != tc.resource || len(md.Fields) != tc.fields {
				t.Fatalf("%s with %d fields, want %s with %d", md.ResourceType, len(md.Fields), tc.resource, tc.fields)
			}
			tc.check(t, md)
		})
	}
}

// Settings are part of the job: they survive save, close and open.
func TestAnalysisSettingsSaveOpen(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	e.must(200, "PATCH", settingsPaths[0], map[string]any{"loadCases": "4,1-2", "theory": "Finite", "solverType": 1,
		"optimizationZ": 2, "convergenceAccuracy": 0.5})
	e.must(200, "PATCH", settingsPaths[1], map[string]any{"modes": 8, "lowerLimit": 1, "upperLimit": 6})
	e.must(200, "PATCH", settingsPaths[2], map[string]any{"frequencyShift": 0.25, "plateType": "DLPlates"})
	before := allSettings(t, e)
	e.must(201, "POST", "/job/save", map[string]any{"filePath": "analysis/settings"})
	e.must(200, "POST", "/job/close", nil)
	e.must(200, "POST", "/job/open", map[string]any{"filePath": "analysis/settings.gsj"})
	if after := allSettings(t, e); after != before {
		t.Errorf("reopened\n got %+v\nwant %+v", after, before)
	}
	if before.Static.LoadCases != "1-2,4" || before.Static.SolverType != model.SolverWavefront {
		t.Errorf("stored %+v", before.Static)
	}
	zr, err := zip.OpenReader(filepath.Join(e.dir, "analysis", "settings.gsj"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	found := false
	for _, f := range zr.File {
		found = found || f.Name == "job/analysis.json"
	}
	if !found {
		t.Errorf("the job file has no job/analysis.json entry")
	}
}

// writeSnapshotFile saves snap as a job file into the jobs directory.
func writeSnapshotFile(t *testing.T, e *env, rel string, snap store.Snapshot) {
	t.Helper()
	var b bytes.Buffer
	if err := jobfile.Encode(&b, snap, "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.dir, rel), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestAnalysisSettingsInJobFiles(t *testing.T) {
	e := newEnv(t, envOptions{})
	t.Run("invalid settings are refused", func(t *testing.T) {
		job := model.NewJob()
		job.Analysis["buckling"] = json.RawMessage(`{"modes":0}`)
		job.Analysis["static"] = json.RawMessage(`{"plateType":"QuadPlates"}`)
		writeSnapshotFile(t, e, "bad.gsj", store.Snapshot{Job: job})
		er := e.wantError(400, "VALIDATION_FAILED", "POST", "/job/open", map[string]any{"filePath": "bad.gsj"})
		got := fieldsOf(er)
		if _, ok := got["buckling.modes"]; !ok || !strings.Contains(er.Detail, "job/analysis.json") {
			t.Errorf("error does not name the entry and the field: %+v", er)
		}
		if _, ok := got["static.plateType"]; !ok {
			t.Errorf("error does not name every field: %v", got)
		}
		e.wantError(409, "NO_JOB_OPEN", "GET", "/job", nil)
	})
	t.Run("a file without the entry opens with the defaults", func(t *testing.T) {
		job := model.NewJob()
		job.Analysis = nil // written without the entry, as older files are
		writeSnapshotFile(t, e, "old.gsj", store.Snapshot{Job: job})
		e.must(200, "POST", "/job/open", map[string]any{"filePath": "old.gsj"})
		if got := allSettings(t, e); got != defaultSettingsSet() {
			t.Errorf("settings of an older file %+v", got)
		}
		e.must(200, "POST", "/job/close", nil)
	})
}
