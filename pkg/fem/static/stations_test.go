package static_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/static"
)

// stationsModel is a braced 6 m × 4 m × 3 m frame, Y up, base fixed,
// exercising every member feature that reaches the stations: beams with
// releases and springs, rigid offsets in global and local axes, a section
// with a principal angle and fibre distances, a direction node, a truss
// with prestress, and two tension-only braces that the reversal loop
// switches off under gravity and under one sign of sway. Its cases carry
// every member-load kind in every load axes with both position kinds,
// thermal loads and self-weight; combinations nest two deep.
func stationsModel() *domain.Model {
	rolled := domain.Section{Name: "rolled", A: 8e-3, Ay: 3e-3, Az: 4e-3, J: 3e-7, Iy: 2e-5, Iz: 6e-5,
		YTop: 0.15, YBottom: 0.15, ZTop: 0.08, ZBottom: 0.08}
	skew := rolled
	skew.Name, skew.PrincipalAngle, skew.YTop, skew.ZBottom = "skew", 0.3, 0.2, 0.05
	m := base(rolled, skew, sec("rod", 5e-4, 1e-8))
	m.Nodes = []domain.Node{
		node("A1", 0, 0, 0), node("A2", 6, 0, 0), node("A3", 0, 0, 4), node("A4", 6, 0, 4),
		node("B1", 0, 3, 0), node("B2", 6, 3, 0), node("B3", 0, 3, 4), node("B4", 6, 3, 4),
		node("D", 3, 10, 10),
	}
	mem := func(id, a, b, s string) domain.Member { return frame(id, a, b, s) }
	m.Members = []domain.Member{
		mem("c1", "A1", "B1", "rolled"), mem("c2", "A2", "B2", "rolled"),
		mem("c3", "A3", "B3", "skew"), mem("c4", "A4", "B4", "rolled"),
		mem("b1", "B1", "B2", "rolled"), mem("b2", "B3", "B4", "skew"),
		mem("b3", "B1", "B3", "rolled"), mem("b4", "B2", "B4", "skew"),
		mem("t1", "A1", "B2", "rod"), mem("t2", "A2", "B1", "rod"),
		mem("tr", "A3", "B4", "rod"),
	}
	mb := func(id string) *domain.Member {
		for i := range m.Members {
			if m.Members[i].ID == id {
				return &m.Members[i]
			}
		}
		panic("no member " + id)
	}
	mb("b1").ReleaseB, mb("b1").SpringsB = "FFFFRS", [6]float64{5: 2e6}
	mb("b2").OffsetA, mb("b2").OffsetB = geom.Vec3{0.2, 0, 0}, geom.Vec3{-0.25, 0.05, 0}
	mb("b3").OffsetsLocal, mb("b3").OffsetA, mb("b3").OffsetB = true, geom.Vec3{0.15, -0.1, 0.05}, geom.Vec3{-0.15, 0, 0}
	mb("b3").Direction, mb("b3").DirectionNode = geom.Direction{Kind: geom.DirectionNode, Angle: 0.1}, "D"
	mb("b4").ReleaseA, mb("b4").SpringsA = "FFFFSS", [6]float64{4: 5e6, 5: 3e6}
	mb("b4").IzFactor = 1.2
	mb("t1").Type, mb("t2").Type, mb("tr").Type = domain.TensionOnly, domain.TensionOnly, domain.Truss
	for _, n := range []string{"A1", "A2", "A3", "A4", "D"} {
		m.Supports = append(m.Supports, domain.Support{Node: n, Code: "FFFFFF"})
	}
	ml := func(member string, typ domain.MemberLoadType, axes domain.LoadAxes, dir geom.Axis, pos domain.PositionKind, a, b, p1, p2 float64) domain.MemberLoad {
		return domain.MemberLoad{Member: member, Type: typ, Axes: axes, Direction: dir, Position: pos, A: a, B: b, P1: p1, P2: p2}
	}
	sway := func(fx float64) []domain.NodeLoad {
		return []domain.NodeLoad{{Node: "B1", F: [6]float64{fx}}, {Node: "B3", F: [6]float64{fx, 0, 0, 0, 0, 0.1 * fx}}}
	}
	m.LoadCases = []domain.LoadCase{
		{Name: "DL", SelfWeight: [3]float64{0, -1, 0}, Members: []domain.MemberLoad{
			ml("b1", domain.DistributedForce, domain.GlobalInclined, geom.NegativeYAxis, domain.Actual, 0, 0, 5e3, 5e3),
			ml("b2", domain.ConcentratedForce, domain.Local, geom.NegativeYAxis, domain.Percent, 30, 0, 10e3, 0),
			ml("b3", domain.DistributedForce, domain.GlobalProjected, geom.NegativeYAxis, domain.Actual, 0.5, 2.5, 2e3, 6e3),
			ml("b4", domain.ConcentratedMoment, domain.Local, geom.ZAxis, domain.Actual, 2, 0, 3e3, 0),
			ml("c1", domain.DistributedMoment, domain.Local, geom.XAxis, domain.Actual, 0, 0, 500, 500),
			ml("tr", domain.DistributedForce, domain.GlobalInclined, geom.NegativeYAxis, domain.Actual, 0, 0, 40, 40),
		}},
		{Name: "LL", Members: []domain.MemberLoad{
			ml("b1", domain.ConcentratedForce, domain.GlobalInclined, geom.NegativeYAxis, domain.Actual, 2, 0, 20e3, 0),
			// At a division point: one station on each side, not three.
			ml("b1", domain.ConcentratedForce, domain.Local, geom.ZAxis, domain.Percent, 50, 0, 4e3, 0),
			ml("b2", domain.DistributedMoment, domain.GlobalInclined, geom.ZAxis, domain.Percent, 10, 80, 1e3, -2e3),
			ml("b3", domain.ConcentratedMoment, domain.GlobalProjected, geom.NegativeXAxis, domain.Percent, 75, 0, 2e3, 0),
			ml("b4", domain.DistributedForce, domain.GlobalProjected, geom.XAxis, domain.Percent, 20, 60, 1e3, 3e3),
			ml("c3", domain.DistributedMoment, domain.GlobalProjected, geom.YAxis, domain.Actual, 1, 2, 300, 300),
		},
			Thermal:   []domain.ThermalLoad{{Member: "b4", DT: 20, DTy: 5, DTz: -3}, {Member: "tr", DT: -10}},
			Prestress: []domain.PrestressLoad{{Member: "tr", Force: 50e3}, {Member: "b2", Force: -30e3}},
		},
		{Name: "WX", NodeLoads: sway(20e3), Members: []domain.MemberLoad{
			ml("c2", domain.DistributedForce, domain.GlobalInclined, geom.XAxis, domain.Actual, 0, 0, 1e3, 2e3),
			ml("c4", domain.ConcentratedForce, domain.GlobalInclined, geom.ZAxis, domain.Actual, 1.5, 0, 5e3, 0),
		}},
		{Name: "WNX", NodeLoads: sway(-25e3), Members: []domain.MemberLoad{
			ml("c1", domain.DistributedForce, domain.Local, geom.YAxis, domain.Actual, 0, 0, 1.5e3, 1.5e3),
		}},
	}
	m.Combinations = []domain.Combination{
		{Name: "ULS", Terms: []domain.Term{{Case: "DL", Factor: 1.35}, {Case: "LL", Factor: 1.5}}},
		{Name: "ULS+W", Terms: []domain.Term{{Case: "ULS", Factor: 1}, {Case: "WX", Factor: 0.9}}},
		{Name: "DL-W", Terms: []domain.Term{{Case: "DL", Factor: 1}, {Case: "WNX", Factor: 1.5}}},
		{Name: "Env", Terms: []domain.Term{{Case: "ULS+W", Factor: 2}, {Case: "DL-W", Factor: -0.5}, {Case: "LL", Factor: 0.3}}},
	}
	return m
}

