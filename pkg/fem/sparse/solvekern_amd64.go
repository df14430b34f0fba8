//go:build amd64

package sparse

import "github.com/gusset/gusset/pkg/fem/sparse/kernel"

//go:noescape
func solveKern16x6(k int, a *float64, lda int, b *float64, bj, bp int, c *float64, ldc int)

//go:noescape
func solveKern8x6(k int, a *float64, lda int, b *float64, bj, bp int, c *float64, ldc int)

// solveKernel returns the block-solve micro-kernel that goes with the dense
// kernel implementation impl (the factor's, so that a factor made with
// kernel.For also solves with it) and its row count MR; nil means the
// portable Go loops with MR = 4.
func solveKernel(impl kernel.Impl) (func(k int, a *float64, lda int, b *float64, bj, bp int, c *float64, ldc int), int) {
	switch impl {
	case kernel.ImplAVX512:
		return solveKern16x6, 16
	case kernel.ImplAVX2:
		return solveKern8x6, 8
	}
	return nil, 4
}
