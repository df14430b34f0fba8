package httpapi_test

import (
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/model/library"
)

const (
	secLib = "/job/structure/sections/library"
	matLib = "/job/structure/materials/library"
)

// libEntry is the wire form of one GET sections/library entry.
type libEntry struct {
	Name    string      `json:"name"`
	AltName string      `json:"altName"`
	Library string      `json:"library"`
	A       float64     `json:"a"`
	J       float64     `json:"j"`
	Iy      float64     `json:"iy"`
	Iz      float64     `json:"iz"`
	Ay      float64     `json:"ay"`
	Az      float64     `json:"az"`
	Shape   model.Shape `json:"shape"`
}

// libMaterial is the wire form of one GET materials/library entry.
type libMaterial struct {
	Name             string   `json:"name"`
	Library          string   `json:"library"`
	Aliases          []string `json:"aliases"`
	YoungsModulus    float64  `json:"youngsModulus"`
	PoissonsRatio    float64  `json:"poissonsRatio"`
	MassDensity      float64  `json:"massDensity"`
	ThermalCoeff     float64  `json:"thermalCoeff"`
	ConcreteStrength float64  `json:"concreteStrength"`
	Reference        string   `json:"reference"`
}

// libInfo is the wire form of one GET sections|materials/libraries entry.
type libInfo struct {
	Library     string `json:"library"`
	Entries     int    `json:"entries"`
	Parametric  bool   `json:"parametric"`
	Description string `json:"description"`
}

// query builds a path with its query string from name/value pairs.
func query(path string, kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return path + "?" + v.Encode()
}

// getList GETs a list, decodes it into out and returns the response.
func getList(t *testing.T, e *env, path string, out any) resp {
	t.Helper()
	r := e.must(200, "GET", path, nil)
	r.decode(t, out)
	return r
}

// wantHeaders checks the paging headers of a list response; limit is the
// limit the request gave, "" for none, which the Limit header reports as
// 2147483647 (the greatest limit a request may give).
func wantHeaders(t *testing.T, r resp, total, offset int, limit string) {
	t.Helper()
	if limit == "" {
		limit = "2147483647"
	}
	if got := r.header.Get("Total-Count"); got != strconv.Itoa(total) {
		t.Errorf("Total-Count %q, want %d", got, total)
	}
	if got := r.header.Get("Offset"); got != strconv.Itoa(offset) {
		t.Errorf("Offset %q, want %d", got, offset)
	}
	if got := r.header.Get("Limit"); got != limit {
		t.Errorf("Limit %q, want %q", got, limit)
	}
}

// relNear fails unless got is within relative tol of want.
func relNear(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol*math.Abs(want)) {
		t.Errorf("%s = %.9g, want %.9g (rel. tol %g)", what, got, want, tol)
	}
}

func entryNames[T any](recs []T, name func(T) string) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = name(r)
	}
	return out
}

func secName(s libEntry) string    { return s.Name }
func matName(m libMaterial) string { return m.Name }

func TestLibraryIndexes(t *testing.T) {
	e := newEnv(t, envOptions{})
	// The indexes describe the built-in data: no job needed.
	var secs, mats []libInfo
	getList(t, e, "/job/structure/sections/libraries", &secs)
	aust, err := library.SectionNames(library.LibAust300)
	if err != nil {
		t.Fatal(err)
	}
	want := []libInfo{
		{Library: "AISC15", Entries: 2091}, // AISC Shapes Database v15.0: 2091 rows in either sheet
		{Library: "Aust300", Entries: len(aust)},
		{Library: "Parametric", Parametric: true},
	}
	if len(secs) != len(want) {
		t.Fatalf("section libraries %+v, want %+v", secs, want)
	}
	for i, w := range want {
		if g := secs[i]; g.Library != w.Library || g.Entries != w.Entries || g.Parametric != w.Parametric || g.Description == "" {
			t.Errorf("section library %d = %+v, want %+v with a description", i, g, w)
		}
	}
	getList(t, e, "/job/structure/materials/libraries", &mats)
	if got := entryNames(mats, func(l libInfo) string { return l.Library }); strings.Join(got, ",") != "Aust,Euro,US" {
		t.Errorf("material libraries %v", got)
	}
	for _, m := range mats {
		n, _ := library.MaterialNames(m.Library)
		if m.Entries != len(n) || m.Description == "" {
			t.Errorf("material library %+v: want %d entries and a description", m, len(n))
		}
	}
}

