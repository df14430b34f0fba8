package geom

import "math"

// Finite 3-D rotations: the exponential map of a rotation vector, its
// logarithm, and the tangent of the exponential map, for the co-rotational
// frame transform (package transform), where node rotations are large and
// are composed, never added. See "Turning matrices" in the package doc for
// how these matrices relate to the frames of [Rotation].
//
// References: Argyris, "An excursion into large rotations", Comput. Meth.
// Appl. Mech. Eng. 32 (1982) 85–155 (Rodrigues' formula and the
// exponential map); Simo & Vu-Quoc, "A three-dimensional finite-strain rod
// model. Part II", Comput. Meth. Appl. Mech. Eng. 58 (1986) 79–116
// (the tangent of the exponential map); Crisfield, Non-linear Finite
// Element Analysis of Solids and Structures, vol. 2, Wiley 1997, ch. 16–17.

// Skew returns the skew (spin) matrix [v]ₓ with [v]ₓ·w = v × w, the matrix
// form of the cross product that the rotation formulas are written in.
func Skew(v Vec3) [3][3]float64 {
	return [3][3]float64{
		{0, -v[2], v[1]},
		{v[2], 0, -v[0]},
		{-v[1], v[0], 0},
	}
}

// smallSinc is the argument below which sin(x)/x is taken from its series:
// there 1 − x²/6 is exact to round-off (the next term is x⁴/120 < 1e-18).
const smallSinc = 1e-4

// sinc returns sin(x)/x, finite and accurate at and near x = 0.
func sinc(x float64) float64 {
	if math.Abs(x) < smallSinc {
		return 1 - x*x/6
	}
	return math.Sin(x) / x
}

// ExpMap returns the turning matrix Q = exp([θ]ₓ) of the rotation vector
// θ: the rotation by the angle t = |θ| (rad, right-hand rule) about the
// axis θ/t, by Rodrigues' formula
//
//	Q = cos t·I + (sin t/t)·[θ]ₓ + ((1 − cos t)/t²)·θ·θᵀ.
//
// Q.Apply(v) is v turned; as a frame, the global axes turned by θ are the
// rows of Q.Transpose() (package doc). The coefficients are written as
// sinc(t) and ½·sinc(t/2)², with a series for sinc near 0, so that small
// angles (down to θ = 0, which gives Identity exactly) keep full relative
// accuracy and no small-angle formula is ever substituted for large ones.
func ExpMap(theta Vec3) Rotation {
	t := math.Sqrt(theta.Dot(theta))
	a := sinc(t)
	h := sinc(t / 2)
	b := h * h / 2 // (1 − cos t)/t²
	c := math.Cos(t)
	k := Skew(theta)
	var q Rotation
	for i := range 3 {
		for j := range 3 {
			q[i][j] = a*k[i][j] + b*theta[i]*theta[j]
		}
		q[i][i] += c
	}
	return q
}

// LogMap returns the rotation vector θ with |θ| ≤ π and ExpMap(θ) = q, for
// a proper orthonormal turning matrix q. It inverts [ExpMap] accurately
// over the whole range: below π/2 from the skew part of q, with a series for
// t/sin t near 0; from π/2 to π from the symmetric part, which still
// determines the axis well where the skew part (2·sin t·n) vanishes. At
// exactly π both ±π·n are logarithms; either may be returned.
func LogMap(q Rotation) Vec3 {
	c := (q[0][0] + q[1][1] + q[2][2] - 1) / 2 // cos t
	c = math.Max(-1, math.Min(1, c))
	// a = sin t·n, the axial vector of the skew part (q − qᵀ)/2.
	a := Vec3{q[2][1] - q[1][2], q[0][2] - q[2][0], q[1][0] - q[0][1]}.Scale(0.5)
	s := a.Norm()
	if c > 0 {
		// t < π/2: t = asin(s); t/s from its series where s is small.
		if s < smallSinc {
			s2 := s * s
			return a.Scale(1 + s2/6 + 3*s2*s2/40)
		}
		return a.Scale(math.Atan2(s, c) / s)
	}
	// t ≥ π/2: (q + qᵀ)/2 − c·I = (1 − c)·n·nᵀ; its largest column is the
	// best-conditioned multiple of n. The skew part fixes the sign of n.
	k := 0
	for i := 1; i < 3; i++ {
		if q[i][i] > q[k][k] {
			k = i
		}
	}
	var col Vec3
	for i := range 3 {
		col[i] = (q[i][k] + q[k][i]) / 2
	}
	col[k] -= c
	n, ok := col.Unit()
	if !ok { // not a rotation (e.g. NaN input): let the NaN show
		return Vec3{math.NaN(), math.NaN(), math.NaN()}
	}
	if n.Dot(a) < 0 {
		n = n.Scale(-1)
	}
	return n.Scale(math.Atan2(s, c))
}

