package domain

import (
	"fmt"
	"math"
	"slices"

	"github.com/gusset/gusset/pkg/fem/geom"
)

// Subdivision relates the refined model of Subdivide to the original.
type Subdivision struct {
	// Segments[i] lists the indices, in the refined Model.Members, of
	// member i's segments from end A; a member left whole has one, under
	// its own id.
	Segments [][]int
	// Interior[i] lists the indices, in the refined Model.Nodes, of the
	// nodes inside member i, from end A (len(Segments[i])−1 of them). The
	// original nodes keep their indices (they come first); interior nodes
	// follow, member by member.
	Interior [][]int
	// Start[i][k] is where segment k of member i starts, m along the
	// member's flexible length from the end of offset A: with the
	// segment's own positions it places the segment's results on the
	// member.
	Start [][]float64
}

// InteriorOf returns the index in the original Model.Members of the
// member that node n of the refined model (an index in its Model.Nodes)
// lies inside, and false for a node of the original model: a message
// about a generated node names the user's member instead.
func (s *Subdivision) InteriorOf(n int) (member int, ok bool) {
	for i, in := range s.Interior {
		if len(in) > 0 && n >= in[0] && n <= in[len(in)-1] {
			return i, true
		}
	}
	return 0, false
}

// newIDs hands out the ids of generated nodes or segments: above every id
// of their kind in the original model, so that they never clash with one.
type newIDs struct{ next int64 }

// idsAbove returns the generator of ids above those of items.
func idsAbove[T any](items []T, id func(*T) int64) *newIDs {
	var top int64
	for i := range items {
		top = max(top, id(&items[i]))
	}
	return &newIDs{next: top + 1}
}

// take returns the next id, or an error once ids run out.
func (g *newIDs) take() (int64, error) {
	if g.next <= 0 { // wrapped past the largest int64
		return 0, ModelErrorf(ModelError{}, "the model's ids leave no room for the ids of member segments")
	}
	id := g.next
	g.next++
	return id, nil
}

// posTol is the relative tolerance on member load positions, addMemberLoad's:
// a load at most that far outside the member is taken as at its end, and a
// concentrated load that close before a segment boundary as on it, so that
// a boundary written in % does not depend on round-off.
const posTol = 1e-12

// Locate returns the segment of member i holding position x (m along the
// flexible length from the end of offset A) and x relative to that
// segment's start. At a boundary (within posTol of the segments' length)
// it is the segment that starts there, except at the member's far end,
// which belongs to the last segment.
func (s *Subdivision) Locate(i int, x float64) (seg int, at float64) {
	st := s.Start[i]
	k := 0
	if len(st) > 1 {
		tol := posTol * st[1] // relative to the segments' length
		for k+1 < len(st) && st[k+1] <= x+tol {
			k++
		}
	}
	return k, math.Max(x-st[k], 0)
}

// Subdivide returns a copy of m in which member i is split into
// segments(i) equal segments of its flexible length (1 leaves it whole),
// so that eigen analyses resolve modes along members. The refined model's
// static response at the original nodes and member ends is the
// original's: the frame element is exact for every member load.
//
// Interior nodes lie on the flexible line, between the ends of the rigid
// offsets. Segments and interior nodes get new ids, above every member
// and node id of m (Segments and Interior relate them to the members). The first segment keeps end A's offset (in global axes),
// release and springs, the last those of end B; interior ends have no
// offset and are fully fixed. Segments keep everything else of the member, so their
// local axes are the member's. Axial-only members are never split:
// a pin-ended bar split in two is a mechanism.
//
// Member loads are split by position: a concentrated load goes to the
// segment holding it, a distributed one is clipped to each segment it
// covers; thermal loads and prestress go to every segment; the rest of
// the model is copied unchanged. segments(i) < 1 and member loads outside
// their member are errors; everything else Build checks is left to Build
// of the original model, which the caller runs first. The copy's slices
// are its own down to supports, constraints and combination terms, whose
// inner slices it shares with m.
func Subdivide(m *Model, segments func(i int) int) (*Model, *Subdivision, error) {
	out := *m
	out.Nodes = slices.Clone(m.Nodes)
	out.Members = make([]Member, 0, len(m.Members))
	out.Materials = slices.Clone(m.Materials)
	out.Sections = slices.Clone(m.Sections)
	out.Supports = slices.Clone(m.Supports)
	out.Constraints = slices.Clone(m.Constraints)
	out.Combinations = slices.Clone(m.Combinations)
	s := &Subdivision{
		Segments: make([][]int, len(m.Members)),
		Interior: make([][]int, len(m.Members)),
		Start:    make([][]float64, len(m.Members)),
	}
	lengths := make([]float64, len(m.Members)) // flexible lengths of split members
	ix := newModelIndex(m)
	ids := [2]*newIDs{idsAbove(m.Nodes, func(n *Node) int64 { return n.ID }),
		idsAbove(m.Members, func(mm *Member) int64 { return mm.ID })}
	for i := range m.Members {
		mm := &m.Members[i]
		n := segments(i)
		if n < 1 {
			return nil, nil, fmt.Errorf("member %d: %d segments, need at least 1", mm.ID, n)
		}
		if n == 1 || mm.Type.AxialOnly() {
			s.Segments[i] = []int{len(out.Members)}
			s.Start[i] = []float64{0}
			out.Members = append(out.Members, *mm)
			continue
		}
		ln, err := ix.flexibleLine(mm, m.VerticalAxis)
		if err != nil {
			return nil, nil, ModelErrorf(ModelError{Member: mm.ID}, "member %d: %w", mm.ID, err)
		}
		lengths[i] = ln.b.Sub(ln.a).Norm()
		if err := s.split(&out, mm, i, n, ln, lengths[i], ids); err != nil {
			return nil, nil, err
		}
	}
	out.LoadCases = make([]LoadCase, len(m.LoadCases))
	for c := range m.LoadCases {
		if err := s.splitCase(&out.LoadCases[c], &m.LoadCases[c], ix.members, lengths, out.Members); err != nil {
			return nil, nil, err
		}
	}
	return &out, s, nil
}

