package linsys

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gusset/gusset/pkg/fem/sparse"
	"gonum.org/v1/gonum/mat"
)

// DefaultSparsePivotTol is the relative zero-pivot threshold of
// SparseFactorizer: a pivot d with |d| ≤ tol·(largest |a| in its original
// row and column) is a mechanism. It is the dense factorizer's 1e-10, not
// package sparse's 1e-13: the pivot of a frame mechanism is the round-off
// of the stiffnesses it was eliminated against, and axial terms EA/L
// exceed the bending terms of a rotation's column by about A·L²/I. A sway
// mechanism with A·L²/I ≈ 10⁵ (a 3 m portal with hinged beam ends, A =
// 0.1 m², I = 1e-6 m⁴) leaves a pivot above 1e-13 but far below 1e-10 of
// its column and was solved as if stable; a well-posed frame's pivots lie
// far above 1e-10 of their columns.
const DefaultSparsePivotTol = 1e-10

// maxCachedPatterns bounds the symbolic analyses a SparseFactorizer keeps.
const maxCachedPatterns = 4

// SparseFactorizer is the default Factorizer: the supernodal multifrontal
// LDLᵀ of package sparse. The first factorization of a pattern orders it
// (on the node graph when nodeOf is given) and runs the symbolic analysis;
// later factorizations of a matrix with the same pattern only run the
// numeric phase. Use a pointer; it is safe for concurrent use, and every
// Factorization it returned stays valid.
type SparseFactorizer struct {
	// Orderings are the candidate fill-reducing orderings: the one whose
	// symbolic analysis predicts the fewest factorization flops is used
	// (candidates are analysed concurrently). Empty means AMD and nested
	// dissection; see Orderings for the service's settings.
	Orderings []sparse.Method
	// PivotTol is the relative zero-pivot threshold; 0 means
	// DefaultSparsePivotTol.
	PivotTol float64
	// Workers bounds the goroutines of the numeric phase and of
	// SolveParallel; 0 means GOMAXPROCS.
	Workers int

	mu    sync.Mutex
	cache []*sparsePattern // most recently used first
	stats SparseStats
}

var _ Factorizer = (*SparseFactorizer)(nil)

// SparseStats summarizes the work of a SparseFactorizer.
type SparseStats struct {
	Analyses       int           // patterns ordered and analysed (each with every candidate ordering)
	Factorizations int           // numeric factorizations (successful or not)
	AnalyzeTime    time.Duration // wall time of ordering and symbolic analysis
	NumericTime    time.Duration // wall time of numeric factorization
	// Of the last symbolic analysis: the ordering chosen, its predicted
	// flops and nonzeros of L, and the flops of every candidate in the
	// order of Orderings.
	Method     sparse.Method
	Flops      float64
	NnzL       int64
	Candidates []float64
}

// Stats returns a snapshot of the factorizer's counters.
func (f *SparseFactorizer) Stats() SparseStats {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.stats
	s.Candidates = slices.Clone(s.Candidates)
	return s
}

// sparsePattern is one pattern and its symbolic analysis.
type sparsePattern struct {
	pat    *sparse.Pattern
	nodeOf []int
	sym    *sparse.Symbolic
}

// matches reports whether p analysed pattern q with the same node map:
// the same pattern object, or an equal one from another assembly.
func (p *sparsePattern) matches(q *sparse.Pattern, nodeOf []int) bool {
	if !slices.Equal(nodeOf, p.nodeOf) {
		return false
	}
	return p.pat == q || (q.N == p.pat.N && slices.Equal(q.ColPtr, p.pat.ColPtr) && slices.Equal(q.RowIdx, p.pat.RowIdx))
}

// Factor implements Factorizer.
func (f *SparseFactorizer) Factor(ctx context.Context, a *sparse.SymMatrix, nodeOf []int) (Factorization, error) {
	return f.FactorReporting(ctx, a, nodeOf, nil, nil)
}

