//go:build amd64

package kernel

import "golang.org/x/sys/cpu"

//go:noescape
func kern16x14(k int, a, b, c *float64, ldc int)

//go:noescape
func kern8x6(k int, a, b, c *float64, ldc int)

//go:noescape
func packScaled16(k int, a *float64, lda int, d *float64, dst *float64)

//go:noescape
func axpyNegAVX2(n int, alpha float64, x, y *float64)

//go:noescape
func dotAVX2(n int, x, y *float64) float64

// detect reports whether the AVX2+FMA and the AVX-512F kernels can run.
// golang.org/x/sys/cpu sets HasAVX2 and HasAVX512F only when the OS also
// saves the wider register state (XCR0 read with XGETBV: the XMM and YMM
// bits for AVX2, in addition the opmask, ZMM_Hi256 and Hi16_ZMM bits for
// AVX-512F, on Darwin its own AVX-512 check), so a CPU whose OS does not
// save that state, where the first instruction would fault, is reported
// without the feature. HasFMA is a bare CPUID bit, but FMA uses the same
// YMM state, which HasAVX2 has already vouched for.
func detect() (avx2, avx512 bool) {
	avx2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	avx512 = avx2 && cpu.X86.HasAVX512F
	return avx2, avx512
}

func microAVX512(k int, a, b, c []float64, ldc int) { kern16x14(k, &a[0], &b[0], &c[0], ldc) }
func microAVX2(k int, a, b, c []float64, ldc int)   { kern8x6(k, &a[0], &b[0], &c[0], ldc) }

// packAVX512 packs one full 16-row sliver of A scaled by d.
func packAVX512(k int, a []float64, lda int, d, dst []float64) {
	if k == 0 {
		return
	}
	_ = a[15+(k-1)*lda]
	_ = d[k-1]
	_ = dst[16*k-1]
	packScaled16(k, &a[0], lda, &d[0], &dst[0])
}

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
