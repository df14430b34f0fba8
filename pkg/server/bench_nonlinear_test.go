package server

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
)

// Non-linear runs through HTTP, timed from their run records
// (completedAt − startedAt: from the worker taking the run to the last
// sub-task publishing its results, so the fan-out's own costs count).
// Run with make bench.

// caseSolved matches the Information line a sub-task logs for its case
// (pkg/analysis, solveCase).
var caseSolved = regexp.MustCompile(`^load case (\d+): converged in \d+ step\(s\), (\d+) iteration\(s\), solved in ([0-9.]+) s by worker (.+)$`)

// caseReport is what a non-linear run's messages tell of its solved
// cases: the cases, their summed solve time and iterations, and the
// workers that solved them.
type caseReport struct {
	cases      map[int]bool
	sum        time.Duration
	iterations int
	workers    map[string]bool
}

// runNonLinearBench runs a non-linear analysis with body and fails b
// unless the run completed with every one of want load cases converged:
// a warning (a case that did not converge has none of its results and
// warns) fails it with the warning's text.
func runNonLinearBench(b *testing.B, s *stack, body any, want int) (model.Run, caseReport) {
	b.Helper()
	run := s.waitUpTo(s.runNonLinear(body).RunID, 20*time.Minute)
	if run.Status != model.RunCompleted {
		b.Fatalf("non-linear run %s: %s %q", run.Status, run.ErrorMessage, run.Warnings)
	}
	if len(run.Warnings) > 0 {
		b.Fatalf("non-linear run warns: %s", strings.Join(run.Warnings, "; "))
	}
	for _, m := range run.Progress.Messages {
		if m.Level == "Warning" {
			b.Fatalf("non-linear run warns: %s", m.Text)
		}
	}
	sc := reportOf(run)
	if len(sc.cases) != want {
		b.Fatalf("messages name %d converged case(s), want %d: %+v", len(sc.cases), want, run.Progress.Messages)
	}
	return run, sc
}

// reportOf reads the Information line of every solved case of run.
func reportOf(run model.Run) caseReport {
	sc := caseReport{cases: map[int]bool{}, workers: map[string]bool{}}
	for _, m := range run.Progress.Messages {
		p := caseSolved.FindStringSubmatch(m.Text)
		if m.Level != "Information" || p == nil {
			continue
		}
		lc, _ := strconv.Atoi(p[1])
		it, _ := strconv.Atoi(p[2])
		sec, _ := strconv.ParseFloat(p[3], 64) // the pattern admits digits and dots only
		sc.cases[lc] = true
		sc.sum += time.Duration(sec * float64(time.Second))
		sc.iterations += it
		sc.workers[p[4]] = true
	}
	return sc
}

// wallTime is a finished run's completedAt − startedAt.
func wallTime(b *testing.B, run model.Run) time.Duration {
	b.Helper()
	if run.StartedAt == nil || run.CompletedAt == nil {
		b.Fatalf("run %s has no start or end: %+v", run.RunID, run)
	}
	return run.CompletedAt.Sub(*run.StartedAt)
}

// BenchmarkNonLinearFanOut runs the 30 load cases of grid-10 (self-weight
// plus k × 10 kN lateral at every free node in case k, so that every case
// differs) in the Small theory on 1 and on 3 workers, each case a
// sub-task. It reports the run's wall time, the sum of the cases' solve
// times as the sub-tasks logged them, their ratio (how many cases were
// solved at once, on average; below 1 the fan-out's own costs: reading the
// model for each case, queueing, staging and publishing) and the number
// of workers that took a case. The settings are the example (5
// load steps, 0.01 %, tangent matrix): about a second of solving per case
// on one worker, so that the cases outweigh the fan-out's per-case costs.
//
// On this 2-core machine workers=3 measures the fan-out's overhead, not a
// speed-up: the 3 workers share 2 cores (each solver would take both), so
// every case solves slower while the others run (case-sum-s grows with
// the workers) and "parallelism" counts cases in flight, not cores at
// work. The wall time can fall at best to what the second core adds to a
// single worker's; the speed-up of the fan-out needs workers on cores (or
// machines) of their own.
func BenchmarkNonLinearFanOut(b *testing.B) {
	const cases = 30
	for _, workers := range []int{1, 3} {
		b.Run("workers="+strconv.Itoa(workers), func(b *testing.B) {
			s := startStack(b, workers)
			s.upload(gridjob.File(10, cases))
			var wall, sum time.Duration
			used := 0
			for range b.N {
				run, sc := runNonLinearBench(b, s, map[string]any{"theory": "Small", "loadSteps": 5,
					"convergenceAccuracy": 0.01, "matrixType": "Tangent"}, cases)
				wall += wallTime(b, run)
				sum += sc.sum
				used = max(used, len(sc.workers))
			}
			b.ReportMetric(wall.Seconds()/float64(b.N), "wall-s")
			b.ReportMetric(sum.Seconds()/float64(b.N), "case-sum-s")
			b.ReportMetric(sum.Seconds()/wall.Seconds(), "parallelism")
			b.ReportMetric(float64(used), "workers-used")
		})
	}
}

