package samples

import (
	"fmt"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/model/vehicles"
	"github.com/gusset/gusset/pkg/store"
)

// The bridge deck's dimensions and loads. pkg/server's
// movingload_sample_test.go repeats the geometry and the moving-load data
// to compute its hand values; change both together.
const (
	bridgeSpan     = 20.0 // m, along X
	bridgeBays     = 20   // members per girder (1 m each)
	bridgeCrossBay = 5    // a cross-beam every 5 members (5 m)
	girderSpacing  = 2.8  // m, along Z
	// girderB numbers girder B's nodes and members after girder A's 1-21
	// and 1-20; crossBeam0 numbers the cross-beams.
	girderB    = 100
	crossBeam0 = 200
	// deckSDL is the superimposed dead load on each girder, N/m: a 200 mm
	// slab 4.0 m wide at 25 kN/m³ (20 kN/m) plus 4 kN/m of surfacing and
	// barriers (assumed), shared equally by the two girders.
	deckSDL = 12e3
	// The moving loads: one 1 m step per time interval (16 m/s × 0.0625 s,
	// both exact in binary so that the wheel positions are exact), the
	// lane load as a pressure 25 m long (the length of the M1600) following
	// the vehicle, and the generated cases numbered from 101.
	bridgeSpeed     = 16.0   // m/s (57.6 km/h)
	bridgeInterval  = 0.0625 // s
	laneLoadLength  = 25.0   // m
	laneLoadSpacing = 0.5    // m
	bridgeFirstCase = 101
)

