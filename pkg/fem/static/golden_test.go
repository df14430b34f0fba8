package static_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/static"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/recovery_golden.json from the current implementation")

// goldenModel is a small 3-D frame that exercises every part of member
// recovery: releases (hinge, spring, pin), global and local rigid offsets,
// direction angle, direction node and principal angle, section factors,
// fibre distances (bending stresses), a truss brace, support springs, and
// load cases with point forces and moments (between, at and on division
// points and member ends), full, partial and trapezoidal distributed forces
// and moments in every axes kind, self-weight, thermal loads, prestress and
// nested combinations. Nodes n1–n7 and n9 are 1–7 and 9, the direction
// node 10; the members c1, c2, b1, b2, c3, b3, b4, c4, brace and cant are
// 1–10, the sections s1, s2 and br 1–3; the cases dead, members, thermal
// and wind are 1–4, the combinations ULS and SLS 5 and 6.
func goldenModel() *domain.Model {
	s1 := domain.Section{ID: 1, A: 8e-3, Ay: 3e-3, Az: 4e-3, J: 3e-6, Iy: 9e-5, Iz: 2e-5, PrincipalAngle: 0.3,
		YTop: 0.1, YBottom: 0.1, ZTop: 0.15, ZBottom: 0.12}
	s2 := domain.Section{ID: 2, A: 5e-3, J: 1e-6, Iy: 4e-5, Iz: 1.5e-5, YTop: 0.08, YBottom: 0.06, ZTop: 0.1, ZBottom: 0.1}
	br := domain.Section{ID: 3, A: 1e-3, J: 1e-8, Iy: 1e-8, Iz: 1e-8}
	m := base(s1, s2, br)
	m.VerticalAxis = geom.ZAxis
	m.Nodes = []domain.Node{node(1, 0, 0, 0), node(2, 0, 0, 3), node(3, 4, 0, 3), node(4, 4, 0, 0),
		node(5, 4, 3, 3.2), node(6, 0, 3, 3), node(7, 4, 3, 0), node(9, 6, 3.5, 3.2), node(10, 2, -5, 9)}
	mem := func(id, a, b, s int64, f func(*domain.Member)) {
		mm := frame(id, a, b, s)
		if f != nil {
			f(&mm)
		}
		m.Members = append(m.Members, mm)
	}
	mem(1, 1, 2, 1, nil)
	mem(2, 4, 3, 1, func(mm *domain.Member) {
		mm.Direction.Angle = 0.4
		mm.OffsetB = geom.Vec3{0, 0, -0.2}
	})
	mem(3, 2, 3, 2, func(mm *domain.Member) {
		mm.ReleaseA, mm.ReleaseB = "FFFFFR", "FFFFSF"
		mm.SpringsB = [6]float64{4: 2e6}
		mm.OffsetA, mm.OffsetB, mm.OffsetsLocal = geom.Vec3{0.15, 0, 0.02}, geom.Vec3{-0.15, 0, 0}, true
	})
	mem(4, 3, 5, 2, func(mm *domain.Member) { mm.IzFactor, mm.AreaFactor = 1.2, 0.9 })
	mem(5, 7, 5, 1, nil)
	mem(6, 5, 6, 2, func(mm *domain.Member) {
		mm.Direction = geom.Direction{Kind: geom.DirectionNode}
		mm.DirectionNode = 10
	})
	mem(7, 6, 2, 2, func(mm *domain.Member) { mm.ReleaseA = "FFFFRR" })
	mem(8, 6, 1, 1, func(mm *domain.Member) { mm.OffsetA = geom.Vec3{0.1, -0.1, 0} })
	mem(9, 1, 3, 3, func(mm *domain.Member) { mm.Type = domain.Truss })
	mem(10, 5, 9, 1, func(mm *domain.Member) { mm.ReleaseB = "FFFFFF" })
	m.Supports = []domain.Support{{Node: 1, Code: "FFFFFF"}, {Node: 4, Code: "FFFRRR"},
		{Node: 7, Code: "FFFSSS", Springs: [6]float64{3: 5e6, 4: 8e6, 5: 1e6}}, {Node: 10, Code: "FFFFFF"}}
	ml := func(member int64, typ domain.MemberLoadType, axes domain.LoadAxes, dir geom.Axis, pos domain.PositionKind, a, b, p1, p2 float64) domain.MemberLoad {
		return domain.MemberLoad{Member: member, Type: typ, Axes: axes, Direction: dir, Position: pos, A: a, B: b, P1: p1, P2: p2}
	}
	m.LoadCases = []domain.LoadCase{
		{ID: 1, SelfWeight: [3]float64{0, 0, -1}, NodeLoads: []domain.NodeLoad{{Node: 9, F: [6]float64{0, 0, -4e3}}}},
		{ID: 2, Members: []domain.MemberLoad{
			ml(3, domain.ConcentratedForce, domain.Local, geom.NegativeYAxis, domain.Percent, 30, 0, 12e3, 0),
			ml(3, domain.ConcentratedForce, domain.GlobalInclined, geom.XAxis, domain.Actual, 0, 0, 2e3, 0),
			ml(4, domain.ConcentratedMoment, domain.Local, geom.ZAxis, domain.Percent, 50, 0, 5e3, 0),
			ml(4, domain.ConcentratedForce, domain.Local, geom.ZAxis, domain.Percent, 100, 0, -3e3, 0),
			ml(4, domain.DistributedMoment, domain.Local, geom.XAxis, domain.Actual, 0, 0, 400, 400),
			ml(6, domain.DistributedForce, domain.GlobalProjected, geom.NegativeZAxis, domain.Actual, 0, 0, 6e3, 6e3),
			ml(1, domain.DistributedForce, domain.Local, geom.YAxis, domain.Actual, 0.5, 2.2, 1e3, 3e3),
			ml(8, domain.DistributedForce, domain.GlobalInclined, geom.XAxis, domain.Percent, 80, 10, 2e3, -1e3),
			ml(10, domain.ConcentratedForce, domain.GlobalInclined, geom.NegativeZAxis, domain.Actual, 1.0, 0, 8e3, 0),
			ml(10, domain.ConcentratedForce, domain.Local, geom.ZAxis, domain.Actual, 1.3, 0, 1.5e3, 0),
			ml(7, domain.DistributedMoment, domain.Local, geom.YAxis, domain.Actual, 0.4, 2.5, 300, -500),
			ml(5, domain.DistributedMoment, domain.GlobalInclined, geom.YAxis, domain.Actual, 0, 0, 250, 250),
			ml(9, domain.DistributedForce, domain.GlobalInclined, geom.NegativeZAxis, domain.Actual, 0, 0, 200, 200),
		}},
		{ID: 3, Thermal: []domain.ThermalLoad{{Member: 4, DT: 30, DTy: 50, DTz: -20}, {Member: 5, DT: -15}},
			Prestress: []domain.PrestressLoad{{Member: 9, Force: 20e3}}},
		{ID: 4, NodeLoads: []domain.NodeLoad{{Node: 2, F: [6]float64{5e3, 1e3}}, {Node: 6, F: [6]float64{5e3, 0, 0, 0, 0, 2e3}}},
			Members: []domain.MemberLoad{ml(2, domain.DistributedForce, domain.GlobalInclined, geom.XAxis, domain.Actual, 0, 0, 1.5e3, 2.5e3)}},
	}
	m.Combinations = []domain.Combination{
		{ID: 5, Terms: []domain.Term{{Case: 1, Factor: 1.2}, {Case: 2, Factor: 1.5}, {Case: 4, Factor: 0.9}}},
		{ID: 6, Terms: []domain.Term{{Case: 5, Factor: 0.5}, {Case: 3, Factor: 1}}},
	}
	return m
}