// subModel returns the part of m that Stations needs for members ids:
// those members, their end and direction nodes, all sections and
// materials, and the cases and combinations with only the member,
// thermal and prestress loads of those members. Node loads are kept, on
// nodes that may be missing: Stations must ignore them.
func subModel(tb testing.TB, m *domain.Model, ids []string) *domain.Model {
	tb.Helper()
	sub := &domain.Model{VerticalAxis: m.VerticalAxis, Materials: m.Materials, Sections: m.Sections, Combinations: m.Combinations}
	keep := make(map[string]bool, len(ids))
	for _, id := range ids {
		keep[id] = true
	}
	keepNode := map[string]bool{}
	for _, mm := range m.Members {
		if keep[mm.ID] {
			sub.Members = append(sub.Members, mm)
			keepNode[mm.NodeA], keepNode[mm.NodeB] = true, true
			if mm.DirectionNode != "" {
				keepNode[mm.DirectionNode] = true
			}
		}
	}
	if len(sub.Members) != len(ids) {
		tb.Fatalf("sub-model of %v: found %d members", ids, len(sub.Members))
	}
	for _, n := range m.Nodes {
		if keepNode[n.ID] {
			sub.Nodes = append(sub.Nodes, n)
		}
	}
	for _, lc := range m.LoadCases {
		c := domain.LoadCase{Name: lc.Name, SelfWeight: lc.SelfWeight, NodeLoads: lc.NodeLoads}
		for _, l := range lc.Members {
			if keep[l.Member] {
				c.Members = append(c.Members, l)
			}
		}
		for _, l := range lc.Thermal {
			if keep[l.Member] {
				c.Thermal = append(c.Thermal, l)
			}
		}
		for _, l := range lc.Prestress {
			if keep[l.Member] {
				c.Prestress = append(c.Prestress, l)
			}
		}
		sub.LoadCases = append(sub.LoadCases, c)
	}
	return sub
}

