package samples

import (
	"math"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Loads of the multi-storey frame, Pa. The slab is not modelled, so its
// weight reaches the beams as part of the superimposed dead load.
const (
	storeyDead = 4.8e3 + 1.0e3 // 200 mm slab at 24 kN/m³, finishes and services
	officeLive = 3.0e3         // AS/NZS 1170.1 Table 3.1, C3 offices
	roofLive   = 0.25e3        // AS/NZS 1170.1 Table 3.2, R2 non-trafficable roof (large area)
	netWind    = 1.2e3         // ultimate, windward Cp,e 0.7 + leeward 0.5 on q = 1.0 kPa, uniform with height
	psiC       = 0.4           // ψc of AS/NZS 1170.0 Table 4.1 for office floors, also applied to the roof
)

// multiStoreyFrame is a five-storey steel moment frame, 3 bays of 6 m
// along X by 4 bays of 7.5 m along Z, Y up, fixed bases. A one-way slab
// spans 7.5 m along Z onto the X beams, so the X frames carry the floors
// and their columns bend about the strong axis under gravity and X wind.
func multiStoreyFrame() store.Snapshot {
	job := model.NewJob()
	job.Headings = model.Headings{ProjectHeading: "Gusset samples", Heading: "Multi-storey frame",
		Notes: "Five-storey steel moment frame (storeys 3.6 m then 3.3 m, roof at 16.8 m), 3 bays of 6 m along X by " +
			"4 bays of 7.5 m along Z, fixed bases, Y up. Columns 310UC137 (storeys 1-2) and 310UC96.8 (storeys 3-5), " +
			"webs along X; beams along X 460UB67.1 carry a one-way slab spanning 7.5 m along Z; beams along Z 360UB50.7. " +
			"AS/NZS 3679.1 Grade 300 (Aust300), steel to AS 4100. G: self-weight plus 5.8 kPa on every level " +
			"(200 mm slab 4.8 kPa, finishes and services 1.0 kPa) as beam loads. Q: 3.0 kPa on floors " +
			"(AS/NZS 1170.1 Table 3.1, offices), 0.25 kPa on the roof (Table 3.2, R2). Wu: 1.2 kPa net " +
			"(windward 0.7 + leeward 0.5 on q = 1.0 kPa) over the height, as node loads at each level on the " +
			"windward face. Combinations to AS/NZS 1170.0 Cl. 4.2.2 with ψc = 0.4 (Table 4.1, offices)."}

	xs := []float64{0, 6, 12, 18}
	zs := []float64{0, 7.5, 15, 22.5, 30}
	ys := []float64{0, 3.6, 6.9, 10.2, 13.5, 16.8}
	perLevel := len(xs) * len(zs)
	node := func(level, ix, iz int) int64 { return int64(level*perLevel + iz*len(xs) + ix + 1) }
	var nodes []model.Node
	var restraints []model.NodeRestraint
	for j, y := range ys {
		for iz, z := range zs {
			for ix, x := range xs {
				nodes = append(nodes, model.Node{ID: node(j, ix, iz), X: x, Y: y, Z: z})
				if j == 0 {
					restraints = append(restraints, support(node(j, ix, iz), "FFFFFF"))
				}
			}
		}
	}

	const (
		lowerColumn = iota + 1
		upperColumn
		beamX
		beamZ
	)
	sections := []model.Section{librarySection(lowerColumn, "Aust300", "310UC137"), librarySection(upperColumn, "Aust300", "310UC96.8"),
		librarySection(beamX, "Aust300", "460UB67.1"), librarySection(beamZ, "Aust300", "360UB50.7")}
	var members []model.Member
	add := func(a, b, sec int64, dir model.Direction) int64 {
		id := int64(len(members) + 1)
		members = append(members, model.Member{ID: id, NodeA: a, NodeB: b, Type: "Normal", Section: sec, Material: 1,
			Direction: dir, Releases: rigidEnds})
		return id
	}
	// Column webs along X: the X frames, which have the fewer bays and
	// the wider wind face, bend the columns about their strong axis.
	for j := 1; j < len(ys); j++ {
		sec := int64(lowerColumn)
		if j > 2 {
			sec = upperColumn
		}
		for iz := range zs {
			for ix := range xs {
				add(node(j-1, ix, iz), node(j, ix, iz), sec, alongAxis("XAxis"))
			}
		}
	}

	const (
		deadCase = iota + 1
		liveCase
		windXCase
		windZCase
	)
	var dists []model.MemberDistributedLoad
	for j := 1; j < len(ys); j++ {
		live := officeLive
		if j == len(ys)-1 {
			live = roofLive
		}
		for iz := range zs {
			// Tributary width of the slab spanning along Z.
			width := 7.5
			if iz == 0 || iz == len(zs)-1 {
				width = 3.75
			}
			for ix := 1; ix < len(xs); ix++ {
				m := add(node(j, ix-1, iz), node(j, ix, iz), beamX, alongAxis("YAxis"))
				dists = append(dists, udl(deadCase, m, -storeyDead*width), udl(liveCase, m, -live*width))
			}
		}
		for ix := range xs {
			for iz := 1; iz < len(zs); iz++ {
				add(node(j, ix, iz-1), node(j, ix, iz), beamZ, alongAxis("YAxis"))
			}
		}
	}

	// Wind: each windward node takes the pressure on its tributary width
	// and height; the lower half of the first storey goes straight to the
	// footings.
	var winds []model.NodeLoad
	for j := 1; j < len(ys); j++ {
		h := ys[j] - ys[j-1]
		if j < len(ys)-1 {
			h = (ys[j+1] - ys[j-1]) / 2
		} else {
			h /= 2
		}
		for iz := range zs {
			b := tributary(zs, iz)
			winds = append(winds, model.NodeLoad{LoadCase: windXCase, Node: node(j, 0, iz), Fx: math.Round(netWind * b * h)})
		}
		for ix := range xs {
			b := tributary(xs, ix)
			winds = append(winds, model.NodeLoad{LoadCase: windZCase, Node: node(j, ix, 0), Fz: math.Round(netWind * b * h)})
		}
	}

	item := func(lc int64, f float64) model.CombinationItem {
		return model.CombinationItem{LoadCase: lc, MultiplyingFactor: f}
	}
	cases := []model.LoadCase{
		{ID: deadCase, Title: "G: dead", Notes: "Self-weight plus 5.8 kPa on every level (200 mm slab, finishes and services)."},
		{ID: liveCase, Title: "Q: live", Notes: "Offices 3.0 kPa (AS/NZS 1170.1 Table 3.1); roof 0.25 kPa (Table 3.2, R2)."},
		{ID: windXCase, Title: "Wu: wind +X", Notes: "Ultimate wind along +X, 1.2 kPa net on the face x = 0."},
		{ID: windZCase, Title: "Wu: wind +Z", Notes: "Ultimate wind along +Z, 1.2 kPa net on the face z = 0."},
		combination(5, "1.35G", "AS/NZS 1170.0 Cl. 4.2.2(a).", item(deadCase, 1.35)),
		combination(6, "1.2G + 1.5Q", "AS/NZS 1170.0 Cl. 4.2.2(b).", item(deadCase, 1.2), item(liveCase, 1.5)),
		combination(7, "1.2G + 0.4Q + Wu (+X)", "AS/NZS 1170.0 Cl. 4.2.2(d), ψc = 0.4.",
			item(deadCase, 1.2), item(liveCase, psiC), item(windXCase, 1)),
		combination(8, "1.2G + 0.4Q + Wu (+Z)", "AS/NZS 1170.0 Cl. 4.2.2(d), ψc = 0.4.",
			item(deadCase, 1.2), item(liveCase, psiC), item(windZCase, 1)),
		combination(9, "0.9G + Wu (+X)", "AS/NZS 1170.0 Cl. 4.2.2(e).", item(deadCase, 0.9), item(windXCase, 1)),
		combination(10, "0.9G + Wu (+Z)", "AS/NZS 1170.0 Cl. 4.2.2(e).", item(deadCase, 0.9), item(windZCase, 1)),
	}

	return store.Snapshot{Job: job, Collections: map[string][]store.Row{
		model.CollNodes:                  rows(func(n model.Node) []int64 { return byID(n.ID) }, nodes...),
		model.CollSections:               rows(func(x model.Section) []int64 { return byID(x.ID) }, sections...),
		model.CollMaterials:              rows(func(x model.Material) []int64 { return byID(x.ID) }, libraryMaterial(1, "Aust", "STEEL")),
		model.CollMembers:                rows(func(m model.Member) []int64 { return byID(m.ID) }, members...),
		model.CollNodeRestraints:         rows(func(r model.NodeRestraint) []int64 { return byID(r.Node) }, restraints...),
		model.CollLoadCases:              rows(func(c model.LoadCase) []int64 { return byID(c.ID) }, cases...),
		model.CollSelfWeightLoads:        rows(func(x model.SelfWeightLoad) []int64 { return byID(x.LoadCase) }, model.SelfWeightLoad{LoadCase: deadCase, AccelerationY: -gravity}),
		model.CollMemberDistributedLoads: rows(distributedKey, dists...),
		model.CollNodeLoads:              rows(nodeLoadKey, winds...),
	}}
}

// tributary is the width of façade a grid line carries: half of each
// adjacent bay.
func tributary(grid []float64, i int) float64 {
	w := 0.0
	if i > 0 {
		w += (grid[i] - grid[i-1]) / 2
	}
	if i < len(grid)-1 {
		w += (grid[i+1] - grid[i]) / 2
	}
	return w
}
