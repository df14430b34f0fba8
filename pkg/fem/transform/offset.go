package transform

import "github.com/gusset/gusset/pkg/fem/geom"

// Rigid end offsets; the conventions are in the package doc.

// OffsetMatrix writes kn = Hᵀ·k·H in place for the n×n matrix (n = 6·len(e))
// of an element whose node i is joined to the element by a rigid link e[i]
// (the offsets, in the axes of k). Zero offsets leave k unchanged.
func OffsetMatrix(e []geom.Vec3, k []float64) {
	if allZero(e) {
		return
	}
	n := 6 * len(e)
	// k·H: column block (node j, rotation) gains −k_(:,trans j)·[e_j]ₓ.
	// [e]ₓ·θ = e × θ, so u_end = u + θ × e = u − e × θ = u − [e]ₓθ.
	for j := range e {
		if e[j] == (geom.Vec3{}) {
			continue
		}
		ex := geom.Skew(e[j])
		for r := range n {
			t := [3]float64{k[r*n+6*j], k[r*n+6*j+1], k[r*n+6*j+2]}
			for c := range 3 {
				s := 0.0
				for m := range 3 {
					s += t[m] * ex[m][c]
				}
				k[r*n+6*j+3+c] -= s
			}
		}
	}
	// Hᵀ·(k·H): row block (node i, rotation) gains −[e_i]ₓᵀ·k_(trans i,:)
	// = +[e_i]ₓ·k_(trans i,:).
	for i := range e {
		if e[i] == (geom.Vec3{}) {
			continue
		}
		ex := geom.Skew(e[i])
		for c := range n {
			t := [3]float64{k[(6*i)*n+c], k[(6*i+1)*n+c], k[(6*i+2)*n+c]}
			for r := range 3 {
				s := 0.0
				for m := range 3 {
					s += ex[r][m] * t[m]
				}
				k[(6*i+3+r)*n+c] += s
			}
		}
	}
}

// allZero reports whether every offset is zero.
func allZero(e []geom.Vec3) bool {
	for _, v := range e {
		if v != (geom.Vec3{}) {
			return false
		}
	}
	return true
}

// OffsetForces writes fn = Hᵀ·f for a vector of element-end forces (6 per
// node, n = 6·len(e)) in the axes of the offsets e: moments gain e × F. fn
// may alias f.
func OffsetForces(e []geom.Vec3, f, fn []float64) {
	for j := range e {
		F := geom.Vec3{f[6*j], f[6*j+1], f[6*j+2]}
		m := e[j].Cross(F)
		fn[6*j], fn[6*j+1], fn[6*j+2] = F[0], F[1], F[2]
		fn[6*j+3] = f[6*j+3] + m[0]
		fn[6*j+4] = f[6*j+4] + m[1]
		fn[6*j+5] = f[6*j+5] + m[2]
	}
}

// OffsetDisplacements writes ue = H·un for a vector of node displacements
// (6 per node, n = 6·len(e)) in the axes of the offsets e: element-end
// translations gain θ × e. ue may alias un.
func OffsetDisplacements(e []geom.Vec3, un, ue []float64) {
	for j := range e {
		th := geom.Vec3{un[6*j+3], un[6*j+4], un[6*j+5]}
		d := th.Cross(e[j])
		ue[6*j] = un[6*j] + d[0]
		ue[6*j+1] = un[6*j+1] + d[1]
		ue[6*j+2] = un[6*j+2] + d[2]
		ue[6*j+3], ue[6*j+4], ue[6*j+5] = th[0], th[1], th[2]
	}
}
