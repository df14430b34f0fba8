package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/gusset/gusset/pkg/fem/geom"
)

// Collection names of the moving-load data (as the interface names them, "moving loads
// under moving-loads/"). The settings and the elements to load are
// singletons kept as one-row collections under key 1, so that save, open,
// clear and close treat them like every other collection.
const (
	CollMovingLoadSettings    = "movingLoadSettings"
	CollMovingLoadElements    = "movingLoadElements"
	CollMovingLoadVehicles    = "movingLoadVehicles"
	CollMovingLoadPressures   = "movingLoadPressures"
	CollMovingLoadTravelPaths = "movingLoadTravelPaths"
	CollMovingLoadScenarios   = "movingLoadScenarios"
	// CollMovingLoadGenerated records what the last generation of each
	// scenario made (GeneratedScenario), so that the next one can replace
	// it. It is saved with the job and has no route of its own.
	CollMovingLoadGenerated = "movingLoadGenerated"
)

// Limits of one moving-load generation. They bound the time and memory a
// request can ask for; a generation past one is refused (400) before
// anything is written.
const (
	// MaxGeneratedCases is the most load and combination cases one
	// generation makes, over all its scenarios.
	MaxGeneratedCases = 10_000
	// MaxGeneratedRows is the most load rows (node, member and plate loads)
	// one generation writes.
	MaxGeneratedRows = 1_000_000
	// MaxPressureCells is the most pieces one moving pressure is split
	// into: (length / loadSpacing) × (width / loadSpacing).
	MaxPressureCells = 10_000
)

// DefaultMovingLoadCategory is the title of the load category generated
// loads go to when a generation names none.
const DefaultMovingLoadCategory = "Moving loads"

// GeneratedScenario is what a generation made of one scenario, as id
// lists: its load cases, its combination cases and its load-case groups,
// and the category its loads went to.
type GeneratedScenario struct {
	Scenario     int64  `json:"scenario"`
	LoadCases    string `json:"loadCases"`
	Combinations string `json:"combinations"`
	Groups       string `json:"groups"`
	LoadCategory int64  `json:"loadCategory"`
}

// Validate checks the id lists, and that they name no more ids than one
// generation makes (a job file's record is expanded id by id).
func (g *GeneratedScenario) Validate() error {
	for _, f := range []struct{ name, v string }{{"loadCases", g.LoadCases}, {"combinations", g.Combinations}, {"groups", g.Groups}} {
		l, _, err := ParseIDList(f.name, f.v)
		if err != nil {
			return err
		}
		var n int64
		for _, r := range l.Ranges {
			n += r.Hi - r.Lo + 1
		}
		if n > MaxGeneratedCases {
			return Invalid(f.name, "%s names %d ids; a generation makes at most %d", f.name, n, MaxGeneratedCases)
		}
	}
	return nil
}

// SingletonKey is the key of the one row of a singleton collection.
const SingletonKey int64 = 1

// Limits of the moving-load data. The spec leaves the loaded-area row
// count open ("not shown"); these are the service's choices, large enough
// for any real bridge deck and small enough that the O(n²) simple-polygon
// check and a whole record stay cheap.
const (
	MaxLoadedAreaRows   = 1000
	MaxVehicleLoads     = 1000
	MaxTravelStations   = 1000
	MaxScenarioLoads    = 1000
	MaxScenarioCombos   = 1000
	MaxMovingLoadName   = 100
	DefaultTimeInterval = 1.0 // s
	// DefaultVerticalProximity is the verticalProximity of a job that never
	// set it, m.
	DefaultVerticalProximity = 1.0
)

// Values of the moving-load enumerations.
const (
	MovingLoadVehicle  = "Vehicle"
	MovingLoadPressure = "Pressure"
	StationaryStarting = "StartingLoadCase"
	StationaryAll      = "AllLoadCases"
	SourceUser         = "User"
	SourceLibrary      = "Library"
)

