package static_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/static"
)

// cantilever returns a cantilever along dir (unit) of length L fixed at A.
func cantilever(L float64, dir geom.Vec3) *domain.Model {
	m := base(sec(8, 0.01, 8e-5))
	m.Nodes = []domain.Node{node(6, 0, 0, 0), node(5, L*dir[0], L*dir[1], L*dir[2])}
	m.Members = []domain.Member{frame(7, 6, 5, 8)}
	m.Supports = []domain.Support{{Node: 6, Code: "FFFFFF"}}
	return m
}

func TestCombinations(t *testing.T) {
	m := cantilever(3, geom.Vec3{1, 0, 0})
	m.LoadCases = []domain.LoadCase{
		{ID: 18, NodeLoads: []domain.NodeLoad{{Node: 5, F: [6]float64{0, -1e3}}}},
		{ID: 19, Members: []domain.MemberLoad{{Member: 7, Type: domain.ConcentratedForce,
			Direction: geom.NegativeYAxis, Position: domain.Percent, A: 50, P1: 2e3}}},
	}
	m.Combinations = []domain.Combination{
		{ID: 20, Terms: []domain.Term{{Case: 18, Factor: 1.35}, {Case: 19, Factor: 1.5}}},
		{ID: 21, Terms: []domain.Term{{Case: 20, Factor: 2}, {Case: 18, Factor: -1}}},
	}
	res := run(t, m, static.Options{})
	d, l := caseByName(t, res, 18), caseByName(t, res, 19)
	c1, c2 := caseByName(t, res, 20), caseByName(t, res, 21)
	// Superposition is exact in a linear analysis: round-off only.
	for i := range 6 {
		want1 := 1.35*nodeRes(t, d, 5).Disp[i] + 1.5*nodeRes(t, l, 5).Disp[i]
		want2 := 2*want1 - nodeRes(t, d, 5).Disp[i]
		if math.Abs(nodeRes(t, c1, 5).Disp[i]-want1) > 1e-12*(1+math.Abs(want1)) {
			t.Errorf("C1 disp %d = %g, want %g", i, nodeRes(t, c1, 5).Disp[i], want1)
		}
		if math.Abs(nodeRes(t, c2, 5).Disp[i]-want2) > 1e-12*(1+math.Abs(want2)) {
			t.Errorf("C2 disp %d = %g, want %g", i, nodeRes(t, c2, 5).Disp[i], want2)
		}
	}
	// The combination's diagram includes the scaled point load: its
	// station at 1.5 m exists and the shear jumps by 1.5·2e3 there.
	mr := memberRes(t, c1, 7)
	var before, after *static.Station
	for i := range mr.Stations {
		if mr.Stations[i].X == 1.5 {
			if before == nil {
				before = &mr.Stations[i]
			} else {
				after = &mr.Stations[i]
			}
		}
	}
	if before == nil || after == nil {
		t.Fatalf("no left/right stations at the point load: %v", mr.Stations)
	}
	if jump := after.Forces[1] - before.Forces[1]; math.Abs(jump-3e3) > 1e-9*3e3 {
		t.Errorf("shear jump = %g, want 3000", jump)
	}

	// Only requested cases are returned, in request order.
	res2 := run(t, m, static.Options{Cases: []int64{21, 19}})
	if len(res2.Cases) != 2 || res2.Cases[0].Case != 21 || res2.Cases[1].Case != 19 {
		t.Fatalf("requested cases: got %d cases", len(res2.Cases))
	}
}

// TestRotationInvarianceModel: the same cantilever and load in any
// orientation gives the same tip deflection along the load and the same
// member forces (the element is exact, so to round-off).
func TestRotationInvarianceModel(t *testing.T) {
	const L, P = 3.0, 2e3
	EI := E * 8e-5
	want := P * L * L * L / (3 * EI)
	dirs := []geom.Vec3{{1, 0, 0}, {0, 0, 1}, {0.6, 0, 0.8}, {1 / math.Sqrt(3), 1 / math.Sqrt(3), 1 / math.Sqrt(3)}}
	for _, d := range dirs {
		m := cantilever(L, d)
		// A load perpendicular to the member: local y in its own axes.
		m.LoadCases = []domain.LoadCase{{ID: 40, Members: []domain.MemberLoad{{Member: 7,
			Type: domain.ConcentratedForce, Direction: geom.YAxis, Position: domain.Percent, A: 100, P1: P}}}}
		c := run(t, m, static.Options{})
		mr := memberRes(t, c.Cases[0], 7)
		st := stationAt(t, mr, L)
		if math.Abs(st.Disp[1]-want) > exactRel*want {
			t.Errorf("dir %v: δ = %g, want %g", d, st.Disp[1], want)
		}
		// An end load along +y bends the member with v'' > 0: Mz = +PL.
		if got := stationAt(t, mr, 0).Forces[5]; math.Abs(got-P*L) > exactRel*P*L {
			t.Errorf("dir %v: M_base = %g, want %g", d, got, P*L)
		}
	}
}

