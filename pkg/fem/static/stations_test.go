package static_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/static"
)

// Members of stationsModel.
const (
	c1, c2, c3, c4 = 1, 2, 3, 4
	b1, b2, b3, b4 = 5, 6, 7, 8
	t1, t2, tr     = 9, 10, 11
)

// stationsModel is a braced 6 m × 4 m × 3 m frame, Y up, base fixed,
// exercising every member feature that reaches the stations: beams with
// releases and springs, rigid offsets in global and local axes, a section
// with a principal angle and fibre distances, a direction node, a truss
// with prestress, and two tension-only braces that the reversal loop
// switches off under gravity and under one sign of sway. Its cases carry
// every member-load kind in every load axes with both position kinds,
// thermal loads and self-weight; combinations nest two deep. Nodes A1–A4
// are 1–4, B1–B4 5–8 and D 9; members c1–c4 are 1–4, b1–b4 5–8, t1, t2
// and tr 9–11 (the constants below); the sections rolled, skew and rod
// 1–3; the cases DL, LL, WX and WNX 1–4, the combinations ULS, ULS+W,
// DL-W and Env 5–8.
func stationsModel() *domain.Model {
	rolled := domain.Section{ID: 1, A: 8e-3, Ay: 3e-3, Az: 4e-3, J: 3e-7, Iy: 2e-5, Iz: 6e-5,
		YTop: 0.15, YBottom: 0.15, ZTop: 0.08, ZBottom: 0.08}
	skew := rolled
	skew.ID, skew.PrincipalAngle, skew.YTop, skew.ZBottom = 2, 0.3, 0.2, 0.05
	m := base(rolled, skew, sec(3, 5e-4, 1e-8))
	m.Nodes = []domain.Node{
		node(1, 0, 0, 0), node(2, 6, 0, 0), node(3, 0, 0, 4), node(4, 6, 0, 4),
		node(5, 0, 3, 0), node(6, 6, 3, 0), node(7, 0, 3, 4), node(8, 6, 3, 4),
		node(9, 3, 10, 10),
	}
	mem := func(id, a, b, s int64) domain.Member { return frame(id, a, b, s) }
	m.Members = []domain.Member{
		mem(c1, 1, 5, 1), mem(c2, 2, 6, 1),
		mem(c3, 3, 7, 2), mem(c4, 4, 8, 1),
		mem(b1, 5, 6, 1), mem(b2, 7, 8, 2),
		mem(b3, 5, 7, 1), mem(b4, 6, 8, 2),
		mem(t1, 1, 6, 3), mem(t2, 2, 5, 3),
		mem(tr, 3, 8, 3),
	}
	mb := func(id int64) *domain.Member {
		for i := range m.Members {
			if m.Members[i].ID == id {
				return &m.Members[i]
			}
		}
		panic(fmt.Sprint("no member ", id))
	}
	mb(b1).ReleaseB, mb(b1).SpringsB = "FFFFRS", [6]float64{5: 2e6}
	mb(b2).OffsetA, mb(b2).OffsetB = geom.Vec3{0.2, 0, 0}, geom.Vec3{-0.25, 0.05, 0}
	mb(b3).OffsetsLocal, mb(b3).OffsetA, mb(b3).OffsetB = true, geom.Vec3{0.15, -0.1, 0.05}, geom.Vec3{-0.15, 0, 0}
	mb(b3).Direction, mb(b3).DirectionNode = geom.Direction{Kind: geom.DirectionNode, Angle: 0.1}, 9
	mb(b4).ReleaseA, mb(b4).SpringsA = "FFFFSS", [6]float64{4: 5e6, 5: 3e6}
	mb(b4).IzFactor = 1.2
	mb(t1).Type, mb(t2).Type, mb(tr).Type = domain.TensionOnly, domain.TensionOnly, domain.Truss
	for _, n := range []int64{1, 2, 3, 4, 9} {
		m.Supports = append(m.Supports, domain.Support{Node: n, Code: "FFFFFF"})
	}
	ml := func(member int64, typ domain.MemberLoadType, axes domain.LoadAxes, dir geom.Axis, pos domain.PositionKind, a, b, p1, p2 float64) domain.MemberLoad {
		return domain.MemberLoad{Member: member, Type: typ, Axes: axes, Direction: dir, Position: pos, A: a, B: b, P1: p1, P2: p2}
	}
	sway := func(fx float64) []domain.NodeLoad {
		return []domain.NodeLoad{{Node: 5, F: [6]float64{fx}}, {Node: 7, F: [6]float64{fx, 0, 0, 0, 0, 0.1 * fx}}}
	}
	m.LoadCases = []domain.LoadCase{
		{ID: 1, SelfWeight: [3]float64{0, -1, 0}, Members: []domain.MemberLoad{
			ml(b1, domain.DistributedForce, domain.GlobalInclined, geom.NegativeYAxis, domain.Actual, 0, 0, 5e3, 5e3),
			ml(b2, domain.ConcentratedForce, domain.Local, geom.NegativeYAxis, domain.Percent, 30, 0, 10e3, 0),
			ml(b3, domain.DistributedForce, domain.GlobalProjected, geom.NegativeYAxis, domain.Actual, 0.5, 2.5, 2e3, 6e3),
			ml(b4, domain.ConcentratedMoment, domain.Local, geom.ZAxis, domain.Actual, 2, 0, 3e3, 0),
			ml(c1, domain.DistributedMoment, domain.Local, geom.XAxis, domain.Actual, 0, 0, 500, 500),
			ml(tr, domain.DistributedForce, domain.GlobalInclined, geom.NegativeYAxis, domain.Actual, 0, 0, 40, 40),
		}},
		{ID: 2, Members: []domain.MemberLoad{
			ml(b1, domain.ConcentratedForce, domain.GlobalInclined, geom.NegativeYAxis, domain.Actual, 2, 0, 20e3, 0),
			// At a division point: one station on each side, not three.
			ml(b1, domain.ConcentratedForce, domain.Local, geom.ZAxis, domain.Percent, 50, 0, 4e3, 0),
			ml(b2, domain.DistributedMoment, domain.GlobalInclined, geom.ZAxis, domain.Percent, 10, 80, 1e3, -2e3),
			ml(b3, domain.ConcentratedMoment, domain.GlobalProjected, geom.NegativeXAxis, domain.Percent, 75, 0, 2e3, 0),
			ml(b4, domain.DistributedForce, domain.GlobalProjected, geom.XAxis, domain.Percent, 20, 60, 1e3, 3e3),
			ml(c3, domain.DistributedMoment, domain.GlobalProjected, geom.YAxis, domain.Actual, 1, 2, 300, 300),
		},
			Thermal:   []domain.ThermalLoad{{Member: b4, DT: 20, DTy: 5, DTz: -3}, {Member: tr, DT: -10}},
			Prestress: []domain.PrestressLoad{{Member: tr, Force: 50e3}, {Member: b2, Force: -30e3}},
		},
		{ID: 3, NodeLoads: sway(20e3), Members: []domain.MemberLoad{
			ml(c2, domain.DistributedForce, domain.GlobalInclined, geom.XAxis, domain.Actual, 0, 0, 1e3, 2e3),
			ml(c4, domain.ConcentratedForce, domain.GlobalInclined, geom.ZAxis, domain.Actual, 1.5, 0, 5e3, 0),
		}},
		{ID: 4, NodeLoads: sway(-25e3), Members: []domain.MemberLoad{
			ml(c1, domain.DistributedForce, domain.Local, geom.YAxis, domain.Actual, 0, 0, 1.5e3, 1.5e3),
		}},
	}
	m.Combinations = []domain.Combination{
		{ID: 5, Terms: []domain.Term{{Case: 1, Factor: 1.35}, {Case: 2, Factor: 1.5}}},
		{ID: 6, Terms: []domain.Term{{Case: 5, Factor: 1}, {Case: 3, Factor: 0.9}}},
		{ID: 7, Terms: []domain.Term{{Case: 1, Factor: 1}, {Case: 4, Factor: 1.5}}},
		{ID: 8, Terms: []domain.Term{{Case: 6, Factor: 2}, {Case: 7, Factor: -0.5}, {Case: 2, Factor: 0.3}}},
	}
	return m
}

