package adapter_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/static"
	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/samples"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// equilibriumTol is the relative tolerance of every statics check: the
// engine is exact for these members and loads, so only rounding remains.
const equilibriumTol = 1e-9

// sampleRun is a bundled sample opened as POST /job/open-sample opens it,
// converted for the engine and analysed.
type sampleRun struct {
	snap store.Snapshot
	in   adapter.Input
	res  *static.Results
}

// runSample opens the named sample in a fresh Redis, converts it and
// analyses it with opts.
func runSample(t *testing.T, name string, opts static.Options) sampleRun {
	t.Helper()
	ctx := context.Background()
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	jobs := redisstore.NewJobs(rdb, editor.Collections())
	raw, _, err := samples.Read(name)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := jobfile.Decode(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	ed := editor.New(redisstore.NewModel(rdb), jobs)
	st := editor.NewStructure(ed)
	loads := editor.NewLoads(ed, st)
	// The service refuses a file holding rows the API would refuse, so a
	// sample must pass the same check to open at all.
	if err := ed.CheckSnapshot(context.Background(), dec.Snapshot); err != nil {
		t.Fatalf("sample %s does not open: %v", name, err)
	}
	now := time.Now()
	if _, err := jobs.Open(ctx, "w", dec.Snapshot, model.State{OpenedAt: &now}); err != nil {
		t.Fatal(err)
	}
	in, err := adapter.Build(ctx, adapter.Source{Structure: st, Loads: loads}, "w", dec.Snapshot.Job.Settings)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Warnings) > 0 {
		t.Errorf("sample %s converts with warnings %q", name, in.Warnings)
	}
	res, err := static.Analyze(ctx, in.Model, opts)
	if err != nil {
		t.Fatalf("analyse sample %s: %v", name, err)
	}
	// A warning here means a reversal that did not settle, or a support
	// the linear engine only approximates: neither belongs in a sample.
	if len(res.Warnings) > 0 {
		t.Errorf("sample %s analyses with warnings %q", name, res.Warnings)
	}
	return sampleRun{snap: dec.Snapshot, in: in, res: res}
}

// sampleRecords decodes the stored rows of one collection.
func sampleRecords[T any](t *testing.T, snap store.Snapshot, coll string) []T {
	t.Helper()
	out := make([]T, len(snap.Collections[coll]))
	for i, r := range snap.Collections[coll] {
		if err := json.Unmarshal(r.Value, &out[i]); err != nil {
			t.Fatalf("%s row %s: %v", coll, r.Key, err)
		}
	}
	return out
}

// sampleModel is the part of a sample's stored model the hand checks
// read: node positions and, per member, its record, length and mass per
// metre.
type sampleModel struct {
	pos     map[int64]geom.Vec3
	members map[int64]model.Member
	length  map[int64]float64
	// mass is ρ·A per member, kg/m, with the section's area factor.
	mass map[int64]float64
	// plates holds, per plate, its area, local axes and ρ·t.
	plates map[int64]samplePlate
}

// samplePlate is what the hand checks need of a plate.
type samplePlate struct {
	area float64 // m²
	axes geom.PlateFrame
	mass float64 // ρ·t, kg/m²
}

