// Package session runs the job lifecycle of a workspace: new, open, save,
// close and clear, the recovery file that holds unsaved work, and the job
// record (headings, settings, units). It joins the job store (Redis) with
// the jobs directory (files) and knows nothing of HTTP.
package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/samples"
	"github.com/gusset/gusset/pkg/store"
)

// ForceOption chooses between a job file and its newer recovery file.
type ForceOption string

// The force options of POST /job/open.
const (
	ForceNone                  ForceOption = "None"
	ForceOpenPreviousSaved     ForceOption = "OpenPreviousSaved"
	ForceOpenUnsavedMostRecent ForceOption = "OpenUnsavedMostRecent"
)

// Service is the job lifecycle of every workspace.
type Service struct {
	jobs      store.Jobs
	dir       *jobfile.Dir
	log       *slog.Logger
	now       func() time.Time
	generator string
	// recoveryDelay coalesces recovery-file writes: a burst of edits costs
	// one write. Zero writes inline, before the request returns.
	recoveryDelay time.Duration
	checkModel    func(context.Context, store.Snapshot) error
	checkAnalysis func(model.AnalysisSettings) (model.AnalysisSettings, error)
	prepareSave   func(*store.Snapshot)
	maxJobBytes   int64
	limits        func(context.Context, string) (model.Limits, error)
	// perWorkspace gives each workspace the folder of its name inside dir.
	perWorkspace bool

	dirMu sync.Mutex
	dirs  map[string]*jobfile.Dir // workspace → its jobs directory

	mu      sync.Mutex
	pending map[string]*time.Timer // workspace → scheduled recovery write
	wg      sync.WaitGroup
}

// Options configure a Service.
type Options struct {
	// Generator names the writer in saved files' manifests, e.g. "gusset 0.1.0".
	Generator string
	// RecoveryDelay is how long edits are coalesced before the recovery
	// file is written; zero writes it inline.
	RecoveryDelay time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Log receives background failures; nil means slog.Default().
	Log *slog.Logger
	// CheckModel checks the model rows of a job file before it is opened
	// (the editor's CheckSnapshot); nil opens files unchecked. It stops
	// with an error when ctx (the request's) ends.
	CheckModel func(ctx context.Context, snap store.Snapshot) error
	// CheckAnalysis checks the analysis settings of a job file before it
	// is opened and returns them normalised, with every family's record
	// written out (the analyses' Registry.CheckSettings); nil opens them
	// unchecked.
	CheckAnalysis func(model.AnalysisSettings) (model.AnalysisSettings, error)
	// PrepareSave readies a snapshot for a job file or a recovery file
	// (the analyses' Registry.PrepareSave); nil saves it as it is.
	PrepareSave func(*store.Snapshot)
	// MaxJobBytes caps what a job file may expand to, opened or uploaded,
	// and an uploaded template's size (MAX_JOB_BYTES); zero or less means
	// jobfile.DefaultMaxJobBytes.
	MaxJobBytes int64
	// Limits gives a workspace's limits: a job file whose model holds
	// more rows than they allow is refused before anything is loaded
	// (KindLimitExceeded), and their JobFileBytes, when set, replaces
	// MaxJobBytes for the workspace. nil sets no limit but MaxJobBytes.
	Limits func(ctx context.Context, ws string) (model.Limits, error)
	// WorkspaceDirs gives each workspace a jobs directory of its own, the
	// folder of its name inside the jobs directory (API keys on); false
	// serves the one workspace of open mode from the jobs directory itself.
	WorkspaceDirs bool
}

// New returns a Service over the job store and the jobs directory.
func New(jobs store.Jobs, dir *jobfile.Dir, opt Options) *Service {
	s := &Service{jobs: jobs, dir: dir, log: opt.Log, now: opt.Now, generator: opt.Generator,
		recoveryDelay: opt.RecoveryDelay, checkModel: opt.CheckModel, checkAnalysis: opt.CheckAnalysis, prepareSave: opt.PrepareSave, maxJobBytes: opt.MaxJobBytes, limits: opt.Limits, pending: map[string]*time.Timer{},
		perWorkspace: opt.WorkspaceDirs, dirs: map[string]*jobfile.Dir{}}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.generator == "" {
		s.generator = "gusset"
	}
	if s.maxJobBytes <= 0 {
		s.maxJobBytes = jobfile.DefaultMaxJobBytes
	}
	return s
}

