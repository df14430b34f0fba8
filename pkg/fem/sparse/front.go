package sparse

import (
	"context"
	"fmt"
	"math"

	"github.com/gusset/gusset/pkg/fem/sparse/kernel"
)

// unblockedWidth is the panel width below which the pivot block is
// factored column by column; wider panels recurse so that almost all flops
// run in the blocked update kernel.
const unblockedWidth = 16

func updateNT(m, n, k int, a []float64, lda int, d []float64, b []float64, ldb int, c []float64, ldc int, lower bool, par int) {
	kernel.UpdateNTPar(m, n, k, a, lda, d, b, ldb, c, ldc, lower, par)
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
	if k >= 512 && ctx.Err() != nil {
		return fmt.Errorf("sparse: factorize: %w", ctx.Err())
	}
	k1 := k / 2
	if k1 > 16 {
		k1 = k1 / 16 * 16 // keep tiles aligned with the micro-kernels
	}
	if err := w.ldlPanel(ctx, a, lda, j0, k1, d[:k1], col0); err != nil {
		return err
	}
	updateNT(m-k1, k-k1, k1, a[k1:], lda, d[:k1], a[k1:], lda, a[k1+k1*lda:], lda, true, w.par)
	return w.ldlPanel(ctx, a[k1+k1*lda:], lda, j0+k1, k-k1, d[k1:], col0+k1)
}

// ldlUnblocked is right-looking LDLᵀ on a narrow panel: scale the column by
// its pivot, then update the remaining columns of the panel.
func (w *frontWorker) ldlUnblocked(a []float64, lda, m, k int, d []float64, col0 int) error {
	f := w.f
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
			kernel.AxpyNeg(dj*l, a[c+j*lda:m+j*lda], a[c+c*lda:m+c*lda])
		}
	}
	return nil
}