// readSampleModel reads the sample's own records rather than the engine
// model, so that the checks do not take the conversion on trust.
func readSampleModel(t *testing.T, snap store.Snapshot) sampleModel {
	t.Helper()
	sm := sampleModel{pos: map[int64]geom.Vec3{}, members: map[int64]model.Member{},
		length: map[int64]float64{}, mass: map[int64]float64{}}
	for _, n := range sampleRecords[model.Node](t, snap, model.CollNodes) {
		sm.pos[n.ID] = geom.Vec3{n.X, n.Y, n.Z}
	}
	secs := map[int64]model.Section{}
	for _, s := range sampleRecords[model.Section](t, snap, model.CollSections) {
		secs[s.ID] = s
	}
	mats := map[int64]model.Material{}
	for _, m := range sampleRecords[model.Material](t, snap, model.CollMaterials) {
		mats[m.ID] = m
	}
	for _, m := range sampleRecords[model.Member](t, snap, model.CollMembers) {
		sm.members[m.ID] = m
		sm.length[m.ID] = sm.pos[m.NodeB].Sub(sm.pos[m.NodeA]).Norm()
		sm.mass[m.ID] = mats[m.Material].MassDensity * secs[m.Section].A * secs[m.Section].AreaFactor
	}
	sm.plates = map[int64]samplePlate{}
	for _, p := range sampleRecords[model.Plate](t, snap, model.CollPlates) {
		corners := []geom.Vec3{sm.pos[p.NodeA], sm.pos[p.NodeB], sm.pos[p.NodeC]}
		if p.NodeD != 0 {
			corners = append(corners, sm.pos[p.NodeD])
		}
		if p.Direction.Source != "Angle" {
			t.Fatalf("plate %d: readSampleModel takes plate directions by angle only", p.ID)
		}
		g, err := geom.PlateGeometry(corners)
		if err != nil {
			t.Fatalf("plate %d: %v", p.ID, err)
		}
		ax, err := geom.PlateAxes(corners, p.Direction.DirAngle)
		if err != nil {
			t.Fatalf("plate %d: %v", p.ID, err)
		}
		sm.plates[p.ID] = samplePlate{area: g.Area, axes: ax, mass: mats[p.Material].MassDensity * p.ActualThickness}
	}
	return sm
}

// sampleLoadColls are the load collections appliedLoads sums; a sample
// with loads of another kind must teach it that kind first.
var sampleLoadColls = map[string]bool{model.CollNodeLoads: true, model.CollMemberDistributedLoads: true,
	model.CollSelfWeightLoads: true, model.CollPlateLoads: true}

// appliedLoads is the resultant force (N, global axes) of every case and
// combination, by engine case name, summed from the stored records
// alone: node loads, member distributed loads (the trapezoid's mean times
// its loaded length), plate pressures (the pressure times the plate's
// area, along its local axes for Local ones; times the area projected
// normal to each global axis for GlobalProjected ones) and self-weight
// (ρ·A·L over every member and ρ·t·area over every plate, times the
// acceleration).
func appliedLoads(t *testing.T, snap store.Snapshot, sm sampleModel) map[int64][3]float64 {
	t.Helper()
	for coll, rows := range snap.Collections {
		if len(rows) > 0 && !sampleLoadColls[coll] && !isStructureColl(coll) && coll != model.CollLoadCases {
			t.Fatalf("the sample holds %s, which appliedLoads does not sum", coll)
		}
	}
	primary := map[int64][3]float64{}
	for _, x := range sampleRecords[model.NodeLoad](t, snap, model.CollNodeLoads) {
		f := primary[x.LoadCase]
		f[0], f[1], f[2] = f[0]+x.Fx, f[1]+x.Fy, f[2]+x.Fz
		primary[x.LoadCase] = f
	}
	for _, x := range sampleRecords[model.MemberDistributedLoad](t, snap, model.CollMemberDistributedLoads) {
		if x.Axes != "GlobalInclined" {
			t.Fatalf("distributed load %d:%d:%d in %s axes: appliedLoads sums global loads per member length only",
				x.LoadCase, x.Member, x.SubLoad, x.Axes)
		}
		loaded := x.FinishPosition - x.StartPosition
		if x.PositionUnits == "Percent" {
			loaded *= sm.length[x.Member] / 100
		}
		f := primary[x.LoadCase]
		f[0] += (x.FxStart + x.FxFinish) / 2 * loaded
		f[1] += (x.FyStart + x.FyFinish) / 2 * loaded
		f[2] += (x.FzStart + x.FzFinish) / 2 * loaded
		primary[x.LoadCase] = f
	}
	for _, x := range sampleRecords[model.PlatePressureLoad](t, snap, model.CollPlateLoads) {
		pl := sm.plates[x.Plate]
		p := geom.Vec3{x.Px, x.Py, x.Pz}
		var r geom.Vec3
		switch x.Axes {
		case "Local":
			r = pl.axes.X.Scale(p[0] * pl.area).Add(pl.axes.Y.Scale(p[1] * pl.area)).Add(pl.axes.Z.Scale(p[2] * pl.area))
		case "GlobalInclined":
			r = p.Scale(pl.area)
		case "GlobalProjected":
			for k := range 3 {
				r[k] = p[k] * pl.area * math.Abs(pl.axes.Z[k])
			}
		default:
			t.Fatalf("pressure %d:%d in %s axes", x.LoadCase, x.Plate, x.Axes)
		}
		f := primary[x.LoadCase]
		f[0], f[1], f[2] = f[0]+r[0], f[1]+r[1], f[2]+r[2]
		primary[x.LoadCase] = f
	}
	for _, x := range sampleRecords[model.SelfWeightLoad](t, snap, model.CollSelfWeightLoads) {
		f := primary[x.LoadCase]
		for id, L := range sm.length {
			w := sm.mass[id] * L
			f[0], f[1], f[2] = f[0]+w*x.AccelerationX, f[1]+w*x.AccelerationY, f[2]+w*x.AccelerationZ
		}
		for _, pl := range sm.plates {
			w := pl.mass * pl.area
			f[0], f[1], f[2] = f[0]+w*x.AccelerationX, f[1]+w*x.AccelerationY, f[2]+w*x.AccelerationZ
		}
		primary[x.LoadCase] = f
	}
	cases := map[int64]model.LoadCase{}
	for _, c := range sampleRecords[model.LoadCase](t, snap, model.CollLoadCases) {
		cases[c.ID] = c
	}
	var total func(id int64, depth int) [3]float64
	total = func(id int64, depth int) [3]float64 {
		if depth > len(cases) {
			t.Fatalf("combination %d refers to itself", id)
		}
		c := cases[id]
		if len(c.CombinationItems) == 0 {
			return primary[id]
		}
		var f [3]float64
		for _, it := range c.CombinationItems {
			g := total(it.LoadCase, depth+1)
			for i := range f {
				f[i] += it.MultiplyingFactor * g[i]
			}
		}
		return f
	}
	out := map[int64][3]float64{}
	for id := range cases {
		out[id] = total(id, 0)
	}
	return out
}

