//go:build amd64

package kernel

//go:noescape
func kern16x14(k int, a, b, c *float64, ldc int)

//go:noescape
func kern8x6(k int, a, b, c *float64, ldc int)

//go:noescape
func axpyNegAVX2(n int, alpha float64, x, y *float64)

//go:noescape
func dotAVX2(n int, x, y *float64) float64

func init() {
	avx2, avx512 := detect()
	switch {
	case avx512:
		setImpl(ImplAVX512)
	case avx2:
		setImpl(ImplAVX2)
	default:
		setImpl(ImplGeneric)
	}
	hasAVX2, hasAVX512 = avx2, avx512
}

func microAVX512(k int, a, b, c []float64, ldc int) { kern16x14(k, &a[0], &b[0], &c[0], ldc) }
func microAVX2(k int, a, b, c []float64, ldc int)   { kern8x6(k, &a[0], &b[0], &c[0], ldc) }

func axpyNegFast(alpha float64, x, y []float64) {
	if len(y) == 0 {
		return
	}
	_ = x[len(y)-1]
	axpyNegAVX2(len(y), alpha, &x[0], &y[0])
}

func dotFast(x, y []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	_ = y[len(x)-1]
	return dotAVX2(len(x), &x[0], &y[0])
}
