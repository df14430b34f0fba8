//go:build !amd64

package sparse

import "github.com/gusset/gusset/pkg/fem/sparse/kernel"

// solveKernel returns nil (the portable Go loops) and MR = 4 where no
// assembly kernels exist, whatever impl.
func solveKernel(kernel.Impl) (func(k int, a *float64, lda int, b *float64, bj, bp int, c *float64, ldc int), int) {
	return nil, 4
}
