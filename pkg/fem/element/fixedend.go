package element

// Member loads in member local axes, their exact fixed-end actions and the
// exact internal forces and displacements along a loaded prismatic member.
//
// Method: the member is viewed as a cantilever clamped at A. Closed-form
// cantilever deflections (bending, shear and axial/torsional parts) give the
// free-end displacement u_B⁰ caused by the loads; the clamping force at B is
// then −K_BB·u_B⁰ with K_BB the exact end-B block of FrameStiffness, and the
// A-end actions follow from statics. Distributed loads are integrated with
// 3-point Gauss–Legendre quadrature on each side of the evaluation point,
// which is exact here: the integrands are polynomials of degree ≤ 4.

// PointLoad is a concentrated force and moment at distance X (m) from end A
// in member local axes: F = [Fx Fy Fz Mx My Mz] in N and N·m.
type PointLoad struct {
	X float64
	F [6]float64
}

// DistLoad is a distributed force and moment varying linearly from W1 at X1
// to W2 at X2 (0 ≤ X1 ≤ X2 ≤ L, m) in member local axes, per metre of
// member length: [wx wy wz mx my mz] in N/m and N·m/m.
type DistLoad struct {
	X1, X2 float64
	W1, W2 [6]float64
}

// InitialStrain is a stress-free strain field imposed on the member, uniform
// along it: Eps axial strain (extension positive), KappaY = d(ry)/dx and
// KappaZ = d(rz)/dx free curvatures, 1/m. A uniform temperature change ΔT
// gives Eps = α·ΔT; a gradient g_y (K/m along +y) gives KappaZ = −α·g_y and a
// gradient g_z gives KappaY = +α·g_z; an axial prestress N₀ (tension
// positive) gives Eps = −N₀/(E·A).
type InitialStrain struct {
	Eps, KappaY, KappaZ float64
}

// MemberLoads are all loads on one member, local axes.
type MemberLoads struct {
	Points []PointLoad
	Dists  []DistLoad
	Strain InitialStrain
}

// Empty reports whether there is no load at all.
func (l *MemberLoads) Empty() bool {
	return l == nil || (len(l.Points) == 0 && len(l.Dists) == 0 && l.Strain == InitialStrain{})
}

// Gauss–Legendre 3-point rule on [−1, 1].
var (
	gaussX = [3]float64{-0.7745966692414834, 0, 0.7745966692414834}
	gaussW = [3]float64{5.0 / 9, 8.0 / 9, 5.0 / 9}
)

// pointDisp adds to u the displacement at x of a cantilever clamped at
// A (x = 0) under the load vector f at a.
func pointDisp(p *FrameProps, a float64, f *[6]float64, x float64, u *[6]float64) {
	s := min(a, x)
	if f[0] != 0 {
		u[0] += f[0] * s / (p.E * p.A)
	}
	if f[3] != 0 {
		u[3] += f[3] * s / (p.G * p.J)
	}
	// Bending: (deflection, slope) of a unit transverse force and a unit
	// moment at a, evaluated at x; Roark Table 8.1 cases 1a and 3a.
	var vF, tF, vM, tM float64
	if x >= a {
		vF = a*a*a/3 + a*a*(x-a)/2
		tF = a * a / 2
		vM = a*a/2 + a*(x-a)
		tM = a
	} else {
		vF = x * x * (3*a - x) / 6
		tF = x * (2*a - x) / 2
		vM = x * x / 2
		tM = x
	}
	if f[1] != 0 || f[5] != 0 {
		ei := p.E * p.Iz
		u[1] += (f[1]*vF + f[5]*vM) / ei
		u[5] += (f[1]*tF + f[5]*tM) / ei
		if p.Ay > 0 && p.G > 0 {
			u[1] += f[1] * s / (p.G * p.Ay)
		}
	}
	if f[2] != 0 || f[4] != 0 {
		// x-z plane: ry = −dw/dx, so a positive My bends w negative.
		ei := p.E * p.Iy
		u[2] += (f[2]*vF - f[4]*vM) / ei
		u[4] += (-f[2]*tF + f[4]*tM) / ei
		if p.Az > 0 && p.G > 0 {
			u[2] += f[2] * s / (p.G * p.Az)
		}
	}
}

// distAt returns the intensity of d at a (X1 ≤ a ≤ X2).
func distAt(d *DistLoad, a float64, w *[6]float64) {
	t := 0.0
	if d.X2 > d.X1 {
		t = (a - d.X1) / (d.X2 - d.X1)
	}
	for i := range 6 {
		w[i] = d.W1[i] + t*(d.W2[i]-d.W1[i])
	}
}

// distDisp adds the cantilever displacement at x due to d.
func distDisp(p *FrameProps, d *DistLoad, x float64, u *[6]float64) {
	if d.X2 <= d.X1 {
		return
	}
	// Split at x: the point-load kernel has a kink there.
	for _, seg := range [2][2]float64{{d.X1, min(d.X2, x)}, {max(d.X1, x), d.X2}} {
		lo, hi := seg[0], seg[1]
		if hi <= lo {
			continue
		}
		h := (hi - lo) / 2
		for g := range 3 {
			a := lo + h*(1+gaussX[g])
			var w [6]float64
			distAt(d, a, &w)
			for i := range w {
				w[i] *= h * gaussW[g]
			}
			pointDisp(p, a, &w, x, u)
		}
	}
}

