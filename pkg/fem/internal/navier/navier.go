// Package navier sums the Navier double series of the simply supported
// square plate, side a, the reference solution of the plate tests (package
// shell's element tests and the whole-engine
// tests). It imports the standard library only, so that the element
// tests of package shell can use it. Positions are given as fractions
// (x/a, y/a) and the results are dimensionless. Signs are those of
// Timoshenko & Woinowsky-Krieger (Theory of Plates and Shells, 2nd ed.,
// ch. 5): w positive along the load, Mx positive when it stretches the
// face away from the load.
package navier

import "math"

// terms is the number of odd terms each way. The terms of w fall off as
// 1/m⁵, those of Mx as 1/m³ and those of the point-load w as 1/m⁴, so
// 1000 leave truncation errors of about 1e-7 relative or less.
const terms = 1000

// Kirchhoff returns, at (x, y) = (x/a, y/a), the thin-plate solutions of
// Timoshenko & Woinowsky-Krieger §30 and §34 for Poisson's ratio nu: under
// a uniform load q, w·D/(q·a⁴) and Mx/(q·a²); under a point load P at the
// centre, w·D/(P·a²). At the centre with ν = 0.3 they are 0.0040624,
// 0.04789 and 0.01160 (their Table 8 and §34).
func Kirchhoff(nu, x, y float64) (wq, mq, wp float64) {
	var sx, sy, half [terms]float64
	for i := range terms {
		k := float64(2*i + 1)
		sx[i] = math.Sin(k * math.Pi * x)
		sy[i] = math.Sin(k * math.Pi * y)
		half[i] = float64(1 - 2*(i%2)) // sin(kπ/2)
	}
	for i := range terms {
		fm := float64(2*i + 1)
		for j := range terms {
			fn := float64(2*j + 1)
			s := fm*fm + fn*fn
			ss := sx[i] * sy[j] / (s * s)
			wq += ss / (fm * fn)
			mq += ss * (fm*fm + nu*fn*fn) / (fm * fn)
			wp += ss * half[i] * half[j]
		}
	}
	pi2 := math.Pi * math.Pi
	return 16 / (pi2 * pi2 * pi2) * wq, 16 / (pi2 * pi2) * mq, 4 / (pi2 * pi2) * wp
}