func TestSelfWeightAndProjected(t *testing.T) {
	// An inclined simply supported member (rise 3 over run 4, L = 5):
	// self-weight and a projected snow load both give total vertical
	// reactions equal to the total load (statics).
	m := base(sec(8, 0.01, 8e-5))
	m.Nodes = []domain.Node{node(6, 0, 0, 0), node(5, 4, 3, 0)}
	m.Members = []domain.Member{frame(7, 6, 5, 8)}
	m.Supports = []domain.Support{{Node: 6, Code: "FFFFFR"}, {Node: 5, Code: "RFFRRR"}}
	m.LoadCases = []domain.LoadCase{
		{ID: 22, SelfWeight: [3]float64{0, -1, 0}},
		{ID: 23, Members: []domain.MemberLoad{{Member: 7, Type: domain.DistributedForce,
			Axes: domain.GlobalProjected, Direction: geom.NegativeYAxis, P1: 1e3, P2: 1e3}}},
	}
	res := run(t, m, static.Options{})
	sw := caseByName(t, res, 22).Summary
	// ρ·A·g·L = 7850·0.01·9.80665·5 N (G documented as 9.80665 m/s²).
	verify(t, []check{
		{"self-weight", sw.Load[1], -7850 * 0.01 * 9.80665 * 5, exactRel},
		// Projected: 1 kN/m over the horizontal run of 4 m.
		{"snow", caseByName(t, res, 23).Summary.Load[1], -4e3, exactRel},
	})
}

func TestTensionOnlyBracing(t *testing.T) {
	// Pinned two-storey-free X-braced bay: lateral H; with tension-only
	// diagonals the compression diagonal drops out and the tension one
	// carries H/cosθ (statics of a pinned frame).
	const h, L, H = 3.0, 4.0, 10e3
	m := base(sec(9, 0.01, 1e-4), sec(24, 1e-3, 1e-8))
	m.Nodes = []domain.Node{node(1, 0, 0, 0), node(2, 0, h, 0), node(3, L, h, 0), node(4, L, 0, 0)}
	c1, bm, c2 := frame(11, 1, 2, 9), frame(12, 2, 3, 9), frame(13, 4, 3, 9)
	for _, mb := range []*domain.Member{&c1, &bm, &c2} {
		mb.ReleaseA, mb.ReleaseB = "FFFFFR", "FFFFFR"
	}
	d1, d2 := frame(25, 1, 3, 24), frame(26, 4, 2, 24)
	d1.Type, d2.Type = domain.TensionOnly, domain.TensionOnly
	m.Members = []domain.Member{c1, bm, c2, d1, d2}
	m.Supports = []domain.Support{{Node: 1, Code: "FFFFFF"}, {Node: 4, Code: "FFFFFF"},
		{Node: 2, Code: "RRFFFF"}, {Node: 3, Code: "RRFFFF"}}
	m.LoadCases = []domain.LoadCase{{ID: 27, NodeLoads: []domain.NodeLoad{{Node: 2, F: [6]float64{H}}}}}

	res := run(t, m, static.Options{TensionCompressionOnly: true})
	c := res.Cases[0]
	diag := math.Hypot(h, L)
	d1r, d2r := memberRes(t, c, 25), memberRes(t, c, 26)
	if !d2r.Inactive {
		t.Errorf("compression diagonal d2 still active")
	}
	verify(t, []check{{"N d1", stationAt(t, d1r, diag/2).Forces[0], H * diag / L, exactRel}})

	// Combinations are solved from their combined loads; reversing H
	// swaps the diagonals.
	m.Combinations = []domain.Combination{{ID: 94, Terms: []domain.Term{{Case: 27, Factor: -2}}}}
	res = run(t, m, static.Options{TensionCompressionOnly: true, Cases: []int64{94}})
	c = res.Cases[0]
	if !memberRes(t, c, 25).Inactive || memberRes(t, c, 26).Inactive {
		t.Errorf("reversed load: wrong diagonal active")
	}
	verify(t, []check{{"N d2", stationAt(t, memberRes(t, c, 26), diag/2).Forces[0], 2 * H * diag / L, exactRel}})

	// An iteration limit that is too small leaves a warning.
	res = run(t, m, static.Options{TensionCompressionOnly: true, ReversalIterations: 1, Cases: []int64{27}})
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "did not settle") {
		t.Errorf("warnings = %v", res.Warnings)
	}

	// Without the option both diagonals share the load.
	res = run(t, m, static.Options{})
	if memberRes(t, res.Cases[0], 26).Inactive {
		t.Errorf("linear analysis switched a member off")
	}
}

