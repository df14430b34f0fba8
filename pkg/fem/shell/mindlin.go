package shell

// Mindlin–Reissner bending of the flat plate: linear (triangle) or
// bilinear (quad) interpolation of w and of both rotations, with the
// transverse shear strains replaced by an assumed field tied to the
// displacement interpolation at a few points. Interpolated directly, the
// shear strains of such an element cannot vanish over a bent thin plate
// (w,x is one order lower than βx), so the shear energy, growing like
// (L/t)² against the bending energy, locks the element. Tying the
// covariant (edge-tangential) shear strains at edge midpoints, where the
// displacement interpolation gets them right, relaxes those constraints,
// fully for the quad and only in part for the triangle (see
// MindlinBending): Dvorkin & Bathe, Eng. Comput. 1, 1984 and Bathe &
// Dvorkin, Int. J. Numer. Methods Eng. 21, 1985 (MITC4); Lee & Bathe,
// Comput. Struct. 82, 2004 (MITC3).
//
// Covariant components. With g_ξ = (x,ξ, y,ξ) and g_η = (x,η, y,η) the
// rows of the Jacobian J, the covariant shear strains are
//
//	γ̃ξ = γ·g_ξ = w,ξ + βx·x,ξ + βy·y,ξ = w,ξ + θy·x,ξ − θx·y,ξ
//	γ̃η = γ·g_η = w,η + βx·x,η + βy·y,η = w,η + θy·x,η − θx·y,η
//
// in our signs (βx = θy, βy = −θx, doc.go); the papers' e_rt, e_st are
// half of these (tensor, not engineering, components), a factor that
// cancels because the assumed field is tied and transformed linearly.
// Cartesian strains follow from (γ̃ξ, γ̃η) = J·(γxz, γyz).

// mindlinDOF is the most bending DOFs an element has, 3 per corner.
const mindlinDOF = 12

// mindlinRow is one strain component as a row over the element's bending
// DOFs, corner by corner (w, θx, θy).
type mindlinRow = [mindlinDOF]float64

// mindlinTying holds the covariant shear strain rows of the displacement
// interpolation at the tying points, computed once per element because
// they do not depend on where the assumed field is evaluated.
//
// Quad (Bathe & Dvorkin 1985): xiB, xiT are γ̃ξ at the midpoints (0, −1)
// and (0, 1) of the edges 1–2 and 4–3; etaL, etaR are γ̃η at (−1, 0) and
// (1, 0), the midpoints of the edges 1–4 and 2–3.
//
// Triangle (Lee & Bathe 2004, MITC3): xiB is γ̃ξ at (½, 0), the midpoint of
// edge 1–2; etaL is γ̃η at (0, ½), the midpoint of edge 1–3; xiT and etaR
// are γ̃ξ and γ̃η at (½, ½), the midpoint of edge 2–3, which enter only as
// their difference, the tangential strain of that edge.
type mindlinTying struct {
	xiB, xiT, etaL, etaR mindlinRow
}

// mindlinCovariant writes the rows of the covariant shear strains γ̃ξ and
// γ̃η of the plain displacement interpolation at (ξ, η).
func mindlinCovariant(p *Plane, xi, eta float64, gxi, geta *mindlinRow) {
	var n, dxi, deta [4]float64
	p.Shape(xi, eta, n[:], dxi[:], deta[:])
	var xXi, yXi, xEta, yEta float64
	for i := range p.N {
		xXi += dxi[i] * p.X[i]
		yXi += dxi[i] * p.Y[i]
		xEta += deta[i] * p.X[i]
		yEta += deta[i] * p.Y[i]
	}
	*gxi, *geta = mindlinRow{}, mindlinRow{}
	for i := range p.N {
		gxi[3*i] = dxi[i]
		gxi[3*i+1] = -n[i] * yXi
		gxi[3*i+2] = n[i] * xXi
		geta[3*i] = deta[i]
		geta[3*i+1] = -n[i] * yEta
		geta[3*i+2] = n[i] * xEta
	}
}

