package element

import (
	"errors"
	"fmt"
	"math"
)

// Releases describes how each of the 12 member-end DOFs is connected to its
// node: rigidly (the default), not at all, or through a spring.
type Releases struct {
	Released [FrameDOF]bool    // true: the member DOF is not rigidly tied to the node
	Spring   [FrameDOF]float64 // stiffness of the tie where Released, N/m or N·m/rad; 0 = free
}

// Any reports whether at least one DOF is released.
func (r *Releases) Any() bool {
	for _, b := range r.Released {
		if b {
			return true
		}
	}
	return false
}

// ErrBadFixity reports a malformed fixity code.
var ErrBadFixity = errors.New("bad fixity code")

// ErrUnstableRelease reports releases that leave the member itself a
// mechanism, e.g. torsion released at both ends.
var ErrUnstableRelease = errors.New("releases make the member unstable")

// ParseReleases builds Releases from two 6-character fixity codes, one per
// end in DOF order ux uy uz rx ry rz: F fixed, R released, S spring with the
// stiffness from springsA or springsB. An empty code means "FFFFFF".
func ParseReleases(codeA, codeB string, springsA, springsB [6]float64) (Releases, error) {
	var r Releases
	for end, code := range [2]string{codeA, codeB} {
		if code == "" {
			continue
		}
		if len(code) != 6 {
			return r, fmt.Errorf("parse releases: %w %q: want 6 characters", ErrBadFixity, code)
		}
		springs := springsA
		if end == 1 {
			springs = springsB
		}
		for i := range 6 {
			d := 6*end + i
			switch code[i] {
			case 'F', 'f':
			case 'R', 'r':
				r.Released[d] = true
			case 'S', 's':
				if !(springs[i] >= 0) || math.IsInf(springs[i], 0) {
					return r, fmt.Errorf("parse releases: %w %q: spring %d is %g", ErrBadFixity, code, i, springs[i])
				}
				r.Released[d] = true
				r.Spring[d] = springs[i]
			default:
				return r, fmt.Errorf("parse releases: %w %q: character %q", ErrBadFixity, code, code[i])
			}
		}
	}
	return r, nil
}

// pivotTol is the relative size below which a condensation pivot counts as
// zero: the member has a zero-energy mode the releases do not restrain.
const pivotTol = 1e-10

// Condense applies end releases to a 12×12 local stiffness k and its
// fixed-end action vector q (len 12, may be nil), in place, by static
// condensation. For each released DOF the member end becomes an internal
// unknown tied to the node through its spring (stiffness 0 if free), and
// is eliminated one at a time with a rank-1 update (no inverse is formed).
// Afterwards the released row and column describe the node side of the
// spring; for a free release they are zero.
func Condense(k, q []float64, rel *Releases) error {
	n := FrameDOF
	scale := 0.0
	for i := range n {
		scale = math.Max(scale, math.Abs(k[i*n+i]))
	}
	for i := range n {
		if !rel.Released[i] {
			continue
		}
		ks := rel.Spring[i]
		kii := k[i*n+i]
		s := kii + ks
		if !(s > pivotTol*scale) {
			if ks == 0 && kii <= pivotTol*scale && rowZero(k, i, pivotTol*scale) {
				// The DOF carries no stiffness at all (already free):
				// nothing couples to it, only a load on it would be unstable.
				if q != nil && q[i] != 0 {
					return fmt.Errorf("condense DOF %d: %w (load on a free DOF)", i, ErrUnstableRelease)
				}
				continue
			}
			return fmt.Errorf("condense DOF %d: %w", i, ErrUnstableRelease)
		}
		for r := range n {
			if r == i {
				continue
			}
			kri := k[r*n+i]
			if kri == 0 {
				continue
			}
			f := kri / s
			for c := range n {
				if c != i {
					k[r*n+c] -= f * k[i*n+c]
				}
			}
			if q != nil {
				q[r] -= f * q[i]
			}
		}
		for r := range n {
			if r != i {
				v := k[r*n+i] * ks / s
				k[r*n+i] = v
				k[i*n+r] = v
			}
		}
		k[i*n+i] = ks * kii / s
		if q != nil {
			q[i] *= ks / s
		}
	}
	return nil
}