// endsOf returns the stored end states of members ids in case c.
func endsOf(t *testing.T, c static.CaseResult, ids []string) []static.MemberEnd {
	t.Helper()
	ends := make([]static.MemberEnd, len(ids))
	for i, id := range ids {
		mr := memberRes(t, c, id)
		ends[i] = static.MemberEnd{Member: id, EndA: mr.EndA, EndB: mr.EndB, DispA: mr.DispA, Inactive: mr.Inactive}
	}
	return ends
}

// sameStations requires got to match want station by station. Stations
// repeats Analyze's arithmetic on the same inputs (end states, resolved
// loads, evaluator, stress factors), and today the results are bitwise
// equal; only the order of floating-point sums may legitimately differ
// (a sub-model listing its cases in another order accumulates a
// combination's strains and point loads in that order), which moves a
// result by a few ulps of the largest term summed. So each value must
// agree to 1e-12 of the largest magnitude its component reaches along the
// member (a value that should be zero is judged against its diagram).
func sameStations(t *testing.T, got, want static.MemberResult) {
	t.Helper()
	if got.Member != want.Member || got.Inactive != want.Inactive || got.EndA != want.EndA || got.EndB != want.EndB || got.DispA != want.DispA {
		t.Fatalf("member %s: end state not copied: got %+v, want %+v", want.Member, got, want)
	}
	// The same geometry code on the same coordinates: identical axes.
	if got.Axes != want.Axes {
		t.Fatalf("member %s: axes %v, want %v", want.Member, got.Axes, want.Axes)
	}
	if len(got.Stations) != len(want.Stations) {
		t.Fatalf("member %s: %d stations, want %d", want.Member, len(got.Stations), len(want.Stations))
	}
	flat := func(s static.Station) []float64 {
		st := s.Stress
		v := []float64{s.X}
		v = append(v, s.Forces[:]...)
		v = append(v, s.Disp[:]...)
		return append(v, st.Axial, st.ShearY, st.ShearZ, st.BendingY[0], st.BendingY[1], st.BendingZ[0], st.BendingZ[1], st.Max, st.Min)
	}
	const tol = 1e-12
	var scale []float64
	for _, s := range want.Stations {
		v := flat(s)
		scale = slices.Grow(scale, len(v))[:len(v)]
		for k, x := range v {
			scale[k] = math.Max(scale[k], math.Abs(x))
		}
	}
	for i := range want.Stations {
		g, w := flat(got.Stations[i]), flat(want.Stations[i])
		for k := range w {
			if d := math.Abs(g[k] - w[k]); d > tol*scale[k] {
				t.Errorf("member %s station %d (x = %g) value %d: got %.17g, want %.17g (diff %.3g, scale %.3g)",
					want.Member, i, w[0], k, g[k], w[k], d, scale[k])
			}
		}
	}
}

// TestStationsMatchAnalyze analyses stationsModel, linearly and with the
// reversal loop, then rebuilds the stations of a few members of every case
// and combination from their stored end states on a sub-model holding
// only those members and their loads, and requires Analyze's stations.
func TestStationsMatchAnalyze(t *testing.T) {
	ids := []string{"b3", "b1", "t2", "t1", "tr", "b2", "c1", "b4"} // not in model order
	full := stationsModel()
	sub := subModel(t, full, ids)
	for _, tc := range []struct {
		name string
		opts static.Options
		// inactive names a member the reversal loop must switch off in
		// a case, so that the test sees inactive members, in primary
		// cases and combinations.
		inactive map[string]string
	}{
		{"linear", static.Options{}, nil},
		{"linear-7-divisions", static.Options{Divisions: 7}, nil},
		{"tension-only", static.Options{TensionCompressionOnly: true}, map[string]string{"WNX": "t1", "DL-W": "t1", "DL": "t2", "Env": "t2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, full, tc.opts)
			for c, id := range tc.inactive {
				if !memberRes(t, caseByName(t, res, c), id).Inactive {
					t.Fatalf("case %s: member %s is active; the test needs it switched off", c, id)
				}
			}
			for _, cr := range res.Cases {
				t.Run(cr.Name, func(t *testing.T) {
					got, err := static.Stations(context.Background(), sub, tc.opts, cr.Name, endsOf(t, cr, ids))
					if err != nil {
						t.Fatal(err)
					}
					if len(got) != len(ids) {
						t.Fatalf("%d results for %d members", len(got), len(ids))
					}
					for i, id := range ids {
						sameStations(t, got[i], memberRes(t, cr, id))
					}
				})
			}
		})
	}
}

