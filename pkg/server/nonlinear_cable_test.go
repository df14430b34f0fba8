package server

import (
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// TestNonLinearCableLength reads finalCableLength through
// member-end-forces. A cable (member 1, E = 29000 ksi, A = 1 in², chord
// 100 in, node 2 free along it) is pulled by P = 10 kip in case 1 and
// pushed by a stiffer parallel truss in case 2, where it goes slack:
//
//   - case 1, cableLength 0 (L0 the chord): N = P, and the stretched
//     length is L0·(1 + N/EA) = 100·(1 + 10/29000) = 100.0344828 in, which
//     is also the chord the node moves to (Hooke's law: the elongation
//     is N·L0/EA);
//   - case 2, the cable slack under the push: N = 0 and the length is L0;
//   - the truss (member 2) and linear results report no length.
//
// Both are exact up to the convergence tolerance (1e-10 of the load),
// hence 1e-9 relative.
func TestNonLinearCableLength(t *testing.T) {
	s := startStack(t, 1)
	s.must(200, "POST", "/job/new", nil)
	s.must(200, "PATCH", "/job/units", map[string]any{"length": "in", "sectionProperties": "in", "materialStrength": "Ksi",
		"force": "K", "moment": "Kin", "translation": "inch"})
	s.must(201, "POST", "/job/structure/materials", map[string]any{"id": 1, "name": "steel", "youngsModulus": 29000, "poissonsRatio": 0.3})
	s.must(201, "POST", "/job/structure/sections", map[string]any{"id": 1, "name": "rod", "a": 1, "j": 1, "iy": 1, "iz": 1, "ay": 1, "az": 1})
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 1, "x": 0, "y": 0, "z": 0})
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 2, "x": 100, "y": 0, "z": 0})
	s.must(201, "POST", "/job/structure/members", map[string]any{"id": 1, "nodeA": 1, "nodeB": 2, "section": 1, "material": 1,
		"type": "Cable"})
	s.must(201, "POST", "/job/structure/nodes", map[string]any{"id": 3, "x": 0, "y": 10, "z": 0})
	s.must(201, "POST", "/job/structure/members", map[string]any{"id": 2, "nodeA": 3, "nodeB": 2, "section": 1, "material": 1,
		"type": "Truss"})
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 1, "restraintCode": "FFFFFF"})
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 3, "restraintCode": "FFFFFF"})
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 2, "restraintCode": "RFFFFF"})
	for lc, fx := range map[int]float64{1: 10, 2: -10} {
		s.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": lc, "title": "pull or push"})
		s.must(201, "POST", "/job/loads/node-loads", map[string]any{"loadCase": lc, "node": 2, "fx": fx})
	}
	done := s.wait(s.runNonLinear(map[string]any{"convergenceAccuracy": 1e-8, "deflectionsConvergence": false}).RunID)
	if done.Status != model.RunCompleted {
		t.Fatalf("run %s: %q %v", done.Status, done.ErrorMessage, done.Warnings)
	}
	ends := query[model.MemberEndForcesRow](s, "member-end-forces")
	got := map[[2]int64][]float64{}
	for _, r := range ends.Results {
		got[[2]int64{r.LoadCase, r.Member}] = r.FinalCableLength
	}
	check := func(lc, member int64, want float64) {
		t.Helper()
		l := got[[2]int64{lc, member}]
		switch {
		case want == 0 && len(l) != 0:
			t.Errorf("case %d member %d: finalCableLength %v, want none", lc, member, l)
		case want != 0 && (len(l) != 1 || !near(l[0], want, 1e-9)):
			t.Errorf("case %d member %d: finalCableLength %v, want [%.7f]", lc, member, l, want)
		}
	}
	// The truss shares the pull with the cable in case 1: the cable's
	// tension is its share, read from its own end forces.
	var n float64
	for _, r := range ends.Results {
		if r.LoadCase == 1 && r.Member == 1 {
			n = r.Fx[1]
		}
	}
	if !(n > 0 && n < 10) {
		t.Fatalf("cable tension %g kip in case 1, want a share of the 10 kip pull", n)
	}
	check(1, 1, 100*(1+n/29000))
	check(2, 1, 100)
	check(1, 2, 0)
	check(2, 2, 0)
	// The chord the tip moved to is the stretched length.
	disp := query[model.NodeDisplacementRow](s, "node-displacements?loadCases=1&nodes=2")
	if len(disp.Results) != 1 || !near(100+disp.Results[0].Tx, got[[2]int64{1, 1}][0], 1e-9) {
		t.Errorf("tip %+v against the cable length %v", disp.Results, got[[2]int64{1, 1}])
	}

	if lin := s.wait(s.run(nil).RunID); lin.Status != model.RunCompleted {
		t.Fatalf("linear run %s: %q", lin.Status, lin.ErrorMessage)
	}
	for _, r := range query[model.MemberEndForcesRow](s, "member-end-forces").Results {
		if len(r.FinalCableLength) != 0 {
			t.Errorf("linear case %d member %d: finalCableLength %v", r.LoadCase, r.Member, r.FinalCableLength)
		}
	}
}
