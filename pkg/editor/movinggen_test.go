package editor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// genFixture is an open job in workspace "w" on a real redis-server with
// two girders along X (members 1 and 2 at z = 0 and z = 3, Y up, 10 m),
// both elements to load, a one-wheel vehicle, a travel path along z = 1
// and scenario 1 driving the vehicle along it at 5 m/s with one
// combination, generated once.
type genFixture struct {
	m    *MovingLoads
	mod  store.Model
	jobs store.Jobs
}

func newGenFixture(t *testing.T) *genFixture {
	t.Helper()
	ctx := context.Background()
	rdb := redistest.Start(t).Client(t)
	jobs := redisstore.NewJobs(rdb, Collections())
	now := time.Now()
	if _, err := jobs.Open(ctx, "w", store.Snapshot{Job: model.NewJob()}, model.State{OpenedAt: &now}); err != nil {
		t.Fatal(err)
	}
	mod := redisstore.NewModel(rdb)
	ed := New(mod, jobs)
	st := NewStructure(ed)
	m := NewLoads(ed, st).Moving
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	_, err := st.Materials.Create(ctx, "w", []Item[model.Material]{{Rec: model.Material{Name: "s", YoungsModulus: 2e11, PoissonsRatio: 0.3}}}, false)
	must("material", err)
	_, err = st.Sections.Create(ctx, "w", []Item[model.Section]{{Rec: model.Section{Name: "b", A: 1, J: 1, Iy: 1, Iz: 1, Ay: 1, Az: 1,
		AreaFactor: 1, TorsionFactor: 1, IyFactor: 1, IzFactor: 1}}}, false)
	must("section", err)
	_, err = st.Nodes.Create(ctx, "w", []Item[model.Node]{{Rec: model.Node{X: 0}}, {Rec: model.Node{X: 10}},
		{Rec: model.Node{X: 0, Z: 3}}, {Rec: model.Node{X: 10, Z: 3}}}, false)
	must("nodes", err)
	member := func(a, b int64) Item[model.Member] {
		return Item[model.Member]{Rec: model.Member{NodeA: a, NodeB: b, Section: 1, Material: 1,
			Type: "Normal", Direction: model.Direction{Source: "Angle"}, Releases: model.Releases{FixityCodeAtA: "FFFFFF", FixityCodeAtB: "FFFFFF"}}}
	}
	_, err = st.Members.Create(ctx, "w", []Item[model.Member]{member(1, 2), member(3, 4)}, false)
	must("members", err)
	_, err = PatchSingleton(ctx, m.Elements, "w", func() model.MovingLoadElements { return model.MovingLoadElements{} },
		func(r *model.MovingLoadElements) error { r.Members = "1-2"; return nil })
	must("elements to load", err)
	_, err = m.Vehicles.Create(ctx, "w", []Item[model.Vehicle]{{Rec: model.Vehicle{Name: "axle", Source: model.SourceUser,
		Loads: []model.VehicleLoad{{Fz: -1e5}}}}}, false)
	must("vehicle", err)
	_, err = m.TravelPaths.Create(ctx, "w", []Item[model.TravelPath]{{Rec: model.TravelPath{Name: "lane",
		Stations: []model.TravelStation{{Z: 1}, {X: 10, Z: 1}}}}}, false)
	must("travel path", err)
	load := model.DefaultScenarioLoad()
	load.VehicleID, load.TravelPathID, load.Speed = 1, 1, 5
	_, err = m.Scenarios.Create(ctx, "w", []Item[model.Scenario]{{Rec: model.Scenario{Name: "A", Include: true, TimeInterval: 1,
		Loads: []model.ScenarioLoad{load}, Combinations: []model.ScenarioCombination{{ScenarioFactor: 1.5, LoadCaseFactor: 1}}}}}, false)
	must("scenario", err)
	out, err := m.Generate(ctx, "w", 0, false)
	must("first generation", err)
	if len(out.LoadCases) != 6 { // x = 0, 5, 10 m and their combinations
		t.Fatalf("first generation %+v", out)
	}
	return &genFixture{m: m, mod: mod, jobs: jobs}
}

