package transform_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// Tests of the co-rotational shell transform (EICR: Rankin & Brogan
// 1986; Felippa & Haugen, Comput. Methods Appl. Mech. Eng. 194, 2005):
// objectivity (rigid motion leaves the deformational displacements, and
// so the local forces, unchanged), equilibrium of the global forces, the
// linear limit, and the consistency of B̄ and of the tangent with central
// differences. The transform is independent of the element, so the local
// stiffness here is a synthetic one with the six rigid-body modes in its
// null space, as every linear element's is (the import rule keeps package
// shell out of these tests); package nonlinear runs the real shells.

// shellState is a trial state of one shell: corner translations and
// node turning matrices.
type shellState struct {
	u   []V
	rot []geom.Rotation
}

// sampleShell returns a quad (n = 4) or a triangle (n = 3) in a skew
// plane, with local axes at an angle to its sides, so that no local or
// frame axis is a global one. The quad is not a parallelogram.
func sampleShell(t *testing.T, n int) (transform.CorotShell, []V, geom.Rotation) {
	t.Helper()
	plane := [4][2]float64{{0, 0}, {1.2, -0.1}, {1.4, 0.9}, {-0.1, 1.1}}
	if n == 3 {
		plane = [4][2]float64{{0, 0}, {1.2, -0.1}, {0.5, 0.9}}
	}
	turn := geom.ExpMap(V{0.4, -0.7, 0.3})
	x := make([]V, n)
	for i := range n {
		x[i] = turn.Apply(V{plane[i][0], plane[i][1], 0}).Add(V{2, -1, 0.5})
	}
	fr, err := geom.PlateAxes(x, 25)
	if err != nil {
		t.Fatal(err)
	}
	r0 := geom.Rotation{fr.X, fr.Y, fr.Z}
	c, err := transform.NewCorotShell(x, r0)
	if err != nil {
		t.Fatal(err)
	}
	return c, x, r0
}

// identityState returns the initial state of n corners.
func identityState(n int) shellState {
	s := shellState{u: make([]V, n), rot: make([]geom.Rotation, n)}
	for i := range s.rot {
		s.rot[i] = geom.Identity
	}
	return s
}

// rigidShell returns the deformation def of the shell with corners x
// followed by the rigid motion x → r·x + d.
func rigidShell(x []V, r geom.Rotation, d V, def shellState) shellState {
	s := identityState(len(x))
	for i := range x {
		s.u[i] = r.Apply(x[i].Add(def.u[i])).Add(d).Sub(x[i])
		s.rot[i] = r.Mul(def.rot[i])
	}
	return s
}

// shellDeformed returns a non-equilibrium deformation of n corners:
// translations of a few per cent of the size and rotations of
// 0.1–0.4 rad, or, with big, rotations of 1.2–2.2 rad (both branches of
// J⁻¹ in the deformational rotations).
func shellDeformed(n int, big bool) shellState {
	u := []V{{0.01, -0.03, 0.05}, {-0.04, 0.02, -0.06}, {0.03, 0.05, 0.02}, {-0.02, -0.01, 0.07}}
	w := []V{{0.1, -0.3, 0.2}, {-0.25, 0.15, 0.3}, {0.2, 0.35, -0.1}, {-0.3, -0.2, 0.15}}
	s := identityState(n)
	for i := range n {
		s.u[i] = u[i]
		if big {
			s.u[i] = u[i].Scale(3)
			w[i] = w[i].Scale(5)
		}
		s.rot[i] = geom.ExpMap(w[i])
	}
	return s
}

// turn90 is a 90° turn about a skew axis.
var turn90 = geom.ExpMap(V{1, 2, -2}.Scale(math.Pi / 2 / 3))

// shellStates are the deformed states of the tests: moderate and large
// deformational rotations under a rigid turn, and one near the initial
// state.
func shellStates(x []V) map[string]shellState {
	n := len(x)
	small := shellDeformed(n, false)
	for i := range n {
		small.u[i] = small.u[i].Scale(1e-3)
		small.rot[i] = geom.ExpMap(geom.LogMap(small.rot[i]).Scale(1e-3))
	}
	return map[string]shellState{
		"deformed, 90° skew turn":          rigidShell(x, turn90, V{3, -1, 2}, shellDeformed(n, false)),
		"large deformational rotations":    rigidShell(x, geom.ExpMap(V{0, 2.5, 0}), V{}, shellDeformed(n, true)),
		"near initial":                     small,
		"deformed, turned by 170° about z": rigidShell(x, geom.ExpMap(V{0, 0, 170 * math.Pi / 180}), V{-1, 0, 0}, shellDeformed(n, false)),
	}
}

