package server

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// The "Bridge deck" sample (pkg/samples/bridge_test.go), restated here so
// that the expected numbers come from the drawing, not from the code under
// test: a 20 m simply supported span along X, girders at z = 0 (members
// 1-20, bearings at nodes 1 and 21) and z = 2.8 m (members 101-120,
// bearings at nodes 101 and 121), an AS 5100.2 M1600 and a 6 kN/m lane
// load 25 m long travelling together on the centreline z = 1.4 m, exactly
// over the deck (x = 0 to 20 m), 1 m per step (16 m/s × 0.0625 s) from a
// leading axle at x = 0, generated cases numbered from 101, and
// keepLoadsWithinTravelPath on.
const (
	bdSpan      = 20.0  // m
	bdGap       = 2.8   // m between the girders
	bdAxle      = 120.0 // kN, AS 5100.2:2017 Fig. 7.2.4(B): 120 kN axles, two 60 kN wheel groups 2.0 m apart
	bdLane      = 6.0   // kN/m, the M1600 lane load (same figure), spread over 3.2 m
	bdLaneLen   = 25.0  // m, the sample's choice: the length of the M1600
	bdStep      = 1.0   // m per step
	bdFirstCase = 101
	bdGroup     = "M1600 + lane load"
)

// bdAxles are the axle positions of the M1600 behind its leading axle, m:
// AS 5100.2:2017 Fig. 7.2.4(B), four tri-axle groups at 1.25 m with gaps
// of 3.75 m, 6.25 m (the minimum variable spacing, as the library
// vehicle has it) and 5.0 m. Every value is a multiple of 0.25 m, exact in
// binary, so a wheel at a bearing (x = 0 or 20 m) is on the deck exactly.
var bdAxles = []float64{0, -1.25, -2.5, -6.25, -7.5, -8.75, -15, -16.25, -17.5, -22.5, -23.75, -25}

// bdSteps is the number of cases the stepping rule makes (doc of
// pkg/model/movingload, "Stepping"): a case for every step at which the
// vehicle (x from −25 m to 0) or the lane load (25 m behind its front)
// lies partly on the 20 m path, i.e. leading point s = k·1 m with
// 0 ≤ s and s − 25 ≤ 20: k = 0 … 45.
const bdSteps = 46

// bdApplied is the downward load on the deck, kN, with the leading axle at
// s: every axle with 0 ≤ s + x ≤ 20 m (keepLoadsWithinTravelPath keeps the
// ends, drops the rest), and the lane load over the part of [s − 25, s]
// that lies on [0, 20]. It also returns the moment of that load about the
// bearings at x = 20 m, kN·m (arm 20 − x), for the end reactions.
func bdApplied(s float64) (load, moment float64) {
	for _, x := range bdAxles {
		if at := s + x; at >= 0 && at <= bdSpan {
			load += bdAxle
			moment += bdAxle * (bdSpan - at)
		}
	}
	if lo, hi := math.Max(s-bdLaneLen, 0), math.Min(s, bdSpan); hi > lo {
		load += bdLane * (hi - lo)
		moment += bdLane * (hi - lo) * (bdSpan - (lo+hi)/2)
	}
	return load, moment
}

