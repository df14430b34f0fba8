package modal

import (
	"context"

	"github.com/gusset/gusset/pkg/fem/static"
)

// Admit tells admit the memory estimate of an eigen analysis of s with
// modes modes for each of cases load cases, before any numeric
// factorization: the domain, the stiffness and its factor (one at a time:
// a factorization no longer needed is recycled, see Recycle), and once the
// eigen solver's work (the Lanczos basis at its bound, eigen.Options'
// MaxVectors default, two copies of each as MaxModes says, and its block
// and product vectors) and for each case its mode shapes; once and
// perCase add what the caller holds once (its matrices besides K) and per
// case (buckling's static results). The order
// and symbolic analysis it runs are those the factorizations then reuse.
// An error of admit is returned as it is.
func (s *System) Admit(ctx context.Context, admit func(static.MemoryEstimate) error, cases, modes int, once, perCase int64) error {
	sym, err := s.fz.Analyze(ctx, s.K, s.Num.NodeOf)
	if err != nil || sym == nil {
		return err
	}
	e := static.BaseEstimate(s.D, s.K, sym)
	n := int64(e.Equations)
	wanted := modes + Extra(modes)
	block := max(2, min(wanted, 6))
	vectors := int64(max(8*wanted+64, 30*block) + 3*block)
	e.Work = 2 * vectors * 8 * n
	e.System += once
	e.Cases = cases
	// A mode's shape: the refined model's DOFs and the original nodes'.
	e.PerCase = int64(modes)*8*(n+6*int64(len(s.Model.Nodes))) + perCase
	// The update matrices of a factorization are given back when it ends,
	// before the eigen solver's vectors are taken: the larger of the two
	// counts.
	stack := e.Factor - 8*int64(sym.ValPtr[sym.NSuper])
	e.Total = e.Model + e.System + e.Factor - stack + max(stack, e.Work) + int64(cases)*e.PerCase
	return admit(e)
}