// pdeltaSettings are the settings of BenchmarkGrid20PDelta's non-linear
// run, as an engineer would run a second-order check of a frame well
// below its critical load: the Small theory with P-Δ and P-δ (the
// defaults), one load step, 0.1 % on both criteria (the defaults). Secant,
// because it is the faster here: it takes 5 iterations to the tangent's
// 3, but factors the 55,000 equations once where the tangent factors
// them at every iteration (measured on grid-20 with pdeltaGravity:
// nonlinear.Analyze alone, Tangent 3.4–4.2 s against Secant 2.2–2.6 s;
// through HTTP, P-Δ/linear 2.6 with Tangent against 1.6 with Secant; two
// load steps double the cost).
var pdeltaSettings = map[string]any{"theory": "Small", "loadSteps": 1, "convergenceAccuracy": 0.1, "matrixType": "Secant"}

// pdeltaGravity is the floor gravity load at every node of grid-20 above
// the base (N, down), on top of the members' own weight: 100 kN on a
// 3 m × 3 m bay, about 11 kPa. With self-weight alone the columns carry
// too little for P-Δ to matter (it amplifies the top drift by 0.8 %);
// with it the drift grows by about 15 %, a frame for which a second-order
// analysis is what the engineer wants.
const pdeltaGravity = -100e3

// BenchmarkGrid20PDelta times a second-order (P-Δ) run of grid-20's load
// case (self-weight and floor gravity, so the columns carry axial load,
// plus the lateral load) against the linear run of the same job, both
// through HTTP on one worker and timed from their run records,
// alternating (A B A B …, so machine drift hits both). It reports the
// median times, the median of the pairwise ratios, pdelta/linear (the
// issue's target is at most 4: reported here, never asserted), the
// iterations of the P-Δ run and how much P-Δ amplifies the lateral drift
// of the top corner over the linear run's, which shows that the geometric
// stiffness acted (the benchmark fails if it did not).
func BenchmarkGrid20PDelta(b *testing.B) {
	const n = 20
	s := startStack(b, 1)
	s.upload(gridjob.FileOf(n, 1, gridjob.Options{NodeFz: pdeltaGravity}))
	// The drift of the top corner (0, 0, n) in +X, the lateral load's
	// direction.
	top := fmtPath("node-displacements?loadCases=1&nodes=%d", (n+1)*(n+1)*n+1)
	drift := func() float64 {
		d := query[model.NodeDisplacementRow](s, top)
		if len(d.Results) != 1 {
			b.Fatalf("%s: %+v", top, d.Results)
		}
		return d.Results[0].Tx
	}
	const pairs = 3
	var linear, pdelta, ratio []time.Duration
	amp, iterations := 0.0, 0
	for range b.N {
		for range pairs {
			lin := s.waitUpTo(s.run(nil).RunID, 10*time.Minute)
			if lin.Status != model.RunCompleted {
				b.Fatalf("linear run %s: %s", lin.Status, lin.ErrorMessage)
			}
			tl, dl := wallTime(b, lin), drift()
			run, sc := runNonLinearBench(b, s, pdeltaSettings, 1)
			tp, dp := wallTime(b, run), drift()
			if !(dp > dl && dl > 0) {
				b.Fatalf("top drift %g m with P-Δ, %g m linear: P-Δ did not amplify it", dp, dl)
			}
			amp, iterations = dp/dl, sc.iterations
			linear, pdelta = append(linear, tl), append(pdelta, tp)
			ratio = append(ratio, time.Duration(float64(tp)/float64(tl)*1000))
		}
	}
	b.ReportMetric(median(linear).Seconds(), "linear-s")
	b.ReportMetric(median(pdelta).Seconds(), "pdelta-s")
	b.ReportMetric(float64(median(ratio))/1000, "pdelta/linear")
	b.ReportMetric(float64(iterations), "iterations")
	b.ReportMetric(amp, "drift-amplification")
}
