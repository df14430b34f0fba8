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
// nested combinations.
func goldenModel() *domain.Model {
	s1 := domain.Section{Name: "s1", A: 8e-3, Ay: 3e-3, Az: 4e-3, J: 3e-6, Iy: 9e-5, Iz: 2e-5, PrincipalAngle: 0.3,
		YTop: 0.1, YBottom: 0.1, ZTop: 0.15, ZBottom: 0.12}
	s2 := domain.Section{Name: "s2", A: 5e-3, J: 1e-6, Iy: 4e-5, Iz: 1.5e-5, YTop: 0.08, YBottom: 0.06, ZTop: 0.1, ZBottom: 0.1}
	br := domain.Section{Name: "br", A: 1e-3, J: 1e-8, Iy: 1e-8, Iz: 1e-8}
	m := base(s1, s2, br)
	m.VerticalAxis = geom.ZAxis
	m.Nodes = []domain.Node{node("n1", 0, 0, 0), node("n2", 0, 0, 3), node("n3", 4, 0, 3), node("n4", 4, 0, 0),
		node("n5", 4, 3, 3.2), node("n6", 0, 3, 3), node("n7", 4, 3, 0), node("n9", 6, 3.5, 3.2), node("dir", 2, -5, 9)}
	mem := func(id, a, b, s string, f func(*domain.Member)) {
		mm := frame(id, a, b, s)
		if f != nil {
			f(&mm)
		}
		m.Members = append(m.Members, mm)
	}
	mem("c1", "n1", "n2", "s1", nil)
	mem("c2", "n4", "n3", "s1", func(mm *domain.Member) {
		mm.Direction.Angle = 0.4
		mm.OffsetB = geom.Vec3{0, 0, -0.2}
	})
	mem("b1", "n2", "n3", "s2", func(mm *domain.Member) {
		mm.ReleaseA, mm.ReleaseB = "FFFFFR", "FFFFSF"
		mm.SpringsB = [6]float64{4: 2e6}
		mm.OffsetA, mm.OffsetB, mm.OffsetsLocal = geom.Vec3{0.15, 0, 0.02}, geom.Vec3{-0.15, 0, 0}, true
	})
	mem("b2", "n3", "n5", "s2", func(mm *domain.Member) { mm.IzFactor, mm.AreaFactor = 1.2, 0.9 })
	mem("c3", "n7", "n5", "s1", nil)
	mem("b3", "n5", "n6", "s2", func(mm *domain.Member) {
		mm.Direction = geom.Direction{Kind: geom.DirectionNode}
		mm.DirectionNode = "dir"
	})
	mem("b4", "n6", "n2", "s2", func(mm *domain.Member) { mm.ReleaseA = "FFFFRR" })
	mem("c4", "n6", "n1", "s1", func(mm *domain.Member) { mm.OffsetA = geom.Vec3{0.1, -0.1, 0} })
	mem("brace", "n1", "n3", "br", func(mm *domain.Member) { mm.Type = domain.Truss })
	mem("cant", "n5", "n9", "s1", func(mm *domain.Member) { mm.ReleaseB = "FFFFFF" })
	m.Supports = []domain.Support{{Node: "n1", Code: "FFFFFF"}, {Node: "n4", Code: "FFFRRR"},
		{Node: "n7", Code: "FFFSSS", Springs: [6]float64{3: 5e6, 4: 8e6, 5: 1e6}}, {Node: "dir", Code: "FFFFFF"}}
	ml := func(member string, typ domain.MemberLoadType, axes domain.LoadAxes, dir geom.Axis, pos domain.PositionKind, a, b, p1, p2 float64) domain.MemberLoad {
		return domain.MemberLoad{Member: member, Type: typ, Axes: axes, Direction: dir, Position: pos, A: a, B: b, P1: p1, P2: p2}
	}
	m.LoadCases = []domain.LoadCase{
		{Name: "dead", SelfWeight: [3]float64{0, 0, -1}, NodeLoads: []domain.NodeLoad{{Node: "n9", F: [6]float64{0, 0, -4e3}}}},
		{Name: "members", Members: []domain.MemberLoad{
			ml("b1", domain.ConcentratedForce, domain.Local, geom.NegativeYAxis, domain.Percent, 30, 0, 12e3, 0),
			ml("b1", domain.ConcentratedForce, domain.GlobalInclined, geom.XAxis, domain.Actual, 0, 0, 2e3, 0),
			ml("b2", domain.ConcentratedMoment, domain.Local, geom.ZAxis, domain.Percent, 50, 0, 5e3, 0),
			ml("b2", domain.ConcentratedForce, domain.Local, geom.ZAxis, domain.Percent, 100, 0, -3e3, 0),
			ml("b2", domain.DistributedMoment, domain.Local, geom.XAxis, domain.Actual, 0, 0, 400, 400),
			ml("b3", domain.DistributedForce, domain.GlobalProjected, geom.NegativeZAxis, domain.Actual, 0, 0, 6e3, 6e3),
			ml("c1", domain.DistributedForce, domain.Local, geom.YAxis, domain.Actual, 0.5, 2.2, 1e3, 3e3),
			ml("c4", domain.DistributedForce, domain.GlobalInclined, geom.XAxis, domain.Percent, 80, 10, 2e3, -1e3),
			ml("cant", domain.ConcentratedForce, domain.GlobalInclined, geom.NegativeZAxis, domain.Actual, 1.0, 0, 8e3, 0),
			ml("cant", domain.ConcentratedForce, domain.Local, geom.ZAxis, domain.Actual, 1.3, 0, 1.5e3, 0),
			ml("b4", domain.DistributedMoment, domain.Local, geom.YAxis, domain.Actual, 0.4, 2.5, 300, -500),
			ml("c3", domain.DistributedMoment, domain.GlobalInclined, geom.YAxis, domain.Actual, 0, 0, 250, 250),
			ml("brace", domain.DistributedForce, domain.GlobalInclined, geom.NegativeZAxis, domain.Actual, 0, 0, 200, 200),
		}},
		{Name: "thermal", Thermal: []domain.ThermalLoad{{Member: "b2", DT: 30, DTy: 50, DTz: -20}, {Member: "c3", DT: -15}},
			Prestress: []domain.PrestressLoad{{Member: "brace", Force: 20e3}}},
		{Name: "wind", NodeLoads: []domain.NodeLoad{{Node: "n2", F: [6]float64{5e3, 1e3}}, {Node: "n6", F: [6]float64{5e3, 0, 0, 0, 0, 2e3}}},
			Members: []domain.MemberLoad{ml("c2", domain.DistributedForce, domain.GlobalInclined, geom.XAxis, domain.Actual, 0, 0, 1.5e3, 2.5e3)}},
	}
	m.Combinations = []domain.Combination{
		{Name: "ULS", Terms: []domain.Term{{Case: "dead", Factor: 1.2}, {Case: "members", Factor: 1.5}, {Case: "wind", Factor: 0.9}}},
		{Name: "SLS", Terms: []domain.Term{{Case: "ULS", Factor: 0.5}, {Case: "thermal", Factor: 1}}},
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
	for _, opt := range []static.Options{{}, {Divisions: 4, Cases: []string{"members", "SLS"}}} {
		res := run(t, goldenModel(), opt)
		for _, c := range res.Cases {
			got = append(got, goldenCase{Name: fmt.Sprintf("%s/div%d", c.Name, opt.Divisions), Nodes: c.Nodes, Members: c.Members, Summary: c.Summary})
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
	addComp := func(member, kind string, v []float64) {
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
	check := func(what, member, kind string, g, w []float64) {
		t.Helper()
		for i := range w {
			s := sc[kind]
			if member != "" {
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
			t.Fatalf("%s node %d: %s/%v, stored %s/%v", want.Name, i, g.Node, g.HasReaction, w.Node, w.HasReaction)
		}
		check("node "+w.Node+" disp", "", "disp", g.Disp[:], w.Disp[:])
		check("node "+w.Node+" reaction", "", "reaction", g.Reaction[:], w.Reaction[:])
	}
	for i, w := range want.Members {
		g := got.Members[i]
		if g.Member != w.Member || g.Inactive != w.Inactive || len(g.Stations) != len(w.Stations) {
			t.Fatalf("%s member %d: %s/%v with %d stations, stored %s/%v with %d", want.Name, i, g.Member, g.Inactive, len(g.Stations), w.Member, w.Inactive, len(w.Stations))
		}
		check("member "+w.Member+" ends", w.Member, "end", append(g.EndA[:], g.EndB[:]...), append(w.EndA[:], w.EndB[:]...))
		for k, ws := range w.Stations {
			gs := g.Stations[k]
			where := fmt.Sprintf("member %s station %d", w.Member, k)
			if gs.X != ws.X {
				t.Fatalf("%s %s: x = %.17g, stored %.17g", want.Name, where, gs.X, ws.X)
			}
			check(where+" forces", w.Member, "forces", gs.Forces[:], ws.Forces[:])
			check(where+" disp", w.Member, "sdisp", gs.Disp[:], ws.Disp[:])
			check(where+" stress", w.Member, "stress", stressVec(gs.Stress), stressVec(ws.Stress))
		}
	}
	check("summary load", "", "load", got.Summary.Load[:], want.Summary.Load[:])
	check("summary reaction", "", "load", got.Summary.Reaction[:], want.Summary.Reaction[:])
	if math.Abs(got.Summary.MaxLoad-want.Summary.MaxLoad) > tol*want.Summary.MaxLoad {
		t.Errorf("%s MaxLoad %g, stored %g", want.Name, got.Summary.MaxLoad, want.Summary.MaxLoad)
	}
}
