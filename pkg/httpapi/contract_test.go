package httpapi_test

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/model"
)

// These tests pin where the service meets or knowingly differs from the
// interface contract (README "Differences from the contract").

// metadataField returns the field of md named name, failing without one.
func metadataField(t *testing.T, md httpapi.Metadata, name string) httpapi.FieldMetadata {
	t.Helper()
	for _, f := range md.Fields {
		if f.JSONName == name {
			return f
		}
	}
	t.Fatalf("%s metadata has no field %s", md.ResourceType, name)
	return httpapi.FieldMetadata{}
}

// D4: every metadata record gives each field a dataType of the interface's
// set, a computed enum its values and a default that is not the zero
// value its default.
func TestMetadataFollowsTheContract(t *testing.T) {
	e := loadsEnv(t)
	metadata := func(t *testing.T, path string) httpapi.Metadata {
		t.Helper()
		var md httpapi.Metadata
		e.must(200, "GET", path, nil).decode(t, &md)
		return md
	}
	t.Run("dataType is one of the set on every metadata route", func(t *testing.T) {
		allowed := []string{"Integer", "Double", "String", "Enum", "Boolean", "Guid"}
		paths := 0
		for path := range readOpenAPI(t, e).Paths {
			if !strings.HasSuffix(path, "/metadata") || strings.Contains(path, "{") {
				continue
			}
			paths++
			md := metadata(t, strings.TrimPrefix(path, "/api/v1"))
			for _, f := range md.Fields {
				if !slices.Contains(allowed, f.DataType) {
					t.Errorf("%s: %s has dataType %q", path, f.JSONName, f.DataType)
				}
			}
		}
		// Structure, loads, moving loads, settings and result queries
		// have 39 metadata routes without a path parameter; fewer means
		// the walk missed them.
		if paths < 39 {
			t.Errorf("walked %d metadata routes", paths)
		}
	})
	t.Run("sub-resources are described by their fields", func(t *testing.T) {
		md := metadata(t, lp+"/load-cases/metadata")
		f := metadataField(t, md, "combinationItems[].multiplyingFactor")
		if f.DataType != "Double" || !strings.Contains(f.Description, "hydrated by expand=All") {
			t.Errorf("combinationItems[].multiplyingFactor: %+v", f)
		}
		r := metadataField(t, metadata(t, sp+"/nodes/metadata"), "restraint.txStiffness")
		if r.DataType != "Double" || r.Units == nil || *r.Units != "kN/m" || !strings.Contains(r.Description, "hydrated by expand=All") {
			t.Errorf("restraint.txStiffness: %+v", r)
		}
	})
	t.Run("load case type lists its values", func(t *testing.T) {
		f := metadataField(t, metadata(t, lp+"/load-cases/metadata"), "type")
		var got []string
		for _, v := range f.AllowedValues {
			got = append(got, v.Value)
		}
		// The values of the contract's load case table.
		if want := []string{"Primary", "Combination", "Step", "Unused"}; f.DataType != "Enum" || !slices.Equal(got, want) || f.Default != "Unused" {
			t.Errorf("type: dataType %s, values %v (want %v), default %v (a new case is Unused)", f.DataType, got, want, f.Default)
		}
	})
	t.Run("multiplyingFactor defaults to 1.0", func(t *testing.T) {
		for _, path := range []string{lp + "/combination-load-cases/items/metadata", lp + "/combination-load-cases/metadata"} {
			md := metadata(t, path)
			name := "multiplyingFactor"
			if !strings.Contains(path, "items") {
				name = "combinationItems[].multiplyingFactor"
			}
			if f := metadataField(t, md, name); f.Default != 1.0 {
				t.Errorf("%s: %s default %v, want 1 (the contract's combination item)", path, name, f.Default)
			}
		}
		// The default the metadata states is the one an item without a
		// factor gets.
		var c model.CombinationLoadCase
		e.must(201, "POST", lp+"/combination-load-cases", map[string]any{"title": "G+Q", "combinationItems": []map[string]any{{"loadCase": 1}}}).decode(t, &c)
		if len(c.CombinationItems) != 1 || c.CombinationItems[0].MultiplyingFactor != 1 {
			t.Errorf("an item without a factor: %+v", c.CombinationItems)
		}
	})
}

// D8: combination cases honour expand like every collection: lists leave
// the items out unless expand=All, gets have them unless expand=None.
func TestCombinationCasesHonourExpand(t *testing.T) {
	e := loadsEnv(t)
	e.must(201, "POST", lp+"/combination-load-cases", map[string]any{"id": 3, "title": "1.2G+1.5Q",
		"combinationItems": []map[string]any{{"loadCase": 1, "multiplyingFactor": 1.2}, {"loadCase": 2, "multiplyingFactor": 1.5}}})
	for _, tc := range []struct {
		path      string
		withItems bool
	}{
		{"/combination-load-cases", false},
		{"/combination-load-cases?expand=None", false},
		{"/combination-load-cases?expand=all", true},
		{"/combination-load-cases/3", true},
		{"/combination-load-cases/3?expand=All", true},
		{"/combination-load-cases/3?expand=none", false},
	} {
		t.Run(tc.path, func(t *testing.T) {
			body := e.must(200, "GET", lp+tc.path, nil).body
			var recs []map[string]any
			if strings.HasPrefix(string(body), "[") {
				if err := json.Unmarshal(body, &recs); err != nil {
					t.Fatal(err)
				}
			} else {
				var one map[string]any
				if err := json.Unmarshal(body, &one); err != nil {
					t.Fatal(err)
				}
				recs = append(recs, one)
			}
			if len(recs) != 1 {
				t.Fatalf("%d records: %s", len(recs), body)
			}
			items, has := recs[0]["combinationItems"].([]any)
			if has != tc.withItems || recs[0]["hasCombinationItems"] != true {
				t.Errorf("combinationItems present %v, want %v; hasCombinationItems %v: %s", has, tc.withItems, recs[0]["hasCombinationItems"], body)
			}
			if has && len(items) != 2 {
				t.Errorf("items %v", items)
			}
		})
	}
	t.Run("bad expand", func(t *testing.T) {
		e.wantError(400, "VALIDATION_FAILED", "GET", lp+"/combination-load-cases?expand=some", nil)
	})
}

