package transform

import "github.com/gusset/gusset/pkg/fem/geom"

// The geometric part of the co-rotational shell tangent,
// Kσ = ∂(B̄ᵀ·f̄)/∂d at fixed local forces f̄. Notation as in Configure:
// R the local axes, s_a the corner positions from their mean, θ̄_a the
// deformational rotations, J⁻¹ the inverse tangent of the exponential
// map, Ω the frame's spin per unit d, and f̄ = (n̄_a, m̄_a) corner by
// corner. Written out, B̄ᵀ·f̄ is (Felippa & Haugen 2005's Tᵀ·Pᵀ·Hᵀ·f̄,
// with this frame's own spin matrix in place of their G)
//
//	f_u,a = n_a − n_mean − (Ωᵀ·M)_a,   f_w,a = μ_a,
//
// with n_a = Rᵀ·n̄_a, μ_a = Rᵀ·J_a⁻ᵀ·m̄_a (global) and M = Σ_a (s_a × n_a +
// μ_a) the moment of the local forces about the mean corner: the
// projector's part, nearly zero for an element in equilibrium. Along an
// increment, vectors fixed in the frame turn with it, D(Rᵀv̄) = −[v]ₓ·Ω;
// the rotation vectors change by B̄_θ, D(J⁻ᵀm̄) = ∂(J⁻ᵀm̄)/∂θ̄·B̄_θ
// (geom.ExpJacobianInvTDeriv); D s_a = δu_a − δu_mean; and Ω itself
// changes with the corner positions, which for the frame of a, b, c
// (corot_shell.go) is the derivative of
//
//	Ωᵀ·M = per corner α_k·(b × g) + β_k·(g × a) + γ_k·h,
//	g = (M × e3)/ν,  h = (M·e3/ℓ)·e2,
//
// at fixed M. Every term is checked against central differences of
// B̄ᵀ·f̄ in the tests.

// addShellGeometric adds Kσ(fl) to the 6N×6N row-major k.
func (cfg *CorotShellConfig) addShellGeometric(fl, k []float64) {
	n, m := cfg.n, 6*cfg.n
	r := cfg.r
	om := &cfg.omega

	var nv, mu [4]geom.Vec3 // n_a, μ_a, global
	var dmu [4][3][3]float64
	var nMean, moment, muSum geom.Vec3
	for a := range n {
		nb := geom.Vec3{fl[6*a], fl[6*a+1], fl[6*a+2]}
		mb := geom.Vec3{fl[6*a+3], fl[6*a+4], fl[6*a+5]}
		nv[a] = r.ApplyT(nb)
		mu[a] = r.ApplyT(geom.Rotation(cfg.jinv[a]).ApplyT(mb))
		dmu[a] = geom.ExpJacobianInvTDeriv(cfg.theta[a], mb)
		nMean = nMean.Add(nv[a])
		muSum = muSum.Add(mu[a])
		moment = moment.Add(cfg.s[a].Cross(nv[a])).Add(mu[a])
	}
	nMean = nMean.Scale(1 / float64(n))

	// dth[a] = Rᵀ·∂(J⁻ᵀm̄)/∂θ̄·B̄_θ,a: the change of μ_a through θ̄_a.
	var dth [4]shellMat
	for a := range n {
		var rd [3][3]float64 // Rᵀ·∂(J⁻ᵀm̄)/∂θ̄
		for i := range 3 {
			for j := range 3 {
				for l := range 3 {
					rd[i][j] += r[l][i] * dmu[a][l][j]
				}
			}
		}
		for i := range 3 {
			for col := range m {
				dth[a][i][col] = rd[i][0]*cfg.b[6*a+3][col] + rd[i][1]*cfg.b[6*a+4][col] + rd[i][2]*cfg.b[6*a+5][col]
			}
		}
	}

	// DM = Σ_a (−[n_a]ₓ·Ds_a − [s_a]ₓ[n_a]ₓ·Ω + dth_a) − [Σμ]ₓ·Ω.
	var dM shellMat
	for a := range n {
		sn := geom.Skew(nv[a])
		for k := range n {
			w := -1 / float64(n)
			if k == a {
				w++
			}
			for i := range 3 {
				for j := range 3 {
					dM[i][6*k+j] -= w * sn[i][j]
				}
			}
		}
		nom := crossShell(nv[a], om)
		snv := crossShell(cfg.s[a], &nom)
		addMat(&dM, &snv, -1, m)
		addMat(&dM, &dth[a], 1, m)
	}
	ms := crossShell(muSum, om)
	addMat(&dM, &ms, -1, m)

	hx := cfg.frameSpinDerivative(moment)

	for a := range n {
		// Row block u_a: −[n_a − n_mean]ₓ·Ω − ∂(ΩᵀM)_a/∂x − Ω_aᵀ·DM.
		rowU := crossShell(nv[a].Sub(nMean), om)
		addMat(&rowU, &hx[a], 1, m)
		for i := range 3 {
			for col := range m {
				v := om[0][6*a+i]*dM[0][col] + om[1][6*a+i]*dM[1][col] + om[2][6*a+i]*dM[2][col]
				rowU[i][col] += v
			}
		}
		// Row block w_a: −[μ_a]ₓ·Ω + dth_a.
		rowW := crossShell(mu[a], om)
		for i := range 3 {
			for col := range m {
				k[(6*a+i)*m+col] -= rowU[i][col]
				k[(6*a+3+i)*m+col] += dth[a][i][col] - rowW[i][col]
			}
		}
	}
}

