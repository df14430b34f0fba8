//go:build cholmod

package race

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/fem/gridn"
	"github.com/gusset/gusset/pkg/fem/sparse"
	"github.com/gusset/gusset/pkg/fem/sparse/kernel"
)

// The race's inputs: RACE_CASES (default all of raceCases, comma
// separated) and RACE_RUNS (default 3) runs of each solver, alternating.
var raceCases = []string{"grid-20", "grid-30", "grid-40", "plate-200"}

// Targets of the race: our total over CHOLMOD's, and our numeric rate
// (exact flops per second) as a share of CHOLMOD's.
var (
	totalTarget = map[string]float64{"grid-20": 1.0, "grid-30": 0.75, "grid-40": 0.75}
	rateTarget  = map[string]float64{"grid-30": 0.85}
)

// memoryLimit bounds, per case, the whole process's resident high-water
// mark while gusset solves it, in bytes. Unlike the speed targets it is
// asserted: the count is the process's, with the model, the matrix and
// whatever CHOLMOD's run left mapped, so a standalone solve needs less.
var memoryLimit = map[string]float64{"grid-40": 8 << 30}

// residualBound is the accuracy both solvers must reach on the frames: a
// relative residual ‖b − A·x‖/‖b‖ of 1e-10, as package sparse promises.
//
// The plate mesh cannot meet it in double precision, with either solver:
// its in-plane and drilling stiffnesses exceed the bending ones by the
// square of span over thickness, the load is transverse, and rounding of
// the stiff in-plane terms leaves ‖b − A·x‖ near 4e-10·‖b‖ (6e-9 on
// plate-200) however the system is solved; iterative refinement does not
// lower it. There the bound is on the normwise backward error
// ‖b − A·x‖∞/(‖A‖∞‖x‖∞ + ‖b‖∞), which a backward-stable factorization keeps
// near the unit roundoff: backwardBound allows a hundred times it.
const (
	residualBound = 1e-10
	backwardBound = 1e-14
)

func generate(name string) (*gridn.Model, error) {
	kind, size, ok := strings.Cut(name, "-")
	n, err := strconv.Atoi(size)
	if !ok || err != nil {
		return nil, fmt.Errorf("case %q: want grid-N or plate-N", name)
	}
	switch kind {
	case "grid":
		return gridn.Generate(n)
	case "plate":
		return gridn.GeneratePlate(n)
	}
	return nil, fmt.Errorf("case %q: want grid-N or plate-N", name)
}

// gusset solves m with nested dissection and the best kernels, timed as
// Cholmod times CHOLMOD: wall-clock around each call.
func gusset(m *gridn.Model) (*Run, error) {
	t0 := time.Now()
	sym, err := sparse.Analyze(m.K.Pat, sparse.AnalyzeOptions{Method: sparse.NestedDissection, NodeOf: m.NodeOf})
	if err != nil {
		return nil, err
	}
	analyse := time.Since(t0)
	t1 := time.Now()
	f, err := sparse.Factorize(context.Background(), sym, m.K, sparse.FactorOptions{})
	if err != nil {
		return nil, err
	}
	numeric := time.Since(t1)
	x := make([]float64, m.NFree)
	t2 := time.Now()
	if err := f.Solve(x, m.RHS); err != nil {
		return nil, err
	}
	return &Run{Ordering: "ND", Order: sym.OrderTime, Symbolic: analyse - sym.OrderTime, Numeric: numeric,
		Solve: time.Since(t2), NnzL: float64(sym.NnzL), Flops: sym.Flops, FlopsStored: sym.FlopsStored, X: x}, nil
}

// procStatus reads a "VmXXX:" line of /proc/self/status, in bytes.
func procStatus(field string) float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return math.NaN()
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err == nil {
				return kb * 1024
			}
		}
	}
	return math.NaN()
}

// measured runs solve with the resident set's high-water mark reset, and
// records how far it rose and how high it went: the one memory measure
// that sees CHOLMOD's malloc and Go's heap alike. Freed Go memory goes
// back to the OS first.
func measured(solve func() (*Run, error)) (*Run, error) {
	runtime.GC()
	debug.FreeOSMemory()
	// OpenBLAS's threads spin for a while after a call before they
	// sleep; a pause keeps them from taking a core from the next run.
	time.Sleep(time.Second)
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return nil, fmt.Errorf("reset the peak RSS: %w", err)
	}
	base := procStatus("VmRSS")
	r, err := solve()
	if err != nil {
		return nil, err
	}
	r.PeakProc = procStatus("VmHWM")
	r.PeakRSS = r.PeakProc - base
	return r, nil
}