func TestOneWaySupport(t *testing.T) {
	// A beam on three supports whose middle one only pushes up (P): an
	// uplift load at the middle lifts it off, leaving a simple span.
	const L, P = 4.0, 1e3
	m := base(sec(8, 0.01, 8e-5))
	m.Nodes = []domain.Node{node(6, 0, 0, 0), node(28, L/2, 0, 0), node(5, L, 0, 0)}
	m.Members = []domain.Member{frame(29, 6, 28, 8), frame(30, 28, 5, 8)}
	m.Supports = []domain.Support{{Node: 6, Code: "FFFFRR"}, {Node: 5, Code: "RFFFRR"},
		{Node: 28, Code: "RFRRRR", Active: [6]byte{1: 'P'}}}
	m.LoadCases = []domain.LoadCase{{ID: 95, NodeLoads: []domain.NodeLoad{{Node: 28, F: [6]float64{0, P}}}}}
	c := run(t, m, static.Options{TensionCompressionOnly: true}).Cases[0]
	EI := E * 8e-5
	verify(t, []check{
		// Roark Table 8.1 case 1e: δ = PL³/48EI at midspan.
		{"uplift", nodeRes(t, c, 28).Disp[1], P * L * L * L / (48 * EI), exactRel},
		{"R_A", nodeRes(t, c, 6).Reaction[1], -P / 2, exactRel},
	})
}