// MovingLoadSettings are the job's moving-load generation settings (spec
// "Moving-load settings"). LoadedArea holds [x, y] rows in m; the HTTP edge
// converts them, since the generic unit tags do not reach nested arrays.
// LengthUnit and ForceUnit echo the job units and are never stored.
type MovingLoadSettings struct {
	RetainLoads               bool        `json:"retainLoads"`
	ApplyToClosestMember      bool        `json:"applyToClosestMember"`
	IgnoreLoadsOnOneMember    bool        `json:"ignoreLoadsOnOneMember"`
	CheckVerticalProximity    bool        `json:"checkVerticalProximity"`
	VerticalProximity         float64     `json:"verticalProximity" unit:"length" min:"0"`
	KeepLoadsWithinTravelPath bool        `json:"keepLoadsWithinTravelPath"`
	IgnoreOutsideLoadedArea   bool        `json:"ignoreOutsideLoadedArea"`
	LoadedArea                [][]float64 `json:"loadedArea"`
	LengthUnit                string      `json:"lengthUnit" ro:"true"`
	ForceUnit                 string      `json:"forceUnit" ro:"true"`
}

// DefaultMovingLoadSettings are the settings of a job that never set them.
func DefaultMovingLoadSettings() MovingLoadSettings {
	return MovingLoadSettings{VerticalProximity: DefaultVerticalProximity, LoadedArea: [][]float64{}}
}

// MovingLoadElements selects the members and plates moving loads may be
// applied to, as normalised id lists; empty means none selected.
type MovingLoadElements struct {
	Members string `json:"members"`
	Plates  string `json:"plates"`
}

// VehicleLoad is one point load of a vehicle in the vehicle's plan frame
// (pkg/model/vehicles: x in the direction of travel with the leading axle
// at 0, y to the driver's left, z up, so gravity loads have fz < 0).
type VehicleLoad struct {
	X  float64 `json:"x" unit:"length"`
	Y  float64 `json:"y" unit:"length"`
	Fx float64 `json:"fx" unit:"force"`
	Fy float64 `json:"fy" unit:"force"`
	Fz float64 `json:"fz" unit:"force"`
	Mx float64 `json:"mx" unit:"moment"`
	My float64 `json:"my" unit:"moment"`
	Mz float64 `json:"mz" unit:"moment"`
}

// VehicleLoadUnits names the units a vehicle's loads are presented in.
type VehicleLoadUnits struct {
	Length string `json:"length" ro:"true"`
	Force  string `json:"force" ro:"true"`
	Moment string `json:"moment" ro:"true"`
}

// Vehicle is a moving-load vehicle: a set of point loads. Loads are stored
// in SI (m, N, N·m) and cross the edge in the job units, which LoadUnits
// (read-only, never stored) names.
type Vehicle struct {
	ID        int64            `json:"id"`
	Name      string           `json:"name" req:"true"`
	Source    string           `json:"source" ro:"true" enum:"User|Library"`
	Library   string           `json:"library" ro:"true"`
	Loads     []VehicleLoad    `json:"loads" req:"true"`
	LoadUnits VehicleLoadUnits `json:"loadUnits" ro:"true"`
}

// MovingPressure is a rectangular patch pressure that travels like a
// vehicle: width across and length along the direction of travel, the
// pressure components (force per area), and the spacing of the point loads
// the generator will discretise it into.
type MovingPressure struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name" req:"true"`
	Width       float64 `json:"width" unit:"length" req:"true" min:"0" exclusive:"true"`
	Length      float64 `json:"length" unit:"length" req:"true" min:"0" exclusive:"true"`
	Px          float64 `json:"px" unit:"force/length^2"`
	Py          float64 `json:"py" unit:"force/length^2"`
	Pz          float64 `json:"pz" unit:"force/length^2"`
	LoadSpacing float64 `json:"loadSpacing" unit:"length" req:"true" min:"0" exclusive:"true"`
}

// TravelStation is one station of a travel path: at node NodeKey when it
// is not 0 (the coordinates are then the node's), else at (X, Y, Z). Radius
// rounds the path's corner at the station (0: a sharp corner).
type TravelStation struct {
	NodeKey int64   `json:"nodeKey"`
	X       float64 `json:"x" unit:"length"`
	Y       float64 `json:"y" unit:"length"`
	Z       float64 `json:"z" unit:"length"`
	Radius  float64 `json:"radius" unit:"length" min:"0"`
}

// TravelPath is the line a moving load follows, through its stations.
type TravelPath struct {
	ID          int64           `json:"id"`
	Name        string          `json:"name" req:"true"`
	HasStations bool            `json:"hasStations" ro:"true"`
	Stations    []TravelStation `json:"stations,omitempty"`
}

