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
			if len(l.q)/n+kNext > maxv && maxv < n {
				err := fmt.Errorf("%w: %d wanted, %d of them converged in a basis of %d vectors",
					ErrNotConverged, opts.Wanted, res.converged, len(l.q)/n)
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
		j := len(l.q)/n - k
		u := make([]float64, n*k)
		if err := l.apply(ctx, l.q[j*n:(j+k)*n], u, k); err != nil {
			return nil, err
		}
		a := make([]float64, k*k)
		for i := range k {
			for c := range k {
				a[i*k+c] = dot(l.wq[(j+i)*n:(j+i+1)*n], u[c*n:(c+1)*n])
			}
		}
		for i := range k {
			for c := range i {
				v := (a[i*k+c] + a[c*k+i]) / 2
				a[i*k+c], a[c*k+i] = v, v
			}
		}
		blocks = append(blocks, tblock{a: a, size: k})
		r = u
	}
}

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

// lanczos holds the basis Q and W·Q, column-major, N per vector.
type lanczos struct {
	p       Problem
	n       int
	q, wq   []float64
	applies int
	rng     *rand.Rand
}

func (l *lanczos) apply(ctx context.Context, x, y []float64, k int) error {
	l.applies += k
	if err := l.p.Apply(ctx, x[:l.n*k], y[:l.n*k], k); err != nil {
		return fmt.Errorf("eigen: apply: %w", err)
	}
	return nil
}

// randomRange writes Op applied to k random vectors into y.
func (l *lanczos) randomRange(ctx context.Context, y []float64, k int) error {
	x := make([]float64, l.n*k)
	for i := range x {
		x[i] = l.rng.NormFloat64()
	}
	return l.apply(ctx, x, y, k)
}

func dot(x, y []float64) float64 {
	s := 0.0
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

// extend W-orthonormalizes the k columns of r against the basis and each
// other (block classical Gram–Schmidt, twice, then within the block),
// appends the independent ones and returns B (kept×k, r = Q_new·B plus
// components on earlier vectors, which Lanczos already has in T or which
// are round-off) and kept. A column with nothing left is replaced by a new
// direction in the range of Op with zero coefficients, while there is
// one; when there is none, it is dropped and the block shrinks. kept = 0
// means the basis spans an invariant subspace of Op.
func (l *lanczos) extend(ctx context.Context, r []float64, k int) (bm []float64, kept int, err error) {
	n := l.n
	first := len(l.q) / n // the new block's first column
	wr := make([]float64, n*k)
	norm0 := make([]float64, k)
	for c := range k {
		norm0[c] = l.wnorm(r[c*n:(c+1)*n], wr[c*n:(c+1)*n])
	}
	l.orthogonalizeBlock(r, wr, k)
	l.orthogonalizeBlock(r, wr, k)
	coef := make([]float64, k*k) // coef[i*k+c]: column c on new column i
	exhausted := false
	for c := range k {
		v, wv := r[c*n:(c+1)*n], wr[c*n:(c+1)*n]
		for range 2 {
			for i := range kept {
				qi, wqi := l.q[(first+i)*n:(first+i+1)*n], l.wq[(first+i)*n:(first+i+1)*n]
				h := dot(wqi, v)
				for t := range v {
					v[t] -= h * qi[t]
					wv[t] -= h * wqi[t]
				}
				coef[i*k+c] += h
			}
		}
		norm := math.Sqrt(math.Max(0, dot(v, wv)))
		if norm > 1e-12*norm0[c] {
			coef[kept*k+c] = norm
		} else {
			// Breakdown: a fresh direction in the range of Op, if any is
			// left, with zero coefficients.
			if exhausted {
				continue
			}
			if norm, err = l.fresh(ctx, v, wv); err != nil {
				return nil, 0, err
			}
			if norm == 0 {
				exhausted = true
				continue
			}
		}
		// W·v was kept up to date through the orthogonalization; one
		// product more makes it exact for the stored vector.
		l.p.W(v, wv)
		for t := range v {
			v[t] /= norm
			wv[t] /= norm
		}
		l.q = append(l.q, v...)
		l.wq = append(l.wq, wv...)
		kept++
	}
	return coef[:kept*k], kept, nil
}

// fresh writes into v a direction in the range of Op W-orthogonal to the
// basis, with wv = W·v, and returns its W-norm; 0 when the basis spans the
// range (three random tries find nothing new).
func (l *lanczos) fresh(ctx context.Context, v, wv []float64) (float64, error) {
	for range 3 {
		if len(l.q)/l.n >= l.n {
			return 0, nil // the basis spans the whole space
		}
		if err := l.randomRange(ctx, v, 1); err != nil {
			return 0, err
		}
		n0 := l.wnorm(v, wv)
		l.orthogonalize(v, wv)
		l.orthogonalize(v, wv)
		// Nothing new unless a fair part survives: what is left of a
		// vector in the span is round-off.
		if n1 := l.wnorm(v, wv); n1 > 1e-8*n0 {
			return n1, nil
		}
	}
	return 0, nil
}

// wnorm returns ‖v‖_W, leaving W·v in wv.
func (l *lanczos) wnorm(v, wv []float64) float64 {
	l.p.W(v, wv)
	return math.Sqrt(math.Max(0, dot(v, wv)))
}

// orthogonalizeBlock removes from the k vectors of r (row-major k×n, one
// vector per row) their W-components along the basis, keeping wr = W·r up
// to date: H = R·(W·Q)ᵀ, R −= H·Q, WR −= H·(W·Q).
func (l *lanczos) orthogonalizeBlock(r, wr []float64, k int) {
	n := l.n
	m := len(l.q) / n
	if m == 0 {
		return
	}
	q := blas64.General{Rows: m, Cols: n, Stride: n, Data: l.q}
	wq := blas64.General{Rows: m, Cols: n, Stride: n, Data: l.wq}
	rb := blas64.General{Rows: k, Cols: n, Stride: n, Data: r[:k*n]}
	wrb := blas64.General{Rows: k, Cols: n, Stride: n, Data: wr[:k*n]}
	h := blas64.General{Rows: k, Cols: m, Stride: m, Data: make([]float64, k*m)}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, rb, wq, 0, h)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, -1, h, q, 1, rb)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, -1, h, wq, 1, wrb)
}

