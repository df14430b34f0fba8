package adapter_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/shell"
	"github.com/gusset/gusset/pkg/model"
)

// Stored plates, their pressures and thermal loads reach the engine
// field by field: corners (a triangle has three), theory, the four
// thicknesses, offset and each kind of direction; a yThermalGradient,
// which a plate has no use for, is left out with one warning for all.
func TestStoredPlatesConvert(t *testing.T) {
	src, ctx := stored(t)
	s, l := src.Structure, src.Loads
	create(t, ctx, s.Materials, model.Material{ID: 1, Name: "concrete", YoungsModulus: 30e9, PoissonsRatio: 0.2})
	create(t, ctx, s.Nodes, model.Node{ID: 1}, model.Node{ID: 2, X: 1}, model.Node{ID: 3, X: 1, Y: 1}, model.Node{ID: 4, Y: 1})
	create(t, ctx, s.Plates,
		model.Plate{ID: 1, NodeA: 1, NodeB: 2, NodeC: 3, NodeD: 4, Material: 1, ActualThickness: 0.2, MembraneThickness: 0.1,
			BendingThickness: 0.3, ShearThickness: 0.25, Theory: "Mindlin", Offset: 0.05,
			Direction: model.Direction{Source: "Angle", DirAngle: 30}},
		model.Plate{ID: 2, NodeA: 1, NodeB: 2, NodeC: 3, Material: 1, ActualThickness: 0.2, Theory: "Kirchoff",
			Direction: model.Direction{Source: "Node", DirNode: 4}},
		model.Plate{ID: 3, NodeA: 1, NodeB: 3, NodeC: 4, Material: 1, ActualThickness: 0.2, Theory: "Kirchoff",
			Direction: model.Direction{Source: "Axis", DirAxis: "NegativeYAxis"}})
	create(t, ctx, l.Cases, model.LoadCase{ID: 1, Title: "p"}, model.LoadCase{ID: 2, Title: "heat"})
	create(t, ctx, l.Pressures, model.PlatePressureLoad{LoadCase: 1, Plate: 1, Axes: "GlobalProjected", Pz: -5e3},
		model.PlatePressureLoad{LoadCase: 1, Plate: 2, Axes: "Local", Px: 1, Py: 2, Pz: 3})
	create(t, ctx, l.Thermal, model.ThermalLoad{LoadCase: 2, ElementType: "Plate", ElementID: 1, ThermalLoad: 20, ZThermalGradient: 50},
		model.ThermalLoad{LoadCase: 2, ElementType: "Plate", ElementID: 2, ThermalLoad: 5, YThermalGradient: 7},
		model.ThermalLoad{LoadCase: 2, ElementType: "Plate", ElementID: 3, YThermalGradient: 1})

	in, err := adapter.Build(ctx, src, "w", model.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.Plate{
		{ID: 1, Nodes: []int64{1, 2, 3, 4}, Material: 1, Theory: shell.Mindlin, Thickness: 0.2, Membrane: 0.1,
			Bending: 0.3, Shear: 0.25, Offset: 0.05, DirectionAngle: 30},
		{ID: 2, Nodes: []int64{1, 2, 3}, Material: 1, Theory: shell.Kirchhoff, Thickness: 0.2, Membrane: 0.2,
			Bending: 0.2, Shear: 0.2, DirectionNode: 4},
		{ID: 3, Nodes: []int64{1, 3, 4}, Material: 1, Theory: shell.Kirchhoff, Thickness: 0.2, Membrane: 0.2,
			Bending: 0.2, Shear: 0.2, DirectionAxis: geom.NegativeYAxis},
	}
	if len(in.Model.Plates) != len(want) {
		t.Fatalf("%d plates, want %d", len(in.Model.Plates), len(want))
	}
	for i, p := range in.Model.Plates {
		w := want[i]
		if p.ID != w.ID || !slices.Equal(p.Nodes, w.Nodes) || p.Material != w.Material ||
			p.Theory != w.Theory || p.Thickness != w.Thickness || p.Membrane != w.Membrane || p.Bending != w.Bending ||
			p.Shear != w.Shear || p.Offset != w.Offset || p.DirectionAngle != w.DirectionAngle ||
			p.DirectionNode != w.DirectionNode || p.DirectionAxis != w.DirectionAxis {
			t.Errorf("plate %d:\n got %+v\nwant %+v", i+1, p, w)
		}
	}
	cases := map[int64]domain.LoadCase{}
	for _, c := range in.Model.LoadCases {
		cases[c.ID] = c
	}
	p := cases[1].Pressures
	if len(p) != 2 || p[0] != (domain.PlatePressure{Plate: 1, Axes: domain.GlobalProjected, P: [3]float64{0, 0, -5e3}}) ||
		p[1] != (domain.PlatePressure{Plate: 2, Axes: domain.Local, P: [3]float64{1, 2, 3}}) {
		t.Errorf("pressures %+v", p)
	}
	th := cases[2].PlateThermal
	if len(th) != 3 || th[0] != (domain.PlateThermalLoad{Plate: 1, DT: 20, DTz: 50}) || th[1] != (domain.PlateThermalLoad{Plate: 2, DT: 5}) {
		t.Errorf("plate thermal loads %+v", th)
	}
	if len(in.Warnings) != 1 || !strings.Contains(in.Warnings[0], "2 thermal load(s) on plates have a yThermalGradient") ||
		!strings.Contains(in.Warnings[0], "plate 2 in case 2") {
		t.Errorf("warnings %q, want one naming the two yThermalGradients and the first", in.Warnings)
	}
}
