package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/model/vehicles"
)

const movingPath = loadsPath + "/moving-loads"

// ElementsPatch is the body of PATCH moving-loads/elements-to-load.
type ElementsPatch struct {
	Members *string `json:"members" example:"1-3" doc:"id list such as \"1,3-7\"; an empty string clears the selection; omitted (or null) keeps it"`
	Plates  *string `json:"plates" doc:"id list such as \"1,3-7\"; an empty string clears the selection; omitted (or null) keeps it"`
}

// GenerateRequest is the optional body of POST moving-loads/generate.
type GenerateRequest struct {
	LoadCategory *int64 `json:"loadCategory" doc:"an existing load category id; omitted: a category named Moving loads is reused or created"`
}

// GenerateResponse is what a generation answers (spec "Moving-load settings").
type GenerateResponse struct {
	GeneratedLoadCaseIDs []int64  `json:"generatedLoadCaseIds" doc:"ids of every moving-load case present after the generation: the load and combination cases of each scenario's last generation, kept cases of excluded scenarios included"`
	GeneratedGroups      []string `json:"generatedGroups" doc:"titles of the load-case groups this generation wrote: one per included scenario, and one more for its combinations"`
}

// VehicleLibraryRequest is the body of POST moving-loads/vehicles/library.
type VehicleLibraryRequest struct {
	ID      int64  `json:"id,omitempty" doc:"optional id; the next free id when omitted"`
	Name    string `json:"name" req:"true" example:"M1600" doc:"vehicle name in the library, e.g. \"M1600\" or \"HL-93 Design Truck\""`
	Library string `json:"library" req:"true" example:"AS5100" doc:"AS5100 or AASHTO"`
}

// StationsBody is the body of GET and PUT travel-paths/{id}/stations.
type StationsBody struct {
	Stations []model.TravelStation `json:"stations"`
}

// ScenarioLoadsBody is the body of GET and PUT scenarios/{id}/loads.
type ScenarioLoadsBody struct {
	Loads []model.ScenarioLoad `json:"loads"`
}

// ScenarioCombinationsBody is the body of GET and PUT scenarios/{id}/combinations.
type ScenarioCombinationsBody struct {
	Combinations []model.ScenarioCombination `json:"combinations"`
}

const movingUnitsDoc = " Values cross the edge in the job units (Length, Force, Moment; pressures in Force/Length²) and are stored in SI; " +
	"speeds are a job length per second, times (delay, timeInterval) are seconds."

