package server

// Tests from a hostile review of the buckling and frequency runs and
// queries: each failed before its fix.

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
)

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

// Limits the engine refuses are a 400 at PATCH and at the run's start,
// naming the field: negative buckling limits, and lowerLimit equal to
// upperLimit (the range must not be empty). Before, the run was accepted
// and then failed.
func TestEigenLimitsRefusedAtStart(t *testing.T) {
	s := startStack(t, 1)
	swayPortal(s)
	if r := s.call("PATCH", "/job/analysis/buckling/settings", map[string]any{"lowerLimit": -2}); r.status != 400 {
		t.Errorf("PATCH buckling settings lowerLimit -2 = %d, want 400", r.status)
		s.must(200, "PATCH", "/job/analysis/buckling/settings", map[string]any{"lowerLimit": 0})
	}
	for _, c := range []struct {
		kind string
		body map[string]any
	}{
		{"buckling", map[string]any{"lowerLimit": -2}},
		{"buckling", map[string]any{"lowerLimit": 50, "upperLimit": 50}},
		{"dynamic-frequency", map[string]any{"lowerLimit": 1, "upperLimit": 1}},
	} {
		r := s.call("POST", "/job/analysis/"+c.kind+"/run", c.body)
		if r.status == 400 && isErrorResponse(r) {
			continue
		}
		if r.status != 202 {
			t.Errorf("%s %v: POST = %d %s", c.kind, c.body, r.status, r.body)
			continue
		}
		var run model.Run
		r.decode(t, &run)
		if end := s.wait(run.RunID, time.Minute); end.Status == model.RunFailed {
			t.Errorf("%s %v: accepted (202), then the run failed: %q; want a 400 at POST (and PATCH)", c.kind, c.body, end.ErrorMessage)
		}
	}
}

// The settings allow up to 1000 modes, but a run computes at most 200 per
// case: starting one with more is a 400 naming 200.
func TestEigenModesAbove200Refused(t *testing.T) {
	s := startStack(t, 1)
	swayPortal(s)
	for _, kind := range []string{"buckling", "dynamic-frequency"} {
		r := s.call("POST", "/job/analysis/"+kind+"/run", map[string]any{"modes": 500})
		if r.status != 400 || !isErrorResponse(r) || !strings.Contains(string(r.body), "200") {
			t.Errorf("%s modes 500: POST = %d %.160s; want a 400 naming the limit 200", kind, r.status, r.body)
		}
		if r.status == 202 {
			var run model.Run
			r.decode(t, &run)
			s.wait(run.RunID, time.Minute)
		}
	}
}

// pinnedColumn is an Euler column along Y (default units): pinned base,
// top held along X and Z, free along Y, P = 100 kN down at the top and
// self-weight for mass. Its bending modes move the member between its
// two nodes; at the nodes only rotations (and round-off translations)
// remain — the README's "a member modelled alone gives its Euler load and
// its first frequencies".
func pinnedColumn(s *stack) {
	s.t.Helper()
	s.must(200, "POST", "/job/new", nil)
	s.must(201, "POST", "/job/structure/materials", map[string]any{"id": 1, "name": "steel", "youngsModulus": spE,
		"poissonsRatio": 0.3, "massDensity": 7.85})
	s.must(201, "POST", "/job/structure/sections", map[string]any{"id": 1, "name": "col", "a": 1e4, "j": 2 * spI,
		"iy": spI, "iz": spI, "ay": 1e12, "az": 1e12})
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 1, "x": 0, "y": 0, "z": 0})
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 2, "x": 0, "y": spH, "z": 0})
	s.must(201, "POST", "/job/structure/members", map[string]any{"id": 1, "nodeA": 1, "nodeB": 2, "section": 1, "material": 1})
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 1, "restraintCode": "FFFFFR"})
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 2, "restraintCode": "FRFFFR"})
	s.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": 1, "title": "P"})
	s.must(201, "POST", "/job/loads/node-loads", map[string]any{"loadCase": 1, "node": 2, "fy": -spP})
	s.must(201, "POST", "/job/loads/self-weight-loads", map[string]any{"loadCase": 1, "accelerationY": -1})
}

// A single member bending between held nodes leaves the nodes only
// rotations and round-off translations: Unit normalization must scale by
// the largest rotation then, not blow round-off up to 1 (it gave rotations
// of 1e15), and load-factors must not name a support as the node of the
// largest translation.
func TestEigenUnitShapesOfRoundOff(t *testing.T) {
	s := startStack(t, 1)
	pinnedColumn(s)
	s.runEigen("dynamic-frequency", map[string]any{"modes": 4})
	s.runEigen("buckling", map[string]any{"modes": 2})
	for _, q := range []string{"dynamic/mode-shapes?normalization=Unit", "buckling/mode-shapes"} {
		for _, row := range eigenQuery[model.ModeShapeRow](s, q).Results {
			big, unit := 0.0, false
			for _, arr := range [][]float64{row.Tx, row.Ty, row.Tz, row.Rx, row.Ry, row.Rz} {
				for _, v := range arr {
					big = math.Max(big, math.Abs(v))
					unit = unit || math.Abs(math.Abs(v)-1) < 1e-9
				}
			}
			if big >= 1e3 || !unit {
				t.Errorf("%s mode %d (%s): largest |component| %.3g, a component of ±1: %v; ty %v rz %v",
					q, row.Mode, row.Normalization, big, unit, row.Ty, row.Rz)
			}
		}
	}
	lf := eigenQuery[model.BucklingLoadFactorRow](s, "buckling/load-factors")
	for _, r := range lf.Results {
		if r.NodeAtMaxTrans == 1 {
			t.Errorf("buckling mode %d: nodeAtMaxTrans %d (%s) is the pinned base, which cannot translate", r.Mode, r.NodeAtMaxTrans, r.TransAxis)
		}
	}
}
