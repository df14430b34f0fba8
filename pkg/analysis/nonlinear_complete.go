package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// The end of a fanned-out run: the sub-task that leaves no case pending
// gathers what the others staged and completes the run (nonlinear_run.go).

// complete ends a run whose cases are all done: Cancelled after a cancel,
// Failed when no case has results, otherwise Completed with the staged
// results published, and the run warning about each case that failed.
func (r *Runner) complete(ctx context.Context, t Task) error {
	run, err := r.Runs.Run(ctx, t.Workspace, t.RunID)
	if err != nil {
		return err
	}
	if run.Status.Finished() {
		return r.FanOut.Discard(ctx, t.Workspace, t.RunID)
	}
	if run.Status == model.RunCancelling {
		if _, err := r.finish(ctx, t, model.RunCancelled, "", nil); err != nil {
			return err
		}
		return r.FanOut.Discard(ctx, t.Workspace, t.RunID)
	}
	job, slot, err := r.Jobs.Job(ctx, t.Workspace)
	if err != nil {
		return err
	}
	s, err := RunSettings[model.StaticSettings](staticFamily, t, job)
	if err != nil {
		return r.settle(ctx, t, err, false, nil)
	}
	staged, err := r.FanOut.Staged(ctx, t.Workspace, t.RunID)
	if err != nil {
		return err
	}
	set, warnings, err := gatherStaged(staged)
	if err == nil && len(set.cases) == 0 {
		msg := "no load case has results"
		if len(warnings) > 0 {
			msg = warnings[0]
		}
		err = modelError("%s", msg)
	}
	if err == nil {
		set.rev = slot.Rev
		err = r.storeStatic(ctx, t, s, set, func(run *model.Run) {
			r.end(run, model.RunCompleted, "", func(run *model.Run) {
				run.Warnings = append(run.Warnings, warnings...)
				for i := range run.Progress.StepPercentages {
					run.Progress.StepPercentages[i] = 100
				}
				run.Progress.TotalSteps = len(nonlinearSteps)
				run.Progress.CurrentStep = len(nonlinearSteps)
				run.Progress.IterationPercentage = 100
				run.HeartbeatAt = run.CompletedAt
				run.Progress.StatusText = "Analysis completed"
			})
		})
		if err == nil {
			if done, rerr := r.Runs.Run(ctx, t.Workspace, t.RunID); rerr == nil {
				r.observe(t, done)
			}
		}
	}
	if err := r.settle(ctx, t, err, false, func(run *model.Run) { run.Warnings = append(run.Warnings, warnings...) }); err != nil &&
		model.KindOf(err) != model.KindValidation {
		return err
	}
	return r.FanOut.Discard(ctx, t.Workspace, t.RunID)
}

// gatherStaged assembles the staged entries into the set a run publishes,
// cases ascending, and the messages of the cases that failed.
func gatherStaged(staged map[int64]store.ResultSet) (*staticSet, []string, error) {
	m, ok := staged[modelEntry]
	if !ok {
		return nil, nil, errors.New("the model-wide results of the run are missing")
	}
	set := &staticSet{columns: map[string][]byte{}}
	for name, col := range m.Columns {
		set.columns[name] = col
	}
	var err error
	if set.nodes, err = ints(m.Columns[colNodes], 1, colNodes); err != nil {
		return nil, nil, err
	}
	if set.members, err = ints(m.Columns[colMembers], widthMember, colMembers); err != nil {
		return nil, nil, err
	}
	if p := m.Columns[colPlates]; p != nil {
		if set.plates, err = ints(p, widthPlates, colPlates); err != nil {
			return nil, nil, err
		}
	}
	ids := make([]int64, 0, len(staged))
	for lc := range staged {
		if lc != modelEntry {
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
