package domain_test

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/static"
)

// Indices of the members of subdivisionModel.
const (
	mC1 = iota
	mC2
	mC3
	mB1
	mB2
	mCant
	mBrace
)

// Ids of the members of subdivisionModel: index + 1.
const (
	c1 = iota + 1
	c2
	c3
	b1
	b2
	cant
	brace
)

// subdivisionModel is a 3-D model with a two-span frame (columns c1–c3,
// beams b1 and b2, truss brace) and a separate cantilever of exactly 6 m,
// loaded with everything Subdivide splits: point loads at Actual and
// Percent positions (at 2 m and 3 m on the cantilever, segment boundaries
// for 2, 3 and 4 segments; at 50 % on b2, one for an even count; at both
// member ends), full and partial, uniform and trapezoidal distributed
// forces and moments in every axes kind, thermal loads with gradients,
// prestress and self-weight, on members with a hinge and a spring release,
// global and local rigid offsets, principal angles, shear areas, factors
// and a direction node. Nodes n1–n6 are 1–6 and k0, k1 7 and 8; the
// members are 1–7 in the order of the indices above, the sections s1, s2
// and br 1–3; the cases points, distributed, strain and self 1–4, the
// combination 5.
func subdivisionModel() *domain.Model {
	node := func(id int64, x, y, z float64) domain.Node { return domain.Node{ID: id, X: x, Y: y, Z: z} }
	mem := func(id, a, b, s int64) domain.Member {
		return domain.Member{ID: id, NodeA: a, NodeB: b, Section: s, Material: 1}
	}
	m := &domain.Model{
		VerticalAxis: geom.ZAxis,
		Nodes: []domain.Node{node(1, 0, 0, 0), node(2, 0, 0, 4), node(3, 6, 0, 0), node(4, 6, 0, 4),
			node(5, 6.5, 5, 0), node(6, 6.5, 5, 4.5), node(7, 10, 0, 1), node(8, 10, 6, 1)},
		Materials: []domain.Material{{ID: 1, E: e, G: gm, Density: 7850, Alpha: 1.2e-5}},
		Sections: []domain.Section{
			{ID: 1, A: 8e-3, Ay: 3e-3, Az: 4e-3, J: 3e-6, Iy: 9e-5, Iz: 2e-5, PrincipalAngle: 0.3},
			{ID: 2, A: 5e-3, Ay: 2e-3, Az: 2.5e-3, J: 1e-6, Iy: 4e-5, Iz: 1.5e-5},
			{ID: 3, A: 1e-3, J: 1e-8, Iy: 1e-8, Iz: 1e-8},
		},
		Members: []domain.Member{mem(c1, 1, 2, 1), mem(c2, 3, 4, 1), mem(c3, 5, 6, 1),
			mem(b1, 2, 4, 2), mem(b2, 4, 6, 2), mem(cant, 7, 8, 2), mem(brace, 1, 4, 3)},
		Supports: []domain.Support{{Node: 1, Code: "FFFFFF"}, {Node: 3, Code: "FFFRRR"},
			{Node: 5, Code: "FFFSSS", Springs: [6]float64{3: 5e6, 4: 8e6, 5: 1e6}}, {Node: 7, Code: "FFFFFF"}},
	}
	ms := m.Members
	ms[mC2].Direction.Angle, ms[mC2].OffsetB = 0.4, geom.Vec3{0, 0, -0.2}
	ms[mC3].OffsetA = geom.Vec3{0.1, -0.1, 0}
	ms[mB1].OffsetA, ms[mB1].OffsetB, ms[mB1].OffsetsLocal = geom.Vec3{0.15, 0, 0.02}, geom.Vec3{-0.15, 0.01, 0}, true
	ms[mB2].ReleaseA, ms[mB2].ReleaseB, ms[mB2].SpringsB = "FFFFRR", "FFFFFS", [6]float64{5: 3e6}
	ms[mCant].Direction, ms[mCant].DirectionNode = geom.Direction{Kind: geom.DirectionNode}, 3
	ms[mCant].AreaFactor, ms[mCant].IyFactor = 0.9, 1.1
	ms[mBrace].Type = domain.Truss
	ml := func(member int64, typ domain.MemberLoadType, axes domain.LoadAxes, dir geom.Axis, pos domain.PositionKind, a, b, p1, p2 float64) domain.MemberLoad {
		return domain.MemberLoad{Member: member, Type: typ, Axes: axes, Direction: dir, Position: pos, A: a, B: b, P1: p1, P2: p2}
	}
	const cf, cm, df, dm = domain.ConcentratedForce, domain.ConcentratedMoment, domain.DistributedForce, domain.DistributedMoment
	const loc, inc, prj, act, pct = domain.Local, domain.GlobalInclined, domain.GlobalProjected, domain.Actual, domain.Percent
	m.LoadCases = []domain.LoadCase{
		{ID: 1, Members: []domain.MemberLoad{
			ml(cant, cf, loc, geom.NegativeYAxis, act, 2, 0, 5e3, 0),
			ml(cant, cf, loc, geom.ZAxis, act, 3, 0, 2e3, 0),
			ml(cant, cf, inc, geom.NegativeZAxis, pct, 100, 0, 4e3, 0),
			ml(cant, cf, inc, geom.XAxis, act, 0, 0, 1e3, 0),
			ml(cant, cm, loc, geom.XAxis, pct, 37.5, 0, 3e3, 0),
			ml(b1, cf, inc, geom.NegativeZAxis, pct, 30, 0, 12e3, 0),
			ml(b2, cm, loc, geom.ZAxis, pct, 50, 0, 5e3, 0),
			ml(b2, cf, prj, geom.YAxis, act, 1.1, 0, 2e3, 0),
		}},
		{ID: 2, Members: []domain.MemberLoad{
			ml(b1, df, loc, geom.NegativeYAxis, act, 0, 0, 4e3, 4e3),
			ml(b1, df, inc, geom.XAxis, pct, 80, 10, 2e3, -1e3),
			ml(b2, df, prj, geom.NegativeZAxis, act, 0, 0, 6e3, 1e3),
			ml(cant, df, prj, geom.NegativeZAxis, act, 0.5, 4.7, 1e3, 3e3),
			ml(cant, dm, loc, geom.YAxis, pct, 20, 90, 300, -500),
			ml(c1, dm, loc, geom.XAxis, act, 0.4, 2.5, 400, 100),
			ml(c3, dm, inc, geom.YAxis, act, 0, 0, 250, 250),
			ml(brace, df, inc, geom.NegativeZAxis, act, 0, 0, 200, 200),
		}},
		{ID: 3,
			Thermal: []domain.ThermalLoad{{Member: b1, DT: 30, DTy: 50, DTz: -20},
				{Member: cant, DT: -15, DTy: 10, DTz: 25}, {Member: brace, DT: 20}},
			Prestress: []domain.PrestressLoad{{Member: c1, Force: 50e3}, {Member: brace, Force: 20e3}}},
		{ID: 4, SelfWeight: [3]float64{0, 0.2, -1}, NodeLoads: []domain.NodeLoad{{Node: 8, F: [6]float64{0, 0, -2e3}}}},
	}
	m.Combinations = []domain.Combination{{ID: 5, Terms: []domain.Term{
		{Case: 1, Factor: 1.35}, {Case: 2, Factor: 1.5}, {Case: 3, Factor: 0.6}, {Case: 4, Factor: 1}}}}
	return m
}