// bridgeDeck is a single-span simply supported road bridge (Y up): two
// concrete girders along X joined by cross-beams, pinned bearings at
// x = 0 and sliding ones at x = 20 m, with the moving-load data of an
// AS 5100.2 M1600 and its lane load crossing on the centreline, ready to
// generate.
func bridgeDeck() store.Snapshot {
	job := model.NewJob()
	job.Headings = model.Headings{ProjectHeading: "Gusset samples", Heading: "Bridge deck",
		Notes: "Simply supported road bridge, 20 m span along X, Y up: two 1400 x 600 mm N40 concrete girders 2.8 m apart " +
			"(z = 0: members 1-20; z = 2.8 m: members 101-120; 1 m each) and 900 x 300 mm cross-beams at x = 0, 5, 10, 15, 20 m " +
			"(201-205). Bearings pinned at x = 0, sliding at x = 20 m. G1 self-weight; G2 deck slab and surfacing, 12 kN/m per " +
			"girder (the slab is not modelled). Moving loads: AS 5100.2 M1600 (library AS5100, 12 axles of 120 kN, 25 m long) " +
			"with its 6 kN/m lane load as a 1.875 kPa pressure 3.2 m wide and 25 m long, both on the centreline z = 1.4 m at " +
			"16 m/s, 0.0625 s steps (1 m); loads off the deck are dropped. Girders only are loaded: the lever rule shares each " +
			"wheel between them (with cross-beams it would pair a wheel with a cross-beam). All factors 1: apply the dynamic " +
			"load allowance and load factors yourself. POST /job/loads/moving-loads/generate makes cases 101-146 (leading " +
			"axle at x = 0 to 45 m); then run-linear and read node-reactions or member-end-forces."}

	girderNode := func(girder, i int) int64 { return int64(girder*girderB + i + 1) }
	var nodes []model.Node
	for g := range 2 {
		for i := 0; i <= bridgeBays; i++ {
			nodes = append(nodes, model.Node{ID: girderNode(g, i), X: bridgeSpan * float64(i) / bridgeBays, Z: girderSpacing * float64(g)})
		}
	}
	// Pinned at x = 0 (both bearings hold X, Y and Z); sliding at x = 20 m:
	// girder A's bearing guided (holds Y and Z), girder B's free (Y only).
	// The X restraints at two z and the Y restraints at four corners hold
	// every rigid-body motion.
	restraints := []model.NodeRestraint{support(girderNode(0, 0), "FFFRRR"), support(girderNode(0, bridgeBays), "RFFRRR"),
		support(girderNode(1, 0), "FFFRRR"), support(girderNode(1, bridgeBays), "RFRRRR")}

	const (
		girderSection = iota + 1
		crossSection
	)
	member := func(id, a, b, sec int64) model.Member {
		return model.Member{ID: id, NodeA: a, NodeB: b, Type: "Normal", Section: sec, Material: 1,
			Direction: alongAxis("YAxis"), Releases: rigidEnds}
	}
	var members []model.Member
	var sdl []model.MemberDistributedLoad
	for g := range 2 {
		for i := 1; i <= bridgeBays; i++ {
			id := int64(g*girderB + i)
			members = append(members, member(id, girderNode(g, i-1), girderNode(g, i), girderSection))
			sdl = append(sdl, udl(2, id, -deckSDL))
		}
	}
	for k := 0; k <= bridgeBays/bridgeCrossBay; k++ {
		i := k * bridgeCrossBay
		members = append(members, member(int64(crossBeam0+k+1), girderNode(0, i), girderNode(1, i), crossSection))
	}

	lib, err := vehicles.Lookup(vehicles.LibraryAS5100, vehicles.NameM1600)
	if err != nil {
		panic(err)
	}
	m1600 := model.Vehicle{ID: 1, Name: lib.Name, Source: model.SourceLibrary, Library: lib.Library,
		Loads: make([]model.VehicleLoad, len(lib.Loads))}
	for i, l := range lib.Loads {
		m1600.Loads[i] = model.VehicleLoad{X: l.X, Y: l.Y, Fx: l.Fx, Fy: l.Fy, Fz: l.Fz, Mx: l.Mx, My: l.My, Mz: l.Mz}
	}
	lane := lib.LaneLoad // 6 kN/m over 3.2 m
	laneLoad := model.MovingPressure{ID: 1, Name: "M1600 lane load", Width: lane.Width, Length: laneLoadLength,
		Pz: lane.Fz / lane.Width, LoadSpacing: laneLoadSpacing}
	centre := girderSpacing / 2
	path := model.TravelPath{ID: 1, Name: "Centreline", Stations: []model.TravelStation{{Z: centre}, {X: bridgeSpan, Z: centre}}}
	on := func(l model.ScenarioLoad) model.ScenarioLoad {
		l.TravelPathID, l.Speed = 1, bridgeSpeed
		l.LoadFactor, l.LaneFactor, l.DynamicFactor, l.GenerateStationaryLc = 1, 1, 1, model.StationaryStarting
		return l
	}
	scenario := model.Scenario{ID: 1, Name: "M1600 + lane load", Include: true, StartingLoadCase: bridgeFirstCase,
		TimeInterval: bridgeInterval, Loads: []model.ScenarioLoad{
			on(model.ScenarioLoad{LoadType: model.MovingLoadVehicle, VehicleID: 1}),
			on(model.ScenarioLoad{LoadType: model.MovingLoadPressure, PressureID: 1}),
		}}
	settings := model.DefaultMovingLoadSettings()
	settings.KeepLoadsWithinTravelPath = true
	singleton := func(any) []int64 { return []int64{model.SingletonKey} }

	cases := []model.LoadCase{
		{ID: 1, Title: "G1: self-weight", Notes: "Girders and cross-beams, N40 concrete at 2400 kg/m³."},
		{ID: 2, Title: "G2: deck slab and surfacing", Notes: fmt.Sprintf("%g kN/m on each girder: a 200 mm slab 4.0 m wide "+
			"at 25 kN/m³ (20 kN/m) plus 4 kN/m of surfacing and barriers (assumed), shared equally.", deckSDL/1e3)},
	}
	return store.Snapshot{Job: job, Collections: map[string][]store.Row{
		model.CollNodes: rows(func(n model.Node) []int64 { return byID(n.ID) }, nodes...),
		model.CollSections: rows(func(x model.Section) []int64 { return byID(x.ID) },
			librarySection(girderSection, "Parametric", "RECT 1400x600"), librarySection(crossSection, "Parametric", "RECT 900x300")),
		model.CollMaterials:              rows(func(x model.Material) []int64 { return byID(x.ID) }, libraryMaterial(1, "Aust", "N40")),
		model.CollMembers:                rows(func(m model.Member) []int64 { return byID(m.ID) }, members...),
		model.CollNodeRestraints:         rows(func(r model.NodeRestraint) []int64 { return byID(r.Node) }, restraints...),
		model.CollLoadCases:              rows(func(c model.LoadCase) []int64 { return byID(c.ID) }, cases...),
		model.CollSelfWeightLoads:        rows(func(x model.SelfWeightLoad) []int64 { return byID(x.LoadCase) }, model.SelfWeightLoad{LoadCase: 1, AccelerationY: -gravity}),
		model.CollMemberDistributedLoads: rows(distributedKey, sdl...),
		model.CollMovingLoadSettings:     rows(func(x model.MovingLoadSettings) []int64 { return singleton(x) }, settings),
		// Elements to load: the girders only. The deck slab (not modelled)
		// spans across between the girders, which the lever rule stands
		// for. Were the cross-beams selected too, a wheel nearer a
		// cross-beam than a girder would be shared between that
		// cross-beam and the nearest member beyond it across the
		// cross-beam (a girder member a metre or more along), which is no
		// load path of a slab deck.
		model.CollMovingLoadElements: rows(func(x model.MovingLoadElements) []int64 { return singleton(x) },
			model.MovingLoadElements{Members: fmt.Sprintf("1-%d,%d-%d", bridgeBays, girderB+1, girderB+bridgeBays)}),
		model.CollMovingLoadVehicles:    rows(func(x model.Vehicle) []int64 { return byID(x.ID) }, m1600),
		model.CollMovingLoadPressures:   rows(func(x model.MovingPressure) []int64 { return byID(x.ID) }, laneLoad),
		model.CollMovingLoadTravelPaths: rows(func(x model.TravelPath) []int64 { return byID(x.ID) }, path),
		model.CollMovingLoadScenarios:   rows(func(x model.Scenario) []int64 { return byID(x.ID) }, scenario),
	}}
}
