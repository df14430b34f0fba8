package server

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// savedPortalEigen runs buckling and frequencies of the sway portal (its
// load case gives mass through the loads, F/g, and the self-weight-free
// members) and saves the job; it returns the file's bytes, the job
// closed.
func savedPortalEigen(t *testing.T) (*stack, []byte) {
	t.Helper()
	s, dir := startStackDir(t, 1)
	swayPortal(s)
	s.runEigen("buckling", map[string]any{"modes": 2})
	s.runEigen("dynamic-frequency", map[string]any{"modes": 2})
	s.must(201, "POST", "/job/save", map[string]any{"filePath": "portal"})
	s.must(200, "POST", "/job/close", nil)
	b, err := os.ReadFile(filepath.Join(dir, "portal.gsj"))
	if err != nil {
		t.Fatal(err)
	}
	return s, b
}

// putValue returns an edit of a results column that overwrites value at
// (counted in 8-byte values) with v.
func putValue(at int, v float64) func([]byte) []byte {
	return func(col []byte) []byte {
		binary.LittleEndian.PutUint64(col[8*at:], math.Float64bits(v))
		return col
	}
}

// Buckling and frequency results are saved in the job file and restored
// on open, bit for bit.
func TestEigenResultsSurviveSaveOpen(t *testing.T) {
	s, file := savedPortalEigen(t)
	s.upload(file)
	lf := eigenQuery[model.BucklingLoadFactorRow](s, "buckling/load-factors")
	nf := eigenQuery[model.NaturalFrequencyRow](s, "dynamic/natural-frequencies")
	el := eigenQuery[model.EffectiveLengthRow](s, "buckling/member-effective-lengths?members=1")
	if len(lf.Results) != 2 || len(nf.Results) != 2 || len(el.Results) != 2 || el.Results[0].Pcr <= 0 {
		t.Fatalf("after open: %+v %+v %+v", lf, nf, el)
	}
	s.must(200, "POST", "/job/close", nil)
	// The same file opened again gives the same numbers.
	s.upload(file)
	if again := eigenQuery[model.BucklingLoadFactorRow](s, "buckling/load-factors"); again.Results[0] != lf.Results[0] {
		t.Errorf("load factor %+v, then %+v", lf.Results[0], again.Results[0])
	}
}

// Eigen results that do not fit the file's model, or hold numbers JSON
// cannot carry, are refused on open with a 400 ErrorResponse.
func TestEigenJobFileMisfitRefused(t *testing.T) {
	s, file := savedPortalEigen(t)
	const b, d = "results/buckling/", "results/dynamic-frequency/"
	for name, edits := range map[string]map[string]func([]byte) []byte{
		"NaN load factor":              {b + "1:modes.bin": putValue(0, math.NaN())},
		"node of the largest sway 99":  {b + "1:modes.bin": putValue(7, 99)},
		"axis 3":                       {b + "1:modes.bin": putValue(8, 3)},
		"exclusion code 7":             {b + "1:lengths.bin": putValue(4, 7)},
		"truncated shapes":             {d + "1:shapes.bin": func(col []byte) []byte { return col[:len(col)-8] }},
		"Inf mode shape":               {d + "1:shapes.bin": putValue(3, math.Inf(1))},
		"more modes than columns hold": {d + "meta.json": func(m []byte) []byte { return mustReplace(t, m, `"modes":2`, `"modes":3`) }},
		"lengths of a frequency run":   {d + "1:lengths.bin": func([]byte) []byte { return make([]byte, 8) }},
	} {
		r, _ := openTampered(t, s, file, edits)
		if r.status != 400 || !isErrorResponse(r) {
			t.Errorf("%s: open = %d %s, want a 400 ErrorResponse", name, r.status, r.body)
		}
	}
	if r := s.uploadReply(file); r.status != 200 {
		t.Fatalf("untouched file: %d %s", r.status, r.body)
	}
}

// A job file whose buckling or frequency meta lists a load case twice is
// refused on open: the queries would read one entry's mode count against
// columns sized for the other (they answered 500).
func TestEigenJobFileDuplicateCaseRefused(t *testing.T) {
	s, file := savedPortalEigen(t)
	for _, kind := range []struct{ dir, query string }{
		{"results/dynamic-frequency/", "dynamic/natural-frequencies"},
		{"results/buckling/", "buckling/load-factors"},
	} {
		dup := func(raw []byte) []byte {
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			cases := m["cases"].([]any)
			first := map[string]any{}
			for k, v := range cases[0].(map[string]any) {
				first[k] = v
			}
			first["modes"] = 3 // one more than the columns hold
			m["cases"] = append([]any{first}, cases...)
			out, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		r := s.uploadReply(rezip(t, file, map[string]func([]byte) []byte{kind.dir + "meta.json": dup}))
		if r.status == 400 && isErrorResponse(r) {
			continue
		}
		got := ""
		if r.status == 200 {
			q := s.call("GET", "/job/query/analysis/"+kind.query, nil)
			got = fmt.Sprintf("; then %s = %d %.120s", kind.query, q.status, q.body)
			s.must(200, "POST", "/job/close", nil)
		}
		t.Errorf("%smeta.json listing load case 1 twice: open = %d%s; want a 400 ErrorResponse on open", kind.dir, r.status, got)
	}
}

// Finite but absurd stored values are refused on open: a participation
// fraction above 1, a length that overflows in mm, an iteration count
// that is no integer. Before, the queries turned them into +Inf (500) or
// a negative count.
func TestEigenJobFileExtremeValuesRefused(t *testing.T) {
	s, file := savedPortalEigen(t)
	const b, d = "results/buckling/", "results/dynamic-frequency/"
	for _, c := range []struct {
		name, entry string
		edit        func([]byte) []byte
		units       map[string]any // set after opening
		query       string
		sane        func(body []byte) bool
	}{
		{name: "massPartX of mode 1 = 1e307", entry: d + "1:modes.bin", edit: putValue(4, 1e307),
			query: "dynamic/natural-frequencies"},
		{name: "ly of member 1, mode 1 = 1e307 m, job length unit mm", entry: b + "1:lengths.bin", edit: putValue(2, 1e307),
			units: map[string]any{"length": "mm"}, query: "buckling/member-effective-lengths"},
		{name: "iterations of mode 1 = 1e300", entry: b + "1:modes.bin", edit: putValue(3, 1e300),
			query: "buckling/load-factors", sane: func(body []byte) bool {
				var e envelope[model.BucklingLoadFactorRow]
				return json.Unmarshal(body, &e) == nil && len(e.Results) > 0 && e.Results[0].Iterations >= 0
			}},
	} {
		r := s.uploadReply(rezip(t, file, map[string]func([]byte) []byte{c.entry: c.edit}))
		if r.status == 400 && isErrorResponse(r) {
			continue
		}
		if r.status != 200 {
			t.Errorf("%s: open = %d %s", c.name, r.status, r.body)
			continue
		}
		if c.units != nil {
			s.must(200, "PATCH", "/job/units", c.units)
		}
		q := s.call("GET", "/job/query/analysis/"+c.query, nil)
		if q.status != 200 || (c.sane != nil && !c.sane(q.body)) {
			t.Errorf("%s: the file opens, then %s = %d %.160s; want the file refused on open (400) or a 200 with sane numbers",
				c.name, c.query, q.status, q.body)
		}
		s.must(200, "POST", "/job/close", nil)
	}
}
