package editor

import (
	"context"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// cascade removes the loads on the nodes, members and plates a plan
// deletes, and lists them in the plan's result.
func (l *Loads) cascade(ctx context.Context, e *Editor, ws string, p *Plan) error {
	res := &p.Result
	type target struct {
		coll string
		list *[]LoadKey
		// hit says whether a key's element goes, and names the key.
		hit func(k []int64) (LoadKey, bool)
	}
	onNode := func(k []int64) (LoadKey, bool) { return LoadKey{LoadCase: k[0], Node: k[1]}, p.Nodes[k[1]] }
	onMember := func(k []int64) (LoadKey, bool) {
		lk := LoadKey{LoadCase: k[0], Member: k[1]}
		if len(k) > 2 {
			lk.SubLoad = k[2]
		}
		return lk, p.Members[k[1]]
	}
	targets := []target{
		{model.CollNodeLoads, &res.NodeLoads, onNode},
		{model.CollPrescribedDisplacements, &res.PrescribedDisplacements, onNode},
		{model.CollLumpedMassLoads, &res.LumpedMassLoads, onNode},
		{model.CollMemberConcentratedLoads, &res.MemberConcentratedLoads, onMember},
		{model.CollMemberDistributedLoads, &res.MemberDistributedLoads, onMember},
		{model.CollMemberTorsionLoads, &res.MemberDistributedMoments, onMember},
		{model.CollMemberPrestressLoads, &res.MemberPrestressLoads, onMember},
		{model.CollPlateLoads, &res.PlatePressureLoads, func(k []int64) (LoadKey, bool) {
			return LoadKey{LoadCase: k[0], Plate: k[1]}, p.Plates[k[1]]
		}},
		{model.CollThermalLoads, &res.ThermalLoads, func(k []int64) (LoadKey, bool) {
			gone := p.Members[k[2]]
			if k[1] == model.ThermalPlate {
				gone = p.Plates[k[2]]
			}
			return LoadKey{LoadCase: k[0], ElementID: k[2], ElementType: ThermalTypeName(k[1])}, gone
		}},
	}
	for _, t := range targets {
		if (t.coll == model.CollNodeLoads || t.coll == model.CollPrescribedDisplacements || t.coll == model.CollLumpedMassLoads) && len(p.Nodes) == 0 {
			continue
		}
		page, err := e.model.Page(ctx, ws, t.coll, nil, 0, -1)
		if err != nil {
			return err
		}
		for _, key := range page.Keys {
			parts, err := store.ParseKey(key)
			if err != nil {
				return err
			}
			if lk, gone := t.hit(parts); gone {
				p.Batch.Delete(t.coll, key)
				*t.list = append(*t.list, lk)
			}
		}
	}
	return nil
}
