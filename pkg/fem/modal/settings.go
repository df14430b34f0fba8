package modal

import (
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/static"
)

// MaxModes bounds the modes of one case: the Lanczos basis grows with
// them (about 8 vectors a mode, two copies of N values each) and every
// step decomposes its projection densely. It is the service's one limit on
// the modes a run computes: the run start's check (analysis/eigen.MaxEigenModes)
// and the settings' API description cite it, while the settings themselves
// may store more (model.MaxModesSetting).
const MaxModes = 200

// Settings are what the eigen analyses have in common.
type Settings struct {
	// Cases lists the ids of the load cases to analyse; empty means all.
	Cases []int64
	// Modes is the number of modes per case; 0 means 6.
	Modes int
	// LowerLimit and UpperLimit bound what is sought (frequencies in Hz,
	// or load factors); 0 means no bound.
	LowerLimit, UpperLimit float64
	// Tolerance is the relative residual of a converged mode; 0 means
	// 1e-6 (eigenvalues then err by about its square). ExtraIterations
	// tightens it a hundredfold.
	Tolerance       float64
	ExtraIterations bool
	// Normalization scales the mode shapes.
	Normalization Normalization
	// Stabilize gives freedoms without stiffness a tiny spring instead of
	// failing on them (System.Stabilize), with a warning naming them.
	Stabilize bool
	// SolverType and OptimizationMethod choose the sparse orderings.
	SolverType         linsys.SolverType
	OptimizationMethod linsys.OptimizationMethod
	// Admit, when not nil, is told the analysis's memory estimate before
	// its first numeric factorization (System.Admit); an error it returns
	// ends the analysis, wrapped.
	Admit func(static.MemoryEstimate) error
}

// Report is what an eigen analysis reports besides its modes.
type Report struct {
	// Warnings a person should read: modes that did not converge, Sturm
	// counts that disagree.
	Warnings []string
	// Equations of the refined model; Factorizations and Applies (vectors
	// the eigen operator was applied to, each a solve, and for buckling a
	// product with K_G) over all cases: the cost, for reports and
	// benchmarks.
	Equations, Factorizations, Applies int
}

// Resolve fills the defaults and checks the limits; what names the
// analysis in messages.
func (s *Settings) Resolve(what string) error {
	if s.Modes <= 0 {
		s.Modes = 6
	}
	if s.Tolerance <= 0 {
		s.Tolerance = 1e-6
	}
	if s.ExtraIterations {
		s.Tolerance /= 100
	}
	if s.Modes > MaxModes {
		return domain.ModelErrorf(domain.ModelError{}, "%s: %d modes asked for; at most %d are computed per case", what, s.Modes, MaxModes)
	}
	if s.LowerLimit < 0 || s.UpperLimit < 0 {
		return domain.ModelErrorf(domain.ModelError{}, "%s: the limits must not be negative (lower %g, upper %g)", what, s.LowerLimit, s.UpperLimit)
	}
	if s.UpperLimit > 0 && s.UpperLimit <= s.LowerLimit {
		return domain.ModelErrorf(domain.ModelError{}, "%s: the upper limit %g is not above the lower limit %g", what, s.UpperLimit, s.LowerLimit)
	}
	return nil
}

// Factorizer returns the sparse factorizer of the settings' orderings.
func (s *Settings) Factorizer() *linsys.SparseFactorizer {
	return &linsys.SparseFactorizer{Orderings: linsys.Orderings(s.SolverType, s.OptimizationMethod)}
}

// CaseIDs returns the cases to analyse: Cases, or every load case of m.
func (s *Settings) CaseIDs(m *domain.Model) []int64 {
	if len(s.Cases) > 0 {
		return s.Cases
	}
	ids := make([]int64, len(m.LoadCases))
	for i, c := range m.LoadCases {
		ids[i] = c.ID
	}
	return ids
}
