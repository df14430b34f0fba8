package server

import (
	"fmt"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// The moving-load tests build a simply supported beam along X (Y up, the
// default) of span mlL in mlN members, and drive vehicles across it on a
// straight path over the beam, in the default job units (m, kN, kNm).
const (
	mlL = 10.0 // m
	mlN = 10
)

// simpleSpan builds the beam: node 1 pinned (and held in torsion), node
// mlN+1 on a roller, one member per metre, all of them elements to load,
// and travel path 1 from x = 0 to x = mlL along the beam.
func simpleSpan(s *stack) {
	s.t.Helper()
	s.must(200, "POST", "/job/new", nil)
	s.must(201, "POST", "/job/structure/materials", map[string]any{"id": 1, "name": "steel", "youngsModulus": 200e3, "poissonsRatio": 0.3})
	s.must(201, "POST", "/job/structure/sections", map[string]any{"id": 1, "name": "beam", "a": 5000, "j": 2e8, "iy": 1e8, "iz": 1e8, "ay": 4000, "az": 4000})
	var nodes, members []map[string]any
	for i := 0; i <= mlN; i++ {
		nodes = append(nodes, map[string]any{"id": i + 1, "x": mlL * float64(i) / mlN, "y": 0, "z": 0})
		if i > 0 {
			members = append(members, map[string]any{"id": i, "nodeA": i, "nodeB": i + 1, "section": 1, "material": 1})
		}
	}
	s.must(200, "POST", "/job/structure/nodes/bulk", nodes)
	s.must(200, "POST", "/job/structure/members/bulk", members)
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": 1, "restraintCode": "FFFFRR"})
	s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": mlN + 1, "restraintCode": "RFFRRR"})
	s.must(200, "PATCH", "/job/loads/moving-loads/elements-to-load", map[string]any{"members": fmt.Sprintf("1-%d", mlN)})
	s.must(201, "POST", "/job/loads/moving-loads/travel-paths", map[string]any{"name": "span",
		"stations": []map[string]any{{"x": 0}, {"x": mlL}}})
}

// generate posts a generation and decodes the answer.
func generate(s *stack, body any) (ids []int64, groups []string) {
	s.t.Helper()
	var out struct {
		GeneratedLoadCaseIDs []int64  `json:"generatedLoadCaseIds"`
		GeneratedGroups      []string `json:"generatedGroups"`
	}
	s.must(200, "POST", "/job/loads/moving-loads/generate", body).decode(s.t, &out)
	return out.GeneratedLoadCaseIDs, out.GeneratedGroups
}

// midspanMoment reads |Mz| at midspan (end B of member mlN/2) per case.
func midspanMoment(s *stack, cases string) map[int64]float64 {
	s.t.Helper()
	out := map[int64]float64{}
	for _, r := range query[model.MemberEndForcesRow](s, fmt.Sprintf("member-end-forces?loadCases=%s&members=%d", cases, mlN/2)).Results {
		out[r.LoadCase] = math.Abs(r.Mz[1])
	}
	return out
}

// One axle P crossing a simply supported span: the influence lines of the
// left reaction, R_A(x) = P(1 − x/L), and of the midspan moment,
// M(L/2) = P·x/2 for x ≤ L/2 and P(L − x)/2 beyond (any statics text, e.g.
// Hibbeler, Structural Analysis, ch. 6). Euler–Bernoulli beam elements
// with their fixed-end actions are exact for point loads, so both hold to
// round-off (1e-9 relative). The axle moves 0.75 m per 1 s step, so it
// stands at nodes and between them.
func TestMovingLoadSingleAxleInfluenceLines(t *testing.T) {
	s := startStack(t, 1)
	simpleSpan(s)
	const p = 100.0 // kN
	s.must(201, "POST", "/job/loads/moving-loads/vehicles", map[string]any{"name": "axle", "loads": []map[string]any{{"x": 0, "y": 0, "fz": -p}}})
	s.must(201, "POST", "/job/loads/moving-loads/scenarios", map[string]any{"name": "one axle", "timeInterval": 1,
		"loads": []map[string]any{{"vehicleId": 1, "travelPathId": 1, "speed": 0.75}}})
	ids, groups := generate(s, nil)
	// Steps while the axle is on [0, 10]: x = 0, 0.75, …, 9.75.
	if len(ids) != 14 || ids[0] != 1 || ids[13] != 14 || len(groups) != 1 || groups[0] != "one axle" {
		t.Fatalf("generated %v, groups %q", ids, groups)
	}
	run := s.run(nil)
	if done := s.wait(run.RunID); done.Status != model.RunCompleted {
		t.Fatalf("run %+v", done)
	}
	reactions := query[model.NodeReactionRow](s, "node-reactions?loadCases=1-14&nodes=1").Results
	moments := midspanMoment(s, "1-14")
	if len(reactions) != 14 || len(moments) != 14 {
		t.Fatalf("%d reactions, %d moments", len(reactions), len(moments))
	}
	for _, r := range reactions {
		x := 0.75 * float64(r.LoadCase-1)
		wantR := p * (1 - x/mlL)
		wantM := p * math.Min(x, mlL-x) / 2
		if !near(r.Fy, wantR, 1e-9) {
			t.Errorf("case %d (x = %g m): R_A = %.12g, want %.12g", r.LoadCase, x, r.Fy, wantR)
		}
		if math.Abs(moments[r.LoadCase]-wantM) > 1e-9*p*mlL {
			t.Errorf("case %d (x = %g m): M(L/2) = %.12g, want %.12g", r.LoadCase, x, moments[r.LoadCase], wantM)
		}
	}
}

// A two-axle vehicle on the simple span: front axle 60 kN, rear axle
// 140 kN, 3 m behind. By the midspan moment's influence line (η = x/2 up to
// L/2, (L − x)/2 beyond), the largest moment has the heavier axle at
// midspan: M = 140·2.5 + 60·(10 − 8)/2 = 410 kNm, with the front axle at
// x = 8 m. The vehicle moves 0.7 m per step, so the nearest step is at most
// 0.35 m from that position; the moment's slope there is at most
// 140/2 + 60/2 = 100 kN, so the largest stepped moment is within
// 100 × 0.35 = 35 kNm below 410 kNm (and never above it). Every step's
// moment must also equal the influence-line sum at its own position, to
// round-off (1e-9 relative).
func TestMovingLoadTwoAxleMaximumMoment(t *testing.T) {
	s := startStack(t, 1)
	simpleSpan(s)
	const (
		front, rear, gap = 60.0, 140.0, 3.0
		step             = 0.7 // m per case
		mMax             = 410.0
		stepError        = 100 * step / 2
	)
	s.must(201, "POST", "/job/loads/moving-loads/vehicles", map[string]any{"name": "two axles",
		"loads": []map[string]any{{"x": 0, "fz": -front}, {"x": -gap, "fz": -rear}}})
	s.must(201, "POST", "/job/loads/moving-loads/scenarios", map[string]any{"name": "two axles", "timeInterval": 1,
		"loads": []map[string]any{{"vehicleId": 1, "travelPathId": 1, "speed": step}}})
	ids, _ := generate(s, nil)
	// The front axle from 0 until the rear one leaves: 0 ≤ s ≤ 13 m.
	if len(ids) != 19 {
		t.Fatalf("generated %d cases %v, want 19", len(ids), ids)
	}
	if done := s.wait(s.run(nil).RunID); done.Status != model.RunCompleted {
		t.Fatalf("run %+v", done)
	}
	eta := func(x float64) float64 {
		if x < 0 || x > mlL {
			return 0 // off the span: the path ends with the beam, and so do the loads on it
		}
		return math.Min(x, mlL-x) / 2
	}
	best := 0.0
	for lc, m := range midspanMoment(s, fmt.Sprintf("%d-%d", ids[0], ids[len(ids)-1])) {
		x := step * float64(lc-ids[0])
		want := front*eta(x) + rear*eta(x-gap)
		if math.Abs(m-want) > 1e-9*mMax {
			t.Errorf("case %d (front axle at %g m): M(L/2) = %.12g, want %.12g", lc, x, m, want)
		}
		best = math.Max(best, m)
	}
	if best > mMax*(1+1e-9) || best < mMax-stepError {
		t.Errorf("largest midspan moment %.6g kNm, want within %g kNm below %g kNm", best, stepError, mMax)
	}
}