// orthogonalize removes from v its W-components along the basis, h =
// (W·Q)ᵀ·v, and returns them; wv, W·v on entry, follows as W·v − (W·Q)·h,
// so no product with W is needed. The basis is stored vector by vector,
// which is a row-major m×n matrix: two matrix-vector products (BLAS).
func (l *lanczos) orthogonalize(v, wv []float64) []float64 {
	n := l.n
	m := len(l.q) / n
	h := make([]float64, m)
	if m == 0 {
		return h
	}
	q := blas64.General{Rows: m, Cols: n, Stride: n, Data: l.q}
	wq := blas64.General{Rows: m, Cols: n, Stride: n, Data: l.wq}
	hv := blas64.Vector{N: m, Inc: 1, Data: h}
	blas64.Gemv(blas.NoTrans, 1, wq, blas64.Vector{N: n, Inc: 1, Data: v}, 0, hv)
	blas64.Gemv(blas.Trans, -1, q, hv, 1, blas64.Vector{N: n, Inc: 1, Data: v})
	blas64.Gemv(blas.Trans, -1, wq, hv, 1, blas64.Vector{N: n, Inc: 1, Data: wv})
	return h
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
// application of Op (y ← Op·y/θ, which removes components in the null
// space of W) and W-normalizes them.
func (l *lanczos) finish(ctx context.Context, res *ritzResult, blocks []tblock) (*Result, error) {
	n, k := l.n, len(res.Theta)
	m := basisSize(blocks)
	y := make([]float64, n*k)
	for c := range k {
		yc := y[c*n : (c+1)*n]
		for r := range m {
			if s := res.s[c*m+r]; s != 0 {
				qr := l.q[r*n : (r+1)*n]
				for t := range yc {
					yc[t] += s * qr[t]
				}
			}
		}
	}
	out := &Result{Theta: res.Theta, Residual: res.Residual, Steps: res.Steps}
	if k > 0 {
		z := make([]float64, n*k)
		if err := l.apply(ctx, y, z, k); err != nil {
			return nil, err
		}
		wv := make([]float64, n)
		for c := range k {
			zc := z[c*n : (c+1)*n]
			if norm := l.wnorm(zc, wv); norm > 0 {
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
