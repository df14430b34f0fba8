package eigen

import (
	"context"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/gusset/gusset/pkg/fem/internal/par"
)

// vblock is one block of the Lanczos basis: rows vectors Q_j and W·Q_j,
// each stored vector by vector (a row-major rows×N matrix). The basis is a
// list of blocks rather than one slice so that growing it never copies
// what is already there.
type vblock struct {
	q, wq []float64
	rows  int
}

// lanczos holds the basis Q and W·Q, block by block.
type lanczos struct {
	p       Problem
	n       int
	basis   []vblock
	m       int // vectors in the basis
	applies int
	rng     *rand.Rand
}

func (l *lanczos) apply(ctx context.Context, x, y []float64, k int) error {
	l.applies += k
	if err := l.p.Apply(ctx, x[:l.n*k], y[:l.n*k], k); err != nil {
		return wrapApply(err)
	}
	return nil
}

// applyBlock writes Op·Q_j into y for the basis block b: from W·Q_j, which
// the basis holds, when the problem allows it (Problem.FromW).
func (l *lanczos) applyBlock(ctx context.Context, b *vblock, y []float64) error {
	if l.p.FromW == nil {
		return l.apply(ctx, b.q, y, b.rows)
	}
	l.applies += b.rows
	if err := l.p.FromW(ctx, b.wq[:l.n*b.rows], y[:l.n*b.rows], b.rows); err != nil {
		return wrapApply(err)
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

// rowMajor views the first rows vectors of a block of vectors of order n
// as a row-major rows×n matrix.
func rowMajor(v []float64, rows, n int) blas64.General {
	return blas64.General{Rows: rows, Cols: n, Stride: n, Data: v[:rows*n]}
}

// The projections run over chunks of the vectors' entries on all cores.
// For H = R·(W·Q)ᵀ each chunk of dotChunk entries makes its own partial
// products, summed in chunk order, so that results do not depend on the
// number of cores; for R −= H·Q, chunks of axpyChunk entries are small
// enough that gonum keeps each chunk's product on one goroutine.
const (
	dotChunk  = 4096
	axpyChunk = 192
)

// project removes from the k vectors of r their W-components along the
// basis blocks from block first on (classical Gram–Schmidt, BLAS-3: H_j =
// R·(W·Q_j)ᵀ for every block, then R −= Σ H_j·Q_j) and adds the squares of
// the coefficients removed to sq, per vector: with Q W-orthonormal,
// ‖r‖²_W before is that sum plus ‖r‖²_W after, so the norm of the input
// never needs a product with W.
func (l *lanczos) project(r []float64, k int, sq []float64, first int) {
	n := l.n
	blocks := l.basis[first:]
	off := make([]int, len(blocks)+1) // column of each block in H
	for j, b := range blocks {
		off[j+1] = off[j] + b.rows
	}
	m := off[len(blocks)]
	if m == 0 {
		return
	}
	// H (k×m, row-major) = R·(W·Q)ᵀ, by chunks of the vectors' entries.
	nc := (n + dotChunk - 1) / dotChunk
	parts := make([]float64, nc*k*m)
	par.Chunks(n, dotChunk, func(c, lo, hi int) {
		part := parts[c*k*m : (c+1)*k*m]
		rb := blas64.General{Rows: k, Cols: hi - lo, Stride: n, Data: r[lo : (k-1)*n+hi]}
		for j, b := range blocks {
			if b.rows == 0 {
				continue
			}
			wq := blas64.General{Rows: b.rows, Cols: hi - lo, Stride: n, Data: b.wq[lo : (b.rows-1)*n+hi]}
			h := blas64.General{Rows: k, Cols: b.rows, Stride: m, Data: part[off[j] : (k-1)*m+off[j+1]]}
			blas64.Gemm(blas.NoTrans, blas.Trans, 1, rb, wq, 0, h)
		}
	})
	h := parts[:k*m]
	for c := 1; c < nc; c++ {
		for i, v := range parts[c*k*m : (c+1)*k*m] {
			h[i] += v
		}
	}
	for c := range k {
		for _, v := range h[c*m : (c+1)*m] {
			sq[c] += v * v
		}
	}
	par.Chunks(n, axpyChunk, func(_, lo, hi int) {
		rb := blas64.General{Rows: k, Cols: hi - lo, Stride: n, Data: r[lo : (k-1)*n+hi]}
		for j, b := range blocks {
			if b.rows == 0 {
				continue
			}
			q := blas64.General{Rows: b.rows, Cols: hi - lo, Stride: n, Data: b.q[lo : (b.rows-1)*n+hi]}
			hj := blas64.General{Rows: k, Cols: b.rows, Stride: m, Data: h[off[j] : (k-1)*m+off[j+1]]}
			blas64.Gemm(blas.NoTrans, blas.NoTrans, -1, hj, q, 1, rb)
		}
	})
}

// extend W-orthonormalizes the k columns of r against the basis and each
// other (block classical Gram–Schmidt against the last two blocks, then
// against the whole basis; then modified Gram–Schmidt, twice, within the
// block), appends the
// independent ones as a new block and returns B (kept×k, r = Q_new·B plus
// components on earlier vectors, which Lanczos already has in T or which
// are round-off) and kept. r is overwritten. A column with nothing left is
// replaced by a new direction in the range of Op with zero coefficients,
// while there is one; when there is none, it is dropped and the block
// shrinks. kept = 0 means the basis spans an invariant subspace of Op.
//
// W is applied once per vector kept, to the final vector: the product
// stored with it is then exact, whatever cancellation the
// orthogonalization went through.
func (l *lanczos) extend(ctx context.Context, r []float64, k int) (bm []float64, kept int, err error) {
	n := l.n
	sq := make([]float64, k) // squared W-norm removed from each column
	// The recurrence's large components lie on the last two blocks:
	// removing them first leaves only round-off on the others, which one
	// pass over the whole basis removes (the last two blocks so get two
	// passes, twice being enough).
	l.project(r, k, sq, max(0, len(l.basis)-2))
	l.project(r, k, sq, 0)
	l.basis = append(l.basis, vblock{q: make([]float64, k*n), wq: make([]float64, k*n)})
	nb := &l.basis[len(l.basis)-1]
	coef := make([]float64, k*k) // coef[i*k+c]: column c on new column i
	exhausted := false
	for c := range k {
		v := r[c*n : (c+1)*n]
		for range 2 {
			for i := range kept {
				h := dot(nb.wq[i*n:(i+1)*n], v)
				qi := nb.q[i*n : (i+1)*n]
				for t := range v {
					v[t] -= h * qi[t]
				}
				coef[i*k+c] += h
				sq[c] += h * h
			}
		}
		q, wq := nb.q[kept*n:(kept+1)*n], nb.wq[kept*n:(kept+1)*n]
		l.p.W(v, wq)
		norm := math.Sqrt(math.Max(0, dot(v, wq)))
		if norm > 1e-12*math.Sqrt(sq[c]+norm*norm) {
			coef[kept*k+c] = norm
			copy(q, v)
		} else {
			// Breakdown: a fresh direction in the range of Op, if any is
			// left, with zero coefficients.
			if exhausted {
				continue
			}
			if norm, err = l.fresh(ctx, q, wq); err != nil {
				return nil, 0, err
			}
			if norm == 0 {
				exhausted = true
				continue
			}
		}
		for t := range q {
			q[t] /= norm
			wq[t] /= norm
		}
		nb.rows++
		l.m++
		kept++
	}
	nb.q, nb.wq = nb.q[:kept*n:kept*n], nb.wq[:kept*n:kept*n]
	if kept == 0 {
		l.basis = l.basis[:len(l.basis)-1]
	}
	return coef[:kept*k], kept, nil
}

// fresh writes into v a direction in the range of Op W-orthogonal to the
// basis (the block being built included), with wv = W·v, and returns its
// W-norm; 0 when the basis spans the range (three random tries find
// nothing new).
func (l *lanczos) fresh(ctx context.Context, v, wv []float64) (float64, error) {
	for range 3 {
		if l.m >= l.n {
			return 0, nil // the basis spans the whole space
		}
		if err := l.randomRange(ctx, v, 1); err != nil {
			return 0, err
		}
		sq := []float64{0}
		l.project(v, 1, sq, 0)
		l.project(v, 1, sq, 0)
		// Nothing new unless a fair part survives: what is left of a
		// vector in the span is round-off.
		l.p.W(v, wv)
		if n1 := math.Sqrt(math.Max(0, dot(v, wv))); n1 > 1e-8*math.Sqrt(sq[0]+n1*n1) {
			return n1, nil
		}
	}
	return 0, nil
}

// combine writes into y (k vectors, column-major N×k) the combinations
// Q·S of the basis blocks, S the m×k column-major s.
func (l *lanczos) combine(s []float64, k int, blocks []vblock, y []float64) {
	n, m := l.n, 0
	for _, b := range blocks {
		m += b.rows
	}
	yb := rowMajor(y, k, n)
	off := 0
	for _, b := range blocks {
		// Sᵀ restricted to the block's rows: k×rows, stride m.
		st := blas64.General{Rows: k, Cols: b.rows, Stride: m, Data: s[off : (k-1)*m+off+b.rows]}
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, st, rowMajor(b.q, b.rows, n), 1, yb)
		off += b.rows
	}
}