// The bridge deck sample generates its moving loads, analyses them and
// stands on its bearings: for every generated case the vertical reactions
// sum to the load on the deck at that step (ΣFy = 0 for the whole deck),
// and the load on the deck is what the stepping rule puts there, counted
// by hand.
func TestBridgeDeckSampleMovingLoads(t *testing.T) {
	s := startStack(t, 1)
	s.must(200, "POST", "/job/open-sample", map[string]any{"fileName": "Bridge deck"})
	ids, groups := generate(s, nil)
	want := make([]int64, bdSteps)
	for k := range want {
		want[k] = bdFirstCase + int64(k)
	}
	if !slices.Equal(ids, want) || !slices.Equal(groups, []string{bdGroup}) {
		t.Fatalf("generated cases %v, groups %q; want %d cases from %d and group %q", ids, groups, bdSteps, bdFirstCase, bdGroup)
	}
	var group []model.LoadCaseGroup
	s.must(200, "GET", "/job/loads/load-case-groups", nil).decode(t, &group)
	if len(group) != 1 || group[0].Title != bdGroup || group[0].LoadCaseList != fmt.Sprintf("%d-%d", bdFirstCase, bdFirstCase+bdSteps-1) {
		t.Errorf("load-case groups %+v", group)
	}
	checkBridgeLeverRule(t, s)

	run := s.run(nil)
	if done := s.wait(run.RunID); done.Status != model.RunCompleted || len(done.Warnings) != 0 {
		t.Fatalf("run %s: %s %v", done.Status, done.ErrorMessage, done.Warnings)
	}
	cases := fmt.Sprintf("%d-%d", bdFirstCase, bdFirstCase+bdSteps-1)
	reactions := map[int64]map[int64]model.NodeReactionRow{} // case → node → row
	for _, r := range query[model.NodeReactionRow](s, "node-reactions?loadCases="+cases).Results {
		if reactions[r.LoadCase] == nil {
			reactions[r.LoadCase] = map[int64]model.NodeReactionRow{}
		}
		reactions[r.LoadCase][r.Node] = r
	}
	applied := map[int64]float64{}
	for _, r := range query[model.ReactionSummaryRow](s, "reaction-summary?loadCases="+cases).Results {
		if r.SummaryType == model.SummaryLoad {
			applied[r.LoadCase] = r.Fy
		}
	}

	// Tolerances. The generated load is the hand count to round-off: each
	// wheel is shared between the girders in two parts that add up to it,
	// and the lane load is p·dl·dw summed over its cells (1e-12 relative).
	// The reactions of a linear solution balance the applied load to the
	// round-off of the solve; on this 42-node model that is below 1e-9 of
	// the load (about 1e-13 in practice; the single-axle influence-line
	// test holds 1e-9 too). Reactions that lie near zero (a lone axle on a
	// bearing) are held to the same absolute tolerance, rel × the load.
	const rel = 1e-9
	for k := range bdSteps {
		lc := int64(bdFirstCase + k)
		x := float64(k) * bdStep
		load, moment := bdApplied(x)
		t.Run(fmt.Sprintf("case %d, leading axle at %g m", lc, x), func(t *testing.T) {
			rows := reactions[lc]
			if len(rows) != 4 {
				t.Fatalf("%d reaction rows, want the 4 bearings: %+v", len(rows), rows)
			}
			var sumY, sumX, sumZ float64
			for _, r := range rows {
				sumX, sumY, sumZ = sumX+r.Fx, sumY+r.Fy, sumZ+r.Fz
			}
			if !near(applied[lc], -load, rel) {
				t.Errorf("applied ΣFy = %.12g kN, want −%.12g kN by hand", applied[lc], load)
			}
			if !near(sumY, load, rel) {
				t.Errorf("ΣRy = %.12g kN, want %.12g kN (minus the applied ΣFy)", sumY, load)
			}
			// No horizontal load: the horizontal reactions cancel.
			if math.Abs(sumX) > rel*load || math.Abs(sumZ) > rel*load {
				t.Errorf("ΣRx = %g kN, ΣRz = %g kN, want 0", sumX, sumZ)
			}
			// Moments about the bearing line x = 20 m: the bearings at
			// x = 0 (nodes 1 and 101) take moment/20 between them.
			if r0 := rows[1].Fy + rows[101].Fy; math.Abs(r0-moment/bdSpan) > rel*load {
				t.Errorf("R(x = 0) = %.12g kN, want %.12g kN", r0, moment/bdSpan)
			}
		})
	}

	// The sample's own cases stand on the bearings too. G1: the concrete
	// (N40, ρ = 2400 kg/m³, AS 3600 Cl. 3.1.3, as the library has it) of
	// two 20 m girders of 1.4 × 0.6 m and five 2.8 m cross-beams of
	// 0.9 × 0.3 m (node to node), 37.38 m³, under g = 9.80665 m/s²:
	// 879.774 kN. G2: 12 kN/m on 2 × 20 m of girder, 480 kN. Tolerance as
	// above.
	for lc, want := range map[int64]float64{1: 37.38 * 2400 * 9.80665 / 1e3, 2: 480} {
		sum := 0.0
		for _, r := range query[model.NodeReactionRow](s, fmt.Sprintf("node-reactions?loadCases=%d", lc)).Results {
			sum += r.Fy
		}
		if !near(sum, want, rel) {
			t.Errorf("case %d: ΣRy = %.12g kN, want %.12g kN", lc, sum, want)
		}
	}

	// An independent hand value, nearly centred (the vehicle's middle at
	// 9.5 m): leading axle at 22 m, case 123. Axles on the deck at 19.5,
	// 15.75, 14.5, 13.25, 7, 5.75 and 4.5 m (840 kN); the lane load covers
	// the whole span (120 kN). Simply supported span (statics, e.g.
	// Hibbeler, Structural Analysis, ch. 2): R(x = 0) = Σ P(20 − x)/20 =
	// 120 × 59.75/20 + 120/2 = 418.5 kN and R(x = 20) = 960 − 418.5 =
	// 541.5 kN. The path is on the centreline, so the lever rule gives
	// each girder half of every axle (6/7 + 1/7 of a wheel from either
	// side) and the symmetric deck halves each end's reaction between its
	// two bearings: 209.25 kN and 270.75 kN.
	rows := reactions[123]
	for node, wantR := range map[int64]float64{1: 209.25, 101: 209.25, 21: 270.75, 121: 270.75} {
		if got := rows[node].Fy; !near(got, wantR, rel) {
			t.Errorf("case 123: bearing at node %d Ry = %.12g kN, want %g kN", node, got, wantR)
		}
	}
}

