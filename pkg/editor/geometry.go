package editor

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/model"
)

// Point is a position in global coordinates (m).
type Point struct {
	X float64 `json:"x" unit:"length"`
	Y float64 `json:"y" unit:"length"`
	Z float64 `json:"z" unit:"length"`
}

// NodeRef is a node id with its coordinates.
type NodeRef struct {
	ID int64   `json:"id"`
	X  float64 `json:"x" unit:"length"`
	Y  float64 `json:"y" unit:"length"`
	Z  float64 `json:"z" unit:"length"`
}

// Vector is a unit vector in global coordinates (no unit).
type Vector struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	Z float64 `json:"z"`
}

// LocalAxes is a local coordinate system: an origin and three unit axis
// vectors in global coordinates, right-handed and orthonormal.
type LocalAxes struct {
	Origin Point  `json:"origin"`
	XAxis  Vector `json:"xAxis"`
	YAxis  Vector `json:"yAxis"`
	ZAxis  Vector `json:"zAxis"`
}

// MemberGeometry is the derived geometry of a member.
type MemberGeometry struct {
	Member int64   `json:"member"`
	NodeA  NodeRef `json:"nodeA"`
	NodeB  NodeRef `json:"nodeB"`
	// PointA and PointB are the physical ends, shifted by the rigid offsets.
	PointA Point `json:"pointA"`
	PointB Point `json:"pointB"`
	// Length is the physical length, between PointA and PointB.
	Length    float64   `json:"length" unit:"length"`
	LocalAxes LocalAxes `json:"localAxes"`
}

// PlateGeometry is the derived geometry of a plate.
type PlateGeometry struct {
	Plate        int64     `json:"plate"`
	NodeCorners  []NodeRef `json:"nodeCorners"`
	PointCorners []Point   `json:"pointCorners"`
	Area         float64   `json:"area" unit:"length^2"`
	Perimeter    float64   `json:"perimeter" unit:"length"`
	Centroid     Point     `json:"centroid"`
	LocalAxes    LocalAxes `json:"localAxes"`
}

func vec(v geom.Vec3) Vector { return Vector{v[0], v[1], v[2]} }
func pt(v geom.Vec3) Point   { return Point{v[0], v[1], v[2]} }

var axisByName = map[string]geom.Axis{"XAxis": geom.XAxis, "YAxis": geom.YAxis, "ZAxis": geom.ZAxis,
	"NegativeXAxis": geom.NegativeXAxis, "NegativeYAxis": geom.NegativeYAxis, "NegativeZAxis": geom.NegativeZAxis}

// VerticalAxis maps the job setting to the engine's axis.
func VerticalAxis(v model.VerticalAxis) geom.Axis {
	if v == model.VerticalZ {
		return geom.ZAxis
	}
	return geom.YAxis
}

// MemberAxes computes a member's local axes the way the engine does: from
// the node-to-node line, its direction, the section's principal angle and
// the job's vertical axis.
func MemberAxes(a, b geom.Vec3, d model.Direction, principalAngle float64, nodes map[int64]*model.Node, vertical geom.Axis) (geom.Rotation, error) {
	dir := geom.Direction{Angle: (d.DirAngle + principalAngle) * math.Pi / 180}
	switch d.Source {
	case "Node":
		n, ok := nodes[d.DirNode]
		if !ok {
			return geom.Rotation{}, fmt.Errorf("direction node %d is missing", d.DirNode)
		}
		dir.Kind, dir.Node = geom.DirectionNode, geom.Vec3{n.X, n.Y, n.Z}
	case "Axis":
		dir.Kind, dir.Axis = geom.DirectionAxis, axisByName[d.DirAxis]
	}
	return geom.LocalAxes(a, b, dir, vertical)
}