// subModel returns the part of m that Stations needs for members ids:
// those members, their end and direction nodes, all sections and
// materials, and the cases and combinations with only the member,
// thermal and prestress loads of those members. Node loads are kept, on
// nodes that may be missing: Stations must ignore them.
func subModel(tb testing.TB, m *domain.Model, ids []int64) *domain.Model {
	tb.Helper()
	sub := &domain.Model{VerticalAxis: m.VerticalAxis, Materials: m.Materials, Sections: m.Sections, Combinations: m.Combinations}
	keep := make(map[int64]bool, len(ids))
	for _, id := range ids {
		keep[id] = true
	}
	keepNode := map[int64]bool{}
	for _, mm := range m.Members {
		if keep[mm.ID] {
			sub.Members = append(sub.Members, mm)
			keepNode[mm.NodeA], keepNode[mm.NodeB] = true, true
			if mm.DirectionNode != 0 {
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
		c := domain.LoadCase{ID: lc.ID, SelfWeight: lc.SelfWeight, NodeLoads: lc.NodeLoads}
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
func endsOf(t *testing.T, c static.CaseResult, ids []int64) []static.MemberEnd {
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
		t.Fatalf("member %d: end state not copied: got %+v, want %+v", want.Member, got, want)
	}
	// The same geometry code on the same coordinates: identical axes.
	if got.Axes != want.Axes {
		t.Fatalf("member %d: axes %v, want %v", want.Member, got.Axes, want.Axes)
	}
	if len(got.Stations) != len(want.Stations) {
		t.Fatalf("member %d: %d stations, want %d", want.Member, len(got.Stations), len(want.Stations))
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
				t.Errorf("member %d station %d (x = %g) value %d: got %.17g, want %.17g (diff %.3g, scale %.3g)",
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
	ids := []int64{b3, b1, t2, t1, tr, b2, c1, b4} // not in model order
	full := stationsModel()
	sub := subModel(t, full, ids)
	for _, tc := range []struct {
		name string
		opts static.Options
		// inactive names a member the reversal loop must switch off in
		// a case, so that the test sees inactive members, in primary
		// cases and combinations.
		inactive map[int64]int64
	}{
		{"linear", static.Options{}, nil},
		{"linear-7-divisions", static.Options{Divisions: 7}, nil},
		{"tension-only", static.Options{TensionCompressionOnly: true}, map[int64]int64{4: t1, 7: t1, 1: t2, 8: t2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, full, tc.opts)
			for c, id := range tc.inactive {
				if !memberRes(t, caseByName(t, res, c), id).Inactive {
					t.Fatalf("case %d: member %d is active; the test needs it switched off", c, id)
				}
			}
			for _, cr := range res.Cases {
				t.Run(fmt.Sprint(cr.Case), func(t *testing.T) {
					got, err := static.Stations(context.Background(), sub, tc.opts, cr.Case, endsOf(t, cr, ids))
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
	ids := []int64{b1, b2}
	sub := subModel(t, full, ids)
	env := caseByName(t, res, 8)
	got, err := static.Stations(context.Background(), sub, static.Options{}, 8, endsOf(t, env, ids))
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		sameStations(t, got[i], memberRes(t, env, id))
	}
	// Env = 2·(1.35 DL + 1.5 LL + 0.9 WX) − 0.5·(DL + 1.5 WNX) + 0.3 LL.
	factors := map[int64]float64{1: 2*1.35 - 0.5, 2: 2*1.5 + 0.3, 3: 2 * 0.9, 4: -0.5 * 1.5}
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
	ends := []static.MemberEnd{{Member: b1}}
	for _, tc := range []struct {
		name  string
		model func() *domain.Model
		cas   int64
		ends  []static.MemberEnd
		want  string
	}{
		{"load on a missing member", func() *domain.Model {
			sub := subModel(t, full, []int64{b1})
			sub.LoadCases[0].Members = append(sub.LoadCases[0].Members, domain.MemberLoad{Member: b2, Type: domain.DistributedForce, P1: 1, P2: 1})
			return sub
		}, 1, ends, `member "6"`},
		{"thermal on a missing member", func() *domain.Model {
			sub := subModel(t, full, []int64{b1})
			sub.LoadCases[1].Thermal = full.LoadCases[1].Thermal
			return sub
		}, 5, ends, `member "8"`},
		{"prestress on a missing member", func() *domain.Model {
			sub := subModel(t, full, []int64{b1})
			sub.LoadCases[1].Prestress = full.LoadCases[1].Prestress
			return sub
		}, 6, ends, `member "11"`},
		{"unknown case", func() *domain.Model { return subModel(t, full, []int64{b1}) }, 99, ends, `"99"`},
		{"member not in the model", func() *domain.Model { return subModel(t, full, []int64{b1}) }, 1,
			[]static.MemberEnd{{Member: 99}}, `"99"`},
		{"missing section", func() *domain.Model {
			sub := subModel(t, full, []int64{b1})
			sub.Sections = nil
			return sub
		}, 1, ends, "member 5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := static.Stations(context.Background(), tc.model(), static.Options{}, tc.cas, tc.ends)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %s", err, tc.want)
			}
		})
	}
}
