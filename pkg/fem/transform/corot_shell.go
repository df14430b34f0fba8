package transform

import (
	"fmt"
	"math"

	"github.com/gusset/gusset/pkg/fem/geom"
)

// The element-independent co-rotational (EICR) transform of a flat 3- or
// 4-node shell for large displacements and rotations: the linear shell
// element (package shell, through its caller) deforms in a frame that
// follows the element's rigid-body motion, and this transform carries the
// geometric non-linearity, as Corot does for frames (Rankin & Brogan,
// J. Pressure Vessel Technol. 108, 1986; Felippa & Haugen, "A unified
// formulation of small-strain corotational finite elements: I. Theory",
// Comput. Methods Appl. Mech. Eng. 194, 2005; Battini & Pacoste, Commun.
// Numer. Methods Eng. 20, 2004, for the triangle's frame).
//
// State and DOFs are those of Corot (package doc, "Co-rotational
// frames"): per corner a translation u from the initial position and a
// turning matrix Q, updated by spins; global vectors and matrices are
// corner by corner, translations then spins, global axes.
//
// Element frame. From the current corners x_k, two vectors a, b give the
// normal e3 ∥ a × b and a third, c, the first axis e1 ∥ c; e2 = e3 × e1.
// For a quad a and b are the diagonals x₃ − x₁ and x₄ − x₂ and c = a − b,
// the mean direction of the sides 1→2 and 4→3 (symmetric in the corners;
// Nour-Omid & Rankin 1991); for a triangle a = x₂ − x₁, b = x₃ − x₁ and
// c = a, side 1→2. The element's local axes R are that frame turned by
// the constant rotation that makes them the plate's own axes R₀
// initially, so the linear stiffness is used in the axes it is written
// in.
//
// Deformational displacements (local components, what the linear element
// sees): ū_k = R·(x_k − x̄) − R₀·(X_k − X̄) with x̄ the mean corner, and
// θ̄_k = log(R·Q_k·R₀ᵀ), exact at any angle. Rigid motion leaves them zero.
//
// Forces and tangent. With B̄ = ∂d̄/∂d (translations and spins), the
// global forces of the local forces f̄ = K̄·d̄ are f = B̄ᵀ·f̄ — Felippa and
// Haugen's Tᵀ·Pᵀ·Hᵀ·f̄, the projector P built from this frame's exact spin
// matrix and H the rotation-vector transformation J⁻ᵀ(θ̄) — and the
// consistent tangent is K = B̄ᵀ·K̄·B̄ + ∂(B̄ᵀ·f̄)/∂d at fixed f̄, the exact
// derivative (corot_shell_geometric.go). Its skew part is −[m]ₓ on the
// spin block of each corner, as for frames.
//
// Limits. Each corner's rotation relative to the element frame must stay
// below π, and the corners must keep spanning a plane; both hold far
// beyond any reasonable mesh. The linear element's own kinematics (rigid
// links of an offset or a warped quad included) stay in K̄: they are
// small-rotation relations inside the frame, as the strains are.

// MaxShellDOF is the order of the largest co-rotational shell's vectors
// and matrices: six DOFs at each of four corners.
const MaxShellDOF = 24

// CorotShell is the fixed data of one co-rotational flat shell element:
// its initial corner positions and initial local axes. It is immutable
// and may be shared by goroutines; every trial state is a
// [CorotShellConfig].
type CorotShell struct {
	n   int
	s0  [4]geom.Vec3   // initial corner positions relative to their mean, global
	xl0 [4]geom.Vec3   // the same in the initial local axes
	a0  [3]geom.Vec3   // the frame's defining vectors a, b, c (shellFrame) initially
	r0  geom.Rotation  // initial local axes (rows)
	fix geom.Rotation  // r0·F₀ᵀ: turns the geometric frame into the local axes
	k   shellFrameKind // which corner combinations define the frame
}

// shellFrameKind holds the coefficients of the frame's defining vectors
// as combinations of the corner positions: a = Σ α_k·x_k, b = Σ β_k·x_k,
// c = Σ γ_k·x_k (see the comment at the top of this file).
type shellFrameKind struct{ alpha, beta, gamma [4]float64 }

var (
	// quadFrame: the diagonals a = x₃ − x₁ and b = x₄ − x₂ (1-based) give
	// the normal a × b; c = a − b, twice the mean of the sides 1→2 and
	// 4→3, gives the first axis (Nour-Omid & Rankin 1991; Battini &
	// Pacoste 2006).
	quadFrame = shellFrameKind{
		alpha: [4]float64{-1, 0, 1, 0},
		beta:  [4]float64{0, -1, 0, 1},
		gamma: [4]float64{-1, 1, 1, -1},
	}
	// triFrame: the sides a = x₂ − x₁ and b = x₃ − x₁ give the normal;
	// the first axis is along side 1→2 (Battini & Pacoste 2004).
	triFrame = shellFrameKind{
		alpha: [4]float64{-1, 1, 0, 0},
		beta:  [4]float64{-1, 0, 1, 0},
		gamma: [4]float64{-1, 1, 0, 0},
	}
)