func TestSectionLibraryListing(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.wantError(409, "NO_JOB_OPEN", "GET", query(secLib, "library", "AISC15"), nil)
	e.must(200, "POST", "/job/new", nil)

	// AISC v15.0 line 202: W360X134 = W14X90 with A 17100 mm², Ix 416×10⁶ mm⁴,
	// Iy 151×10⁶ mm⁴, J 1690×10³ mm⁴ (SI sheet). Default section unit: mm.
	const tol = 1e-12 // one unit conversion of the SI sheet's values
	checkW360X134 := func(t *testing.T, s libEntry, perMM float64) {
		t.Helper()
		if s.Library != "AISC15" || s.Shape.Family != "I" {
			t.Errorf("%+v", s)
		}
		relNear(t, "a", s.A, 17100*math.Pow(perMM, 2), tol)
		relNear(t, "iz", s.Iz, 416e6*math.Pow(perMM, 4), tol)
		relNear(t, "iy", s.Iy, 151e6*math.Pow(perMM, 4), tol)
		relNear(t, "j", s.J, 1690e3*math.Pow(perMM, 4), tol)
	}

	tests := []struct {
		name    string
		kv      []string
		want    []string // names, in order
		total   int
		offset  int
		limit   string
		altName []string
	}{
		// US labels are searched too: W14X99 (line 201) and W14X90 (line 202).
		{name: "search US label", kv: []string{"library", "aisc15", "search", "w14x9"}, want: []string{"W360X147", "W360X134"},
			total: 2, altName: []string{"W14X99", "W14X90"}},
		// Spaces and case do not matter, as in lookups.
		{name: "search spaced", kv: []string{"library", "AISC15", "search", "w 360 x 13"}, want: []string{"W360X134"}, total: 1},
		// W14X… are lines 177-214 of the database (38 rows); page 3-4.
		{name: "paging", kv: []string{"library", "AISC15", "search", "W14X", "offset", "2", "limit", "2"},
			want: []string{"W360X1086", "W360X990"}, total: 38, offset: 2, limit: "2"},
		{name: "all catalogues", kv: []string{"search", "44.7"}, want: []string{"360UB44.7"}, total: 1},
		{name: "exact US name", kv: []string{"library", "AISC15", "name", "w14x90"}, want: []string{"W14X90"}, total: 1,
			altName: []string{"W360X134"}},
		{name: "exact, any library", kv: []string{"name", "RECT 300x200"}, want: []string{"RECT 300x200"}, total: 1},
		{name: "no match", kv: []string{"library", "Aust300", "search", "W14X"}, want: []string{}, total: 0},
		{name: "parametric has no list", kv: []string{"library", "Parametric"}, want: []string{}, total: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []libEntry
			r := getList(t, e, query(secLib, tc.kv...), &got)
			if g := entryNames(got, secName); strings.Join(g, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("names %v, want %v", g, tc.want)
			}
			wantHeaders(t, r, tc.total, tc.offset, tc.limit)
			for i, a := range tc.altName {
				if got[i].AltName != a {
					t.Errorf("%s: altName %q, want %q", got[i].Name, got[i].AltName, a)
				}
			}
		})
	}

	t.Run("properties in job units", func(t *testing.T) {
		var got []libEntry
		getList(t, e, query(secLib, "library", "AISC15", "name", "W360X134"), &got)
		checkW360X134(t, got[0], 1)
		getList(t, e, query(secLib, "library", "AISC15", "name", "W14X90"), &got)
		checkW360X134(t, got[0], 1) // the same row's numbers under its US label
		e.must(200, "PATCH", "/job/units", map[string]any{"sectionProperties": "in"})
		getList(t, e, query(secLib, "library", "AISC15", "name", "W14X90"), &got)
		checkW360X134(t, got[0], 1/25.4)
		// RECT 300x200: a = 300·200 = 60000 mm², iz = 200·300³/12 = 4.5e8 mm⁴.
		getList(t, e, query(secLib, "name", "rect 300x200"), &got)
		relNear(t, "rect a", got[0].A, 60000/(25.4*25.4), tol)
		relNear(t, "rect iz", got[0].Iz, 4.5e8/math.Pow(25.4, 4), tol)
		e.must(200, "PATCH", "/job/units", map[string]any{"sectionProperties": "mm"})
	})

	t.Run("errors", func(t *testing.T) {
		er := e.wantError(400, "VALIDATION_FAILED", "GET", query(secLib, "library", "BS5950"), nil)
		if !strings.Contains(er.Detail, "AISC15, Aust300, Parametric") {
			t.Errorf("unknown library: %q does not list the libraries", er.Detail)
		}
		er = e.wantError(404, "NOT_FOUND", "GET", query(secLib, "library", "AISC15", "name", "W14X91"), nil)
		if !strings.Contains(er.Detail, `"W14X91"`) || !strings.Contains(er.Detail, "AISC15") {
			t.Errorf("miss: %q", er.Detail)
		}
		e.wantError(400, "VALIDATION_FAILED", "GET", query(secLib, "name", "W14X90", "search", "W14"), nil)
		e.wantError(400, "VALIDATION_FAILED", "GET", query(secLib, "library", "AISC15", "offset", "-1"), nil)
		e.wantError(400, "VALIDATION_FAILED", "GET", query(secLib, "name", "RECT 0x200"), nil)
	})
}