func (a *API) registerMovingLoadRoutes() {
	m := a.loads.Moving
	const tag = "Moving loads"
	a.registerMovingSettings(tag)

	veh := &collection[model.Vehicle]{a: a, c: m.Vehicles, path: movingPath + "/vehicles", tag: tag, idFilter: "vehicles",
		desc: "Vehicles are sets of point loads in the vehicle's plan frame: x in the direction of travel with the leading axle at x = 0, " +
			"y to the driver's left, z up, so gravity loads have fz < 0. Loads are stored in SI and presented in the job units " +
			"(length, force, moment); loadUnits is read-only and names the units the loads are given in, which are always the job units " +
			"at the time of the request. source (User or Library) and library are read-only. A vehicle used by a scenario cannot be deleted (409)." +
			" Lane loads of library design vehicles are not part of the record: model them as pressures."}
	veh.hydrate = func(ctx context.Context, ws string, recs []model.Vehicle, _ bool) error {
		job, err := a.sess.Job(ctx, ws)
		if err != nil {
			return err
		}
		for i := range recs {
			recs[i].LoadUnits = model.VehicleLoadUnits{Length: job.Units.Length, Force: job.Units.Force, Moment: job.Units.Moment}
		}
		return nil
	}
	veh.remove = removeRowsOf(m.Vehicles)
	veh.extraRoutes = func() {
		a.add(route{method: "POST", path: veh.path + "/library", tag: tag, summary: "Create a vehicle from a built-in library",
			desc: "Libraries: " + strings.Join(vehicles.Libraries(), ", ") + ". AS5100: " + strings.Join(vehicles.Names("AS5100"), ", ") +
				" (AS 5100.2:2017, minimum variable spacing 6.25 m). AASHTO: " + strings.Join(vehicles.Names("AASHTO"), ", ") +
				" (AASHTO LRFD, truck at its 14 ft minimum rear spacing). Names match case-insensitively. A miss is a 400 naming the library " +
				"and the vehicle. Only the point (wheel) loads are copied; a library entry that is a lane load alone is a 400.",
			body: VehicleLibraryRequest{}, bodyRequired: true, responses: map[int]any{201: model.Vehicle{}}, errors: []int{400, 409},
			handler: func(c *fiber.Ctx) error { return a.vehicleFromLibrary(c, veh) }})
		a.add(a.nestedMetadata(veh.path+"/loads/metadata", tag, "VehicleLoad", reflect.TypeOf(model.VehicleLoad{}), nil))
	}
	veh.register()

	pr := &collection[model.MovingPressure]{a: a, c: m.Pressures, path: movingPath + "/pressures", tag: tag, idFilter: "pressures",
		desc: "A rectangular patch load that travels like a vehicle: width across and length along the direction of travel (> 0), " +
			"px, py, pz in the job Force/Length² (kN/m² by default; not the pressure unit of plate pressure loads, so that saved " +
			"scenarios keep their meaning), and loadSpacing (> 0), the spacing of the point loads it is " +
			"discretised into. A pressure used by a scenario cannot be deleted (409)." + movingUnitsDoc}
	pr.remove = removeRowsOf(m.Pressures)
	pr.register()

	tp := &collection[model.TravelPath]{a: a, c: m.TravelPaths, path: movingPath + "/travel-paths", tag: tag, idFilter: "travelPaths",
		expandable: []string{"stations"},
		desc: "stations: none (a path named first) or 2 to 1000, each at node nodeKey (its x, y, z are then the node's current " +
			"coordinates; sent ones are ignored) or, with nodeKey 0, at (x, y, z); radius (>= 0) rounds the corner at the station. " +
			"Deleting a node turns its stations into coordinate stations at the node's last position. A travel path used by a " +
			"scenario cannot be deleted (409). Lists leave stations out unless expand=All." + movingUnitsDoc}
	tp.hydrate = m.HydrateTravelPaths
	tp.remove = removeRowsOf(m.TravelPaths)
	tp.extraRoutes = func() {
		a.add(a.nestedMetadata(tp.path+"/stations/metadata", tag, "TravelStation", reflect.TypeOf(model.TravelStation{}), nil))
		listRoutes(a, tp, "stations", "Replaces the stations: 2 to 1000, rules as on the travel path.", model.TravelStation{},
			func(r *model.TravelPath) []model.TravelStation { return r.Stations },
			func(r *model.TravelPath, s []model.TravelStation) error {
				r.Stations = s
				return model.ValidateStations(s)
			}, func(s []model.TravelStation) StationsBody { return StationsBody{Stations: s} })
	}
	tp.register()

	sc := &collection[model.Scenario]{a: a, c: m.Scenarios, path: movingPath + "/scenarios", tag: tag, idFilter: "scenarios",
		expandable: []string{"loads", "combinations"},
		desc: "include defaults to true, timeInterval (s, > 0) to 1. startingLoadCase and startingCombinationCase: 0 numbers the " +
			"generated cases after the greatest in use at generation. Loads: loadType Vehicle (vehicleId) or Pressure (pressureId), " +
			"travelPathId; the vehicle, pressure and travel path must exist. Defaults: loadFactor, laneFactor, dynamicFactor 1, " +
			"generateStationaryLc StartingLoadCase. Combinations: scenarioFactor and loadCaseFactor default 1; combineWithLoadCase " +
			"0 (none) or an existing load case. Lists leave loads and combinations out unless expand=All." + movingUnitsDoc}
	sc.hydrate = func(_ context.Context, _ string, recs []model.Scenario, all bool) error {
		for i := range recs {
			recs[i].HasLoads, recs[i].HasCombinations = len(recs[i].Loads) > 0, len(recs[i].Combinations) > 0
			if !all {
				recs[i].Loads, recs[i].Combinations = nil, nil
			}
		}
		return nil
	}
	sc.remove = removeRowsOf(m.Scenarios)
	sc.extraRoutes = func() {
		a.add(a.nestedMetadata(sc.path+"/loads/metadata", tag, "ScenarioLoad", reflect.TypeOf(model.ScenarioLoad{}),
			map[string]string{"speed": "/s", "delay": "s"}))
		a.add(a.nestedMetadata(sc.path+"/combinations/metadata", tag, "ScenarioCombination", reflect.TypeOf(model.ScenarioCombination{}), nil))
		listRoutes(a, sc, "loads", "Replaces the loads (an empty array clears them); the vehicles, pressures and travel paths must exist.",
			model.DefaultScenarioLoad(), func(r *model.Scenario) []model.ScenarioLoad { return r.Loads },
			func(r *model.Scenario, l []model.ScenarioLoad) error { r.Loads = l; return nil },
			func(l []model.ScenarioLoad) ScenarioLoadsBody { return ScenarioLoadsBody{Loads: l} })
		listRoutes(a, sc, "combinations", "Replaces the combinations (an empty array clears them); combineWithLoadCase is 0 or an existing case.",
			model.DefaultScenarioCombination(), func(r *model.Scenario) []model.ScenarioCombination { return r.Combinations },
			func(r *model.Scenario, l []model.ScenarioCombination) error { r.Combinations = l; return nil },
			func(l []model.ScenarioCombination) ScenarioCombinationsBody {
				return ScenarioCombinationsBody{Combinations: l}
			})
	}
	sc.register()

	a.add(route{method: "POST", path: movingPath + "/generate", tag: tag, summary: "Generate the moving-load cases",
		desc: generateDoc, body: GenerateRequest{}, responses: map[int]any{200: GenerateResponse{}}, errors: []int{400, 409},
		handler: func(c *fiber.Ctx) error {
			var req GenerateRequest
			if err := decodeJSON(c, &req, false); err != nil {
				return err
			}
			var cat int64
			if req.LoadCategory != nil {
				cat = *req.LoadCategory
			}
			out, err := m.Generate(c.UserContext(), workspace(c), cat, req.LoadCategory != nil)
			if err != nil {
				return err
			}
			return c.JSON(GenerateResponse{GeneratedLoadCaseIDs: out.LoadCases, GeneratedGroups: out.Groups})
		}})
}

