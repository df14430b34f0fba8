package editor

import (
	"context"
	"errors"
	"fmt"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// MovingLoads holds the moving-load data of a job: the settings and the
// elements to load (singletons, one row under model.SingletonKey), and the
// vehicles, pressures, travel paths and scenarios.
type MovingLoads struct {
	e           *Editor
	s           *Structure
	Settings    *Collection[model.MovingLoadSettings]
	Elements    *Collection[model.MovingLoadElements]
	Vehicles    *Collection[model.Vehicle]
	Pressures   *Collection[model.MovingPressure]
	TravelPaths *Collection[model.TravelPath]
	Scenarios   *Collection[model.Scenario]
	// Generated records what the last generation made of each scenario.
	Generated *Collection[model.GeneratedScenario]
	// loads are the load collections a generation writes; set by NewLoads.
	loads *Loads
	// fault, when set (tests only), is called with the planned batch just
	// before a generation applies it.
	fault func(*store.Batch)
}

// MovingLoadCollections names the store collections of the moving-load data.
var MovingLoadCollections = []string{model.CollMovingLoadSettings, model.CollMovingLoadElements,
	model.CollMovingLoadVehicles, model.CollMovingLoadPressures, model.CollMovingLoadTravelPaths,
	model.CollMovingLoadScenarios, model.CollMovingLoadGenerated}

// singletonKind describes a one-row collection.
func singletonKind[T any](coll, noun string) Kind[T] {
	return Kind[T]{Coll: coll, Noun: noun, KeyFields: []string{"id"},
		Key: func(*T) []int64 { return []int64{model.SingletonKey} }, SetKey: func(*T, []int64) {}}
}

// NewMovingLoads binds the moving-load collections to the editor and
// registers the cascade that keeps travel paths valid when nodes go.
func NewMovingLoads(e *Editor, s *Structure) *MovingLoads {
	m := &MovingLoads{e: e, s: s}
	sk := singletonKind[model.MovingLoadSettings](model.CollMovingLoadSettings, "moving-load settings")
	sk.Validate = (*model.MovingLoadSettings).Validate
	sk.Strip = func(x *model.MovingLoadSettings) { x.LengthUnit, x.ForceUnit = "", "" }
	m.Settings = NewCollection(e, sk)
	ek := singletonKind[model.MovingLoadElements](model.CollMovingLoadElements, "elements to load")
	ek.Validate = (*model.MovingLoadElements).Validate
	m.Elements = NewCollection(e, ek)
	m.Vehicles = NewCollection(e, idKind(Kind[model.Vehicle]{Coll: model.CollMovingLoadVehicles, Noun: "vehicle", AutoKey: true,
		Defaults: func(v *model.Vehicle) { v.Source = model.SourceUser },
		Validate: (*model.Vehicle).Validate,
		Strip:    func(v *model.Vehicle) { v.LoadUnits = model.VehicleLoadUnits{} },
		Users:    m.scenarioUsers(model.CollMovingLoadVehicles, "vehicle")},
		"id", func(v *model.Vehicle) *int64 { return &v.ID }))
	m.Pressures = NewCollection(e, idKind(Kind[model.MovingPressure]{Coll: model.CollMovingLoadPressures, Noun: "pressure", AutoKey: true,
		Validate: (*model.MovingPressure).Validate, Users: m.scenarioUsers(model.CollMovingLoadPressures, "pressure")}, "id", func(p *model.MovingPressure) *int64 { return &p.ID }))
	m.TravelPaths = NewCollection(e, idKind(Kind[model.TravelPath]{Coll: model.CollMovingLoadTravelPaths, Noun: "travel path", AutoKey: true,
		Validate: (*model.TravelPath).Validate, Users: m.scenarioUsers(model.CollMovingLoadTravelPaths, "travel path"),
		Refs: func(p *model.TravelPath) []Ref {
			var refs []Ref
			for i, st := range p.Stations {
				if st.NodeKey != 0 {
					refs = append(refs, Ref{Coll: model.CollNodes, Noun: "node", Field: fmt.Sprintf("stations[%d].nodeKey", i), ID: st.NodeKey})
				}
			}
			return refs
		},
		Strip: stripTravelPath}, "id", func(p *model.TravelPath) *int64 { return &p.ID }))
	m.Scenarios = NewCollection(e, idKind(Kind[model.Scenario]{Coll: model.CollMovingLoadScenarios, Noun: "scenario", AutoKey: true,
		Defaults: func(x *model.Scenario) { x.Include, x.TimeInterval = true, model.DefaultTimeInterval },
		Validate: (*model.Scenario).Validate, Refs: scenarioRefs, Deleting: m.forgetGenerated,
		Strip: func(x *model.Scenario) { x.HasLoads, x.HasCombinations = false, false }},
		"id", func(x *model.Scenario) *int64 { return &x.ID }))
	m.Generated = NewCollection(e, idKind(Kind[model.GeneratedScenario]{Coll: model.CollMovingLoadGenerated,
		Noun: "generated scenario record", Validate: (*model.GeneratedScenario).Validate},
		"scenario", func(g *model.GeneratedScenario) *int64 { return &g.Scenario }))
	s.AddDependent(m.cascade)
	return m
}

// stripTravelPath drops what is derived: the flag, and the coordinates of
// stations at a node (reads take them from the node).
func stripTravelPath(p *model.TravelPath) {
	p.HasStations = false
	st := append([]model.TravelStation(nil), p.Stations...) // the caller keeps its slice
	for i := range st {
		if st[i].NodeKey != 0 {
			st[i].X, st[i].Y, st[i].Z = 0, 0, 0
		}
	}
	p.Stations = st
}

// scenarioRefs: each load's vehicle or pressure and travel path, and each
// combination's load case (when not 0).
func scenarioRefs(x *model.Scenario) []Ref {
	var refs []Ref
	for i, l := range x.Loads {
		p := fmt.Sprintf("loads[%d].", i)
		if l.LoadType == model.MovingLoadPressure {
			refs = append(refs, Ref{Coll: model.CollMovingLoadPressures, Noun: "pressure", Field: p + "pressureId", ID: l.PressureID})
		} else {
			refs = append(refs, Ref{Coll: model.CollMovingLoadVehicles, Noun: "vehicle", Field: p + "vehicleId", ID: l.VehicleID})
		}
		refs = append(refs, Ref{Coll: model.CollMovingLoadTravelPaths, Noun: "travel path", Field: p + "travelPathId", ID: l.TravelPathID})
	}
	for i, c := range x.Combinations {
		if c.CombineWithLoadCase != 0 {
			refs = append(refs, Ref{Coll: model.CollLoadCases, Noun: "load case", Field: fmt.Sprintf("combinations[%d].combineWithLoadCase", i), ID: c.CombineWithLoadCase})
		}
	}
	return refs
}

// GetSingleton reads a singleton's row, or def when it was never written.
func GetSingleton[T any](ctx context.Context, c *Collection[T], ws string, def func() T) (T, error) {
	recs, err := c.GetMany(ctx, ws, []int64{model.SingletonKey})
	if err != nil {
		var zero T
		return zero, err
	}
	if recs[0] == nil {
		return def(), nil
	}
	return *recs[0], nil
}

// PatchSingleton reads a singleton (or its default), lets fn change it,
// validates it and writes it back as one batch. The batch expects the
// model revision read before, so two concurrent patches cannot lose each
// other's fields: the later one is planned again.
func PatchSingleton[T any](ctx context.Context, c *Collection[T], ws string, def func() T, fn func(*T) error) (rec T, err error) {
	err = c.e.replan(ctx, ws, "update "+c.k.Noun+": the model kept changing while the change was planned", func(ctx context.Context) error {
		rec, err = patchSingletonOnce(ctx, c, ws, def, fn)
		return err
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return rec, nil
}

func patchSingletonOnce[T any](ctx context.Context, c *Collection[T], ws string, def func() T, fn func(*T) error) (T, error) {
	var zero T
	slot, err := c.e.jobs.Slot(ctx, ws)
	if err != nil {
		return zero, err
	}
	if !slot.State.IsOpen {
		return zero, model.ErrNoJobOpen
	}
	rec, err := GetSingleton(ctx, c, ws, def)
	if err != nil {
		return zero, err
	}
	if err := fn(&rec); err != nil {
		return zero, err
	}
	if c.k.Validate != nil {
		if err := c.k.Validate(&rec); err != nil {
			return zero, err
		}
	}
	b := store.Batch{ExpectRev: slot.Rev}
	b.Put(c.k.Coll, store.Key(model.SingletonKey), c.encode(rec))
	if _, err = c.e.apply(ctx, ws, &b, nil); err != nil {
		if errors.Is(err, store.ErrStale) {
			return zero, err
		}
		return zero, fmt.Errorf("update %s: %w", c.k.Noun, err)
	}
	return rec, nil
}

// scenarioUsers maps each row of coll among ids (vehicles, pressures or
// travel paths) to the scenarios that refer to it (Kind.Users).
func (m *MovingLoads) scenarioUsers(coll, noun string) func(ctx context.Context, ws string, ids map[int64]bool) (map[int64]error, error) {
	return func(ctx context.Context, ws string, ids map[int64]bool) (map[int64]error, error) {
		scenarios, err := m.Scenarios.All(ctx, ws)
		if err != nil {
			return nil, err
		}
		users := map[int64][]int64{}
		for _, s := range scenarios {
			for _, ref := range scenarioRefs(&s) {
				if ref.Coll == coll && ids[ref.ID] && (len(users[ref.ID]) == 0 || users[ref.ID][len(users[ref.ID])-1] != s.ID) {
					users[ref.ID] = append(users[ref.ID], s.ID)
				}
			}
		}
		return conflicts(noun, "scenarios", users), nil
	}
}

// HydrateTravelPaths sets hasStations, places stations at their nodes'
// current coordinates and, unless all, leaves the stations out.
func (m *MovingLoads) HydrateTravelPaths(ctx context.Context, ws string, recs []model.TravelPath, all bool) error {
	var ids []int64
	for _, p := range recs {
		for _, st := range p.Stations {
			if st.NodeKey != 0 && all {
				ids = append(ids, st.NodeKey)
			}
		}
	}
	nodes := map[int64]*model.Node{}
	if len(ids) > 0 {
		found, err := m.s.Nodes.GetMany(ctx, ws, ids)
		if err != nil {
			return err
		}
		for i, n := range found {
			nodes[ids[i]] = n
		}
	}
	for i := range recs {
		p := &recs[i]
		p.HasStations = len(p.Stations) > 0
		if !all {
			p.Stations = nil
			continue
		}
		p.Stations = append([]model.TravelStation(nil), p.Stations...)
		for j := range p.Stations {
			if n := nodes[p.Stations[j].NodeKey]; n != nil {
				p.Stations[j].X, p.Stations[j].Y, p.Stations[j].Z = n.X, n.Y, n.Z
			}
		}
	}
	return nil
}

// cascade turns the stations at nodes a delete removes into stations at
// the nodes' last coordinates (nodeKey 0), so the travel paths stay whole.
func (m *MovingLoads) cascade(ctx context.Context, e *Editor, ws string, p *Plan) error {
	if len(p.Nodes) == 0 {
		return nil
	}
	paths, err := m.TravelPaths.All(ctx, ws)
	if err != nil {
		return err
	}
	for _, tp := range paths {
		var gone []int64
		for _, st := range tp.Stations {
			if st.NodeKey != 0 && p.Nodes[st.NodeKey] {
				gone = append(gone, st.NodeKey)
			}
		}
		if len(gone) == 0 {
			continue
		}
		nodes, err := m.s.Nodes.GetMany(ctx, ws, gone)
		if err != nil {
			return err
		}
		at := map[int64]*model.Node{}
		for i, n := range nodes {
			at[gone[i]] = n
		}
		for j := range tp.Stations {
			if n := at[tp.Stations[j].NodeKey]; n != nil {
				tp.Stations[j] = model.TravelStation{X: n.X, Y: n.Y, Z: n.Z, Radius: tp.Stations[j].Radius}
			}
		}
		p.Batch.Update(model.CollMovingLoadTravelPaths, store.Key(tp.ID), m.TravelPaths.encode(tp))
	}
	return nil
}

// forgetGenerated drops the generation records of deleted scenarios: their
// cases, loads and groups stay as the engineer's own, and a later scenario
// given the same id does not take them over.
func (m *MovingLoads) forgetGenerated(_ context.Context, _ string, ids []int64, b *store.Batch) error {
	for _, id := range ids {
		b.DeleteIfAny(model.CollMovingLoadGenerated, store.Key(id))
	}
	return nil
}
