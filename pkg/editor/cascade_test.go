package editor_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
	"github.com/redis/go-redis/v9"
)

// faultyModel injects a failure into the middle of every batch it
// applies: a requirement on a row that does not exist, placed after half
// of the batch's changes.
type faultyModel struct{ store.Model }

func (f faultyModel) Apply(ctx context.Context, ws string, b *store.Batch) (int64, error) {
	mid := len(b.Ops) / 2
	ops := append(append(append([]store.Op{}, b.Ops[:mid]...), store.Op{Kind: store.OpRequire, Coll: "nodes", Key: store.Key(999999)}), b.Ops[mid:]...)
	return f.Model.Apply(ctx, ws, &store.Batch{Ops: ops, ExpectRev: b.ExpectRev})
}

func snapshotJSON(t *testing.T, jobs store.Jobs, ctx context.Context) string {
	t.Helper()
	snap, _, err := jobs.Snapshot(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(snap.Collections)
	return string(b)
}

// A cascade that fails halfway leaves the model exactly as it was.
func TestCascadeFailureLeavesModelUnchanged(t *testing.T) {
	ctx := context.Background()
	rdb, jobs := openWorkspace(t)
	good := editor.NewStructure(editor.New(redisstore.NewModel(rdb), jobs))
	mustCreate[model.Material](t)(good.Materials.Create(ctx, "w", []editor.Item[model.Material]{{Rec: model.Material{Name: "s", YoungsModulus: 2e11, PoissonsRatio: 0.3}}}, false))
	mustCreate[model.Section](t)(good.Sections.Create(ctx, "w", []editor.Item[model.Section]{{Rec: model.Section{Name: "b", A: 1, J: 1, Iy: 1, Iz: 1, Ay: 1, Az: 1,
		AreaFactor: 1, TorsionFactor: 1, IyFactor: 1, IzFactor: 1}}}, false))
	var nodes []editor.Item[model.Node]
	for i := 0; i < 4; i++ {
		nodes = append(nodes, editor.Item[model.Node]{Rec: model.Node{X: float64(i)}})
	}
	mustCreate[model.Node](t)(good.Nodes.Create(ctx, "w", nodes, false))
	var members []editor.Item[model.Member]
	for i := int64(1); i < 4; i++ {
		members = append(members, editor.Item[model.Member]{Rec: model.Member{NodeA: i, NodeB: i + 1, Section: 1, Material: 1,
			Type: "Normal", Direction: model.Direction{Source: "Angle"}, Releases: model.Releases{FixityCodeAtA: "FFFFFF", FixityCodeAtB: "FFFFFF"}}})
	}
	mustCreate[model.Member](t)(good.Members.Create(ctx, "w", members, false))
	mustCreate[model.NodeRestraint](t)(good.Restraints.Create(ctx, "w", []editor.Item[model.NodeRestraint]{{Rec: model.NodeRestraint{Node: 2, RestraintCode: "FFFFFF", ActiveDirection: "BBBBBB"}, HasKey: true}}, false))
	mustCreate[model.MemberOffset](t)(good.Offsets.Create(ctx, "w", []editor.Item[model.MemberOffset]{{Rec: model.MemberOffset{Member: 2, Axes: "Global"}, HasKey: true}}, false))

	before := snapshotJSON(t, jobs, ctx)
	_, slot, _ := jobs.Snapshot(ctx, "w")
	faulty := editor.NewStructure(editor.New(faultyModel{redisstore.NewModel(rdb)}, jobs))
	if _, _, err := faulty.DeleteElements(ctx, "w", model.CollNodes, []int64{2}, false); err == nil {
		t.Fatal("the injected failure did not surface")
	}
	if after := snapshotJSON(t, jobs, ctx); after != before {
		t.Errorf("a failed cascade changed the model:\nbefore %s\nafter  %s", before, after)
	}
	if _, sl, _ := jobs.Snapshot(ctx, "w"); sl.Rev != slot.Rev {
		t.Errorf("a failed cascade bumped the revision")
	}
	// The same delete without the fault removes node 2, members 1 and 2,
	// the restraint and the offset, and node 1, left disconnected.
	res, _, err := good.DeleteElements(ctx, "w", model.CollNodes, []int64{2}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Nodes) != 2 || len(res.Members) != 2 || len(res.NodeRestraints) != 1 || len(res.MemberOffsets) != 1 || res.TotalRemoved != 6 {
		t.Errorf("cascade %+v", res)
	}
}

// mustCreate fails the test when a create fails.
// openWorkspace starts a redis-server with a new job open in workspace
// "w".
func openWorkspace(t *testing.T) (redis.UniversalClient, store.Jobs) {
	t.Helper()
	rdb := redistest.Start(t).Client(t)
	jobs := redisstore.NewJobs(rdb, editor.StructureCollections)
	now := time.Now()
	if _, err := jobs.Open(context.Background(), "w", store.Snapshot{Job: model.NewJob()}, model.State{OpenedAt: &now}); err != nil {
		t.Fatal(err)
	}
	return rdb, jobs
}

func mustCreate[T any](t *testing.T) func(editor.Created[T], error) {
	return func(_ editor.Created[T], err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
}