// nestedMetadata serves the field metadata of the rows of a nested list,
// with units resolved against the job units; suffix appends to (or, for
// unitless fields, sets) the unit label of named fields.
func (a *API) nestedMetadata(path, tag, name string, t reflect.Type, suffix map[string]string) route {
	return route{method: "GET", path: path, tag: tag, summary: "Describe the " + name + " fields",
		responses: map[int]any{200: Metadata{}}, errors: []int{409}, handler: func(c *fiber.Ctx) error {
			u, err := a.jobUnits(c)
			if err != nil {
				return err
			}
			md := Metadata{ResourceType: name, Fields: fieldMetadata(t, u, "")}
			for i, f := range md.Fields {
				if s, ok := suffix[f.JSONName]; ok {
					l := s
					if f.Units != nil {
						l = *f.Units + s
					}
					md.Fields[i].Units = &l
				}
			}
			return c.JSON(md)
		}}
}

// listRoutes serves GET and PUT {path}/:id/{name}: a nested list read and
// replaced as a whole through the collection's update, so every rule of
// the record (and its references) applies to the new list.
func listRoutes[T, E, B any](a *API, h *collection[T], name, putDesc string, def E, get func(*T) []E, set func(*T, []E) error, body func([]E) B) {
	wire := func(c *fiber.Ctx, rec T, u model.Units) error {
		recs := []T{rec}
		if h.hydrate != nil {
			if err := h.hydrate(c.UserContext(), workspace(c), recs, true); err != nil {
				return err
			}
		}
		list := get(&recs[0])
		if list == nil {
			list = []E{}
		}
		return c.JSON(toWire(body(list), u))
	}
	zero := body(nil)
	a.add(route{method: "GET", path: h.path + "/:id/" + name, tag: h.tag, summary: "Get the " + name + " of a " + h.noun(),
		responses: map[int]any{200: zero}, errors: []int{400, 404, 409}, handler: func(c *fiber.Ctx) error {
			key, err := h.pathKey(c)
			if err != nil {
				return err
			}
			u, err := h.units(c)
			if err != nil {
				return err
			}
			rec, err := h.c.Get(c.UserContext(), workspace(c), key...)
			if err != nil {
				return err
			}
			return wire(c, rec, u)
		}})
	a.add(route{method: "PUT", path: h.path + "/:id/" + name, tag: h.tag, summary: "Replace the " + name + " of a " + h.noun(),
		desc: putDesc + " Body: {\"" + name + "\": [...]}.", body: zero, bodyRequired: true, responses: map[int]any{200: zero},
		errors: []int{400, 404, 409}, handler: func(c *fiber.Ctx) error {
			u, err := h.units(c)
			if err != nil {
				return err
			}
			list, err := decodeList(c, name, u, def)
			if err != nil {
				return err
			}
			key, err := h.pathKey(c)
			if err != nil {
				return err
			}
			if _, err := h.c.Get(c.UserContext(), workspace(c), key...); err != nil {
				return err
			}
			rec, _, err := subUpdate(c, h, func(r *T, _ model.Units) error { return set(r, list) })
			if err != nil {
				return err
			}
			return wire(c, rec, u)
		}})
}

