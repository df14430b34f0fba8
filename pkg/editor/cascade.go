package editor

import (
	"context"
	"fmt"
	"sort"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// DeleteResult lists every row a cascading delete removed (spec "Delete
// result record").
type DeleteResult struct {
	Nodes                 []int64 `json:"nodes"`
	Members               []int64 `json:"members"`
	Plates                []int64 `json:"plates"`
	NodeRestraints        []int64 `json:"nodeRestraints"`
	NodeConstraints       []int64 `json:"nodeConstraints"`
	MemberOffsets         []int64 `json:"memberOffsets"`
	PlateCuts             []int64 `json:"plateCuts"`
	PlateStrips           []int64 `json:"plateStrips"`
	MembersDirectionReset []int64 `json:"membersDirectionReset"`
	PlatesDirectionReset  []int64 `json:"platesDirectionReset"`
	// Loads removed with their elements, by their composite keys.
	NodeLoads                []LoadKey `json:"nodeLoads"`
	PrescribedDisplacements  []LoadKey `json:"prescribedDisplacements"`
	LumpedMassLoads          []LoadKey `json:"lumpedMassLoads"`
	MemberConcentratedLoads  []LoadKey `json:"memberConcentratedLoads"`
	MemberDistributedLoads   []LoadKey `json:"memberDistributedLoads"`
	MemberDistributedMoments []LoadKey `json:"memberDistributedMoments"`
	MemberPrestressLoads     []LoadKey `json:"memberPrestressLoads"`
	PlatePressureLoads       []LoadKey `json:"platePressureLoads"`
	ThermalLoads             []LoadKey `json:"thermalLoads"`
	TotalRemoved             int       `json:"totalRemoved"`
}

// LoadKey is the composite key of a removed load: its case and element
// (and sub-load, or element type for thermal loads).
type LoadKey struct {
	LoadCase    int64  `json:"loadCase"`
	Node        int64  `json:"node,omitempty"`
	Member      int64  `json:"member,omitempty"`
	Plate       int64  `json:"plate,omitempty"`
	SubLoad     int64  `json:"subLoad,omitempty"`
	ElementID   int64  `json:"elementId,omitempty"`
	ElementType string `json:"elementType,omitempty"`
}

// Plan is a cascading delete being worked out: what goes, what is reset.
type Plan struct {
	Nodes, Members, Plates map[int64]bool
	Batch                  store.Batch
	Result                 DeleteResult
}

// Dependent removes the rows of another collection that refer to what a
// plan deletes (loads on deleted nodes, say). Later resources register one.
type Dependent func(ctx context.Context, e *Editor, ws string, p *Plan) error

// DeleteElements deletes nodes, members and plates with everything that
// depends on them, as one atomic change. Ids missing from the model fail
// the request (404) unless continueOnError, in which case they are
// reported and skipped (the per-item result is in bulk).
func (s *Structure) DeleteElements(ctx context.Context, ws string, coll string, ids []int64, continueOnError bool) (res DeleteResult, bulk BulkResult, err error) {
	err = s.e.replanLeased(ctx, ws, "the model kept changing while the delete was planned", func(ctx context.Context) error {
		res, bulk, err = s.deleteOnce(ctx, ws, coll, ids, continueOnError)
		return err
	})
	return res, bulk, err
}

func (s *Structure) deleteOnce(ctx context.Context, ws, coll string, ids []int64, continueOnError bool) (DeleteResult, BulkResult, error) {
	e := s.e
	slot, err := e.jobs.Slot(ctx, ws)
	if err != nil {
		return DeleteResult{}, BulkResult{}, err
	}
	if !slot.State.IsOpen {
		return DeleteResult{}, BulkResult{}, model.ErrNoJobOpen
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = store.Key(id)
	}
	found, err := e.model.Exists(ctx, ws, coll, keys...)
	if err != nil {
		return DeleteResult{}, BulkResult{}, err
	}
	r := newResults()
	noun := map[string]string{model.CollNodes: "node", model.CollMembers: "member", model.CollPlates: "plate"}[coll]
	p := &Plan{Nodes: map[int64]bool{}, Members: map[int64]bool{}, Plates: map[int64]bool{}}
	target := map[string]map[int64]bool{model.CollNodes: p.Nodes, model.CollMembers: p.Members, model.CollPlates: p.Plates}[coll]
	for i, id := range ids {
		if !found[i] {
			r.fail(i, []int64{id}, model.NotFound(noun, id))
			continue
		}
		target[id] = true
		r.res.Succeeded = append(r.res.Succeeded, success(i, []int64{id}))
	}
	if r.anyFailed() && !continueOnError {
		return DeleteResult{}, BulkResult{}, r.rejection("delete " + noun + "s")
	}
	if err := s.plan(ctx, ws, p); err != nil {
		return DeleteResult{}, BulkResult{}, err
	}
	p.Batch.ExpectRev = slot.Rev
	if _, err := e.apply(ctx, ws, &p.Batch, nil); err != nil {
		return DeleteResult{}, BulkResult{}, fmt.Errorf("delete %ss: %w", noun, err)
	}
	return p.Result, r.res, nil
}

// plan works out the cascade of p's nodes, members and plates.
func (s *Structure) plan(ctx context.Context, ws string, p *Plan) error {
	members, err := s.Members.All(ctx, ws)
	if err != nil {
		return err
	}
	plates, err := s.Plates.All(ctx, ws)
	if err != nil {
		return err
	}
	touched := map[int64]bool{} // end nodes of removed elements
	for _, m := range members {
		if p.Nodes[m.NodeA] || p.Nodes[m.NodeB] {
			p.Members[m.ID] = true
		}
		if p.Members[m.ID] {
			touched[m.NodeA], touched[m.NodeB] = true, true
		}
	}
	for _, pl := range plates {
		corners := plateNodes(&pl)
		for _, n := range corners {
			if p.Nodes[n] {
				p.Plates[pl.ID] = true
			}
		}
		if p.Plates[pl.ID] {
			for _, n := range corners {
				touched[n] = true
			}
		}
	}
	// Nodes that lose their last element go too.
	connected := map[int64]bool{}
	for _, m := range members {
		if !p.Members[m.ID] {
			connected[m.NodeA], connected[m.NodeB] = true, true
		}
	}
	for _, pl := range plates {
		if !p.Plates[pl.ID] {
			for _, n := range plateNodes(&pl) {
				connected[n] = true
			}
		}
	}
	for n := range touched {
		if !connected[n] {
			p.Nodes[n] = true
		}
	}
	res := &p.Result
	del := func(coll string, id int64, list *[]int64) {
		p.Batch.Delete(coll, store.Key(id))
		*list = append(*list, id)
	}
	for _, id := range sortedIDs(p.Nodes) {
		del(model.CollNodes, id, &res.Nodes)
	}
	for _, id := range sortedIDs(p.Members) {
		del(model.CollMembers, id, &res.Members)
	}
	for _, id := range sortedIDs(p.Plates) {
		del(model.CollPlates, id, &res.Plates)
	}
	// Attribute rows of deleted nodes and members.
	if err := s.cascadeAttributes(ctx, ws, p); err != nil {
		return err
	}
	// Directions that pointed at a deleted node revert to angle 0.
	for _, m := range members {
		if !p.Members[m.ID] && m.Direction.Source == "Node" && p.Nodes[m.Direction.DirNode] {
			m.Direction = model.Direction{Source: "Angle", DirAxis: "NotApplicable"}
			p.Batch.Update(model.CollMembers, store.Key(m.ID), s.Members.encode(m))
			res.MembersDirectionReset = append(res.MembersDirectionReset, m.ID)
		}
	}
	for _, pl := range plates {
		if !p.Plates[pl.ID] && pl.Direction.Source == "Node" && p.Nodes[pl.Direction.DirNode] {
			pl.Direction = model.Direction{Source: "Angle", DirAxis: "NotApplicable"}
			p.Batch.Update(model.CollPlates, store.Key(pl.ID), s.Plates.encode(pl))
			res.PlatesDirectionReset = append(res.PlatesDirectionReset, pl.ID)
		}
	}
	for _, d := range s.dependents {
		if err := d(ctx, s.e, ws, p); err != nil {
			return err
		}
	}
	res.TotalRemoved = len(res.Nodes) + len(res.Members) + len(res.Plates) + len(res.NodeRestraints) +
		len(res.NodeConstraints) + len(res.MemberOffsets) + len(res.PlateCuts) + len(res.PlateStrips) +
		len(res.NodeLoads) + len(res.PrescribedDisplacements) + len(res.LumpedMassLoads) + len(res.MemberConcentratedLoads) +
		len(res.MemberDistributedLoads) + len(res.MemberDistributedMoments) + len(res.MemberPrestressLoads) +
		len(res.PlatePressureLoads) + len(res.ThermalLoads)
	normalise(res)
	return nil
}

func (s *Structure) cascadeAttributes(ctx context.Context, ws string, p *Plan) error {
	res := &p.Result
	nodes := sortedIDs(p.Nodes)
	if len(nodes) > 0 {
		has, err := s.e.model.Exists(ctx, ws, model.CollNodeRestraints, keysOf(nodes)...)
		if err != nil {
			return err
		}
		for i, id := range nodes {
			if has[i] {
				p.Batch.Delete(model.CollNodeRestraints, store.Key(id))
				res.NodeRestraints = append(res.NodeRestraints, id)
			}
		}
		cons, err := s.Constraints.All(ctx, ws)
		if err != nil {
			return err
		}
		for _, c := range cons {
			if p.Nodes[c.SlaveNode] || p.Nodes[c.MasterNode] {
				p.Batch.Delete(model.CollNodeConstraints, store.Key(c.SlaveNode))
				res.NodeConstraints = append(res.NodeConstraints, c.SlaveNode)
			}
		}
	}
	members := sortedIDs(p.Members)
	if len(members) > 0 {
		has, err := s.e.model.Exists(ctx, ws, model.CollMemberOffsets, keysOf(members)...)
		if err != nil {
			return err
		}
		for i, id := range members {
			if has[i] {
				p.Batch.Delete(model.CollMemberOffsets, store.Key(id))
				res.MemberOffsets = append(res.MemberOffsets, id)
			}
		}
	}
	return nil
}

func plateNodes(p *model.Plate) []int64 {
	if p.NodeD == 0 {
		return []int64{p.NodeA, p.NodeB, p.NodeC}
	}
	return []int64{p.NodeA, p.NodeB, p.NodeC, p.NodeD}
}

func sortedIDs(set map[int64]bool) []int64 {
	out := make([]int64, 0, len(set))
	for id := range set {
		out = append(out, id)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func keysOf(ids []int64) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = store.Key(id)
	}
	return out
}

// normalise turns nil lists into empty ones so the wire shows [] not null.
func normalise(r *DeleteResult) {
	for _, l := range []*[]int64{&r.Nodes, &r.Members, &r.Plates, &r.NodeRestraints, &r.NodeConstraints,
		&r.MemberOffsets, &r.PlateCuts, &r.PlateStrips, &r.MembersDirectionReset, &r.PlatesDirectionReset} {
		if *l == nil {
			*l = []int64{}
		}
	}
	for _, l := range []*[]LoadKey{&r.NodeLoads, &r.PrescribedDisplacements, &r.LumpedMassLoads, &r.MemberConcentratedLoads,
		&r.MemberDistributedLoads, &r.MemberDistributedMoments, &r.MemberPrestressLoads, &r.PlatePressureLoads, &r.ThermalLoads} {
		if *l == nil {
			*l = []LoadKey{}
		}
	}
}