// combine returns Σ w_k·v_k over the n corners.
func combine(n int, w *[4]float64, v *[4]geom.Vec3) geom.Vec3 {
	var s geom.Vec3
	for k := range n {
		s = s.Add(v[k].Scale(w[k]))
	}
	return s
}

// shellFrame returns the geometric frame F (rows e1, e2, e3) of the
// vectors a, b, c: e3 along a × b, e1 along c, and |a × b| and |c|; ok is
// false when the frame is degenerate.
func shellFrame(a, b, c geom.Vec3) (f geom.Rotation, nu, ell float64, ok bool) {
	n := a.Cross(b)
	nu, ell = n.Norm(), c.Norm()
	if !(nu > 1e-12*a.Norm()*b.Norm()) || !(ell > 0) || math.IsInf(nu, 0) || math.IsInf(ell, 0) {
		return f, nu, ell, false
	}
	e3 := n.Scale(1 / nu)
	// c lies in the plane of a and b; removing its round-off along e3
	// keeps the frame orthonormal to the last bit.
	c = c.Sub(e3.Scale(c.Dot(e3)))
	e1 := c.Scale(1 / c.Norm())
	return geom.Rotation{e1, e3.Cross(e1), e3}, nu, ell, true
}

// NewCorotShell returns the co-rotational data of the shell with corners
// x0 (3 or 4, global, m, in the element's order) and initial local axes
// r0 (rows x, y, z; the plate's axes, in which its linear stiffness is
// written). It returns an error wrapping [ErrCorotGeometry] if the
// corners are not 3 or 4, are not finite, do not span a plane, or r0 is
// not a proper rotation.
func NewCorotShell(x0 []geom.Vec3, r0 geom.Rotation) (CorotShell, error) {
	var c CorotShell
	n := len(x0)
	switch n {
	case 3:
		c.k = triFrame
	case 4:
		c.k = quadFrame
	default:
		return c, fmt.Errorf("%w: a shell has 3 or 4 corners, not %d", ErrCorotGeometry, n)
	}
	var mean geom.Vec3
	for _, x := range x0 {
		if !x.IsFinite() {
			return c, fmt.Errorf("%w: corner %v", ErrCorotGeometry, x)
		}
		mean = mean.Add(x)
	}
	mean = mean.Scale(1 / float64(n))
	if err := checkAxes(r0); err != nil {
		return c, err
	}
	c.n, c.r0 = n, r0
	var x [4]geom.Vec3
	for i := range n {
		x[i] = x0[i]
		c.s0[i] = x0[i].Sub(mean)
		c.xl0[i] = r0.Apply(c.s0[i])
	}
	c.a0 = [3]geom.Vec3{combine(n, &c.k.alpha, &x), combine(n, &c.k.beta, &x), combine(n, &c.k.gamma, &x)}
	f, _, _, ok := shellFrame(c.a0[0], c.a0[1], c.a0[2])
	if !ok {
		return c, fmt.Errorf("%w: corners %v do not span a plane", ErrCorotGeometry, x0)
	}
	c.fix = r0.Mul(f.Transpose())
	return c, nil
}

// Corners returns the number of corners, 3 or 4.
func (c *CorotShell) Corners() int { return c.n }

// shellMat is a 3×6N derivative of a vector with respect to the global
// DOF increments of the corners (translations, then spins, corner by
// corner; only the first 6N columns are used).
type shellMat [3][MaxShellDOF]float64

// CorotShellConfig is one trial configuration of a co-rotational shell:
// the current element frame, the deformational displacements and their
// derivative B̄ = ∂d̄/∂d. [CorotShell.Configure] fills it; its methods read
// it. It holds no pointers and needs no allocation: a caller keeps one
// per worker and reuses it.
type CorotShellConfig struct {
	n     int
	k     shellFrameKind
	r     geom.Rotation // current local axes (rows)
	f     geom.Rotation // current geometric frame (rows e1, e2, e3)
	ab    [2]geom.Vec3  // the vectors a and b of the frame
	nu    float64       // |a × b|
	ell   float64       // |c|
	s     [4]geom.Vec3  // corner positions relative to their mean, global
	theta [4]geom.Vec3  // deformational rotation vectors, local components
	jinv  [4][3][3]float64
	omega shellMat // Ω: the frame's spin (global) per unit d
	b     [MaxShellDOF][MaxShellDOF]float64
	d     [MaxShellDOF]float64
	ok    bool
}