// TestStationsCombination checks a nested combination directly against
// Analyze's result for it and against the superposition of its cases'
// stations rebuilt one by one: the combination's diagram includes every
// factored load, point loads of all its cases among them.
func TestStationsCombination(t *testing.T) {
	full := stationsModel()
	res := run(t, full, static.Options{})
	ids := []string{"b1", "b2"}
	sub := subModel(t, full, ids)
	env := caseByName(t, res, "Env")
	got, err := static.Stations(context.Background(), sub, static.Options{}, "Env", endsOf(t, env, ids))
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		sameStations(t, got[i], memberRes(t, env, id))
	}
	// Env = 2·(1.35 DL + 1.5 LL + 0.9 WX) − 0.5·(DL + 1.5 WNX) + 0.3 LL.
	factors := map[string]float64{"DL": 2*1.35 - 0.5, "LL": 2*1.5 + 0.3, "WX": 2 * 0.9, "WNX": -0.5 * 1.5}
	b1 := got[0]
	want := make([][6]float64, len(b1.Stations))
	common := make([]bool, len(b1.Stations)) // X is a station of every case
	for i := range common {
		common[i] = true
	}
	for c, f := range factors {
		parts, err := static.Stations(context.Background(), sub, static.Options{}, c, endsOf(t, caseByName(t, res, c), ids))
		if err != nil {
			t.Fatal(err)
		}
		// Point loads of one case add stations the others lack: compare
		// at the X all cases share, values just past any point load.
		for i, s := range b1.Stations {
			j := slices.IndexFunc(parts[0].Stations, func(p static.Station) bool { return p.X == s.X })
			if j < 0 {
				common[i] = false
				continue
			}
			for j+1 < len(parts[0].Stations) && parts[0].Stations[j+1].X == s.X {
				j++
			}
			for k := range 6 {
				want[i][k] += f * parts[0].Stations[j].Forces[k]
			}
		}
	}
	for i, s := range b1.Stations {
		if !common[i] || (i+1 < len(b1.Stations) && b1.Stations[i+1].X == s.X) {
			continue
		}
		for k := range 6 {
			if d := math.Abs(s.Forces[k] - want[i][k]); d > 1e-9*(1+math.Abs(want[i][k])) {
				t.Errorf("b1 x = %g force %d: combination %g, superposed %g", s.X, k, s.Forces[k], want[i][k])
			}
		}
	}
}

// TestStationsErrors: Stations names what the caller must fix.
func TestStationsErrors(t *testing.T) {
	full := stationsModel()
	ends := []static.MemberEnd{{Member: "b1"}}
	for _, tc := range []struct {
		name  string
		model func() *domain.Model
		cas   string
		ends  []static.MemberEnd
		want  string
	}{
		{"load on a missing member", func() *domain.Model {
			sub := subModel(t, full, []string{"b1"})
			sub.LoadCases[0].Members = append(sub.LoadCases[0].Members, domain.MemberLoad{Member: "b2", Type: domain.DistributedForce, P1: 1, P2: 1})
			return sub
		}, "DL", ends, `member "b2"`},
		{"thermal on a missing member", func() *domain.Model {
			sub := subModel(t, full, []string{"b1"})
			sub.LoadCases[1].Thermal = full.LoadCases[1].Thermal
			return sub
		}, "ULS", ends, `member "b4"`},
		{"prestress on a missing member", func() *domain.Model {
			sub := subModel(t, full, []string{"b1"})
			sub.LoadCases[1].Prestress = full.LoadCases[1].Prestress
			return sub
		}, "ULS+W", ends, `member "tr"`},
		{"unknown case", func() *domain.Model { return subModel(t, full, []string{"b1"}) }, "nope", ends, `"nope"`},
		{"member not in the model", func() *domain.Model { return subModel(t, full, []string{"b1"}) }, "DL",
			[]static.MemberEnd{{Member: "b9"}}, `"b9"`},
		{"missing section", func() *domain.Model {
			sub := subModel(t, full, []string{"b1"})
			sub.Sections = nil
			return sub
		}, "DL", ends, "member b1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := static.Stations(context.Background(), tc.model(), static.Options{}, tc.cas, tc.ends)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %s", err, tc.want)
			}
		})
	}
}
