package static

import (
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gusset/gusset/pkg/fem/sparse"
)

// Stage is a phase of an analysis, as reported to Options.Progress. The
// stages of a linear analysis run once each, in the order of the
// constants; the reversal loop runs assembly, factorization and solution
// again per iteration (see Progress.Iteration).
type Stage int

// Analysis stages; String gives the label to show a person.
const (
	// StageSetup checks the model and forms the member and plate stiffness
	// matrices.
	StageSetup Stage = iota
	// StageAssembly numbers the equations and assembles the stiffness.
	StageAssembly
	// StageFactorization orders the equations, analyses the pattern and
	// factors the stiffness.
	StageFactorization
	// StageSolution forms the load vectors and solves the load cases (and,
	// in the reversal loop, checks the one-way members and supports).
	StageSolution
	// StageRecovery recovers member results, reactions and equilibrium
	// summaries.
	StageRecovery
)

// String returns the stage's label, e.g. "Factorizing".
func (s Stage) String() string {
	switch s {
	case StageSetup:
		return "Forming member and plate stiffness"
	case StageAssembly:
		return "Assembling stiffness"
	case StageFactorization:
		return "Factorizing"
	case StageSolution:
		return "Solving load cases"
	case StageRecovery:
		return "Recovering member results"
	}
	return "Stage(" + strconv.Itoa(int(s)) + ")"
}

// Progress is a report on a running analysis, passed to Options.Progress.
// Each run of a stage is reported with Fraction 0 when it starts and 1
// when it ends (an analysis that fails ends without the last report).
// In between, at most about every sparse.ProgressInterval, setup and
// recovery report the fraction of members done and the sparse
// factorizer the fraction of its predicted flops done (after a report
// with the symbolic analysis, still at Fraction 0).
type Progress struct {
	// Stage is the stage running (or just ended, at Fraction 1).
	Stage Stage
	// Fraction is the part of this run of the stage done, in [0, 1] and
	// non-decreasing until the next run starts.
	Fraction float64
	// Iteration is the reversal-loop iteration (1, 2, …) of case Case
	// (an id) when Options.TensionCompressionOnly resolves one-way members
	// or supports, in which every case is solved alone; 0 and 0
	// otherwise. Recovery of such a case reports its last iteration.
	Iteration int
	Case      int64
	// Equations is the number of equations of the system being solved,
	// 0 before the first is numbered.
	Equations int
	// Method (the ordering, sparse.Method's name), NnzL (nonzeros of the
	// factor L, diagonal included) and Flops (predicted factorization
	// flops) describe the symbolic analysis of that system once the
	// sparse factorizer has one; they stay zero with other factorizers.
	Method string
	NnzL   int64
	Flops  float64
}

// reporter serializes and throttles the calls of Options.Progress. A nil
// reporter (no callback) does nothing, so the analysis calls it without
// checks. The callback runs with mu held: workers that find it busy skip
// their report rather than wait.
type reporter struct {
	fn    func(Progress)
	start time.Time
	due   atomic.Int64 // ns since start when the next intermediate report may be made
	mu    sync.Mutex
	p     Progress // the current report, guarded by mu
}

func newReporter(fn func(Progress)) *reporter {
	if fn == nil {
		return nil
	}
	return &reporter{fn: fn, start: time.Now()}
}

// begin reports the start of a run of stage st.
func (r *reporter) begin(st Stage) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.p.Stage, r.p.Fraction = st, 0
	r.emit()
}

// end reports the end of the current stage's run.
func (r *reporter) end() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.p.Fraction = 1
	r.emit()
}

// step reports that fraction f of the current stage is done, unless a
// report was made less than sparse.ProgressInterval ago, another
// goroutine is reporting, or f does not advance (1 is left to end). Any
// goroutine may call it.
func (r *reporter) step(f float64) {
	if r == nil {
		return
	}
	now := int64(time.Since(r.start))
	if now < r.due.Load() || !r.mu.TryLock() {
		return
	}
	defer r.mu.Unlock()
	if f > r.p.Fraction && f < 1 {
		r.p.Fraction = f
		r.emit()
	}
}

// set changes fields of the current report without reporting; the next
// report carries them.
func (r *reporter) set(change func(p *Progress)) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	change(&r.p)
}

// system makes s the system of the next reports: its equations and,
// once known, its symbolic analysis. With report set it reports at once,
// for a symbolic analysis just done, which can precede a long numeric
// phase.
func (r *reporter) system(s *system, report bool) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.p.Equations, r.p.Method, r.p.NnzL, r.p.Flops = s.neq, s.method, s.nnzL, s.flops
	if report {
		r.emit()
	}
}

// emit calls the callback; r.mu is held.
func (r *reporter) emit() {
	r.due.Store(int64(time.Since(r.start) + sparse.ProgressInterval))
	r.fn(r.p)
}

// counter turns work items finished by parallel workers into throttled
// fractions of a stage.
type counter struct {
	r     *reporter
	total float64
	done  atomic.Int64
}

// add records n more items done out of c.total.
func (c *counter) add(n int) {
	if c.r == nil {
		return
	}
	c.r.step(float64(c.done.Add(int64(n))) / c.total)
}