// split appends member mm's n segments and n−1 interior nodes, on its
// flexible line ln of length l, to out and records them as member i's;
// ids gives their ids (nodes, members).
func (s *Subdivision) split(out *Model, mm *Member, i, n int, ln flexibleLine, l float64, ids [2]*newIDs) error {
	s.Start[i] = make([]float64, n)
	s.Interior[i] = make([]int, n-1)
	s.Segments[i] = make([]int, n)
	ab := ln.b.Sub(ln.a)
	for k := range n {
		s.Start[i][k] = l * float64(k) / float64(n)
		seg := *mm
		var err error
		if seg.ID, err = ids[1].take(); err != nil {
			return err
		}
		// Offsets are given in global axes: the node-to-node line that
		// local offsets refer to is the member's, not the segment's.
		seg.OffsetA, seg.OffsetB, seg.OffsetsLocal = geom.Vec3{}, geom.Vec3{}, false
		if k == 0 {
			seg.OffsetA = ln.eA
		} else {
			seg.NodeA = out.Nodes[len(out.Nodes)-1].ID
			seg.ReleaseA, seg.SpringsA = "", [6]float64{}
		}
		if k == n-1 {
			seg.OffsetB = ln.eB
		} else {
			p := ln.a.Add(ab.Scale(float64(k+1) / float64(n)))
			s.Interior[i][k] = len(out.Nodes)
			id, err := ids[0].take()
			if err != nil {
				return err
			}
			out.Nodes = append(out.Nodes, Node{ID: id, X: p[0], Y: p[1], Z: p[2]})
			seg.NodeB = out.Nodes[len(out.Nodes)-1].ID
			seg.ReleaseB, seg.SpringsB = "", [6]float64{}
		}
		s.Segments[i][k] = len(out.Members)
		out.Members = append(out.Members, seg)
	}
	return nil
}

// flexibleLine is a member's flexible length, from a to b, and its rigid
// offsets eA and eB in global axes.
type flexibleLine struct{ a, b, eA, eB geom.Vec3 }

// modelIndex finds a model's nodes, sections and members by id.
type modelIndex struct {
	nodes    map[int64]geom.Vec3
	sections map[int64]*Section
	members  map[int64]int
}

func newModelIndex(m *Model) *modelIndex {
	ix := &modelIndex{
		nodes:    make(map[int64]geom.Vec3, len(m.Nodes)),
		sections: make(map[int64]*Section, len(m.Sections)),
		members:  make(map[int64]int, len(m.Members)),
	}
	for _, n := range m.Nodes {
		ix.nodes[n.ID] = geom.Vec3{n.X, n.Y, n.Z}
	}
	for i := range m.Sections {
		ix.sections[m.Sections[i].ID] = &m.Sections[i]
	}
	for i := range m.Members {
		ix.members[m.Members[i].ID] = i
	}
	return ix
}

// flexibleLine returns member mm's flexible line as buildFrame computes
// it. Missing ids are reported as Build would, though Build of the
// original model has rejected them already.
func (ix *modelIndex) flexibleLine(mm *Member, vertical geom.Axis) (flexibleLine, error) {
	var ln flexibleLine
	var p [3]geom.Vec3 // node A, node B, direction node
	for j, id := range [3]int64{mm.NodeA, mm.NodeB, mm.DirectionNode} {
		if j == 2 && mm.Direction.Kind != geom.DirectionNode {
			break
		}
		var ok bool
		if p[j], ok = ix.nodes[id]; !ok {
			return ln, ModelErrorf(ModelError{Node: id}, "node \"%d\" does not exist", id)
		}
	}
	sec, ok := ix.sections[mm.Section]
	if !ok {
		return ln, fmt.Errorf("section \"%d\" does not exist", mm.Section)
	}
	var err error
	if ln.eA, ln.eB, _, err = memberLine(mm, p[0], p[1], p[2], sec.PrincipalAngle, vertical); err != nil {
		return ln, err
	}
	ln.a, ln.b = p[0].Add(ln.eA), p[1].Add(ln.eB)
	return ln, nil
}

