package adapter_test

import (
	"testing"

	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/model"
)

// The fields only the non-linear analysis reads reach the engine model as
// they are stored (SI on both sides): cable length, gap openings, fuse
// kinds and limits (fuses and pulleys stay Frame members), and the
// plastic limits and friction of restraints.
func TestBuildCarriesNonLinearFields(t *testing.T) {
	src, ctx := stored(t)
	s := src.Structure
	create(t, ctx, s.Materials, model.Material{ID: 1, Name: "steel", YoungsModulus: 2e11, PoissonsRatio: 0.3})
	create(t, ctx, s.Sections, model.Section{ID: 1, Name: "s", A: 1e-2, J: 1e-4, Iy: 1e-4, Iz: 1e-4, Ay: 1e-3, Az: 1e-3,
		AreaFactor: 1, TorsionFactor: 1, IyFactor: 1, IzFactor: 1})
	create(t, ctx, s.Nodes, model.Node{ID: 1}, model.Node{ID: 2, X: 4})
	member := func(id int64, typ string, edit func(m *model.Member)) model.Member {
		m := model.Member{ID: id, NodeA: 1, NodeB: 2, Section: 1, Material: 1, Type: typ,
			Direction: model.Direction{Source: "Angle", DirAxis: "NotApplicable"},
			Releases:  model.Releases{FixityCodeAtA: "FFFFFF", FixityCodeAtB: "FFFFFF"}}
		edit(&m)
		return m
	}
	create(t, ctx, s.Members,
		member(1, "Cable", func(m *model.Member) { m.CableLength = 3.9 }),
		member(2, "Gap", func(m *model.Member) { m.GapTensionLimit, m.GapCompressionLimit = 1e-3, 2e-3 }),
		member(3, "PlasticFuse", func(m *model.Member) { m.FuseTensionLimit, m.FuseCompressionLimit = 1e5, 2e5 }),
		member(4, "BrittleFuse", func(m *model.Member) { m.FuseTensionLimit = 3e5 }),
		member(5, "Pulley", func(*model.Member) {}))
	create(t, ctx, s.Restraints, model.NodeRestraint{Node: 1, RestraintCode: "NFPFFF", ActiveDirection: "BBBBBB",
		XFrictionNormalAxis: "YAxis", XFrictionNormalDirection: "PositiveOnly", XFrictionFactor: 0.3,
		YFrictionNormalAxis: "None", YFrictionNormalDirection: "Either",
		ZFrictionNormalAxis: "None", ZFrictionNormalDirection: "Either", TzPlasticLimit: 5e4})
	in, err := adapter.Build(ctx, src, "w", model.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	ms := in.Model.Members
	for i, want := range []domain.Member{
		{Type: domain.Cable, CableLength: 3.9},
		{Type: domain.Gap, GapTension: 1e-3, GapCompression: 2e-3},
		{Type: domain.Frame, Fuse: domain.PlasticFuse, FuseTension: 1e5, FuseCompression: 2e5},
		{Type: domain.Frame, Fuse: domain.BrittleFuse, FuseTension: 3e5},
		{Type: domain.Frame, Pulley: true},
	} {
		got := ms[i]
		if got.Type != want.Type || got.CableLength != want.CableLength || got.GapTension != want.GapTension ||
			got.GapCompression != want.GapCompression || got.Fuse != want.Fuse || got.FuseTension != want.FuseTension ||
			got.FuseCompression != want.FuseCompression || got.Pulley != want.Pulley {
			t.Errorf("member %d: %+v, want %+v", got.ID, got, want)
		}
	}
	sp := in.Model.Supports[0]
	if sp.Friction[0] != (domain.Friction{Normal: geom.YAxis, Sign: 1, Factor: 0.3}) || sp.Friction[1] != (domain.Friction{}) ||
		sp.PlasticLimit != [6]float64{2: 5e4} {
		t.Errorf("support %+v", sp)
	}
}
