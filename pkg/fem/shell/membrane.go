package shell

// The membrane field is Allman's: the corner interpolation of u and v
// (linear on a triangle, bilinear on a quad) plus, on each edge, a
// quadratic bulge normal to the edge driven by the drilling rotations of
// its two corners. Along an edge from corner i to corner j, of length l
// and outward normal n, rotations θi and θj turn the edge's ends, so the
// normal displacement is the quadratic with those end slopes: its midpoint
// stands (θj − θi)·l/8 off the chord. Spread over the element by the
// edge's quadratic midside function M (1 at its midpoint, 0 at the corners
// and the other midpoints), that is
//
//	(u, v) = Σ Ni·(ui, vi) + Σ M·(θj − θi)/8·(yj − yi, −(xj − xi)).
//
// On a quad M are the serendipity midside functions; this is the
// quadrilateral of Ibrahimbegovic, Taylor & Wilson ("A robust
// quadrilateral membrane finite element with drilling degrees of
// freedom", Int. J. Numer. Methods Eng. 30, 1990). On a triangle
// M = 4·Li·Lj, Allman's triangle (Allman, "A compatible triangular element
// including vertex rotations for plane elasticity analysis", Comput.
// Struct. 19, 1984). The bulge is what the bilinear field lacks: a
// quadratic deflection of the edges, so in-plane bending no longer has to
// be carried by parasitic shear (MacNeal & Harder's cantilever: 0.08 of the
// answer with the bilinear quad, 0.90 with this one). The field is
// conforming (an edge's bulge depends on that edge's corners only) and,
// with equal rotations, reduces to the corner interpolation, so linear
// fields with θz = ω are reproduced exactly and the patch test holds.
//
// Equal rotations at all corners and no displacement make no strain: a
// mechanism of the Allman field. The Hughes–Brezzi term (Hughes & Brezzi,
// Comput. Methods Appl. Mech. Eng. 72, 1989) γ·∫(θz − ω)² dA removes it,
// θz interpolated from the corners and ω = (v,x − u,y)/2 the rotation of
// the Allman field. It is integrated at the element centre only: one
// constraint per element is what that one mechanism needs, and more would
// stiffen bending, in which θz − ω is not zero inside an element (2×2
// points make the distorted MacNeal–Harder beams 3–11 % stiffer and their
// answers depend on γ). The penalty vanishes in every state in which θz
// and ω agree, rigid rotation and the patch test's fields included.

// edgeGrad returns the x and y derivatives at (ξ, η) of the midside
// functions of p's edges, edge m running from corner m to corner m+1
// (mod N), j being p.At(ξ, η).
func (p *Plane) edgeGrad(xi, eta float64, j *Jacobian) (mx, my [4]float64) {
	if p.N == 3 {
		for m := range 3 {
			a, c := m, (m+1)%3
			mx[m] = 4 * (j.Dx[a]*j.N[c] + j.N[a]*j.Dx[c])
			my[m] = 4 * (j.Dy[a]*j.N[c] + j.N[a]*j.Dy[c])
		}
		return mx, my
	}
	// Serendipity midside functions of the edges η = −1, ξ = 1, η = 1,
	// ξ = −1: (1−ξ²)(1−η)/2, (1+ξ)(1−η²)/2, (1−ξ²)(1+η)/2, (1−ξ)(1−η²)/2.
	dxi := [4]float64{-xi * (1 - eta), (1 - eta*eta) / 2, -xi * (1 + eta), -(1 - eta*eta) / 2}
	deta := [4]float64{-(1 - xi*xi) / 2, -eta * (1 + xi), (1 - xi*xi) / 2, -eta * (1 - xi)}
	for m := range 4 {
		mx[m] = (j.J[1][1]*dxi[m] - j.J[0][1]*deta[m]) / j.Det
		my[m] = (-j.J[1][0]*dxi[m] + j.J[0][0]*deta[m]) / j.Det
	}
	return mx, my
}

