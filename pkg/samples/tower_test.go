package samples

import (
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// towerDrag is the assumed ultimate wind drag on the braced tower, N per
// metre of height. The engine's reversal loop cycles when a diagonal ends
// up within its own weight of slack (it switches a member off on the
// force at end A, own load included, and on again on the elongation of
// its chord); at this drag every case settles, which the analysis test
// checks.
const towerDrag = 2.8e3

// bracedTower is a 4 m square lattice tower of six 4 m panels (24 m), Y
// up, pinned bases: continuous legs, a ring of struts at every panel
// level, and X bracing on all four faces as tension-only members, so it
// needs the tension/compression-only analysis to mean what it shows.
func bracedTower() store.Snapshot {
	job := model.NewJob()
	job.Headings = model.Headings{ProjectHeading: "Gusset samples", Heading: "Braced tower",
		Notes: "Square lattice tower, 4 m × 4 m in plan, six panels of 4 m (24 m high), Y up, pinned bases. " +
			"Legs 168.3x7.1CHS continuous over the panel points (frame members); struts 88.9x5.0CHS at every panel level, " +
			"rigidly joined; X bracing 60.3x3.6CHS on all four faces as TensionOnly members (AS/NZS 1163 C350L0, Aust300). " +
			"Analyse with tension/compression-only members activated (static setting tensionCompressionOnly): in each " +
			"panel the compression diagonal drops out and its partner carries the shear; without it the braces act both ways. " +
			"G: self-weight. Wu: assumed ultimate drag of 2.8 kN per metre of height along +X, as panel-point loads on the " +
			"two windward legs (the lower half of the first panel goes straight to the footings). Combinations to " +
			"AS/NZS 1170.0 Cl. 4.2.2 (d) with no imposed load, and (e)."}

	const (
		width  = 4.0
		panel  = 4.0
		panels = 6
	)
	// Corners in plan, anticlockwise seen from above (x, z); consecutive
	// corners bound a face.
	corners := [4][2]float64{{0, 0}, {width, 0}, {width, width}, {0, width}}
	node := func(level, c int) int64 { return int64(4*level + c%4 + 1) }
	var nodes []model.Node
	var restraints []model.NodeRestraint
	for j := 0; j <= panels; j++ {
		for c, xz := range corners {
			nodes = append(nodes, model.Node{ID: node(j, c), X: xz[0], Y: panel * float64(j), Z: xz[1]})
			if j == 0 {
				restraints = append(restraints, support(node(j, c), "FFFRRR"))
			}
		}
	}

	const (
		legSection = iota + 1
		strutSection
		braceSection
	)
	var members []model.Member
	add := func(typ string, a, b, sec int64) {
		members = append(members, model.Member{ID: int64(len(members) + 1), NodeA: a, NodeB: b, Type: typ,
			Section: sec, Material: 1, Direction: byAngle, Releases: rigidEnds})
	}
	for j := 1; j <= panels; j++ {
		for c := range corners {
			add("Normal", node(j-1, c), node(j, c), legSection)
		}
	}
	for j := 1; j <= panels; j++ {
		for c := range corners {
			add("Normal", node(j, c), node(j, c+1), strutSection)
		}
	}
	// The two diagonals of a panel cross without a joint, so each spans
	// the full panel; both start at the lower level.
	for j := 1; j <= panels; j++ {
		for c := range corners {
			add("TensionOnly", node(j-1, c), node(j, c+1), braceSection)
			add("TensionOnly", node(j-1, c+1), node(j, c), braceSection)
		}
	}

	const (
		deadCase = iota + 1
		windCase
	)
	// The windward legs stand at x = 0 (corners 0 and 3); each takes half
	// of the drag on its tributary height.
	var winds []model.NodeLoad
	for j := 1; j <= panels; j++ {
		h := panel
		if j == panels {
			h = panel / 2
		}
		for _, c := range []int{0, 3} {
			winds = append(winds, model.NodeLoad{LoadCase: windCase, Node: node(j, c), Fx: towerDrag * h / 2})
		}
	}

	item := func(lc int64, f float64) model.CombinationItem {
		return model.CombinationItem{LoadCase: lc, MultiplyingFactor: f}
	}
	cases := []model.LoadCase{
		{ID: deadCase, Title: "G: self-weight"},
		{ID: windCase, Title: "Wu: wind +X", Notes: "Assumed ultimate drag 2.8 kN/m of height on the x = 0 face."},
		combination(3, "1.2G + Wu", "AS/NZS 1170.0 Cl. 4.2.2(d) with no imposed load.", item(deadCase, 1.2), item(windCase, 1)),
		combination(4, "0.9G + Wu", "AS/NZS 1170.0 Cl. 4.2.2(e).", item(deadCase, 0.9), item(windCase, 1)),
	}

	return store.Snapshot{Job: job, Collections: map[string][]store.Row{
		model.CollNodes: rows(func(n model.Node) []int64 { return byID(n.ID) }, nodes...),
		model.CollSections: rows(func(x model.Section) []int64 { return byID(x.ID) },
			librarySection(legSection, "Aust300", "168.3x7.1CHS"), librarySection(strutSection, "Aust300", "88.9x5.0CHS"),
			librarySection(braceSection, "Aust300", "60.3x3.6CHS")),
		model.CollMaterials:       rows(func(x model.Material) []int64 { return byID(x.ID) }, libraryMaterial(1, "Aust", "STEEL")),
		model.CollMembers:         rows(func(m model.Member) []int64 { return byID(m.ID) }, members...),
		model.CollNodeRestraints:  rows(func(r model.NodeRestraint) []int64 { return byID(r.Node) }, restraints...),
		model.CollLoadCases:       rows(func(c model.LoadCase) []int64 { return byID(c.ID) }, cases...),
		model.CollSelfWeightLoads: rows(func(x model.SelfWeightLoad) []int64 { return byID(x.LoadCase) }, model.SelfWeightLoad{LoadCase: deadCase, AccelerationY: -gravity}),
		model.CollNodeLoads:       rows(nodeLoadKey, winds...),
	}}
}
