package shell

import "math"

// Resultants are a plate's stress resultants at a point, in local axes:
// membrane forces F = (Fx, Fy, Fxy), N/m; moments M = (Mx, My, Mxy),
// N·m/m; transverse shears V = (Vxz, Vyz), N/m. Signs are those of the
// package documentation.
type Resultants struct {
	F [3]float64
	M [3]float64
	V [2]float64
}

// Resultants returns the stress resultants at the element's centroid
// under local displacements u (6N, on the reference surface) and initial
// strains s. A Mindlin plate's shears are Ds·γ of its assumed shear
// strains. A Kirchhoff plate has no shear strain, so its shears here come
// from equilibrium with the gradient of its own moment field,
// Vxz = Mx,x + Mxy,y and Vyz = Mxy,x + My,y, inside the element — which
// does not converge (see KirchhoffCurvatureGradient). They are only what
// one element alone can give: an analysis replaces them by the patch fit
// of the moments of the neighbouring plates (PatchShear, driven by
// package domain's ShearFitter), and keeps these where the patch cannot
// give a gradient (a lone plate, a single row of quads).
func (e *Element) Resultants(u []float64, s Strains) Resultants {
	p := &e.Plane
	n3 := 3 * p.N
	var um, ub [12]float64
	for i := range p.N {
		for a := range 3 {
			um[3*i+a] = u[6*i+membraneDOF[a]]
			ub[3*i+a] = u[6*i+bendingDOF[a]]
		}
	}
	xi, eta := p.Centroid()
	var b [3 * 12]float64
	var r Resultants
	MembraneStrain(p, xi, eta, b[:])
	eps := mulRows(3, n3, b[:], um[:])
	dm, db := e.Props.Dm(), e.Props.Db()
	r.F = mulVec(&dm, sub3(eps, s.Eps))
	if e.Theory == Mindlin {
		MindlinCurvature(p, xi, eta, b[:])
		r.M = mulVec(&db, sub3(mulRows(3, n3, b[:], ub[:]), s.Kappa))
		MindlinShear(p, xi, eta, b[:])
		g := mulRows(2, n3, b[:], ub[:])
		ds := e.shear()
		r.V = [2]float64{ds[0][0]*g[0] + ds[0][1]*g[1], ds[1][0]*g[0] + ds[1][1]*g[1]}
		return r
	}
	KirchhoffCurvature(p, xi, eta, b[:])
	r.M = mulVec(&db, sub3(mulRows(3, n3, b[:], ub[:]), s.Kappa))
	var bx, by [3 * 12]float64
	KirchhoffCurvatureGradient(p, xi, eta, bx[:], by[:])
	mx := mulVec(&db, mulRows(3, n3, bx[:], ub[:])) // ∂m/∂x; initial strains are uniform
	my := mulVec(&db, mulRows(3, n3, by[:], ub[:]))
	r.V = [2]float64{mx[0] + my[2], mx[2] + my[1]}
	return r
}

// mulRows returns the first rows entries of b·v, b being rows×n.
func mulRows(rows, n int, b, v []float64) [3]float64 {
	var r [3]float64
	for i := range rows {
		s := 0.0
		for c := range n {
			s += b[i*n+c] * v[c]
		}
		r[i] = s
	}
	return r
}

