package sgtext

import (
	"github.com/gusset/gusset/pkg/model"
)

// The moving-load data has no group in the desktop program's manual
// pages this service follows, so it is written in groups of this
// service's own: a record's line, and the lines of its lists after it,
// each starting with the item * (a sub-line belongs to the record line
// above it).

var (
	stationaryCodes = []code{{"S", model.StationaryStarting}, {"A", model.StationaryAll}}
	movingTypes     = []code{{"V", model.MovingLoadVehicle}, {"P", model.MovingLoadPressure}}
	sources         = []code{{"U", model.SourceUser}, {"L", model.SourceLibrary}}
)

func yes(b bool) string {
	if b {
		return "Y"
	}
	return "N"
}

// last is the record a sub-line (*) adds to: the last record line of its
// group.
type last struct {
	coll string
	key  int64
}

// sub reports whether r is a sub-line, and refuses one with no record
// line of coll above it.
func (b *builder) sub(r *row, coll string) bool {
	if r.raw(0) != "*" {
		return false
	}
	if b.lastRec.coll != coll && r.err == nil {
		r.err = lineError(r.line, "%s: a * line adds to the record line above it, and there is none", r.group)
	}
	r.items = r.items[1:]
	return true
}

// nonZero refuses a factor of 0: the stored form leaves a zero out and
// reads it back as its default of 1.
func (r *row) nonZero(i int, name string) float64 {
	x := r.num(i, name)
	if x == 0 && r.err == nil {
		r.fail(i, name, "a factor of 0 cannot be kept (it reads back as 1); leave the item empty for 1 or give another number")
	}
	return x
}

// factorOr1 reads a factor, empty meaning 1.
func (r *row) factorOr1(i int, name string) float64 {
	if r.raw(i) == "" {
		return 1
	}
	return r.nonZero(i, name)
}

func (b *builder) entryOf(coll string, key int64) entry {
	return b.rows[coll][storeKey(key)]
}

// MOVINGSETTINGS: Retain,Closest,IgnoreOne,CheckVert,VertProx,KeepInPath,IgnoreOutside (Y/N
// but VertProx); * lines X,Y of the loaded area.
func readMovingSettings(b *builder, r *row) {
	if b.sub(r, model.CollMovingLoadSettings) {
		if r.err != nil {
			return
		}
		e := b.entryOf(model.CollMovingLoadSettings, model.SingletonKey)
		s := e.rec.(model.MovingLoadSettings)
		r.need(2, "*,X,Y")
		r.most(2, "*,X,Y")
		pt := []float64{r.num(0, "X"), r.num(1, "Y")}
		if len(s.LoadedArea) >= model.MaxLoadedAreaRows && r.err == nil {
			r.fail(0, "X", "a loaded area has at most %d points", model.MaxLoadedAreaRows)
		}
		s.LoadedArea = append(append([][]float64(nil), s.LoadedArea...), pt)
		b.put(r, model.CollMovingLoadSettings, s, model.SingletonKey)
		return
	}
	r.most(7, "Retain,Closest,IgnoreOne,CheckVert,VertProx,KeepInPath,IgnoreOutside")
	s := model.DefaultMovingLoadSettings()
	s.RetainLoads = r.pick(0, "Retain", yesNo, "N") == "Y"
	s.ApplyToClosestMember = r.pick(1, "Closest", yesNo, "N") == "Y"
	s.IgnoreLoadsOnOneMember = r.pick(2, "IgnoreOne", yesNo, "N") == "Y"
	s.CheckVerticalProximity = r.pick(3, "CheckVert", yesNo, "N") == "Y"
	if r.raw(4) != "" {
		s.VerticalProximity = r.si(4, "VertProx", b.conv.factor(&s, "verticalProximity"))
	}
	s.KeepLoadsWithinTravelPath = r.pick(5, "KeepInPath", yesNo, "N") == "Y"
	s.IgnoreOutsideLoadedArea = r.pick(6, "IgnoreOutside", yesNo, "N") == "Y"
	b.put(r, model.CollMovingLoadSettings, s, model.SingletonKey)
	b.lastRec = last{model.CollMovingLoadSettings, model.SingletonKey}
}