// dirOf is the jobs directory of workspace ws: every file path of the
// workspace resolves inside it, so no request reaches another
// workspace's files.
func (s *Service) dirOf(ws string) (*jobfile.Dir, error) {
	if !s.perWorkspace {
		return s.dir, nil
	}
	s.dirMu.Lock()
	defer s.dirMu.Unlock()
	if d, ok := s.dirs[ws]; ok {
		return d, nil
	}
	d, err := s.dir.Sub(ws)
	if err != nil {
		return nil, model.Wrap("workspace jobs directory", &model.Error{Kind: model.KindUnavailable,
			Msg: "the workspace's jobs directory cannot be used; tell the operator", Err: err})
	}
	s.dirs[ws] = d
	return d, nil
}

func (s *Service) openState(file model.FileInfo, isNew, modified bool) model.State {
	now := s.now().UTC()
	return model.State{IsOpen: true, IsNew: isNew, IsModified: modified, OpenedAt: &now, File: file}
}

// snapshot reads the open job of ws as a file holds it (PrepareSave).
func (s *Service) snapshot(ctx context.Context, ws string) (store.Snapshot, store.Slot, error) {
	snap, sl, err := s.jobs.Snapshot(ctx, ws)
	if err == nil && s.prepareSave != nil {
		s.prepareSave(&snap)
	}
	return snap, sl, err
}

// load opens a job read from a file, once its analysis settings pass
// CheckAnalysis and its rows CheckModel. The results it holds are there
// only when the file's signature verified (jobfile.DecodeContext), so
// CheckModel checks results the service itself saved; a file whose
// results were not opened says so in the state's warnings.
func (s *Service) load(ctx context.Context, ws string, dec jobfile.Decoded, st model.State) (store.Slot, error) {
	snap := dec.Snapshot
	if dec.ResultsDropped != "" {
		st.Warnings = append(st.Warnings, dec.ResultsDropped)
		s.log.Info("job file opened without its results", "workspace", ws, "file", st.File.Path, "why", dec.ResultsDropped)
	}
	if s.checkAnalysis != nil {
		a, err := s.checkAnalysis(snap.Job.Analysis)
		if err != nil {
			return store.Slot{}, jobfile.AnalysisError(err)
		}
		snap.Job.Analysis = a
	}
	if s.limits != nil {
		l, err := s.limits(ctx, ws)
		if err != nil {
			return store.Slot{}, err
		}
		counts := make(map[string]int64, len(snap.Collections))
		for coll, rows := range snap.Collections {
			counts[coll] = int64(len(rows))
		}
		if err := l.CheckCounts(counts); err != nil {
			return store.Slot{}, err
		}
	}
	if s.checkModel != nil {
		if err := s.checkModel(ctx, snap); err != nil {
			return store.Slot{}, err
		}
	}
	return s.jobs.Open(ctx, ws, snap, st)
}

// jobBytes is what a job file of ws may expand to: the workspace's own
// limit when it has one, MaxJobBytes otherwise.
func (s *Service) jobBytes(ctx context.Context, ws string) (int64, error) {
	if s.limits == nil {
		return s.maxJobBytes, nil
	}
	l, err := s.limits(ctx, ws)
	if err != nil || l.JobFileBytes <= 0 {
		return s.maxJobBytes, err
	}
	return l.JobFileBytes, nil
}

// Opened is the result of an operation that loads a job.
type Opened struct {
	Job   model.Job   `json:"job"`
	State model.State `json:"state"`
}

// NewJob opens a blank job with the default configuration.
func (s *Service) NewJob(ctx context.Context, ws string) (Opened, error) {
	snap := store.Snapshot{Job: model.NewJob()}
	sl, err := s.jobs.Open(ctx, ws, snap, s.openState(model.FileInfo{Source: model.SourceNewJob}, true, false))
	if err != nil {
		return Opened{}, fmt.Errorf("new job: %w", err)
	}
	return Opened{Job: snap.Job, State: sl.State}, nil
}

// NewFromTemplate opens the uploaded job file as a new, never-saved job;
// see NewFromTemplateReader.
func (s *Service) NewFromTemplate(ctx context.Context, ws string, file []byte, name string) (Opened, error) {
	return s.NewFromTemplateReader(ctx, ws, bytes.NewReader(file), int64(len(file)), name)
}