// splitCase writes into out the load case lc with the loads of split
// members moved to their segments. members indexes the original members,
// lengths holds the flexible lengths of the split ones and refined the
// refined members (for the segments' ids).
func (s *Subdivision) splitCase(out, lc *LoadCase, members map[int64]int, lengths []float64, refined []Member) error {
	*out = *lc
	out.NodeLoads = slices.Clone(lc.NodeLoads)
	out.Prescribed = slices.Clone(lc.Prescribed)
	// segs returns the index of a split member and its segments' ids;
	// nil ids for a member left whole or unknown (which resolving the case
	// reports), whose loads stay as they are.
	segs := func(id int64) (int, []int64) {
		i, ok := members[id]
		if !ok || len(s.Segments[i]) == 1 {
			return -1, nil
		}
		ids := make([]int64, len(s.Segments[i]))
		for k, j := range s.Segments[i] {
			ids[k] = refined[j].ID
		}
		return i, ids
	}
	out.Members = nil
	for _, ml := range lc.Members {
		i, ids := segs(ml.Member)
		if ids == nil {
			out.Members = append(out.Members, ml)
			continue
		}
		var err error
		if out.Members, err = s.splitLoad(out.Members, ml, i, lengths[i], ids); err != nil {
			return ModelErrorf(ModelError{Case: lc.ID, Member: ml.Member}, "load case %d: member %d: %w", lc.ID, ml.Member, err)
		}
	}
	out.Thermal = onEverySegment(lc.Thermal, func(t *ThermalLoad) *int64 { return &t.Member }, segs)
	out.Prestress = onEverySegment(lc.Prestress, func(p *PrestressLoad) *int64 { return &p.Member }, segs)
	return nil
}

// onEverySegment returns loads with each load on a split member repeated
// on every one of its segments: a strain load acts uniformly along the
// member. member points to a load's member id.
func onEverySegment[T any](loads []T, member func(*T) *int64, segs func(int64) (int, []int64)) []T {
	var out []T
	for _, l := range loads {
		_, ids := segs(*member(&l))
		if ids == nil {
			out = append(out, l)
		}
		for _, id := range ids {
			*member(&l) = id
			out = append(out, l)
		}
	}
	return out
}

// splitLoad appends to out the parts of load ml on member i, of flexible
// length l, that fall on each of its segments ids, positions Actual from
// the segment's start.
func (s *Subdivision) splitLoad(out []MemberLoad, ml MemberLoad, i int, l float64, ids []int64) ([]MemberLoad, error) {
	// pos is addMemberLoad's reading of a position, with its error.
	percent := ml.Position == Percent
	pos := func(v float64) (float64, error) {
		if percent {
			v = v / 100 * l
		}
		if v < -posTol*l || v > l*(1+posTol) || math.IsNaN(v) {
			return 0, fmt.Errorf("load position %g m lies outside the member (length %g m)", v, l)
		}
		return math.Min(math.Max(v, 0), l), nil
	}
	ml.Position = Actual
	switch ml.Type {
	case ConcentratedForce, ConcentratedMoment:
		x, err := pos(ml.A)
		if err != nil {
			return out, err
		}
		k, at := s.Locate(i, x)
		ml.Member, ml.A, ml.B = ids[k], at, 0
		return append(out, ml), nil
	case DistributedForce, DistributedMoment:
		x1, x2 := 0.0, l
		if ml.A != 0 || ml.B != 0 {
			var err error
			if x1, err = pos(ml.A); err != nil {
				return out, err
			}
			if x2, err = pos(ml.B); err != nil {
				return out, err
			}
		}
		p1, p2 := ml.P1, ml.P2
		if x2 < x1 {
			x1, x2, p1, p2 = x2, x1, p2, p1
		}
		return s.clip(out, ml, i, l, ids, [2]float64{x1, x2}, [2]float64{p1, p2}), nil
	}
	return out, fmt.Errorf("unknown member load type %d", ml.Type)
}

// clip appends the parts of the distributed load ml, of intensity p[0] at
// x[0] to p[1] at x[1] along member i of length l, on each segment it
// overlaps. A part covering its whole segment is given as A = B = 0, so
// that it spans the segment's own length exactly.
func (s *Subdivision) clip(out []MemberLoad, ml MemberLoad, i int, l float64, ids []int64, x, p [2]float64) []MemberLoad {
	at := func(v float64) float64 {
		if v == x[1] {
			return p[1]
		}
		return p[0] + (p[1]-p[0])*(v-x[0])/(x[1]-x[0])
	}
	st := s.Start[i]
	for k, id := range ids {
		s0, s1 := st[k], l
		if k+1 < len(st) {
			s1 = st[k+1]
		}
		lo, hi := math.Max(x[0], s0), math.Min(x[1], s1)
		if hi <= lo {
			continue
		}
		part := ml
		part.Member, part.P1, part.P2 = id, at(lo), at(hi)
		part.A, part.B = lo-s0, hi-s0
		if lo == s0 && hi == s1 {
			part.A, part.B = 0, 0
		}
		out = append(out, part)
	}
	return out
}
