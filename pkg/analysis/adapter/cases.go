package adapter

import (
	"context"
	"slices"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/model"
)

// Read reads and converts the model of workspace ws for an analysis
// (Build), sets the plates' drilling stiffness multiplier, and picks the
// load cases of ch (SelectCases): their ids, ascending.
func Read(ctx context.Context, src Source, ws string, settings model.Settings, ch CaseChoice, drilling float64) (Input, []int64, error) {
	in, err := Build(ctx, src, ws, settings)
	if err != nil {
		return in, nil, err
	}
	in.Model.DrillingStiffness = drilling
	ch.Steps = in.StepCases
	ids, err := SelectCases(in.Model, ch)
	return in, ids, err
}

// CaseChoice is what the settings of a run say about its load cases.
type CaseChoice struct {
	List model.IDList
	Some bool   // false: all cases
	Raw  string // loadCases as stored, for messages
	// Check is checkNonExistentLoadCases.
	Check bool
	// PrimaryOnly, when set, names an analysis that takes primary load
	// cases only: "all" leaves the combinations out, and a list naming one
	// is an error.
	PrimaryOnly string
	// Steps are the job's Step load cases (Input.StepCases): never
	// analysed, but not missing either.
	Steps map[int64]int64
}

// SelectCases picks the load cases and combinations the settings ask for:
// all of them when loadCases is empty. It returns their ids, ascending.
func SelectCases(m *domain.Model, ch CaseChoice) ([]int64, error) {
	exists := map[int64]bool{}
	for _, c := range m.LoadCases {
		exists[c.ID] = true
	}
	combos := map[int64]bool{}
	for _, c := range m.Combinations {
		if ch.PrimaryOnly != "" {
			combos[c.ID] = true
			continue
		}
		exists[c.ID] = true
	}
	list, some, s := ch.List, ch.Some, ch
	var ids []int64
	var missing []int64
	if some {
		for _, rg := range list.Ranges {
			// Ranges may be wide ("1-100000"): walk the cases, not the range.
			for id := range exists {
				if id >= rg.Lo && id <= rg.Hi {
					ids = append(ids, id)
				}
			}
			for id := range combos {
				if id >= rg.Lo && id <= rg.Hi {
					return nil, model.E(model.KindValidation, "load case %d is a combination: %s analysis takes primary load cases only "+
						"(make a primary case holding the combined loads)", id, ch.PrimaryOnly)
				}
			}
			if s.Check {
				for id := rg.Lo; id <= rg.Hi && len(missing) < 20; id++ {
					if !exists[id] && ch.Steps[id] == 0 {
						missing = append(missing, id)
					}
				}
			}
		}
	} else {
		for id := range exists {
			ids = append(ids, id)
		}
	}
	if len(missing) > 0 {
		return nil, model.E(model.KindValidation, "loadCases lists load cases that do not exist: %s (checkNonExistentLoadCases is on)",
			model.FormatIDs(missing, nil))
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(ids) == 0 {
		if some {
			var step int64 // the first Step case listed, for the message
			for id := range ch.Steps {
				if list.Contains(id) && (step == 0 || id < step) {
					step = id
				}
			}
			if step != 0 {
				return nil, model.E(model.KindValidation, "loadCases %q names only Step load cases (such as %d, a load step of case %d): "+
					"they hold the results of a non-linear run's load steps and are not analysed themselves", s.Raw, step, ch.Steps[step])
			}
			return nil, model.E(model.KindValidation, "none of the load cases in loadCases %q exists", s.Raw)
		}
		if ch.PrimaryOnly != "" {
			return nil, model.E(model.KindValidation, "the model has no primary load cases to analyse")
		}
		return nil, model.E(model.KindValidation, "the model has no load cases to analyse")
	}
	return ids, nil
}