// goldenCase is the stored part of a CaseResult.
type goldenCase struct {
	Name    string
	Nodes   []static.NodeResult
	Members []static.MemberResult
	Summary static.ReactionSummary
}

// TestRecoveryGolden compares every recovered quantity (node displacements
// and reactions, member end actions, stations with forces, displacements
// and stresses, equilibrium summaries) with values stored from the
// per-station implementation that the closed-form recovery replaced
// (element.InternalForces and element.Displacements at every station).
// Both are exact for these members, so they agree to rounding: 1e-11 of
// the largest magnitude of each quantity over the case, with station
// positions and flags identical.
func TestRecoveryGolden(t *testing.T) {
	path := filepath.Join("testdata", "recovery_golden.json")
	var got []goldenCase
	for _, opt := range []static.Options{{}, {Divisions: 4, Cases: []int64{2, 6}}} {
		res := run(t, goldenModel(), opt)
		for _, c := range res.Cases {
			got = append(got, goldenCase{Name: fmt.Sprintf("%d/div%d", c.Case, opt.Divisions), Nodes: c.Nodes, Members: c.Members, Summary: c.Summary})
		}
	}
	if *updateGolden {
		b, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []goldenCase
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d cases, stored %d", len(got), len(want))
	}
	for i := range want {
		compareGolden(t, &got[i], &want[i])
	}
}