// ScenarioLoad is one vehicle or pressure of a scenario on a travel path.
// Speed is a length per second; delay is in s; startPosition is the
// distance along the path of the load's leading edge at time 0.
type ScenarioLoad struct {
	LoadType             string  `json:"loadType" enum:"Vehicle|Pressure"`
	VehicleID            int64   `json:"vehicleId"`
	PressureID           int64   `json:"pressureId"`
	TravelPathID         int64   `json:"travelPathId"`
	Speed                float64 `json:"speed" unit:"length" min:"0"`
	Delay                float64 `json:"delay" min:"0"`
	StartPosition        float64 `json:"startPosition" unit:"length"`
	LoadFactor           float64 `json:"loadFactor"`
	LaneFactor           float64 `json:"laneFactor" min:"0"`
	DynamicFactor        float64 `json:"dynamicFactor" min:"0"`
	GenerateStationaryLc string  `json:"generateStationaryLc" enum:"StartingLoadCase|AllLoadCases"`
}

// ScenarioCombination combines the scenario's generated cases (times
// ScenarioFactor) with an existing case (times LoadCaseFactor; 0: none),
// numbering the results from StartingCombinationCase (0: after the
// greatest case in use at generation).
type ScenarioCombination struct {
	ScenarioFactor          float64 `json:"scenarioFactor"`
	CombineWithLoadCase     int64   `json:"combineWithLoadCase"`
	LoadCaseFactor          float64 `json:"loadCaseFactor"`
	StartingCombinationCase int64   `json:"startingCombinationCase"`
}

// Scenario is a set of moving loads generated together. StartingLoadCase
// numbers the generated cases (0: after the greatest case in use at
// generation); TimeInterval is the time step between them, s.
type Scenario struct {
	ID               int64                 `json:"id"`
	Name             string                `json:"name" req:"true"`
	Include          bool                  `json:"include"`
	StartingLoadCase int64                 `json:"startingLoadCase"`
	TimeInterval     float64               `json:"timeInterval" min:"0" exclusive:"true"`
	HasLoads         bool                  `json:"hasLoads" ro:"true"`
	HasCombinations  bool                  `json:"hasCombinations" ro:"true"`
	Loads            []ScenarioLoad        `json:"loads,omitempty"`
	Combinations     []ScenarioCombination `json:"combinations,omitempty"`
}

// strictDecode decodes b into v, rejecting unknown properties like every
// request body.
func strictDecode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// UnmarshalJSON rejects unknown properties.
func (l *VehicleLoad) UnmarshalJSON(b []byte) error {
	type plain VehicleLoad
	return strictDecode(b, (*plain)(l))
}

// UnmarshalJSON rejects unknown properties.
func (s *TravelStation) UnmarshalJSON(b []byte) error {
	type plain TravelStation
	return strictDecode(b, (*plain)(s))
}

// DefaultScenarioLoad is a scenario load before the client's fields: a
// vehicle, all factors 1, stationary cases for the starting case only.
func DefaultScenarioLoad() ScenarioLoad {
	return ScenarioLoad{LoadType: MovingLoadVehicle, LoadFactor: 1, LaneFactor: 1, DynamicFactor: 1,
		GenerateStationaryLc: StationaryStarting}
}

// UnmarshalJSON fills the defaults of omitted fields and rejects unknown
// properties.
func (l *ScenarioLoad) UnmarshalJSON(b []byte) error {
	type plain ScenarioLoad
	v := plain(DefaultScenarioLoad())
	if err := strictDecode(b, &v); err != nil {
		return err
	}
	*l = ScenarioLoad(v)
	return nil
}

// DefaultScenarioCombination has both factors 1.
func DefaultScenarioCombination() ScenarioCombination {
	return ScenarioCombination{ScenarioFactor: 1, LoadCaseFactor: 1}
}

// UnmarshalJSON fills the defaults of omitted fields and rejects unknown
// properties.
func (c *ScenarioCombination) UnmarshalJSON(b []byte) error {
	type plain ScenarioCombination
	v := plain(DefaultScenarioCombination())
	if err := strictDecode(b, &v); err != nil {
		return err
	}
	*c = ScenarioCombination(v)
	return nil
}

// validateName checks the name every moving-load record carries.
func validateName(name string) error {
	switch n := utf8.RuneCountInString(name); {
	case strings.TrimSpace(name) == "":
		return Invalid("name", "name is required and must not be blank")
	case n > MaxMovingLoadName:
		return Invalid("name", "name has %d characters; at most %d are allowed", n, MaxMovingLoadName)
	}
	return nil
}

