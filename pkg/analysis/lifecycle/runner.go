package lifecycle

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

	"github.com/gusset/gusset/pkg/analysis/adapter"
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
	// Limits are the workspace's limits when the run was started, so
	// that the worker holds the run to the limits the API checked it
	// against; nil (a task queued before limits) means the defaults.
	Limits *model.Limits `json:"limits,omitempty"`
}

// Queue carries the sub-tasks of runs that fan out to the workers
// (package queue implements it).
type Queue interface {
	// Enqueue queues a task's payload of workspace ws under id
	// (SubTaskID). A task of that id already queued stays. The
	// workspaces' tasks take turns on the workers, so that a run's parts
	// do not hold every worker while another workspace waits.
	Enqueue(ctx context.Context, ws, id string, payload []byte) error
}

// Handler runs the tasks of one analysis kind (analysis.Kind).
type Handler interface {
	// Run carries the run of t through r's lifecycle (Runner.Execute, or
	// Runner.RunFannedOut for a FanOutKind).
	Run(ctx context.Context, r *Runner, t Task) error
}

// Kinds finds the handler of an analysis type, as asynq's mux finds the
// handler of a task type (analysis.Registry implements it).
type Kinds interface {
	// Handler returns the handler of tasks of type t; nil when t is not
	// registered.
	Handler(t model.AnalysisType) Handler
	// Describe names the analysis of type t for people.
	Describe(t model.AnalysisType) string
}

// Runner runs analyses for a worker: it reads the model of the
// workspace, solves it, stores the results and keeps the run record up to
// date. It runs one analysis at a time per process: a cancelled run's
// solver may still be returning when the queue hands out the next task,
// and two solves at once would share the cores and the memory that one
// analysis expects to have.
type Runner struct {
	// Kinds are the analysis kinds it runs (an analysis.Registry).
	Kinds   Kinds
	Source  adapter.Source
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
	// Fenced, when set, is told when the store refused a write of an
	// attempt of this worker because another attempt holds the run
	// (store.ErrRunSuperseded): this worker was cut off from the store,
	// or too slow to renew its lease, and the queue gave the run to
	// another worker (metrics).
	Fenced func(kind model.AnalysisType)
	// Patience is how long an attempt whose solve has ended keeps trying
	// to store its results while the store cannot be reached; zero means
	// DefaultPatience.
	Patience time.Duration
	// Memory is the process's memory budget that runs reserve their
	// estimates from (Admit); nil admits every run.
	Memory *MemoryBudget

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
		if r.Patience == 0 {
			r.Patience = DefaultPatience
		}
	})
}

// WorkerName is Runner.Name, or "unnamed": how run messages name the
// worker.
func (r *Runner) WorkerName() string {
	if r.Name == "" {
		return "unnamed"
	}
	return r.Name
}

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

	k := r.Kinds.Handler(t.Kind)
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
		_, err := r.finish(ctx, t, store.AnyAttempt, model.RunCancelled, "", nil)
		return err
	}
	if k == nil {
		// An API that serves a kind this worker does not run: the run
		// cannot succeed here, and retrying would not help. A part of a
		// fanned-out run leaves fan-out state that nothing else would end.
		_, err = r.finish(ctx, t, store.AnyAttempt, model.RunFailed, fmt.Sprintf("%s is not available on worker %s", t.Kind, r.WorkerName()), nil)
		if err == nil && t.LoadCase != 0 {
			err = r.FanOut.Discard(ctx, t.Workspace, t.RunID)
		}
		return err
	}
	return k.Run(ctx, r, t)
}