// NewFromTemplateReader opens the uploaded job file (size bytes read
// through file, which is not copied) as a new, never-saved job. A file
// larger than MaxJobBytes, or one that expands to more, is a
// model.KindTooLarge error naming the limit; the file is read within ctx,
// and a ctx that ends first (the request's deadline) is a
// model.KindUnavailable error, whichever step it stops.
func (s *Service) NewFromTemplateReader(ctx context.Context, ws string, file io.ReaderAt, size int64, name string) (Opened, error) {
	const op = "new job from template"
	maxBytes, err := s.jobBytes(ctx, ws)
	if err != nil {
		return Opened{}, fmt.Errorf("%s: %w", op, err)
	}
	if size > maxBytes {
		return Opened{}, fmt.Errorf("%s: %w", op, model.E(model.KindTooLarge,
			"the uploaded template is %d bytes, more than the limit of %d bytes a job file may expand to; the operator sets it with %s",
			size, maxBytes, jobfile.MaxJobBytesSetting))
	}
	if err := s.refuseIfOpen(ctx, ws); err != nil {
		return Opened{}, fmt.Errorf("%s: %w", op, outOfTime(ctx, err))
	}
	dec, err := jobfile.DecodeContext(ctx, file, size, maxBytes, s.dir.Keys())
	if err != nil {
		return Opened{}, fmt.Errorf("%s %q: %w", op, name, err)
	}
	sl, err := s.load(ctx, ws, dec, s.openState(model.FileInfo{Source: model.SourceNewJob}, true, false))
	if err != nil {
		return Opened{}, fmt.Errorf("%s: %w", op, outOfTime(ctx, err))
	}
	return Opened{Job: dec.Snapshot.Job, State: sl.State}, nil
}

// outOfTime turns the failure of a step that ctx's end stopped (a store
// call whose deadline passed) into the model.KindUnavailable error that
// jobfile.DecodeContext gives, so that the client reads a 503 about time
// rather than a 500, or than the store's 503 about a connection that
// timed out (the request's deadline bounds the store's reads). Other
// errors pass unchanged.
func outOfTime(ctx context.Context, err error) error {
	cerr := ctx.Err()
	if k := model.KindOf(err); cerr == nil || k != model.KindInternal && k != model.KindUnavailable {
		return err
	}
	return &model.Error{Kind: model.KindUnavailable, Err: err, Msg: fmt.Sprintf(
		"opening the job file took longer than a request may (%v); retry when the service is less busy", cerr)}
}

// OpenSample opens a bundled sample as a new, never-saved job.
func (s *Service) OpenSample(ctx context.Context, ws, fileName string) (Opened, error) {
	if fileName == "" {
		return Opened{}, model.Invalid("fileName", "fileName is required: name one of the bundled samples")
	}
	if err := s.refuseIfOpen(ctx, ws); err != nil {
		return Opened{}, fmt.Errorf("open sample: %w", err)
	}
	b, name, err := samples.Read(fileName)
	if err != nil {
		return Opened{}, fmt.Errorf("open sample: %w", err)
	}
	dec, err := jobfile.Decode(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return Opened{}, fmt.Errorf("open sample %s: %w", name, err)
	}
	info := model.FileInfo{Name: jobName(name), Source: model.SourceNewJob}
	sl, err := s.load(ctx, ws, dec, s.openState(info, true, false))
	if err != nil {
		return Opened{}, fmt.Errorf("open sample: %w", err)
	}
	return Opened{Job: dec.Snapshot.Job, State: sl.State}, nil
}

// refuseIfOpen fails fast, before any file is read, when a job is open.
// The store checks again atomically when it loads the job.
func (s *Service) refuseIfOpen(ctx context.Context, ws string) error {
	sl, err := s.jobs.Slot(ctx, ws)
	if err != nil {
		return err
	}
	if sl.State.IsOpen {
		return model.ErrJobAlreadyOpen
	}
	return nil
}

