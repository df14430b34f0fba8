package static

import (
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// Options controls an analysis.
type Options struct {
	// Cases lists the ids of the load cases and combinations to report;
	// empty means all of them.
	Cases []int64
	// Divisions is the number of equal member divisions for stations;
	// 0 means 10.
	Divisions int
	// EndsOnly leaves MemberResult.Stations empty: the end states alone
	// fix a member's state (Stations rebuilds the stations from them), so
	// a caller that stores only those saves most of each case's memory,
	// a station per division point of every member.
	EndsOnly bool
	// Admit, when not nil, is told the analysis's memory estimate once
	// the first stiffness has been ordered and analysed, before its
	// numeric factorization (the largest allocation) starts; an error it
	// returns ends the analysis, wrapped. Only the sparse factorizer
	// gives an estimate.
	Admit func(MemoryEstimate) error
	// SecondOrder tells Stations how the end states it is given were
	// found; Analyze ignores it.
	SecondOrder SecondOrder
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

// SecondOrder is the kinematics of a member's end state, which decides
// how its station moments follow from it.
type SecondOrder int

// Kinematics of end states. In a second-order state the end actions hold
// the geometric (P-Δ) forces, and a station's moments hold the member's
// mean axial force N acting on the transverse displacements relative to
// end A: along the chord for ChordSecondOrder (P-Δ alone: the string
// forces of the chord's rotation), along the displaced member for
// CurveSecondOrder (P-Δ and P-δ). Either way the stations reach end B's
// stored moments, as they do in a first-order state.
const (
	// FirstOrder: equilibrium on the initial geometry (a linear
	// analysis, or a non-linear one whose end actions are in the
	// member's current chord frame).
	FirstOrder SecondOrder = iota
	// ChordSecondOrder: P-Δ alone.
	ChordSecondOrder
	// CurveSecondOrder: P-Δ and P-δ.
	CurveSecondOrder
)

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