// sampleLocalStiffness returns a symmetric positive semi-definite 6N×6N
// matrix with every entry coupled and exactly the six linearized rigid
// modes of the corners xl (local, from their mean) in its null space:
// K̄ = (C·Π)ᵀ·(C·Π), Π = I − Q·Qᵀ with Q an orthonormal basis of the rigid
// modes (Gram–Schmidt) and C a fixed dense matrix.
func sampleLocalStiffness(xl []V) []float64 {
	n := 6 * len(xl)
	var modes [6][]float64
	for k := range 6 {
		v := make([]float64, n)
		for a, x := range xl {
			if k < 3 {
				v[6*a+k] = 1
				continue
			}
			var w V
			w[k-3] = 1
			u := w.Cross(x)
			copy(v[6*a:6*a+3], u[:])
			v[6*a+k] = 1
		}
		for _, q := range modes[:k] {
			d := 0.0
			for i := range v {
				d += v[i] * q[i]
			}
			for i := range v {
				v[i] -= d * q[i]
			}
		}
		nv := 0.0
		for _, e := range v {
			nv += e * e
		}
		for i := range v {
			v[i] /= math.Sqrt(nv)
		}
		modes[k] = v
	}
	cp := make([]float64, n*n) // C·Π
	for i := range n {
		for j := range n {
			cp[i*n+j] = 100 * math.Sin(float64(3*i+7*j+1))
		}
	}
	for i := range n {
		for _, q := range modes {
			d := 0.0
			for j := range n {
				d += cp[i*n+j] * q[j]
			}
			for j := range n {
				cp[i*n+j] -= d * q[j]
			}
		}
	}
	k := make([]float64, n*n)
	for i := range n {
		for j := range n {
			s := 0.0
			for l := range n {
				s += cp[l*n+i] * cp[l*n+j]
			}
			k[i*n+j] = s
		}
	}
	return k
}

// localCorners returns the corners x from their mean in axes r0.
func localCorners(x []V, r0 geom.Rotation) []V {
	var mean V
	for _, p := range x {
		mean = mean.Add(p)
	}
	mean = mean.Scale(1 / float64(len(x)))
	out := make([]V, len(x))
	for i, p := range x {
		out[i] = r0.Apply(p.Sub(mean))
	}
	return out
}