// dump reads every row of every model collection.
func (f *genFixture) dump(t *testing.T) map[string]store.Page {
	t.Helper()
	out := map[string]store.Page{}
	for _, c := range Collections() {
		p, err := f.mod.Page(context.Background(), "w", c, nil, 0, -1)
		if err != nil {
			t.Fatal(err)
		}
		out[c] = p
	}
	return out
}

// diff names the collections whose rows differ.
func diffDumps(a, b map[string]store.Page) []string {
	var out []string
	for _, c := range Collections() {
		pa, pb := a[c], b[c]
		same := len(pa.Keys) == len(pb.Keys)
		for i := 0; same && i < len(pa.Keys); i++ {
			same = pa.Keys[i] == pb.Keys[i] && bytes.Equal(pa.Values[i], pb.Values[i])
		}
		if !same {
			out = append(out, fmt.Sprintf("%s (%d rows → %d)", c, len(pa.Keys), len(pb.Keys)))
		}
	}
	return out
}

func (f *genFixture) rev(t *testing.T) int64 {
	t.Helper()
	s, err := f.jobs.Slot(context.Background(), "w")
	if err != nil {
		t.Fatal(err)
	}
	return s.Rev
}

// A generation is one batch: when its last op fails, none of the deletes
// and writes before it land, in any collection, and the revision stays.
// Without the fault the same generation goes through.
func TestMovingLoadGenerateFailureLeavesModelUnchanged(t *testing.T) {
	ctx := context.Background()
	f := newGenFixture(t)
	// New data, so that a generation would delete and write rows of every
	// kind it touches: faster (two steps instead of three) and another
	// combination factor.
	_, err := f.m.Scenarios.Update(ctx, "w", []Change[model.Scenario]{{Key: []int64{1}, Apply: func(s *model.Scenario) error {
		s.Loads[0].Speed = 10
		s.Combinations[0].ScenarioFactor = 2
		return nil
	}}}, false)
	if err != nil {
		t.Fatal(err)
	}
	before, rev := f.dump(t), f.rev(t)
	if len(before[model.CollMemberConcentratedLoads].Keys) != 6 || len(before[model.CollLoadCaseGroups].Keys) != 2 {
		t.Fatalf("fixture: %d loads, %d groups", len(before[model.CollMemberConcentratedLoads].Keys), len(before[model.CollLoadCaseGroups].Keys))
	}
	missing := store.Key(999999)
	calls, planned := 0, 0
	f.m.fault = func(b *store.Batch) {
		calls++
		planned = len(b.Ops)
		b.Require(model.CollNodes, missing)
	}
	_, err = f.m.Generate(ctx, "w", 0, false)
	var ce *store.ConflictError
	if !errors.As(err, &ce) || ce.Op.Coll != model.CollNodes || ce.Op.Key != missing {
		t.Fatalf("generation with the injected failure: %v, want the conflict on nodes %s", err, missing)
	}
	if calls != 1 || planned < 10 {
		t.Fatalf("fault hook called %d times on a batch of %d ops", calls, planned)
	}
	if d := diffDumps(before, f.dump(t)); len(d) > 0 {
		t.Errorf("a failed generation changed %v", d)
	}
	if r := f.rev(t); r != rev {
		t.Errorf("a failed generation moved the revision from %d to %d", rev, r)
	}

	// The mark was released: the next generation runs, and writes.
	f.m.fault = nil
	out, err := f.m.Generate(ctx, "w", 0, false)
	if err != nil {
		t.Fatal(err)
	}
	after := f.dump(t)
	if len(out.LoadCases) != 4 || len(after[model.CollMemberConcentratedLoads].Keys) != 4 {
		t.Errorf("generation after the fault %+v, %d loads; want 2 cases, 2 combinations, 4 loads", out, len(after[model.CollMemberConcentratedLoads].Keys))
	}
	if d := diffDumps(before, after); len(d) == 0 {
		t.Error("the generation without the fault wrote nothing")
	}
	if r := f.rev(t); r != rev+1 {
		t.Errorf("revision %d after one generation from %d", r, rev)
	}
}