// D9: solverType reads as its name and takes the name or the contract's
// integer code; 2 and 3 are refused with the reason.
func TestSolverTypeNameAndCode(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	for _, tc := range []struct {
		sent any
		want string
	}{{1, "Wavefront"}, {0, "Paradise"}, {"Wavefront", "Wavefront"}, {"paradise", "Paradise"}} {
		t.Run(fmt.Sprint(tc.sent), func(t *testing.T) {
			var raw map[string]any
			e.must(200, "PATCH", settingsPaths[0], map[string]any{"solverType": tc.sent}).decode(t, &raw)
			if raw["solverType"] != tc.want {
				t.Errorf("solverType %v reads %v, want %q", tc.sent, raw["solverType"], tc.want)
			}
		})
	}
	for _, code := range []int{2, 3} {
		er := e.wantError(400, "VALIDATION_FAILED", "PATCH", settingsPaths[1], map[string]any{"solverType": code})
		if !strings.Contains(er.Detail, "Paradise (or 0), Wavefront (or 1)") {
			t.Errorf("solverType %d: %s", code, er.Detail)
		}
	}
	var md httpapi.Metadata
	e.must(200, "GET", settingsPaths[2]+"/metadata", nil).decode(t, &md)
	if f := metadataField(t, md, "solverType"); f.DataType != "Enum" || len(f.AllowedValues) != 2 || f.AllowedValues[0].Value != "Paradise" {
		t.Errorf("solverType metadata %+v", f)
	}
}

// D10: with no job open, the settings routes answer 409 NO_JOB_OPEN, as
// every job route does and as the desktop program's API does, where the
// contract's status lists for settings name 404 (run starts: see
// pkg/server's TestRunStartWithoutJobIsConflict).
func TestNoJobOpenIsConflict(t *testing.T) {
	e := newEnv(t, envOptions{})
	for _, tc := range []struct {
		method, path string
		body         any
	}{
		{"GET", ap + "/static/settings", nil},
		{"PATCH", ap + "/buckling/settings", map[string]any{"modes": 3}},
		{"GET", ap + "/dynamic-frequency/settings", nil},
		{"GET", ap + "/static/settings/metadata", nil},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			r := e.do(tc.method, tc.path, tc.body)
			if r.status != 409 || r.errBody(t).ErrorCode != "NO_JOB_OPEN" {
				t.Errorf("status %d: %s", r.status, r.body)
			}
		})
	}
}

// Plate pressures have a unit of their own: kPa in a new job, so that
// py: -5 on a 3 m × 3 m plate is 5 kPa (45 kN in all), not 5 MPa.
func TestPressureUnit(t *testing.T) {
	e := loadsEnv(t)
	var u model.Units
	e.must(200, "GET", "/job/units", nil).decode(t, &u)
	if u.Pressure != "kPa" || u.Stress != "MPa" {
		t.Fatalf("a new job's units: pressure %q, stress %q", u.Pressure, u.Stress)
	}
	var md httpapi.Metadata
	e.must(200, "GET", "/job/units/metadata", nil).decode(t, &md)
	if f := metadataField(t, md, "pressure"); f.Default != "kPa" || !strings.Contains(f.Description, "stress unit") {
		t.Errorf("pressure in the units metadata: %+v", f)
	}
	e.must(200, "GET", lp+"/plate-pressure-loads/metadata", nil).decode(t, &md)
	if got := fieldUnit(md, "py"); got != "kPa" {
		t.Errorf("py is in %q, want kPa", got)
	}
	e.must(201, "POST", lp+"/plate-pressure-loads", map[string]any{"loadCase": 1, "plate": 1, "axes": "GlobalInclined", "py": -5})
	// Stored in SI: 5 kPa = 5,000 Pa. Read back in kPa, then in psf
	// after a change of unit (1 psf = 0.45359237 kg × 9.80665 m/s² /
	// 0.3048² m² = 47.880259 Pa, NIST SP 811), to 1e-12 relative.
	for _, tc := range []struct {
		unit string
		want float64
	}{{"kPa", -5}, {"Psf", -5000 / (0.45359237 * 9.80665 / (0.3048 * 0.3048))}, {"MPa", -0.005}} {
		e.must(200, "PATCH", "/job/units", map[string]any{"pressure": tc.unit})
		var l model.PlatePressureLoad
		e.must(200, "GET", lp+"/plate-pressure-loads/1/1", nil).decode(t, &l)
		if math.Abs(l.Py-tc.want) > 1e-12*math.Abs(tc.want) {
			t.Errorf("py in %s = %.15g, want %.15g", tc.unit, l.Py, tc.want)
		}
	}
	er := e.wantError(400, "VALIDATION_FAILED", "PATCH", "/job/units", map[string]any{"pressure": "bar"})
	if !strings.Contains(er.Detail, "kPa") {
		t.Errorf("an unknown pressure unit: %s", er.Detail)
	}
}
