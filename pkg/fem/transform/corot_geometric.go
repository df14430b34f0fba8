package transform

import "github.com/gusset/gusset/pkg/fem/geom"

// The geometric part of the co-rotational tangent, Kσ = ∂(Bᵀ·q)/∂d at
// fixed basic forces q. Notation as in Configure: e1, e2, e3 the element
// axes, E = [e1 e2 e3] (columns), pA, pB the y axes of the end triads,
// p = ½(pA + pB), ν = p·e2, η = (p·e1)/ν, Ln the chord, θ̄A, θ̄B the end
// rotations in local components and J⁻¹ the inverse tangent of the
// exponential map (geom.ExpJacobianInv).
//
// Written out, Bᵀ·q is (with m̄A = (−T, My(A), Mz(A)), m̄B = (T, My(B),
// Mz(B)) the end moments in local components, n̄ᵢ = J⁻ᵀ(θ̄ᵢ)·m̄ᵢ,
// n̄ = n̄A + n̄B, μᵢ = E·n̄ᵢ, hᵢ = pᵢ × e3):
//
//	f_uB = N·e1 + ((η·n̄x + n̄y)·e3 − n̄z·e2)/Ln,   f_uA = −f_uB,
//	f_wᵢ = μᵢ − (n̄x/(2ν))·hᵢ.
//
// Kσ is the derivative of these expressions along a translation increment
// δu and a spin δw of each node, written below term by term as 3×12
// derivative matrices D(·). The element frame spins by ω = Ω·δd (Ω = E·ω̄),
// so De2 = −[e2]ₓ·Ω, De3 = −[e3]ₓ·Ω and Dμᵢ = −[μᵢ]ₓ·Ω + E·Dn̄ᵢ; the end
// moments change through θ̄: Dn̄ᵢ = ∂(J⁻ᵀm̄ᵢ)/∂θ̄ · Dθ̄ᵢ
// (geom.ExpJacobianInvTDeriv). The same structure appears in Battini &
// Pacoste, "Co-rotational beam elements with warping effects in
// instability problems", Comput. Meth. Appl. Mech. Eng. 191 (2002)
// 1755–1789; the expressions here are derived for this element frame
// and checked against central differences of Bᵀ·q in the tests.