// checkBridgeLeverRule reads the generated member loads of case 101, the
// M1600's leading axle alone at x = 0: its wheels stand at z = 0.4 m (the
// vehicle's left, y = +1 m, maps to −Z for travel along +X) and z = 2.4 m,
// 0.4 m from one girder and 2.4 m from the other. The lever rule (doc of
// pkg/model/movingload) gives the near girder 2.4/2.8 = 6/7 of a 60 kN
// wheel and the far one 1/7, both at the foot of the wheel: position 0 of
// members 1 and 101. Round-off only (1e-12 relative).
func checkBridgeLeverRule(t *testing.T, s *stack) {
	t.Helper()
	var loads []model.MemberConcentratedLoad
	s.must(200, "GET", fmt.Sprintf("/job/loads/member-concentrated-loads?loadCases=%d", bdFirstCase), nil).decode(t, &loads)
	got := map[int64][]float64{}
	for _, l := range loads {
		if l.Position != 0 || l.Fx != 0 || l.Fz != 0 || l.Axes != "GlobalInclined" {
			t.Errorf("case %d: load %+v, want a vertical load at position 0", bdFirstCase, l)
		}
		got[l.Member] = append(got[l.Member], l.Fy)
	}
	wheel := bdAxle / 2
	for _, m := range []int64{1, 101} {
		f := got[m]
		slices.Sort(f)
		if len(f) != 2 || !near(f[0], -wheel*(bdGap-0.4)/bdGap, 1e-12) || !near(f[1], -wheel*0.4/bdGap, 1e-12) {
			t.Errorf("case %d: member %d loads %v kN, want %.9g and %.9g kN", bdFirstCase, m, f,
				-wheel*(bdGap-0.4)/bdGap, -wheel*0.4/bdGap)
		}
	}
	if len(got) != 2 {
		t.Errorf("case %d: loads on members %v, want 1 and 101 only", bdFirstCase, got)
	}
}
