package model

import (
	"fmt"
	"time"
)

// AnalysisFamily names a family of analyses whose results are stored
// together and whose settings they share (package analysis registers
// them: linear and non-linear static analyses are one family). It is the
// name of the family's results in the store and in job files, and the
// path segment of its settings and info routes.
type AnalysisFamily string

// AnalysisType is a run's analysisType (as the interface names it): the
// type of a registered analysis kind (package analysis).
type AnalysisType string

// RunStatus is the state of an analysis run.
//
//	Queued ──▶ Running ──▶ Completed | Failed
//	   │          │
//	   │          └──▶ Cancelling ──▶ Cancelled
//	   └──▶ Cancelled (cancelled before a worker took it)
//
// A run whose worker is lost goes back to Queued while asynq retries it,
// and ends Failed ("worker lost") once the retries run out.
type RunStatus string

// The statuses of a run.
const (
	RunQueued     RunStatus = "Queued"
	RunRunning    RunStatus = "Running"
	RunCancelling RunStatus = "Cancelling"
	RunCompleted  RunStatus = "Completed"
	RunFailed     RunStatus = "Failed"
	RunCancelled  RunStatus = "Cancelled"
)

// Finished reports whether s is a final status.
func (s RunStatus) Finished() bool {
	return s == RunCompleted || s == RunFailed || s == RunCancelled
}

// Parameter is one label/value pair of a run's parameters.
type Parameter struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// LoadCaseCount says which load case of how many a run is at.
type LoadCaseCount struct {
	Count int   `json:"count"`
	Index int   `json:"index"`
	ID    int64 `json:"id"`
}

// RunMessage is one message a run logged while it ran.
type RunMessage struct {
	Level     string    `json:"level"`
	Text      string    `json:"text"`
	Timestamp time.Time `json:"timestamp"`
}

// Progress is the live progress of a run (as the interface names it). Steps are the
// stages of the solver; StepPercentages holds each stage's percentage done.
type Progress struct {
	TotalSteps          int           `json:"totalSteps"`
	CurrentStep         int           `json:"currentStep"`
	IterationPercentage float64       `json:"iterationPercentage"`
	StepPercentages     []float64     `json:"stepPercentages"`
	StepLabels          []string      `json:"stepLabels"`
	LoadCaseStatus      string        `json:"loadCaseStatus"`
	LoadCaseCount       LoadCaseCount `json:"loadCaseCount"`
	StatusText          string        `json:"statusText"`
	Messages            []RunMessage  `json:"messages"`
}

// ConvergencePoint is one entry of a non-linear run's convergence history:
// one iteration of one load step of one load case. Percentage is the
// convergence measure in percent, the quantity convergenceAccuracy
// bounds: the out-of-balance forces over the applied load
// (residualsConvergence), the last correction over the displacements
// (deflectionsConvergence), or the larger of the two with both on. A step
// has converged when it is at or below convergenceAccuracy.
type ConvergencePoint struct {
	Iteration  int     `json:"iteration"`
	Percentage float64 `json:"percentage"`
	LoadCase   int64   `json:"loadCase" doc:"extension: the load case iterated"`
	Step       int     `json:"step" doc:"extension: the load step, 1 to loadSteps"`
	LoadFactor float64 `json:"loadFactor" doc:"extension: the load factor of the step"`
	Converged  bool    `json:"converged" doc:"extension: set on the iteration that converged its step"`
}

// MaxConvergencePoints bounds a run's convergence history: past it, the
// oldest points of the run are dropped, so a run of many cases and steps
// keeps its latest iterations in bounded memory.
const MaxConvergencePoints = 2000