// memberGeometry derives one member's geometry; an error means it is
// degenerate (or refers to a missing node) and is left out of lists.
func memberGeometry(m *model.Member, nodes map[int64]*model.Node, off *model.MemberOffset, principal float64, vertical geom.Axis) (MemberGeometry, error) {
	na, okA := nodes[m.NodeA]
	nb, okB := nodes[m.NodeB]
	if !okA || !okB {
		return MemberGeometry{}, fmt.Errorf("member %d refers to a missing node", m.ID)
	}
	a, b := geom.Vec3{na.X, na.Y, na.Z}, geom.Vec3{nb.X, nb.Y, nb.Z}
	r, err := MemberAxes(a, b, m.Direction, principal, nodes, vertical)
	if err != nil {
		return MemberGeometry{}, fmt.Errorf("member %d: %w", m.ID, err)
	}
	pa, pb := a, b
	if off != nil {
		ea := geom.Vec3{off.XOffsetAtA, off.YOffsetAtA, off.ZOffsetAtA}
		eb := geom.Vec3{off.XOffsetAtB, off.YOffsetAtB, off.ZOffsetAtB}
		if off.Axes == "Local" {
			// Local offsets are components along the node-to-node axes.
			ea = r.X().Scale(ea[0]).Add(r.Y().Scale(ea[1])).Add(r.Z().Scale(ea[2]))
			eb = r.X().Scale(eb[0]).Add(r.Y().Scale(eb[1])).Add(r.Z().Scale(eb[2]))
		}
		pa, pb = a.Add(ea), b.Add(eb)
	}
	length := pb.Sub(pa).Norm()
	if !(length > 0) {
		return MemberGeometry{}, fmt.Errorf("member %d: the offsets leave it no length", m.ID)
	}
	return MemberGeometry{Member: m.ID, NodeA: NodeRef{na.ID, na.X, na.Y, na.Z}, NodeB: NodeRef{nb.ID, nb.X, nb.Y, nb.Z},
		PointA: pt(pa), PointB: pt(pb), Length: length,
		LocalAxes: LocalAxes{Origin: pt(pa), XAxis: vec(r.X()), YAxis: vec(r.Y()), ZAxis: vec(r.Z())}}, nil
}

// plateGeometry derives one plate's geometry; an error means degenerate.
func plateGeometry(p *model.Plate, nodes map[int64]*model.Node) (PlateGeometry, error) {
	ids := plateNodes(p)
	corners := make([]geom.Vec3, len(ids))
	out := PlateGeometry{Plate: p.ID}
	for i, id := range ids {
		n, ok := nodes[id]
		if !ok {
			return out, fmt.Errorf("plate %d refers to a missing node %d", p.ID, id)
		}
		corners[i] = geom.Vec3{n.X, n.Y, n.Z}
		out.NodeCorners = append(out.NodeCorners, NodeRef{n.ID, n.X, n.Y, n.Z})
	}
	g, err := geom.PlateGeometry(corners)
	if err != nil {
		return out, fmt.Errorf("plate %d: %w", p.ID, err)
	}
	ax, err := geom.PlateAxes(corners, 0)
	if err != nil {
		return out, fmt.Errorf("plate %d: %w", p.ID, err)
	}
	switch p.Direction.Source {
	case "Angle":
		if ax, err = geom.PlateAxes(corners, p.Direction.DirAngle); err != nil {
			return out, fmt.Errorf("plate %d: %w", p.ID, err)
		}
	case "Node", "Axis":
		if n, ok := nodes[p.Direction.DirNode]; ok && p.Direction.Source == "Node" {
			ax, err = geom.PlateAxesTowardNode(corners, geom.Vec3{n.X, n.Y, n.Z})
		} else {
			// A missing direction node falls back to the axis, and an
			// unknown axis to A→B, so that the plate is still listed.
			ref := ax.X
			if v, ok := axisByName[p.Direction.DirAxis].Vector(); ok {
				ref = v
			}
			ax, err = geom.PlateAxesToward(corners, ref)
		}
		if errors.Is(err, geom.ErrPlateDirectionNormal) {
			// The user set the direction, so the message names it, not geom's reference.
			return out, fmt.Errorf("plate %d: its direction is normal to the plate", p.ID)
		}
		if err != nil {
			return out, fmt.Errorf("plate %d: %w", p.ID, err)
		}
	}
	pc, err := geom.OffsetCorners(corners, g.Normal, p.Offset)
	if err != nil {
		return out, fmt.Errorf("plate %d: %w", p.ID, err)
	}
	for _, c := range pc {
		out.PointCorners = append(out.PointCorners, Point{c[0], c[1], c[2]})
	}
	out.Area, out.Perimeter = g.Area, g.Perimeter
	out.Centroid = Point{g.Centroid[0], g.Centroid[1], g.Centroid[2]}
	out.LocalAxes = LocalAxes{Origin: out.Centroid, XAxis: vec(ax.X), YAxis: vec(ax.Y), ZAxis: vec(ax.Z)}
	return out, nil
}

