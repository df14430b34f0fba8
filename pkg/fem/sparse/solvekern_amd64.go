//go:build amd64

package sparse

import "github.com/gusset/gusset/pkg/fem/sparse/kernel"

//go:noescape
func solveKern16x6(k int, a *float64, lda int, b *float64, bj, bp int, c *float64, ldc int)

//go:noescape
func solveKern8x6(k int, a *float64, lda int, b *float64, bj, bp int, c *float64, ldc int)

// solveKernel returns the block-solve micro-kernel of the dense kernel
// implementation in use (package kernel chooses it from the CPU) and its
// row count MR; nil means the portable Go loops with MR = 4.
func solveKernel() (func(k int, a *float64, lda int, b *float64, bj, bp int, c *float64, ldc int), int) {
	switch kernel.Current() {
	case kernel.ImplAVX512:
		return solveKern16x6, 16
	case kernel.ImplAVX2:
		return solveKern8x6, 8
	}
	return nil, 4
}