// allman writes the membrane strain rows (3×3N, into b unless nil) and
// the drilling row θz − ω (1×3N, into g unless nil) of the Allman field
// at (ξ, η), and returns det J there.
func allman(p *Plane, xi, eta float64, b, g []float64) float64 {
	j := p.At(xi, eta)
	n := 3 * p.N
	if b != nil {
		clear(b[:3*n])
	}
	if g != nil {
		clear(g[:n])
	}
	for i := range p.N {
		if b != nil {
			b[3*i] = j.Dx[i]
			b[n+3*i+1] = j.Dy[i]
			b[2*n+3*i] = j.Dy[i]
			b[2*n+3*i+1] = j.Dx[i]
		}
		if g != nil {
			g[3*i] = j.Dy[i] / 2
			g[3*i+1] = -j.Dx[i] / 2
			g[3*i+2] = j.N[i]
		}
	}
	mx, my := p.edgeGrad(xi, eta, &j)
	for m := range p.N {
		a, c := m, (m+1)%p.N
		// The bulge of edge m is M·(θc − θa)·(cx, cy).
		cx, cy := (p.Y[c]-p.Y[a])/8, -(p.X[c]-p.X[a])/8
		ex, ey, exy := cx*mx[m], cy*my[m], cx*my[m]+cy*mx[m]
		om := (cy*mx[m] - cx*my[m]) / 2 // its rotation ω
		for _, s := range [2]struct {
			corner int
			sign   float64
		}{{c, 1}, {a, -1}} {
			col := 3*s.corner + 2
			if b != nil {
				b[col] += s.sign * ex
				b[n+col] += s.sign * ey
				b[2*n+col] += s.sign * exy
			}
			if g != nil {
				g[col] -= s.sign * om
			}
		}
	}
	return j.Det
}

// MembraneStrain writes the 3×3N matrix B with (εx, εy, γxy) = B·um at
// (ξ, η) into b, um being the membrane DOFs (u, v, θz) corner by corner,
// and returns det J there. The θz columns are the Allman terms.
func MembraneStrain(p *Plane, xi, eta float64, b []float64) float64 {
	return allman(p, xi, eta, b, nil)
}

// DrillStrain writes the 1×3N row g with θz − ω = g·um at (ξ, η) into g
// and returns det J there: θz interpolated from the corners, ω the
// rotation of the Allman field.
func DrillStrain(p *Plane, xi, eta float64, g []float64) float64 {
	return allman(p, xi, eta, nil, g)
}

// MembraneStiffness writes the 3N×3N membrane stiffness over (u, v, θz)
// into k: ∫Bᵀ·Dm·B dA with [Plane.Gauss] (exact for the triangle, whose
// strains are linear; on the quad the 2×2 rule, whose only zero-energy
// states besides rigid motion are the equal rotations without
// displacement) plus the drilling term gamma·∫gᵀg dA at the element
// centre, weighted by the area, which removes exactly those states.
// gamma is in N/m: the caller's G·Tm times the plate's drilling
// multiplier.
func MembraneStiffness(p *Plane, dm *Mat3, gamma float64, k []float64) {
	n := 3 * p.N
	clear(k[:n*n])
	var b [3 * 12]float64
	for _, q := range p.Gauss() {
		det := MembraneStrain(p, q.Xi, q.Eta, b[:])
		addBtDB(n, b[:], dm, q.W*det, k)
	}
	var g [12]float64
	xi, eta := p.Centroid()
	// The parent element's area (4, or ½ for a triangle) times det J at
	// the centre is the element's area: det J is linear in ξ, η.
	w := 4.0
	if p.N == 3 {
		w = 0.5
	}
	w *= gamma * DrillStrain(p, xi, eta, g[:])
	for r := range n {
		if g[r] == 0 {
			continue
		}
		f := w * g[r]
		for c := range n {
			k[r*n+c] += f * g[c]
		}
	}
}

// addBtDB adds w·Bᵀ·D·B to the n×n matrix k, B being 3×n.
func addBtDB(n int, b []float64, d *Mat3, w float64, k []float64) {
	var db [3 * 12]float64 // D·B
	for i := range 3 {
		for c := range n {
			db[i*n+c] = d[i][0]*b[c] + d[i][1]*b[n+c] + d[i][2]*b[2*n+c]
		}
	}
	for r := range n {
		b0, b1, b2 := b[r], b[n+r], b[2*n+r]
		if b0 == 0 && b1 == 0 && b2 == 0 {
			continue
		}
		row := k[r*n : r*n+n]
		for c := range n {
			row[c] += w * (b0*db[c] + b1*db[n+c] + b2*db[2*n+c])
		}
	}
}
