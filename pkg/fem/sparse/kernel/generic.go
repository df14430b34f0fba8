package kernel

// microGeneric4x4 is the portable micro-kernel: C[0:4,0:4] −= Σ_p a_p ⊗ b_p
// with the 16 accumulators held in locals so the compiler keeps them in
// registers.
func microGeneric4x4(k int, a, b, c []float64, ldc int) {
	var c00, c10, c20, c30, c01, c11, c21, c31 float64
	var c02, c12, c22, c32, c03, c13, c23, c33 float64
	a = a[:4*k]
	b = b[:4*k]
	for p := 0; p < k; p++ {
		ap := a[4*p : 4*p+4 : 4*p+4]
		bp := b[4*p : 4*p+4 : 4*p+4]
		a0, a1, a2, a3 := ap[0], ap[1], ap[2], ap[3]
		b0, b1, b2, b3 := bp[0], bp[1], bp[2], bp[3]
		c00 += a0 * b0
		c10 += a1 * b0
		c20 += a2 * b0
		c30 += a3 * b0
		c01 += a0 * b1
		c11 += a1 * b1
		c21 += a2 * b1
		c31 += a3 * b1
		c02 += a0 * b2
		c12 += a1 * b2
		c22 += a2 * b2
		c32 += a3 * b2
		c03 += a0 * b3
		c13 += a1 * b3
		c23 += a2 * b3
		c33 += a3 * b3
	}
	col := c[0:4:4]
	col[0] -= c00
	col[1] -= c10
	col[2] -= c20
	col[3] -= c30
	col = c[ldc : ldc+4 : ldc+4]
	col[0] -= c01
	col[1] -= c11
	col[2] -= c21
	col[3] -= c31
	col = c[2*ldc : 2*ldc+4 : 2*ldc+4]
	col[0] -= c02
	col[1] -= c12
	col[2] -= c22
	col[3] -= c32
	col = c[3*ldc : 3*ldc+4 : 3*ldc+4]
	col[0] -= c03
	col[1] -= c13
	col[2] -= c23
	col[3] -= c33
}

// microGenericMN is a reference for any tile shape, used on platforms
// without the assembly kernels (same packed layout as the fast paths).
func microGenericMN(mr, nr, k int, a, b, c []float64, ldc int) {
	for j := 0; j < nr; j++ {
		for i := 0; i < mr; i++ {
			s := 0.0
			for p := 0; p < k; p++ {
				s += a[p*mr+i] * b[p*nr+j]
			}
			c[i+j*ldc] -= s
		}
	}
}

func microGeneric16x14(k int, a, b, c []float64, ldc int) { microGenericMN(16, 14, k, a, b, c, ldc) }
func microGeneric8x6(k int, a, b, c []float64, ldc int)   { microGenericMN(8, 6, k, a, b, c, ldc) }

func axpyNegGeneric(alpha float64, x, y []float64) {
	x = x[:len(y)]
	for i := range y {
		y[i] -= alpha * x[i]
	}
}

func dotGeneric(x, y []float64) float64 {
	y = y[:len(x)]
	s := 0.0
	for i, v := range x {
		s += v * y[i]
	}
	return s
}
