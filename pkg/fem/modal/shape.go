package modal

import "math"

// roundOff is the fraction of a shape's largest component below which a
// motion counts as round-off: a member bending between nodes that stay
// put leaves them only rotations, and translations of 1e-17.
const roundOff = 1e-9

// Dominant returns the node and DOF (0–5) of the component that sets a
// shape's scale and sign: its largest translation or, when no node
// translates beyond round-off of the largest component, its largest
// rotation; (−1, −1) for a zero shape. Ties go to the first.
func Dominant(shapes [][6]float64) (node, dof int) {
	node, dof = -1, -1
	nT, dT, nR, dR := -1, -1, -1, -1
	bigT, bigR := 0.0, 0.0
	for i, s := range shapes {
		for d := range 3 {
			if a := math.Abs(s[d]); a > bigT {
				bigT, nT, dT = a, i, d
			}
			if a := math.Abs(s[3+d]); a > bigR {
				bigR, nR, dR = a, i, 3+d
			}
		}
	}
	switch {
	case bigT > roundOff*bigR:
		return nT, dT
	case bigR > 0:
		return nR, dR
	}
	return node, dof
}

// Normalize scales the node shapes as n says: for UnitNormalized the
// component Dominant picks becomes +1.
func Normalize(shapes [][6]float64, n Normalization) {
	if n != UnitNormalized {
		return
	}
	i, d := Dominant(shapes)
	if i < 0 {
		return
	}
	f := 1 / shapes[i][d]
	for i := range shapes {
		for d := range 6 {
			shapes[i][d] *= f
		}
	}
}
