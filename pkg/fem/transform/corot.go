package transform

import (
	"errors"
	"fmt"
	"math"

	"github.com/gusset/gusset/pkg/fem/geom"
)

// The co-rotational transform of a two-node 3-D frame element; its
// conventions are in the package doc ("Co-rotational frames").

// Basic (natural) deformations of a co-rotational frame element, the
// indices of v and of the basic forces q = kb·v conjugate to them. Each is
// measured in the element's co-rotated frame, so rigid-body motion leaves
// all six at zero.
const (
	BasicAxial = iota // Ln − L0, chord elongation, m; q: axial force N, tension positive
	BasicTwist        // θ̄x(B) − θ̄x(A), relative twist, rad; q: torque T
	BasicRzA          // θ̄z(A), rotation of end A about local z, rad; q: end moment Mz(A)
	BasicRzB          // θ̄z(B), rad; q: Mz(B)
	BasicRyA          // θ̄y(A), rotation of end A about local y, rad; q: My(A)
	BasicRyB          // θ̄y(B), rad; q: My(B)
)

// BasicDOF is the number of basic deformations of a frame element: its 12
// end displacements less its 6 rigid-body modes.
const BasicDOF = 6

// ErrCorotGeometry is wrapped by the errors of [NewCorot] and
// [Corot.Configure], for errors.Is: the initial axes do not fit the
// member, or the current configuration has no element frame (coincident
// ends, or the mean y axis of the end triads turned onto the chord).
var ErrCorotGeometry = errors.New("co-rotational frame: degenerate geometry")

// Corot is the fixed data of one co-rotational frame element: its initial
// end positions and initial local axes. It is immutable and may be shared
// by goroutines; every trial state is a [CorotConfig].
//
// Rigid end offsets are not handled yet: A and B are the element ends,
// which must coincide with its nodes.
type Corot struct {
	xa, xb geom.Vec3     // initial end positions, global, m
	r0     geom.Rotation // initial local axes as rows (geom convention)
	l0     float64       // initial length, m
}

// axesTol is the tolerance on the orthonormality of r0 and on the angle
// between its x axis and the chord: r0 must be the member's axes as
// [geom.LocalAxes] computes them, not an approximation.
const axesTol = 1e-9

// NewCorot returns the co-rotational data of the element from end A at xa
// to end B at xb with initial local axes r0 — the rotation the linear frame
// uses ([geom.LocalAxes], composed with the section's principal angle), so
// that at the initial state the co-rotational tangent is the linear global
// stiffness. It returns an error wrapping [ErrCorotGeometry] if the ends
// coincide, r0 is not orthonormal and right-handed, or its x axis is not
// the direction A→B.
func NewCorot(xa, xb geom.Vec3, r0 geom.Rotation) (Corot, error) {
	d := xb.Sub(xa)
	l0 := d.Norm()
	if !(l0 > 0) || math.IsInf(l0, 0) || !xa.IsFinite() || !xb.IsFinite() {
		return Corot{}, fmt.Errorf("%w: ends %v and %v", ErrCorotGeometry, xa, xb)
	}
	if err := checkAxes(r0); err != nil {
		return Corot{}, err
	}
	if !(r0.X().Sub(d.Scale(1/l0)).Norm() <= axesTol) {
		return Corot{}, fmt.Errorf("%w: local x %v is not along A→B %v", ErrCorotGeometry, r0.X(), d)
	}
	return Corot{xa: xa, xb: xb, r0: r0, l0: l0}, nil
}

// checkAxes returns an error wrapping ErrCorotGeometry unless r is
// orthonormal and right-handed within axesTol: the initial axes of a
// co-rotational frame or shell.
func checkAxes(r geom.Rotation) error {
	g := r.Mul(r.Transpose())
	for i := range 3 {
		for j := range 3 {
			want := 0.0
			if i == j {
				want = 1
			}
			if !(math.Abs(g[i][j]-want) <= axesTol) {
				return fmt.Errorf("%w: axes %v are not orthonormal", ErrCorotGeometry, r)
			}
		}
	}
	if !(r.X().Cross(r.Y()).Sub(r.Z()).Norm() <= axesTol) {
		return fmt.Errorf("%w: axes %v are not right-handed", ErrCorotGeometry, r)
	}
	return nil
}

