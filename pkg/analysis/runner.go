package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/static"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Task is one analysis to run: what the queue carries from the API to a
// worker.
type Task struct {
	Workspace string             `json:"workspace"`
	RunID     string             `json:"runId"`
	Kind      model.AnalysisType `json:"kind"`
	// Overrides are the run's setting overrides: the fields the client
	// sent, checked and converted to SI by the API, as a JSON object of
	// the settings record of Kind.
	Overrides json.RawMessage `json:"overrides,omitempty"`
	// LoadCase, on the sub-task of a run that fans out (non-linear),
	// is the load case it solves; 0 on a run's own task.
	LoadCase int64 `json:"loadCase,omitempty"`
	// Steps, on such a sub-task when keepLoadSteps is on, is the number
	// of load steps to keep, as the Step load cases StepBase+1 …
	// StepBase+Steps (planned by the run's own task, so that every
	// attempt numbers them alike).
	Steps    int   `json:"steps,omitempty"`
	StepBase int64 `json:"stepBase,omitempty"`
}

// Runner runs analyses for a worker: it reads the model of the
// workspace, solves it, stores the results and keeps the run record up to
// date. It runs one analysis at a time per process: a cancelled run's
// solver may still be returning when the queue hands out the next task,
// and two solves at once would share the cores and the memory that one
// analysis expects to have.
type Runner struct {
	// Kinds are the analysis kinds it runs; nil means StandardKinds().
	Kinds   *Registry
	Source  Source
	Jobs    store.Jobs
	Runs    store.Runs
	Results store.Results
	// FanOut and Queue serve the runs that fan out over the workers
	// (non-linear): the shared state of a run's sub-tasks, and the queue
	// they go to.
	FanOut store.FanOut
	Queue  Queue
	// Name identifies this worker in run messages; "" shows as
	// "unnamed".
	Name string
	Log  *slog.Logger
	// Tick is how often the run record is refreshed (progress, heartbeat)
	// and checked for a cancel request; zero means 250 ms.
	Tick time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Observe, when set, is told the outcome of every analysis that ran
	// to an end, with the workspace it ran in (metrics).
	Observe func(workspace string, kind model.AnalysisType, status model.RunStatus, dofs int, elapsed time.Duration)
	// Running, when set, is told +1 when a solve starts and −1 when it
	// has returned (metrics: runs in flight).
	Running func(delta int)
	// Resumed, when set, is told when this worker begins a later attempt
	// of a run: the worker of the attempt before was lost or stopped
	// (metrics).
	Resumed func(kind model.AnalysisType)

	once sync.Once
	sem  chan struct{}
}

func (r *Runner) init() {
	r.once.Do(func() {
		r.sem = make(chan struct{}, 1)
		if r.Log == nil {
			r.Log = slog.Default()
		}
		if r.Tick == 0 {
			r.Tick = 250 * time.Millisecond
		}
		if r.Now == nil {
			r.Now = time.Now
		}
		if r.Kinds == nil {
			r.Kinds = StandardKinds()
		}
	})
}

// name is Runner.Name, or "unnamed".
func (r *Runner) name() string {
	if r.Name == "" {
		return "unnamed"
	}
	return r.Name
}

// Steps of a static run as the progress shows them.
var staticSteps = []string{"Reading the model", "Forming member and plate stiffness", "Assembling stiffness",
	"Factorizing", "Solving load cases", "Recovering member results", "Storing results"}

