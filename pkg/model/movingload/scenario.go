package movingload

import (
	"fmt"
	"math"
	"sort"

	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/model"
)

// mover is one load of a scenario, ready to step.
type mover struct {
	path       *Path
	factor     float64
	veh        *model.Vehicle
	pr         *model.MovingPressure
	xmin, xmax float64 // extent along the path behind (−) and ahead of the leading point
	l          model.ScenarioLoad
}

// pos is the distance along the path of the leading point at time t.
func (m *mover) pos(t float64) float64 {
	return m.l.StartPosition + m.l.Speed*math.Max(0, t-m.l.Delay)
}

// onPath reports whether any part of the load lies on its path at t: a
// wheel anywhere on [0, length], or a pressure over some length of it.
func (m *mover) onPath(t float64) bool {
	s := m.pos(t)
	if m.pr != nil {
		return s+m.xmax > 0 && s+m.xmin < m.path.Length()
	}
	return s+m.xmax >= 0 && s+m.xmin <= m.path.Length()
}

// stationary reports a load that never moves.
func (m *mover) stationary() bool { return m.l.Speed == 0 }

// inStep reports whether the load belongs to a step at time t: it is on
// its path, and, when stationary, either in every case or this is the
// scenario's first.
func (m *mover) inStep(t float64, first bool) bool {
	return (!m.stationary() || first || m.l.GenerateStationaryLc == model.StationaryAll) && m.onPath(t)
}

// Scenario generates the steps of one scenario. Steps are in time order;
// only those with a load on its path are returned. Data the scenario
// cannot be generated from (a missing vehicle, a path without stations,
// too many steps) is an *InputError.
func (g *Generator) Scenario(sc model.Scenario) ([]Step, error) {
	field := func(i int, f string) string { return fmt.Sprintf("scenario %d loads[%d].%s", sc.ID, i, f) }
	if len(sc.Loads) == 0 {
		return nil, inputErr(fmt.Sprintf("scenario %d loads", sc.ID), "scenario %d (%s) has no loads; give it loads or exclude it", sc.ID, sc.Name)
	}
	if !(sc.TimeInterval > 0) {
		return nil, inputErr(fmt.Sprintf("scenario %d timeInterval", sc.ID), "scenario %d: timeInterval must be greater than 0", sc.ID)
	}
	movers := make([]mover, len(sc.Loads))
	horizon := 0.0
	for i, l := range sc.Loads {
		m := mover{l: l, factor: l.LoadFactor * l.LaneFactor * l.DynamicFactor}
		p, err := g.path(l.TravelPathID, field(i, "travelPathId"))
		if err != nil {
			return nil, err
		}
		m.path = p
		switch l.LoadType {
		case model.MovingLoadPressure:
			pr, ok := g.in.Pressures[l.PressureID]
			if !ok {
				return nil, inputErr(field(i, "pressureId"), "scenario %d loads[%d]: pressure %d does not exist", sc.ID, i, l.PressureID)
			}
			cells := math.Ceil(pr.Length/pr.LoadSpacing) * math.Max(1, math.Ceil(pr.Width/pr.LoadSpacing))
			if cells > MaxPressureCells {
				return nil, inputErr(field(i, "pressureId"),
					"scenario %d loads[%d]: pressure %d (%s) splits into %.0f cells of loadSpacing %g m; at most %d are allowed: raise its loadSpacing",
					sc.ID, i, pr.ID, pr.Name, cells, pr.LoadSpacing, MaxPressureCells)
			}
			m.pr, m.xmin, m.xmax = &pr, -pr.Length, 0
		default:
			v, ok := g.in.Vehicles[l.VehicleID]
			if !ok || len(v.Loads) == 0 {
				return nil, inputErr(field(i, "vehicleId"), "scenario %d loads[%d]: vehicle %d does not exist or has no loads", sc.ID, i, l.VehicleID)
			}
			m.veh = &v
			m.xmin, m.xmax = math.Inf(1), math.Inf(-1)
			for _, w := range v.Loads {
				m.xmin, m.xmax = math.Min(m.xmin, w.X), math.Max(m.xmax, w.X)
			}
		}
		if !m.stationary() {
			// The load has left when its rearmost point passes the end.
			leave := l.Delay + math.Max(0, (p.Length()-m.xmin-l.StartPosition)/l.Speed)
			horizon = math.Max(horizon, leave)
		}
		movers[i] = m
	}
	// The last step is the last at or before the horizon (a hair of
	// round-off allowed, so that a load exactly at the end counts).
	last := math.Floor(horizon/sc.TimeInterval + 1e-9)
	if last+1 > float64(MaxCases-g.steps) {
		return nil, inputErr(fmt.Sprintf("scenario %d timeInterval", sc.ID),
			"scenario %d (%s) would step %.0f times (until t = %.6g s at timeInterval %g s); one generation makes at most %d load cases: "+
				"raise timeInterval, shorten the travel paths or bring startPosition and delay closer",
			sc.ID, sc.Name, last+1, horizon, sc.TimeInterval, MaxCases)
	}
	var out []Step
	for k := 0; k <= int(last); k++ {
		t := float64(k) * sc.TimeInterval
		first := len(out) == 0
		any := false
		for i := range movers {
			if movers[i].inStep(t, first) {
				any = true
				break
			}
		}
		if !any {
			continue
		}
		acc := newAccumulator()
		for i := range movers {
			// A load off its path (not yet arrived, or gone) is not placed.
			if movers[i].inStep(t, first) {
				g.place(&movers[i], t, acc)
			}
		}
		st := acc.step(k, t)
		g.rows += st.Rows()
		if g.rows > MaxRows {
			return nil, inputErr(fmt.Sprintf("scenario %d", sc.ID),
				"the generation would write more than %d load rows (scenario %d, %s, reached it at t = %.6g s); "+
					"raise timeInterval or the pressures' loadSpacing, or generate fewer scenarios at a time", MaxRows, sc.ID, sc.Name, t)
		}
		out = append(out, st)
	}
	g.steps += len(out)
	return out, nil
}

