package movingload

import (
	"errors"
	"fmt"
	"math"

	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/model"
)

// Limits of one generation (see pkg/model). The generator counts the steps
// against MaxCases; the caller adds the combination cases it makes of them.
const (
	MaxCases         = model.MaxGeneratedCases
	MaxRows          = model.MaxGeneratedRows
	MaxPressureCells = model.MaxPressureCells
)

// Member is a member that may be loaded: its physical ends, m.
type Member struct {
	ID   int64
	A, B geom.Vec3
}

// Plate is a plate that may be loaded: its corner nodes and their
// coordinates (3 or 4, in order A, B, C[, D]), m.
type Plate struct {
	ID      int64
	Nodes   []int64
	Corners []geom.Vec3
}

// Input is what a generation reads from the model, in SI units.
type Input struct {
	// ZUp is true when global Z is up (else Y is).
	ZUp       bool
	Settings  model.MovingLoadSettings
	Members   []Member
	Plates    []Plate
	Vehicles  map[int64]model.Vehicle
	Pressures map[int64]model.MovingPressure
	Paths     map[int64][]Station
}

// NodeLoad is a force and moment at a node, global components.
type NodeLoad struct {
	Node int64
	F, M geom.Vec3
}

// MemberLoad is a concentrated force and moment on a member at Position m
// from end A along it, global components.
type MemberLoad struct {
	Member   int64
	Position float64
	F, M     geom.Vec3
}

// PlateLoad is a pressure on a whole plate, global components per unit of
// the plate's true area.
type PlateLoad struct {
	Plate int64
	P     geom.Vec3
}

// Step is the loads of one time step: one load case.
type Step struct {
	// Index counts the scenario's time steps from 0; Time is Index ×
	// timeInterval, s.
	Index   int
	Time    float64
	Nodes   []NodeLoad
	Members []MemberLoad
	Plates  []PlateLoad
	// Dropped counts the point loads (and pressure pieces) that found no
	// element or were filtered out.
	Dropped int
}

// Rows is the count of load rows a step writes.
func (s *Step) Rows() int { return len(s.Nodes) + len(s.Members) + len(s.Plates) }

// InputError reports moving-load data that cannot be generated; Field
// names the offending field as the caller's records do
// ("scenario 2 loads[0].travelPathId").
type InputError struct {
	Field string
	Msg   string
}

// Error implements error.
func (e *InputError) Error() string { return e.Msg }

func inputErr(field, format string, args ...any) *InputError {
	return &InputError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Generator generates the steps of scenarios over one model.
type Generator struct {
	in      *Input
	f       frame
	paths   map[int64]*Path
	area    []pt2 // loaded area, counter-clockwise; nil: no clipping
	members []member
	plates  []plate
	steps   int // made so far, against MaxSteps
	rows    int // written so far, against MaxRows
}

// member is a loadable member with its plan geometry.
type member struct {
	id     int64
	a, b   geom.Vec3
	pa, pb pt2
	dir    pt2 // unit plan direction
	plen   float64
	length float64
}

// plate is a loadable plate with its plan outline.
type plate struct {
	id      int64
	nodes   []int64
	corners []geom.Vec3
	outline []pt2 // plan corners in plate order
	ring    []pt2 // counter-clockwise
	lo, hi  pt2   // bounding box
	plan    float64
	true_   float64
}

// New prepares a generator: the plan geometry of the elements to load and
// of the loaded area. Travel paths are built when a scenario first uses
// them, so that a path no scenario uses cannot stop a generation.
func New(in *Input) (*Generator, error) {
	g := &Generator{in: in, f: newFrame(in.ZUp), paths: map[int64]*Path{}}
	if in.Settings.IgnoreOutsideLoadedArea && len(in.Settings.LoadedArea) >= 3 {
		ring := make([]pt2, len(in.Settings.LoadedArea))
		for i, r := range in.Settings.LoadedArea {
			ring[i] = pt2{r[0], r[1]}
		}
		g.area = ccw(ring)
	}
	for _, m := range in.Members {
		mm := member{id: m.ID, a: m.A, b: m.B, pa: g.f.plan(m.A), pb: g.f.plan(m.B), length: m.B.Sub(m.A).Norm()}
		d := sub2(mm.pb, mm.pa)
		mm.plen = math.Hypot(d[0], d[1])
		if mm.plen <= 1e-9*math.Max(1, mm.length) {
			continue // vertical in plan: a wheel cannot stand on it
		}
		mm.dir = pt2{d[0] / mm.plen, d[1] / mm.plen}
		g.members = append(g.members, mm)
	}
	for _, p := range in.Plates {
		pl := plate{id: p.ID, nodes: p.Nodes, corners: p.Corners}
		pl.outline = make([]pt2, len(p.Corners))
		for i, c := range p.Corners {
			pl.outline[i] = g.f.plan(c)
		}
		pl.lo, pl.hi = bounds(pl.outline)
		pl.ring = ccw(pl.outline)
		pl.plan = math.Abs(geom.PolygonArea(pl.outline))
		if pl.plan <= 1e-12 || !isConvex(pl.ring) {
			continue // vertical, or not convex in plan: not a deck plate
		}
		pl.true_ = trueArea(p.Corners)
		g.plates = append(g.plates, pl)
	}
	return g, nil
}

// trueArea is the area of a plate in 3-D (a quadrilateral as two
// triangles on its diagonal AC).
func trueArea(c []geom.Vec3) float64 {
	a := c[1].Sub(c[0]).Cross(c[2].Sub(c[0])).Norm() / 2
	if len(c) == 4 {
		a += c[2].Sub(c[0]).Cross(c[3].Sub(c[0])).Norm() / 2
	}
	return a
}

// path builds (once) the travel path a scenario load names; field names
// the load's travelPathId in errors.
func (g *Generator) path(id int64, field string) (*Path, error) {
	if p, ok := g.paths[id]; ok {
		return p, nil
	}
	st := g.in.Paths[id]
	if len(st) == 0 {
		return nil, inputErr(field, "%s: travel path %d has no stations; give it at least 2", field, id)
	}
	p, err := NewPath(st)
	if err != nil {
		f := fmt.Sprintf("travel path %d stations", id)
		var pe *PathError
		if errors.As(err, &pe) && pe.Station > 0 {
			f = fmt.Sprintf("travel path %d stations[%d]", id, pe.Station-1)
		}
		return nil, inputErr(f, "travel path %d (used by %s): %v", id, field, err)
	}
	g.paths[id] = p
	return p, nil
}
