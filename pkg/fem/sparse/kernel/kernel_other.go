//go:build !amd64

package kernel

// detect reports no assembly kernels: they exist for amd64 only (on other
// architectures the AVX names map to the portable reference loops below,
// which For and Best never hand out).
func detect() (avx2, avx512 bool) { return false, false }

func microAVX512(k int, a, b, c []float64, ldc int) { microGeneric16x14(k, a, b, c, ldc) }
func microAVX2(k int, a, b, c []float64, ldc int)   { microGeneric8x6(k, a, b, c, ldc) }
func axpyNegFast(alpha float64, x, y []float64)     { axpyNegGeneric(alpha, x, y) }
func dotFast(x, y []float64) float64                { return dotGeneric(x, y) }

func packAVX512(k int, a []float64, lda int, d, dst []float64) {
	packScaledGeneric(16, k, a, lda, d, dst)
}
