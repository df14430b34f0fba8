package server

// The plate result queries, end to end: paging and filters over
// irregular ids, and stresses that overflow.

import (
	"math"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// smallPlates builds a 3 × 3-node patch with quads 5, 20, 21 and
// triangles 7, 8 (ids not contiguous), held along y = 0, with case 1 a
// pressure on every plate, case 2 a node load and combination 3 = 1 + 2·2.
func smallPlates(s *stack) {
	s.t.Helper()
	s.must(200, "POST", "/job/new", nil)
	s.must(201, "POST", "/job/structure/materials", map[string]any{"id": 1, "name": "steel", "youngsModulus": 200e3,
		"poissonsRatio": 0.3, "massDensity": 7.85})
	var nodes []map[string]any
	for j := range 3 {
		for i := range 3 {
			nodes = append(nodes, map[string]any{"id": 1 + i + 3*j, "x": float64(i), "y": float64(j), "z": 0})
		}
	}
	s.must(200, "POST", "/job/structure/nodes/bulk", nodes)
	pl := func(id, a, b, c, d int) map[string]any {
		return map[string]any{"id": id, "nodeA": a, "nodeB": b, "nodeC": c, "nodeD": d, "material": 1, "actualThickness": 50, "theory": "Mindlin"}
	}
	s.must(200, "POST", "/job/structure/plates/bulk", []map[string]any{pl(5, 1, 2, 5, 4), pl(7, 2, 3, 6, 0), pl(8, 2, 6, 5, 0),
		pl(20, 4, 5, 8, 7), pl(21, 5, 6, 9, 8)})
	for _, n := range []int{1, 2, 3} {
		s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": n, "restraintCode": "FFFFFF"})
	}
	s.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": 1, "title": "p"})
	s.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": 2, "title": "P"})
	var loads []map[string]any
	for _, id := range []int{5, 7, 8, 20, 21} {
		loads = append(loads, map[string]any{"loadCase": 1, "plate": id, "axes": "Local", "pz": -10}) // kPa
	}
	s.must(200, "POST", "/job/loads/plate-pressure-loads/bulk", loads)
	s.must(201, "POST", "/job/loads/node-loads", map[string]any{"loadCase": 2, "node": 9, "fz": -1, "fx": 2})
	s.must(201, "POST", "/job/loads/combination-load-cases", map[string]any{"id": 3, "title": "1 + 2·2",
		"combinationItems": []map[string]any{{"loadCase": 1, "multiplyingFactor": 1}, {"loadCase": 2, "multiplyingFactor": 2}}})
}

// Paging and filtering of the plate queries over several cases, with a
// range filter over non-contiguous ids and triangles among quads, agree
// with the full listing; triangles report three corners; the
// combination is the sum of its cases (checked fine).
func TestPlateQueriesPageAndFilter(t *testing.T) {
	s := startStack(t, 1)
	smallPlates(s)
	if run := s.wait(s.run(nil).RunID); run.Status != model.RunCompleted {
		t.Fatalf("run %s: %s", run.Status, run.ErrorMessage)
	}
	all := query[model.PlateForcesRow](s, "plate-element-forces").Results
	if len(all) != 15 {
		t.Fatalf("%d rows", len(all))
	}
	order := []int64{5, 7, 8, 20, 21}
	for k, r := range all {
		if r.LoadCase != int64(1+k/5) || r.Plate != order[k%5] {
			t.Fatalf("row %d: case %d plate %d", k, r.LoadCase, r.Plate)
		}
	}
	for _, filter := range []struct {
		q    string
		keep map[int64]bool
	}{{"7-8,20", map[int64]bool{7: true, 8: true, 20: true}}, {"21,5", map[int64]bool{5: true, 21: true}}, {"", nil}} {
		var want []model.PlateForcesRow
		for _, r := range all {
			if filter.keep == nil || filter.keep[r.Plate] {
				want = append(want, r)
			}
		}
		for off := 0; off <= len(want)+1; off++ {
			for lim := 1; lim <= 4; lim++ {
				path := fmtPath("plate-element-forces?offset=%d&limit=%d", off, lim)
				if filter.q != "" {
					path += "&plates=" + filter.q
				}
				got := query[model.PlateForcesRow](s, path).Results
				w := want[min(off, len(want)):min(off+lim, len(want))]
				if len(got) != len(w) {
					t.Fatalf("%s: %d rows, want %d", path, len(got), len(w))
				}
				for i := range got {
					if got[i] != w[i] {
						t.Fatalf("%s row %d: %+v, want %+v", path, i, got[i], w[i])
					}
				}
			}
		}
	}
	// Superposition: case 3 = case 1 + 2 × case 2.
	for k := range 5 {
		a, b, c := all[k], all[5+k], all[10+k]
		if d := c.Mx - (a.Mx + 2*b.Mx); !(math.Abs(d) <= 1e-9*(math.Abs(c.Mx)+1e-9)) {
			t.Errorf("plate %d: combination mx %g, want %g", a.Plate, c.Mx, a.Mx+2*b.Mx)
		}
	}
	nf := query[model.PlateNodalForcesRow](s, "plate-nodal-forces?loadCases=2&plates=7-8&offset=1&limit=1").Results
	if len(nf) != 1 || nf[0].Plate != 8 || len(nf[0].Node) != 3 || len(nf[0].Fz) != 3 || nf[0].Node[0] != 2 || nf[0].Node[2] != 5 {
		t.Errorf("triangle 8 nodal forces %+v", nf)
	}
}

// plate-element-stresses derives txz = 1.5·vxz/shearThickness at query
// time. shearThickness only has to be > 0 and a Kirchoff plate's
// stiffness never uses it, so a tiny one analyses; its stresses overflow,
// which JSON cannot carry: the query must answer a 409 naming the plate
// (as member-stresses does for tiny shear areas), not a 500.
func TestPlateStressesOfTinyShearThicknessNot500(t *testing.T) {
	s := startStack(t, 1)
	navierPlate(s, "Kirchoff")
	s.must(200, "PATCH", "/job/structure/plates/1", map[string]any{"shearThickness": 1e-320})
	if run := s.wait(s.run(nil).RunID); run.Status != model.RunCompleted {
		t.Fatalf("run %s %q", run.Status, run.ErrorMessage)
	}
	r := s.call("GET", "/job/query/analysis/static/plate-element-stresses?plates=1", nil)
	if r.status != 409 || !isErrorResponse(r) || !strings.Contains(string(r.body), "plate 1, load case 1") {
		t.Errorf("plate-element-stresses = %d %.300s, want a 409 naming plate 1", r.status, r.body)
	}
	// The plate's other results and the other plates' stresses still answer.
	s.must(200, "GET", "/job/query/analysis/static/plate-element-forces?plates=1", nil)
	s.must(200, "GET", "/job/query/analysis/static/plate-element-stresses?plates=2", nil)
}