func writeMovingSettings(w *writer, c converter, s model.MovingLoadSettings) {
	for _, v := range []bool{s.RetainLoads, s.ApplyToClosestMember, s.IgnoreLoadsOnOneMember, s.CheckVerticalProximity} {
		w.code(yes(v))
	}
	w.si(s.VerticalProximity, c.factor(&s, "verticalProximity"))
	w.code(yes(s.KeepLoadsWithinTravelPath))
	w.code(yes(s.IgnoreOutsideLoadedArea))
	w.end()
	for _, p := range s.LoadedArea {
		w.code("*")
		for _, x := range p {
			w.num(x)
		}
		w.end()
	}
}

// LOADEDELEMENTS: "Members","Plates" (id lists).
func readLoadedElements(b *builder, r *row) {
	r.most(2, "Members,Plates")
	e := model.MovingLoadElements{Members: r.raw(0), Plates: r.raw(1)}
	for i, p := range []*string{&e.Members, &e.Plates} {
		if l, ok, err := model.ParseIDList([]string{"Members", "Plates"}[i], *p); err != nil {
			r.fail(i, []string{"Members", "Plates"}[i], "%s", err.(*model.Error).Msg)
		} else if ok {
			*p = l.String()
		}
	}
	b.put(r, model.CollMovingLoadElements, e, model.SingletonKey)
}

func writeLoadedElements(w *writer, e model.MovingLoadElements) {
	w.text(e.Members)
	w.text(e.Plates)
	w.end()
}

var vehicleLoadPaths = []string{"x", "y", "fx", "fy", "fz", "mx", "my", "mz"}

// VEHICLES: Id,Name,Source(U/L),Library; * lines X,Y,Fx,Fy,Fz,Mx,My,Mz of its loads.
func readVehicle(b *builder, r *row) {
	if b.sub(r, model.CollMovingLoadVehicles) {
		if r.err != nil {
			return
		}
		e := b.entryOf(model.CollMovingLoadVehicles, b.lastRec.key)
		v := e.rec.(model.Vehicle)
		r.need(2, "*,X,Y")
		r.most(8, "*,X,Y,Fx,Fy,Fz,Mx,My,Mz")
		var l model.VehicleLoad
		vals := []*float64{&l.X, &l.Y, &l.Fx, &l.Fy, &l.Fz, &l.Mx, &l.My, &l.Mz}
		for i, p := range vehicleLoadPaths {
			*vals[i] = r.si(i, p, b.conv.factor(&l, p))
		}
		if len(v.Loads) >= model.MaxVehicleLoads && r.err == nil {
			r.fail(0, "X", "a vehicle has at most %d loads", model.MaxVehicleLoads)
		}
		v.Loads = append(append([]model.VehicleLoad(nil), v.Loads...), l)
		b.put(r, model.CollMovingLoadVehicles, v, v.ID)
		return
	}
	r.need(2, "Id,Name")
	r.most(4, "Id,Name,Source,Library")
	v := model.Vehicle{ID: r.id(0, "Id"), Name: r.text(1, "Name"), Source: r.pick(2, "Source", sources, model.SourceUser), Library: r.text(3, "Library"),
		Loads: []model.VehicleLoad{}}
	b.put(r, model.CollMovingLoadVehicles, v, v.ID)
	b.lastRec = last{model.CollMovingLoadVehicles, v.ID}
}

func writeVehicle(w *writer, c converter, v model.Vehicle) {
	w.int(v.ID)
	w.text(v.Name)
	w.code(fileCode(sources, v.Source, "U"))
	w.text(v.Library)
	w.end()
	for _, l := range v.Loads {
		w.code("*")
		writeValues(w, c, &l, vehicleLoadPaths, []float64{l.X, l.Y, l.Fx, l.Fy, l.Fz, l.Mx, l.My, l.Mz})
		w.end()
	}
}

var pressurePaths = []string{"width", "length", "px", "py", "pz", "loadSpacing"}