// ExpJacobian returns the tangent of the exponential map J(θ), defined by
//
//	d/dε ExpMap(θ + ε·δ) |ε=0 = [J(θ)·δ]ₓ · ExpMap(θ),
//
// i.e. a change δ of the rotation vector turns the frame further by the
// spin J·δ, in the same (global, left) axes as θ:
//
//	J = I + ((1 − cos t)/t²)·[θ]ₓ + ((t − sin t)/t³)·[θ]ₓ².
//
// (Simo & Vu-Quoc 1986; Crisfield vol. 2, ch. 16.) Both
// coefficients come from series near t = 0.
func ExpJacobian(theta Vec3) [3][3]float64 {
	t2 := theta.Dot(theta)
	t := math.Sqrt(t2)
	h := sinc(t / 2)
	b := h * h / 2
	var g float64 // (t − sin t)/t³
	if t < 0.5 {
		// Taylor series; the first omitted term, t¹⁴/15!, is < 1e-16 of 1/6.
		g = 1.0 / 6
		term := 1.0 / 6
		for n := 1; n <= 6; n++ {
			term *= -t2 / float64((2*n+2)*(2*n+3))
			g += term
		}
	} else {
		g = (t - math.Sin(t)) / (t * t2)
	}
	return tangentMatrix(theta, b, g)
}

// ExpJacobianInv returns J(θ)⁻¹ ([ExpJacobian]): the change of the rotation
// vector δ = J⁻¹·ψ caused by a small further spin ψ of the frame,
//
//	J⁻¹ = I − ½·[θ]ₓ + c(t)·[θ]ₓ²,   c(t) = (1 − (t/2)·cot(t/2))/t².
//
// It is finite for t < 2π (c(π) = 1/π²), so it serves every vector
// [LogMap] returns. c comes from its Bernoulli series for t < 2 and from
// the closed form beyond.
func ExpJacobianInv(theta Vec3) [3][3]float64 {
	t := math.Sqrt(theta.Dot(theta))
	c, _ := invCoeffs(t)
	return tangentMatrix(theta, -0.5, c)
}

// ExpJacobianInvTDeriv returns the 3×3 derivative ∂(J(θ)⁻ᵀ·m)/∂θ for a
// fixed vector m: the change of the moment J⁻ᵀ·m conjugate to spins when
// θ changes, which the consistent tangent of a co-rotational element needs.
// With J⁻ᵀ·m = m + ½·θ × m + c(t)·θ × (θ × m) and d(t) = c'(t)/t,
//
//	∂/∂θ = −½·[m]ₓ + d·(θ×(θ×m))·θᵀ + c·(θ·mᵀ + (θ·m)·I − 2·m·θᵀ).
func ExpJacobianInvTDeriv(theta, m Vec3) [3][3]float64 {
	t := math.Sqrt(theta.Dot(theta))
	c, d := invCoeffs(t)
	tm := theta.Dot(m)
	ttm := theta.Cross(theta.Cross(m)) // (θ·m)θ − t²m
	k := Skew(m)
	var out [3][3]float64
	for i := range 3 {
		for j := range 3 {
			out[i][j] = -0.5*k[i][j] + d*ttm[i]*theta[j] + c*(theta[i]*m[j]-2*m[i]*theta[j])
		}
		out[i][i] += c * tm
	}
	return out
}

