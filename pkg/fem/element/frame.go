package element

// FrameDOF is the number of DOFs of a two-node frame element.
const FrameDOF = 12

// FrameProps are the properties of a prismatic 3-D frame member, SI units.
type FrameProps struct {
	L         float64 // length, m
	E, G      float64 // Young's and shear modulus, Pa
	A, Ay, Az float64 // area and shear areas along local y and z, m²; Ay or Az = 0 means no shear deformation in that plane
	J, Iy, Iz float64 // torsion constant and second moments about local y and z, m⁴
}

// ShearParams returns Φy = 12·E·Iz/(G·Ay·L²) (bending in the x-y plane) and
// Φz = 12·E·Iy/(G·Az·L²) (bending in the x-z plane). A zero shear area, or
// a zero G, gives Φ = 0: the member is treated as shear-rigid in that plane.
func ShearParams(p FrameProps) (phiY, phiZ float64) {
	L2 := p.L * p.L
	if p.Ay > 0 && p.G > 0 {
		phiY = 12 * p.E * p.Iz / (p.G * p.Ay * L2)
	}
	if p.Az > 0 && p.G > 0 {
		phiZ = 12 * p.E * p.Iy / (p.G * p.Az * L2)
	}
	return phiY, phiZ
}

// FrameStiffness writes the 12×12 local stiffness, row-major, into k (len ≥ 144).
// DOF order: ux, uy, uz, rx, ry, rz at end A, then the same at end B.
//
// The matrix is exact for a prismatic member: axial EA/L, torsion GJ/L
// (uniform St-Venant torsion, no warping) and Timoshenko bending in both
// principal planes, which reduces to Euler–Bernoulli when the shear area is
// zero. It panics if k is shorter than 144, as any slice index would.
func FrameStiffness(p FrameProps, k []float64) {
	k = k[:144:144]
	clear(k)
	L := p.L
	phiY, phiZ := ShearParams(p)

	ea := p.E * p.A / L
	gj := p.G * p.J / L
	set2(k, 0, 6, ea)
	set2(k, 3, 9, gj)

	// Bending in x-y: DOFs uy(1), rz(5), uy(7), rz(11); rz = +dv/dx.
	c := p.E * p.Iz / ((1 + phiY) * L * L * L)
	bend(k, 1, 5, 7, 11, c, L, phiY, 1)
	// Bending in x-z: DOFs uz(2), ry(4), uz(8), ry(10); ry = −dw/dx flips
	// the sign of the translation-rotation coupling terms.
	c = p.E * p.Iy / ((1 + phiZ) * L * L * L)
	bend(k, 2, 4, 8, 10, c, L, phiZ, -1)
}

// set2 writes the two-DOF bar pattern [s −s; −s s] on DOFs i, j.
func set2(k []float64, i, j int, s float64) {
	k[i*12+i] = s
	k[j*12+j] = s
	k[i*12+j] = -s
	k[j*12+i] = -s
}

// bend writes the Timoshenko beam block on DOFs (v1, t1, v2, t2); sg is the
// sign relating the rotation DOF to +dv/dx.
func bend(k []float64, v1, t1, v2, t2 int, c, L, phi, sg float64) {
	d := [4]int{v1, t1, v2, t2}
	L2 := L * L
	m := [4][4]float64{
		{12, 6 * L * sg, -12, 6 * L * sg},
		{6 * L * sg, (4 + phi) * L2, -6 * L * sg, (2 - phi) * L2},
		{-12, -6 * L * sg, 12, -6 * L * sg},
		{6 * L * sg, (2 - phi) * L2, -6 * L * sg, (4 + phi) * L2},
	}
	for i := range 4 {
		for j := range 4 {
			k[d[i]*12+d[j]] = c * m[i][j]
		}
	}
}

// TrussStiffness writes the 12×12 local stiffness of an axial-only member
// (EA/L on ux at both ends, everything else zero) into k (len ≥ 144).
func TrussStiffness(p FrameProps, k []float64) {
	k = k[:144:144]
	clear(k)
	set2(k, 0, 6, p.E*p.A/p.L)
}