func TestMaterialLibraryListing(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil) // materialStrength MPa, massDensity T/m³, temperature °C
	var got []libMaterial

	// EN 1992-1-1 Table 3.1: C30/37 has fck 30 MPa, Ecm 33 GPa; ν 0.2
	// (§3.1.3(4)); 24 kN/m³ (EN 1991-1-1 Table A.1) as 2.4 T/m³; α 10×10⁻⁶/K.
	r := getList(t, e, query(matLib, "library", "euro", "search", "c30"), &got)
	wantHeaders(t, r, 1, 0, "")
	if len(got) != 1 || got[0].Name != "C30/37" || got[0].Library != "Euro" || strings.Join(got[0].Aliases, ",") != "C30" ||
		!strings.Contains(got[0].Reference, "EN 1992-1-1") {
		t.Fatalf("C30/37: %+v", got)
	}
	m := got[0]
	relNear(t, "E", m.YoungsModulus, 33000, 1e-12)
	relNear(t, "fck", m.ConcreteStrength, 30, 1e-12)
	relNear(t, "ρ", m.MassDensity, 2.4, 1e-12)
	relNear(t, "α", m.ThermalCoeff, 10e-6, 1e-12)
	if m.PoissonsRatio != 0.2 {
		t.Errorf("ν = %g", m.PoissonsRatio)
	}

	tests := []struct {
		name string
		kv   []string
		want []string
	}{
		// Aliases are searched: CONC32 is N32 (AS 3600 normal-class 32 MPa).
		{"alias", []string{"library", "Aust", "search", "conc3"}, []string{"N32"}},
		{"all libraries", []string{"search", "alumin"}, []string{"ALUMINIUM", "ALUMINIUM", "AL6061-T6"}},
		{"exact alias", []string{"library", "US", "name", "6061-T6"}, []string{"AL6061-T6"}},
		{"paging", []string{"library", "Aust", "search", "N", "offset", "1", "limit", "2"}, []string{"N25", "N32"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			getList(t, e, query(matLib, tc.kv...), &got)
			if g := entryNames(got, matName); strings.Join(g, "|") != strings.Join(tc.want, "|") {
				t.Errorf("names %v, want %v", g, tc.want)
			}
		})
	}

	// AISC 360-16: E = 29 000 ksi for A992 (and every structural steel).
	e.must(200, "PATCH", "/job/units", map[string]any{"materialStrength": "Ksi"})
	getList(t, e, query(matLib, "library", "US", "name", "A992"), &got)
	relNear(t, "A992 E", got[0].YoungsModulus, 29000, 1e-12)

	er := e.wantError(400, "VALIDATION_FAILED", "GET", query(matLib, "library", "JIS"), nil)
	if !strings.Contains(er.Detail, "Aust, Euro, US") {
		t.Errorf("unknown library: %q", er.Detail)
	}
	e.wantError(404, "NOT_FOUND", "GET", query(matLib, "library", "Aust", "name", "N33"), nil)
}

// TestLibraryMissSuggestions: a misspelt name answers the usual 4xx, and
// its message names the closest entries. 360UB44.7 is an Aust300 row
// (OneSteel HRSSP); W14X90 is line 202 of the AISC v15.0 US sheet; N32 an
// AS 3600 grade.
func TestLibraryMissSuggestions(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	tests := []struct {
		name         string
		status       int
		code, method string
		path         string
		body         any
		want         string // in the detail
	}{
		{"POST section Aust300", 400, "VALIDATION_FAILED", "POST", secLib, map[string]any{"name": "360 UB 44", "library": "Aust300"}, `closest: "360UB44.7"`},
		{"POST section AISC15 US", 400, "VALIDATION_FAILED", "POST", secLib, map[string]any{"name": "W14X91", "library": "AISC15"}, `closest: "W14X90"`},
		{"POST material", 400, "VALIDATION_FAILED", "POST", matLib, map[string]any{"name": "N33", "library": "Aust"}, `closest: "N32"`},
		{"GET name", 404, "NOT_FOUND", "GET", query(secLib, "library", "AISC15", "name", "W14X91"), nil, `closest: "W14X90"`},
		{"GET name, every library", 404, "NOT_FOUND", "GET", query(secLib, "name", "360 UB 44"), nil,
			`section "360 UB 44" not found in any library (AISC15, Aust300, Parametric); closest in Aust300: "360UB44.7"`},
		{"GET material name", 404, "NOT_FOUND", "GET", query(matLib, "library", "aust", "name", "N33"), nil, `closest: "N32"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			er := e.wantError(tc.status, tc.code, tc.method, tc.path, tc.body)
			if !strings.Contains(er.Detail, tc.want) {
				t.Errorf("detail %q lacks %q", er.Detail, tc.want)
			}
		})
	}
}

// TestCreateSectionFromUSLabel: POST sections/library takes the AISC US
// label and stores the SI sheet's row under the label as typed in the
// database (line 202: W14X90 = W360X134, A 17100 mm², Ix 416×10⁶ mm⁴).
func TestCreateSectionFromUSLabel(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	var s model.Section
	e.must(201, "POST", secLib, map[string]any{"name": "w14x90", "library": "aisc15"}).decode(t, &s)
	if s.Name != "W14X90" || s.Library != "AISC15" || s.Source != "Library" || len(s.Shapes) != 1 || s.Shapes[0].Family != "I" {
		t.Errorf("section %+v", s)
	}
	relNear(t, "a", s.A, 17100, 1e-12)
	relNear(t, "iz", s.Iz, 416e6, 1e-12)
}