// LANEPRESSURES: Id,Name,Width,Length,Px,Py,Pz,LoadSpacing.
func readPressure(b *builder, r *row) {
	const layout = "Id,Name,Width,Length,Px,Py,Pz,LoadSpacing"
	r.need(8, layout)
	r.most(8, layout)
	p := model.MovingPressure{ID: r.id(0, "Id"), Name: r.text(1, "Name")}
	vals := []*float64{&p.Width, &p.Length, &p.Px, &p.Py, &p.Pz, &p.LoadSpacing}
	for i, path := range pressurePaths {
		*vals[i] = r.si(2+i, path, b.conv.factor(&p, path))
	}
	b.put(r, model.CollMovingLoadPressures, p, p.ID)
}

func writePressure(w *writer, c converter, p model.MovingPressure) {
	w.int(p.ID)
	w.text(p.Name)
	writeValues(w, c, &p, pressurePaths, []float64{p.Width, p.Length, p.Px, p.Py, p.Pz, p.LoadSpacing})
	w.end()
}

var stationPaths = []string{"x", "y", "z", "radius"}

// TRAVELPATHS: Id,Name; * lines Node,X,Y,Z,Radius of its stations (a
// station at a node when Node is not 0).
func readTravelPath(b *builder, r *row) {
	if b.sub(r, model.CollMovingLoadTravelPaths) {
		if r.err != nil {
			return
		}
		e := b.entryOf(model.CollMovingLoadTravelPaths, b.lastRec.key)
		p := e.rec.(model.TravelPath)
		r.most(5, "*,Node,X,Y,Z,Radius")
		s := model.TravelStation{NodeKey: r.ref(0, "Node")}
		vals := []*float64{&s.X, &s.Y, &s.Z, &s.Radius}
		for i, path := range stationPaths {
			*vals[i] = r.si(1+i, path, b.conv.factor(&s, path))
		}
		if len(p.Stations) >= model.MaxTravelStations && r.err == nil {
			r.fail(0, "Node", "a travel path has at most %d stations", model.MaxTravelStations)
		}
		p.Stations = append(append([]model.TravelStation(nil), p.Stations...), s)
		b.put(r, model.CollMovingLoadTravelPaths, p, p.ID)
		b.ref(r, model.CollNodes, "node", "Node", s.NodeKey)
		return
	}
	r.need(2, "Id,Name")
	r.most(2, "Id,Name")
	p := model.TravelPath{ID: r.id(0, "Id"), Name: r.text(1, "Name")}
	b.put(r, model.CollMovingLoadTravelPaths, p, p.ID)
	b.lastRec = last{model.CollMovingLoadTravelPaths, p.ID}
}

func writeTravelPath(w *writer, c converter, p model.TravelPath) {
	w.int(p.ID)
	w.text(p.Name)
	w.end()
	for _, s := range p.Stations {
		w.code("*")
		w.int(s.NodeKey)
		writeValues(w, c, &s, stationPaths, []float64{s.X, s.Y, s.Z, s.Radius})
		w.end()
	}
}

const scenarioLoadLayout = "*,L,Type,Vehicle,Pressure,Path,Speed,Delay,Start,LoadFactor,LaneFactor,DynamicFactor,Stationary"