// finish ends the run with status (releasing the workspace), as
// attempt's (store.Runs.Update), unless it already ended.
func (r *Runner) finish(ctx context.Context, t Task, attempt int, status model.RunStatus, msg string, fn func(*model.Run)) (model.Run, error) {
	run, err := r.Runs.Update(ctx, t.Workspace, t.RunID, attempt, func(run *model.Run) error {
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
		"status", string(run.Status), "attempt", run.Attempt, "worker", r.WorkerName())
	if r.Observe != nil && run.StartedAt != nil && run.CompletedAt != nil {
		r.Observe(t.Workspace, t.Kind, run.Status, run.Equations, run.CompletedAt.Sub(*run.StartedAt))
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
	solver   *SolverStats
	solverAt int // where the solver's parameters go among params
	warnings []string
	// release gives back the run's memory reservation (Runner.Admit).
	release func()
	// attempt is the run's attempt that the progress is of (begin), set
	// before the solve starts: Admit's write is fenced by it.
	attempt int
}

// SolverStats are the parameters of the linear system a run solved, as
// the engine reports them; the run's parameters show them (Names of run
// parameters) and the metrics take the equations.
type SolverStats struct {
	// Equations is the number of equations (free degrees of freedom).
	Equations int
	// Ordering names the fill-reducing ordering the factorizer chose.
	Ordering string
	// FactorNonzeros and Flops size the factorization.
	FactorNonzeros int64
	Flops          float64
}

// params returns the run parameters that show s: the equations, and the
// factorization's when it has an ordering (an eigensolver that reports
// its equations only has none).
func (s SolverStats) params() []model.Parameter {
	out := []model.Parameter{{Label: ParamDOFs, Value: strconv.Itoa(s.Equations)}}
	if s.Ordering == "" {
		return out
	}
	return append(out,
		model.Parameter{Label: ParamOrdering, Value: s.Ordering},
		model.Parameter{Label: ParamFactorNNZ, Value: strconv.FormatInt(s.FactorNonzeros, 10)},
		model.Parameter{Label: ParamFlops, Value: strconv.FormatFloat(s.Flops, 'g', 4, 64)})
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
	switch {
	case l.solver != nil:
		at := min(l.solverAt, len(l.params))
		run.Parameters = slices.Concat(l.params[:at], l.solver.params(), l.params[at:])
		run.Equations = l.solver.Equations
	case l.params != nil:
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

// ModelRead records what a run read: the model's size, the number of
// load cases it analyses and the solver it uses (its first parameters),
// and the warnings of the reading.
func (l *Progress) ModelRead(nodes, members, plates, cases int, solver model.SolverType, warnings []string) {
	l.set(func(l *Progress) {
		l.caseN, l.warnings = cases, append(l.warnings, warnings...)
		l.params = append(l.params,
			model.Parameter{Label: ParamNodes, Value: strconv.Itoa(nodes)},
			model.Parameter{Label: ParamMembers, Value: strconv.Itoa(members)},
			model.Parameter{Label: ParamPlates, Value: strconv.Itoa(plates)},
			model.Parameter{Label: ParamCases, Value: strconv.Itoa(cases)},
			model.Parameter{Label: ParamSolver, Value: string(solver)})
	})
}

// Case says that the run is at load case id, the index-th of its cases
// (1 the first), unless it was further on already: a solver that goes
// over the cases again (the reversal loop of one-way members) does not
// count back.
func (l *Progress) Case(index int, id int64) {
	l.set(func(l *Progress) { l.caseID, l.caseIdx = id, max(l.caseIdx, index) })
}

// Solved records the parameters of the system solved, shown after the
// parameters added so far; a later call replaces them (the reversal loop
// may renumber).
func (l *Progress) Solved(s SolverStats) {
	l.set(func(l *Progress) { l.solver, l.solverAt = &s, len(l.params) })
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

// Names of run parameters.
const (
	ParamNodes     = "Nodes"
	ParamMembers   = "Members"
	ParamPlates    = "Plates"
	ParamDOFs      = "Degrees of freedom"
	ParamCases     = "Load cases"
	ParamSolver    = "Solver"
	ParamOrdering  = "Ordering"
	ParamFactorNNZ = "Factor nonzeros"
	ParamFlops     = "Factorization flops"
)

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