// isStructureColl reports a collection of the structure model, which
// carries no loads.
func isStructureColl(coll string) bool {
	for _, c := range editor.StructureCollections {
		if c == coll {
			return true
		}
	}
	return false
}

// maxAbs is the largest magnitude among v.
func maxAbs(v ...float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// checkCaseEquilibrium holds one case to statics: the applied resultant
// is what the records say, the reactions cancel it, forces and moments
// about the origin alike (ΣF = 0, ΣM = 0 for the whole structure), and no
// free equation is out of balance. Forces are measured against the
// largest force component and moments against the largest moment
// component, so that neither hides in the other's scale.
func checkCaseEquilibrium(t *testing.T, c static.CaseResult, want [3]float64) {
	t.Helper()
	s := c.Summary
	forceScale := maxAbs(s.Load[:3]...)
	momentScale := maxAbs(s.Load[3:]...)
	if forceScale == 0 {
		t.Fatalf("case %d carries no load", c.Case)
	}
	for i := range 3 {
		if d := math.Abs(s.Load[i] - want[i]); d > equilibriumTol*maxAbs(want[:]...) {
			t.Errorf("case %d: applied load component %d is %.12g N, the records give %.12g N", c.Case, i, s.Load[i], want[i])
		}
		if r := math.Abs(s.Load[i] + s.Reaction[i]); r > equilibriumTol*forceScale {
			t.Errorf("case %d: force %d load %.12g N, reaction %.12g N", c.Case, i, s.Load[i], s.Reaction[i])
		}
		if r := math.Abs(s.Load[3+i] + s.Reaction[3+i]); r > equilibriumTol*momentScale {
			t.Errorf("case %d: moment %d load %.12g N·m, reaction %.12g N·m", c.Case, i, s.Load[3+i], s.Reaction[3+i])
		}
	}
	if s.Residual > equilibriumTol*s.MaxLoad {
		t.Errorf("case %d: residual %g N against a largest load of %g N", c.Case, s.Residual, s.MaxLoad)
	}
}

// caseResult finds a case or combination by its stored id.
func caseResult(t *testing.T, res *static.Results, id int64) static.CaseResult {
	t.Helper()
	for _, c := range res.Cases {
		if c.Case == id {
			return c
		}
	}
	t.Fatalf("no results for case %d", id)
	return static.CaseResult{}
}

// handTotal is a resultant a person can check on paper: the reaction of
// Case along global axis Axis (0 X, 1 Y, 2 Z) must be −Load.
type handTotal struct {
	Case int64
	Axis int
	Load float64 // N
}

// Every bundled sample opens as the service opens it, converts without
// warnings, analyses, and every case and combination is in equilibrium
// with exactly the loads its records describe; a few totals are checked
// against hand arithmetic as well.
func TestSamplesAnalyseInEquilibrium(t *testing.T) {
	tests := []struct {
		name  string
		opts  static.Options
		cases int
		// dead is the self-weight case; superimposed is the rest of its
		// vertical load, N, from the sample's notes.
		dead         int64
		superimposed float64
		totals       []handTotal
		extra        func(t *testing.T, r sampleRun, sm sampleModel)
	}{
		{name: "Portal frame", cases: 4, dead: 1,
			totals: []handTotal{
				{Case: 2, Axis: 1, Load: -10e3 * 6}, // 10 kN/m over the 6 m beam
				{Case: 3, Axis: 0, Load: 5e3},       // 5 kN at the knee
			}},
		{name: "Multi-storey frame", cases: 10, dead: 1,
			// 5.8 kPa on 18 m × 30 m at each of 5 levels.
			superimposed: -5.8e3 * 18 * 30 * 5,
			totals: []handTotal{
				// 3.0 kPa on 4 floors and 0.25 kPa on the roof, 18 m × 30 m.
				{Case: 2, Axis: 1, Load: -(3.0e3*4 + 0.25e3) * 18 * 30},
				// 1.2 kPa on the 30 m wide face from 1.8 m (half the
				// first storey goes to the footings) to 16.8 m.
				{Case: 3, Axis: 0, Load: 1.2e3 * 30 * 15},
				// The same on the 18 m wide face.
				{Case: 4, Axis: 2, Load: 1.2e3 * 18 * 15},
			}},
		{name: "Braced tower", cases: 4, dead: 1, opts: static.Options{TensionCompressionOnly: true},
			// 2.8 kN/m from 2 m (half the first panel goes to the
			// footings) to 24 m.
			totals: []handTotal{{Case: 2, Axis: 0, Load: 2.8e3 * 22}},
			extra:  checkTowerBracing},
		{name: "Flat slab on columns", cases: 4, dead: 1,
			totals: []handTotal{
				// 1.5 kPa and 3 kPa on the 12 m × 12 m slab.
				{Case: 2, Axis: 1, Load: -1.5e3 * 12 * 12},
				{Case: 3, Axis: 1, Load: -3.0e3 * 12 * 12},
			},
			extra: checkSlab},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runSample(t, tc.name, tc.opts)
			if len(r.res.Cases) != tc.cases {
				t.Fatalf("%d cases and combinations analysed, want %d", len(r.res.Cases), tc.cases)
			}
			sm := readSampleModel(t, r.snap)
			want := appliedLoads(t, r.snap, sm)
			for _, c := range r.res.Cases {
				checkCaseEquilibrium(t, c, want[c.Case])
			}
			// ΣFy = 0: the footings carry the members' weight, ρ·A·L·g,
			// and the plates', ρ·t·area·g, from the records, and the
			// superimposed load.
			weight := 0.0
			for id, L := range sm.length {
				weight += sm.mass[id] * L * 9.80665
			}
			for _, pl := range sm.plates {
				weight += pl.mass * pl.area * 9.80665
			}
			wantDead := tc.superimposed - weight
			if got := -caseResult(t, r.res, tc.dead).Summary.Reaction[1]; math.Abs(got-wantDead) > equilibriumTol*math.Abs(wantDead) {
				t.Errorf("dead case: vertical load %.12g N by the reactions, want %.12g N (self-weight %.12g N)", got, wantDead, -weight)
			}
			for _, h := range tc.totals {
				got := -caseResult(t, r.res, h.Case).Summary.Reaction[h.Axis]
				if math.Abs(got-h.Load) > equilibriumTol*math.Abs(h.Load) {
					t.Errorf("case %d: reactions balance %.12g N along axis %d, want %.12g N", h.Case, got, h.Axis, h.Load)
				}
			}
			if tc.extra != nil {
				tc.extra(t, r, sm)
			}
		})
	}
}