// SCENARIOS: Id,Name,Include(Y/N),StartingLoadCase,TimeInterval; * lines
// of its loads (scenarioLoadLayout) and combinations
// (*,C,ScenarioFactor,CombineWith,LoadCaseFactor,StartingCombination).
func readScenario(b *builder, r *row) {
	if b.sub(r, model.CollMovingLoadScenarios) {
		if r.err != nil {
			return
		}
		e := b.entryOf(model.CollMovingLoadScenarios, b.lastRec.key)
		s := e.rec.(model.Scenario)
		switch kind := r.pick(0, "Kind", []code{{"L", "L"}, {"C", "C"}}, ""); kind {
		case "L":
			r.need(4, "*,L,Type,Vehicle,Pressure,Path")
			r.most(12, scenarioLoadLayout)
			l := model.DefaultScenarioLoad()
			l.LoadType = r.pick(1, "Type", movingTypes, model.MovingLoadVehicle)
			l.VehicleID, l.PressureID, l.TravelPathID = r.ref(2, "Vehicle"), r.ref(3, "Pressure"), r.ref(4, "Path")
			l.Speed = r.si(5, "Speed", b.conv.factor(&l, "speed"))
			l.Delay = r.num(6, "Delay")
			l.StartPosition = r.si(7, "Start", b.conv.factor(&l, "startPosition"))
			l.LoadFactor, l.LaneFactor, l.DynamicFactor = r.factorOr1(8, "LoadFactor"), r.factorOr1(9, "LaneFactor"), r.factorOr1(10, "DynamicFactor")
			l.GenerateStationaryLc = r.pick(11, "Stationary", stationaryCodes, model.StationaryStarting)
			if len(s.Loads) >= model.MaxScenarioLoads && r.err == nil {
				r.fail(0, "Kind", "a scenario has at most %d loads", model.MaxScenarioLoads)
			}
			s.Loads = append(append([]model.ScenarioLoad(nil), s.Loads...), l)
			b.ref(r, model.CollMovingLoadVehicles, "vehicle", "Vehicle", l.VehicleID)
			b.ref(r, model.CollMovingLoadPressures, "pressure", "Pressure", l.PressureID)
			b.ref(r, model.CollMovingLoadTravelPaths, "travel path", "Path", l.TravelPathID)
		case "C":
			r.need(3, "*,C,ScenarioFactor,CombineWith")
			r.most(5, "*,C,ScenarioFactor,CombineWith,LoadCaseFactor,StartingCombination")
			c := model.ScenarioCombination{ScenarioFactor: r.factorOr1(1, "ScenarioFactor"), CombineWithLoadCase: r.ref(2, "CombineWith"),
				LoadCaseFactor: r.factorOr1(3, "LoadCaseFactor"), StartingCombinationCase: r.ref(4, "StartingCombination")}
			if len(s.Combinations) >= model.MaxScenarioCombos && r.err == nil {
				r.fail(0, "Kind", "a scenario has at most %d combinations", model.MaxScenarioCombos)
			}
			s.Combinations = append(append([]model.ScenarioCombination(nil), s.Combinations...), c)
		}
		b.put(r, model.CollMovingLoadScenarios, s, s.ID)
		return
	}
	r.need(2, "Id,Name")
	r.most(5, "Id,Name,Include,StartingLoadCase,TimeInterval")
	s := model.Scenario{ID: r.id(0, "Id"), Name: r.text(1, "Name"), Include: r.pick(2, "Include", yesNo, "Y") == "Y",
		StartingLoadCase: r.ref(3, "StartingLoadCase"), TimeInterval: model.DefaultTimeInterval}
	if r.raw(4) != "" {
		s.TimeInterval = r.num(4, "TimeInterval")
	}
	b.put(r, model.CollMovingLoadScenarios, s, s.ID)
	b.lastRec = last{model.CollMovingLoadScenarios, s.ID}
}

func writeScenario(w *writer, c converter, s model.Scenario) {
	w.int(s.ID)
	w.text(s.Name)
	w.code(yes(s.Include))
	w.int(s.StartingLoadCase)
	w.num(s.TimeInterval)
	w.end()
	for _, l := range s.Loads {
		w.code("*")
		w.code("L")
		w.code(fileCode(movingTypes, l.LoadType, "V"))
		w.int(l.VehicleID)
		w.int(l.PressureID)
		w.int(l.TravelPathID)
		w.si(l.Speed, c.factor(&l, "speed"))
		w.num(l.Delay)
		w.si(l.StartPosition, c.factor(&l, "startPosition"))
		w.num(l.LoadFactor)
		w.num(l.LaneFactor)
		w.num(l.DynamicFactor)
		w.code(fileCode(stationaryCodes, l.GenerateStationaryLc, "S"))
		w.end()
	}
	for _, cb := range s.Combinations {
		w.code("*")
		w.code("C")
		w.num(cb.ScenarioFactor)
		w.int(cb.CombineWithLoadCase)
		w.num(cb.LoadCaseFactor)
		w.int(cb.StartingCombinationCase)
		w.end()
	}
}