// segmentCounts are the segment counts the tests subdivide with.
var segmentCounts = []struct {
	name string
	n    func(i int) int
}{
	{"two", func(int) int { return 2 }},
	{"three", func(int) int { return 3 }},
	{"four", func(int) int { return 4 }},
	{"mixed", func(i int) int { return []int{1, 5, 2, 3, 4, 3, 6}[i] }},
}

// subdivide runs Subdivide and fails the test on an error.
func subdivide(t *testing.T, m *domain.Model, n func(int) int) (*domain.Model, *domain.Subdivision) {
	t.Helper()
	rm, sd, err := domain.Subdivide(m, n)
	if err != nil {
		t.Fatal(err)
	}
	return rm, sd
}

// analyze runs a static analysis of every case and combination of m.
func analyze(t *testing.T, m *domain.Model) *static.Results {
	t.Helper()
	res, err := static.Analyze(context.Background(), m, static.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSubdivideStaticResponse checks that a subdivided model responds as
// the original: the frame element is exact for every load here (exact
// Timoshenko stiffness and fixed-end actions), so the displacements at the
// original nodes, the reactions, the end actions and end-A displacements
// at the original member ends agree to round-off. The tolerance, 1e-9 of
// the largest value of each quantity over the case, leaves room for the
// round-off of solving the larger refined system (below 1e-12 here)
// while a segment load misplaced by a millimetre fails it.
func TestSubdivideStaticResponse(t *testing.T) {
	m := subdivisionModel()
	want := analyze(t, m)
	for _, sc := range segmentCounts {
		t.Run(sc.name, func(t *testing.T) {
			rm, sd := subdivide(t, m, sc.n)
			got := analyze(t, rm)
			if len(got.Cases) != len(want.Cases) {
				t.Fatalf("%d cases, want %d", len(got.Cases), len(want.Cases))
			}
			for c := range want.Cases {
				compareCase(t, rm, sd, &got.Cases[c], &want.Cases[c])
			}
		})
	}
}

// compareCase compares the case got of the refined model rm with the
// original want at the original nodes and member ends.
func compareCase(t *testing.T, rm *domain.Model, sd *domain.Subdivision, got, want *static.CaseResult) {
	t.Helper()
	byID := make(map[int64]*static.MemberResult, len(got.Members))
	for i := range got.Members {
		byID[got.Members[i].Member] = &got.Members[i]
	}
	refined := func(i, k int) *static.MemberResult {
		r := byID[rm.Members[sd.Segments[i][k]].ID]
		if r == nil {
			t.Fatalf("%d: no result for segment %d of member %d", want.Case, k, want.Members[i].Member)
		}
		return r
	}
	var g, w struct{ disp, reaction, end []float64 }
	for n := range want.Nodes {
		if got.Nodes[n].Node != want.Nodes[n].Node || got.Nodes[n].HasReaction != want.Nodes[n].HasReaction {
			t.Fatalf("%d: node %d is %+v, want %+v", want.Case, n, got.Nodes[n], want.Nodes[n])
		}
		g.disp, w.disp = append(g.disp, got.Nodes[n].Disp[:]...), append(w.disp, want.Nodes[n].Disp[:]...)
		g.reaction, w.reaction = append(g.reaction, got.Nodes[n].Reaction[:]...), append(w.reaction, want.Nodes[n].Reaction[:]...)
	}
	for i, wm := range want.Members {
		first, last := refined(i, 0), refined(i, len(sd.Segments[i])-1)
		g.disp, w.disp = append(g.disp, first.DispA[:]...), append(w.disp, wm.DispA[:]...)
		g.end, w.end = append(append(g.end, first.EndA[:]...), last.EndB[:]...), append(append(w.end, wm.EndA[:]...), wm.EndB[:]...)
	}
	name := fmt.Sprint(want.Case)
	closeTo(t, name+" displacements", g.disp, w.disp, 1e-9)
	closeTo(t, name+" reactions", g.reaction, w.reaction, 1e-9)
	closeTo(t, name+" end actions", g.end, w.end, 1e-9)
}

// closeTo fails unless got and want agree within tol times the largest
// magnitude in want.
func closeTo(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	scale := 0.0
	for _, v := range want {
		scale = math.Max(scale, math.Abs(v))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > tol*scale {
			t.Errorf("%s[%d] = %.15g, want %.15g (scale %g)", what, i, got[i], want[i], scale)
		}
	}
}

// TestSubdivisionMaps checks the refined model's layout against the
// Subdivision: counts; the segments' ends, releases and offsets; the
// generated ids (above every id of the model, so no user's id); and
// interior nodes equally spaced on the flexible line, whose ends are
// worked out by hand here. b1 is horizontal along X with Z up, so the
// local axes of its node-to-node line are x = X, y = Z, z = −Y: its local
// offsets (0.15, 0, 0.02) and (−0.15, 0.01, 0) are (0.15, −0.02, 0) and
// (−0.15, 0, 0.01) in global axes. Positions agree to 1e-12 m, far below
// any misplacement and above the round-off of coordinates of a few metres.
func TestSubdivisionMaps(t *testing.T) {
	m := subdivisionModel()
	offsets := map[int][2]geom.Vec3{ // global offsets of end A and B
		mC2: {{}, {0, 0, -0.2}}, mC3: {{0.1, -0.1, 0}, {}}, mB1: {{0.15, -0.02, 0}, {-0.15, 0, 0.01}},
	}
	pos := func(n domain.Node) geom.Vec3 { return geom.Vec3{n.X, n.Y, n.Z} }
	node := map[int64]geom.Vec3{}
	var topNode, topMember int64
	for _, n := range m.Nodes {
		node[n.ID] = pos(n)
		topNode = max(topNode, n.ID)
	}
	for _, mm := range m.Members {
		topMember = max(topMember, mm.ID)
	}
	for _, sc := range segmentCounts {
		t.Run(sc.name, func(t *testing.T) {
			rm, sd := subdivide(t, m, sc.n)
			interior := 0
			seen := map[[2]int64]bool{} // generated ids: {0, node} and {1, member}
			for i, mm := range m.Members {
				n := sc.n(i)
				if mm.Type.AxialOnly() {
					n = 1
				}
				if len(sd.Segments[i]) != n || len(sd.Interior[i]) != n-1 || len(sd.Start[i]) != n {
					t.Fatalf("member %d: %d segments, %d interior nodes, %d starts; want %d segments", mm.ID,
						len(sd.Segments[i]), len(sd.Interior[i]), len(sd.Start[i]), n)
				}
				interior += n - 1
				first, last := rm.Members[sd.Segments[i][0]], rm.Members[sd.Segments[i][n-1]]
				if first.NodeA != mm.NodeA || last.NodeB != mm.NodeB || first.ReleaseA != mm.ReleaseA || last.ReleaseB != mm.ReleaseB ||
					first.SpringsA != mm.SpringsA || last.SpringsB != mm.SpringsB || first.Section != mm.Section {
					t.Errorf("member %d: first segment %+v, last %+v", mm.ID, first, last)
				}
				if n == 1 {
					if !reflect.DeepEqual(first, mm) {
						t.Errorf("member %d left whole is %+v", mm.ID, first)
					}
					continue
				}
				a, b := node[mm.NodeA].Add(offsets[i][0]), node[mm.NodeB].Add(offsets[i][1])
				if d := first.OffsetA.Sub(offsets[i][0]).Norm() + last.OffsetB.Sub(offsets[i][1]).Norm(); d > 1e-12 || first.OffsetsLocal {
					t.Errorf("member %d: segment offsets %v, %v (local %v), want %v in global axes", mm.ID, first.OffsetA, last.OffsetB, first.OffsetsLocal, offsets[i])
				}
				for _, j := range sd.Segments[i] {
					if id := rm.Members[j].ID; id <= topMember || seen[[2]int64{1, id}] {
						t.Errorf("member %d: segment id %d", mm.ID, id)
					}
					seen[[2]int64{1, rm.Members[j].ID}] = true
				}
				for k, ni := range sd.Interior[i] {
					want := a.Add(b.Sub(a).Scale(float64(k+1) / float64(n)))
					id := rm.Nodes[ni].ID
					if ni < len(m.Nodes) || pos(rm.Nodes[ni]).Sub(want).Norm() > 1e-12 || id <= topNode || seen[[2]int64{0, id}] {
						t.Errorf("member %d: interior node %d is number %d, %d at %v; want at %v", mm.ID, k, ni, id, pos(rm.Nodes[ni]), want)
					}
					seen[[2]int64{0, id}] = true
					if got, ok := sd.InteriorOf(ni); !ok || got != i {
						t.Errorf("member %d: InteriorOf(%d) = %d, %v; want %d", mm.ID, ni, got, ok, i)
					}
					if rm.Members[sd.Segments[i][k]].NodeB != rm.Nodes[ni].ID || rm.Members[sd.Segments[i][k+1]].NodeA != rm.Nodes[ni].ID {
						t.Errorf("member %d: segments %d and %d do not meet at interior node %d", mm.ID, k, k+1, k)
					}
				}
				for k, s := range sd.Start[i] {
					if want := b.Sub(a).Norm() * float64(k) / float64(n); math.Abs(s-want) > 1e-12 {
						t.Errorf("member %d: segment %d starts at %g m, want %g", mm.ID, k, s, want)
					}
				}
			}
			if len(rm.Nodes) != len(m.Nodes)+interior || !reflect.DeepEqual(rm.Nodes[:len(m.Nodes)], m.Nodes) {
				t.Errorf("%d nodes, want the %d original ones first and %d interior", len(rm.Nodes), len(m.Nodes), interior)
			}
			checkSegmentAxes(t, m, rm, sd)
		})
	}
}

// checkSegmentAxes checks through Build that every segment has its
// member's local axes and an equal share of its flexible length. Both are
// computed from coordinates of a few metres, hence the 1e-12 tolerance.
func checkSegmentAxes(t *testing.T, m, rm *domain.Model, sd *domain.Subdivision) {
	t.Helper()
	d, err := domain.Build(context.Background(), m, domain.BuildOptions{MembersOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	rd, err := domain.Build(context.Background(), rm, domain.BuildOptions{MembersOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range d.Frames {
		for _, j := range sd.Segments[i] {
			s := rd.Frames[j]
			for r := range 3 {
				if geom.Vec3(s.Rot[r]).Sub(f.Rot[r]).Norm() > 1e-12 {
					t.Errorf("segment %d: axes %v, member %d has %v", s.MemberID, s.Rot, f.MemberID, f.Rot)
				}
			}
			if want := f.Props.L / float64(len(sd.Segments[i])); math.Abs(s.Props.L-want) > 1e-12 {
				t.Errorf("segment %d: length %g, want %g", s.MemberID, s.Props.L, want)
			}
		}
	}
}

// TestSubdivideWhole checks that one segment per member copies the model.
func TestSubdivideWhole(t *testing.T) {
	m := subdivisionModel()
	rm, _ := subdivide(t, m, func(int) int { return 1 })
	if !reflect.DeepEqual(rm, m) {
		t.Errorf("one segment per member changed the model:\n%+v\nwant\n%+v", rm, m)
	}
}

// TestLocate checks which segment holds a position, boundaries and the
// far end included, for three 2 m segments.
func TestLocate(t *testing.T) {
	sd := &domain.Subdivision{Start: [][]float64{{0, 2, 4}}}
	for _, c := range []struct {
		x       float64
		seg     int
		at      float64
		comment string
	}{
		{0, 0, 0, "start"},
		{1.5, 0, 1.5, "inside"},
		{2, 1, 0, "boundary: the segment that starts there"},
		{math.Nextafter(2, 0), 1, 0, "round-off before a boundary"},
		{5, 2, 1, "last segment"},
		{6, 2, 2, "far end: the last segment"},
	} {
		t.Run(c.comment, func(t *testing.T) {
			if seg, at := sd.Locate(0, c.x); seg != c.seg || math.Abs(at-c.at) > 1e-15 {
				t.Errorf("Locate(%g) = %d, %g; want %d, %g", c.x, seg, at, c.seg, c.at)
			}
		})
	}
}

// TestSubdivideErrors checks the errors: a segment count below 1 names
// the member, and a member load outside its member gives the error that
// resolving the original case gives.
func TestSubdivideErrors(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(m *domain.Model)
		n     func(i int) int
		want  string
		build bool // want is the original model's ResolveCase error
	}{
		{"no segments", nil, func(i int) int { return map[bool]int{true: 0, false: 2}[i == mB2] }, "member 5", false},
		{"negative segments", nil, func(i int) int { return -1 }, "member 1", false},
		{"point beyond the end", func(m *domain.Model) {
			m.LoadCases[0].Members[0].A = 6.5
		}, func(int) int { return 3 }, "", true},
		{"percent beyond the end", func(m *domain.Model) {
			m.LoadCases[1].Members[1].A = 120
		}, func(int) int { return 2 }, "", true},
		{"before the start", func(m *domain.Model) {
			m.LoadCases[1].Members[3].A = -0.1
		}, func(int) int { return 2 }, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := subdivisionModel()
			if c.edit != nil {
				c.edit(m)
			}
			want := c.want
			if c.build {
				want = resolveError(t, m)
			}
			_, _, err := domain.Subdivide(m, c.n)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v, want one containing %q", err, want)
			}
		})
	}
}

// resolveError returns the error of resolving the first case of m that
// fails.
func resolveError(t *testing.T, m *domain.Model) string {
	t.Helper()
	d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, lc := range m.LoadCases {
		if _, err := d.ResolveCase(lc.ID); err != nil {
			return err.Error()
		}
	}
	t.Fatal("every case resolves")
	return ""
}