// Run runs t. It returns nil when the run ended (completed, failed with a
// message for the user, or cancelled); an error of model.KindValidation
// when the model cannot be analysed (the run is already marked Failed
// then: retrying cannot help); any other error when the run could not be
// carried out here and another attempt may succeed (the run stays open).
func (r *Runner) Run(ctx context.Context, t Task) error {
	r.init()
	select {
	case r.sem <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("run %s: waiting for the previous analysis: %w", t.RunID, ctx.Err())
	}
	defer func() { <-r.sem }()
	if r.Running != nil {
		r.Running(1)
		defer r.Running(-1)
	}

	k := r.Kinds.Kind(t.Kind)
	if t.LoadCase != 0 && k != nil {
		// A sub-task counts itself down even when its run is being
		// cancelled: the last one ends the run.
		return k.Run(ctx, r, t)
	}
	run, err := r.Runs.Run(ctx, t.Workspace, t.RunID)
	if model.KindOf(err) == model.KindNotFound {
		r.Log.Warn("analysis task for an unknown run dropped", "workspace", t.Workspace, "run", t.RunID)
		return nil
	}
	if err != nil {
		return err
	}
	if run.Status.Finished() {
		return nil
	}
	if run.Status == model.RunCancelling {
		_, err := r.finish(ctx, t, model.RunCancelled, "", nil)
		return err
	}
	if k == nil {
		// An API that serves a kind this worker does not run: the run
		// cannot succeed here, and retrying would not help. A part of a
		// fanned-out run leaves fan-out state that nothing else would end.
		_, err = r.finish(ctx, t, model.RunFailed, fmt.Sprintf("%s is not available on worker %s", t.Kind, r.name()), nil)
		if err == nil && t.LoadCase != 0 {
			err = r.FanOut.Discard(ctx, t.Workspace, t.RunID)
		}
		return err
	}
	return k.Run(ctx, r, t)
}

// finish ends the run with status (releasing the workspace), unless it
// already ended.
func (r *Runner) finish(ctx context.Context, t Task, status model.RunStatus, msg string, fn func(*model.Run)) (model.Run, error) {
	run, err := r.Runs.Update(ctx, t.Workspace, t.RunID, func(run *model.Run) error {
		r.end(run, status, msg, fn)
		return nil
	})
	if errors.Is(err, store.ErrRunFinished) {
		return run, nil
	}
	if err == nil {
		r.observe(t, run)
	}
	return run, err
}

// end marks run finished with status and msg, then applies fn.
func (r *Runner) end(run *model.Run, status model.RunStatus, msg string, fn func(*model.Run)) {
	now := r.Now().UTC()
	run.Status, run.ErrorMessage, run.CompletedAt = status, msg, &now
	if run.StartedAt == nil {
		run.StartedAt = &now
	}
	run.Progress.StatusText = string(status)
	if msg != "" {
		run.Progress.Messages = append(run.Progress.Messages, model.RunMessage{Level: "Error", Text: msg, Timestamp: now})
	}
	if fn != nil {
		fn(run)
	}
}

// observe reports a finished run to the metrics.
func (r *Runner) observe(t Task, run model.Run) {
	r.Log.Info("run ended", "workspace", t.Workspace, "run", t.RunID, "kind", string(t.Kind),
		"status", string(run.Status), "attempt", run.Attempt, "worker", r.name())
	if r.Observe != nil && run.StartedAt != nil && run.CompletedAt != nil {
		r.Observe(t.Workspace, t.Kind, run.Status, paramInt(run.Parameters, paramDOFs), run.CompletedAt.Sub(*run.StartedAt))
	}
}

// Progress is the part of a run's state its solver moves along (the
// steps, the load case under way, the parameters and warnings) and the
// lifecycle publishes into the run record every tick. Its methods are
// safe for concurrent use.
type Progress struct {
	mu       sync.Mutex
	step     int
	percent  []float64
	caseIdx  int
	caseN    int
	caseID   int64
	params   []model.Parameter
	warnings []string
}

func (l *Progress) set(fn func(l *Progress)) {
	l.mu.Lock()
	fn(l)
	l.mu.Unlock()
}

// apply copies the live state into run.
func (l *Progress) apply(run *model.Run, labels []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := &run.Progress
	p.TotalSteps, p.CurrentStep = len(labels), l.step+1
	p.StepLabels = labels
	p.StepPercentages = append([]float64(nil), l.percent...)
	p.IterationPercentage = l.percent[l.step]
	p.LoadCaseCount = model.LoadCaseCount{Count: l.caseN, Index: l.caseIdx, ID: l.caseID}
	p.StatusText = labels[l.step]
	if l.params != nil {
		run.Parameters = append([]model.Parameter(nil), l.params...)
	}
	if l.warnings != nil {
		run.Warnings = append([]string(nil), l.warnings...)
	}
}

// Stage marks step i of the run's steps as under way at pct percent;
// every earlier step is done.
func (l *Progress) Stage(i int, pct float64) { l.stage(i, pct) }

// Cases says that the run analyses n load cases and is at the index-th
// (1 the first), of id id.
func (l *Progress) Cases(n, index int, id int64) {
	l.set(func(l *Progress) { l.caseN, l.caseIdx, l.caseID = n, index, id })
}