// L0 returns the initial length, m, the length FrameProps.L of the element
// whose basic stiffness the transform carries.
func (c *Corot) L0() float64 { return c.l0 }

// row12 is a 1×12 row: the derivative of a scalar with respect to the
// twelve global DOF increments (translations, then spins, end A then B).
type row12 [12]float64

// mat3x12 is the 3×12 derivative of a vector with respect to the twelve
// global DOF increments.
type mat3x12 [3]row12

// CorotConfig is one trial configuration of a co-rotational element: the
// current element frame, the basic deformations and the basic-to-global
// map B = ∂v/∂d. [Corot.Configure] fills it; its methods read it. It holds
// no pointers and needs no allocation: a caller keeps one per element or
// per worker and reuses it.
type CorotConfig struct {
	ln         float64       // current chord length, m
	e          geom.Rotation // current element axes e1, e2, e3 as rows
	pa, pb, p  geom.Vec3     // y axes of the end triads and their mean
	eta, nu    float64       // η = (p·e1)/(p·e2), ν = p·e2 = |e1 × p|
	theta      [2]geom.Vec3  // end rotations relative to the element frame, local components, rad
	jinv       [2][3][3]float64
	omegaBar   mat3x12    // element-frame spin, local components, per unit d
	dtheta     [2]mat3x12 // ∂θ̄/∂d at A and B
	b          [BasicDOF]row12
	basic      [BasicDOF]float64
	configured bool
}

