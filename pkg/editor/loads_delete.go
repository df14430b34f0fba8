package editor

import (
	"context"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// CaseDeleteResult is the answer to deleting load cases: the delete result
// record, as the interface documents it for load cases (a case delete
// removes no element, load or item, so its lists are empty and
// totalRemoved counts the case rows that went), with two lists of its own
// that say what became of each case: the cases whose rows went, and those
// kept because loads, combination items, other combinations or moving-load
// scenarios still refer to them (their title and notes are cleared).
type CaseDeleteResult struct {
	DeleteResult
	LoadCases     []int64 `json:"loadCases" doc:"load cases whose rows were removed (an extension of the delete result record)"`
	KeptLoadCases []int64 `json:"keptLoadCases" doc:"load cases kept, with their title and notes cleared, because loads, combination items or moving-load scenarios still refer to them (an extension of the delete result record)"`
}

// DeleteCases deletes load cases the way the spec's state table says:
// only the title, notes and metadata go. A case that something still
// refers to stays listed with an empty title; one without goes. With
// onlyCombinations (the combination endpoint) a case that is not a
// combination is a 404. The plan is guarded by the model revision, so a
// load added meanwhile cannot be left pointing at a deleted case.
func (l *Loads) DeleteCases(ctx context.Context, ws string, ids []int64, cont, onlyCombinations bool) (res CaseDeleteResult, bulk BulkResult, err error) {
	err = l.e.replanLeased(ctx, ws, "the model kept changing while the delete was planned", func(ctx context.Context) error {
		res, bulk, err = l.deleteCasesOnce(ctx, ws, ids, cont, onlyCombinations)
		return err
	})
	return res, bulk, err
}

func (l *Loads) deleteCasesOnce(ctx context.Context, ws string, ids []int64, cont, onlyCombinations bool) (CaseDeleteResult, BulkResult, error) {
	slot, err := l.e.jobs.Slot(ctx, ws)
	if err != nil {
		return CaseDeleteResult{}, BulkResult{}, err
	}
	recs, err := l.Cases.GetMany(ctx, ws, ids)
	if err != nil {
		return CaseDeleteResult{}, BulkResult{}, err
	}
	r := newResults()
	seen := map[int64]bool{}
	var found []model.LoadCase
	for i, c := range recs {
		switch {
		case c == nil || (onlyCombinations && len(c.CombinationItems) == 0):
			r.fail(i, []int64{ids[i]}, l.Cases.notFound([]int64{ids[i]}))
		case seen[c.ID]:
			r.fail(i, []int64{ids[i]}, model.Invalid("id", "load case %d appears twice in the request", c.ID))
		default:
			seen[c.ID] = true
			found = append(found, *c)
			r.res.Succeeded = append(r.res.Succeeded, success(i, []int64{c.ID}))
		}
	}
	if r.anyFailed() && !cont {
		return CaseDeleteResult{}, BulkResult{}, r.rejection("delete load cases")
	}
	types, err := l.CaseTypes(ctx, ws, found)
	if err != nil {
		return CaseDeleteResult{}, BulkResult{}, err
	}
	used, err := l.referencedCases(ctx, ws)
	if err != nil {
		return CaseDeleteResult{}, BulkResult{}, err
	}
	res := CaseDeleteResult{LoadCases: []int64{}, KeptLoadCases: []int64{}}
	normalise(&res.DeleteResult)
	b := store.Batch{ExpectRev: slot.Rev}
	for i, c := range found {
		// A Step case carries neither loads nor items (the editor refuses
		// them) and nothing may include it: its row goes, as an unused
		// one's does.
		if (types[i] == model.CaseUnused || types[i] == model.CaseStep) && !used[c.ID] {
			b.Delete(model.CollLoadCases, store.Key(c.ID))
			res.LoadCases = append(res.LoadCases, c.ID)
			continue
		}
		c.Title, c.Notes = "", ""
		b.Update(model.CollLoadCases, store.Key(c.ID), l.Cases.encode(c))
		res.KeptLoadCases = append(res.KeptLoadCases, c.ID)
	}
	if _, err := l.e.apply(ctx, ws, &b, nil); err != nil {
		return CaseDeleteResult{}, BulkResult{}, err
	}
	res.TotalRemoved = len(res.LoadCases)
	return res, r.res, nil
}

// referencedCases are the cases other rows point at: components of
// combinations and the cases moving-load scenarios combine with.
func (l *Loads) referencedCases(ctx context.Context, ws string) (map[int64]bool, error) {
	used := map[int64]bool{}
	cases, err := l.Cases.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	for _, c := range cases {
		for _, it := range c.CombinationItems {
			used[it.LoadCase] = true
		}
	}
	if l.Moving != nil {
		scenarios, err := l.Moving.Scenarios.All(ctx, ws)
		if err != nil {
			return nil, err
		}
		for _, s := range scenarios {
			for _, c := range s.Combinations {
				used[c.CombineWithLoadCase] = true
			}
		}
	}
	return used, nil
}

// SetGeneral makes node's restraint the general restraint, or clears it
// when node is nil, in one change guarded by the model revision so that
// two concurrent calls cannot leave two general restraints.
func (s *Structure) SetGeneral(ctx context.Context, ws string, node *int64) (rec *model.NodeRestraint, err error) {
	err = s.e.replan(ctx, ws, "the restraints kept changing", func(ctx context.Context) error {
		rec, err = s.setGeneralOnce(ctx, ws, node)
		return err
	})
	if err != nil {
		return nil, err
	}
	return rec, nil
}

func (s *Structure) setGeneralOnce(ctx context.Context, ws string, node *int64) (*model.NodeRestraint, error) {
	slot, err := s.e.jobs.Slot(ctx, ws)
	if err != nil {
		return nil, err
	}
	all, err := s.Restraints.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	b := store.Batch{ExpectRev: slot.Rev}
	var target *model.NodeRestraint
	for i := range all {
		r := all[i]
		want := node != nil && r.Node == *node
		if want {
			target = &all[i]
		}
		if r.GeneralRestraint != want {
			r.GeneralRestraint = want
			b.Update(model.CollNodeRestraints, store.Key(r.Node), s.Restraints.encode(r))
		}
	}
	if node != nil && target == nil {
		return nil, model.E(model.KindNotFound, "node %d has no restraint; create one first", *node)
	}
	if _, err := s.e.apply(ctx, ws, &b, nil); err != nil {
		return nil, err
	}
	if target != nil {
		target.GeneralRestraint = true
	}
	return target, nil
}
