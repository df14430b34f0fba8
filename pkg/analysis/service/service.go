package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Queue carries tasks to the workers (package queue implements it).
type Queue interface {
	// Enqueue queues a task's payload of workspace ws under id: a run's
	// id, or a sub-task's (SubTaskID). A task of that id already queued
	// stays. The workspaces' tasks take turns on the workers.
	Enqueue(ctx context.Context, ws, id string, payload []byte) error
	// Dequeue removes a task of workspace ws no worker has taken; false
	// when one has.
	Dequeue(ctx context.Context, ws, id string) (bool, error)
	// Lost reports whether a task left the queue without finishing.
	Lost(ctx context.Context, id string) (bool, error)
}

// Service starts, reads and cancels analysis runs: the API's side of runs.
// It keeps no state of its own; any replica can serve any call.
type Service struct {
	Runs  store.Runs
	Queue Queue
	// FanOut is the shared state of runs that fan out (non-linear): a
	// cancel removes their queued sub-tasks, and the sub-tasks, not the
	// run's own task, tell whether such a run is lost.
	FanOut store.FanOut
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// LostAfter is how long a run may be missing from the queue before it
	// counts as lost: the run is recorded just before its task is queued.
	// Zero means 30 s.
	LostAfter time.Duration
	// Lost, when set, is told of every run this service gives up as
	// "worker lost" (metrics); a run is reported once, by the replica
	// whose update ended it.
	Lost func(kind model.AnalysisType)
	// Limits gives the workspace's limits, which a run carries to its
	// worker; nil leaves the worker the defaults.
	Limits func(ctx context.Context, ws string) (model.Limits, error)
	// Stored reads the bytes of results a workspace stores; nil leaves
	// the limit on them unchecked and ResultBytes at 0.
	Stored StoredBytes
	// ObserveBytes, when set, is told the bytes a workspace stores each
	// time they are read (metrics).
	ObserveBytes func(ws string, bytes int64)
}