// FactorReporting is Factor telling analysed (may be nil) the symbolic
// analysis it uses, before the numeric phase, and progress (may be nil)
// the fraction of the numeric phase done (see sparse.FactorOptions).
func (f *SparseFactorizer) FactorReporting(ctx context.Context, a *sparse.SymMatrix, nodeOf []int, analysed func(*sparse.Symbolic), progress func(float64)) (Factorization, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sparse factor: %w", err)
	}
	if a.Pat.N == 0 {
		return emptyFactorization{}, nil
	}
	p, err := f.pattern(ctx, a.Pat, nodeOf)
	if err != nil {
		return nil, err
	}
	tol := f.PivotTol
	if tol == 0 {
		tol = DefaultSparsePivotTol
	}
	if analysed != nil {
		analysed(p.sym)
	}
	t0 := time.Now()
	// The factorization reads the values through the symbolic analysis's
	// own pattern object, which equals a's.
	fac, err := sparse.Factorize(ctx, p.sym, &sparse.SymMatrix{Pat: p.pat, Val: a.Val}, sparse.FactorOptions{PivotTol: tol, Progress: progress})
	f.mu.Lock()
	f.stats.Factorizations++
	f.stats.NumericTime += time.Since(t0)
	f.mu.Unlock()
	if err != nil {
		var se *sparse.SingularError
		if errors.As(err, &se) {
			return nil, se
		}
		return nil, fmt.Errorf("sparse factor: %w", err)
	}
	return &sparseFactorization{f: fac, n: a.Pat.N, pat: p.pat, fz: f}, nil
}

// Analyze returns the symbolic analysis a factorization of a (with node
// map nodeOf) will use, ordering and analysing its pattern unless that was
// done already, so that a caller can size the numeric phase before it
// starts (sparse.Symbolic.NumericBytes); nil for a matrix without
// equations. The factorization of a then reuses it.
func (f *SparseFactorizer) Analyze(ctx context.Context, a *sparse.SymMatrix, nodeOf []int) (*sparse.Symbolic, error) {
	if a.Pat.N == 0 {
		return nil, nil
	}
	p, err := f.pattern(ctx, a.Pat, nodeOf)
	if err != nil {
		return nil, err
	}
	return p.sym, nil
}

// pattern returns the cached analysis of q or builds one.
func (f *SparseFactorizer) pattern(ctx context.Context, q *sparse.Pattern, nodeOf []int) (*sparsePattern, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, p := range f.cache {
		if p.matches(q, nodeOf) {
			copy(f.cache[1:i+1], f.cache[:i])
			f.cache[0] = p
			return p, nil
		}
	}
	if err := q.Validate(); err != nil {
		return nil, fmt.Errorf("sparse factor: %w", err)
	}
	if nodeOf != nil && len(nodeOf) != q.N {
		return nil, fmt.Errorf("sparse factor: nodeOf has %d entries for %d equations", len(nodeOf), q.N)
	}
	p := &sparsePattern{pat: q, nodeOf: slices.Clone(nodeOf)}
	meths := f.Orderings
	if len(meths) == 0 {
		meths = []sparse.Method{sparse.AMD, sparse.NestedDissection}
	}
	t0 := time.Now()
	syms := make([]*sparse.Symbolic, len(meths))
	errs := make([]error, len(meths))
	var wg sync.WaitGroup
	for i, m := range meths {
		wg.Go(func() {
			syms[i], errs[i] = sparse.AnalyzeContext(ctx, q, sparse.AnalyzeOptions{Method: m, NodeOf: nodeOf, Workers: f.Workers})
		})
	}
	wg.Wait()
	f.stats.AnalyzeTime += time.Since(t0)
	f.stats.Analyses++
	f.stats.Candidates = f.stats.Candidates[:0]
	for i, s := range syms {
		if errs[i] != nil {
			return nil, fmt.Errorf("sparse analyze (%v): %w", meths[i], errs[i])
		}
		f.stats.Candidates = append(f.stats.Candidates, s.Flops)
		if p.sym == nil || s.Flops < p.sym.Flops {
			p.sym = s
		}
	}
	f.stats.Method, f.stats.Flops, f.stats.NnzL = p.sym.Method, p.sym.Flops, p.sym.NnzL
	f.cache = append([]*sparsePattern{p}, f.cache[:min(len(f.cache), maxCachedPatterns-1)]...)
	return p, nil
}

