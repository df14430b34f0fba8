package element

// FrameMass writes the consistent mass matrix of a prismatic frame member
// in local axes (12×12, row-major, DOF order of the package doc) for mass
// density rho (kg/m³): the cubic Hermitian bending and linear axial and
// torsional interpolation of Przemieniecki, Theory of Matrix Structural
// Analysis (1968), §11.3, without shear deformation or rotary inertia of
// bending. The torsional mass uses the polar moment Iy + Iz of the
// section. Entries not written are zero.
func FrameMass(p FrameProps, rho float64, m []float64) {
	clear(m[:144])
	L := p.L
	ma := rho * p.A * L
	// Axial and torsion: linear interpolation, ρ·(A or Ip)·L/6·[2 1; 1 2].
	for _, g := range [2]struct {
		i, j int
		c    float64
	}{{0, 6, ma}, {3, 9, rho * (p.Iy + p.Iz) * L}} {
		m[g.i*12+g.i], m[g.j*12+g.j] = g.c/3, g.c/3
		sym(m, g.i, g.j, g.c/6)
	}
	// Bending, ρAL/420 times the Hermitian matrix; ry = −dw/dx flips the
	// sign of the translation–rotation terms in the x-z plane.
	c := ma / 420
	hermite(m, 1, 5, 7, 11, c, L, 1)
	hermite(m, 2, 4, 8, 10, c, L, -1)
}

// hermite writes c times the consistent bending mass of DOFs v1 t1 v2 t2
// (translation, rotation at each end), sg the sign of the rotation.
func hermite(m []float64, v1, t1, v2, t2 int, c, L, sg float64) {
	m[v1*12+v1], m[v2*12+v2] = 156*c, 156*c
	m[t1*12+t1], m[t2*12+t2] = 4*L*L*c, 4*L*L*c
	sym(m, v1, v2, 54*c)
	sym(m, t1, t2, -3*L*L*c)
	sym(m, v1, t1, sg*22*L*c)
	sym(m, v2, t2, -sg*22*L*c)
	sym(m, v1, t2, -sg*13*L*c)
	sym(m, v2, t1, sg*13*L*c)
}

// FrameGeometric writes the geometric stiffness of a prismatic frame
// member under the axial force n (N, tension positive) in local axes
// (12×12, row-major). The stiffness under n is K + K_G: tension stiffens,
// compression softens.
//
// Bending: K_G = n·∫ N'ᵀ·N' dx, N the transverse displacement
// interpolation of FrameStiffness, so that K and K_G are one Ritz
// discretisation of the same energy. With a shear area set, N is the
// Φ-dependent interpolation of the exact Timoshenko element (Przemieniecki,
// Theory of Matrix Structural Analysis, 1968, §5.6; Φy in the x-y plane,
// Φz in the x-z plane, as ShearParams), and the integral gives, on DOFs
// (v1, θ1, v2, θ2) with θ = +dv/dx at Φ = 0,
//
//	K_G = n/(30·L·(1+Φ)²) ×
//	  v1·v1 =  v2·v2 = −v1·v2 = 36 + 60Φ + 30Φ²
//	  θ1·θ1 =  θ2·θ2          = (4 + 5Φ + 5Φ²/2)·L²
//	  θ1·θ2                   = −(1 + 5Φ + 5Φ²/2)·L²
//	  v1·θ1 =  v1·θ2 = −v2·θ1 = −v2·θ2 = 3L
//
// (in the x-z plane, where ry = −dw/dx, the v·θ terms change sign, as in
// FrameStiffness),
// the form of OpenSees' ElasticTimoshenkoBeam2d/3d (klgeo, A. Schellenberg,
// 2013), checked here against the integral by quadrature in the tests.
// At Φ = 0 it is the cubic Hermitian form of Przemieniecki (1968), §15.2,
// bit for bit. Why not keep the Hermitian form for shear-flexible members:
// its rotation DOF would be the slope dv/dx, while the Timoshenko element's
// is the rotation of the section (dv/dx minus the shear strain), so the
// pair is not a discretisation of one energy, and the buckling load of a
// refined pinned column settles about 0.8 % below the Engesser load (for a
// shear flexibility that lowers the Euler load by 20 %) instead of
// converging to it as the consistent pair does (see geometric_test.go).
//
// Torsion: the term n·(Iy + Iz)/(A·L) of McGuire, Gallagher and Ziemian,
// Matrix Structural Analysis, 2nd ed. (2000), eq. 9.18.
func FrameGeometric(p FrameProps, n float64, k []float64) {
	clear(k[:144])
	L := p.L
	phiY, phiZ := ShearParams(p)
	geomBend(k, 1, 5, 7, 11, n, L, phiY, 1)
	geomBend(k, 2, 4, 8, 10, n, L, phiZ, -1)
	if p.A > 0 {
		t := n * (p.Iy + p.Iz) / (p.A * L)
		set2(k, 3, 9, t)
	}
}

// geomBend writes the geometric stiffness of DOFs v1 t1 v2 t2 under n
// with shear parameter phi (0: Hermitian); sg is the sign relating the
// rotation DOF to +dv/dx. At phi = 0 every factor below is exactly 1, 36,
// 4 or −1, so the entries are those of the Hermitian form to the last bit.
func geomBend(k []float64, v1, t1, v2, t2 int, n, L, phi, sg float64) {
	c := n / (30 * L * (1 + phi) * (1 + phi))
	a := (36 + 60*phi + 30*phi*phi) * c
	b := (4 + 5*phi + 2.5*phi*phi) * L * L * c
	d := -(1 + 5*phi + 2.5*phi*phi) * L * L * c
	k[v1*12+v1], k[v2*12+v2] = a, a
	k[t1*12+t1], k[t2*12+t2] = b, b
	sym(k, v1, v2, -a)
	sym(k, t1, t2, d)
	sym(k, v1, t1, sg*3*L*c)
	sym(k, v1, t2, sg*3*L*c)
	sym(k, v2, t1, -sg*3*L*c)
	sym(k, v2, t2, -sg*3*L*c)
}

// TrussMass writes the consistent mass of an axial-only member, local
// axes: linear interpolation of all three translations, ρAL/6·[2 1; 1 2]
// per direction (Przemieniecki 1968, §11.2), rotations massless.
func TrussMass(p FrameProps, rho float64, m []float64) {
	clear(m[:144])
	ma := rho * p.A * p.L
	for d := range 3 {
		m[d*12+d], m[(6+d)*12+6+d] = ma/3, ma/3
		sym(m, d, 6+d, ma/6)
	}
}

// TrussGeometric writes the geometric stiffness of an axial-only member
// under the axial force n (tension positive), local axes: n/L·[1 −1; −1 1]
// on each transverse translation (a taut string).
func TrussGeometric(p FrameProps, n float64, k []float64) {
	clear(k[:144])
	t := n / p.L
	for _, d := range [2]int{1, 2} {
		set2(k, d, 6+d, t)
	}
}

// sym writes v at (i, j) and (j, i).
func sym(k []float64, i, j int, v float64) {
	k[i*12+j], k[j*12+i] = v, v
}