// Open loads a job file from the jobs directory. When a recovery file newer
// than the job file exists, force chooses: OpenPreviousSaved discards the
// recovery file, OpenUnsavedMostRecent loads it, and None refuses with a
// conflict that names both.
func (s *Service) Open(ctx context.Context, ws, filePath string, force ForceOption) (Opened, error) {
	const op = "open job"
	switch force {
	case "":
		force = ForceNone
	case ForceNone, ForceOpenPreviousSaved, ForceOpenUnsavedMostRecent:
	default:
		return Opened{}, model.Invalid("forceOption", "forceOption must be None, OpenPreviousSaved or OpenUnsavedMostRecent, got %q", string(force))
	}
	dir, err := s.dirOf(ws)
	if err != nil {
		return Opened{}, fmt.Errorf("%s: %w", op, err)
	}
	p, err := dir.Resolve(filePath)
	if err != nil {
		return Opened{}, fmt.Errorf("%s: %w", op, err)
	}
	if err := s.refuseIfOpen(ctx, ws); err != nil {
		return Opened{}, fmt.Errorf("%s: %w", op, err)
	}
	st, err := dir.Stat(p)
	if err != nil {
		return Opened{}, fmt.Errorf("%s: %w", op, err)
	}
	useRecovery, discard := false, false
	if st.RecoveryIsNewer() {
		switch force {
		case ForceNone:
			if !st.Exists {
				return Opened{}, &model.Error{Kind: model.KindConflict, Msg: fmt.Sprintf(
					"%q has unsaved changes from an earlier session in a recovery file, and the job file itself is missing; "+
						"open it again with forceOption OpenUnsavedMostRecent to recover them", p.Rel),
					Fields: []model.FieldError{{Field: "forceOption", Message: "OpenUnsavedMostRecent is required"}}}
			}
			return Opened{}, &model.Error{Kind: model.KindConflict, Msg: fmt.Sprintf(
				"%q has unsaved changes from an earlier session in a recovery file; open it again with forceOption "+
					"OpenUnsavedMostRecent to recover them, or OpenPreviousSaved to discard them and open the last saved version",
				p.Rel), Fields: []model.FieldError{{Field: "forceOption", Message: "OpenUnsavedMostRecent or OpenPreviousSaved is required"}}}
		case ForceOpenUnsavedMostRecent:
			useRecovery = true
		case ForceOpenPreviousSaved:
			if !st.Exists {
				return Opened{}, model.Invalid("forceOption", "%q has no saved job file, only unsaved changes in a recovery file: "+
					"open it with forceOption OpenUnsavedMostRecent (OpenPreviousSaved would discard the only copy)", p.Rel)
			}
			// The recovery file goes once the saved file has opened.
			discard = true
		}
	}
	maxBytes, err := s.jobBytes(ctx, ws)
	if err != nil {
		return Opened{}, fmt.Errorf("%s: %w", op, err)
	}
	var dec jobfile.Decoded
	if useRecovery {
		dec, err = dir.ReadRecoveryContext(ctx, p, maxBytes)
	} else {
		dec, err = dir.ReadContext(ctx, p, maxBytes)
	}
	if err != nil {
		return Opened{}, fmt.Errorf("%s: %w", op, err)
	}
	info := model.FileInfo{Name: p.Name(), Path: p.Rel, Source: model.SourceLocalFile}
	sl, err := s.load(ctx, ws, dec, s.openState(info, false, useRecovery))
	if err != nil {
		return Opened{}, fmt.Errorf("%s: %w", op, err)
	}
	if discard {
		if err := dir.RemoveRecovery(p); err != nil {
			// The job is open and unmodified: a recovery file left behind
			// is only noise for the next open, not lost work.
			s.log.Warn("remove discarded recovery file", "file", p.Rel, "err", err)
		}
	}
	return Opened{Job: dec.Snapshot.Job, State: sl.State}, nil
}

// Saved is the result of a save.
type Saved struct {
	// First is true when the job had never been saved before.
	First bool        `json:"-"`
	State model.State `json:"state"`
}