// finite checks named values: finite, and at least 0 where nonNeg says so.
func checkValues(vals []namedValue) error {
	for _, v := range vals {
		switch {
		case math.IsNaN(v.v) || math.IsInf(v.v, 0):
			return Invalid(v.name, "%s must be a finite number", v.name)
		case v.min == boundNonNeg && v.v < 0:
			return Invalid(v.name, "%s must be zero or more, got %g", v.name, v.v)
		case v.min == boundPositive && v.v <= 0:
			return Invalid(v.name, "%s must be greater than zero, got %g", v.name, v.v)
		}
	}
	return nil
}

// namedValue is a number to check, its field name and its bound.
type namedValue struct {
	name string
	v    float64
	min  int
}

const (
	boundNone = iota
	boundNonNeg
	boundPositive
)

// Validate checks the settings and makes an empty loaded area [].
func (x *MovingLoadSettings) Validate() error {
	if err := checkValues([]namedValue{{"verticalProximity", x.VerticalProximity, boundNonNeg}}); err != nil {
		return err
	}
	if len(x.LoadedArea) == 0 {
		x.LoadedArea = [][]float64{}
		return nil
	}
	return ValidateLoadedArea(x.LoadedArea)
}

// ValidateLoadedArea checks a loaded-area polygon: at most
// MaxLoadedAreaRows rows of exactly [x, y], forming a simple polygon of at
// least 3 points (geom.ValidateSimplePolygon).
func ValidateLoadedArea(rows [][]float64) error {
	if len(rows) > MaxLoadedAreaRows {
		return Invalid("loadedArea", "loadedArea has %d rows; at most %d are allowed", len(rows), MaxLoadedAreaRows)
	}
	pts := make([][2]float64, len(rows))
	for i, r := range rows {
		if len(r) != 2 {
			return Invalid(fmt.Sprintf("loadedArea[%d]", i), "loadedArea[%d] must be a row [x, y] of 2 numbers, got %d", i, len(r))
		}
		pts[i] = [2]float64{r[0], r[1]}
	}
	if err := geom.ValidateSimplePolygon(pts); err != nil {
		return Invalid("loadedArea", "loadedArea must be a simple polygon: %v", err)
	}
	return nil
}

// Validate checks and normalises the two id lists ("" is none).
func (x *MovingLoadElements) Validate() error {
	for _, f := range []struct {
		name string
		v    *string
	}{{"members", &x.Members}, {"plates", &x.Plates}} {
		list, ok, err := ParseIDList(f.name, *f.v)
		if err != nil {
			return err
		}
		*f.v = ""
		if ok {
			*f.v = list.String()
		}
	}
	return nil
}

// Validate checks a vehicle on its own.
func (v *Vehicle) Validate() error {
	if err := validateName(v.Name); err != nil {
		return err
	}
	switch n := len(v.Loads); {
	case n == 0:
		return Invalid("loads", "a vehicle needs at least one load")
	case n > MaxVehicleLoads:
		return Invalid("loads", "a vehicle has at most %d loads, got %d", MaxVehicleLoads, n)
	}
	for i, l := range v.Loads {
		p := fmt.Sprintf("loads[%d].", i)
		if err := checkValues([]namedValue{{p + "x", l.X, boundNone}, {p + "y", l.Y, boundNone}, {p + "fx", l.Fx, boundNone},
			{p + "fy", l.Fy, boundNone}, {p + "fz", l.Fz, boundNone}, {p + "mx", l.Mx, boundNone}, {p + "my", l.My, boundNone},
			{p + "mz", l.Mz, boundNone}}); err != nil {
			return err
		}
	}
	return nil
}

// Validate checks a pressure on its own.
func (p *MovingPressure) Validate() error {
	if err := validateName(p.Name); err != nil {
		return err
	}
	return checkValues([]namedValue{{"width", p.Width, boundPositive}, {"length", p.Length, boundPositive},
		{"px", p.Px, boundNone}, {"py", p.Py, boundNone}, {"pz", p.Pz, boundNone}, {"loadSpacing", p.LoadSpacing, boundPositive}})
}

// Validate checks a travel path on its own; its nodes are references.
func (p *TravelPath) Validate() error {
	if err := validateName(p.Name); err != nil {
		return err
	}
	if len(p.Stations) == 0 {
		return nil // a path may be named first and given its stations later
	}
	return ValidateStations(p.Stations)
}