// denseRates measures C −= A·Bᵀ on an m×m×k product, best of three, with
// our kernels on all cores and with the system BLAS: the dense peak that
// the factorization rates are measured against.
func denseRates() (ours, blas float64) {
	const m, k = 4000, 512
	rng := rand.New(rand.NewPCG(1, 2))
	a, b, c := make([]float64, m*k), make([]float64, m*k), make([]float64, m*m)
	for i := range a {
		a[i], b[i] = rng.Float64(), rng.Float64()
	}
	kn := kernel.Best()
	for range 3 {
		t := time.Now()
		kn.UpdateNTPar(m, m, k, a, m, nil, b, m, c, m, false, runtime.GOMAXPROCS(0))
		ours = max(ours, 2*m*m*k/time.Since(t).Seconds()/1e9)
		blas = max(blas, DGEMM(m, m, k, a, b, c))
	}
	return ours, blas
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// checkSolution fails b unless x solves m to residualBound (frames) or
// backwardBound (plates), and returns the relative residual and the
// normwise backward error.
func checkSolution(b *testing.B, who string, m *gridn.Model, x []float64) (rel, backward float64) {
	b.Helper()
	rel = sparse.RelResidual(m.K, x, m.RHS)
	r := make([]float64, len(x))
	m.K.MulVec(r, x)
	rowSum := make([]float64, len(x))
	p := m.K.Pat
	for j := 0; j < p.N; j++ {
		for q := p.ColPtr[j]; q < p.ColPtr[j+1]; q++ {
			i, v := int(p.RowIdx[q]), math.Abs(m.K.Val[q])
			rowSum[i] += v
			if i != j {
				rowSum[j] += v
			}
		}
	}
	var rInf, aInf, xInf, bInf float64
	for i := range r {
		rInf = max(rInf, math.Abs(m.RHS[i]-r[i]))
		aInf, xInf, bInf = max(aInf, rowSum[i]), max(xInf, math.Abs(x[i])), max(bInf, math.Abs(m.RHS[i]))
	}
	backward = rInf / (aInf*xInf + bInf)
	switch plate := strings.HasPrefix(who, "plate"); {
	case !plate && !(rel <= residualBound):
		b.Errorf("%s: relative residual %.2g > %.0g", who, rel, residualBound)
	case plate && !(backward <= backwardBound):
		b.Errorf("%s: normwise backward error %.2g > %.0g", who, backward, backwardBound)
	}
	return rel, backward
}

// BenchmarkRace races CHOLMOD and gusset on each case, RACE_RUNS times
// each, alternating, and prints the medians side by side with the ratio
// of totals and the growth from the first case to the last. Timing
// targets are reported, not asserted; the residuals and memoryLimit are
// asserted.
func BenchmarkRace(b *testing.B) {
	cases := raceCases
	if s := os.Getenv("RACE_CASES"); s != "" {
		cases = strings.Split(s, ",")
	}
	runs := 3
	if s := os.Getenv("RACE_RUNS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			b.Fatalf("RACE_RUNS=%q: want a positive integer", s)
		}
		runs = v
	}
	ours, blas := denseRates()
	fmt.Printf("%s over %s; gusset kernels %v; GOMAXPROCS %d\n", CholmodVersion, BLAS(), kernel.Best().Impl(), runtime.GOMAXPROCS(0))
	fmt.Printf("dense C −= A·Bᵀ, 4000×4000×512: gusset kernel %.1f GFLOP/s, BLAS dgemm %.1f GFLOP/s\n\n", ours, blas)
	var growth []summary
	for _, name := range cases {
		m, err := generate(name)
		if err != nil {
			b.Fatal(err)
		}
		var ch, gs []*Run
		for i := range runs {
			rc, err := measured(func() (*Run, error) {
				p := m.K.Pat
				return Cholmod(p.N, p.ColPtr, p.RowIdx, m.K.Val, m.RHS)
			})
			if err != nil {
				b.Fatalf("%s: CHOLMOD: %v", name, err)
			}
			rg, err := measured(func() (*Run, error) { return gusset(m) })
			if err != nil {
				b.Fatalf("%s: gusset: %v", name, err)
			}
			if limit, ok := memoryLimit[name]; ok && !(rg.PeakProc < limit) {
				b.Errorf("%s: gusset's process peaked at %.2f GiB resident, limit %.0f GiB", name, rg.PeakProc/(1<<30), limit/(1<<30))
			}
			rc.Residual, rc.Backward = checkSolution(b, name+" CHOLMOD", m, rc.X)
			rg.Residual, rg.Backward = checkSolution(b, name+" gusset", m, rg.X)
			rc.X, rg.X = nil, nil
			ch, gs = append(ch, rc), append(gs, rg)
			fmt.Printf("%s run %d: CHOLMOD %.2f s, gusset %.2f s\n", name, i+1, rc.Total().Seconds(), rg.Total().Seconds())
		}
		s := report(name, m, ch, gs, ours)
		growth = append(growth, s)
	}
	printGrowth(growth)
}

// summary is the medians of one case, for the growth table.
type summary struct {
	name         string
	dofs         int
	cTime, gTime float64
	cMem, gMem   float64
}

