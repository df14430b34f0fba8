package transform

// Rigid end offsets. A member end sits at node + e, where e is the offset
// vector in global axes, joined to the node by a rigid link. For small
// rotations the end displacement is
//
//	u_end = u_node + θ_node × e,   θ_end = θ_node,
//
// i.e. u_end = H·u_node with H = [I −[e]ₓ; 0 I] per node, and end forces
// move to the node as F_node = F_end, M_node = M_end + e × F_end (Hᵀ).
//
// Offsets given in member local axes are turned into global ones first,
// e = Rᵀ·e_local (Rotation.ApplyT), where R is LocalAxes of the
// node-to-node line with the member's full angle: its direction angle
// plus the section's principal angle, the same axes as its local loads
// and results (package static).

// skewMul returns θ × e.
func skewMul(theta, e Vec3) Vec3 { return theta.Cross(e) }

// OffsetMatrix writes kn = Hᵀ·k·H for a 12×12 global matrix of a two-node
// member with global offsets eA and eB, in place. Zero offsets leave k
// unchanged.
func OffsetMatrix(eA, eB Vec3, k []float64) {
	if eA == (Vec3{}) && eB == (Vec3{}) {
		return
	}
	const n = 12
	e := [2]Vec3{eA, eB}
	// k·H: column block (node j, rotation) gains −k_(:,trans j)·[e_j]ₓ.
	// [e]ₓ·θ = e × θ, so u_end = u + θ × e = u − e × θ = u − [e]ₓθ.
	for j := range 2 {
		if e[j] == (Vec3{}) {
			continue
		}
		ex := skew(e[j])
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
	for i := range 2 {
		if e[i] == (Vec3{}) {
			continue
		}
		ex := skew(e[i])
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

// skew returns [e]ₓ, the matrix with [e]ₓ·v = e × v.
func skew(e Vec3) [3][3]float64 {
	return [3][3]float64{{0, -e[2], e[1]}, {e[2], 0, -e[0]}, {-e[1], e[0], 0}}
}

// OffsetForces writes fn = Hᵀ·f for a 12-vector of member-end forces in
// global axes: moments gain e × F. fn may alias f.
func OffsetForces(eA, eB Vec3, f, fn []float64) {
	e := [2]Vec3{eA, eB}
	for j := range 2 {
		F := Vec3{f[6*j], f[6*j+1], f[6*j+2]}
		m := e[j].Cross(F)
		fn[6*j], fn[6*j+1], fn[6*j+2] = F[0], F[1], F[2]
		fn[6*j+3] = f[6*j+3] + m[0]
		fn[6*j+4] = f[6*j+4] + m[1]
		fn[6*j+5] = f[6*j+5] + m[2]
	}
}

// OffsetDisplacements writes ue = H·un for a 12-vector of node
// displacements in global axes: end translations gain θ × e. ue may alias
// un.
func OffsetDisplacements(eA, eB Vec3, un, ue []float64) {
	e := [2]Vec3{eA, eB}
	for j := range 2 {
		th := Vec3{un[6*j+3], un[6*j+4], un[6*j+5]}
		d := skewMul(th, e[j])
		ue[6*j] = un[6*j] + d[0]
		ue[6*j+1] = un[6*j+1] + d[1]
		ue[6*j+2] = un[6*j+2] + d[2]
		ue[6*j+3], ue[6*j+4], ue[6*j+5] = th[0], th[1], th[2]
	}
}