func TestConstraintPrescribedSprings(t *testing.T) {
	const L = 3.0
	EI := E * 8e-5
	t.Run("master-slave", func(t *testing.T) {
		// Two parallel cantilevers whose tips follow a master node midway
		// between them as a rigid body: by symmetry each carries P/2,
		// δ = (P/2)L³/3EI (Roark Table 8.1 case 1a).
		const P = 4e3
		m := base(sec(8, 0.01, 8e-5))
		m.Nodes = []domain.Node{node(31, 0, 0, 0), node(32, L, 0, 0), node(33, 0, 0, 1), node(34, L, 0, 1),
			node(28, L, 0, 0.5)}
		m.Members = []domain.Member{frame(29, 31, 32, 8), frame(30, 33, 34, 8)}
		m.Supports = []domain.Support{{Node: 31, Code: "FFFFFF"}, {Node: 33, Code: "FFFFFF"}}
		m.Constraints = []domain.Constraint{{Master: 28, Slaves: []int64{32, 34}, Code: "FFFFFF"}}
		m.LoadCases = []domain.LoadCase{{ID: 40, NodeLoads: []domain.NodeLoad{{Node: 28, F: [6]float64{0, -P}}}}}
		c := run(t, m, static.Options{}).Cases[0]
		want := -P / 2 * L * L * L / (3 * EI)
		verify(t, []check{
			{"B1", nodeRes(t, c, 32).Disp[1], want, exactRel},
			{"B2", nodeRes(t, c, 34).Disp[1], want, exactRel},
			{"M", nodeRes(t, c, 28).Disp[1], want, exactRel},
			{"m1 tip shear", memberRes(t, c, 29).EndB[1], -P / 2, exactRel},
		})
	})
	t.Run("rigid link keeps moment equilibrium", func(t *testing.T) {
		// Load on one tip of two tied cantilevers: no symmetry, but the
		// rigid-body tie must still balance moments (checked by run).
		m := base(sec(8, 0.01, 8e-5))
		m.Nodes = []domain.Node{node(31, 0, 0, 0), node(32, L, 0, 0), node(33, 0, 0, 1), node(34, L, 0, 1)}
		m.Members = []domain.Member{frame(29, 31, 32, 8), frame(30, 33, 34, 8)}
		m.Supports = []domain.Support{{Node: 31, Code: "FFFFFF"}, {Node: 33, Code: "FFFFFF"}}
		m.Constraints = []domain.Constraint{{Master: 32, Slaves: []int64{34}, Code: "FFFFFF"}}
		m.LoadCases = []domain.LoadCase{{ID: 40, NodeLoads: []domain.NodeLoad{{Node: 32, F: [6]float64{0, -1e3}}}}}
		c := run(t, m, static.Options{}).Cases[0]
		b1, b2 := nodeRes(t, c, 32), nodeRes(t, c, 34)
		// u_B2 = u_B1 + θ_B1 × (0, 0, 1): uy gains −θx.
		if d := b2.Disp[1] - (b1.Disp[1] - b1.Disp[3]); math.Abs(d) > 1e-12 {
			t.Errorf("rigid tie violated by %g", d)
		}
	})
	t.Run("prescribed settlement", func(t *testing.T) {
		// Fixed-fixed beam, end B settles by Δ: M = 6EIΔ/L², V = 12EIΔ/L³
		// (McGuire et al., fixed-end forces for support settlement).
		const D = -0.01
		m := cantilever(L, geom.Vec3{1, 0, 0})
		m.Supports = append(m.Supports, domain.Support{Node: 5, Code: "FFFFFF"})
		m.LoadCases = []domain.LoadCase{{ID: 96, Prescribed: []domain.PrescribedDisplacement{{Node: 5,
			Set: [6]bool{1: true}, Value: [6]float64{1: D}}}}}
		c := run(t, m, static.Options{}).Cases[0]
		verify(t, []check{
			// Reactions on the nodes: B is pulled along the settlement,
			// A is turned against the rigid rotation D/L.
			{"M_A", nodeRes(t, c, 6).Reaction[5], -6 * EI * D / (L * L), exactRel},
			{"V_B", nodeRes(t, c, 5).Reaction[1], 12 * EI * D / (L * L * L), exactRel},
			{"uy_B", nodeRes(t, c, 5).Disp[1], D, exactRel},
		})
	})
	t.Run("spring support", func(t *testing.T) {
		// Cantilever with a tip spring k: δ = P/(k + 3EI/L³); the spring
		// reaction is −k·δ.
		const P, k = 1e3, 2e5
		m := cantilever(L, geom.Vec3{1, 0, 0})
		m.Supports = append(m.Supports, domain.Support{Node: 5, Code: "RSRRRR", Springs: [6]float64{1: k}})
		m.LoadCases = []domain.LoadCase{{ID: 40, NodeLoads: []domain.NodeLoad{{Node: 5, F: [6]float64{0, -P}}}}}
		c := run(t, m, static.Options{}).Cases[0]
		d := -P / (k + 3*EI/(L*L*L))
		verify(t, []check{
			{"δ", nodeRes(t, c, 5).Disp[1], d, exactRel},
			{"R_spring", nodeRes(t, c, 5).Reaction[1], -k * d, exactRel},
		})
	})
}