// checkTowerBracing looks inside the braced tower under wind (case 2).
// In a face parallel to the wind the panel shear sways the upper level
// downwind, which stretches the diagonal rising downwind and shortens
// its partner: the first must carry tension and the second must be
// switched off. And cutting the tower at mid-height of any panel, the
// members cut must pass down exactly the wind above the cut (ΣFx = 0
// for the part above), nearly all of it through the braces.
func checkTowerBracing(t *testing.T, r sampleRun, sm sampleModel) {
	t.Helper()
	const windCase = 2
	wind := caseResult(t, r.res, windCase)
	results := map[int64]static.MemberResult{}
	for _, mr := range wind.Members {
		results[mr.Member] = mr
	}
	engine := map[int64]domain.Member{}
	for _, m := range r.in.Model.Members {
		engine[m.ID] = m
	}
	var shearFaceBraces int
	for id, m := range sm.members {
		a, b := sm.pos[m.NodeA], sm.pos[m.NodeB]
		if m.Type != "TensionOnly" || a[2] != b[2] {
			continue
		}
		shearFaceBraces++
		lower, upper := a, b
		if lower[1] > upper[1] {
			lower, upper = upper, lower
		}
		mr := results[id]
		if upper[0] > lower[0] {
			if mr.Inactive || len(mr.Stations) == 0 || !(mr.Stations[0].Forces[0] > 0) {
				t.Errorf("diagonal %d rises downwind but is not in tension (inactive %v)", id, mr.Inactive)
			}
		} else if !mr.Inactive {
			t.Errorf("diagonal %d rises upwind but stays active (N = %g N)", id, mr.Stations[0].Forces[0])
		}
	}
	if shearFaceBraces != 24 {
		t.Fatalf("%d diagonals in the faces parallel to the wind, want 2 per panel on 2 faces of 6 panels", shearFaceBraces)
	}

	nodeLoads := sampleRecords[model.NodeLoad](t, r.snap, model.CollNodeLoads)
	for level := 1; level <= 6; level++ {
		cut := 4*float64(level) - 2
		above, passed, braces := 0.0, 0.0, 0.0
		for _, x := range nodeLoads {
			if x.LoadCase == windCase && sm.pos[x.Node][1] > cut {
				above += x.Fx
			}
		}
		for id, m := range sm.members {
			a, b := sm.pos[m.NodeA], sm.pos[m.NodeB]
			if math.Min(a[1], b[1]) > cut || math.Max(a[1], b[1]) < cut || results[id].Inactive {
				continue
			}
			fx := upperOnLower(t, r.in.Model, engine[id], a, b, results[id])[0]
			passed += fx
			if m.Type == "TensionOnly" {
				braces += fx
			}
		}
		if math.Abs(passed-above) > equilibriumTol*above {
			t.Errorf("cut at y = %g m: the members pass down %.12g N, the wind above is %.12g N", cut, passed, above)
		}
		// Method of sections on the pin-jointed truss: legs hinged at the
		// panel points carry no shear, so the active diagonals take it
		// all. The continuous legs take a little by bending.
		if math.Abs(braces-above) > 0.05*above {
			t.Errorf("cut at y = %g m: the braces pass down %.1f%% of the wind above, want about 100%%", cut, 100*braces/above)
		}
	}
}