// sparseFactorization adapts a *sparse.Factor to Factorization.
type sparseFactorization struct {
	f   *sparse.Factor
	n   int
	pat *sparse.Pattern   // the pattern object the analysis was made from
	fz  *SparseFactorizer // counts the refactorizations
}

var _ Refactorer = (*sparseFactorization)(nil)

// Refactor implements Refactorer: the numeric phase only, into the
// factor's own storage.
func (s *sparseFactorization) Refactor(ctx context.Context, a *sparse.SymMatrix) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sparse refactor: %w", err)
	}
	if a.Pat.N != s.n {
		return fmt.Errorf("sparse refactor: %d equations for a factor of %d", a.Pat.N, s.n)
	}
	if a.Pat != s.pat && !(slices.Equal(a.Pat.ColPtr, s.pat.ColPtr) && slices.Equal(a.Pat.RowIdx, s.pat.RowIdx)) {
		return errors.New("sparse refactor: the matrix has another pattern than the factor")
	}
	if s.n == 0 {
		return nil
	}
	t0 := time.Now()
	err := s.f.Refactor(ctx, &sparse.SymMatrix{Pat: s.pat, Val: a.Val})
	s.fz.mu.Lock()
	s.fz.stats.Factorizations++
	s.fz.stats.NumericTime += time.Since(t0)
	s.fz.mu.Unlock()
	if err != nil {
		var se *sparse.SingularError
		if errors.As(err, &se) {
			return se
		}
		return fmt.Errorf("sparse refactor: %w", err)
	}
	return nil
}

// Solve implements Factorization: one right-hand side directly, a block
// with one multi-right-hand-side solve (sparse.Factor.SolveMany).
func (s *sparseFactorization) Solve(ctx context.Context, b []float64, nrhs int) error {
	return s.solve(ctx, b, nrhs, s.f.SolveMany)
}

var _ ParallelSolver = (*sparseFactorization)(nil)

// SolveParallel implements ParallelSolver: Solve with a block solved by
// sparse.Factor.SolveManyParallel.
func (s *sparseFactorization) SolveParallel(ctx context.Context, b []float64, nrhs int) error {
	return s.solve(ctx, b, nrhs, s.f.SolveManyParallel)
}

// solve solves one right-hand side directly and a block with many.
func (s *sparseFactorization) solve(ctx context.Context, b []float64, nrhs int, many func(x, b *mat.Dense) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sparse solve: %w", err)
	}
	n := s.n
	if len(b) < n*nrhs {
		return fmt.Errorf("sparse solve: block of %d values for %d×%d", len(b), n, nrhs)
	}
	switch nrhs {
	case 0:
		return nil
	case 1:
		if err := s.f.Solve(b[:n], b[:n]); err != nil {
			return fmt.Errorf("sparse solve: %w", err)
		}
		return nil
	}
	if err := s.solveMany(b, nrhs, many); err != nil {
		return fmt.Errorf("sparse solve: %w", err)
	}
	return nil
}

// solveMany solves the h right-hand sides of the column-major block b with
// one call of many (SolveMany or SolveManyParallel), which wants one row
// per equation (row-major n×h, so a supernode's rows for all cases are
// contiguous).
func (s *sparseFactorization) solveMany(b []float64, h int, many func(x, b *mat.Dense) error) error {
	n := s.n
	blk := mat.NewDense(n, h, nil)
	raw := blk.RawMatrix()
	for c := range h {
		for i, v := range b[c*n : (c+1)*n] {
			raw.Data[i*raw.Stride+c] = v
		}
	}
	if err := many(blk, blk); err != nil {
		return err
	}
	for c := range h {
		x := b[c*n : (c+1)*n]
		for i := range x {
			x[i] = raw.Data[i*raw.Stride+c]
		}
	}
	return nil
}

// Inertia returns the numbers of positive, negative and zero pivots: by
// Sylvester's law, of eigenvalues of the matrix factored. For K − σ·M the
// negative count is the number of eigenvalues of the pencil below σ (the
// Sturm-sequence check of eigen analyses).
func (s *sparseFactorization) Inertia() sparse.Inertia { return s.f.Inertia() }

// emptyFactorization solves a system without equations.
type emptyFactorization struct{}

// Solve implements Factorization.
func (emptyFactorization) Solve(context.Context, []float64, int) error { return nil }