// scaleOf tracks the largest magnitude per named quantity.
type scaleOf map[string]float64

func (s scaleOf) add(name string, v ...float64) {
	for _, x := range v {
		s[name] = math.Max(s[name], math.Abs(x))
	}
}

func compareGolden(t *testing.T, got, want *goldenCase) {
	t.Helper()
	// Scales: per quantity over the case, and for member quantities also
	// per member and component (floored at 1e-3 of the case's scale, so
	// that round-off in components that vanish along a member passes).
	sc := scaleOf{}
	for _, n := range want.Nodes {
		sc.add("disp", n.Disp[:]...)
		sc.add("reaction", n.Reaction[:]...)
	}
	stressVec := func(s static.Stress) []float64 {
		return []float64{s.Axial, s.ShearY, s.ShearZ, s.BendingY[0], s.BendingY[1], s.BendingZ[0], s.BendingZ[1], s.Max, s.Min}
	}
	addComp := func(member int64, kind string, v []float64) {
		sc.add(kind, v...)
		for i, x := range v {
			sc.add(fmt.Sprint(member, kind, i), x)
		}
	}
	for _, m := range want.Members {
		addComp(m.Member, "end", append(m.EndA[:], m.EndB[:]...))
		for _, st := range m.Stations {
			addComp(m.Member, "forces", st.Forces[:])
			addComp(m.Member, "sdisp", st.Disp[:])
			addComp(m.Member, "stress", stressVec(st.Stress))
		}
	}
	sc.add("load", want.Summary.Load[:]...)
	sc.add("load", want.Summary.Reaction[:]...)
	const tol = 1e-11
	check := func(what string, member int64, kind string, g, w []float64) {
		t.Helper()
		for i := range w {
			s := sc[kind]
			if member != 0 {
				s = math.Max(sc[fmt.Sprint(member, kind, i)], 1e-3*s)
			}
			if math.Abs(g[i]-w[i]) > tol*s {
				t.Errorf("%s %s[%d]: %.17g, stored %.17g (scale %g)", want.Name, what, i, g[i], w[i], s)
			}
		}
	}
	if len(got.Nodes) != len(want.Nodes) || len(got.Members) != len(want.Members) {
		t.Fatalf("%s: %d nodes and %d members, stored %d and %d", want.Name, len(got.Nodes), len(got.Members), len(want.Nodes), len(want.Members))
	}
	for i, w := range want.Nodes {
		g := got.Nodes[i]
		if g.Node != w.Node || g.HasReaction != w.HasReaction {
			t.Fatalf("%s node %d: %d/%v, stored %d/%v", want.Name, i, g.Node, g.HasReaction, w.Node, w.HasReaction)
		}
		check(fmt.Sprintf("node %d disp", w.Node), 0, "disp", g.Disp[:], w.Disp[:])
		check(fmt.Sprintf("node %d reaction", w.Node), 0, "reaction", g.Reaction[:], w.Reaction[:])
	}
	for i, w := range want.Members {
		g := got.Members[i]
		if g.Member != w.Member || g.Inactive != w.Inactive || len(g.Stations) != len(w.Stations) {
			t.Fatalf("%s member %d: %d/%v with %d stations, stored %d/%v with %d", want.Name, i, g.Member, g.Inactive, len(g.Stations), w.Member, w.Inactive, len(w.Stations))
		}
		check(fmt.Sprintf("member %d ends", w.Member), w.Member, "end", append(g.EndA[:], g.EndB[:]...), append(w.EndA[:], w.EndB[:]...))
		for k, ws := range w.Stations {
			gs := g.Stations[k]
			where := fmt.Sprintf("member %d station %d", w.Member, k)
			if gs.X != ws.X {
				t.Fatalf("%s %s: x = %.17g, stored %.17g", want.Name, where, gs.X, ws.X)
			}
			check(where+" forces", w.Member, "forces", gs.Forces[:], ws.Forces[:])
			check(where+" disp", w.Member, "sdisp", gs.Disp[:], ws.Disp[:])
			check(where+" stress", w.Member, "stress", stressVec(gs.Stress), stressVec(ws.Stress))
		}
	}
	check("summary load", 0, "load", got.Summary.Load[:], want.Summary.Load[:])
	check("summary reaction", 0, "load", got.Summary.Reaction[:], want.Summary.Reaction[:])
	if math.Abs(got.Summary.MaxLoad-want.Summary.MaxLoad) > tol*want.Summary.MaxLoad {
		t.Errorf("%s MaxLoad %g, stored %g", want.Name, got.Summary.MaxLoad, want.Summary.MaxLoad)
	}
}