// frameSpinDerivative returns, per corner a, ∂(Ωᵀ·M)_a/∂d at fixed M:
// the change of the forces the projector puts on the corner's
// translations as the frame's spin matrix changes with the corner
// positions (package-level comment above).
func (cfg *CorotShellConfig) frameSpinDerivative(mv geom.Vec3) [4]shellMat {
	n, m := cfg.n, 6*cfg.n
	e2, e3 := cfg.f.Y(), cfg.f.Z()
	e1 := cfg.f.X()
	a, b := cfg.ab[0], cfg.ab[1]
	nu, ell := cfg.nu, cfg.ell
	om := &cfg.omega

	// Derivatives of the defining vectors: Da = Σ α_k·I on corner k's
	// translation, and so on.
	var da, db, dc shellMat
	for k := range n {
		for i := range 3 {
			da[i][6*k+i] = cfg.k.alpha[k]
			db[i][6*k+i] = cfg.k.beta[k]
			dc[i][6*k+i] = cfg.k.gamma[k]
		}
	}
	de3 := crossShell(e3, om)
	scaleMat(&de3, -1, m)
	de2 := crossShell(e2, om)
	scaleMat(&de2, -1, m)
	// Dn = −[b]ₓ·Da + [a]ₓ·Db; Dν = e3ᵀ·Dn; Dℓ = e1ᵀ·Dc.
	dn := crossShell(a, &db)
	bda := crossShell(b, &da)
	addMat(&dn, &bda, -1, m)
	dnu := rowOf(e3, &dn, m)
	dell := rowOf(e1, &dc, m)

	g := mv.Cross(e3).Scale(1 / nu)
	// Dg = ([M]ₓ·De3 − g·Dν)/ν.
	dg := crossShell(mv, &de3)
	addOuterRow(&dg, g, &dnu, -1, m)
	scaleMat(&dg, 1/nu, m)
	// D(b × g) = −[g]ₓ·Db + [b]ₓ·Dg;  D(g × a) = −[a]ₓ·Dg + [g]ₓ·Da.
	dva := crossShell(b, &dg)
	gdb := crossShell(g, &db)
	addMat(&dva, &gdb, -1, m)
	dvb := crossShell(g, &da)
	adg := crossShell(a, &dg)
	addMat(&dvb, &adg, -1, m)
	// h = (M·e3/ℓ)·e2: Dh = e2·(Mᵀ·De3)/ℓ − (M·e3/ℓ²)·e2·Dℓ + (M·e3/ℓ)·De2.
	m3 := mv.Dot(e3)
	mde3 := rowOf(mv, &de3, m)
	var dh shellMat
	addOuterRow(&dh, e2, &mde3, 1/ell, m)
	addOuterRow(&dh, e2, &dell, -m3/(ell*ell), m)
	addMat(&dh, &de2, m3/ell, m)

	var out [4]shellMat
	for k := range n {
		addMat(&out[k], &dva, cfg.k.alpha[k], m)
		addMat(&out[k], &dvb, cfg.k.beta[k], m)
		addMat(&out[k], &dh, cfg.k.gamma[k], m)
	}
	return out
}

// crossShell returns [v]ₓ·x: v crossed with every column of x.
func crossShell(v geom.Vec3, x *shellMat) shellMat {
	var out shellMat
	for j := range MaxShellDOF {
		out[0][j] = v[1]*x[2][j] - v[2]*x[1][j]
		out[1][j] = v[2]*x[0][j] - v[0]*x[2][j]
		out[2][j] = v[0]*x[1][j] - v[1]*x[0][j]
	}
	return out
}

// addMat adds s·x to the first m columns of dst.
func addMat(dst, x *shellMat, s float64, m int) {
	for i := range 3 {
		for j := range m {
			dst[i][j] += s * x[i][j]
		}
	}
}

// scaleMat scales the first m columns of x by s.
func scaleMat(x *shellMat, s float64, m int) {
	for i := range 3 {
		for j := range m {
			x[i][j] *= s
		}
	}
}

// rowOf returns vᵀ·x.
func rowOf(v geom.Vec3, x *shellMat, m int) [MaxShellDOF]float64 {
	var out [MaxShellDOF]float64
	for j := range m {
		out[j] = v[0]*x[0][j] + v[1]*x[1][j] + v[2]*x[2][j]
	}
	return out
}

// addOuterRow adds s·v·rowᵀ to dst.
func addOuterRow(dst *shellMat, v geom.Vec3, row *[MaxShellDOF]float64, s float64, m int) {
	for i := range 3 {
		for j := range m {
			dst[i][j] += s * v[i] * row[j]
		}
	}
}
