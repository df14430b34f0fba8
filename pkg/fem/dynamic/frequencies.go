package dynamic

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/eigen"
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/modal"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// Options control Analyze.
type Options struct {
	// Cases lists the load cases to analyse; empty means all.
	Cases []string
	// Modes is the number of modes per case; 0 means 6.
	Modes int
	// LowerLimit and UpperLimit bound the frequencies sought, Hz; 0 means
	// no bound.
	LowerLimit, UpperLimit float64
	// Shift is the frequency (Hz) the modes nearest to which are sought;
	// 0 means the lowest (from LowerLimit).
	Shift float64
	// Tolerance is the relative residual of a converged mode; 0 means
	// 1e-8. ExtraIterations tightens it a hundredfold.
	Tolerance       float64
	ExtraIterations bool
	// Normalization scales the mode shapes; the zero value is
	// mass-normalized.
	Normalization modal.Normalization
	// SolverType and OptimizationMethod choose the sparse orderings.
	SolverType         linsys.SolverType
	OptimizationMethod linsys.OptimizationMethod
}

// Results are the modes of every case analysed, in request order.
type Results struct {
	Cases    []CaseResult
	Warnings []string
	// Equations of the refined model; Factorizations and Applies (vectors
	// the eigen operator was applied to, each a product and a solve) over
	// all cases: the cost, for reports and benchmarks.
	Equations, Factorizations, Applies int
}

// CaseResult holds the modes of one load case, lowest frequency first.
type CaseResult struct {
	Name  string
	Modes []Mode
	// TotalMass is the structure's whole mass along global X, Y and Z,
	// kg, supported nodes included: the base of the participation
	// fractions, whose sum over all modes is the share that can move.
	TotalMass [3]float64
}

// Mode is one natural mode.
type Mode struct {
	Frequency float64 // Hz
	Period    float64 // s; 0 for a zero frequency
	// Tolerance is the mode's relative residual; Iterations the Lanczos
	// steps of its case.
	Tolerance  float64
	Iterations int
	// Participation is the fraction of TotalMass the mode moves along X,
	// Y and Z: (φᵀ·M·r)² / (rᵀ·M·r) for φ mass-normalized and r a unit
	// rigid translation.
	Participation [3]float64
	// Shape holds ux uy uz rx ry rz of every node of the model, global
	// axes.
	Shape [][6]float64
}

// Analyze finds the natural modes of m for each requested load case.
func Analyze(ctx context.Context, m *domain.Model, opts Options) (*Results, error) {
	if opts.Modes <= 0 {
		opts.Modes = 6
	}
	if opts.Tolerance <= 0 {
		opts.Tolerance = 1e-8
	}
	if opts.ExtraIterations {
		opts.Tolerance /= 100
	}
	if opts.UpperLimit > 0 && opts.UpperLimit <= opts.LowerLimit {
		return nil, fmt.Errorf("frequencies: the upper limit %g Hz is not above the lower limit %g Hz", opts.UpperLimit, opts.LowerLimit)
	}
	fz := &linsys.SparseFactorizer{Orderings: linsys.Orderings(opts.SolverType, opts.OptimizationMethod)}
	s, err := modal.New(ctx, m, opts.Modes, fz)
	if err != nil {
		return nil, fmt.Errorf("frequencies: %w", err)
	}
	names := opts.Cases
	if len(names) == 0 {
		for _, c := range m.LoadCases {
			names = append(names, c.Name)
		}
	}
	res := &Results{Equations: s.Equations()}
	for _, name := range names {
		cr, err := analyzeCase(ctx, s, name, opts, res)
		if err != nil {
			return nil, fmt.Errorf("frequencies: load case %s: %w", name, err)
		}
		res.Cases = append(res.Cases, *cr)
	}
	return res, nil
}

// omega2 turns a frequency in Hz into an eigenvalue ω².
func omega2(f float64) float64 { return math.Pow(2*math.Pi*f, 2) }