// nodeMap reads every node into a map by id.
func (s *Structure) nodeMap(ctx context.Context, ws string) (map[int64]*model.Node, error) {
	nodes, err := s.Nodes.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]*model.Node, len(nodes))
	for i := range nodes {
		out[nodes[i].ID] = &nodes[i]
	}
	return out, nil
}

// MemberGeometries derives the geometry of the members that keep returns
// true for, in id order, leaving out degenerate ones.
func (s *Structure) MemberGeometries(ctx context.Context, ws string, vertical model.VerticalAxis, keep func(*model.Member) bool) ([]MemberGeometry, error) {
	nodes, err := s.nodeMap(ctx, ws)
	if err != nil {
		return nil, err
	}
	members, err := s.Members.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	offs, err := s.Offsets.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	offByMember := map[int64]*model.MemberOffset{}
	for i := range offs {
		offByMember[offs[i].Member] = &offs[i]
	}
	secs, err := s.Sections.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	principal := map[int64]float64{}
	for _, x := range secs {
		principal[x.ID] = x.PrincipalAngle
	}
	var out []MemberGeometry
	for i := range members {
		m := &members[i]
		if keep != nil && !keep(m) {
			continue
		}
		g, err := memberGeometry(m, nodes, offByMember[m.ID], principal[m.Section], VerticalAxis(vertical))
		if err == nil {
			out = append(out, g)
		}
	}
	return out, nil
}

// MemberGeometryOf derives one member's geometry; a degenerate member is a
// conflict that says why.
func (s *Structure) MemberGeometryOf(ctx context.Context, ws string, vertical model.VerticalAxis, id int64) (MemberGeometry, error) {
	m, err := s.Members.Get(ctx, ws, id)
	if err != nil {
		return MemberGeometry{}, err
	}
	nodes, err := s.nodeMap(ctx, ws)
	if err != nil {
		return MemberGeometry{}, err
	}
	var off *model.MemberOffset
	if o, err := s.Offsets.GetMany(ctx, ws, []int64{id}); err == nil {
		off = o[0]
	}
	var principal float64
	if sec, err := s.Sections.Get(ctx, ws, m.Section); err == nil {
		principal = sec.PrincipalAngle
	}
	g, err := memberGeometry(&m, nodes, off, principal, VerticalAxis(vertical))
	if err != nil {
		return g, model.E(model.KindConflict, "%v", err)
	}
	return g, nil
}

// PlateGeometries derives the geometry of the plates keep selects,
// leaving out degenerate ones.
func (s *Structure) PlateGeometries(ctx context.Context, ws string, keep func(*model.Plate) bool) ([]PlateGeometry, error) {
	nodes, err := s.nodeMap(ctx, ws)
	if err != nil {
		return nil, err
	}
	plates, err := s.Plates.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	var out []PlateGeometry
	for i := range plates {
		if keep != nil && !keep(&plates[i]) {
			continue
		}
		if g, err := plateGeometry(&plates[i], nodes); err == nil {
			out = append(out, g)
		}
	}
	return out, nil
}

// PlateGeometryOf derives one plate's geometry.
func (s *Structure) PlateGeometryOf(ctx context.Context, ws string, id int64) (PlateGeometry, error) {
	p, err := s.Plates.Get(ctx, ws, id)
	if err != nil {
		return PlateGeometry{}, err
	}
	nodes, err := s.nodeMap(ctx, ws)
	if err != nil {
		return PlateGeometry{}, err
	}
	g, err := plateGeometry(&p, nodes)
	if err != nil {
		return g, model.E(model.KindConflict, "%v", err)
	}
	return g, nil
}