// Configure computes the configuration of the element for the current
// corner translations u (global, m, from the initial positions) and node
// rotations rot (turning matrices, geom.Identity initially, updated as
// rot ← geom.ExpMap(Δθ).Mul(rot); see [Corot.Configure]), one per corner,
// and stores it in cfg. It returns an error wrapping [ErrCorotGeometry]
// if the corners no longer span a plane or the input is not finite.
func (c *CorotShell) Configure(u []geom.Vec3, rot []geom.Rotation, cfg *CorotShellConfig) error {
	cfg.ok = false
	n := c.n
	if n == 0 {
		return fmt.Errorf("%w: CorotShell not built by NewCorotShell", ErrCorotGeometry)
	}
	if len(u) != n || len(rot) != n {
		return fmt.Errorf("%w: %d translations and %d rotations for %d corners", ErrCorotGeometry, len(u), len(rot), n)
	}
	var uu [4]geom.Vec3
	var um geom.Vec3
	for i := range n {
		if !u[i].IsFinite() {
			return fmt.Errorf("%w: translation %v", ErrCorotGeometry, u[i])
		}
		uu[i] = u[i]
		um = um.Add(u[i])
	}
	um = um.Scale(1 / float64(n))
	// The frame's vectors from their initial values plus the same
	// combination of the translations: far from the origin, the
	// differences of current coordinates would lose the small ones.
	a := c.a0[0].Add(combine(n, &c.k.alpha, &uu))
	b := c.a0[1].Add(combine(n, &c.k.beta, &uu))
	cv := c.a0[2].Add(combine(n, &c.k.gamma, &uu))
	f, nu, ell, ok := shellFrame(a, b, cv)
	if !ok {
		return fmt.Errorf("%w: the corners no longer span a plane (a = %v, b = %v)", ErrCorotGeometry, a, b)
	}
	*cfg = CorotShellConfig{n: n, k: c.k, f: f, ab: [2]geom.Vec3{a, b}, nu: nu, ell: ell}
	r := c.fix.Mul(f)
	cfg.r = r

	// Deformational translations ū = R·s − R₀·s₀ with s = s₀ + (u − ū_mean):
	// (R − R₀)·s₀ is formed without subtracting nearly equal positions.
	var dr geom.Rotation
	for i := range 3 {
		for j := range 3 {
			dr[i][j] = r[i][j] - c.r0[i][j]
		}
	}
	r0t := c.r0.Transpose()
	for i := range n {
		du := uu[i].Sub(um)
		cfg.s[i] = c.s0[i].Add(du)
		ub := dr.Apply(c.s0[i]).Add(r.Apply(du))
		// Deformational rotation: the corner's triad relative to the
		// element frame, R̄ = R·Q·R₀ᵀ, θ̄ = log R̄ exactly.
		th := geom.LogMap(r.Mul(rot[i]).Mul(r0t))
		if !th.IsFinite() {
			return fmt.Errorf("%w: rotation of corner %d is not finite", ErrCorotGeometry, i)
		}
		cfg.theta[i] = th
		cfg.jinv[i] = geom.ExpJacobianInv(th)
		copy(cfg.d[6*i:6*i+3], ub[:])
		copy(cfg.d[6*i+3:6*i+6], th[:])
	}

	// Spin of the frame: ω = e3 × δn/ν + (e2·δc/ℓ)·e3 with δn = δa × b +
	// a × δb, so per corner k
	// Ω_k = [e3]ₓ·(β_k·[a]ₓ − α_k·[b]ₓ)/ν + γ_k·e3·e2ᵀ/ℓ.
	e2, e3 := f.Y(), f.Z()
	ska, skb, sk3 := geom.Skew(a), geom.Skew(b), geom.Skew(e3)
	for k := range n {
		al, be, ga := c.k.alpha[k], c.k.beta[k], c.k.gamma[k]
		for i := range 3 {
			for j := range 3 {
				v := 0.0
				for l := range 3 {
					v += sk3[i][l] * (be*ska[l][j] - al*skb[l][j])
				}
				cfg.omega[i][6*k+j] = v/nu + ga*e3[i]*e2[j]/ell
			}
		}
	}

	// B̄ = ∂d̄/∂d. With s_a the corner's position from the mean:
	// δū_a = R·(δu_a − δu_mean) + R·[s_a]ₓ·Ω·δd,
	// δθ̄_a = J⁻¹(θ̄_a)·R·(δw_a − Ω·δd).
	for a := range n {
		sk := geom.Skew(cfg.s[a])
		var rs, jr [3][3]float64 // R·[s_a]ₓ and J⁻¹·R
		for i := range 3 {
			for j := range 3 {
				for l := range 3 {
					rs[i][j] += r[i][l] * sk[l][j]
					jr[i][j] += cfg.jinv[a][i][l] * r[l][j]
				}
			}
		}
		for i := range 3 {
			rowU, rowT := &cfg.b[6*a+i], &cfg.b[6*a+3+i]
			for col := range 6 * n {
				rowU[col] = rs[i][0]*cfg.omega[0][col] + rs[i][1]*cfg.omega[1][col] + rs[i][2]*cfg.omega[2][col]
				rowT[col] = -(jr[i][0]*cfg.omega[0][col] + jr[i][1]*cfg.omega[1][col] + jr[i][2]*cfg.omega[2][col])
			}
			for k := range n {
				w := -1 / float64(n)
				if k == a {
					w++
				}
				for j := range 3 {
					rowU[6*k+j] += w * r[i][j]
				}
			}
			for j := range 3 {
				rowT[6*a+3+j] += jr[i][j]
			}
		}
	}
	cfg.ok = true
	return nil
}

