package static_test

import (
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/static"
)

// Tolerances. The frame element and the fixed-end actions are exact for
// prismatic members and the solve is direct, so single-member problems
// are held to exactRel (round-off of a few thousand flops on numbers of
// order EI/L³ ≈ 1e6, well above 1e-12). Portal frames use axially
// "rigid" members (A = 100 m², I ~ 1e-4 m⁴): the neglected axial
// flexibility changes results by about I/(A·h²) ≈ 6e-8, so they are held
// to portalRel = 1e-6, the acceptance figure.
const (
	exactRel  = 1e-9
	portalRel = 1e-6
)

func TestBeams(t *testing.T) {
	const (
		L = 5.0
		I = 8e-5
		P = 12e3
		w = 7e3
	)
	EI := E * I
	cases := []struct {
		name       string
		supA, supB string
		load       domain.LoadCase
		checks     func(t *testing.T, c static.CaseResult) []check
	}{
		{
			// Roark, Formulas for Stress and Strain 7th ed., Table 8.1
			// case 1a (cantilever, end load): δ = PL³/3EI, θ = PL²/2EI,
			// M_base = PL.
			name: "cantilever tip load", supA: "FFFFFF",
			load: domain.LoadCase{ID: 40, NodeLoads: []domain.NodeLoad{{Node: 5, F: [6]float64{0, -P}}}},
			checks: func(t *testing.T, c static.CaseResult) []check {
				b, a := nodeRes(t, c, 5), nodeRes(t, c, 6)
				m := memberRes(t, c, 7)
				return []check{
					{"δ_tip", b.Disp[1], -P * L * L * L / (3 * EI), exactRel},
					{"θ_tip", b.Disp[5], -P * L * L / (2 * EI), exactRel},
					{"M_base reaction", a.Reaction[5], P * L, exactRel},
					{"M_base internal", stationAt(t, m, 0).Forces[5], -P * L, exactRel},
					{"δ_tip diagram", stationAt(t, m, L).Disp[1], -P * L * L * L / (3 * EI), exactRel},
				}
			},
		},
		{
			// Roark Table 8.1 case 2a (simply supported, uniform load):
			// δ_mid = 5wL⁴/384EI, M_mid = wL²/8, R = wL/2.
			name: "simply supported uniform", supA: "FFFFRR", supB: "RFFFRR",
			load: domain.LoadCase{ID: 84, Members: []domain.MemberLoad{{Member: 7, Type: domain.DistributedForce,
				Direction: geom.YAxis, P1: -w, P2: -w}}},
			checks: func(t *testing.T, c static.CaseResult) []check {
				m := memberRes(t, c, 7)
				mid := stationAt(t, m, L/2)
				return []check{
					{"δ_mid", mid.Disp[1], -5 * w * L * L * L * L / (384 * EI), exactRel},
					{"M_mid", mid.Forces[5], w * L * L / 8, exactRel},
					{"R_A", nodeRes(t, c, 6).Reaction[1], w * L / 2, exactRel},
					{"R_B", nodeRes(t, c, 5).Reaction[1], w * L / 2, exactRel},
				}
			},
		},
		{
			// Roark Table 8.1 case 2e (fixed-fixed, uniform load):
			// M_end = wL²/12, M_mid = wL²/24, δ_mid = wL⁴/384EI.
			name: "fixed-fixed uniform", supA: "FFFFFF", supB: "FFFFFF",
			load: domain.LoadCase{ID: 84, Members: []domain.MemberLoad{{Member: 7, Type: domain.DistributedForce,
				Direction: geom.NegativeYAxis, P1: w, P2: w}}},
			checks: func(t *testing.T, c static.CaseResult) []check {
				m := memberRes(t, c, 7)
				mid := stationAt(t, m, L/2)
				return []check{
					{"M_end A", m.EndA[5], w * L * L / 12, exactRel},
					{"M_end B", m.EndB[5], -w * L * L / 12, exactRel},
					{"M_mid", mid.Forces[5], w * L * L / 24, exactRel},
					{"δ_mid", mid.Disp[1], -w * L * L * L * L / (384 * EI), exactRel},
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := base(sec(8, 0.01, I))
			m.Nodes = []domain.Node{node(6, 0, 0, 0), node(5, L, 0, 0)}
			m.Members = []domain.Member{frame(7, 6, 5, 8)}
			m.Supports = []domain.Support{{Node: 6, Code: tc.supA}}
			if tc.supB != "" {
				m.Supports = append(m.Supports, domain.Support{Node: 5, Code: tc.supB})
			}
			m.LoadCases = []domain.LoadCase{tc.load}
			res := run(t, m, static.Options{})
			verify(t, tc.checks(t, res.Cases[0]))
		})
	}
}

// portal builds a single-bay portal in the X-Y plane: columns 1→2 and
// 4→3 of height h, beam 2→3 of span L; k = (Ib/L)/(Ic/h) = 1.
func portal(base string) (*domain.Model, float64, float64, float64) {
	const h, L, Ic = 4.0, 6.0, 1e-4
	Ib := Ic * L / h
	m := domain.Model{
		Materials: []domain.Material{{ID: steel, E: E, G: Gm}},
		Sections:  []domain.Section{sec(9, 100, Ic), sec(10, 100, Ib)},
		Nodes:     []domain.Node{node(1, 0, 0, 0), node(2, 0, h, 0), node(3, L, h, 0), node(4, L, 0, 0)},
		Members:   []domain.Member{frame(11, 1, 2, 9), frame(12, 2, 3, 10), frame(13, 4, 3, 9)},
		Supports:  []domain.Support{{Node: 1, Code: base}, {Node: 4, Code: base}},
	}
	return &m, h, L, Ic
}

// TestPortals: slope-deflection solutions (e.g. McCormac, Structural
// Analysis, ch. 21; derived in the comments) for k = (Ib/L)/(Ic/h) = 1.
func TestPortals(t *testing.T) {
	const H, w = 10e3, 5e3
	t.Run("fixed bases, lateral H", func(t *testing.T) {
		// θ = 0.6ψ from joint equilibrium, Kc·ψ = Hh/16.8 from the storey
		// shear: M_base = 4.8/16.8 Hh = 2/7 Hh, M_knee = 3.6/16.8 Hh =
		// 3/14 Hh, sway = Hh³/(16.8 EIc) = 5/84 Hh³/EIc.
		m, h, _, Ic := portal("FFFFFF")
		m.LoadCases = []domain.LoadCase{{ID: 27, NodeLoads: []domain.NodeLoad{{Node: 2, F: [6]float64{H}}}}}
		c := run(t, m, static.Options{}).Cases[0]
		verify(t, []check{
			{"M_base 1", math.Abs(nodeRes(t, c, 1).Reaction[5]), 2.0 / 7 * H * h, portalRel},
			{"M_base 4", math.Abs(nodeRes(t, c, 4).Reaction[5]), 2.0 / 7 * H * h, portalRel},
			{"M_knee", math.Abs(memberRes(t, c, 11).EndB[5]), 3.0 / 14 * H * h, portalRel},
			{"sway", nodeRes(t, c, 2).Disp[0], 5.0 / 84 * H * h * h * h / (E * Ic), portalRel},
		})
	})
	t.Run("pinned bases, lateral H", func(t *testing.T) {
		// θ = ψ/3, M_knee = 2Kc·ψ = Hh/2, sway = Hh³/(4EIc).
		m, h, _, Ic := portal("FFFFFR")
		m.LoadCases = []domain.LoadCase{{ID: 27, NodeLoads: []domain.NodeLoad{{Node: 2, F: [6]float64{H}}}}}
		c := run(t, m, static.Options{}).Cases[0]
		verify(t, []check{
			{"M_knee", math.Abs(memberRes(t, c, 11).EndB[5]), H * h / 2, portalRel},
			{"sway", nodeRes(t, c, 2).Disp[0], 0.25 * H * h * h * h / (E * Ic), portalRel},
		})
	})
	t.Run("fixed bases, uniform w on beam", func(t *testing.T) {
		// Symmetric, no sway: 6Kθ = wL²/12, M_knee = 4Kθ = wL²/18,
		// M_base = 2Kθ = wL²/36.
		m, _, L, _ := portal("FFFFFF")
		m.LoadCases = []domain.LoadCase{{ID: 84, Members: []domain.MemberLoad{{Member: 12,
			Type: domain.DistributedForce, Axes: domain.GlobalInclined, Direction: geom.NegativeYAxis, P1: w, P2: w}}}}
		c := run(t, m, static.Options{}).Cases[0]
		verify(t, []check{
			{"M_knee", math.Abs(memberRes(t, c, 12).EndA[5]), w * L * L / 18, portalRel},
			{"M_base", math.Abs(nodeRes(t, c, 1).Reaction[5]), w * L * L / 36, portalRel},
		})
	})
}

// TestStatics covers the "statics" acceptance row.
func TestStatics(t *testing.T) {
	const L, I, A = 4.0, 5e-5, 6e-3
	t.Run("end release gives propped cantilever", func(t *testing.T) {
		// Both nodes fixed, rz released at member end B: M_A = wL²/8,
		// R_A = 5wL/8, R_B = 3wL/8 (Roark Table 8.1 case 2c), M_B = 0.
		const w = 4e3
		m := base(sec(8, A, I))
		m.Nodes = []domain.Node{node(6, 0, 0, 0), node(5, L, 0, 0)}
		mb := frame(7, 6, 5, 8)
		mb.ReleaseB = "FFFFFR"
		m.Members = []domain.Member{mb}
		m.Supports = []domain.Support{{Node: 6, Code: "FFFFFF"}, {Node: 5, Code: "FFFFFF"}}
		m.LoadCases = []domain.LoadCase{{ID: 84, Members: []domain.MemberLoad{{Member: 7, Type: domain.DistributedForce,
			Direction: geom.YAxis, P1: -w, P2: -w}}}}
		c := run(t, m, static.Options{}).Cases[0]
		mr := memberRes(t, c, 7)
		verify(t, []check{
			{"M_A", nodeRes(t, c, 6).Reaction[5], w * L * L / 8, exactRel},
			{"R_A", nodeRes(t, c, 6).Reaction[1], 5 * w * L / 8, exactRel},
			{"R_B", nodeRes(t, c, 5).Reaction[1], 3 * w * L / 8, exactRel},
		})
		if math.Abs(mr.EndB[5]) > 1e-9*w*L*L {
			t.Errorf("released end moment = %g", mr.EndB[5])
		}
		// The member end rotates although the node is clamped: the
		// propped-cantilever end slope wL³/48EI (Roark case 2c).
		if got, want := stationAt(t, mr, L).Disp[5], w*L*L*L/(48*E*I); math.Abs(got-want) > exactRel*want {
			t.Errorf("released end rotation = %g, want %g", got, want)
		}
	})
	t.Run("rigid offsets", func(t *testing.T) {
		// Cantilever whose flexible part starts e = 0.5 m from the support
		// node and whose axis sits d = 0.2 m below its nodes, with a tip
		// load P down and an axial pull N at node B.
		const P, N, e, d = 3e3, 50e3, 0.5, 0.2
		m := base(sec(8, A, I))
		m.Nodes = []domain.Node{node(6, 0, 0, 0), node(5, L+e, 0, 0)}
		mb := frame(7, 6, 5, 8)
		mb.OffsetA = geom.Vec3{e, -d, 0}
		mb.OffsetB = geom.Vec3{0, -d, 0}
		m.Members = []domain.Member{mb}
		m.Supports = []domain.Support{{Node: 6, Code: "FFFFFF"}}
		m.LoadCases = []domain.LoadCase{{ID: 40, NodeLoads: []domain.NodeLoad{{Node: 5, F: [6]float64{N, -P}}}}}
		c := run(t, m, static.Options{}).Cases[0]
		// Statics: the link at B carries the pull N onto the member axis
		// with a moment −N·d, so the member's base moment is −(PL + N·d);
		// about node A, N acts through A and the reaction is P(L+e).
		verify(t, []check{
			{"M_base", nodeRes(t, c, 6).Reaction[5], P * (L + e), exactRel},
			{"member M at A", stationAt(t, memberRes(t, c, 7), 0).Forces[5], -(P*L + N*d), exactRel},
			{"N", stationAt(t, memberRes(t, c, 7), 0).Forces[0], N, exactRel},
		})
		// Tip displacement: bending of L under P and the end moment N·d,
		// δ = −PL³/3EI − (N·d)L²/2EI; the tip link (vertical, length d)
		// adds −θ·d along X only.
		EI := E * I
		want := -P*L*L*L/(3*EI) - N*d*L*L/(2*EI)
		if got := nodeRes(t, c, 5).Disp[1]; math.Abs(got-want) > exactRel*math.Abs(want) {
			t.Errorf("tip δ = %g, want %g", got, want)
		}
	})
	t.Run("thermal on fixed-fixed bar", func(t *testing.T) {
		// N = −EAαΔT and no displacement anywhere (statics of a
		// restrained bar).
		const dT = 30.0
		m := base(sec(8, A, I))
		m.Nodes = []domain.Node{node(6, 0, 0, 0), node(5, L, 0, 0)}
		m.Members = []domain.Member{frame(7, 6, 5, 8)}
		m.Supports = []domain.Support{{Node: 6, Code: "FFFFFF"}, {Node: 5, Code: "FFFFFF"}}
		m.LoadCases = []domain.LoadCase{{ID: 85, Thermal: []domain.ThermalLoad{{Member: 7, DT: dT}}}}
		c := run(t, m, static.Options{}).Cases[0]
		mr := memberRes(t, c, 7)
		want := -E * A * 1.2e-5 * dT
		for _, st := range mr.Stations {
			if math.Abs(st.Forces[0]-want) > exactRel*math.Abs(want) {
				t.Errorf("N(%g) = %g, want %g", st.X, st.Forces[0], want)
			}
			for i, v := range st.Disp {
				if math.Abs(v) > 1e-15 {
					t.Errorf("u(%g)[%d] = %g, want 0", st.X, i, v)
				}
			}
		}
	})
}
