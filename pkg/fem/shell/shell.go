package shell

import "fmt"

// Theory selects the bending formulation of a plate.
type Theory int

// The bending theories: Kirchhoff (thin plates: DKT, DKQ) and Mindlin
// (thick plates, transverse shear deformation: MITC3, MITC4).
const (
	Kirchhoff Theory = iota
	Mindlin
)

// String names the theory as users spell it.
func (t Theory) String() string {
	if t == Mindlin {
		return "Mindlin"
	}
	return "Kirchhoff"
}

// Element is a flat shell element in its local plane: the corners, the
// rigidities and the formulation. The zero Gamma means no drilling
// stiffness, which only a test of the membrane alone wants.
type Element struct {
	Plane  Plane
	Props  Props
	Theory Theory
	// Gamma is the Hughes–Brezzi drilling penalty, N/m: G·Tm times the
	// drilling multiplier, by default.
	Gamma float64
}

// Size returns 6N, the order of the element's matrices.
func (e *Element) Size() int { return 6 * e.Plane.N }

// membraneDOF and bendingDOF are the positions of the (u, v, θz) and
// (w, θx, θy) triples within a corner's six DOFs.
var (
	membraneDOF = [3]int{0, 1, 5}
	bendingDOF  = [3]int{2, 3, 4}
)

// scatter adds the 3N×3N matrix s over the triples at pos of each corner
// into the 6N×6N matrix k.
func scatter(nc int, pos [3]int, s, k []float64) {
	n3, n6 := 3*nc, 6*nc
	for i := range nc {
		for a := range 3 {
			r := 6*i + pos[a]
			for j := range nc {
				for b := range 3 {
					k[r*n6+6*j+pos[b]] += s[(3*i+a)*n3+3*j+b]
				}
			}
		}
	}
}

// Stiffness writes the element's 6N×6N stiffness in local axes into k:
// the membrane with its drilling term and the bending of the chosen
// theory, uncoupled on the flat reference surface (the offset of that
// surface from the nodes couples them, in the caller's transform).
func (e *Element) Stiffness(k []float64) error {
	p := &e.Plane
	if err := p.Check(); err != nil {
		return err
	}
	n6 := e.Size()
	clear(k[:n6*n6])
	var s [144]float64
	dm := e.Props.Dm()
	MembraneStiffness(p, &dm, e.Gamma, s[:])
	scatter(p.N, membraneDOF, s[:], k)
	db := e.Props.Db()
	switch e.Theory {
	case Kirchhoff:
		KirchhoffBending(p, &db, s[:])
	case Mindlin:
		ds := e.shear()
		MindlinBending(p, &db, &ds, s[:])
	default:
		return fmt.Errorf("shell: unknown theory %d", e.Theory)
	}
	scatter(p.N, bendingDOF, s[:], k)
	return nil
}

// StabilizeTri is α of the shear stabilization of the Mindlin triangle,
// the Lyly–Stenberg–Vihinen factor t²/(t² + α·h²) on its shear rigidity
// (Lyly, Stenberg & Vihinen, "A stable bilinear element for the
// Reissner–Mindlin plate model", Comput. Methods Appl. Mech. Eng. 110,
// 1993). MITC3 alone ties one shear strain per edge, about as many
// constraints as a thin plate's mesh has DOFs, and locks: 64 % too stiff
// on a 16 × 16 mesh at a/t = 1000. Softening the shear of elements much
// larger than the thickness removes that, and leaves thick elements
// (h ≲ t) nearly unchanged; α = 0.1 is the authors' choice.
const StabilizeTri = 0.1

// shear returns the transverse-shear rigidity the element uses: Props.Ds,
// stabilized on triangles.
func (e *Element) shear() Mat2 {
	ds := e.Props.Ds()
	if e.Plane.N != 3 {
		return ds
	}
	h2 := 0.0
	p := &e.Plane
	for i := range 3 {
		k := (i + 1) % 3
		dx, dy := p.X[k]-p.X[i], p.Y[k]-p.Y[i]
		h2 = max(h2, dx*dx+dy*dy)
	}
	t2 := e.Props.Ts * e.Props.Ts
	f := t2 / (t2 + StabilizeTri*h2)
	for i := range 2 {
		for j := range 2 {
			ds[i][j] *= f
		}
	}
	return ds
}

// Mass writes the consistent mass, kg and kg·m², for density rho and
// thickness t (the actual thickness, which the mass follows whatever the
// stiffness thicknesses are): ρ·t·∫NᵢNⱼ dA on each translation and
// ρ·t³/12·∫NᵢNⱼ dA on the rotations θx and θy of the normal, with the
// element's own linear or bilinear interpolation. The drilling rotation
// has no inertia of its own.
func (e *Element) Mass(rho, t float64, m []float64) {
	p := &e.Plane
	n6 := e.Size()
	clear(m[:n6*n6])
	per := [6]float64{rho * t, rho * t, rho * t, rho * t * t * t / 12, rho * t * t * t / 12, 0}
	for _, q := range p.Gauss() {
		j := p.At(q.Xi, q.Eta)
		w := q.W * j.Det
		for a := range p.N {
			for b := range p.N {
				nn := w * j.N[a] * j.N[b]
				for d, f := range per {
					m[(6*a+d)*n6+6*b+d] += f * nn
				}
			}
		}
	}
}

