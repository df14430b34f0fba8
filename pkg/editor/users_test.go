package editor_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
)

// racingModel runs race once, just before it applies its first batch: a
// change by another request that lands between the planning of a change
// and its commit.
type racingModel struct {
	store.Model
	once *sync.Once
	race func()
}

func (r racingModel) Apply(ctx context.Context, ws string, b *store.Batch) (int64, error) {
	r.once.Do(r.race)
	return r.Model.Apply(ctx, ws, b)
}

// A section that gains a member between the check that it is unused and
// the delete stays: the delete is planned again, finds the member and
// answers 409, instead of leaving the member without a section.
func TestDeleteOfRowGainingUserMeanwhile(t *testing.T) {
	ctx := context.Background()
	rdb, jobs := openWorkspace(t)
	plain := redisstore.NewModel(rdb)
	other := editor.NewStructure(editor.New(plain, jobs))
	mustCreate[model.Material](t)(other.Materials.Create(ctx, "w", []editor.Item[model.Material]{{Rec: model.Material{Name: "s", YoungsModulus: 2e11, PoissonsRatio: 0.3}}}, false))
	var sections []editor.Item[model.Section]
	for _, name := range []string{"used", "free"} {
		sections = append(sections, editor.Item[model.Section]{Rec: model.Section{Name: name, A: 1, J: 1, Iy: 1, Iz: 1, Ay: 1, Az: 1,
			AreaFactor: 1, TorsionFactor: 1, IyFactor: 1, IzFactor: 1}})
	}
	mustCreate[model.Section](t)(other.Sections.Create(ctx, "w", sections, false))
	mustCreate[model.Node](t)(other.Nodes.Create(ctx, "w", []editor.Item[model.Node]{{Rec: model.Node{}}, {Rec: model.Node{X: 1}}}, false))
	member := func(section int64) []editor.Item[model.Member] {
		return []editor.Item[model.Member]{{Rec: model.Member{NodeA: 1, NodeB: 2, Section: section, Material: 1, Type: "Normal",
			Direction: model.Direction{Source: "Angle"}, Releases: model.Releases{FixityCodeAtA: "FFFFFF", FixityCodeAtB: "FFFFFF"}}}}
	}
	mustCreate[model.Member](t)(other.Members.Create(ctx, "w", member(1), false))

	racing := editor.NewStructure(editor.New(racingModel{Model: plain, once: &sync.Once{}, race: func() {
		mustCreate[model.Member](t)(other.Members.Create(ctx, "w", member(2), false))
	}}, jobs))
	_, err := racing.Sections.DeleteRows(ctx, "w", [][]int64{{2}}, false)
	if model.KindOf(err) != model.KindConflict || !strings.Contains(err.Error(), "section 2 is used by members 2") {
		t.Fatalf("delete of a section that gained a member: %v", err)
	}
	if _, err := other.Sections.Get(ctx, "w", 2); err != nil {
		t.Errorf("section 2 was deleted under its member: %v", err)
	}

	// With continueOnError the rows in use are reported and the rest go.
	res, err := other.Sections.DeleteRows(ctx, "w", [][]int64{{1}, {2}}, true)
	if err != nil || len(res.Succeeded) != 0 || len(res.Errors) != 2 {
		t.Fatalf("both in use: %+v, %v", res, err)
	}
	mustCreate[model.Section](t)(other.Sections.Create(ctx, "w", sections[1:], false))
	res, err = other.Sections.DeleteRows(ctx, "w", [][]int64{{1}, {3}}, true)
	if err != nil || len(res.Succeeded) != 1 || res.Succeeded[0].ID != 3 || len(res.Errors) != 1 || res.Errors[0].Index != 0 {
		t.Fatalf("one in use, one free: %+v, %v", res, err)
	}
}
