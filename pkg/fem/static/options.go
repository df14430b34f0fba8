package static

import (
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// Options controls an analysis.
type Options struct {
	// Cases lists the load cases and combinations to report; empty means
	// all of them.
	Cases []string
	// Divisions is the number of equal member divisions for stations;
	// 0 means 10.
	Divisions int
	// TensionCompressionOnly activates one-way members and supports.
	TensionCompressionOnly bool
	// ReversalIterations bounds the reversal loop; 0 means 20.
	ReversalIterations int
	// StabilizeUnrestrainedNodes adds tiny springs to DOFs without
	// stiffness instead of failing.
	StabilizeUnrestrainedNodes bool
	// SolverType and OptimizationMethod are the service's solver
	// settings; they choose the ordering of the default sparse factorizer
	// (see Orderings). They are ignored when Factorizer is set.
	SolverType         linsys.SolverType
	OptimizationMethod linsys.OptimizationMethod
	// Factorizer solves the assembled system; nil means a new
	// linsys.SparseFactorizer with the orderings of SolverType and
	// OptimizationMethod.
	Factorizer linsys.Factorizer
	// Progress, when not nil, is told how Analyze is going (see
	// Progress): at the start and end of every stage and, throttled, in
	// between. Calls come one at a time, possibly from different
	// goroutines, and the analysis waits for each, so it must return
	// quickly; it may cancel the analysis's context. Stations ignores it.
	Progress func(Progress)
}

// Orderings returns the candidate orderings of the default sparse
// factorizer for o's solver settings (see linsys.Orderings).
func (o Options) Orderings() []sparse.Method {
	return linsys.Orderings(o.SolverType, o.OptimizationMethod)
}

// factorizer returns the Factorizer of an analysis.
func (o Options) factorizer() linsys.Factorizer {
	if o.Factorizer != nil {
		return o.Factorizer
	}
	return &linsys.SparseFactorizer{Orderings: o.Orderings()}
}
