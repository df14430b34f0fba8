package transform

import "github.com/gusset/gusset/pkg/fem/geom"

// ToGlobalMatrix writes kg = Tᵀ·kl·T for an n×n row-major matrix (n a
// multiple of 3) where T = diag(R, R, …). It works 3×3 block by block and
// skips all-zero blocks, so no dense n×n product is formed. kg may alias kl.
//
// For a frame element: ToGlobalMatrix(r, 12, kLocal, kGlobal).
func ToGlobalMatrix(r geom.Rotation, n int, kl, kg []float64) {
	rt := r.Transpose()
	congruence(rt, r, n, kl, kg)
}

// ToLocalMatrix writes kl = T·kg·Tᵀ, the inverse of ToGlobalMatrix. kl may
// alias kg.
func ToLocalMatrix(r geom.Rotation, n int, kg, kl []float64) {
	rt := r.Transpose()
	congruence(r, rt, n, kg, kl)
}

// congruence writes out_IJ = a·in_IJ·b for every 3×3 block IJ.
func congruence(a, b geom.Rotation, n int, in, out []float64) {
	nb := n / 3
	for bi := range nb {
		for bj := range nb {
			var blk, tmp [3][3]float64
			zero := true
			for i := range 3 {
				row := (3*bi + i) * n
				for j := range 3 {
					v := in[row+3*bj+j]
					blk[i][j] = v
					if v != 0 {
						zero = false
					}
				}
			}
			if zero {
				for i := range 3 {
					row := (3*bi + i) * n
					for j := range 3 {
						out[row+3*bj+j] = 0
					}
				}
				continue
			}
			for i := range 3 {
				for j := range 3 {
					tmp[i][j] = blk[i][0]*b[0][j] + blk[i][1]*b[1][j] + blk[i][2]*b[2][j]
				}
			}
			for i := range 3 {
				row := (3*bi + i) * n
				for j := range 3 {
					out[row+3*bj+j] = a[i][0]*tmp[0][j] + a[i][1]*tmp[1][j] + a[i][2]*tmp[2][j]
				}
			}
		}
	}
}

// ToGlobalVector writes g = Tᵀ·l for a vector of length n (a multiple of
// 3), triple by triple. g may alias l.
func ToGlobalVector(r geom.Rotation, l, g []float64) {
	for b := 0; b+3 <= len(l); b += 3 {
		x, y, z := l[b], l[b+1], l[b+2]
		g[b] = r[0][0]*x + r[1][0]*y + r[2][0]*z
		g[b+1] = r[0][1]*x + r[1][1]*y + r[2][1]*z
		g[b+2] = r[0][2]*x + r[1][2]*y + r[2][2]*z
	}
}

// ToLocalVector writes l = T·g for a vector of length n (a multiple of 3),
// triple by triple. l may alias g.
func ToLocalVector(r geom.Rotation, g, l []float64) {
	for b := 0; b+3 <= len(g); b += 3 {
		x, y, z := g[b], g[b+1], g[b+2]
		l[b] = r[0][0]*x + r[0][1]*y + r[0][2]*z
		l[b+1] = r[1][0]*x + r[1][1]*y + r[1][2]*z
		l[b+2] = r[2][0]*x + r[2][1]*y + r[2][2]*z
	}
}
