package linsys

import "github.com/gusset/gusset/pkg/fem/sparse"

// SolverType is the service's solverType setting.
type SolverType int

// Solver types. Both are the sparse direct solver; they differ in the
// equation ordering.
const (
	// Paradise (0) orders for least fill: approximate minimum degree or
	// nested dissection.
	Paradise SolverType = iota
	// Wavefront (1) orders for a small profile: reverse Cuthill–McKee.
	Wavefront
)

// OptimizationMethod is the service's optimizationMethod setting: how the
// equations are reordered before factorization.
type OptimizationMethod int

// Optimization methods. The zero value, OptimizeAuto, is the right choice
// for almost every model.
const (
	// OptimizeAuto lets the solver type choose; for Paradise both
	// approximate minimum degree and nested dissection are analysed and
	// the one predicting fewer factorization flops is used.
	OptimizeAuto OptimizationMethod = iota
	// OptimizeNone keeps the node order of the model (no reordering).
	OptimizeNone
	// OptimizeMinimumDegree forces approximate minimum degree (Paradise
	// only).
	OptimizeMinimumDegree
	// OptimizeNestedDissection forces nested dissection (Paradise only).
	OptimizeNestedDissection
)

// Orderings returns the candidate orderings of a SparseFactorizer for the
// solver settings t and o:
//
//	OptimizeNone                       → natural order (any solver type)
//	Wavefront                          → RCM
//	Paradise, OptimizeAuto             → AMD and nested dissection,
//	                                     the fewer predicted flops wins
//	Paradise, OptimizeMinimumDegree    → AMD
//	Paradise, OptimizeNestedDissection → nested dissection
//
// Analysing both Paradise candidates costs a second ordering, run
// concurrently with the first. Nested dissection usually wins on large
// 3-D frames and AMD on small or elongated ones; nested dissection also
// orders more slowly, which the flop count does not see (grid-20, 52 920
// equations, at the time of writing: AMD 8.6e10 flops ordered in about
// 0.1 s, nested dissection 3.4e10 flops in about 0.7 s). Unknown values
// are treated as OptimizeAuto and Paradise.
func Orderings(t SolverType, o OptimizationMethod) []sparse.Method {
	switch {
	case o == OptimizeNone:
		return []sparse.Method{sparse.Natural}
	case t == Wavefront:
		return []sparse.Method{sparse.RCM}
	case o == OptimizeMinimumDegree:
		return []sparse.Method{sparse.AMD}
	case o == OptimizeNestedDissection:
		return []sparse.Method{sparse.NestedDissection}
	}
	return []sparse.Method{sparse.AMD, sparse.NestedDissection}
}
