package sparse

import (
	"context"
	"fmt"
	"math"
)

// unblockedWidth is the panel width below which the pivot block is
// factored column by column; wider panels recurse so that almost all flops
// run in the blocked update kernel.
const unblockedWidth = 16

// Cancellation granularity. Dense updates run in chunks of at most
// ctxChunkWork multiply-adds per worker (about 4–8 ms at the kernels'
// speed, a few times that on a loaded machine) with a check of the context
// between chunks, so a cancellation is seen well within the 100 ms the
// service promises, even inside the largest fronts
// (BenchmarkFactorizeCancelLag measures the lag). Chunks split the shared
// dimension in multiples of the kernel's depth block (the arithmetic is
// then exactly that of one call) and the columns in blocks of at least
// ctxChunkMinCW, so that packing stays a small part of the work.
const (
	ctxChunkWork  = 1 << 27
	ctxChunkDepth = 256 // the kernels' kc
	ctxChunkMinCW = 512
	ctxChunkWords = 1 << 20 // zeroing, copying: words between checks
)

// cancelled returns ctx's error wrapped as a factorization error, or nil.
func cancelled(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sparse: factorize: %w", err)
	}
	return nil
}

// lowerUpdate computes the lower trapezoid of C −= A·diag(d)·Aᵀ, where A
// is M×K, C is M×N and the first N rows of A pair with C's columns: the
// trailing update of a pivot block and the update matrix of a front. It
// runs in chunks of bounded work and checks ctx between them.
//
// With over, C is taken as zero and written without being read (the update
// matrix of a front, which then needs no clearing beforehand).
func (w *frontWorker) lowerUpdate(ctx context.Context, M, N, K int, a []float64, lda int, d []float64, c []float64, ldc int, over bool) error {
	if K == 0 || N == 0 {
		return nil
	}
	kern := w.f.kern
	update := kern.UpdateNTPar
	if over {
		update = kern.OverwriteNTPar
	}
	kw := min(K, ctxChunkDepth)
	for c0 := 0; c0 < N; {
		rows := M - c0
		cw := N - c0
		if rows*cw*kw > ctxChunkWork*w.par {
			cw = max(ctxChunkMinCW, ctxChunkWork*w.par/(rows*kw)/16*16)
			cw = min(cw, N-c0)
		}
		if rows*cw*K <= ctxChunkWork*w.par {
			if err := cancelled(ctx); err != nil {
				return err
			}
			update(rows, cw, K, a[c0:], lda, d, a[c0:], lda, c[c0+c0*ldc:], ldc, true, w.par)
		} else {
			for k0 := 0; k0 < K; k0 += kw {
				if err := cancelled(ctx); err != nil {
					return err
				}
				kk := min(kw, K-k0)
				ak := a[c0+k0*lda:]
				if k0 == 0 {
					update(rows, cw, kk, ak, lda, d[k0:k0+kk], ak, lda, c[c0+c0*ldc:], ldc, true, w.par)
				} else {
					kern.UpdateNTPar(rows, cw, kk, ak, lda, d[k0:k0+kk], ak, lda, c[c0+c0*ldc:], ldc, true, w.par)
				}
			}
		}
		c0 += cw
	}
	return nil
}

// allocFloats returns n zeroed float64s, or ctx's error if ctx is
// cancelled first. Zeroing reused memory for a large factor or update
// matrix takes tens of milliseconds, too long to wait through after a
// cancellation, so large blocks are made on another goroutine (a block
// abandoned on cancellation is simply collected).
func allocFloats(ctx context.Context, n int) ([]float64, error) {
	if n < ctxChunkWords {
		return make([]float64, n), nil
	}
	ch := make(chan []float64, 1)
	go func() { ch <- make([]float64, n) }()
	select {
	case v := <-ch:
		return v, nil
	case <-ctx.Done():
		return nil, cancelled(ctx)
	}
}

// clearFloats zeroes x in blocks, checking ctx between them.
func clearFloats(ctx context.Context, x []float64) error {
	for len(x) > 0 {
		if err := cancelled(ctx); err != nil {
			return err
		}
		n := min(len(x), ctxChunkWords)
		clear(x[:n])
		x = x[n:]
	}
	return nil
}

// ldlPanel factors the k pivot columns of the m-row panel a (leading
// dimension lda, rows 0…m−1 with the pivot block on top) in place as
// L·D·Lᵀ, recursively halving the width. col0 is the permuted index of the
// panel's first column (for pivot checks), j0 the offset of a within the
// supernode's pivot block. d receives the pivots.
func (w *frontWorker) ldlPanel(ctx context.Context, a []float64, lda, j0, k int, d []float64, col0 int) error {
	m := lda - j0 // rows of this sub-panel
	if k <= unblockedWidth {
		return w.ldlUnblocked(a, lda, m, k, d, col0)
	}
	k1 := k / 2
	if k1 > 16 {
		k1 = k1 / 16 * 16 // keep tiles aligned with the micro-kernels
	}
	if err := w.ldlPanel(ctx, a, lda, j0, k1, d[:k1], col0); err != nil {
		return err
	}
	// The trailing update of a large pivot block is the biggest dense
	// operation of the factorization: it runs in checked chunks.
	if err := w.lowerUpdate(ctx, m-k1, k-k1, k1, a[k1:], lda, d[:k1], a[k1+k1*lda:], lda, false); err != nil {
		return err
	}
	return w.ldlPanel(ctx, a[k1+k1*lda:], lda, j0+k1, k-k1, d[k1:], col0+k1)
}

// ldlUnblocked is right-looking LDLᵀ on a narrow panel: scale the column by
// its pivot, then update the remaining columns of the panel.
func (w *frontWorker) ldlUnblocked(a []float64, lda, m, k int, d []float64, col0 int) error {
	f := w.f
	axpyNeg := f.kern.AxpyNegFunc()
	tol := f.opt.PivotTol
	if tol == 0 {
		tol = DefaultPivotTol
	}
	for j := 0; j < k; j++ {
		dj := a[j+j*lda]
		ref := f.ref[col0+j]
		if !(math.Abs(dj) > tol*ref) || ref == 0 {
			if !f.opt.AllowSingular {
				return &SingularError{DOF: f.Sym.Perm[col0+j], Pivot: dj, Ref: ref}
			}
			// Pin the DOF: its column of L becomes zero and solves return 0.
			// d = 0 in the update scaling keeps Inf·0 out of the kernels.
			a[j+j*lda] = math.Inf(1)
			clear(a[j+1+j*lda : m+j*lda])
			d[j] = 0
			continue
		}
		d[j] = dj
		col := a[j+1+j*lda : m+j*lda]
		inv := 1 / dj
		for i := range col {
			col[i] *= inv
		}
		for c := j + 1; c < k; c++ {
			l := a[c+j*lda]
			if l == 0 {
				continue
			}
			axpyNeg(dj*l, a[c+j*lda:m+j*lda], a[c+c*lda:m+c*lda])
		}
	}
	return nil
}
