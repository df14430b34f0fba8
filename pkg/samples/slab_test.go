package samples

import (
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// The flat slab's dimensions: two 6 m bays each way, a 250 mm slab 3.5 m
// above the footings, meshed at 0.5 m.
const (
	slabBay       = 6.0
	slabBays      = 2
	slabMesh      = 12 // plates per bay, each way
	slabThickness = 0.25
	slabHeight    = 3.5
	// slabSDL and slabLive are the superimposed dead and the imposed
	// floor loads, Pa (AS/NZS 1170.1 Table 3.1, offices: 3 kPa).
	slabSDL  = 1.5e3
	slabLive = 3.0e3
)

// flatSlab is a reinforced concrete flat slab on nine columns (Y up):
// Mindlin plates for the slab, fixed-base columns rigidly joined to it.
func flatSlab() store.Snapshot {
	job := model.NewJob()
	job.Headings = model.Headings{ProjectHeading: "Gusset samples", Heading: "Flat slab on columns",
		Notes: "Flat slab, 12 m × 12 m in two 6 m bays each way, 250 mm thick N32 concrete (AS 3600), on nine 400 × 400 mm " +
			"columns 3.5 m high with fixed bases, Y up. The slab is 576 Mindlin plates of 0.5 m, local x along global X and " +
			"local z up, so mx is the moment spanning along X and a positive moment puts the top in tension (hogging over " +
			"the columns). G: self-weight. SDL: 1.5 kPa superimposed dead load, as a pressure along −Y per plan area " +
			"(GlobalProjected). Q: 3 kPa imposed office load (AS/NZS 1170.1), as a local pressure (toward −z). " +
			"Combination 1.2G + 1.5Q to AS/NZS 1170.0 Cl. 4.2.2 (b), with SDL as permanent load. Plate results: " +
			"plate-element-forces (with Wood–Armer design moments), plate-element-stresses, plate-nodal-forces."}

	n := slabBays * slabMesh // plates each way
	h := slabBay / slabMesh
	slabNode := func(i, j int) int64 { return int64(1 + i + (n+1)*j) } // i along X, j along Z
	var nodes []model.Node
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			nodes = append(nodes, model.Node{ID: slabNode(i, j), X: h * float64(i), Y: slabHeight, Z: h * float64(j)})
		}
	}
	var members []model.Member
	var restraints []model.NodeRestraint
	for cj := 0; cj <= slabBays; cj++ {
		for ci := 0; ci <= slabBays; ci++ {
			base := int64(1001 + ci + (slabBays+1)*cj)
			nodes = append(nodes, model.Node{ID: base, X: slabBay * float64(ci), Z: slabBay * float64(cj)})
			restraints = append(restraints, support(base, "FFFFFF"))
			members = append(members, model.Member{ID: int64(len(members) + 1), NodeA: base,
				NodeB: slabNode(slabMesh*ci, slabMesh*cj), Type: "Normal", Section: 1, Material: 1, Direction: byAngle,
				Releases: rigidEnds})
		}
	}
	// Corners A, B, C, D anticlockwise seen from +Y: A→B along +X makes
	// local x global X and the normal (local z) +Y.
	var plates []model.Plate
	var sdl, live []model.PlatePressureLoad
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			id := int64(1 + i + n*j)
			plates = append(plates, model.Plate{ID: id, NodeA: slabNode(i, j+1), NodeB: slabNode(i+1, j+1),
				NodeC: slabNode(i+1, j), NodeD: slabNode(i, j), Material: 1, ActualThickness: slabThickness,
				MembraneThickness: slabThickness, BendingThickness: slabThickness, ShearThickness: slabThickness,
				Direction: byAngle, Theory: "Mindlin"})
			sdl = append(sdl, model.PlatePressureLoad{LoadCase: 2, Plate: id, Axes: "GlobalProjected", Py: -slabSDL})
			live = append(live, model.PlatePressureLoad{LoadCase: 3, Plate: id, Axes: "Local", Pz: -slabLive})
		}
	}
	pressureKey := func(x model.PlatePressureLoad) []int64 { return []int64{x.LoadCase, x.Plate} }
	return store.Snapshot{Job: job, Collections: map[string][]store.Row{
		model.CollNodes:          rows(func(n model.Node) []int64 { return byID(n.ID) }, nodes...),
		model.CollSections:       rows(func(x model.Section) []int64 { return byID(x.ID) }, librarySection(1, "Parametric", "RECT 400x400")),
		model.CollMaterials:      rows(func(x model.Material) []int64 { return byID(x.ID) }, libraryMaterial(1, "Aust", "N32")),
		model.CollMembers:        rows(func(m model.Member) []int64 { return byID(m.ID) }, members...),
		model.CollPlates:         rows(func(p model.Plate) []int64 { return byID(p.ID) }, plates...),
		model.CollNodeRestraints: rows(func(r model.NodeRestraint) []int64 { return byID(r.Node) }, restraints...),
		model.CollLoadCases: rows(func(c model.LoadCase) []int64 { return byID(c.ID) },
			model.LoadCase{ID: 1, Title: "Dead (self-weight)"}, model.LoadCase{ID: 2, Title: "Superimposed dead"},
			model.LoadCase{ID: 3, Title: "Imposed (office)"},
			combination(4, "1.2G + 1.5Q", "", model.CombinationItem{LoadCase: 1, MultiplyingFactor: 1.2},
				model.CombinationItem{LoadCase: 2, MultiplyingFactor: 1.2}, model.CombinationItem{LoadCase: 3, MultiplyingFactor: 1.5})),
		model.CollSelfWeightLoads: rows(func(x model.SelfWeightLoad) []int64 { return byID(x.LoadCase) },
			model.SelfWeightLoad{LoadCase: 1, AccelerationY: -gravity}),
		model.CollPlateLoads: rows(pressureKey, append(sdl, live...)...),
	}}
}
