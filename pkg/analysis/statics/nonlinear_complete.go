package statics

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Gather implements FanOutKind: the static results of the cases that
// converged, stored as a static run stores them (retainLoadCases, the
// Step load cases), and the warnings of the cases that failed.
func (nonLinearStatic) Gather(ctx context.Context, r *lifecycle.Runner, t lifecycle.Task, job model.Job, staged map[int64]store.ResultSet) (lifecycle.Publisher, []string, error) {
	s, err := analysis.RunSettings[model.StaticSettings](staticFamily, t, job)
	if err != nil {
		return nil, nil, err
	}
	set, warnings, err := gatherStaged(staged)
	if err == nil && len(set.cases) == 0 {
		msg := "no load case has results"
		if len(warnings) > 0 {
			msg = warnings[0]
		}
		err = lifecycle.ModelError("%s", msg)
	}
	if err != nil {
		return nil, warnings, err
	}
	return func(ctx context.Context, rev int64, complete lifecycle.Completion) error {
		set.rev = rev
		return runner{r}.storeStatic(ctx, t, s, set, complete)
	}, warnings, nil
}

// gatherStaged assembles the staged entries into the set a run publishes,
// cases ascending, and the messages of the cases that failed.
func gatherStaged(staged map[int64]store.ResultSet) (*staticSet, []string, error) {
	m, ok := staged[lifecycle.SharedPart]
	if !ok {
		return nil, nil, errors.New("the model-wide results of the run are missing")
	}
	set := &staticSet{columns: map[string][]byte{}}
	for name, col := range m.Columns {
		set.columns[name] = col
	}
	var err error
	if set.nodes, err = columns.Ints(m.Columns[columns.Nodes.Name()], 1, columns.Nodes.Name()); err != nil {
		return nil, nil, err
	}
	if set.members, err = columns.Ints(m.Columns[columns.Members.Name()], columns.WidthMember, columns.Members.Name()); err != nil {
		return nil, nil, err
	}
	if p := m.Columns[columns.PlateNodes.Name()]; p != nil {
		if set.plates, err = columns.Ints(p, columns.WidthPlates, columns.PlateNodes.Name()); err != nil {
			return nil, nil, err
		}
	}
	ids := make([]int64, 0, len(staged))
	for lc := range staged {
		if lc != lifecycle.SharedPart {
			ids = append(ids, lc)
		}
	}
	slices.Sort(ids)
	var warnings []string
	for _, lc := range ids {
		e := staged[lc]
		var sc stagedCase
		if err := json.Unmarshal(e.Meta, &sc); err != nil {
			return nil, nil, fmt.Errorf("staged load case %d: %w", lc, err)
		}
		if sc.Failed != "" {
			warnings = append(warnings, sc.Failed)
			set.failed = append(set.failed, lc)
			continue
		}
		for name, col := range e.Columns {
			set.columns[name] = col
		}
		set.cases = append(set.cases, sc.Meta)
	}
	return set, warnings, nil
}