// configureShell fails the test if the state has no element frame.
func configureShell(t *testing.T, c *transform.CorotShell, s shellState) transform.CorotShellConfig {
	t.Helper()
	var cfg transform.CorotShellConfig
	if err := c.Configure(s.u, s.rot, &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// localForces returns f̄ = f̄₀ + K̄·d̄ with a fixed prestress f̄₀ (not in
// equilibrium), so that the geometric terms count as much as the
// material ones; kl nil gives f̄₀ alone.
func localForces(cfg *transform.CorotShellConfig, kl []float64) []float64 {
	n := cfg.Size()
	d := make([]float64, n)
	cfg.Deformation(d)
	f := make([]float64, n)
	for i := range n {
		f[i] = 30 * math.Cos(float64(5*i+2))
		if kl != nil {
			for j := range n {
				f[i] += kl[i*n+j] * d[j]
			}
		}
	}
	return f
}

// shellSizes are the element kinds the tests run.
var shellSizes = []struct {
	name string
	n    int
}{{"quad", 4}, {"triangle", 3}}

// TestCorotShellObjectivity: a rigid motion (a 90° turn about a skew axis
// and a translation) leaves the deformational displacements of a
// deformed shell unchanged to round-off, so its local forces are the
// same, and turns its global forces with it; a pure rigid motion gives
// zero deformational displacements, so zero forces.
func TestCorotShellObjectivity(t *testing.T) {
	for _, sz := range shellSizes {
		t.Run(sz.name, func(t *testing.T) {
			c, x, r0 := sampleShell(t, sz.n)
			kl := sampleLocalStiffness(localCorners(x, r0))
			n := 6 * sz.n
			def := shellDeformed(sz.n, false)
			base := configureShell(t, &c, def)
			d0, f0 := make([]float64, n), make([]float64, n)
			base.Deformation(d0)
			fl0 := localForces(&base, kl)
			base.Forces(fl0, f0)
			for _, rg := range []struct {
				name string
				r    geom.Rotation
			}{{"90° skew", turn90}, {"180° about x", geom.ExpMap(V{math.Pi, 0, 0})}, {"identity", geom.Identity}} {
				moved := configureShell(t, &c, rigidShell(x, rg.r, V{5, -3, 1}, def))
				d, f := make([]float64, n), make([]float64, n)
				moved.Deformation(d)
				fl := localForces(&moved, kl)
				moved.Forces(fl, f)
				worstD, worstF, worstL := 0.0, 0.0, 0.0
				for i := range n {
					worstD = math.Max(worstD, math.Abs(d[i]-d0[i]))
					worstL = math.Max(worstL, math.Abs(fl[i]-fl0[i]))
				}
				for a := range sz.n {
					for p := 0; p < 6; p += 3 {
						want := rg.r.Apply(V{f0[6*a+p], f0[6*a+p+1], f0[6*a+p+2]})
						worstF = math.Max(worstF, want.Sub(V{f[6*a+p], f[6*a+p+1], f[6*a+p+2]}).Norm())
					}
				}
				// Round-off of a 6N-term sum of entries up to 1e4.
				t.Logf("%s: |Δd̄| %.2g, |Δf̄| %.2g, |f − Q·f₀| %.2g (largest f̄ %.3g)", rg.name, worstD, worstL, worstF, maxAbs(fl0))
				if !(worstD <= 1e-14) || !(worstL <= 1e-12*maxAbs(fl0)) || !(worstF <= 1e-12*maxAbs(fl0)) {
					t.Errorf("%s: not objective: |Δd̄| %.3g, |Δf̄| %.3g, |Δf| %.3g", rg.name, worstD, worstL, worstF)
				}
				// The rigid motion alone: nothing deforms.
				pure := configureShell(t, &c, rigidShell(x, rg.r, V{5, -3, 1}, identityState(sz.n)))
				pure.Deformation(d)
				dl := make([]float64, n)
				for i := range n {
					for j := range n {
						dl[i] += kl[i*n+j] * d[j]
					}
				}
				pure.Forces(dl, f)
				if !(maxAbs(d) <= 1e-14) || !(maxAbs(f) <= 1e-9) {
					t.Errorf("%s: rigid motion deforms: d̄ %v, f %v", rg.name, d, f)
				}
			}
		})
	}
}

// TestCorotShellLinearLimit: at the initial state d̄ = 0, B̄ is the
// projector of the rigid modes turned to local axes, and the tangent with
// a local stiffness free of rigid modes is the linear global stiffness
// Tᵀ·K̄·T, T = diag(R₀): the co-rotational element starts as the linear
// one (Felippa & Haugen 2005).
func TestCorotShellLinearLimit(t *testing.T) {
	for _, sz := range shellSizes {
		t.Run(sz.name, func(t *testing.T) {
			c, x, r0 := sampleShell(t, sz.n)
			kl := sampleLocalStiffness(localCorners(x, r0))
			n := 6 * sz.n
			cfg := configureShell(t, &c, identityState(sz.n))
			d := make([]float64, n)
			cfg.Deformation(d)
			// R = (R₀·F₀ᵀ)·F rounds to R₀ within a few ulps.
			if !(maxAbs(d) <= 1e-15) {
				t.Errorf("initial d̄ = %v", d)
			}
			if a := cfg.Axes(); a != r0 {
				if diff := a.Mul(r0.Transpose()); !(geom.LogMap(diff).Norm() <= 1e-15) {
					t.Errorf("initial axes %v, want %v", a, r0)
				}
			}
			k := make([]float64, n*n)
			cfg.Tangent(make([]float64, n), kl, k)
			want := make([]float64, n*n)
			transform.ToGlobalMatrix(r0, n, kl, want)
			worst := 0.0
			for i := range want {
				worst = math.Max(worst, math.Abs(k[i]-want[i]))
			}
			t.Logf("max |K − TᵀK̄T| = %.2g of max %.3g", worst, maxAbs(want))
			if !(worst <= 1e-12*maxAbs(want)) {
				t.Errorf("initial tangent differs from the linear stiffness by %.3g", worst)
			}
		})
	}
}

// perturbShell returns s moved by h along global DOF j (translation
// added, or a spin: rot ← exp(h·eⱼ)·rot).
func perturbShell(s shellState, j int, h float64) shellState {
	out := shellState{u: append([]V(nil), s.u...), rot: append([]geom.Rotation(nil), s.rot...)}
	node, k := j/6, j%6
	if k < 3 {
		out.u[node][k] += h
		return out
	}
	var w V
	w[k-3] = h
	out.rot[node] = geom.ExpMap(w).Mul(s.rot[node])
	return out
}

// TestCorotShellTangentFD compares the unsymmetric tangent with central
// differences of the global forces f(d) = B̄(d)ᵀ·f̄(d̄(d)) along every DOF,
// with f̄ = f̄₀ + K̄·d̄ and with the constant f̄₀ alone (which leaves the
// geometric part by itself), and B̄ with differences of d̄. Each column is
// compared relative to its own largest entry; with h = 1e-6 the
// truncation error is about h² ≈ 1e-12 of the third derivatives and the
// round-off about 1e-16/h ≈ 1e-10 relative, so 1e-7 holds with margin and
// any missing term (of relative size 1e-3 or more here) fails.
func TestCorotShellTangentFD(t *testing.T) {
	for _, sz := range shellSizes {
		c, x, r0 := sampleShell(t, sz.n)
		kl := sampleLocalStiffness(localCorners(x, r0))
		n := 6 * sz.n
		for name, s := range shellStates(x) {
			for _, withK := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/K̄=%v", sz.name, name, withK), func(t *testing.T) {
					k := kl
					if !withK {
						k = nil
					}
					force := func(s shellState) []float64 {
						cf := configureShell(t, &c, s)
						f := make([]float64, n)
						cf.Forces(localForces(&cf, k), f)
						return f
					}
					cfg := configureShell(t, &c, s)
					kt := make([]float64, n*n)
					cfg.Tangent(localForces(&cfg, k), k, kt)
					b := make([]float64, n*n)
					cfg.DeformationMatrix(b)
					const h = 1e-6
					worst, worstB := 0.0, 0.0
					for j := range n {
						fp, fm := force(perturbShell(s, j, h)), force(perturbShell(s, j, -h))
						col := make([]float64, n)
						for i := range n {
							col[i] = kt[i*n+j]
						}
						cmax := maxAbs(col)
						for i := range n {
							d := (fp[i] - fm[i]) / (2 * h)
							if e := math.Abs(kt[i*n+j]-d) / cmax; !(e <= worst) {
								worst = e
							}
						}
						pc, mc := configureShell(t, &c, perturbShell(s, j, h)), configureShell(t, &c, perturbShell(s, j, -h))
						dp, dm := make([]float64, n), make([]float64, n)
						pc.Deformation(dp)
						mc.Deformation(dm)
						for i := range n {
							d := (dp[i] - dm[i]) / (2 * h)
							if e := math.Abs(b[i*n+j] - d); !(e <= worstB) {
								worstB = e
							}
						}
					}
					t.Logf("max over columns |K − Δf/Δd| / max|K column| = %.2g, max |B̄ − Δd̄/Δd| = %.2g", worst, worstB)
					if !(worst <= 1e-7) {
						t.Errorf("tangent differs from central differences: relative error %.3g", worst)
					}
					if !(worstB <= 1e-8) {
						t.Errorf("B̄ differs from central differences of d̄: %.3g", worstB)
					}
				})
			}
		}
	}
}

