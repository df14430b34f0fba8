package eigen

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Problem is the operator and the inner product of an eigenproblem.
type Problem struct {
	// N is the order of the vectors.
	N int
	// Apply writes Op·x into y for the k vectors of the column-major
	// block x (N×k; x and y do not overlap): a product with C and one
	// block solve with the factored F.
	Apply func(ctx context.Context, x, y []float64, k int) error
	// FromW, when not nil, writes Op·x into y given W·x instead of x
	// (column-major N×k; wx and y do not overlap), for problems where C
	// is W (frequencies: Op = F⁻¹·M, W = M). The basis keeps W·Q, so
	// every Lanczos step then saves its products with C: Solve applies Op
	// to basis vectors through FromW and to others through Apply.
	FromW func(ctx context.Context, wx, y []float64, k int) error
	// W writes W·x into y, one vector.
	W func(x, y []float64)
}

// Options control Solve.
type Options struct {
	// Wanted is the number of eigenpairs to find.
	Wanted int
	// Accept reports whether θ is one the caller wants (positive, say,
	// or inside a range); nil accepts all. Solve returns the Wanted
	// accepted θ of largest magnitude.
	Accept func(theta float64) bool
	// Tol is the relative residual accepted; 0 means 1e-10.
	Tol float64
	// Block is the block size; 0 means min(Wanted, 6), at least 2, so a
	// double eigenvalue is found in one pass.
	Block int
	// MaxVectors bounds the Lanczos basis; 0 means max(8·Wanted + 64,
	// 30·Block), enough for the clustered buckling factors of large
	// frames. It is at most N.
	MaxVectors int
	// Seed makes the starting block reproducible.
	Seed uint64
}

// Result holds the eigenpairs found, largest |θ| first.
type Result struct {
	Theta []float64
	// Vectors are the eigenvectors, column-major N×len(Theta),
	// W-orthonormal.
	Vectors []float64
	// Residual is each pair's relative residual ‖Op·y − θ·y‖_W / |θ|.
	Residual []float64
	// Steps counts Lanczos steps (blocks), Applies the vectors Op was
	// applied to: the cost, for reports.
	Steps, Applies int
}

// ErrNotConverged reports that the basis filled up before the wanted
// eigenpairs converged.
var ErrNotConverged = errors.New("eigen: Lanczos did not converge")

// Solve runs block Lanczos on p until opts.Wanted accepted eigenpairs have
// converged, or the basis spans an invariant subspace of Op (then every
// accepted pair of it is returned, exact to round-off: Op may have fewer
// eigenpairs than wanted, when W has a low rank). When the basis fills up
// first, it returns the pairs that did converge with an error wrapping
// ErrNotConverged.
//
// Blocks shrink when a direction runs out (the range of Op is exhausted in
// it): the block tridiagonal matrix then has blocks of decreasing sizes.
func Solve(ctx context.Context, p Problem, opts Options) (*Result, error) {
	n := p.N
	if opts.Wanted <= 0 || n == 0 {
		return &Result{}, nil
	}
	b := opts.Block
	if b <= 0 {
		b = max(2, min(opts.Wanted, 6))
	}
	b = min(b, n)
	maxv := opts.MaxVectors
	if maxv <= 0 {
		maxv = max(8*opts.Wanted+64, 30*b)
	}
	maxv = min(maxv, n)
	if opts.Tol == 0 {
		opts.Tol = 1e-10
	}
	l := &lanczos{p: p, n: n, rng: rand.New(rand.NewPCG(opts.Seed, 0x9e3779b97f4a7c15))}
	// The start is Op applied to random vectors, so it lies in the range
	// of Op, with no component in the null space of W.
	r := make([]float64, n*b)
	if err := l.randomRange(ctx, r, b); err != nil {
		return nil, err
	}
	k := b // columns of r
	var blocks []tblock
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("eigen: %w", err)
		}
		bNext, kNext, err := l.extend(ctx, r, k)
		if err != nil {
			return nil, err
		}
		if len(blocks) > 0 {
			last := &blocks[len(blocks)-1]
			last.below, last.next = bNext, kNext
			res, done := ritz(blocks, opts)
			if done || kNext == 0 {
				res.Steps = len(blocks)
				return l.finish(ctx, res, blocks)
			}
			if l.m+kNext > maxv && maxv < n {
				err := fmt.Errorf("%w: %d wanted, %d of them converged in a basis of %d vectors",
					ErrNotConverged, opts.Wanted, res.converged, l.m)
				res.keepConverged(basisSize(blocks))
				res.Steps = len(blocks)
				out, ferr := l.finish(ctx, res, blocks)
				if ferr != nil {
					return nil, ferr
				}
				return out, err
			}
		} else if kNext == 0 {
			return &Result{Applies: l.applies}, nil // Op is zero
		}
		// The new block: Q_j (kNext columns), U = Op·Q_j, A_j = Q_jᵀ·W·U.
		k = kNext
		qb := &l.basis[len(l.basis)-1]
		u := r[:n*k] // r was copied into the basis
		if err := l.applyBlock(ctx, qb, u); err != nil {
			return nil, err
		}
		a := blas64.General{Rows: k, Cols: k, Stride: k, Data: make([]float64, k*k)}
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, rowMajor(qb.wq, k, n), rowMajor(u, k, n), 0, a)
		for i := range k {
			for c := range i {
				v := (a.Data[i*k+c] + a.Data[c*k+i]) / 2
				a.Data[i*k+c], a.Data[c*k+i] = v, v
			}
		}
		blocks = append(blocks, tblock{a: a.Data, size: k})
		r = u
	}
}