// decodeList reads a body {name: [rows]}: each row is merged field by field
// into def (so omitted fields keep their defaults), with unit conversion
// and errors that name the row ("stations[2].radius").
func decodeList[E any](c *fiber.Ctx, name string, u model.Units, def E) ([]E, error) {
	if err := requireJSON(c); err != nil {
		return nil, err
	}
	fields, err := objectFields(c.Body(), "")
	if err != nil {
		return nil, err
	}
	for k := range fields {
		if k != name {
			return nil, model.Invalid(k, "unknown property %q; the body is {\"%s\": [...]}", k, name)
		}
	}
	raw, ok := fields[name]
	if !ok {
		return nil, model.Invalid(name, "%s is required", name)
	}
	var rows []json.RawMessage
	if err := json.Unmarshal(raw, &rows); err != nil || rows == nil {
		return nil, model.Invalid(name, "%s must be an array of objects", name)
	}
	out := make([]E, len(rows))
	for i, r := range rows {
		p := fmt.Sprintf("%s[%d]", name, i)
		f, err := objectFields(r, p)
		if err != nil {
			return nil, err
		}
		out[i] = def
		if err := mergeFields(reflect.ValueOf(&out[i]), f, u, p); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// jobUnits reads the job units of the request's workspace.
func (a *API) jobUnits(c *fiber.Ctx) (model.Units, error) {
	job, err := a.sess.Job(c.UserContext(), workspace(c))
	return job.Units, err
}

func (a *API) vehicleFromLibrary(c *fiber.Ctx, h *collection[model.Vehicle]) error {
	var req VehicleLibraryRequest
	if err := decodeJSON(c, &req, true); err != nil {
		return err
	}
	if err := checkRequest(&req); err != nil {
		return err
	}
	u, err := h.units(c)
	if err != nil {
		return err
	}
	lv, err := vehicles.Lookup(req.Library, req.Name)
	if err != nil {
		return model.Invalid("name", "%v", err)
	}
	if len(lv.Loads) == 0 {
		return model.Invalid("name", "%s %q is a lane load without point loads (%s); model it as a pressure", lv.Library, lv.Name, lv.Description)
	}
	rec := model.Vehicle{Name: lv.Name, Source: model.SourceLibrary, Library: lv.Library, Loads: make([]model.VehicleLoad, len(lv.Loads))}
	for i, l := range lv.Loads {
		rec.Loads[i] = model.VehicleLoad{X: l.X, Y: l.Y, Fx: l.Fx, Fy: l.Fy, Fz: l.Fz, Mx: l.Mx, My: l.My, Mz: l.Mz}
	}
	rec.ID = req.ID
	it := editor.Item[model.Vehicle]{Rec: rec, HasKey: req.ID != 0}
	out, err := h.c.Create(c.UserContext(), workspace(c), []editor.Item[model.Vehicle]{it}, false)
	if err != nil {
		return unwrapSingle(err)
	}
	return h.respond(c, fiber.StatusCreated, out.Records[0], true, u)
}

// settingsWire presents stored settings in the job units.
func settingsWire(rec model.MovingLoadSettings, u model.Units) model.MovingLoadSettings {
	out := toWire(rec, u)
	f := factorOf(parseUnitExpr("length"), u)
	out.LoadedArea = make([][]float64, len(rec.LoadedArea))
	for i, row := range rec.LoadedArea {
		out.LoadedArea[i] = make([]float64, len(row))
		for j, v := range row {
			out.LoadedArea[i][j] = v / f
		}
	}
	out.LengthUnit, out.ForceUnit = u.Length, u.Force
	return out
}

// mergeSettings merges a PATCH body into stored settings: the scalar
// fields through the unit tags, loadedArea by hand (rows of [x, y] in the
// job length unit, replacing the whole polygon; [] or null clears it).
func mergeSettings(rec *model.MovingLoadSettings, fields map[string]json.RawMessage, u model.Units) error {
	area, hasArea := fields["loadedArea"]
	rest := map[string]json.RawMessage{}
	for k, v := range fields {
		if k != "loadedArea" {
			rest[k] = v
		}
	}
	if err := mergeFields(reflect.ValueOf(rec), rest, u, ""); err != nil {
		return err
	}
	if !hasArea {
		return nil
	}
	var rows [][]float64
	if err := json.Unmarshal(area, &rows); err != nil {
		return model.Invalid("loadedArea", "loadedArea must be an array of [x, y] rows of numbers")
	}
	if len(rows) > model.MaxLoadedAreaRows {
		return model.Invalid("loadedArea", "loadedArea has %d rows; at most %d are allowed", len(rows), model.MaxLoadedAreaRows)
	}
	f := factorOf(parseUnitExpr("length"), u)
	for _, row := range rows {
		for j := range row {
			row[j] *= f
		}
	}
	if rows == nil {
		rows = [][]float64{}
	}
	rec.LoadedArea = rows
	return nil
}

func (a *API) registerMovingSettings(tag string) {
	m := a.loads.Moving
	sp := movingPath + "/settings"
	a.add(route{method: "GET", path: sp, tag: tag, summary: "Get the moving-load settings",
		desc: "verticalProximity and the loadedArea rows are in the job length unit. lengthUnit and forceUnit are read-only: " +
			"the job units, changed through PATCH /job/units. A job that never set them has every flag false, " +
			"verticalProximity 1 m and no loaded area.",
		responses: map[int]any{200: model.MovingLoadSettings{}}, errors: []int{409}, handler: func(c *fiber.Ctx) error {
			u, err := a.jobUnits(c)
			if err != nil {
				return err
			}
			rec, err := editor.GetSingleton(c.UserContext(), m.Settings, workspace(c), model.DefaultMovingLoadSettings)
			if err != nil {
				return err
			}
			return c.JSON(settingsWire(rec, u))
		}})
	a.add(route{method: "PATCH", path: sp, tag: tag, summary: "Update the moving-load settings (only the supplied fields change)",
		desc: fmt.Sprintf("verticalProximity >= 0. loadedArea, when present, replaces the whole polygon: rows of [x, y] forming a simple "+
			"polygon (at least 3 points, no repeated points, no crossing or touching edges, non-zero area; the ring closes by itself), "+
			"at most %d rows; an empty array (or null) clears it. lengthUnit and forceUnit are read-only.", model.MaxLoadedAreaRows),
		body: model.MovingLoadSettings{}, bodyRequired: true, responses: map[int]any{200: model.MovingLoadSettings{}}, errors: []int{400, 409},
		handler: func(c *fiber.Ctx) error {
			if err := requireJSON(c); err != nil {
				return err
			}
			fields, err := objectFields(c.Body(), "")
			if err != nil {
				return err
			}
			u, err := a.jobUnits(c)
			if err != nil {
				return err
			}
			if len(fields) == 0 { // nothing to change: do not mark the job modified
				rec, err := editor.GetSingleton(c.UserContext(), m.Settings, workspace(c), model.DefaultMovingLoadSettings)
				if err != nil {
					return err
				}
				return c.JSON(settingsWire(rec, u))
			}
			rec, err := editor.PatchSingleton(c.UserContext(), m.Settings, workspace(c), model.DefaultMovingLoadSettings,
				func(r *model.MovingLoadSettings) error { return mergeSettings(r, fields, u) })
			if err != nil {
				return err
			}
			return c.JSON(settingsWire(rec, u))
		}})
	a.add(route{method: "GET", path: sp + "/metadata", tag: tag, summary: "Describe the moving-load settings fields",
		responses: map[int]any{200: Metadata{}}, errors: []int{409}, handler: func(c *fiber.Ctx) error {
			u, err := a.jobUnits(c)
			if err != nil {
				return err
			}
			md := Metadata{ResourceType: "MovingLoadSettings", Fields: fieldMetadata(reflect.TypeOf(model.MovingLoadSettings{}), u, "")}
			for i, f := range md.Fields {
				if f.JSONName == "loadedArea" {
					l := u.Length + ", " + u.Length
					md.Fields[i].Units = &l
					md.Fields[i].Description = fmt.Sprintf("table rows of [x, y]; a simple polygon of at least 3 points, at most %d rows", model.MaxLoadedAreaRows)
				}
			}
			return c.JSON(md)
		}})
	a.add(route{method: "GET", path: sp + "/loaded-area/metadata", tag: tag, summary: "Describe the loaded-area table",
		desc:      fmt.Sprintf("Columns x and y in the job length unit; maxRows is %d.", model.MaxLoadedAreaRows),
		responses: map[int]any{200: TableMetadata{}}, errors: []int{409}, handler: func(c *fiber.Ctx) error {
			u, err := a.jobUnits(c)
			if err != nil {
				return err
			}
			md := TableMetadata{TableName: "loadedArea", MaxRows: model.MaxLoadedAreaRows}
			for _, name := range []string{"x", "y"} {
				l := u.Length
				md.Columns = append(md.Columns, FieldMetadata{JSONName: name, DataType: "Double", Units: &l,
					AllowedValues: []AllowedValue{}, Description: name + " coordinate of a polygon point"})
			}
			return c.JSON(md)
		}})

	ep := movingPath + "/elements-to-load"
	getElements := func(c *fiber.Ctx) error {
		rec, err := editor.GetSingleton(c.UserContext(), m.Elements, workspace(c), func() model.MovingLoadElements { return model.MovingLoadElements{} })
		if err != nil {
			return err
		}
		return c.JSON(rec)
	}
	a.add(route{method: "GET", path: ep, tag: tag, summary: "Get the members and plates moving loads may be applied to",
		desc:      "members and plates are normalised id lists (\"1,3-7\"); an empty string means none selected.",
		responses: map[int]any{200: model.MovingLoadElements{}}, errors: []int{409}, handler: getElements})
	a.add(route{method: "PATCH", path: ep, tag: tag, summary: "Update the elements to load (only the supplied fields change)",
		desc: "Each of members and plates is an id list string; an empty string clears that selection, an omitted field is kept. " +
			"Lists are checked for format and normalised (sorted, merged ranges); the ids need not exist yet.",
		body: ElementsPatch{}, bodyRequired: true, responses: map[int]any{200: model.MovingLoadElements{}}, errors: []int{400, 409},
		handler: func(c *fiber.Ctx) error {
			var p ElementsPatch
			if err := decodeJSON(c, &p, true); err != nil {
				return err
			}
			if p.Members == nil && p.Plates == nil {
				return getElements(c)
			}
			rec, err := editor.PatchSingleton(c.UserContext(), m.Elements, workspace(c), func() model.MovingLoadElements { return model.MovingLoadElements{} },
				func(r *model.MovingLoadElements) error {
					if p.Members != nil {
						r.Members = *p.Members
					}
					if p.Plates != nil {
						r.Plates = *p.Plates
					}
					return nil
				})
			if err != nil {
				return err
			}
			return c.JSON(rec)
		}})
	a.add(route{method: "GET", path: ep + "/metadata", tag: tag, summary: "Describe the elements-to-load fields",
		responses: map[int]any{200: Metadata{}}, errors: []int{409}, handler: func(c *fiber.Ctx) error {
			u, err := a.jobUnits(c)
			if err != nil {
				return err
			}
			return c.JSON(Metadata{ResourceType: "MovingLoadElements", Fields: fieldMetadata(reflect.TypeOf(model.MovingLoadElements{}), u, "")})
		}})
}

// generateDoc describes POST moving-loads/generate in the OpenAPI document.
var generateDoc = "Runs the generator synchronously and answers the ids of every moving-load case present afterwards " +
	"(generatedLoadCaseIds: the load and combination cases of every scenario's last generation) and the titles of the " +
	"load-case groups it wrote (generatedGroups). The whole generation is one change: on any error nothing is written.\n\n" +
	"Stepping: for each included scenario time runs t = k·timeInterval from 0. A load's leading point (a vehicle's x = 0, " +
	"a pressure's front edge) waits at startPosition along its travel path until its delay has passed, then moves at speed. " +
	"A load case is made for each step at which any load lies at least partly on its path (a load off its path is not " +
	"placed at that step), numbered from startingLoadCase " +
	"(0: after the greatest case in use); stepping ends once every moving load has passed the end of its path. A load " +
	"with speed 0 is stationary: in the scenario's first case only (generateStationaryLc StartingLoadCase) or in every " +
	"case (AllLoadCases). Each scenario combination makes one combination case per generated case: the case × " +
	"scenarioFactor, plus combineWithLoadCase × loadCaseFactor when that is not 0, numbered from " +
	"startingCombinationCase (0: after the greatest in use). Each scenario gets a group of its cases (titled with the " +
	"scenario's name) and, with combinations, a group of those (`<name> combinations`).\n\n" +
	"Geometry: travel paths are polylines through their stations, rounded by circular arcs of the station's radius; " +
	"stations at nodes follow the nodes. A wheel at vehicle (x, y) stands at distance s + x along the path, y to the left " +
	"of the path's tangent there; vehicle forces map x along the direction of travel, y to its left, z up (the job's " +
	"vertical axis). Pressures are per plan area, width wide centred on the path and length long.\n\n" +
	"Applying: keepLoadsWithinTravelPath drops loads beyond the ends of their path; ignoreOutsideLoadedArea drops loads " +
	"outside the loadedArea polygon (plan coordinates: X, Z when Y is up; X, Y when Z is up); checkVerticalProximity " +
	"ignores elements more than verticalProximity above or below a load. A point load inside a selected plate becomes " +
	"the plate's consistent nodal loads (node loads). Otherwise it goes to the selected members: with applyToClosestMember " +
	"whole to the nearest member (a member concentrated load, GlobalInclined, at the nearest point); otherwise shared by " +
	"the lever rule between the nearest member and the nearest member on its other side; a load with a member on one " +
	"side only goes to it, or is dropped when ignoreLoadsOnOneMember is set. A member takes only loads beside it (within " +
	"its ends in plan), so loads off the deck are dropped; the moment of moving a load sideways onto a member is not applied. Pressures on plates are clipped to each plate " +
	"(a plate pressure load, GlobalInclined, where a plate is covered whole; consistent nodal loads of the covered part " +
	"otherwise); on members they are split into point loads at loadSpacing. Every load is scaled by loadFactor × " +
	"laneFactor × dynamicFactor and goes to loadCategory (default: a category titled Moving loads, reused or created).\n\n" +
	"Earlier results: an included scenario's earlier cases, loads, combinations and groups are replaced; an excluded " +
	"scenario keeps its cases, and keeps their loads only when the setting retainLoads is on. A deleted scenario's cases, " +
	"loads and groups stay as ordinary ones, no longer listed or touched by generations. A generated case or group the " +
	"engineer deleted, or changed (a case's notes, a group's list), is theirs from then on.\n\n" +
	fmt.Sprintf("Limits (400 naming them): at most %d load and combination cases and %d load rows per generation, and %d cells per "+
		"pressure. ", model.MaxGeneratedCases, model.MaxGeneratedRows, model.MaxPressureCells) + "400 also for a loadCategory that does not exist, a scenario without loads, a travel path without stations " +
	"or with a radius that does not fit, no elements to load, or a case id already in use. 409 while an analysis or " +
	"another generation runs."