func rowZero(k []float64, i int, tol float64) bool {
	for c := range FrameDOF {
		if math.Abs(k[i*FrameDOF+c]) > tol {
			return false
		}
	}
	return true
}

// MemberEndDisplacements recovers the displacements of the member's own end
// DOFs from the node-side displacements u (local axes, len 12), given the
// uncondensed local stiffness k0 and fixed-end actions q0 (may be nil). For
// unreleased DOFs the result equals u. For released DOFs m it solves
// (K_mm + Ks)·u_m = Ks·u_n − K_mr·u_r − q_m by Gaussian elimination on the
// small released block. out may not alias u; scratch needs len ≥ 12·13.
func MemberEndDisplacements(k0, q0 []float64, rel *Releases, u, out, scratch []float64) error {
	copy(out[:FrameDOF], u[:FrameDOF])
	var m [FrameDOF]int
	nm := 0
	for i := range FrameDOF {
		if rel.Released[i] {
			m[nm] = i
			nm++
		}
	}
	if nm == 0 {
		return nil
	}
	// Augmented system [S | rhs] of size nm × (nm+1) in scratch.
	w := nm + 1
	a := scratch[:nm*w]
	for p := range nm {
		i := m[p]
		rhs := rel.Spring[i] * u[i]
		if q0 != nil {
			rhs -= q0[i]
		}
		for j := range FrameDOF {
			if !rel.Released[j] {
				rhs -= k0[i*FrameDOF+j] * u[j]
			}
		}
		for qq := range nm {
			a[p*w+qq] = k0[i*FrameDOF+m[qq]]
		}
		a[p*w+p] += rel.Spring[i]
		a[p*w+nm] = rhs
	}
	x, err := gaussSolve(a, nm)
	if err != nil {
		return fmt.Errorf("member end displacements: %w", err)
	}
	for p := range nm {
		out[m[p]] = x[p]
	}
	return nil
}

// gaussSolve solves the n×(n+1) augmented system in place with partial
// pivoting and returns the solution stored in the last column. A zero-energy
// internal mode (zero pivot with a zero right-hand side) is given zero
// displacement, the choice that matches Condense skipping free DOFs.
func gaussSolve(a []float64, n int) ([]float64, error) {
	w := n + 1
	scale := 0.0
	for i := range n {
		scale = math.Max(scale, math.Abs(a[i*w+i]))
	}
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r*w+c]) > math.Abs(a[p*w+c]) {
				p = r
			}
		}
		if p != c {
			for j := range w {
				a[p*w+j], a[c*w+j] = a[c*w+j], a[p*w+j]
			}
		}
		piv := a[c*w+c]
		if math.Abs(piv) <= pivotTol*scale {
			a[c*w+c] = 0
			continue
		}
		for r := c + 1; r < n; r++ {
			f := a[r*w+c] / piv
			if f == 0 {
				continue
			}
			for j := c; j < w; j++ {
				a[r*w+j] -= f * a[c*w+j]
			}
		}
	}
	for c := n - 1; c >= 0; c-- {
		s := a[c*w+n]
		for j := c + 1; j < n; j++ {
			s -= a[c*w+j] * a[j*w+n]
		}
		if a[c*w+c] == 0 {
			if math.Abs(s) > pivotTol*math.Max(scale, 1) {
				return nil, ErrUnstableRelease
			}
			a[c*w+n] = 0
			continue
		}
		a[c*w+n] = s / a[c*w+c]
	}
	x := make([]float64, 0, n)
	for i := range n {
		x = append(x, a[i*w+n])
	}
	return x, nil
}
