package adapter_test

import (
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/model"
)

// The conversion never gives a value it does not know a default meaning:
// a stored member type, direction or load axes outside its map fails the
// build, naming the row and the value.
func TestBuildRefusesUnknownValues(t *testing.T) {
	member := func(edit func(m *model.Member)) model.Member {
		m := model.Member{ID: 1, NodeA: 1, NodeB: 2, Section: 1, Material: 1, Type: "Normal",
			Direction: model.Direction{Source: "Angle", DirAxis: "NotApplicable"},
			Releases:  model.Releases{FixityCodeAtA: "FFFFFF", FixityCodeAtB: "FFFFFF"}}
		edit(&m)
		return m
	}
	tests := []struct {
		name   string
		member model.Member
		load   *model.MemberDistributedLoad
		want   []string // in the error; none: it builds
	}{
		{"known values", member(func(*model.Member) {}), nil, nil},
		{"unknown member type", member(func(m *model.Member) { m.Type = "Bogus" }), nil, []string{"member 1", "type", `"Bogus"`}},
		{"empty member type", member(func(m *model.Member) { m.Type = "" }), nil, []string{"member 1", "type", `""`}},
		{"unknown direction source", member(func(m *model.Member) { m.Direction.Source = "Sideways" }), nil, []string{"member 1", "direction.source"}},
		{"unknown load axes", member(func(*model.Member) {}),
			&model.MemberDistributedLoad{LoadCase: 1, Member: 1, SubLoad: 1, Axes: "Diagonal", PositionUnits: "Percent", FinishPosition: 100, FyStart: -1, FyFinish: -1},
			[]string{"member distributed load", "(loadCase 1, member 1)", "axes", `"Diagonal"`}},
		{"unknown position units", member(func(*model.Member) {}),
			&model.MemberDistributedLoad{LoadCase: 1, Member: 1, SubLoad: 1, Axes: "Local", PositionUnits: "Furlongs", FyStart: -1, FyFinish: -1},
			[]string{"positionUnits", `"Furlongs"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, ctx := stored(t)
			s, l := src.Structure, src.Loads
			create(t, ctx, s.Materials, model.Material{ID: 1, Name: "steel", YoungsModulus: 2e11, PoissonsRatio: 0.3})
			create(t, ctx, s.Sections, model.Section{ID: 1, Name: "s", A: 1e-2, J: 1e-4, Iy: 1e-4, Iz: 1e-4, Ay: 1e-3, Az: 1e-3,
				AreaFactor: 1, TorsionFactor: 1, IyFactor: 1, IzFactor: 1})
			create(t, ctx, s.Nodes, model.Node{ID: 1}, model.Node{ID: 2, X: 4})
			create(t, ctx, s.Members, tt.member)
			if tt.load != nil {
				create(t, ctx, l.Cases, model.LoadCase{ID: 1, Title: "dead"})
				create(t, ctx, l.Distributed, *tt.load)
			}
			_, err := adapter.Build(ctx, src, "w", model.DefaultSettings())
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatal("built")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err.Error(), w)
				}
			}
		})
	}
}