// Run is an analysis run record (as the interface names it). ElapsedTime is derived
// when the record is shown (see Shown); the stored record keeps the
// times it is derived from.
type Run struct {
	RunID              string             `json:"runId"`
	AnalysisType       AnalysisType       `json:"analysisType"`
	Status             RunStatus          `json:"status"`
	StartedAt          *time.Time         `json:"startedAt"`
	CompletedAt        *time.Time         `json:"completedAt"`
	ElapsedTime        *string            `json:"elapsedTime"`
	ErrorMessage       string             `json:"errorMessage" doc:"why the run failed: a model the engine cannot analyse names the node and direction, member or plate to fix; \"internal solver fault (please report it): …\" is a fault of the service, not of the model (the run is not retried: the engine is deterministic); a run whose estimated memory exceeds its worker's budget (WORKER_MEMORY) gives the estimate and the budget (not retried: analyse fewer load cases at once, use a coarser mesh or a worker with more memory)"`
	Warnings           []string           `json:"warnings"`
	Header             string             `json:"header"`
	Parameters         []Parameter        `json:"parameters"`
	ConvergenceHistory []ConvergencePoint `json:"convergenceHistory"`
	Progress           Progress           `json:"progress"`

	// QueuedAt is when the run was requested; StartedAt is when a worker
	// began solving it (the elapsed time counts from there).
	QueuedAt time.Time `json:"queuedAt" doc:"extension: when the run was requested"`
	// HeartbeatAt is the last time a worker refreshed the run: a lost
	// worker's run keeps its status until the queue hands it on, but its
	// heartbeat stops.
	HeartbeatAt *time.Time `json:"heartbeatAt" doc:"extension: last refresh by the worker (every 250 ms while it solves, and once as it begins storing the results, which may take longer); after 5 s without one, progress.statusText says the worker is not answering"`
	// Attempt counts the workers that took the run (more than one after a
	// worker was lost).
	Attempt int `json:"attempt" doc:"extension: how many workers took the run (more than 1 after a lost worker)"`
	// Overrides is the run's partial settings body, as the client sent it.
	Overrides []byte `json:"-"`
	// FanOut is set once the run's load cases went out as sub-tasks
	// (non-linear): from then on its sub-tasks, not its own task, tell
	// whether it is lost.
	FanOut bool `json:"-"`
	// Equations is the number of equations the run solved (the free
	// degrees of freedom), for the metrics; 0 until the solver has
	// numbered them. The parameters show it to clients.
	Equations int `json:"-"`
	// MemoryReserved is the memory the run's current attempt reserved of
	// its worker's budget, MemoryBudget, in bytes (0 before it was
	// estimated): when that worker is lost with a run near its budget,
	// the next attempt does not run it (see lifecycle.Runner.Admit).
	MemoryReserved, MemoryBudget int64 `json:"-"`
}

// RunResult is the record of GET .../runs/{runId}/result.
type RunResult struct {
	RunID              string             `json:"runId"`
	AnalysisType       AnalysisType       `json:"analysisType"`
	Status             RunStatus          `json:"status"`
	ElapsedTime        *string            `json:"elapsedTime"`
	Warnings           []string           `json:"warnings"`
	ErrorMessage       string             `json:"errorMessage"`
	ConvergenceHistory []ConvergencePoint `json:"convergenceHistory"`
}

// Shown returns the run as a client sees it at now: the elapsed time is
// live while the run is under way and frozen once it finished; it is null
// while the run waits in the queue.
func (r Run) Shown(now time.Time) Run {
	out := r
	out.ElapsedTime = nil
	if r.StartedAt != nil {
		end := now
		if r.CompletedAt != nil {
			end = *r.CompletedAt
		}
		s := FormatElapsed(end.Sub(*r.StartedAt))
		out.ElapsedTime = &s
	}
	if (r.Status == RunRunning || r.Status == RunCancelling) && r.HeartbeatAt != nil {
		if quiet := now.Sub(*r.HeartbeatAt); quiet > HeartbeatTimeout {
			out.Progress.StatusText = fmt.Sprintf("no word from the worker for %s: if it was lost, another worker takes the run within about 2 minutes",
				quiet.Round(time.Second))
		}
	}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	if out.Parameters == nil {
		out.Parameters = []Parameter{}
	}
	if out.Progress.Messages == nil {
		out.Progress.Messages = []RunMessage{}
	}
	if out.Progress.StepLabels == nil {
		out.Progress.StepLabels = []string{}
		out.Progress.StepPercentages = []float64{}
	}
	return out
}

// Result returns the run result record of a finished run.
func (r Run) Result(now time.Time) RunResult {
	s := r.Shown(now)
	return RunResult{RunID: s.RunID, AnalysisType: s.AnalysisType, Status: s.Status, ElapsedTime: s.ElapsedTime,
		Warnings: s.Warnings, ErrorMessage: s.ErrorMessage, ConvergenceHistory: s.ConvergenceHistory}
}

// FormatElapsed formats a duration as hh:mm:ss.fff (the spec's format);
// negative durations (clock skew between hosts) show as zero.
func FormatElapsed(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	ms := d.Milliseconds()
	return fmt.Sprintf("%02d:%02d:%02d.%03d", ms/3_600_000, ms/60_000%60, ms/1000%60, ms%1000)
}

// HeartbeatTimeout is how long a running run may go without a heartbeat
// before it is shown as not answering.
const HeartbeatTimeout = 5 * time.Second

// MaxRunHistory is how many runs the run list keeps, the current one
// included (spec: the 10 most recent runs); starting an eleventh drops
// the oldest.
const MaxRunHistory = 10