// ValidateStations checks a travel path's stations: 2 to
// MaxTravelStations of them, finite coordinates, radius at least 0 and
// nodeKey 0 or a valid id (its existence is checked as a reference).
func ValidateStations(st []TravelStation) error {
	if len(st) < 2 || len(st) > MaxTravelStations {
		return Invalid("stations", "a travel path needs 2 to %d stations, got %d", MaxTravelStations, len(st))
	}
	for i, s := range st {
		p := fmt.Sprintf("stations[%d].", i)
		if s.NodeKey < 0 || s.NodeKey > MaxID {
			return Invalid(p+"nodeKey", "%snodeKey must be 0 (no node) or a node id from 1 to %d, got %d", p, MaxID, s.NodeKey)
		}
		if err := checkValues([]namedValue{{p + "x", s.X, boundNone}, {p + "y", s.Y, boundNone}, {p + "z", s.Z, boundNone},
			{p + "radius", s.Radius, boundNonNeg}}); err != nil {
			return err
		}
	}
	return nil
}

// Validate checks a scenario on its own; what it names are references.
func (x *Scenario) Validate() error {
	if err := validateName(x.Name); err != nil {
		return err
	}
	if x.StartingLoadCase < 0 || x.StartingLoadCase > MaxID {
		return Invalid("startingLoadCase", "startingLoadCase must be 0 (after the greatest case in use) or an id from 1 to %d", MaxID)
	}
	if err := checkValues([]namedValue{{"timeInterval", x.TimeInterval, boundPositive}}); err != nil {
		return err
	}
	if err := ValidateScenarioLoads(x.Loads); err != nil {
		return err
	}
	return ValidateScenarioCombinations(x.Combinations)
}

// ValidateScenarioLoads checks the loads of a scenario on their own; the
// vehicles, pressures and travel paths they name are checked as references.
func ValidateScenarioLoads(loads []ScenarioLoad) error {
	if len(loads) > MaxScenarioLoads {
		return Invalid("loads", "a scenario has at most %d loads, got %d", MaxScenarioLoads, len(loads))
	}
	for i, l := range loads {
		p := fmt.Sprintf("loads[%d].", i)
		switch l.LoadType {
		case MovingLoadVehicle:
			if l.VehicleID < 1 || l.PressureID != 0 {
				return Invalid(p+"vehicleId", "%svehicleId is required for a Vehicle load (and pressureId must be 0)", p)
			}
		case MovingLoadPressure:
			if l.PressureID < 1 || l.VehicleID != 0 {
				return Invalid(p+"pressureId", "%spressureId is required for a Pressure load (and vehicleId must be 0)", p)
			}
		default:
			return Invalid(p+"loadType", "%sloadType must be Vehicle or Pressure, got %q", p, l.LoadType)
		}
		if l.TravelPathID < 1 {
			return Invalid(p+"travelPathId", "%stravelPathId is required", p)
		}
		if l.GenerateStationaryLc != StationaryStarting && l.GenerateStationaryLc != StationaryAll {
			return Invalid(p+"generateStationaryLc", "%sgenerateStationaryLc must be StartingLoadCase or AllLoadCases, got %q", p, l.GenerateStationaryLc)
		}
		if err := checkValues([]namedValue{{p + "speed", l.Speed, boundNonNeg}, {p + "delay", l.Delay, boundNonNeg},
			{p + "startPosition", l.StartPosition, boundNone}, {p + "loadFactor", l.LoadFactor, boundNone},
			{p + "laneFactor", l.LaneFactor, boundNonNeg}, {p + "dynamicFactor", l.DynamicFactor, boundNonNeg}}); err != nil {
			return err
		}
	}
	return nil
}

// ValidateScenarioCombinations checks the combinations of a scenario.
func ValidateScenarioCombinations(cs []ScenarioCombination) error {
	if len(cs) > MaxScenarioCombos {
		return Invalid("combinations", "a scenario has at most %d combinations, got %d", MaxScenarioCombos, len(cs))
	}
	for i, c := range cs {
		p := fmt.Sprintf("combinations[%d].", i)
		if c.CombineWithLoadCase < 0 || c.StartingCombinationCase < 0 || c.StartingCombinationCase > MaxID {
			return Invalid(p+"combineWithLoadCase", "%scombineWithLoadCase and startingCombinationCase must be 0 or an id from 1 to %d", p, MaxID)
		}
		if err := checkValues([]namedValue{{p + "scenarioFactor", c.ScenarioFactor, boundNone}, {p + "loadCaseFactor", c.LoadCaseFactor, boundNone}}); err != nil {
			return err
		}
	}
	return nil
}
