package session

import (
	"context"
	"fmt"

	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

func isNoJob(err error) bool { return isKind(err, model.KindNoJobOpen) }

// Job returns the job record of the open job.
func (s *Service) Job(ctx context.Context, ws string) (model.Job, error) {
	job, _, err := s.jobs.Job(ctx, ws)
	return job, err
}

// JobAndSlot returns the job record with the slot it was read from.
func (s *Service) JobAndSlot(ctx context.Context, ws string) (model.Job, store.Slot, error) {
	return s.jobs.Job(ctx, ws)
}

// Update applies fn to the job record, then schedules the recovery file.
func (s *Service) Update(ctx context.Context, ws string, fn func(*model.Job) error) (model.Job, error) {
	job, _, err := s.jobs.Update(ctx, ws, fn)
	if err != nil {
		return model.Job{}, err
	}
	s.Touched(ctx, ws)
	return job, nil
}

// PatchHeadings changes the supplied headings.
func (s *Service) PatchHeadings(ctx context.Context, ws string, p model.HeadingsPatch) (model.Headings, error) {
	job, err := s.Update(ctx, ws, func(j *model.Job) error { return p.Apply(&j.Headings) })
	return job.Headings, err
}

// PatchSettings changes the supplied job settings.
func (s *Service) PatchSettings(ctx context.Context, ws string, p model.SettingsPatch) (model.Settings, error) {
	job, err := s.Update(ctx, ws, func(j *model.Job) error { return p.Apply(&j.Settings) })
	return job.Settings, err
}

// PatchUnits changes the supplied job units. The model, stored in SI, does
// not change: only how values are presented and read does.
func (s *Service) PatchUnits(ctx context.Context, ws string, p model.UnitsPatch) (model.Units, error) {
	job, err := s.Update(ctx, ws, func(j *model.Job) error { return p.Apply(&j.Units) })
	return job.Units, err
}

// AnalysisSettings returns the analysis settings of the open job.
func (s *Service) AnalysisSettings(ctx context.Context, ws string) (model.AnalysisSettings, error) {
	job, _, err := s.jobs.Job(ctx, ws)
	return job.Analysis, err
}

// PatchAnalysisSettings applies fn (a merge of the client's fields into
// the settings of one family, checked and normalised by fn) to the
// analysis settings. Like every job change it bumps
// the revision, marks the job modified and is refused while an analysis
// runs. fn may run more than once.
func (s *Service) PatchAnalysisSettings(ctx context.Context, ws string, fn func(*model.AnalysisSettings) error) (model.AnalysisSettings, error) {
	job, err := s.Update(ctx, ws, func(j *model.Job) error {
		return fn(&j.Analysis)
	})
	return job.Analysis, err
}

// Slot returns the state of the workspace's job slot.
func (s *Service) Slot(ctx context.Context, ws string) (store.Slot, error) {
	return s.jobs.Slot(ctx, ws)
}

// Counts returns the row count of each model collection of the open job.
func (s *Service) Counts(ctx context.Context, ws string) (map[string]int64, error) {
	return s.jobs.Counts(ctx, ws)
}

// Errors returns the open job's error log.
func (s *Service) Errors(ctx context.Context, ws string) ([]store.ErrorRecord, error) {
	return s.jobs.Errors(ctx, ws)
}

// ClearErrors empties the open job's error log.
func (s *Service) ClearErrors(ctx context.Context, ws string) error {
	return s.jobs.ClearErrors(ctx, ws)
}

// LogError records a failed request in the open job's error log.
func (s *Service) LogError(ctx context.Context, ws string, rec store.ErrorRecord) error {
	return s.jobs.AppendError(ctx, ws, rec)
}

// FileStatus values (as the interface names it).
const (
	FileNotFound                 = "NotFound"
	FileReadyToOpen              = "ReadyToOpen"
	FileLocked                   = "Locked"
	FileRecoveryFilesOnly        = "RecoveryFilesOnly"
	FileUnsavedChanges           = "UnsavedChanges"
	FileLockedWithUnsavedChanges = "LockedWithUnsavedChanges"
	FileUnknown                  = "Unknown"
)

// FileStatus says whether a job file can be opened and what to do about it.
type FileStatus struct {
	FilePath                 string        `json:"filePath"`
	Status                   string        `json:"status"`
	Description              string        `json:"description"`
	RecommendedAction        string        `json:"recommendedAction"`
	CanOpenSafely            bool          `json:"canOpenSafely"`
	AvailableRecoveryOptions []ForceOption `json:"availableRecoveryOptions"`
}

// FileStatus inspects a job file path. "Locked" means the workspace has
// this very file open.
func (s *Service) FileStatus(ctx context.Context, ws, filePath string) (FileStatus, error) {
	dir, err := s.dirOf(ws)
	if err != nil {
		return FileStatus{}, fmt.Errorf("file status: %w", err)
	}
	p, err := dir.Resolve(filePath)
	if err != nil {
		return FileStatus{}, fmt.Errorf("file status: %w", err)
	}
	st, err := dir.Stat(p)
	if err != nil {
		return FileStatus{}, fmt.Errorf("file status: %w", err)
	}
	sl, err := s.jobs.Slot(ctx, ws)
	if err != nil {
		return FileStatus{}, fmt.Errorf("file status: %w", err)
	}
	locked := sl.State.IsOpen && sl.State.File.Path == p.Rel
	out := FileStatus{FilePath: p.Rel, AvailableRecoveryOptions: []ForceOption{}}
	both := []ForceOption{ForceOpenUnsavedMostRecent, ForceOpenPreviousSaved}
	switch {
	case locked && sl.State.IsModified:
		out.Status, out.Description = FileLockedWithUnsavedChanges, "the file is the open job, which has unsaved changes"
		out.RecommendedAction = "save the open job, or close it to discard the changes"
	case locked:
		out.Status, out.Description = FileLocked, "the file is the open job"
		out.RecommendedAction = "it is already open; close it first to open it again"
	case !st.Exists && !st.RecoveryExists:
		out.Status, out.Description = FileNotFound, "no job file at this path"
		out.RecommendedAction = "check the path; it is relative to the jobs directory"
	case !st.Exists:
		out.Status, out.Description = FileRecoveryFilesOnly, "the job file is missing but a recovery file holds unsaved work"
		out.RecommendedAction = "open with forceOption OpenUnsavedMostRecent to recover it"
		out.AvailableRecoveryOptions = []ForceOption{ForceOpenUnsavedMostRecent}
	case st.RecoveryIsNewer():
		out.Status, out.Description = FileUnsavedChanges, "a recovery file holds changes made after the last save"
		out.RecommendedAction = "open with forceOption OpenUnsavedMostRecent to recover them or OpenPreviousSaved to discard them"
		out.AvailableRecoveryOptions = both
	default:
		out.Status, out.Description = FileReadyToOpen, "the job file can be opened"
		out.RecommendedAction = "open it"
		out.CanOpenSafely = !sl.State.IsOpen
		if sl.State.IsOpen {
			out.RecommendedAction = "close the open job first, then open it"
		}
	}
	return out, nil
}

// Preview describes a job file of workspace ws without opening it.
func (s *Service) Preview(ws, filePath string) (jobfile.Preview, error) {
	dir, err := s.dirOf(ws)
	if err != nil {
		return jobfile.Preview{}, fmt.Errorf("file preview: %w", err)
	}
	p, err := dir.Resolve(filePath)
	if err != nil {
		return jobfile.Preview{}, fmt.Errorf("file preview: %w", err)
	}
	pv, err := dir.Preview(p)
	if err != nil {
		return pv, fmt.Errorf("file preview: %w", err)
	}
	return pv, nil
}