// TestCorotShellTangentSkewPart: with f̄ = f̄₀ + K̄·d̄ and K̄ symmetric the
// global forces are the gradient of f̄₀·d̄ + ½d̄ᵀK̄d̄ in the corner positions
// and rotations, so K − Kᵀ is −[m]ₓ on the spin block of each corner and
// zero elsewhere (Simo & Vu-Quoc 1986, as for the frame): the part the
// analysis drops when it assembles (K + Kᵀ)/2, whose sum at a node is
// the applied moment at equilibrium.
func TestCorotShellTangentSkewPart(t *testing.T) {
	for _, sz := range shellSizes {
		c, x, r0 := sampleShell(t, sz.n)
		kl := sampleLocalStiffness(localCorners(x, r0))
		n := 6 * sz.n
		for name, s := range shellStates(x) {
			t.Run(sz.name+"/"+name, func(t *testing.T) {
				cfg := configureShell(t, &c, s)
				fl := localForces(&cfg, kl)
				k, f := make([]float64, n*n), make([]float64, n)
				cfg.Tangent(fl, kl, k)
				cfg.Forces(fl, f)
				kmax := maxAbs(k)
				worst := 0.0
				for i := range n {
					for j := range n {
						want := 0.0
						if a := i / 6; i/3 == j/3 && i%6 >= 3 {
							sk := geom.Skew(V{f[6*a+3], f[6*a+4], f[6*a+5]})
							want = -sk[i%3][j%3]
						}
						worst = math.Max(worst, math.Abs(k[i*n+j]-k[j*n+i]-want))
					}
				}
				t.Logf("max |K − Kᵀ + [m]ₓ| = %.2g of max |K| %.3g", worst, kmax)
				if !(worst <= 1e-13*kmax) {
					t.Errorf("skew part of K is not −[m]ₓ at the spins: off by %.3g", worst)
				}
			})
		}
	}
}