// Save writes the open job to filePath, or to its own file when filePath is
// empty. A job that was never saved needs a filePath. Saving onto a file
// that is not the open job's own (a new job's first save, or save-as) is a
// conflict when a job file or a recovery file is already there, unless
// overwrite is true; the check and the write are one step, so a file that
// appears meanwhile is not replaced either.
func (s *Service) Save(ctx context.Context, ws, filePath string, overwrite bool) (Saved, error) {
	const op = "save job"
	snap, sl, err := s.snapshot(ctx, ws)
	if err != nil {
		return Saved{}, fmt.Errorf("%s: %w", op, err)
	}
	target := filePath
	if target == "" {
		target = sl.State.File.Path
	}
	if target == "" {
		return Saved{}, &model.Error{Kind: model.KindConflict,
			Msg:    "this job has never been saved: give a filePath relative to the jobs directory, e.g. {\"filePath\": \"my-job.gsj\"}",
			Fields: []model.FieldError{{Field: "filePath", Message: "required for the first save"}}}
	}
	dir, err := s.dirOf(ws)
	if err != nil {
		return Saved{}, fmt.Errorf("%s: %w", op, err)
	}
	p, err := dir.Resolve(target)
	if err != nil {
		return Saved{}, fmt.Errorf("%s: %w", op, err)
	}
	// Stat refuses a folder standing where the file should go.
	st, err := dir.Stat(p)
	if err != nil {
		return Saved{}, fmt.Errorf("%s: %w", op, err)
	}
	replace := overwrite || isOwnFile(dir, sl.State.File.Path, p)
	if !replace {
		if err := refuseOverwrite(p, st); err != nil {
			return Saved{}, fmt.Errorf("%s: %w", op, err)
		}
		err = dir.Create(p, snap, s.generator, s.now())
		if errors.Is(err, jobfile.ErrExists) {
			err = refuseOverwrite(p, jobfile.Stat{Exists: true})
		}
	} else {
		err = dir.Write(p, snap, s.generator, s.now())
	}
	if err != nil {
		return Saved{}, fmt.Errorf("%s: %w", op, err)
	}
	info := model.FileInfo{Name: p.Name(), Path: p.Rel, Source: model.SourceLocalFile}
	after, err := s.jobs.MarkSaved(ctx, ws, info, sl.Rev)
	if err != nil {
		return Saved{}, fmt.Errorf("%s: %w", op, err)
	}
	// The saved file now holds what the recovery file held.
	s.dropRecovery(ws, sl.State.File.Path)
	if !after.State.IsModified {
		s.dropRecovery(ws, p.Rel)
	} else {
		s.Touched(ctx, ws)
	}
	return Saved{First: sl.State.IsNew, State: after.State}, nil
}

// isOwnFile reports whether p is the file the open job was opened from or
// last saved to (own, as the slot records it), also when a link inside the
// jobs directory leads one to the other.
func isOwnFile(dir *jobfile.Dir, own string, p jobfile.Path) bool {
	if own == "" {
		return false
	}
	if own == p.Rel {
		return true
	}
	q, err := dir.Resolve(own)
	return err == nil && q.SameFile(p)
}

// refuseOverwrite is the conflict of a save onto a path where a job file,
// or the recovery file holding another session's unsaved work, already is.
func refuseOverwrite(p jobfile.Path, st jobfile.Stat) error {
	var msg string
	switch {
	case st.Exists:
		msg = fmt.Sprintf("%q already exists in the jobs directory and is not the open job's file; "+
			"send \"overwrite\": true to replace it", p.Rel)
	case st.RecoveryExists:
		msg = fmt.Sprintf("%q has a recovery file %q holding unsaved work of another session; "+
			"send \"overwrite\": true to replace it and discard that work", p.Rel, p.RecoveryRel())
	default:
		return nil
	}
	return &model.Error{Kind: model.KindConflict, Msg: msg,
		Fields: []model.FieldError{{Field: "overwrite", Message: "must be true to replace an existing file"}}}
}

// Close closes the open job, discarding unsaved changes and the recovery
// file; the job file on disk is untouched. Closing with no job open is fine.
func (s *Service) Close(ctx context.Context, ws string) (model.State, error) {
	s.cancelRecovery(ws)
	before, err := s.jobs.Close(ctx, ws)
	if err != nil {
		// Still open (an analysis holds it): its unsaved work still needs
		// the recovery file.
		s.Touched(ctx, ws)
		return model.State{}, fmt.Errorf("close job: %w", err)
	}
	s.dropRecovery(ws, before.State.File.Path)
	return model.ClosedState(), nil
}

// Clear removes all model data and results of the open job; headings, units
// and settings stay. force must be true: it is the caller's confirmation.
func (s *Service) Clear(ctx context.Context, ws string, force bool) (Opened, error) {
	if !force {
		return Opened{}, model.Invalid("force", "clearing removes every node, member, load and result of the job; repeat the request with force=true to confirm")
	}
	if _, err := s.jobs.Clear(ctx, ws); err != nil {
		return Opened{}, fmt.Errorf("clear job data: %w", err)
	}
	s.Touched(ctx, ws)
	job, sl, err := s.jobs.Job(ctx, ws)
	if err != nil {
		return Opened{}, fmt.Errorf("clear job data: %w", err)
	}
	return Opened{Job: job, State: sl.State}, nil
}

func jobName(file string) string {
	p := jobfile.Path{Rel: file}
	return p.Name()
}

// isKind reports whether err is a model error of kind k.
func isKind(err error, k model.Kind) bool {
	var me *model.Error
	return errors.As(err, &me) && me.Kind == k
}