// tangentMatrix returns I + b·[θ]ₓ + g·[θ]ₓ², the form shared by J and J⁻¹,
// using [θ]ₓ² = θ·θᵀ − t²·I.
func tangentMatrix(theta Vec3, b, g float64) [3][3]float64 {
	k := Skew(theta)
	t2 := theta.Dot(theta)
	var out [3][3]float64
	for i := range 3 {
		for j := range 3 {
			out[i][j] = b*k[i][j] + g*theta[i]*theta[j]
		}
		out[i][i] += 1 - g*t2
	}
	return out
}

// invSeriesLimit is the angle below which c(t) and d(t) come from their
// series. The closed forms lose about (1/t⁴)/d(t) ≈ 40 ulps at t = 2, the
// series converge like (t/2π)² per term, so 19 terms reach round-off there.
const invSeriesLimit = 2

// cSeries holds the coefficients of c(t) = Σ cₖ·t²ᵏ with
// cₖ = |B₂ₖ₊₂|/(2k+2)! (Bernoulli numbers), from the Laurent series of
// cot; dSeries those of d(t) = c'(t)/t = Σ 2(k+1)·cₖ₊₁·t²ᵏ.
var (
	cSeries = [...]float64{
		0.0833333333333333333333,
		0.00138888888888888888889,
		0.0000330687830687830687831,
		8.26719576719576719577e-7,
		2.08767569878680989792e-8,
		5.28419013868749318485e-10,
		1.33825365306846788328e-11,
		3.38968029632258286683e-13,
		8.58606205627784456414e-15,
		2.17486869855806187304e-16,
		5.50900282836022951520e-18,
		1.39544646858125233407e-19,
		3.53470703962946747169e-21,
		8.95351742703754685040e-23,
		2.26795245233768306031e-24,
		5.74479066887220244526e-26,
		1.45517247561486490187e-27,
		3.68599494066531017818e-29,
		9.33673425709504467203e-31,
	}
	dSeries = [...]float64{
		0.00277777777777777777778,
		0.000132275132275132275132,
		0.00000496031746031746031746,
		1.67014055902944791834e-7,
		5.28419013868749318485e-9,
		1.60590438368216145994e-10,
		4.74555241485161601356e-12,
		1.37376992900445513026e-13,
		3.91476365740451137147e-15,
		1.10180056567204590304e-16,
		3.06998223087875513496e-18,
		8.48329689511072193206e-20,
		2.32791453102976218110e-21,
		6.35026686654551256887e-23,
		1.72343720066166073358e-24,
		4.65655192196756768597e-26,
		1.25323827982620546058e-27,
		3.36122433255421608193e-29,
		8.98708517966239375133e-31,
	}
)

// invCoeffs returns c(t) and d(t) = c'(t)/t of [ExpJacobianInv].
func invCoeffs(t float64) (c, d float64) {
	if t < invSeriesLimit {
		t2 := t * t
		for k := len(cSeries) - 1; k >= 0; k-- {
			c = c*t2 + cSeries[k]
			d = d*t2 + dSeries[k]
		}
		return c, d
	}
	// c = 1/t² − cot(t/2)/(2t);  c' = −2/t³ + cot(t/2)/(2t²) + 1/(4t·sin²(t/2)).
	s, co := math.Sincos(t / 2)
	cot := co / s
	t2 := t * t
	c = 1/t2 - cot/(2*t)
	d = -2/(t2*t2) + cot/(2*t2*t) + 1/(4*t2*s*s)
	return c, d
}
