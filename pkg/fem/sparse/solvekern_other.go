//go:build !amd64

package sparse

// solveKernel returns nil (the portable Go loops) and MR = 4 where no
// assembly kernels exist.
func solveKernel() (func(k int, a *float64, lda int, b *float64, bj, bp int, c *float64, ldc int), int) {
	return nil, 4
}