// TestCorotShellEquilibrium: the global forces of any local forces have
// zero resultant force and zero resultant moment in the current
// configuration (the projector's purpose), so the element never creates
// load out of nothing.
func TestCorotShellEquilibrium(t *testing.T) {
	for _, sz := range shellSizes {
		c, x, _ := sampleShell(t, sz.n)
		for name, s := range shellStates(x) {
			t.Run(sz.name+"/"+name, func(t *testing.T) {
				cfg := configureShell(t, &c, s)
				n := 6 * sz.n
				fl := localForces(&cfg, nil)
				f := make([]float64, n)
				cfg.Forces(fl, f)
				var force, moment V
				for a := range sz.n {
					fa, ma := V{f[6*a], f[6*a+1], f[6*a+2]}, V{f[6*a+3], f[6*a+4], f[6*a+5]}
					force = force.Add(fa)
					moment = moment.Add(x[a].Add(s.u[a]).Cross(fa)).Add(ma)
				}
				if !(force.Norm() <= 1e-12*maxAbs(fl)) || !(moment.Norm() <= 1e-11*maxAbs(fl)) {
					t.Errorf("resultant force %v, moment %v", force, moment)
				}
			})
		}
	}
}

// TestCorotShellErrors: bad input is refused with ErrCorotGeometry.
func TestCorotShellErrors(t *testing.T) {
	good := []V{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}
	if _, err := transform.NewCorotShell(good[:2], geom.Identity); !errors.Is(err, transform.ErrCorotGeometry) {
		t.Errorf("two corners: %v", err)
	}
	if _, err := transform.NewCorotShell([]V{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, geom.Identity); !errors.Is(err, transform.ErrCorotGeometry) {
		t.Errorf("collinear corners: %v", err)
	}
	if _, err := transform.NewCorotShell(good, geom.Rotation{{1, 0, 0}, {0, 1, 0}, {0, 0, -1}}); !errors.Is(err, transform.ErrCorotGeometry) {
		t.Errorf("left-handed axes: %v", err)
	}
	c, err := transform.NewCorotShell(good, geom.Identity)
	if err != nil {
		t.Fatal(err)
	}
	s := identityState(4)
	s.u[2] = V{-1, -1, 0} // corner 3 onto corner 1: no normal
	var cfg transform.CorotShellConfig
	if err := c.Configure(s.u, s.rot, &cfg); !errors.Is(err, transform.ErrCorotGeometry) {
		t.Errorf("collapsed diagonal: %v", err)
	}
	s = identityState(4)
	s.u[1][0] = math.NaN()
	if err := c.Configure(s.u, s.rot, &cfg); !errors.Is(err, transform.ErrCorotGeometry) {
		t.Errorf("NaN translation: %v", err)
	}
	if err := c.Configure(s.u[:3], s.rot, &cfg); !errors.Is(err, transform.ErrCorotGeometry) {
		t.Errorf("three translations for four corners: %v", err)
	}
}