// Configure computes the configuration of the element for the current end
// translations u (global, m, from the initial positions) and the current
// node rotations rot, and stores it in cfg.
//
// rot[0] and rot[1] are the total rotations of the nodes at A and B since
// the initial state as turning matrices (package geom, "Turning matrices"):
// rot.Apply(v₀) is where a vector v₀ fixed to the node has turned to; both
// are geom.Identity initially. A solver updates them multiplicatively with
// the rotational part Δθ of each increment, rot ← geom.ExpMap(Δθ).Mul(rot),
// never by adding angles.
//
// It returns an error wrapping [ErrCorotGeometry] if the ends coincide or
// the input is not finite, or if the mean y axis of the end triads is
// within 1e-6 rad of the chord (a relative twist near 180°, or end
// rotations of 90° about local z within one element: a mesh far too coarse
// for the formulation).
func (c *Corot) Configure(u [2]geom.Vec3, rot [2]geom.Rotation, cfg *CorotConfig) error {
	cfg.configured = false
	if !(c.l0 > 0) {
		return fmt.Errorf("%w: Corot not built by NewCorot", ErrCorotGeometry)
	}
	l := c.xb.Add(u[1]).Sub(c.xa.Add(u[0]))
	ln := l.Norm()
	if !(ln > 0) || math.IsInf(ln, 0) || math.IsNaN(ln) {
		return fmt.Errorf("%w: current chord %v", ErrCorotGeometry, l)
	}
	e1 := l.Scale(1 / ln)
	y0 := c.r0.Y()
	pa, pb := rot[0].Apply(y0), rot[1].Apply(y0)
	p := pa.Add(pb).Scale(0.5)
	n := e1.Cross(p)
	nu := n.Norm()
	if !(nu > 1e-6) {
		return fmt.Errorf("%w: mean end y axis %v along the chord %v", ErrCorotGeometry, p, e1)
	}
	e3 := n.Scale(1 / nu)
	e2 := e3.Cross(e1)
	e := geom.Rotation{e1, e2, e3}

	*cfg = CorotConfig{ln: ln, e: e, pa: pa, pb: pb, p: p, eta: p.Dot(e1) / nu, nu: nu}

	// Rotation of each end triad relative to the element frame, in local
	// components: the end triad's axes are rot·r0ᵀ (as columns), so
	// R̄ = e·rot·r0ᵀ, and θ̄ = log R̄ exactly (no small-angle shortcut).
	r0t := c.r0.Transpose()
	for i := range 2 {
		cfg.theta[i] = geom.LogMap(e.Mul(rot[i]).Mul(r0t))
		if !cfg.theta[i].IsFinite() {
			return fmt.Errorf("%w: rotation of end %d is not finite", ErrCorotGeometry, i)
		}
		cfg.jinv[i] = geom.ExpJacobianInv(cfg.theta[i])
	}

	// Spin of the element frame ω̄ (local components) per unit d. From
	// δe1 = ω × e1: ω̄z = e2·δl/Ln, ω̄y = −e3·δl/Ln. From e3·p = 0:
	// ω̄x = η·ω̄y + e3·δp/ν with δp = ½(δwA × pA + δwB × pB).
	ob := &cfg.omegaBar
	for k := range 3 {
		ob[1][k], ob[1][6+k] = e3[k]/ln, -e3[k]/ln
		ob[2][k], ob[2][6+k] = -e2[k]/ln, e2[k]/ln
	}
	ha, hb := pa.Cross(e3), pb.Cross(e3)
	for j := range 12 {
		ob[0][j] = cfg.eta * ob[1][j]
	}
	for k := range 3 {
		ob[0][3+k] += ha[k] / (2 * nu)
		ob[0][9+k] += hb[k] / (2 * nu)
	}

	// δθ̄ = J⁻¹(θ̄)·(e·δw − ω̄): the end triad's spin relative to the element
	// frame, converted to a change of the rotation vector.
	for i := range 2 {
		var rel mat3x12
		for r := range 3 {
			rel[r] = ob[r]
			for j := range 12 {
				rel[r][j] = -rel[r][j]
			}
			for k := range 3 {
				rel[r][6*i+3+k] += e[r][k]
			}
		}
		cfg.dtheta[i] = mul3(&cfg.jinv[i], &rel)
	}

	b := &cfg.b
	for k := range 3 {
		b[BasicAxial][k], b[BasicAxial][6+k] = -e1[k], e1[k]
	}
	ta, tb := &cfg.dtheta[0], &cfg.dtheta[1]
	for j := range 12 {
		b[BasicTwist][j] = tb[0][j] - ta[0][j]
	}
	b[BasicRzA], b[BasicRzB] = ta[2], tb[2]
	b[BasicRyA], b[BasicRyB] = ta[1], tb[1]

	ta0, tb0 := cfg.theta[0], cfg.theta[1]
	// Ln − L0 = (Ln² − L0²)/(Ln + L0) with Ln² − L0² = Δ·(2·l0 + Δ),
	// Δ = uB − uA: the same number as Ln − L0, without subtracting two
	// nearly equal lengths, so small strains keep their relative accuracy.
	du := u[1].Sub(u[0])
	cfg.basic = [BasicDOF]float64{
		BasicAxial: du.Dot(c.xb.Sub(c.xa).Scale(2).Add(du)) / (ln + c.l0),
		BasicTwist: tb0[0] - ta0[0],
		BasicRzA:   ta0[2], BasicRzB: tb0[2],
		BasicRyA: ta0[1], BasicRyB: tb0[1],
	}
	cfg.configured = true
	return nil
}

// mul3 returns a·m for a 3×3 a and a 3×12 m.
func mul3(a *[3][3]float64, m *mat3x12) mat3x12 {
	var out mat3x12
	for i := range 3 {
		for j := range 12 {
			out[i][j] = a[i][0]*m[0][j] + a[i][1]*m[1][j] + a[i][2]*m[2][j]
		}
	}
	return out
}

// mustBeConfigured panics on a CorotConfig that Configure has not filled
// (or that it left after an error), which would otherwise give zeros that
// look like a valid undeformed element.
func (cfg *CorotConfig) mustBeConfigured() {
	if !cfg.configured {
		panic("transform: CorotConfig used before a successful Corot.Configure")
	}
}

// FrameSpin writes into w the spin of the element frame per unit DOF
// increment, in global components: eᵀ·Ω̄ (3×12; translations, then spins,
// end A then B). A vector v fixed to the frame turns by δv = (w·δd) × v,
// which is what loads attached to the member need.
func (cfg *CorotConfig) FrameSpin(w *[3][12]float64) {
	cfg.mustBeConfigured()
	e, ob := &cfg.e, &cfg.omegaBar
	for i := range 3 {
		for j := range 12 {
			w[i][j] = e[0][i]*ob[0][j] + e[1][i]*ob[1][j] + e[2][i]*ob[2][j]
		}
	}
}