// mustBeConfigured panics on a configuration Configure has not filled.
func (cfg *CorotShellConfig) mustBeConfigured() {
	if !cfg.ok {
		panic("transform: CorotShellConfig used before a successful CorotShell.Configure")
	}
}

// Size returns 6N, the order of the element's vectors.
func (cfg *CorotShellConfig) Size() int {
	cfg.mustBeConfigured()
	return 6 * cfg.n
}

// Axes returns the current local axes (rows x, y, z in global
// coordinates): the initial local axes carried along by the element's
// rigid-body motion, in which the deformational displacements and the
// local forces are written.
func (cfg *CorotShellConfig) Axes() geom.Rotation {
	cfg.mustBeConfigured()
	return cfg.r
}

// Deformation writes the deformational displacements d̄ (6N, local axes,
// corner by corner ū then θ̄; m, rad) into d: what the linear element
// sees. Rigid-body motion leaves them at zero.
func (cfg *CorotShellConfig) Deformation(d []float64) {
	cfg.mustBeConfigured()
	copy(d[:6*cfg.n], cfg.d[:6*cfg.n])
}

// DeformationMatrix writes B̄ = ∂d̄/∂d, 6N×6N row-major, into b: the change
// of the deformational displacements per unit global increment, with the
// rotational increments taken as spins. At the initial state it is the
// projector P·T of Felippa and Haugen (rigid modes removed, turned to
// local axes).
func (cfg *CorotShellConfig) DeformationMatrix(b []float64) {
	cfg.mustBeConfigured()
	m := 6 * cfg.n
	for i := range m {
		copy(b[i*m:i*m+m], cfg.b[i][:m])
	}
}

// Forces writes the global corner forces f = B̄ᵀ·f̄ (6N, global axes,
// conjugate to the translations and spins) of the local forces f̄ (6N,
// local axes, conjugate to d̄: the linear element's K̄·d̄) into f. They are
// in equilibrium in the current configuration whatever f̄ is: B̄ᵀ drops
// the part of f̄ that rigid motion would work on.
func (cfg *CorotShellConfig) Forces(fl, f []float64) {
	cfg.mustBeConfigured()
	m := 6 * cfg.n
	for j := range m {
		s := 0.0
		for i := range m {
			s += cfg.b[i][j] * fl[i]
		}
		f[j] = s
	}
}

// Tangent writes the consistent global tangent, 6N×6N row-major, into k:
//
//	K = B̄ᵀ·K̄·B̄ + Kσ(f̄),
//
// the material part from the local tangent kl (K̄, 6N×6N row-major; nil
// leaves it out) and the geometric part Kσ = ∂(B̄ᵀ·f̄)/∂d at fixed f̄,
// the change of the global forces as the frame turns, the corners move
// about their mean and the rotation vectors change. It is the exact
// derivative of [CorotShellConfig.Forces] for a constant kl. Like the
// frame's (see [CorotConfig.Tangent]), K − Kᵀ is −[m]ₓ on the spin block
// of each corner, m that corner's moment in Forces, when f̄ = f̄₀ + K̄·d̄
// with K̄ symmetric: f is then the gradient of a function of the corner
// positions and rotations, whose second derivative in spins is symmetric
// up to that term.
func (cfg *CorotShellConfig) Tangent(fl, kl, k []float64) {
	cfg.mustBeConfigured()
	m := 6 * cfg.n
	k = k[: m*m : m*m]
	clear(k)
	if kl != nil {
		var kb [MaxShellDOF][MaxShellDOF]float64 // K̄·B̄
		for i := range m {
			for l := range m {
				if v := kl[i*m+l]; v != 0 {
					for j := range m {
						kb[i][j] += v * cfg.b[l][j]
					}
				}
			}
		}
		for l := range m {
			for i := range m {
				if v := cfg.b[l][i]; v != 0 {
					for j := range m {
						k[i*m+j] += v * kb[l][j]
					}
				}
			}
		}
	}
	cfg.addShellGeometric(fl, k)
}
