package linsys

import (
	"context"
	"fmt"
	"math"

	"github.com/gusset/gusset/pkg/fem/sparse"
)

// Factorizer factors an assembled symmetric matrix: once per analysis, or
// once per state when values change on the same pattern. nodeOf gives the
// node of each equation (may be nil); orderings that work on the node
// graph use it.
type Factorizer interface {
	// Factor factors a, which it must not modify or retain: the caller
	// reuses a's values once Factor returns (the pattern is immutable and
	// may be kept). The Factorization must stay valid after later calls. A
	// singular matrix yields a (possibly wrapped) *SingularError naming
	// the equation.
	Factor(ctx context.Context, a *sparse.SymMatrix, nodeOf []int) (Factorization, error)
}

// Factorization solves with a factored matrix.
type Factorization interface {
	// Solve overwrites b, an n×nrhs column-major block (each right-hand
	// side contiguous), with the solutions.
	Solve(ctx context.Context, b []float64, nrhs int) error
}

// Refactorer is a Factorization that can factor another matrix of the
// same pattern into its own storage, saving the allocation (and the first
// touch) of a new factor, as an eigen analysis's Sturm check does once the
// factorization its modes were found with is no longer needed. After a
// failed Refactor the Factorization must not solve, but may be
// refactored again. The sparse factorizer's factorizations are
// Refactorers.
type Refactorer interface {
	Factorization
	Refactor(ctx context.Context, a *sparse.SymMatrix) error
}

// ParallelSolver is a Factorization that can also solve a block on several
// cores (the factorizer's Workers), to results that agree with Solve's to
// round-off but not bit for bit (nor across numbers of cores). Analyses whose results are stored and
// compared exactly (static) use Solve; eigen analyses, whose many block
// solves dominate and whose tolerances are far above round-off, use
// SolveParallel. The sparse factorizer's factorizations are
// ParallelSolvers.
type ParallelSolver interface {
	Factorization
	SolveParallel(ctx context.Context, b []float64, nrhs int) error
}

// Inertial is a Factorization that counts the signs of its pivots; the
// sparse factorizer's do.
type Inertial interface {
	Inertia() sparse.Inertia
}

// SingularError reports a zero or negligible pivot; a Factorizer returns
// it (possibly wrapped) so the analysis can name the node and DOF of a
// mechanism. It is the sparse factorization's own error: its DOF is the
// equation of the failing pivot (the rows of the system are its
// equations).
type SingularError = sparse.SingularError

// DenseFactorizer is a dense LDLᵀ factorizer (no pivoting; the stiffness
// of a stable structure is positive definite) for tests and small models.
// A pivot at or below PivotTolerance times the equation's original
// diagonal is reported as a *SingularError.
type DenseFactorizer struct {
	PivotTolerance float64 // 0 means 1e-10
}

var _ Factorizer = DenseFactorizer{}

type denseLDL struct {
	n int
	a []float64 // L strictly below the diagonal, D on it, row-major
}

// Factor implements Factorizer.
func (f DenseFactorizer) Factor(ctx context.Context, m *sparse.SymMatrix, _ []int) (Factorization, error) {
	tol := f.PivotTolerance
	if tol == 0 {
		tol = 1e-10
	}
	p := m.Pat
	n := p.N
	a := make([]float64, n*n)
	for c := range n {
		for k := p.ColPtr[c]; k < p.ColPtr[c+1]; k++ {
			a[int(p.RowIdx[k])*n+c] = m.Val[k]
		}
	}
	orig := make([]float64, n)
	for c := range n {
		orig[c] = a[c*n+c]
	}
	w := make([]float64, n)
	for j := range n {
		if j%64 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("dense factor: %w", ctx.Err())
		}
		rj := a[j*n : j*n+j]
		d := a[j*n+j]
		for k := range j {
			w[k] = rj[k] * a[k*n+k] // L_jk·D_k
			d -= rj[k] * w[k]
		}
		if !(d > tol*math.Abs(orig[j])) || orig[j] == 0 {
			return nil, &SingularError{DOF: j, Pivot: d, Ref: math.Abs(orig[j])}
		}
		a[j*n+j] = d
		for i := j + 1; i < n; i++ {
			ri := a[i*n : i*n+j]
			s := a[i*n+j]
			for k := range j {
				s -= ri[k] * w[k]
			}
			a[i*n+j] = s / d
		}
	}
	return &denseLDL{n: n, a: a}, nil
}

// Solve implements Factorization.
func (f *denseLDL) Solve(ctx context.Context, b []float64, nrhs int) error {
	n, a := f.n, f.a
	for r := range nrhs {
		if ctx.Err() != nil {
			return fmt.Errorf("dense solve: %w", ctx.Err())
		}
		x := b[r*n : (r+1)*n]
		for i := range n {
			s := x[i]
			for k := range i {
				s -= a[i*n+k] * x[k]
			}
			x[i] = s
		}
		for i := range n {
			x[i] /= a[i*n+i]
		}
		for i := n - 1; i >= 0; i-- {
			s := x[i]
			for k := i + 1; k < n; k++ {
				s -= a[k*n+i] * x[k]
			}
			x[i] = s
		}
	}
	return nil
}