// GeometricStiffness writes the geometric stiffness of the membrane
// forces nf = (Fx, Fy, Fxy), N/m, constant over the element:
// ∫(∇Nᵢ)ᵀ·S·∇Nⱼ dA on each of the three translations, S = [Fx Fxy; Fxy Fy].
// Acting on all three, not only on w, keeps it invariant under rigid
// rotations of a curved shell.
func (e *Element) GeometricStiffness(nf [3]float64, kg []float64) {
	p := &e.Plane
	n6 := e.Size()
	clear(kg[:n6*n6])
	for _, q := range p.Gauss() {
		j := p.At(q.Xi, q.Eta)
		w := q.W * j.Det
		for a := range p.N {
			sx := nf[0]*j.Dx[a] + nf[2]*j.Dy[a]
			sy := nf[2]*j.Dx[a] + nf[1]*j.Dy[a]
			for b := range p.N {
				v := w * (sx*j.Dx[b] + sy*j.Dy[b])
				for d := range 3 {
					kg[(6*a+d)*n6+6*b+d] += v
				}
			}
		}
	}
}

// Strains are initial (stress-free) strains of a plate, such as a
// temperature change: membrane strains (εx, εy, γxy) and curvatures
// (κx, κy, κxy), in local axes.
type Strains struct {
	Eps, Kappa [3]float64
}

// Thermal returns the initial strains of a uniform temperature change dt
// (K) and a gradient dtz (K/m, the increase per metre along local +z) in
// a material of expansion coefficient alpha (1/K): εx = εy = α·ΔT and
// κx = κy = α·∂T/∂z, the curvature that makes the hotter face longer
// (a point at height z strains by z·κ).
func Thermal(alpha, dt, dtz float64) Strains {
	return Strains{
		Eps:   [3]float64{alpha * dt, alpha * dt, 0},
		Kappa: [3]float64{alpha * dtz, alpha * dtz, 0},
	}
}

// StrainLoads adds to f (6N, local axes) the equivalent nodal loads of
// initial strains s: ∫Bᵀ·D·s dA for membrane and bending, the negative of
// the forces the held nodes would exert, so that K·u = f leaves a free
// element stress-free.
func (e *Element) StrainLoads(s Strains, f []float64) {
	p := &e.Plane
	if s == (Strains{}) {
		return
	}
	var b [3 * 12]float64
	dm, db := e.Props.Dm(), e.Props.Db()
	nm, mb := mulVec(&dm, s.Eps), mulVec(&db, s.Kappa)
	for _, q := range p.Gauss() {
		det := MembraneStrain(p, q.Xi, q.Eta, b[:])
		addBtv(p.N, membraneDOF, b[:], nm, q.W*det, f)
		if e.Theory == Mindlin {
			det = MindlinCurvature(p, q.Xi, q.Eta, b[:])
		} else {
			det = KirchhoffCurvature(p, q.Xi, q.Eta, b[:])
		}
		addBtv(p.N, bendingDOF, b[:], mb, q.W*det, f)
	}
}

// mulVec returns d·v.
func mulVec(d *Mat3, v [3]float64) [3]float64 {
	var r [3]float64
	for i := range 3 {
		r[i] = d[i][0]*v[0] + d[i][1]*v[1] + d[i][2]*v[2]
	}
	return r
}

// addBtv adds w·Bᵀ·v into the triples at pos of f, B being 3×3N.
func addBtv(nc int, pos [3]int, b []float64, v [3]float64, w float64, f []float64) {
	n3 := 3 * nc
	for i := range nc {
		for a := range 3 {
			c := 3*i + a
			f[6*i+pos[a]] += w * (b[c]*v[0] + b[n3+c]*v[1] + b[2*n3+c]*v[2])
		}
	}
}

// SurfaceLoads adds to f (6N, local axes) the nodal forces of a uniform
// load per unit area q = (qx, qy, qz), N/m², in local axes: ∫Nᵢ·q dA on
// the translations, with the linear or bilinear interpolation, so a
// uniform pressure on a parallelogram goes a quarter to each corner.
func (e *Element) SurfaceLoads(q [3]float64, f []float64) {
	p := &e.Plane
	for _, g := range p.Gauss() {
		j := p.At(g.Xi, g.Eta)
		w := g.W * j.Det
		for i := range p.N {
			for d := range 3 {
				f[6*i+d] += w * j.N[i] * q[d]
			}
		}
	}
}