func report(name string, m *gridn.Model, ch, gs []*Run, peak float64) summary {
	col := func(rs []*Run, f func(*Run) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		return median(v)
	}
	sec := func(d func(*Run) time.Duration) func(*Run) float64 {
		return func(r *Run) float64 { return d(r).Seconds() }
	}
	rows := []struct {
		label  string
		f      func(*Run) float64
		format string
	}{
		{"nnz(L)", func(r *Run) float64 { return r.NnzL / 1e6 }, "%.1f M"},
		{"flops", func(r *Run) float64 { return r.Flops }, "%.3g"},
		{"flops on stored L", func(r *Run) float64 { return r.FlopsStored }, "%.3g"},
		{"ordering", sec(func(r *Run) time.Duration { return r.Order }), "%.2f s"},
		{"symbolic", sec(func(r *Run) time.Duration { return r.Symbolic }), "%.2f s"},
		{"numeric", sec(func(r *Run) time.Duration { return r.Numeric }), "%.2f s"},
		{"solve", sec(func(r *Run) time.Duration { return r.Solve }), "%.3f s"},
		{"total", sec((*Run).Total), "%.2f s"},
		{"GFLOP/s (flops / numeric)", func(r *Run) float64 { return r.Flops / r.Numeric.Seconds() / 1e9 }, "%.1f"},
		{"GFLOP/s (stored)", func(r *Run) float64 { return r.FlopsStored / r.Numeric.Seconds() / 1e9 }, "%.1f"},
		{"peak RSS growth", func(r *Run) float64 { return r.PeakRSS / (1 << 30) }, "%.2f GiB"},
		{"peak RSS, whole process", func(r *Run) float64 { return r.PeakProc / (1 << 30) }, "%.2f GiB"},
		{"‖b − A·x‖/‖b‖", func(r *Run) float64 { return r.Residual }, "%.1e"},
		{"backward error", func(r *Run) float64 { return r.Backward }, "%.1e"},
	}
	fmt.Printf("\n%s: %d DOFs, %d stored entries of A; medians of %d runs each\n", name, m.NFree, m.K.Pat.Nnz(), len(ch))
	fmt.Printf("  %-26s %-32s %-24s\n", "", "CHOLMOD ("+ch[0].Ordering+")", "gusset (ND)")
	for _, r := range rows {
		fmt.Printf("  %-26s %-32s %-24s\n", r.label, fmt.Sprintf(r.format, col(ch, r.f)), fmt.Sprintf(r.format, col(gs, r.f)))
	}
	ratios := make([]float64, len(ch))
	for i := range ch {
		ratios[i] = gs[i].Total().Seconds() / ch[i].Total().Seconds()
	}
	cTot, gTot := col(ch, sec((*Run).Total)), col(gs, sec((*Run).Total))
	fmt.Printf("  ratio of totals gusset/CHOLMOD: %.2f (medians), per run %.2f%s\n", gTot/cTot, ratios, target(totalTarget, name, gTot/cTot, "at most"))
	rate := func(r *Run) float64 { return r.Flops / r.Numeric.Seconds() }
	// Rates on the exact flop count of each ordering: the work each
	// needed, not the zeros each chose to carry.
	share := col(gs, rate) / col(ch, rate)
	fmt.Printf("  numeric rate gusset/CHOLMOD: %.0f %%%s; gusset at %.0f %% of its dense kernel peak (%.1f GFLOP/s)\n",
		100*share, target(rateTarget, name, share, "at least"), 100*col(gs, func(r *Run) float64 { return r.FlopsStored / r.Numeric.Seconds() / 1e9 })/peak, peak)
	return summary{name: name, dofs: m.NFree, cTime: cTot, gTime: gTot,
		cMem: col(ch, func(r *Run) float64 { return r.PeakRSS }), gMem: col(gs, func(r *Run) float64 { return r.PeakRSS })}
}

// target says whether v meets the case's target, if it has one.
func target(targets map[string]float64, name string, v float64, how string) string {
	t, ok := targets[name]
	if !ok {
		return ""
	}
	met := v <= t
	if how == "at least" {
		met = v >= t
	}
	verdict := "met"
	if !met {
		verdict = "NOT met"
	}
	return fmt.Sprintf(" (target %s %.2f: %s)", how, t, verdict)
}

// printGrowth prints time and memory of every case relative to the first
// grid case, for both solvers.
func printGrowth(ss []summary) {
	var base *summary
	for i := range ss {
		if strings.HasPrefix(ss[i].name, "grid-") {
			base = &ss[i]
			break
		}
	}
	if base == nil {
		return
	}
	fmt.Printf("\ngrowth from %s (time, peak RSS growth; ×%s)\n", base.name, base.name)
	fmt.Printf("  %-10s %9s  %-24s %-24s\n", "case", "DOFs", "CHOLMOD", "gusset")
	for _, s := range ss {
		if !strings.HasPrefix(s.name, "grid-") {
			continue
		}
		fmt.Printf("  %-10s %9d  %-24s %-24s\n", s.name, s.dofs,
			fmt.Sprintf("%.2f s ×%.1f, %.2f GiB", s.cTime, s.cTime/base.cTime, s.cMem/(1<<30)),
			fmt.Sprintf("%.2f s ×%.1f, %.2f GiB", s.gTime, s.gTime/base.gTime, s.gMem/(1<<30)))
	}
}
