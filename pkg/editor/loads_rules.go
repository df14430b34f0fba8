package editor

import (
	"context"
	"fmt"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// checkCases builds a Check that refuses loads on combination or step
// cases: loads go on Primary or Unused cases.
func checkCases[T any](l *Loads, caseOf func(*T) int64) func(ctx context.Context, ws string, recs []*T) (map[int]error, error) {
	return func(ctx context.Context, ws string, recs []*T) (map[int]error, error) {
		return refuseNonPrimary(ctx, l, ws, recs, caseOf)
	}
}

// refuseNonPrimary fails records whose case is a combination or a step.
func refuseNonPrimary[T any](ctx context.Context, l *Loads, ws string, recs []*T, caseOf func(*T) int64) (map[int]error, error) {
	out := map[int]error{}
	ids := map[int64]bool{}
	var list []int64
	for _, r := range recs {
		if r != nil && !ids[caseOf(r)] {
			ids[caseOf(r)] = true
			list = append(list, caseOf(r))
		}
	}
	if len(list) == 0 {
		return out, nil
	}
	cases, err := l.Cases.GetMany(ctx, ws, list)
	if err != nil {
		return nil, err
	}
	bad := map[int64]string{}
	for i, c := range cases {
		switch {
		case c == nil:
		case len(c.CombinationItems) > 0:
			bad[list[i]] = "a combination"
		case c.StepOf != 0:
			bad[list[i]] = "a non-linear load step"
		}
	}
	for i, r := range recs {
		if r == nil {
			continue
		}
		if what, ok := bad[caseOf(r)]; ok {
			out[i] = model.Invalid("loadCase", "load case %d is %s; loads go on Primary or Unused cases", caseOf(r), what)
		}
	}
	return out, nil
}

// positionTolerance absorbs round-off when a position given in another
// length unit lands on the member's end (1e-9 of its length).
const positionTolerance = 1e-9

// checkMemberLoads builds the Check of a member load: its case takes loads,
// and its positions lie on the member (0 to the physical length, or 0 to
// 100 percent), the finish not before the start.
func checkMemberLoadsOf[T any](l *Loads, parts func(*T) subLoadParts) func(ctx context.Context, ws string, recs []*T) (map[int]error, error) {
	return func(ctx context.Context, ws string, recs []*T) (map[int]error, error) {
		out, err := refuseNonPrimary(ctx, l, ws, recs, func(r *T) int64 { return *parts(r).lc })
		if err != nil {
			return nil, err
		}
		// Lengths only for the members that need them (Actual positions).
		need := map[int64]bool{}
		for i, r := range recs {
			if r == nil || out[i] != nil {
				continue
			}
			if p := parts(r); p.units == "Actual" {
				need[*p.member] = true
			}
		}
		lengths, err := l.memberLengths(ctx, ws, need)
		if err != nil {
			return nil, err
		}
		for i, r := range recs {
			if r == nil || out[i] != nil {
				continue
			}
			p := parts(r)
			m := *p.member
			limit, what := 100.0, "100 percent"
			if p.units == "Actual" {
				length, ok := lengths[m]
				if !ok {
					continue // a missing member is reported by its reference
				}
				limit, what = length*(1+positionTolerance), fmt.Sprintf("the member length %g m", length)
			}
			prev := 0.0
			for j, at := range p.pos[:p.npos] {
				v, name := at.value, at.field
				if v < 0 || v > limit {
					out[i] = model.Invalid(name, "%s %g lies outside member %d: it must be between 0 and %s", name, v, m, what)
					break
				}
				if j > 0 && v < prev {
					out[i] = model.Invalid(name, "%s %g comes before the start %g", name, v, prev)
					break
				}
				prev = v
			}
		}
		return out, nil
	}
}

// memberLengths returns the physical (offset-adjusted) length of members.
func (l *Loads) memberLengths(ctx context.Context, ws string, ids map[int64]bool) (map[int64]float64, error) {
	out := map[int64]float64{}
	if len(ids) == 0 {
		return out, nil
	}
	list := make([]int64, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	members, err := l.s.Members.GetMany(ctx, ws, list)
	if err != nil {
		return nil, err
	}
	offs, err := l.s.Offsets.GetMany(ctx, ws, list)
	if err != nil {
		return nil, err
	}
	nodeSet := map[int64]bool{}
	var nodeIDs []int64
	for _, m := range members {
		if m == nil {
			continue
		}
		for _, n := range []int64{m.NodeA, m.NodeB} {
			if !nodeSet[n] {
				nodeSet[n] = true
				nodeIDs = append(nodeIDs, n)
			}
		}
	}
	nodes, err := l.s.Nodes.GetMany(ctx, ws, nodeIDs)
	if err != nil {
		return nil, err
	}
	byID := map[int64]*model.Node{}
	for _, n := range nodes {
		if n != nil {
			byID[n.ID] = n
		}
	}
	for i, m := range members {
		if m == nil {
			continue
		}
		// The axes do not change a length: the plain reference direction
		// spares reading direction nodes.
		mm := *m
		mm.Direction = model.Direction{Source: "Angle"}
		g, err := memberGeometry(&mm, byID, offs[i], 0, 0)
		if err == nil {
			out[m.ID] = g.Length
		}
	}
	return out, nil
}

// checkCombinations refuses step components and cycles: a combination may
// include other combinations, but never, through them, itself.
func (l *Loads) checkCombinations(ctx context.Context, ws string, recs []*model.CombinationLoadCase) (map[int]error, error) {
	out := map[int]error{}
	cases, err := l.Cases.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	graph := map[int64][]int64{}
	step := map[int64]bool{}
	for _, c := range cases {
		step[c.ID] = c.StepOf != 0
		for _, it := range c.CombinationItems {
			graph[c.ID] = append(graph[c.ID], it.LoadCase)
		}
	}
	for _, r := range recs {
		if r == nil || r.ID == 0 {
			continue
		}
		graph[r.ID] = nil
		for _, it := range r.CombinationItems {
			graph[r.ID] = append(graph[r.ID], it.LoadCase)
		}
	}
	// A case that carries loads cannot become a combination: its loads
	// would be silently ignored.
	var existing []model.LoadCase
	for _, c := range cases {
		for _, r := range recs {
			if r != nil && r.ID == c.ID && len(c.CombinationItems) == 0 {
				existing = append(existing, c)
			}
		}
	}
	types, err := l.CaseTypes(ctx, ws, existing)
	if err != nil {
		return nil, err
	}
	primary := map[int64]bool{}
	for i, c := range existing {
		primary[c.ID] = types[i] == model.CasePrimary
	}
	for i, r := range recs {
		if r == nil {
			continue
		}
		if primary[r.ID] {
			out[i] = model.Invalid("combinationItems", "load case %d carries loads; remove them before making it a combination", r.ID)
			continue
		}
		for j, it := range r.CombinationItems {
			if step[it.LoadCase] {
				out[i] = model.Invalid(fmt.Sprintf("combinationItems[%d].loadCase", j),
					"load case %d is a non-linear load step and cannot be combined", it.LoadCase)
				break
			}
		}
		if out[i] != nil || r.ID == 0 {
			continue
		}
		if path := cycleFrom(graph, r.ID); path != nil {
			out[i] = model.Invalid("combinationItems", "the items make a cycle: %s", formatPath(path))
		}
	}
	return out, nil
}

// cycleFrom returns a path from start back to start, or nil.
func cycleFrom(graph map[int64][]int64, start int64) []int64 {
	visited := map[int64]bool{}
	var path []int64
	var walk func(n int64) bool
	walk = func(n int64) bool {
		path = append(path, n)
		for _, m := range graph[n] {
			if m == start {
				path = append(path, m)
				return true
			}
			if !visited[m] {
				visited[m] = true
				if walk(m) {
					return true
				}
			}
		}
		path = path[:len(path)-1]
		return false
	}
	if walk(start) {
		return path
	}
	return nil
}

func formatPath(p []int64) string {
	s := ""
	for i, n := range p {
		if i > 0 {
			s += " → "
		}
		s += fmt.Sprint(n)
	}
	return s
}

// CaseTypes computes the type of each case: Combination with items, Step
// when generated by a non-linear analysis, Primary with loads, else
// Unused. One round trip counts the loads of every case.
func (l *Loads) CaseTypes(ctx context.Context, ws string, cases []model.LoadCase) ([]string, error) {
	var queries []store.CountQuery
	for _, c := range cases {
		for _, coll := range caseLoadCollections {
			r := store.UnderPrefix(c.ID)
			if coll == model.CollSelfWeightLoads {
				r = store.IDRange(c.ID, c.ID)
			}
			queries = append(queries, store.CountQuery{Coll: coll, Range: r})
		}
	}
	counts, err := l.e.model.Count(ctx, ws, queries)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(cases))
	n := len(caseLoadCollections)
	for i, c := range cases {
		var loads int64
		for _, k := range counts[i*n : (i+1)*n] {
			loads += k
		}
		switch {
		case len(c.CombinationItems) > 0:
			out[i] = model.CaseCombination
		case c.StepOf != 0:
			out[i] = model.CaseStep
		case loads > 0:
			out[i] = model.CasePrimary
		default:
			out[i] = model.CaseUnused
		}
	}
	return out, nil
}