// addGeometric adds Kσ(q) to the 12×12 row-major k.
func (cfg *CorotConfig) addGeometric(q [BasicDOF]float64, k []float64) {
	e := cfg.e
	e1, e2, e3 := e.X(), e.Y(), e.Z()
	ln, nu, eta := cfg.ln, cfg.nu, cfg.eta

	mbar := [2]geom.Vec3{
		{-q[BasicTwist], q[BasicRyA], q[BasicRzA]},
		{q[BasicTwist], q[BasicRyB], q[BasicRzB]},
	}
	var nbar [2]geom.Vec3 // J⁻ᵀ·m̄ per end
	var dn [2]mat3x12     // Dn̄ per end
	for i := range 2 {
		nbar[i] = geom.Rotation(cfg.jinv[i]).ApplyT(mbar[i])
		kh := geom.ExpJacobianInvTDeriv(cfg.theta[i], mbar[i])
		dn[i] = mul3(&kh, &cfg.dtheta[i])
	}
	n := nbar[0].Add(nbar[1])
	var dnSum mat3x12
	addScaled(&dnSum, &dn[0], 1)
	addScaled(&dnSum, &dn[1], 1)

	// Ω = E·ω̄: the element frame's spin in global components.
	omega := toGlobal(e, &cfg.omegaBar)

	// Chord: DLn = e1·Dl, De1 = (I − e1·e1ᵀ)·Dl/Ln with Dl = [−I 0 I 0].
	var dLn row12
	var de1 mat3x12
	for r := range 3 {
		dLn[r], dLn[6+r] = -e1[r], e1[r]
		for c := range 3 {
			pr := -e1[r] * e1[c]
			if r == c {
				pr++
			}
			de1[r][c], de1[r][6+c] = -pr/ln, pr/ln
		}
	}

	// End y axes: DpA = −[pA]ₓ on wA, DpB = −[pB]ₓ on wB, Dp = ½(DpA + DpB).
	var dpa, dpb, dp mat3x12
	ska, skb := geom.Skew(cfg.pa), geom.Skew(cfg.pb)
	for r := range 3 {
		for c := range 3 {
			dpa[r][3+c] = -ska[r][c]
			dpb[r][9+c] = -skb[r][c]
			dp[r][3+c] = -ska[r][c] / 2
			dp[r][9+c] = -skb[r][c] / 2
		}
	}
	de2 := crossCols(e2.Scale(-1), &omega)
	de3 := crossCols(e3.Scale(-1), &omega)

	// ν = p·e2 and η = (p·e1)/ν.
	dpe1 := addRows(rowDot(e1, &dp), rowDot(cfg.p, &de1), 1)
	dnu := addRows(rowDot(e2, &dp), rowDot(cfg.p, &de2), 1)
	deta := scaleRow(addRows(dpe1, dnu, -eta), 1/nu)

	// f_uB = N·e1 + g, g = (s·e3 − n̄z·e2)/Ln, s = η·n̄x + n̄y.
	s := eta*n[0] + n[1]
	ds := addRows(addRows(scaleRow(dnSum[0], eta), deta, n[0]), dnSum[1], 1)
	g := e3.Scale(s).Sub(e2.Scale(n[2])).Scale(1 / ln)
	var dfuB mat3x12
	addScaled(&dfuB, &de1, q[BasicAxial])
	addOuter(&dfuB, e3, ds, 1/ln)
	addScaled(&dfuB, &de3, s/ln)
	addOuter(&dfuB, e2, dnSum[2], -1/ln)
	addScaled(&dfuB, &de2, -n[2]/ln)
	addOuter(&dfuB, g, dLn, -1/ln)

	// f_wᵢ = μᵢ − κ·hᵢ, κ = n̄x/(2ν).
	kappa := n[0] / (2 * nu)
	dkappa := addRows(scaleRow(dnSum[0], 1/(2*nu)), dnu, -n[0]/(2*nu*nu))
	var dfw [2]mat3x12
	for i, pi := range [2]geom.Vec3{cfg.pa, cfg.pb} {
		dpi := &dpa
		if i == 1 {
			dpi = &dpb
		}
		mu := e.ApplyT(nbar[i])
		dfw[i] = crossCols(mu.Scale(-1), &omega)
		edn := toGlobal(e, &dn[i])
		addScaled(&dfw[i], &edn, 1)
		addOuter(&dfw[i], pi.Cross(e3), dkappa, -1)
		// Dhᵢ = −[e3]ₓ·Dpᵢ + [pᵢ]ₓ·De3.
		dh := crossCols(e3.Scale(-1), dpi)
		pde3 := crossCols(pi, &de3)
		addScaled(&dh, &pde3, 1)
		addScaled(&dfw[i], &dh, -kappa)
	}

	for r := range 3 {
		for j := range 12 {
			k[r*12+j] -= dfuB[r][j]
			k[(3+r)*12+j] += dfw[0][r][j]
			k[(6+r)*12+j] += dfuB[r][j]
			k[(9+r)*12+j] += dfw[1][r][j]
		}
	}
}

// toGlobal returns E·m = eᵀ·m for the element axes e (rows): local
// components of a 3×12 derivative turned into global ones.
func toGlobal(e geom.Rotation, m *mat3x12) mat3x12 {
	var out mat3x12
	for r := range 3 {
		for j := range 12 {
			out[r][j] = e[0][r]*m[0][j] + e[1][r]*m[1][j] + e[2][r]*m[2][j]
		}
	}
	return out
}

// crossCols returns [v]ₓ·m: v crossed with every column of m.
func crossCols(v geom.Vec3, m *mat3x12) mat3x12 {
	var out mat3x12
	for j := range 12 {
		out[0][j] = v[1]*m[2][j] - v[2]*m[1][j]
		out[1][j] = v[2]*m[0][j] - v[0]*m[2][j]
		out[2][j] = v[0]*m[1][j] - v[1]*m[0][j]
	}
	return out
}

// rowDot returns vᵀ·m.
func rowDot(v geom.Vec3, m *mat3x12) row12 {
	var out row12
	for j := range 12 {
		out[j] = v[0]*m[0][j] + v[1]*m[1][j] + v[2]*m[2][j]
	}
	return out
}

// addRows returns a + s·b.
func addRows(a, b row12, s float64) row12 {
	for j := range 12 {
		a[j] += s * b[j]
	}
	return a
}

// scaleRow returns s·a.
func scaleRow(a row12, s float64) row12 {
	for j := range 12 {
		a[j] *= s
	}
	return a
}

// addScaled adds s·m to dst.
func addScaled(dst, m *mat3x12, s float64) {
	for r := range 3 {
		for j := range 12 {
			dst[r][j] += s * m[r][j]
		}
	}
}

// addOuter adds s·v·rᵀ to dst.
func addOuter(dst *mat3x12, v geom.Vec3, r row12, s float64) {
	for i := range 3 {
		for j := range 12 {
			dst[i][j] += s * v[i] * r[j]
		}
	}
}