// wrapApply names the operator in an error of Apply or FromW.
func wrapApply(err error) error { return fmt.Errorf("eigen: apply: %w", err) }

// tblock is one step of the block tridiagonal matrix T: A (size×size) on
// the diagonal and B (next×size) below it, R = Q_next·B.
type tblock struct {
	a, below   []float64
	size, next int
}

// basisSize returns the order of T.
func basisSize(blocks []tblock) int {
	m := 0
	for _, b := range blocks {
		m += b.size
	}
	return m
}

// ritzResult is the Ritz pairs chosen from T.
type ritzResult struct {
	Result
	s         []float64 // Ritz vectors in basis coordinates, column-major m×k
	converged int
	tol       float64
}

// keepConverged drops the pairs that have not converged (m: basis size).
func (r *ritzResult) keepConverged(m int) {
	k := 0
	for c := range r.Theta {
		if r.Residual[c] <= r.tol {
			r.Theta[k], r.Residual[k] = r.Theta[c], r.Residual[c]
			copy(r.s[k*m:(k+1)*m], r.s[c*m:(c+1)*m])
			k++
		}
	}
	r.Theta, r.Residual, r.s = r.Theta[:k], r.Residual[:k], r.s[:k*m]
}

// ritz returns the wanted Ritz pairs of the block tridiagonal T and
// whether they have converged. The residual of a pair is ‖B·s_last‖, B the
// block below the last (zero when the basis is invariant).
func ritz(blocks []tblock, opts Options) (*ritzResult, bool) {
	m := basisSize(blocks)
	t := mat.NewSymDense(m, nil)
	off := 0
	for j, bl := range blocks {
		for i := range bl.size {
			for c := 0; c <= i; c++ {
				t.SetSym(off+i, off+c, bl.a[i*bl.size+c])
			}
		}
		if j+1 < len(blocks) {
			for i := range bl.next {
				for c := range bl.size {
					t.SetSym(off+bl.size+i, off+c, bl.below[i*bl.size+c])
				}
			}
		}
		off += bl.size
	}
	var es mat.EigenSym
	if !es.Factorize(t, true) {
		return &ritzResult{}, false
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	idx := make([]int, 0, m)
	for i, v := range vals {
		if opts.Accept == nil || opts.Accept(v) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(math.Abs(vals[y]), math.Abs(vals[x])) })
	k := min(opts.Wanted, len(idx))
	res := &ritzResult{s: make([]float64, m*k), tol: opts.Tol}
	last := blocks[len(blocks)-1]
	lastOff := m - last.size
	for c, i := range idx[:k] {
		th := vals[i]
		resid := 0.0
		for r := range last.next {
			v := 0.0
			for q := range last.size {
				v += last.below[r*last.size+q] * vecs.At(lastOff+q, i)
			}
			resid += v * v
		}
		rel := math.Sqrt(resid) / math.Abs(th)
		res.Theta = append(res.Theta, th)
		res.Residual = append(res.Residual, rel)
		if rel <= opts.Tol {
			res.converged++
		}
		for r := range m {
			res.s[c*m+r] = vecs.At(r, i)
		}
	}
	return res, k == opts.Wanted && res.converged == k
}

// finish forms the eigenvectors Q·s, purifies them with one more
// application of Op (y ← Op·Q·s, which removes components in the null
// space of W) and W-normalizes them. The Lanczos relation offers the same
// step without a solve (Ericsson and Ruhe's correction, Q·s + Q_next·B·
// s_last/θ), but not when the basis has exhausted the range of Op (no
// Q_next is left), and it is less accurate for repeated eigenvalues with a
// singular W: the residuals it left were up to 40 times the tolerance.
func (l *lanczos) finish(ctx context.Context, res *ritzResult, blocks []tblock) (*Result, error) {
	n, k := l.n, len(res.Theta)
	out := &Result{Theta: res.Theta, Residual: res.Residual, Steps: res.Steps}
	if k > 0 {
		y := make([]float64, n*k)
		l.combine(res.s, k, l.basis[:len(blocks)], y)
		z := make([]float64, n*k)
		if err := l.apply(ctx, y, z, k); err != nil {
			return nil, err
		}
		wz := make([]float64, n)
		for c := range k {
			zc := z[c*n : (c+1)*n]
			l.p.W(zc, wz)
			if norm := math.Sqrt(math.Abs(dot(zc, wz))); norm > 0 {
				for t := range zc {
					zc[t] /= norm
				}
			}
		}
		out.Vectors = z
	}
	out.Applies = l.applies
	return out, nil
}
