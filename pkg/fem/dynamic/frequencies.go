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

// Options control Analyze: the common settings (limits in Hz; the
// zero Normalization is mass-normalized) and the shift.
type Options struct {
	modal.Settings
	// Shift is the frequency (Hz) the modes nearest to which are sought;
	// 0 means the lowest (from LowerLimit).
	Shift float64
}

// Results are the modes of every case analysed, in request order.
type Results struct {
	Cases []CaseResult
	modal.Report
}

// CaseResult holds the modes of one load case, lowest frequency first.
type CaseResult struct {
	Case  int64 // the load case's id
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
	if err := opts.Resolve("frequencies"); err != nil {
		return nil, err
	}
	s, err := modal.New(ctx, m, opts.Modes, opts.Factorizer())
	if err != nil {
		return nil, domain.Wrapf("frequencies: %w", err)
	}
	if opts.Stabilize {
		s.Stabilize()
	}
	if opts.Admit != nil {
		// A case's mass matrix and the shifted K − σM factored, on K's
		// pattern.
		nnz := int64(len(s.K.Pat.RowIdx))
		if err := s.Admit(ctx, opts.Admit, len(opts.CaseIDs(m)), opts.Modes, 16*nnz, 0); err != nil {
			return nil, domain.Wrapf("frequencies: %w", err)
		}
	}
	res := &Results{Report: modal.Report{Equations: s.Equations()}}
	for _, id := range opts.CaseIDs(m) {
		cr, err := analyzeCase(ctx, s, id, opts, res)
		if err != nil {
			return nil, domain.Wrapf("frequencies: load case %d: %w", id, err)
		}
		res.Cases = append(res.Cases, *cr)
	}
	if w := s.StabilizedWarning(); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	return res, nil
}

// omega2 turns a frequency in Hz into an eigenvalue ω².
func omega2(f float64) float64 { return math.Pow(2*math.Pi*f, 2) }

func analyzeCase(ctx context.Context, s *modal.System, id int64, opts Options, res *Results) (*CaseResult, error) {
	var lc *domain.LoadCase
	for i := range s.D.Model.LoadCases {
		if s.D.Model.LoadCases[i].ID == id {
			lc = &s.D.Model.LoadCases[i]
		}
	}
	if lc == nil {
		return nil, domain.ModelErrorf(domain.ModelError{Case: id}, "it does not exist")
	}
	mm, total, err := massOf(s, lc)
	if err != nil {
		return nil, err
	}
	cr := &CaseResult{Case: id, TotalMass: total}
	mr := massTranslations(s, mm)
	if cr.TotalMass == ([3]float64{}) {
		return nil, domain.ModelErrorf(domain.ModelError{Case: id}, "it has no mass: give it self-weight, lumped masses or loads along gravity")
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
		Wanted: opts.Modes + modal.Extra(opts.Modes), Tol: opts.Tolerance,
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
	// Solve returns the pairs nearest σ first; the extra ones only keep a
	// repeated frequency from being cut in two at the last mode wanted.
	order := make([]int, min(opts.Modes, len(sol.Theta)))
	lambda := make([]float64, len(sol.Theta))
	for i, th := range sol.Theta {
		lambda[i] = sigma + 1/th
	}
	for i := range order {
		order[i] = i
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
				g := dot(x, mr[d])
				md.Participation[d] = g * g / cr.TotalMass[d]
			}
		}
		md.Shape = s.NodeShapes(x)
		modal.Normalize(md.Shape, opts.Normalization)
		cr.Modes = append(cr.Modes, md)
	}
	if partial {
		res.Warnings = append(res.Warnings, fmt.Sprintf("load case %d: %d of %d modes converged", id, len(cr.Modes), opts.Modes))
	}
	in, ok := f.(linsys.Inertial)
	if !ok {
		return nil, errors.New("the factorization reports no inertia for the Sturm check")
	}
	kept := make([]float64, len(order))
	for k, i := range order {
		kept[k] = lambda[i]
	}
	if len(cr.Modes) < opts.Modes && !partial {
		res.Warnings = append(res.Warnings, fmt.Sprintf("load case %d: only %d modes with mass exist in the range asked for", id, len(cr.Modes)))
	}
	// The modes are in hand and the count below σ is all the Sturm check
	// needs of f: its factorizations reuse f's storage.
	belowSigma := in.Inertia().Negative
	s.Recycle(f)
	if w, err := sturm(ctx, s, mm, kept, lambda, sigma, lo, belowSigma, res); err != nil {
		return nil, err
	} else if w != "" {
		res.Warnings = append(res.Warnings, fmt.Sprintf("load case %d: %s", id, w))
	}
	return cr, nil
}

// sturm counts the eigenvalues between the lowest and the highest kept
// (widened by a relative 1e-6, beyond any converged mode's error) and
// returns a warning naming the range when the count differs from the
// number of all found in it. belowSigma is the count below the shift σ,
// from the factorization the modes were found with: when every mode kept
// lies above σ it is the lower count, and no other factorization is needed
// there.
//
// When the shift lies below the lower limit, modes between them were not
// sought, so the count starts at the lowest mode kept instead.
func sturm(ctx context.Context, s *modal.System, mm *sparse.SymMatrix, lambda, all []float64, sigma, lo float64, belowSigma int, res *Results) (string, error) {
	if len(lambda) == 0 {
		return "", nil
	}
	a, b := math.Inf(1), math.Inf(-1)
	for _, l := range lambda {
		a, b = math.Min(a, l), math.Max(b, l)
	}
	below := belowSigma
	if a < sigma || lo > sigma {
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
	found := 0
	for _, l := range all {
		if l >= a && l <= b {
			found++
		}
	}
	if got := upto - below; got != found {
		return fmt.Sprintf("the Sturm check counts %d modes between %.6g and %.6g Hz, but %d were found; some may be missing",
			got, math.Sqrt(math.Max(a, 0))/(2*math.Pi), math.Sqrt(b)/(2*math.Pi), found), nil
	}
	return "", nil
}

// massTranslations returns M·r for the unit rigid translations r along X,
// Y and Z (as equation values): a mode's participation along d is then
// one dot product, φᵀ·(M·r_d).
func massTranslations(s *modal.System, mm *sparse.SymMatrix) [3][]float64 {
	var mr [3][]float64
	for d := range 3 {
		mr[d] = make([]float64, s.Equations())
		mm.MulVec(mr[d], s.Num.Translation(d))
	}
	return mr
}

// dot returns xᵀ·y.
func dot(x, y []float64) float64 {
	s := 0.0
	for i, v := range x {
		s += v * y[i]
	}
	return s
}
