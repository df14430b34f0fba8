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

// shearTerms caps the terms of Shear. At x = 0 or 1, where its terms fall
// off only as 1/n², the remainder is below Σ_{n>N, odd} 1/n² ≈ 1/(2N),
// 2.5e-6 of the edge value for N = 2e5; inside they fall off as e^{−nπx}
// and the sum stops once they are below 1e-17.
const shearTerms = 200000

// Shear returns, at (x, y) = (x/a, y/a), 0 ≤ x, y ≤ 1, the transverse
// shear forces Qx/(q·a) and Qy/(q·a) of the simply supported square
// plate under a uniform load q, thin-plate theory: Timoshenko &
// Woinowsky-Krieger §30, Qx = −D·∂(∇²w)/∂x of the Navier series, which is
// independent of ν,
//
//	Qx/(q·a) = (16/π³) Σ_m Σ_n cos(mπx)·sin(nπy) / (n·(m² + n²)),  m, n odd.
//
// The sum over m has the closed form Σ_m cos(mθ)/(m² + n²) =
// π·sinh(n(π/2 − θ)) / (4n·cosh(nπ/2)) for 0 ≤ θ ≤ π (Gradshteyn &
// Ryzhik 1.445.2 over odd m; it is Lévy's single series of §30), so
//
//	Qx/(q·a) = (4/π²) Σ_n sin(nπy)·sinh(nπ(½ − x)) / (n²·cosh(nπ/2)),
//
// which converges fast away from the edges x = 0, 1. Qy follows by
// symmetry, Qy(x, y) = Qx(y, x). The largest is at the middle of an edge,
// Qx(0, ½) = 0.338·q·a (their Table 8, b/a = 1), pointing into the plate.
// In the signs of the package, Qx > 0 at x = 0 under a load along +w.
func Shear(x, y float64) (qx, qy float64) {
	return shearX(x, y), shearX(y, x)
}

// shearX is the single series of Shear for Qx/(q·a).
func shearX(x, y float64) float64 {
	s := 0.0
	for k := range shearTerms {
		n := float64(2*k + 1)
		// sinh(nπ(½ − x))/cosh(nπ/2) without overflow.
		e1, e2 := math.Exp(-n*math.Pi*x), math.Exp(-n*math.Pi*(1-x))
		h := (e1 - e2) / (1 + math.Exp(-n*math.Pi))
		s += math.Sin(n*math.Pi*y) * h / (n * n)
		if (e1+e2)/(n*n) < 1e-17 {
			break
		}
	}
	return 4 / (math.Pi * math.Pi) * s
}