func analyzeCase(ctx context.Context, s *modal.System, name string, opts Options, res *Results) (*CaseResult, error) {
	var lc *domain.LoadCase
	for i := range s.D.Model.LoadCases {
		if s.D.Model.LoadCases[i].Name == name {
			lc = &s.D.Model.LoadCases[i]
		}
	}
	if lc == nil {
		return nil, errors.New("it does not exist")
	}
	mm, total, err := massOf(s, lc)
	if err != nil {
		return nil, err
	}
	cr := &CaseResult{Name: name, TotalMass: total}
	rig := rigid(s)
	if cr.TotalMass == ([3]float64{}) {
		return nil, errors.New("it has no mass: give it self-weight, lumped masses or loads along gravity")
	}
	lo, hi := omega2(opts.LowerLimit), math.Inf(1)
	if opts.UpperLimit > 0 {
		hi = omega2(opts.UpperLimit)
	}
	sigma := lo
	if opts.Shift > 0 {
		sigma = omega2(opts.Shift)
	}
	f, err := s.Factor(ctx, sigma, mm)
	res.Factorizations++
	if err != nil {
		return nil, err
	}
	sol, err := eigen.Solve(ctx, s.Problem(f, mm, mm), eigen.Options{
		Wanted: opts.Modes, Tol: opts.Tolerance,
		Accept: func(th float64) bool {
			l := sigma + 1/th
			return l >= lo*(1-1e-12) && l <= hi
		},
	})
	partial := errors.Is(err, eigen.ErrNotConverged)
	if err != nil && !partial {
		return nil, err
	}
	res.Applies += sol.Applies
	n := s.Equations()
	order := make([]int, len(sol.Theta))
	lambda := make([]float64, len(sol.Theta))
	for i, th := range sol.Theta {
		order[i], lambda[i] = i, sigma+1/th
	}
	sort.SliceStable(order, func(a, b int) bool { return lambda[order[a]] < lambda[order[b]] })
	for _, i := range order {
		x := sol.Vectors[i*n : (i+1)*n]
		md := Mode{Tolerance: sol.Residual[i], Iterations: sol.Steps}
		if l := lambda[i]; l > 0 {
			md.Frequency = math.Sqrt(l) / (2 * math.Pi)
			md.Period = 1 / md.Frequency
		}
		for d := range 3 {
			if cr.TotalMass[d] > 0 {
				g := quad(mm, x, rig[d])
				md.Participation[d] = g * g / cr.TotalMass[d]
			}
		}
		md.Shape = s.NodeShapes(x)
		modal.Normalize(md.Shape, opts.Normalization)
		cr.Modes = append(cr.Modes, md)
	}
	if partial {
		res.Warnings = append(res.Warnings, fmt.Sprintf("load case %s: %d of %d modes converged", name, len(cr.Modes), opts.Modes))
	}
	in, ok := f.(linsys.Inertial)
	if !ok {
		return nil, errors.New("the factorization reports no inertia for the Sturm check")
	}
	if w, err := sturm(ctx, s, mm, lambda, sigma, in.Inertia().Negative, res); err != nil {
		return nil, err
	} else if w != "" {
		res.Warnings = append(res.Warnings, fmt.Sprintf("load case %s: %s", name, w))
	}
	return cr, nil
}

// sturm counts the eigenvalues between the lowest and the highest found
// (widened by a relative 1e-6, beyond any converged mode's error) and
// returns a warning naming the range when the count differs from the
// number found. belowSigma is the count below the shift σ, from the
// factorization the modes were found with: when every mode found lies
// above σ it is the lower count, and no other factorization is needed
// there.
func sturm(ctx context.Context, s *modal.System, mm *sparse.SymMatrix, lambda []float64, sigma float64, belowSigma int, res *Results) (string, error) {
	if len(lambda) == 0 {
		return "", nil
	}
	a, b := math.Inf(1), math.Inf(-1)
	for _, l := range lambda {
		a, b = math.Min(a, l), math.Max(b, l)
	}
	below := belowSigma
	if a < sigma {
		a -= 1e-6 * math.Abs(a)
		n, err := s.Count(ctx, a, mm)
		res.Factorizations++
		if err != nil {
			return "", err
		}
		below = n
	} else {
		a = sigma
	}
	b += 1e-6 * math.Abs(b)
	upto, err := s.Count(ctx, b, mm)
	res.Factorizations++
	if err != nil {
		return "", err
	}
	if got := upto - below; got != len(lambda) {
		return fmt.Sprintf("the Sturm check counts %d modes between %.6g and %.6g Hz, but %d were found; some may be missing",
			got, math.Sqrt(math.Max(a, 0))/(2*math.Pi), math.Sqrt(b)/(2*math.Pi), len(lambda)), nil
	}
	return "", nil
}

// rigid returns the unit rigid translations along X, Y and Z as equation
// values.
func rigid(s *modal.System) [3][]float64 {
	var r [3][]float64
	n := s.Equations()
	for d := range 3 {
		r[d] = make([]float64, n)
	}
	for q, g := range s.Num.EqDOF {
		if k := g % 6; k < 3 {
			r[k][q] = 1
		}
	}
	return r
}

// quad returns xᵀ·A·y.
func quad(a *sparse.SymMatrix, x, y []float64) float64 {
	ay := make([]float64, len(y))
	a.MulVec(ay, y)
	s := 0.0
	for i, v := range x {
		s += v * ay[i]
	}
	return s
}