// Basic returns the basic deformations v, indexed by BasicAxial …
// BasicRyB: the chord elongation (m) and the end rotations relative to the
// element frame (rad, right-hand rule about the current local axes).
func (cfg *CorotConfig) Basic() [BasicDOF]float64 {
	cfg.mustBeConfigured()
	return cfg.basic
}

// Axes returns the current element frame as a geom.Rotation (rows e1, e2,
// e3 in global coordinates): the axes in which the basic forces act, for
// reporting member forces of the deformed structure.
func (cfg *CorotConfig) Axes() geom.Rotation {
	cfg.mustBeConfigured()
	return cfg.e
}

// Length returns the current chord length, m.
func (cfg *CorotConfig) Length() float64 {
	cfg.mustBeConfigured()
	return cfg.ln
}

// BasicMatrix writes B = ∂v/∂d, 6×12 row-major, into b (len ≥ 72): the
// change of the basic deformations per unit global DOF increment, with the
// rotational increments taken as spins (package doc). At the initial state
// it is the linear compatibility matrix of the frame.
func (cfg *CorotConfig) BasicMatrix(b []float64) {
	cfg.mustBeConfigured()
	b = b[: BasicDOF*12 : BasicDOF*12]
	for r := range BasicDOF {
		copy(b[12*r:12*r+12], cfg.b[r][:])
	}
}

// Forces writes the global end forces f = Bᵀ·q (12, DOF order of the
// package doc, N and N·m in global axes) of the basic forces q into f (len
// ≥ 12): the forces the nodes exert on the element, work-conjugate to the
// translations and spins. They are in equilibrium (zero resultant force
// and moment) in every configuration.
func (cfg *CorotConfig) Forces(q [BasicDOF]float64, f []float64) {
	cfg.mustBeConfigured()
	f = f[:12:12]
	for j := range 12 {
		s := 0.0
		for r := range BasicDOF {
			s += cfg.b[r][j] * q[r]
		}
		f[j] = s
	}
}

// Tangent writes the consistent global tangent stiffness, 12×12 row-major,
// into k (len ≥ 144):
//
//	K = Bᵀ·kb·B + Kσ(q),
//
// the material part from the basic tangent kb (6×6 row-major, as from
// element.FrameBasicStiffness; nil leaves it out, giving Kσ alone) and the
// geometric part Kσ = ∂(Bᵀ·q)/∂d at fixed q, the change of the end forces
// as the element frame and the end rotations move. K is the exact
// derivative of [CorotConfig.Forces] with respect to translation increments
// and spins, so it gives Newton's method its quadratic convergence.
//
// K is not symmetric: with a symmetric kb, K − Kᵀ is −[m]ₓ on the
// spin-spin block of each end, m being that end's moment in Forces (Simo &
// Vu-Quoc 1986). Assembled, these sum at each node to −[M]ₓ, M the moment
// the elements take from the node, which at equilibrium is the applied
// moment: under forces alone the structure's tangent is symmetric at
// equilibrium, but not during the iterations, so a solver should factor the
// unsymmetric matrix to keep quadratic convergence.
func (cfg *CorotConfig) Tangent(q [BasicDOF]float64, kb []float64, k []float64) {
	cfg.mustBeConfigured()
	k = k[:144:144]
	clear(k)
	if kb != nil {
		kb = kb[: BasicDOF*BasicDOF : BasicDOF*BasicDOF]
		var kbb [BasicDOF]row12 // kb·B
		for r := range BasicDOF {
			for s := range BasicDOF {
				if v := kb[r*BasicDOF+s]; v != 0 {
					for j := range 12 {
						kbb[r][j] += v * cfg.b[s][j]
					}
				}
			}
		}
		for i := range 12 {
			for r := range BasicDOF {
				if bi := cfg.b[r][i]; bi != 0 {
					for j := range 12 {
						k[i*12+j] += bi * kbb[r][j]
					}
				}
			}
		}
	}
	cfg.addGeometric(q, k)
}