// Cantilever returns the displacement [ux uy uz rx ry rz] at x (local) of
// the member clamped at A and loaded by l, plus, if tip is non-nil, the
// end-B action *tip (forces the node exerts on the member at B). The result
// is exact for a prismatic Timoshenko member.
func Cantilever(p FrameProps, l *MemberLoads, tip *[6]float64, x float64) [6]float64 {
	var u [6]float64
	if l != nil {
		for i := range l.Points {
			pointDisp(&p, l.Points[i].X, &l.Points[i].F, x, &u)
		}
		for i := range l.Dists {
			distDisp(&p, &l.Dists[i], x, &u)
		}
		s := l.Strain
		u[0] += s.Eps * x
		u[5] += s.KappaZ * x
		u[1] += s.KappaZ * x * x / 2
		u[4] += s.KappaY * x
		u[2] -= s.KappaY * x * x / 2
	}
	if tip != nil {
		pointDisp(&p, p.L, tip, x, &u)
	}
	return u
}

// resultant adds to f the forces and to m the moments about the point x0
// (on the member axis) of the loads of l lying in [from, to] (points with
// from ≤ X ≤ to when incl, from ≤ X < to otherwise).
func resultant(l *MemberLoads, from, to float64, incl bool, x0 float64, f *[6]float64) {
	add := func(a float64, w *[6]float64, scale float64) {
		r := a - x0
		f[0] += scale * w[0]
		f[1] += scale * w[1]
		f[2] += scale * w[2]
		f[3] += scale * w[3]
		// r×F with r = (r,0,0): (0, −r·Fz, r·Fy).
		f[4] += scale * (w[4] - r*w[2])
		f[5] += scale * (w[5] + r*w[1])
	}
	for i := range l.Points {
		a := l.Points[i].X
		if a >= from && (a < to || (incl && a == to)) {
			add(a, &l.Points[i].F, 1)
		}
	}
	for i := range l.Dists {
		d := &l.Dists[i]
		lo, hi := max(d.X1, from), min(d.X2, to)
		if hi <= lo {
			continue
		}
		h := (hi - lo) / 2
		for g := range 3 {
			a := lo + h*(1+gaussX[g])
			var w [6]float64
			distAt(d, a, &w)
			add(a, &w, h*gaussW[g])
		}
	}
}

// FixedEndActions adds to q (len ≥ 12) the exact fixed-end actions of the
// loads l on a member clamped at both ends: the forces and moments the
// nodes exert on the member, local axes, DOF order as FrameStiffness.
// kScratch needs len ≥ 144.
func FixedEndActions(p FrameProps, l *MemberLoads, q, kScratch []float64) {
	if l.Empty() {
		return
	}
	uB := Cantilever(p, l, nil, p.L)
	FrameStiffness(p, kScratch)
	var qB [6]float64
	for i := range 6 {
		s := 0.0
		for j := range 6 {
			s += kScratch[(6+i)*12+6+j] * uB[j]
		}
		qB[i] = -s
	}
	// Statics about A: loads + Q_A + Q_B (moved to A) = 0.
	var tot [6]float64
	resultant(l, 0, p.L, true, 0, &tot)
	L := p.L
	q[0] += -tot[0] - qB[0]
	q[1] += -tot[1] - qB[1]
	q[2] += -tot[2] - qB[2]
	q[3] += -tot[3] - qB[3]
	q[4] += -tot[4] - (qB[4] - L*qB[2])
	q[5] += -tot[5] - (qB[5] + L*qB[1])
	for i := range 6 {
		q[6+i] += qB[i]
	}
}

// InternalForces returns the internal actions at x of a member whose end-A
// action (forces the node exerts on the member, local) is qA: the actions
// of the part beyond x on the part before x, [N Vy Vz T My Mz], N tension
// positive. Point loads at exactly x are included when right is true (the
// value just past the load), excluded otherwise.
func InternalForces(l *MemberLoads, qA *[6]float64, x float64, right bool) [6]float64 {
	var s [6]float64
	if l != nil {
		resultant(l, 0, x, right, x, &s)
	}
	s[0] += qA[0]
	s[1] += qA[1]
	s[2] += qA[2]
	s[3] += qA[3]
	s[4] += qA[4] + x*qA[2]
	s[5] += qA[5] - x*qA[1]
	for i := range s {
		s[i] = -s[i]
	}
	return s
}

// Displacements returns the local displacements [ux uy uz rx ry rz] at x of
// a member whose own end-A displacements are uA (local, after releases)
// and whose end-B action is qB, loaded by l: the rigid motion of end A plus
// the cantilever deflection under the loads and qB. Exact for prismatic
// members.
func Displacements(p FrameProps, l *MemberLoads, uA, qB *[6]float64, x float64) [6]float64 {
	u := Cantilever(p, l, qB, x)
	u[0] += uA[0]
	u[1] += uA[1] + uA[5]*x
	u[2] += uA[2] - uA[4]*x
	u[3] += uA[3]
	u[4] += uA[4]
	u[5] += uA[5]
	return u
}