// StoredBytes reads the bytes of the results a workspace stores, by
// family (store.Results implements it).
type StoredBytes interface {
	Bytes(ctx context.Context, ws string) (map[model.AnalysisFamily]int64, error)
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

// Start records a run of kind and queues it. overrides are the run's
// checked setting overrides in SI (a JSON object; nil for none).
func (s *Service) Start(ctx context.Context, ws string, kind model.AnalysisType, overrides json.RawMessage) (model.Run, error) {
	const op = "start analysis"
	if holder, err := s.Runs.Holder(ctx, ws); err == nil && holder != "" {
		// A lost run must not block the workspace for ever.
		if _, err := s.Get(ctx, ws, holder); err != nil && model.KindOf(err) != model.KindNotFound {
			return model.Run{}, model.Wrap(op, err)
		}
	}
	task := lifecycle.Task{Workspace: ws, Kind: kind, Overrides: overrides}
	if s.Limits != nil {
		l, err := s.Limits(ctx, ws)
		if err != nil {
			return model.Run{}, model.Wrap(op, err)
		}
		task.Limits = &l
	}
	run := model.Run{RunID: uuid.NewString(), AnalysisType: kind, Status: model.RunQueued, QueuedAt: s.now(),
		Overrides: overrides, Progress: model.Progress{StatusText: "Waiting for a worker"}}
	if err := s.Runs.Start(ctx, ws, run); err != nil {
		return model.Run{}, model.Wrap(op, err)
	}
	task.RunID = run.RunID
	payload, err := json.Marshal(task)
	if err == nil {
		err = s.Queue.Enqueue(ctx, ws, run.RunID, payload)
	}
	if err != nil {
		_, ferr := s.fail(context.WithoutCancel(ctx), ws, run.RunID, "the analysis could not be queued")
		return model.Run{}, model.Wrap(op, errors.Join(err, ferr))
	}
	return run.Shown(s.now()), nil
}

// ResultBytes returns the bytes of results ws stores and its resultBytes
// limit (0 when the service holds runs to no limits).
func (s *Service) ResultBytes(ctx context.Context, ws string) (stored, limit int64, err error) {
	byFamily, err := s.storedBytes(ctx, ws)
	if err != nil {
		return 0, 0, err
	}
	for _, n := range byFamily {
		stored += n
	}
	if s.Limits != nil {
		l, err := s.Limits(ctx, ws)
		if err != nil {
			return 0, 0, err
		}
		limit = l.ResultBytes
	}
	return stored, limit, nil
}

func (s *Service) storedBytes(ctx context.Context, ws string) (map[model.AnalysisFamily]int64, error) {
	if s.Stored == nil {
		return nil, nil
	}
	byFamily, err := s.Stored.Bytes(ctx, ws)
	if err == nil && s.ObserveBytes != nil {
		var total int64
		for _, n := range byFamily {
			total += n
		}
		s.ObserveBytes(ws, total)
	}
	return byFamily, err
}

// CheckResultBytes refuses a run of family whose results, estimate bytes
// (the kind's ResultBytes), would take ws past limit (its resultBytes
// limit; 0 or less: none) together with the results it stores of the
// other families: a run replaces its own family's results, and the
// estimate covers every case it analyses, retained ones too. It runs
// before the run is recorded, so a refused run leaves nothing behind.
func (s *Service) CheckResultBytes(ctx context.Context, ws string, family model.AnalysisFamily, estimate, limit int64) error {
	if limit <= 0 {
		return nil
	}
	byFamily, err := s.storedBytes(ctx, ws)
	if err != nil {
		return model.Wrap("check stored result bytes", err)
	}
	others := int64(0)
	for f, n := range byFamily {
		if f != family {
			others += n
		}
	}
	if others+estimate <= limit {
		return nil
	}
	d, _ := model.LimitDefOf("resultBytes")
	exceeded := model.Exceeded(d, limit, others+estimate)
	exceeded.Msg = fmt.Sprintf("the run's results would take about %s (estimated from the model) besides %s of stored results of "+
		"other analyses: analyse fewer load cases or modes at a time (loadCases), or delete results (a model change or clearing "+
		"the job does); %s", model.FormatCount(estimate, true)+" bytes", model.FormatCount(others, true)+" bytes", exceeded.Msg)
	return exceeded
}

// Get reads a run as a client sees it. A run whose task left the queue
// without finishing (its worker lost, its retries spent) is marked Failed
// on the way.
func (s *Service) Get(ctx context.Context, ws, id string) (model.Run, error) {
	run, err := s.Runs.Run(ctx, ws, id)
	if err != nil {
		return model.Run{}, err
	}
	run, err = s.reap(ctx, ws, run)
	return run.Shown(s.now()), err
}

// List returns the current run, if any, and the history, newest first.
func (s *Service) List(ctx context.Context, ws string) ([]model.Run, error) {
	runs, err := s.Runs.List(ctx, ws)
	if err != nil {
		return nil, err
	}
	for i := range runs {
		if runs[i], err = s.reap(ctx, ws, runs[i]); err != nil {
			return nil, err
		}
		runs[i] = runs[i].Shown(s.now())
	}
	return runs, nil
}

// Result returns the result record of a finished run; a run still under
// way is a conflict.
func (s *Service) Result(ctx context.Context, ws, id string) (model.RunResult, error) {
	run, err := s.Get(ctx, ws, id)
	if err != nil {
		return model.RunResult{}, err
	}
	if !run.Status.Finished() {
		return model.RunResult{}, model.E(model.KindConflict, "run %s is %s: its result is available once it has finished", id, run.Status)
	}
	return run.Result(s.now()), nil
}

// Cancel asks a run to stop. A run no worker has taken ends at once; a
// running one passes through Cancelling, and the workspace stays locked
// until its solver has really returned. A finished or unknown run is
// KindNotFound.
func (s *Service) Cancel(ctx context.Context, ws, id string) error {
	run, err := s.Get(ctx, ws, id)
	if err != nil {
		return err
	}
	if run.Status.Finished() {
		return model.E(model.KindNotFound, "run %s has already finished (%s): there is nothing to cancel", id, run.Status)
	}
	if run.Status == model.RunQueued {
		removed, err := s.Queue.Dequeue(ctx, ws, id)
		if err != nil {
			return err
		}
		if removed {
			_, err := s.Runs.Update(ctx, ws, id, store.AnyAttempt, func(r *model.Run) error {
				now := s.now()
				r.Status, r.CompletedAt = model.RunCancelled, &now
				r.Progress.StatusText = "Cancelled before a worker took it"
				return nil
			})
			return s.finishedIsNotFound(id, err)
		}
	}
	run, err = s.Runs.Update(ctx, ws, id, store.AnyAttempt, func(r *model.Run) error {
		r.Status = model.RunCancelling
		r.Progress.StatusText = "Cancelling"
		return nil
	})
	if err != nil || !run.FanOut {
		return s.finishedIsNotFound(id, err)
	}
	return s.cancelSubTasks(ctx, ws, id)
}

// cancelSubTasks removes the queued sub-tasks of a fanned-out run being
// cancelled and counts their cases done; when that leaves none pending,
// no sub-task is left to end the run, so it ends here, Cancelled. The
// sub-tasks under way see the cancel within a tick, and the last of them
// ends the run.
func (s *Service) cancelSubTasks(ctx context.Context, ws, id string) error {
	pending, err := s.FanOut.Pending(ctx, ws, id)
	if err != nil {
		return err
	}
	left := len(pending)
	for _, lc := range pending {
		removed, err := s.Queue.Dequeue(ctx, ws, lifecycle.SubTaskID(id, lc))
		if err != nil {
			return err
		}
		if !removed {
			continue
		}
		if left, _, err = s.FanOut.Done(ctx, ws, id, lc); err != nil {
			return err
		}
	}
	if left > 0 {
		return nil
	}
	_, err = s.Runs.Update(ctx, ws, id, store.AnyAttempt, func(r *model.Run) error {
		now := s.now()
		r.Status, r.CompletedAt = model.RunCancelled, &now
		r.Progress.StatusText = string(model.RunCancelled)
		return nil
	})
	if errors.Is(err, store.ErrRunFinished) {
		err = nil // a sub-task ended it first
	}
	if err == nil {
		err = s.FanOut.Discard(ctx, ws, id)
	}
	return err
}

func (s *Service) finishedIsNotFound(id string, err error) error {
	if errors.Is(err, store.ErrRunFinished) {
		return model.E(model.KindNotFound, "run %s has already finished: there is nothing to cancel", id)
	}
	return err
}

// reap marks an unfinished run Failed when its task is lost.
func (s *Service) reap(ctx context.Context, ws string, run model.Run) (model.Run, error) {
	if run.Status.Finished() {
		return run, nil
	}
	if s.now().Sub(run.QueuedAt) < s.grace() {
		return run, nil
	}
	lost, err := s.lost(ctx, ws, run)
	if err != nil || !lost {
		return run, err
	}
	out, err := s.fail(ctx, ws, run.RunID, fmt.Sprintf("worker lost: the analysis was interrupted %d time(s) and given up; run it again", max(run.Attempt, 1)))
	if errors.Is(err, store.ErrRunFinished) {
		return s.Runs.Run(ctx, ws, run.RunID)
	}
	if err == nil && s.Lost != nil {
		s.Lost(run.AnalysisType)
	}
	if err == nil && run.FanOut {
		err = s.FanOut.Discard(ctx, ws, run.RunID)
	}
	return out, err
}

// lost reports whether run's work left the queue without finishing: its
// own task or, once it fanned out, one of its pending sub-tasks (then the
// count can never reach zero). A fanned-out run whose heartbeat is recent
// has a sub-task under way, and is not lost.
func (s *Service) lost(ctx context.Context, ws string, run model.Run) (bool, error) {
	if !run.FanOut {
		return s.Queue.Lost(ctx, run.RunID)
	}
	if run.HeartbeatAt != nil && s.now().Sub(*run.HeartbeatAt) < s.grace() {
		return false, nil
	}
	pending, err := s.FanOut.Pending(ctx, ws, run.RunID)
	if err != nil {
		return false, err
	}
	if len(pending) == 0 {
		// Every case is done and the sub-task completing the run is
		// storing the results, or waits for its retry after its worker
		// was lost: give it the time a retry takes (package queue).
		return run.HeartbeatAt == nil || s.now().Sub(*run.HeartbeatAt) > completionGrace, nil
	}
	for _, lc := range pending {
		if lost, err := s.Queue.Lost(ctx, lifecycle.SubTaskID(run.RunID, lc)); err != nil || lost {
			return lost, err
		}
	}
	return false, nil
}

// completionGrace is how long a fanned-out run with no case pending may
// go without a heartbeat before it counts as lost: longer than asynq
// takes to hand a lost worker's task to another (package queue).
const completionGrace = 5 * time.Minute

// grace is Service.LostAfter with its default.
func (s *Service) grace() time.Duration {
	if s.LostAfter == 0 {
		return 30 * time.Second
	}
	return s.LostAfter
}

// Busy reports whether a run holds the workspace, after marking a lost
// run Failed.
func (s *Service) Busy(ctx context.Context, ws string) (bool, error) {
	holder, err := s.Runs.Holder(ctx, ws)
	if err != nil || holder == "" {
		return false, err
	}
	run, err := s.Get(ctx, ws, holder)
	if model.KindOf(err) == model.KindNotFound {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	if run.Status.Finished() {
		// The lock went with the final status; read it again to be sure.
		holder, err = s.Runs.Holder(ctx, ws)
		return holder != "", err
	}
	return true, nil
}

// fail ends a run as Failed with msg, releasing the workspace.
func (s *Service) fail(ctx context.Context, ws, id, msg string) (model.Run, error) {
	return s.Runs.Update(ctx, ws, id, store.AnyAttempt, func(r *model.Run) error {
		now := s.now()
		r.Status, r.ErrorMessage, r.CompletedAt = model.RunFailed, msg, &now
		r.Progress.StatusText = string(model.RunFailed)
		return nil
	})
}