// place puts one scenario load at its position at time t.
func (g *Generator) place(m *mover, t float64, acc *accumulator) {
	s := m.pos(t)
	if m.veh == nil {
		g.pressure(acc, m, s)
		return
	}
	for _, w := range g.wheels(m.path, m.veh, s, m.factor) {
		g.point(acc, m.path, w.s, w.at, w.f, w.m)
	}
}

// wheel is one vehicle load placed on the structure: s along its path,
// at 3-D point at, with global force f and moment m.
type wheel struct {
	s    float64
	at   geom.Vec3
	f, m geom.Vec3
}

// wheels places a vehicle with its leading axle s along path p, each load
// scaled by factor.
func (g *Generator) wheels(p *Path, v *model.Vehicle, s, factor float64) []wheel {
	out := make([]wheel, len(v.Loads))
	for i, w := range v.Loads {
		sw := s + w.X
		pt, tan := p.At(sw)
		x, y, z := g.f.vehicleAxes(tan)
		out[i] = wheel{s: sw, at: pt.Add(y.Scale(w.Y)),
			f: toGlobal(x, y, z, [3]float64{w.Fx, w.Fy, w.Fz}).Scale(factor),
			m: toGlobal(x, y, z, [3]float64{w.Mx, w.My, w.Mz}).Scale(factor)}
	}
	return out
}

// point applies one point load at 3-D position at, sw along its path.
func (g *Generator) point(acc *accumulator, p *Path, sw float64, at, f, mo geom.Vec3) {
	set := &g.in.Settings
	if set.KeepLoadsWithinTravelPath && (sw < 0 || sw > p.Length()) {
		acc.dropped++
		return
	}
	q := g.f.plan(at)
	if g.area != nil && !inRing(q, g.area) {
		acc.dropped++
		return
	}
	if g.onPlate(acc, q, g.f.height(at), f, mo) {
		return
	}
	if !g.onMembers(acc, q, g.f.height(at), f, mo) {
		acc.dropped++
	}
}

// accumulator gathers one step's loads: node loads summed per node, plate
// pressures summed per plate, member loads in order.
type accumulator struct {
	nodes   map[int64]*NodeLoad
	plates  map[int64]*PlateLoad
	members []MemberLoad
	dropped int
}

func newAccumulator() *accumulator {
	return &accumulator{nodes: map[int64]*NodeLoad{}, plates: map[int64]*PlateLoad{}}
}

func (a *accumulator) node(id int64, f, m geom.Vec3) {
	n := a.nodes[id]
	if n == nil {
		n = &NodeLoad{Node: id}
		a.nodes[id] = n
	}
	n.F, n.M = n.F.Add(f), n.M.Add(m)
}

func (a *accumulator) plate(id int64, p geom.Vec3) {
	pl := a.plates[id]
	if pl == nil {
		pl = &PlateLoad{Plate: id}
		a.plates[id] = pl
	}
	pl.P = pl.P.Add(p)
}

// step returns the gathered loads in a fixed order.
func (a *accumulator) step(k int, t float64) Step {
	st := Step{Index: k, Time: t, Members: a.members, Dropped: a.dropped}
	for _, n := range a.nodes {
		st.Nodes = append(st.Nodes, *n)
	}
	sort.Slice(st.Nodes, func(i, j int) bool { return st.Nodes[i].Node < st.Nodes[j].Node })
	for _, p := range a.plates {
		st.Plates = append(st.Plates, *p)
	}
	sort.Slice(st.Plates, func(i, j int) bool { return st.Plates[i].Plate < st.Plates[j].Plate })
	sort.SliceStable(st.Members, func(i, j int) bool { return st.Members[i].Member < st.Members[j].Member })
	return st
}