// tie evaluates the covariant rows at the tying points of p (see
// mindlinTying). The rows not used for a component are scratch.
func (t *mindlinTying) tie(p *Plane) {
	var scratch mindlinRow
	if p.N == 3 {
		mindlinCovariant(p, 0.5, 0, &t.xiB, &scratch)
		mindlinCovariant(p, 0, 0.5, &scratch, &t.etaL)
		mindlinCovariant(p, 0.5, 0.5, &t.xiT, &t.etaR)
		return
	}
	mindlinCovariant(p, 0, -1, &t.xiB, &scratch)
	mindlinCovariant(p, 0, 1, &t.xiT, &scratch)
	mindlinCovariant(p, -1, 0, &scratch, &t.etaL)
	mindlinCovariant(p, 1, 0, &scratch, &t.etaR)
}

// shear writes the rows of the assumed Cartesian shear strains (γxz, γyz)
// at (ξ, η), where the Jacobian is j, into gx and gy.
//
// Quad: γ̃ξ varies linearly in η between its edge values and γ̃η linearly
// in ξ (Bathe & Dvorkin 1985), so each is constant along the edges where
// it is tangential, as a bilinear field's edge slope and edge-averaged
// rotation are.
//
// Triangle (Lee & Bathe 2004): γ̃ξ = γ̃ξ(1) + c·η, γ̃η = γ̃η(2) − c·ξ with
// c = (γ̃η(2) − γ̃ξ(1)) − (γ̃η(3) − γ̃ξ(3)); the constant c is what makes the
// tangential strain γ̃η − γ̃ξ on the edge ξ + η = 1 equal its value at the
// tying point (3), so all three edges carry their midpoint tangential
// strain and the field does not depend on which corner is numbered first.
func (t *mindlinTying) shear(p *Plane, xi, eta float64, j *Jacobian, gx, gy *mindlinRow) {
	n := 3 * p.N
	// Weights of the tied rows xiB, xiT, etaL, etaR: c… in γ̃ξ, d… in γ̃η.
	var cXi, cXiT, cEtaL, cEtaR float64
	var dXi, dXiT, dEtaL, dEtaR float64
	if p.N == 3 {
		// γ̃ξ = xiB + η·(etaL − xiB − etaR + xiT),
		// γ̃η = etaL − ξ·(etaL − xiB − etaR + xiT).
		cXi, cXiT, cEtaL, cEtaR = 1-eta, eta, eta, -eta
		dXi, dXiT, dEtaL, dEtaR = xi, -xi, 1-xi, xi
	} else {
		cXi, cXiT = (1-eta)/2, (1+eta)/2
		dEtaL, dEtaR = (1-xi)/2, (1+xi)/2
	}
	// (γxz, γyz) = J⁻¹·(γ̃ξ, γ̃η), J⁻¹ = [[J11, −J01], [−J10, J00]]/det J.
	inv := 1 / j.Det
	a, b := j.J[1][1]*inv, -j.J[0][1]*inv
	c, d := -j.J[1][0]*inv, j.J[0][0]*inv
	for k := range n {
		gxi := cXi*t.xiB[k] + cXiT*t.xiT[k] + cEtaL*t.etaL[k] + cEtaR*t.etaR[k]
		geta := dXi*t.xiB[k] + dXiT*t.xiT[k] + dEtaL*t.etaL[k] + dEtaR*t.etaR[k]
		gx[k] = a*gxi + b*geta
		gy[k] = c*gxi + d*geta
	}
}

// mindlinKappa writes the rows of the curvatures (κx, κy, κxy) of the
// linear or bilinear rotations at the point whose shape function
// derivatives j holds: κx = βx,x = θy,x, κy = βy,y = −θx,y and
// κxy = βx,y + βy,x = θy,y − θx,x.
func mindlinKappa(p *Plane, j *Jacobian, kx, ky, kxy *mindlinRow) {
	*kx, *ky, *kxy = mindlinRow{}, mindlinRow{}, mindlinRow{}
	for i := range p.N {
		kx[3*i+2] = j.Dx[i]
		ky[3*i+1] = -j.Dy[i]
		kxy[3*i+1] = -j.Dx[i]
		kxy[3*i+2] = j.Dy[i]
	}
}