// upperOnLower is the force, global axes, that the part of a member above
// its mid-length station exerts on the part below. Stations report the
// action of the part beyond (toward end B) on the part before, in local
// axes; members running downward flip the sign.
func upperOnLower(t *testing.T, m *domain.Model, em domain.Member, a, b geom.Vec3, mr static.MemberResult) geom.Vec3 {
	t.Helper()
	if em.Direction.Kind == geom.DirectionNode {
		t.Fatalf("member %d: upperOnLower does not resolve direction nodes", em.ID)
	}
	for _, s := range m.Sections {
		if s.ID == em.Section && s.PrincipalAngle != 0 {
			t.Fatalf("member %d: upperOnLower does not rotate to principal axes", em.ID)
		}
	}
	rot, err := geom.LocalAxes(a, b, em.Direction, m.VerticalAxis)
	if err != nil {
		t.Fatal(err)
	}
	st := mr.Stations[len(mr.Stations)/2]
	f := rot.ApplyT(geom.Vec3{st.Forces[0], st.Forces[1], st.Forces[2]})
	if a[1] > b[1] {
		f = f.Scale(-1)
	}
	return f
}

// checkSlab looks inside the flat slab, whose plan (two equal bays each
// way, columns on the grid) is symmetric about both centre lines and the
// diagonals: the column reactions and the plate moments must show it, the
// slab must hog over the interior column (mx > 0 puts the top in tension)
// and sag at mid-bay, and Wood–Armer must cover the moments it designs for.
func checkSlab(t *testing.T, r sampleRun, _ sampleModel) {
	t.Helper()
	c := caseResult(t, r.res, 3) // imposed load
	const n = 24                 // plates each way
	mxOf := map[int64]float64{}
	for _, p := range c.Plates {
		mxOf[p.Plate] = p.Resultants.M[0]
	}
	plate := func(i, j int) int64 { return int64(1 + i + n*j) }
	// Mirror images of a plate: about x = 6 m, z = 6 m and the diagonal
	// (mx there is the my of the plate reflected, so compare mx with mx
	// across the two centre lines only).
	scale := 0.0
	for _, v := range mxOf {
		scale = math.Max(scale, math.Abs(v))
	}
	for j := range n {
		for i := range n {
			for _, m := range [][2]int{{n - 1 - i, j}, {i, n - 1 - j}} {
				if d := math.Abs(mxOf[plate(i, j)] - mxOf[plate(m[0], m[1])]); !(d <= 1e-7*scale) {
					t.Fatalf("plate %d mx %.9g, its mirror %d %.9g", plate(i, j), mxOf[plate(i, j)], plate(m[0], m[1]), mxOf[plate(m[0], m[1])])
				}
			}
		}
	}
	// The four plates at the interior column (x = z = 6 m) hog; the plate
	// at the middle of a bay, between the columns along X, sags.
	for _, id := range []int64{plate(11, 11), plate(12, 11), plate(11, 12), plate(12, 12)} {
		if !(mxOf[id] > 0) {
			t.Errorf("plate %d at the interior column: mx %g N·m/m, want hogging (> 0)", id, mxOf[id])
		}
	}
	if mid := mxOf[plate(5, 5)]; !(mid < 0) {
		t.Errorf("plate %d at mid-bay: mx %g N·m/m, want sagging (< 0)", plate(5, 5), mid)
	}
	for _, p := range c.Plates {
		if !(p.Design[0] >= p.Resultants.M[0]-1e-9*scale) || !(p.Design[2] <= p.Resultants.M[0]+1e-9*scale) {
			t.Fatalf("plate %d: Wood–Armer x top %g, bottom %g do not bracket mx %g", p.Plate, p.Design[0], p.Design[2], p.Resultants.M[0])
		}
	}
	// Column axial forces (member end A at the footing, local x up): the
	// four corner columns alike, the four edge columns alike, and all
	// nine carry the 3 kPa on 144 m².
	axial := map[int64]float64{}
	total := 0.0
	for _, m := range c.Members {
		axial[m.Member] = m.EndA[0]
		total += m.EndA[0]
	}
	for _, group := range [][]int64{{1, 3, 7, 9}, {2, 4, 6, 8}} {
		for _, id := range group[1:] {
			if d := math.Abs(axial[id] - axial[group[0]]); !(d <= 1e-7*math.Abs(total)) {
				t.Errorf("column %d carries %.9g N, column %d %.9g N: the plan is symmetric", id, axial[id], group[0], axial[group[0]])
			}
		}
	}
	if want := 3.0e3 * 12 * 12; !(math.Abs(total-want) <= equilibriumTol*want) {
		t.Errorf("columns carry %.12g N, want %.12g N", total, want)
	}
	if !(axial[5] > axial[2] && axial[2] > axial[1]) {
		t.Errorf("column loads corner %g, edge %g, interior %g N: the interior column takes the most", axial[1], axial[2], axial[5])
	}
}