// Warn adds msgs to the run's warnings.
func (l *Progress) Warn(msgs ...string) {
	l.set(func(l *Progress) { l.warnings = append(l.warnings, msgs...) })
}

// Parameter adds a label/value pair to the run's parameters.
func (l *Progress) Parameter(label, value string) {
	l.set(func(l *Progress) { l.params = append(l.params, model.Parameter{Label: label, Value: value}) })
}

// stage marks step i as under way at pct percent; every earlier step is
// done.
func (l *Progress) stage(i int, pct float64) {
	l.set(func(l *Progress) {
		for j := range i {
			l.percent[j] = 100
		}
		l.step, l.percent[i] = i, pct
	})
}

// engineSteps maps the engine's stages onto the steps of a static run.
var engineSteps = map[static.Stage]int{static.StageSetup: stepSetup, static.StageAssembly: stepAssembly,
	static.StageFactorization: stepFactor, static.StageSolution: stepSolve, static.StageRecovery: stepRecover}

// engine returns the engine's progress callback: it moves the live state
// along the steps and records the solver parameters as soon as the
// factorizer has analysed the system. ids are the cases solved, for the
// case counter of the reversal loop (which solves them one at a time).
func (l *Progress) engine(ids []int64) func(static.Progress) {
	return func(p static.Progress) {
		if p.NnzL > 0 {
			l.solverParams(p.Equations, p.Method, p.NnzL, p.Flops)
		}
		l.stage(engineSteps[p.Stage], 100*p.Fraction)
		if id := p.Case; id != 0 {
			l.set(func(l *Progress) {
				l.caseID = id
				l.caseIdx = max(l.caseIdx, slices.Index(ids, id)+1)
			})
		}
	}
}

// solverParams records the parameters of the system solved; later calls
// replace them (the reversal loop may renumber).
func (l *Progress) solverParams(eqs int, method string, nnz int64, flops float64) {
	l.set(func(l *Progress) {
		kept := l.params[:0:0]
		for _, p := range l.params {
			switch p.Label {
			case paramDOFs, paramOrdering, paramFactorNNZ, paramFlops:
			default:
				kept = append(kept, p)
			}
		}
		l.params = append(kept,
			model.Parameter{Label: paramDOFs, Value: strconv.Itoa(eqs)},
			model.Parameter{Label: paramOrdering, Value: method},
			model.Parameter{Label: paramFactorNNZ, Value: strconv.FormatInt(nnz, 10)},
			model.Parameter{Label: paramFlops, Value: strconv.FormatFloat(flops, 'g', 4, 64)})
	})
}

// Names of run parameters.
const (
	paramNodes     = "Nodes"
	paramMembers   = "Members"
	paramPlates    = "Plates"
	paramDOFs      = "Degrees of freedom"
	paramCases     = "Load cases"
	paramSolver    = "Solver"
	paramOrdering  = "Ordering"
	paramFactorNNZ = "Factor nonzeros"
	paramFlops     = "Factorization flops"
)

func paramInt(ps []model.Parameter, label string) int {
	for _, p := range ps {
		if p.Label == label {
			var n int
			fmt.Sscan(p.Value, &n)
			return n
		}
	}
	return 0
}

// header is the title line of a run of kind.
func (r *Runner) header(kind model.AnalysisType, h model.Headings) string {
	parts := []string{strings.ToUpper(r.Kinds.Describe(kind))}
	for _, s := range []string{h.ProjectHeading, h.Heading} {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " — ")
}

// engineMessage turns an engine error of t's run into the message its
// failure reads. A model error (*domain.ModelError) reads as the engine
// words it; so does one of the service's own checks that the engine
// passed back (model.KindValidation: a load step's results). Anything
// else is an internal fault of the solver: the run still fails — the
// engine is deterministic, so a retry cannot help — but the message says
// it is not the model's to fix, and the fault is logged as an error.
func (r *Runner) engineMessage(t Task, err error) string {
	var me *domain.ModelError
	switch {
	case errors.As(err, &me):
		return me.Error()
	case model.KindOf(err) == model.KindValidation:
		return err.Error()
	}
	log := r.Log
	if log == nil {
		log = slog.Default()
	}
	log.Error("internal solver fault", "workspace", t.Workspace, "run", t.RunID, "kind", string(t.Kind),
		"part", t.LoadCase, "err", err)
	return "internal solver fault (please report it): " + err.Error()
}