func sub3(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// Face is the state of plane stress on one face of a plate, Pa, local
// axes: the components, the principal stresses (S1 ≥ S2), the largest
// in-plane shear (S1 − S2)/2, the von Mises stress and the angle of S1
// from local x, degrees, counter-clockwise seen from +z.
type Face struct {
	Sx, Sy, Txy     float64
	S1, S2, Tmax    float64
	VonMises, Angle float64
}

// Stresses are the stresses of a plate: on the top (+z) and bottom faces,
// the transverse shear stresses Txz, Tyz at the mid-surface, and the
// largest von Mises stress of the top, the bottom and the mid-surface
// (where the transverse shear peaks), all Pa.
type Stresses struct {
	Top, Bottom Face
	Txz, Tyz    float64
	VonMisesMax float64
}

// StressesOf returns the stresses of resultants r in a plate of actual
// thickness t and rigidity thicknesses pr. The faces are at z = ±t/2 of
// the reference surface: σ = F/Tm ± M·(t/2)/(Tb³/12), which for
// Tm = Tb = t is the familiar F/t ± 6M/t². Transverse shear stress follows
// the parabolic distribution of a homogeneous plate, peaking at 1.5·V/Ts
// on the mid-surface.
func StressesOf(r Resultants, pr Props, t float64) Stresses {
	var s Stresses
	bend := 0.0
	if pr.Tb > 0 {
		bend = (t / 2) * 12 / (pr.Tb * pr.Tb * pr.Tb)
	}
	mem := 0.0
	if pr.Tm > 0 {
		mem = 1 / pr.Tm
	}
	for k := range 3 {
		// Face components in the order Sx, Sy, Txy.
		top := mem*r.F[k] + bend*r.M[k]
		btm := mem*r.F[k] - bend*r.M[k]
		setComp(&s.Top, k, top)
		setComp(&s.Bottom, k, btm)
	}
	s.Top.principal()
	s.Bottom.principal()
	if pr.Ts > 0 {
		s.Txz, s.Tyz = 1.5*r.V[0]/pr.Ts, 1.5*r.V[1]/pr.Ts
	}
	mx, my, mxy := mem*r.F[0], mem*r.F[1], mem*r.F[2]
	mid := math.Sqrt(mx*mx - mx*my + my*my + 3*(mxy*mxy+s.Txz*s.Txz+s.Tyz*s.Tyz))
	s.VonMisesMax = math.Max(mid, math.Max(s.Top.VonMises, s.Bottom.VonMises))
	return s
}

func setComp(f *Face, k int, v float64) {
	switch k {
	case 0:
		f.Sx = v
	case 1:
		f.Sy = v
	default:
		f.Txy = v
	}
}

// principal fills the principal stresses, the largest shear, von Mises
// and the principal angle from the components.
func (f *Face) principal() {
	c := (f.Sx + f.Sy) / 2
	h := (f.Sx - f.Sy) / 2
	rad := math.Hypot(h, f.Txy)
	f.S1, f.S2, f.Tmax = c+rad, c-rad, rad
	f.VonMises = math.Sqrt(f.S1*f.S1 - f.S1*f.S2 + f.S2*f.S2)
	f.Angle = 0.5 * math.Atan2(f.Txy, h) * 180 / math.Pi
}

// WoodArmer returns the design moments of Wood and Armer (Wood, "The
// reinforcement of slabs in accordance with a pre-determined field of
// moments", Concrete 2, 1968; Armer's discussion, Concrete 2, 1968) for
// reinforcement along local x and y: the moments the top steel must resist
// (≥ 0, positive moments putting the top in tension) and those the bottom
// steel must resist (≤ 0), from moments m = (Mx, My, Mxy).
func WoodArmer(m [3]float64) (xTop, yTop, xBtm, yBtm float64) {
	mx, my, a := m[0], m[1], math.Abs(m[2])
	// Top: Mx* = Mx + |Mxy|, My* = My + |Mxy|, clipped at zero with the
	// other direction taking Mxy²/|M| instead.
	xTop, yTop = mx+a, my+a
	switch {
	case xTop < 0 && yTop < 0:
		xTop, yTop = 0, 0
	case xTop < 0:
		xTop, yTop = 0, math.Max(0, my+ratio(a, mx))
	case yTop < 0:
		xTop, yTop = math.Max(0, mx+ratio(a, my)), 0
	}
	xBtm, yBtm = mx-a, my-a
	switch {
	case xBtm > 0 && yBtm > 0:
		xBtm, yBtm = 0, 0
	case xBtm > 0:
		xBtm, yBtm = 0, math.Min(0, my-ratio(a, mx))
	case yBtm > 0:
		xBtm, yBtm = math.Min(0, mx-ratio(a, my)), 0
	}
	return xTop, yTop, xBtm, yBtm
}

// ratio returns |a²/m|, infinite-safe: m = 0 cannot reach it, since the
// clipped direction has |m| > |Mxy| ≥ 0 there.
func ratio(a, m float64) float64 { return math.Abs(a * a / m) }
