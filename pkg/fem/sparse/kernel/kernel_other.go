//go:build !amd64

package kernel

func init() { setImpl(ImplGeneric) }

func microAVX512(k int, a, b, c []float64, ldc int) { microGeneric16x14(k, a, b, c, ldc) }
func microAVX2(k int, a, b, c []float64, ldc int)   { microGeneric8x6(k, a, b, c, ldc) }
func axpyNegFast(alpha float64, x, y []float64)     { axpyNegGeneric(alpha, x, y) }
func dotFast(x, y []float64) float64                { return dotGeneric(x, y) }