// MindlinBending writes the 3N×3N bending plus transverse-shear stiffness
// of MITC3 (N = 3) or MITC4 (N = 4) into k (row-major, corner by corner
// (w, θx, θy)). Both parts use p.Gauss: 2×2 points integrate the bilinear
// bending and the assumed shear of a quad as Bathe & Dvorkin (1985) do,
// and the three edge midpoints integrate the constant curvature and the
// linear assumed shear of a triangle exactly. Thickness enters only
// through db and ds, so the same routine serves thick and thin plates;
// the assumed shear keeps MITC4 free of locking as ds/db grows. MITC3
// is not: with one tied strain per edge and no rotation bubble its thin
// limit is over-constrained, and at a/t = 1000 a uniformly loaded square
// needs about 64×64 cells to come within 1% (the tests measure it; Lee,
// Lee & Bathe, Comput. Struct. 138, 2014, add a bubble, MITC3+, for this
// reason). p must pass [Plane.Check]; k must hold 9N² values and is
// overwritten.
func MindlinBending(p *Plane, db *Mat3, ds *Mat2, k []float64) {
	n := 3 * p.N
	k = k[:n*n]
	clear(k)
	var t mindlinTying
	t.tie(p)
	var b [5]mindlinRow // κx, κy, κxy, γxz, γyz
	var db5 [5]mindlinRow
	for _, g := range p.Gauss() {
		j := p.At(g.Xi, g.Eta)
		mindlinKappa(p, &j, &b[0], &b[1], &b[2])
		t.shear(p, g.Xi, g.Eta, &j, &b[3], &b[4])
		w := g.W * j.Det
		// db5 = w·blockdiag(Db, Ds)·B, then k += Bᵀ·db5 on and above the
		// diagonal; the lower triangle is mirrored so k is exactly
		// symmetric.
		for c := range n {
			for r := range 3 {
				db5[r][c] = w * (db[r][0]*b[0][c] + db[r][1]*b[1][c] + db[r][2]*b[2][c])
			}
			for r := range 2 {
				db5[3+r][c] = w * (ds[r][0]*b[3][c] + ds[r][1]*b[4][c])
			}
		}
		for r := range n {
			for c := r; c < n; c++ {
				s := 0.0
				for m := range 5 {
					s += b[m][r] * db5[m][c]
				}
				k[r*n+c] += s
			}
		}
	}
	for r := range n {
		for c := range r {
			k[r*n+c] = k[c*n+r]
		}
	}
}

// MindlinCurvature writes the 3×3N curvature matrix (κ = B·ub) at (ξ, η)
// into b and returns det J there, the factor recovery needs to weight the
// point. The rotations are interpolated like w, linearly or bilinearly
// (no assumed field: bending does not lock), so κ is constant on a
// triangle and on a parallelogram varies linearly. b must hold 9N values.
func MindlinCurvature(p *Plane, xi, eta float64, b []float64) float64 {
	n := 3 * p.N
	b = b[:3*n]
	j := p.At(xi, eta)
	var kx, ky, kxy mindlinRow
	mindlinKappa(p, &j, &kx, &ky, &kxy)
	copy(b[0:n], kx[:n])
	copy(b[n:2*n], ky[:n])
	copy(b[2*n:3*n], kxy[:n])
	return j.Det
}

// MindlinShear writes the 2×3N matrix of the assumed (MITC) transverse
// shear strains (γxz, γyz) in local x, y at (ξ, η) into b: the strains the
// stiffness is built from, so shear forces recovered as Ds·b·ub are the
// element's own rather than those of the locking interpolation. The
// covariant strains are tied at the edge midpoints (and, for MITC3, the
// third edge through the constant c; see mindlinTying) and turned to x, y
// with the Jacobian at (ξ, η). b must hold 6N values.
func MindlinShear(p *Plane, xi, eta float64, b []float64) {
	n := 3 * p.N
	b = b[:2*n]
	var t mindlinTying
	t.tie(p)
	j := p.At(xi, eta)
	var gx, gy mindlinRow
	t.shear(p, xi, eta, &j, &gx, &gy)
	copy(b[0:n], gx[:n])
	copy(b[n:2*n], gy[:n])
}