func TestErrorsAndWarnings(t *testing.T) {
	ctx := context.Background()
	t.Run("mechanism names node and DOF", func(t *testing.T) {
		m := cantilever(3, geom.Vec3{1, 0, 0})
		m.Supports[0].Code = "FFFFFR"
		m.LoadCases = []domain.LoadCase{{ID: 40, NodeLoads: []domain.NodeLoad{{Node: 5, F: [6]float64{0, -1}}}}}
		_, err := static.Analyze(ctx, m, static.Options{})
		var me *domain.ModelError
		if !errors.As(err, &me) || me.Node != 6 || me.DOF != "rotation about Z" || !strings.Contains(err.Error(), "rotation about Z") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("truss node rotations need stabilizing", func(t *testing.T) {
		m := cantilever(3, geom.Vec3{1, 0, 0})
		m.Members[0].Type = domain.Truss
		m.Supports = append(m.Supports, domain.Support{Node: 5, Code: "RFFRRR"})
		m.LoadCases = []domain.LoadCase{{ID: 97, NodeLoads: []domain.NodeLoad{{Node: 5, F: [6]float64{1e3}}}}}
		if _, err := static.Analyze(ctx, m, static.Options{}); !strings.Contains(fmt_(err), "mechanism at node 5, rotation about X") {
			t.Fatalf("err = %v", err)
		}
		res := run(t, m, static.Options{StabilizeUnrestrainedNodes: true})
		if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0], "node 5 rotation about X") {
			t.Errorf("warnings = %v", res.Warnings)
		}
		verify(t, []check{{"ux", nodeRes(t, res.Cases[0], 5).Disp[0], 1e3 * 3 / (E * 0.01), exactRel}})
	})
	t.Run("missing section names member", func(t *testing.T) {
		m := cantilever(3, geom.Vec3{1, 0, 0})
		m.Members[0].Section = 35
		if _, err := static.Analyze(ctx, m, static.Options{}); !strings.Contains(fmt_(err), "member 7: section \"35\"") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("load on missing member", func(t *testing.T) {
		m := cantilever(3, geom.Vec3{1, 0, 0})
		m.LoadCases = []domain.LoadCase{{ID: 98, Members: []domain.MemberLoad{{Member: 36}}}}
		if _, err := static.Analyze(ctx, m, static.Options{}); !strings.Contains(fmt_(err), "member \"36\"") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("V P N warnings", func(t *testing.T) {
		m := cantilever(3, geom.Vec3{1, 0, 0})
		m.Supports[0].Code = "PNFFFF"
		m.Supports = append(m.Supports, domain.Support{Node: 5, Code: "RVRRRR",
			Tables: [6][]domain.SpringSegment{1: {{Stiffness: 1e5, Limit: 0.01}}}})
		m.LoadCases = []domain.LoadCase{{ID: 40, NodeLoads: []domain.NodeLoad{{Node: 5, F: [6]float64{0, -1}}}}}
		res := run(t, m, static.Options{})
		all := strings.Join(res.Warnings, "\n")
		for _, w := range []string{"variable supports", "plastic supports", "friction supports", "nodes 6", "nodes 5"} {
			if !strings.Contains(all, w) {
				t.Errorf("warnings %q lack %q", all, w)
			}
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		m := cantilever(3, geom.Vec3{1, 0, 0})
		m.LoadCases = []domain.LoadCase{{ID: 40}}
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := static.Analyze(cctx, m, static.Options{}); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
	})
}

func fmt_(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func TestSectionOptions(t *testing.T) {
	const L, P = 2.0, 5e3
	t.Run("shear deformation", func(t *testing.T) {
		// Timoshenko cantilever: δ = PL³/3EI + PL/(G·Ay) (Timoshenko &
		// Gere, Mechanics of Materials, shear deflection of a cantilever);
		// the element is exact, so round-off only.
		m := cantilever(L, geom.Vec3{1, 0, 0})
		m.Sections[0].Ay = 2e-3
		m.LoadCases = []domain.LoadCase{{ID: 40, NodeLoads: []domain.NodeLoad{{Node: 5, F: [6]float64{0, -P}}}}}
		c := run(t, m, static.Options{}).Cases[0]
		want := -(P*L*L*L/(3*E*8e-5) + P*L/(Gm*2e-3))
		verify(t, []check{{"δ", nodeRes(t, c, 5).Disp[1], want, exactRel}})
	})
	t.Run("principal angle and inertia factor", func(t *testing.T) {
		// A 90° principal angle puts Iy in the vertical plane; the Iy
		// factor then scales the vertical stiffness.
		m := cantilever(L, geom.Vec3{1, 0, 0})
		m.Sections[0].Iz, m.Sections[0].Iy = 1e-5, 4e-5
		m.Sections[0].PrincipalAngle = math.Pi / 2
		m.Members[0].IyFactor = 2
		m.LoadCases = []domain.LoadCase{{ID: 40, NodeLoads: []domain.NodeLoad{{Node: 5, F: [6]float64{0, -P}}}}}
		c := run(t, m, static.Options{}).Cases[0]
		want := -P * L * L * L / (3 * E * 8e-5)
		verify(t, []check{{"δ", nodeRes(t, c, 5).Disp[1], want, exactRel}})
	})
	t.Run("truss member transverse load", func(t *testing.T) {
		// A truss member carries a midspan load to its nodes as a simple
		// span (P/2 each) and has zero end moments.
		m := cantilever(L, geom.Vec3{1, 0, 0})
		m.Members[0].Type = domain.Truss
		m.Supports = []domain.Support{{Node: 6, Code: "FFFFFF"}, {Node: 5, Code: "RFFFFF"}}
		m.LoadCases = []domain.LoadCase{{ID: 40, Members: []domain.MemberLoad{{Member: 7,
			Type: domain.ConcentratedForce, Direction: geom.NegativeYAxis, Position: domain.Percent, A: 50, P1: P}}}}
		c := run(t, m, static.Options{}).Cases[0]
		mr := memberRes(t, c, 7)
		verify(t, []check{
			{"R_A", nodeRes(t, c, 6).Reaction[1], P / 2, exactRel},
			{"R_B", nodeRes(t, c, 5).Reaction[1], P / 2, exactRel},
			{"M_mid", stationAt(t, mr, L/2).Forces[5], P * L / 4, exactRel},
		})
		if math.Abs(mr.EndA[5]) > 1e-9*P*L {
			t.Errorf("truss end moment %g", mr.EndA[5])
		}
	})
	t.Run("Z up and stresses", func(t *testing.T) {
		// With Z up a horizontal member has local y = +Z; a −Z tip load
		// gives δ = PL³/3EI and at the base fibre stress ±M·c/I with
		// M = PL: hogging, so tension at the top (+y) fibre.
		m := cantilever(L, geom.Vec3{0, 1, 0})
		m.VerticalAxis = geom.ZAxis
		m.Sections[0].YTop, m.Sections[0].YBottom = 0.1, 0.15
		m.LoadCases = []domain.LoadCase{{ID: 40, NodeLoads: []domain.NodeLoad{{Node: 5, F: [6]float64{2: -P}}}}}
		c := run(t, m, static.Options{}).Cases[0]
		st := stationAt(t, memberRes(t, c, 7), 0).Stress
		verify(t, []check{
			{"δ", nodeRes(t, c, 5).Disp[2], -P * L * L * L / (3 * E * 8e-5), exactRel},
			{"σ top", st.BendingZ[0], P * L * 0.1 / 8e-5, exactRel},
			{"σ bottom", st.BendingZ[1], -P * L * 0.15 / 8e-5, exactRel},
			{"σ max", st.Max, P * L * 0.1 / 8e-5, exactRel},
		})
	})
	t.Run("release spring", func(t *testing.T) {
		// Cantilever joined to its support through a rotational spring k:
		// δ = PL³/3EI + P·L²/k (rigid rotation P·L/k of the whole member).
		const k = 5e6
		m := cantilever(L, geom.Vec3{1, 0, 0})
		m.Members[0].ReleaseA = "FFFFFS"
		m.Members[0].SpringsA = [6]float64{5: k}
		m.LoadCases = []domain.LoadCase{{ID: 40, NodeLoads: []domain.NodeLoad{{Node: 5, F: [6]float64{0, -P}}}}}
		c := run(t, m, static.Options{}).Cases[0]
		want := -(P*L*L*L/(3*E*8e-5) + P*L*L/k)
		verify(t, []check{{"δ", nodeRes(t, c, 5).Disp[1], want, exactRel}})
	})
}

func TestInclinedConstraint(t *testing.T) {
	// Two parallel cantilevers; B2 follows B1 only along the inclined
	// axis e0 = (1, 1, 0)/√2. The tie must hold exactly and the rigid-body
	// projection must keep equilibrium (checked by run).
	const L = 3.0
	s := math.Sqrt(0.5)
	axes := geom.Rotation{{s, s, 0}, {-s, s, 0}, {0, 0, 1}}
	m := base(sec(8, 0.01, 8e-5))
	m.Nodes = []domain.Node{node(31, 0, 0, 0), node(32, L, 0, 0), node(33, 0, 0, 1), node(34, L, 0, 1)}
	m.Members = []domain.Member{frame(29, 31, 32, 8), frame(30, 33, 34, 8)}
	m.Supports = []domain.Support{{Node: 31, Code: "FFFFFF"}, {Node: 33, Code: "FFFFFF"}}
	m.Constraints = []domain.Constraint{{Master: 32, Slaves: []int64{34}, Code: "FRRRRR", Axes: &axes}}
	m.LoadCases = []domain.LoadCase{{ID: 40, NodeLoads: []domain.NodeLoad{{Node: 32, F: [6]float64{0, -1e3}}}}}
	c := run(t, m, static.Options{}).Cases[0]
	b1, b2 := nodeRes(t, c, 32), nodeRes(t, c, 34)
	// θ × r with r = (0, 0, 1) = (θy, −θx, 0).
	u1 := geom.Vec3{b1.Disp[0] + b1.Disp[4], b1.Disp[1] - b1.Disp[3], b1.Disp[2]}
	u2 := geom.Vec3{b2.Disp[0], b2.Disp[1], b2.Disp[2]}
	e0 := geom.Vec3(axes[0])
	if d := e0.Dot(u2) - e0.Dot(u1); math.Abs(d) > 1e-12 {
		t.Errorf("inclined tie violated by %g", d)
	}
	if math.Abs(u2[1]) < 1e-9 {
		t.Errorf("slave did not move: %v", u2)
	}
}

func TestMoreMemberLoads(t *testing.T) {
	const L = 4.0
	EI := E * 8e-5
	t.Run("thermal gradient on simple span", func(t *testing.T) {
		// Free curvature v'' = −α·g: a hotter top bows the span up by
		// α·g·L²/8 at midspan with no internal moment (statically
		// determinate).
		const g = 20.0 // K/m
		m := cantilever(L, geom.Vec3{1, 0, 0})
		m.Supports = []domain.Support{{Node: 6, Code: "FFFFRR"}, {Node: 5, Code: "RFFFRR"}}
		m.LoadCases = []domain.LoadCase{{ID: 85, Thermal: []domain.ThermalLoad{{Member: 7, DTy: g}}}}
		c := run(t, m, static.Options{}).Cases[0]
		mid := stationAt(t, memberRes(t, c, 7), L/2)
		verify(t, []check{{"δ_mid", mid.Disp[1], 1.2e-5 * g * L * L / 8, exactRel}})
		if math.Abs(mid.Forces[5]) > 1e-6 {
			t.Errorf("M_mid = %g, want 0", mid.Forces[5])
		}
	})
	t.Run("distributed moment on cantilever", func(t *testing.T) {
		// Uniform moment m per metre about z: integrating Roark case 3a
		// (θ_tip = Ma/EI, δ_tip = Ma(L − a/2)/EI) over a gives tip
		// rotation mL²/2EI and deflection mL³/3EI; base reaction −mL.
		const mz = 2e3
		m := cantilever(L, geom.Vec3{1, 0, 0})
		m.LoadCases = []domain.LoadCase{{ID: 7, Members: []domain.MemberLoad{{Member: 7,
			Type: domain.DistributedMoment, Direction: geom.ZAxis, P1: mz, P2: mz}}}}
		c := run(t, m, static.Options{}).Cases[0]
		verify(t, []check{
			{"θ_tip", nodeRes(t, c, 5).Disp[5], mz * L * L / (2 * EI), exactRel},
			{"δ_tip", nodeRes(t, c, 5).Disp[1], mz * L * L * L / (3 * EI), exactRel},
			{"M_base", nodeRes(t, c, 6).Reaction[5], -mz * L, exactRel},
		})
	})
	t.Run("partial trapezoid in percent", func(t *testing.T) {
		// Load from 25 % to 75 % rising 1→3 kN/m on a 4 m simple span.
		// Statics: resultant W = 4 kN at the trapezoid centroid
		// x̄ = 1 + 2·(1 + 2·3)/(3·(1 + 3)) m, so R_B = W·x̄/L.
		m := cantilever(L, geom.Vec3{1, 0, 0})
		m.Supports = []domain.Support{{Node: 6, Code: "FFFFRR"}, {Node: 5, Code: "RFFFRR"}}
		m.LoadCases = []domain.LoadCase{{ID: 84, Members: []domain.MemberLoad{{Member: 7,
			Type: domain.DistributedForce, Direction: geom.NegativeYAxis, Position: domain.Percent,
			A: 25, B: 75, P1: 1e3, P2: 3e3}}}}
		c := run(t, m, static.Options{}).Cases[0]
		xbar := 1 + 2*(1+2*3.0)/(3*(1+3.0))
		verify(t, []check{{"R_B", nodeRes(t, c, 5).Reaction[1], 4e3 * xbar / L, exactRel}})
	})
}
