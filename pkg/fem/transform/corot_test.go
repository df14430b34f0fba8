package transform_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// Tests of the co-rotational transform: rigid-body invariance (Crisfield,
// Non-linear FE Analysis of Solids and Structures vol. 2, 1997, ch. 17: the
// basic deformations must not see rigid motion), exact deformation modes,
// equilibrium of the end forces, and the consistency of B and of the
// tangent with central differences (the acceptance of the issue: relative
// error below 1e-6 at a deformed, non-equilibrium state with large
// rotations). The comparison with the linear frame stiffness and the
// Newton analyses are in package element, which owns the stiffness.

// corotState is a trial state of one element: end translations and node
// turning matrices.
type corotState struct {
	u   [2]V
	rot [2]geom.Rotation
}

// sampleCorot is a skew member with a direction angle, so that no local
// axis is a global one and swapped components show up.
func sampleCorot(t *testing.T) (transform.Corot, V, V) {
	t.Helper()
	xa, xb := V{0.4, -0.3, 1.1}, V{2.1, 0.9, 0.2}
	r0, err := geom.LocalAxes(xa, xb, geom.Direction{Angle: 0.35}, geom.ZAxis)
	if err != nil {
		t.Fatal(err)
	}
	c, err := transform.NewCorot(xa, xb, r0)
	if err != nil {
		t.Fatal(err)
	}
	return c, xa, xb
}

// rigid returns the state of a rigid motion x → R·x + d of the element
// whose initial ends are xa, xb, superposed on the deformation def (end
// translations and node rotations applied before the rigid motion).
func rigid(xa, xb V, r geom.Rotation, d V, def corotState) corotState {
	var s corotState
	for i, x := range [2]V{xa, xb} {
		s.u[i] = r.Apply(x.Add(def.u[i])).Add(d).Sub(x)
		rd := def.rot[i]
		if rd == (geom.Rotation{}) {
			rd = geom.Identity
		}
		s.rot[i] = r.Mul(rd)
	}
	return s
}

// deformed is a non-equilibrium state with end rotations of 0.3–0.6 rad
// relative to the chord and a 6 % stretch.
var deformed = corotState{
	u:   [2]V{{0.01, -0.02, 0.03}, {-0.05, 0.12, 0.07}},
	rot: [2]geom.Rotation{geom.ExpMap(V{0.3, -0.2, 0.5}), geom.ExpMap(V{-0.4, 0.6, 0.25})},
}

// axis100 is a 100° turn about an axis that is not a coordinate axis.
var axis100 = geom.ExpMap(V{1, -2, 0.5}.Scale(100 * math.Pi / 180 / math.Sqrt(5.25)))

// sampleKb is a generic basic tangent: SPD with couplings between all
// modes, so that no term of Bᵀ·kb·B is hidden by a zero.
var sampleKb = []float64{
	90, 1, 2, -1, 3, 0.5,
	1, 6, 0.2, 0.1, -0.3, 0.2,
	2, 0.2, 8, 3, 0.4, 0.1,
	-1, 0.1, 3, 7, 0.2, -0.2,
	3, -0.3, 0.4, 0.2, 12, 5,
	0.5, 0.2, 0.1, -0.2, 5, 10,
}

// configure fails the test if the state has no element frame.
func configure(t *testing.T, c *transform.Corot, s corotState) transform.CorotConfig {
	t.Helper()
	var cfg transform.CorotConfig
	if err := c.Configure(s.u, s.rot, &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestCorotRigidBody: a large translation plus a large rotation (100° about
// a skew axis, and others) applied to both nodes consistently leaves the
// basic deformations zero, so the forces of any kb vanish; applied to a
// deformed state it leaves v unchanged and turns the forces with it.
func TestCorotRigidBody(t *testing.T) {
	c, xa, xb := sampleCorot(t)
	tests := []struct {
		name string
		r    geom.Rotation
		d    V
	}{
		{"translation", geom.Identity, V{30, -12, 7}},
		{"100° skew axis + translation", axis100, V{-25, 40, 3}},
		{"170° about z", geom.ExpMap(V{0, 0, 170 * math.Pi / 180}), V{1, 2, 3}},
		{"180° about the member", geom.ExpMap(xb.Sub(xa).Scale(math.Pi / xb.Sub(xa).Norm())), V{}},
		{"composed turns", geom.ExpMap(V{2, 0.1, -1}).Mul(geom.ExpMap(V{0, -2.5, 0.3})), V{0, 0, -100}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := configure(t, &c, rigid(xa, xb, tc.r, tc.d, corotState{}))
			v := cfg.Basic()
			for i, x := range v {
				if !(math.Abs(x) <= 1e-14) {
					t.Errorf("v[%d] = %.3g, want 0", i, x)
				}
			}
			var q [transform.BasicDOF]float64
			for i := range q {
				for j := range q {
					q[i] += sampleKb[i*6+j] * v[j]
				}
			}
			f := make([]float64, 12)
			cfg.Forces(q, f)
			for i, x := range f {
				if !(math.Abs(x) <= 1e-12) {
					t.Errorf("f[%d] = %.3g, want 0", i, x)
				}
			}
			// Objectivity: the same rigid motion on a deformed state.
			ref := configure(t, &c, rigid(xa, xb, geom.Identity, V{}, deformed))
			moved := configure(t, &c, rigid(xa, xb, tc.r, tc.d, deformed))
			v0, v1 := ref.Basic(), moved.Basic()
			for i := range v0 {
				if !(math.Abs(v1[i]-v0[i]) <= 1e-14) {
					t.Errorf("deformed: v[%d] = %.17g, unmoved %.17g", i, v1[i], v0[i])
				}
			}
			qd := [transform.BasicDOF]float64{50, -3, 7, 2, -4, 6}
			f0, f1 := make([]float64, 12), make([]float64, 12)
			ref.Forces(qd, f0)
			moved.Forces(qd, f1)
			transform.ToGlobalVector(tc.r.Transpose(), f0, f0) // f0 turned by R
			for i := range f0 {
				if !(math.Abs(f1[i]-f0[i]) <= 1e-12) {
					t.Errorf("deformed: f[%d] = %.15g, turned unmoved %.15g", i, f1[i], f0[i])
				}
			}
		})
	}
}

// TestCorotExactModes: single end rotations and a relative twist of the
// size of a radian are read back exactly (they are exact rotations of an
// end triad relative to an unmoved element frame; for the twist the frame
// turns by half of it about the chord), and a stretch gives Ln − L0.
func TestCorotExactModes(t *testing.T) {
	c, xa, xb := sampleCorot(t)
	r0, _ := geom.LocalAxes(xa, xb, geom.Direction{Angle: 0.35}, geom.ZAxis)
	turn := func(axis V, a float64) geom.Rotation { return geom.ExpMap(axis.Scale(a)) }
	tests := []struct {
		name string
		s    corotState
		want [transform.BasicDOF]float64
	}{
		{"θz at B", corotState{rot: [2]geom.Rotation{geom.Identity, turn(r0.Z(), 1.2)}},
			[transform.BasicDOF]float64{transform.BasicRzB: 1.2}},
		{"θy at A", corotState{rot: [2]geom.Rotation{turn(r0.Y(), -0.9), geom.Identity}},
			[transform.BasicDOF]float64{transform.BasicRyA: -0.9}},
		{"twist", corotState{rot: [2]geom.Rotation{turn(r0.X(), -0.7), turn(r0.X(), 1.8)}},
			[transform.BasicDOF]float64{transform.BasicTwist: 2.5}},
		{"stretch", corotState{u: [2]V{r0.X().Scale(-0.2), r0.X().Scale(0.5)}, rot: [2]geom.Rotation{geom.Identity, geom.Identity}},
			[transform.BasicDOF]float64{transform.BasicAxial: 0.7}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := configure(t, &c, tc.s)
			got := cfg.Basic()
			for i := range got {
				if !(math.Abs(got[i]-tc.want[i]) <= 1e-14) {
					t.Errorf("v[%d] = %.17g, want %g", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// TestCorotInitialB: at the initial state B is the linear compatibility
// matrix of the frame in local axes (package element DOF order), turned to
// global: ε = uxB − uxA, φ = rxB − rxA, θz(A) = rzA − (uyB − uyA)/L,
// θy(A) = ryA + (uzB − uzA)/L (ry = −dw/dx), and likewise at B.
func TestCorotInitialB(t *testing.T) {
	c, xa, xb := sampleCorot(t)
	r0, _ := geom.LocalAxes(xa, xb, geom.Direction{Angle: 0.35}, geom.ZAxis)
	L := c.L0()
	var bl [6][12]float64
	bl[transform.BasicAxial][0], bl[transform.BasicAxial][6] = -1, 1
	bl[transform.BasicTwist][3], bl[transform.BasicTwist][9] = -1, 1
	for _, r := range []int{transform.BasicRzA, transform.BasicRzB} {
		bl[r][1], bl[r][7] = 1/L, -1/L
	}
	bl[transform.BasicRzA][5], bl[transform.BasicRzB][11] = 1, 1
	for _, r := range []int{transform.BasicRyA, transform.BasicRyB} {
		bl[r][2], bl[r][8] = -1/L, 1/L
	}
	bl[transform.BasicRyA][4], bl[transform.BasicRyB][10] = 1, 1
	cfg := configure(t, &c, corotState{rot: [2]geom.Rotation{geom.Identity, geom.Identity}})
	b := make([]float64, 72)
	cfg.BasicMatrix(b)
	for r := range 6 {
		want := make([]float64, 12)
		transform.ToGlobalVector(r0, bl[r][:], want) // row·T = (Tᵀ·rowᵀ)ᵀ
		for j := range 12 {
			if !(math.Abs(b[r*12+j]-want[j]) <= 1e-15) {
				t.Errorf("B[%d][%d] = %.17g, want %.17g", r, j, b[r*12+j], want[j])
			}
		}
	}
}

// perturb returns s moved by h along global DOF j: translations are added,
// a spin turns the node, rot ← exp(h·eⱼ)·rot (package doc).
func perturb(s corotState, j int, h float64) corotState {
	node, k := j/6, j%6
	if k < 3 {
		s.u[node][k] += h
		return s
	}
	var w V
	w[k-3] = h
	s.rot[node] = geom.ExpMap(w).Mul(s.rot[node])
	return s
}

// basicForces returns q = q0 + kb·v, a basic force with a prestress so that
// the geometric terms matter as much as the material ones.
func basicForces(v [transform.BasicDOF]float64, q0 [transform.BasicDOF]float64) [transform.BasicDOF]float64 {
	q := q0
	for i := range q {
		for j := range q {
			q[i] += sampleKb[i*6+j] * v[j]
		}
	}
	return q
}

// fdStates are deformed, non-equilibrium states with large rotations:
// rigid turns of 100° and more; end rotations of 2.5 and 1.95 rad relative
// to the element frame (the closed-form and the series branch of J⁻¹); and
// one close to the initial state.
func fdStates(xa, xb V) map[string]corotState {
	big := corotState{
		u:   [2]V{{0.1, -0.2, 0.05}, {-0.3, 0.25, 0.4}},
		rot: [2]geom.Rotation{geom.ExpMap(V{1.6, -1.3, 1.4}), geom.ExpMap(V{-0.8, 1.4, 0.6})},
	}
	small := corotState{
		u:   [2]V{{1e-4, -2e-4, 3e-4}, {-2e-4, 1e-4, 2e-4}},
		rot: [2]geom.Rotation{geom.ExpMap(V{1e-3, -2e-3, 5e-4}), geom.ExpMap(V{-7e-4, 3e-4, 1e-3})},
	}
	return map[string]corotState{
		"deformed, 100° rigid turn": rigid(xa, xb, axis100, V{3, -1, 2}, deformed),
		"large end rotations":       rigid(xa, xb, geom.ExpMap(V{0, 2.5, 0}), V{}, big),
		"near initial":              rigid(xa, xb, geom.Identity, V{}, small),
	}
}

// TestCorotTangentFD compares the tangent with central differences of the
// end forces f(d) = B(d)ᵀ·q(v(d)) along each of the 12 DOFs (translations
// added, spins through the exponential map), and B with differences of v.
func TestCorotTangentFD(t *testing.T) {
	c, xa, xb := sampleCorot(t)
	prestress := [transform.BasicDOF]float64{40, 5, -8, 6, 3, -9}
	for name, s := range fdStates(xa, xb) {
		for _, withKb := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/kb=%v", name, withKb), func(t *testing.T) {
				// q(d) = q0 + kb·v(d), or the constant q0 alone with kb = nil,
				// which leaves the geometric part Kσ(q0) by itself.
				kb := sampleKb
				if !withKb {
					kb = nil
				}
				qOf := func(cf *transform.CorotConfig) [transform.BasicDOF]float64 {
					if kb == nil {
						return prestress
					}
					return basicForces(cf.Basic(), prestress)
				}
				force := func(s corotState) []float64 {
					cf := configure(t, &c, s)
					f := make([]float64, 12)
					cf.Forces(qOf(&cf), f)
					return f
				}
				cfg := configure(t, &c, s)
				k := make([]float64, 144)
				cfg.Tangent(qOf(&cfg), kb, k)
				b := make([]float64, 72)
				cfg.BasicMatrix(b)
				// Each column (one DOF direction) is compared relative to its
				// own largest entry, so that columns of the spins and of the
				// translations are held to the same standard.
				worst, worstB := 0.0, 0.0
				const h = 1e-6
				for j := range 12 {
					fp, fm := force(perturb(s, j, h)), force(perturb(s, j, -h))
					col := make([]float64, 12)
					for i := range 12 {
						col[i] = k[i*12+j]
					}
					cmax := maxAbs(col)
					for i := range 12 {
						d := (fp[i] - fm[i]) / (2 * h)
						if e := math.Abs(k[i*12+j]-d) / cmax; !(e <= worst) {
							worst = e
						}
					}
					pc, mc := configure(t, &c, perturb(s, j, h)), configure(t, &c, perturb(s, j, -h))
					vp, vm := pc.Basic(), mc.Basic()
					for r := range 6 {
						d := (vp[r] - vm[r]) / (2 * h)
						if e := math.Abs(b[r*12+j] - d); !(e <= worstB) {
							worstB = e
						}
					}
				}
				t.Logf("max over columns |K − ΔF/Δd| / max|K column| = %.2g, max |B − Δv/Δd| = %.2g", worst, worstB)
				if !(worst <= 1e-6) {
					t.Errorf("tangent differs from central differences: relative error %.3g", worst)
				}
				if !(worstB <= 1e-8) {
					t.Errorf("B differs from central differences of v: %.3g", worstB)
				}
			})
		}
	}
}

// TestCorotForcesEquilibrium: the end forces of any basic forces have zero
// resultant force and zero resultant moment about the origin in the
// current configuration, so the element never creates load out of nothing.
func TestCorotForcesEquilibrium(t *testing.T) {
	c, xa, xb := sampleCorot(t)
	for name, s := range fdStates(xa, xb) {
		t.Run(name, func(t *testing.T) {
			cfg := configure(t, &c, s)
			f := make([]float64, 12)
			cfg.Forces([transform.BasicDOF]float64{40, 5, -8, 6, 3, -9}, f)
			fa, fb := V{f[0], f[1], f[2]}, V{f[6], f[7], f[8]}
			ma, mb := V{f[3], f[4], f[5]}, V{f[9], f[10], f[11]}
			x := [2]V{xa.Add(s.u[0]), xb.Add(s.u[1])}
			if r := fa.Add(fb); !(r.Norm() <= 1e-12) {
				t.Errorf("resultant force %v", r)
			}
			if m := x[0].Cross(fa).Add(x[1].Cross(fb)).Add(ma).Add(mb); !(m.Norm() <= 1e-12) {
				t.Errorf("resultant moment %v", m)
			}
		})
	}
}

// TestCorotErrors: degenerate input is reported with ErrCorotGeometry, and
// a CorotConfig left by a failed Configure cannot be used.
func TestCorotErrors(t *testing.T) {
	xa, xb := V{0, 0, 0}, V{2, 0, 0}
	r0, _ := geom.LocalAxes(xa, xb, geom.Direction{}, geom.YAxis)
	skewAxes := geom.Rotation{{1, 0, 0}, {0, 1, 0.1}, {0, 0, 1}}
	tests := []struct {
		name   string
		xa, xb V
		r0     geom.Rotation
	}{
		{"coincident ends", xa, xa, r0},
		{"x not along A→B", xa, V{0, 2, 0}, r0},
		{"not orthonormal", xa, xb, skewAxes},
		{"left-handed", xa, xb, geom.Rotation{{1, 0, 0}, {0, 0, 1}, {0, 1, 0}}},
		{"NaN end", xa, V{math.NaN(), 0, 0}, r0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := transform.NewCorot(tc.xa, tc.xb, tc.r0); !errors.Is(err, transform.ErrCorotGeometry) {
				t.Errorf("err = %v, want ErrCorotGeometry", err)
			}
		})
	}
	c, err := transform.NewCorot(xa, xb, r0)
	if err != nil {
		t.Fatal(err)
	}
	id := [2]geom.Rotation{geom.Identity, geom.Identity}
	states := []struct {
		name string
		u    [2]V
		rot  [2]geom.Rotation
	}{
		{"ends meet", [2]V{{}, {-2, 0, 0}}, id},
		{"mean y along the chord", [2]V{}, [2]geom.Rotation{geom.ExpMap(V{0, 0, -math.Pi / 2}), geom.ExpMap(V{0, 0, -math.Pi / 2})}},
		{"NaN translation", [2]V{{math.NaN(), 0, 0}, {}}, id},
	}
	for _, tc := range states {
		t.Run(tc.name, func(t *testing.T) {
			var cfg transform.CorotConfig
			if err := c.Configure(tc.u, tc.rot, &cfg); !errors.Is(err, transform.ErrCorotGeometry) {
				t.Fatalf("err = %v, want ErrCorotGeometry", err)
			}
			defer func() {
				if recover() == nil {
					t.Error("Basic on a failed configuration did not panic")
				}
			}()
			cfg.Basic()
		})
	}
	t.Run("zero Corot", func(t *testing.T) {
		var zero transform.Corot
		var cfg transform.CorotConfig
		if err := zero.Configure([2]V{}, id, &cfg); !errors.Is(err, transform.ErrCorotGeometry) {
			t.Errorf("err = %v, want ErrCorotGeometry", err)
		}
	})
}

// TestCorotTangentSkewPart: with a symmetric kb, the only unsymmetric part
// of the tangent is K − Kᵀ = −[mA]ₓ and −[mB]ₓ on the spin-spin blocks of
// the two ends, where m are the end moments of Forces (Simo & Vu-Quoc
// 1986: the spatial tangent is symmetric up to the skew part of the
// moments). Assembled, these add up to −[M]ₓ with M the resultant of the
// element end moments at a node, i.e. the applied moment at equilibrium:
// the global tangent is symmetric at an equilibrium under forces alone.
func TestCorotTangentSkewPart(t *testing.T) {
	c, xa, xb := sampleCorot(t)
	for name, s := range fdStates(xa, xb) {
		t.Run(name, func(t *testing.T) {
			cfg := configure(t, &c, s)
			q := basicForces(cfg.Basic(), [transform.BasicDOF]float64{40, 5, -8, 6, 3, -9})
			k, f := make([]float64, 144), make([]float64, 12)
			cfg.Tangent(q, sampleKb, k)
			cfg.Forces(q, f)
			kmax := maxAbs(k)
			for i := range 12 {
				for j := range 12 {
					want := 0.0
					if n := i / 6; i/3 == j/3 && i%6 >= 3 {
						sk := geom.Skew(V{f[6*n+3], f[6*n+4], f[6*n+5]})
						want = -sk[i%3][j%3]
					}
					if got := k[i*12+j] - k[j*12+i]; !(math.Abs(got-want) <= 1e-14*kmax) {
						t.Errorf("(K − Kᵀ)[%d][%d] = %.6g, want %.6g", i, j, got, want)
					}
				}
			}
		})
	}
}

// maxAbs returns the largest |x| of s.
func maxAbs(s []float64) float64 {
	m := 0.0
	for _, x := range s {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// TestCorotSmallStretch: an elongation of 1e-12 of a member far from the
// origin is read with full relative accuracy. Ln − L0 from the current end
// positions would lose it entirely: 1e-12 is below the spacing of float64
// numbers at coordinates of 1e4.
func TestCorotSmallStretch(t *testing.T) {
	xa, xb := V{1e4, -2e4, 3e3}, V{1e4 + 1.2, -2e4 + 0.9, 3e3 - 0.5}
	r0, err := geom.LocalAxes(xa, xb, geom.Direction{}, geom.YAxis)
	if err != nil {
		t.Fatal(err)
	}
	c, err := transform.NewCorot(xa, xb, r0)
	if err != nil {
		t.Fatal(err)
	}
	const d = 1e-12
	cfg := configure(t, &c, corotState{
		u:   [2]V{r0.X().Scale(-d / 2), r0.X().Scale(d / 2)},
		rot: [2]geom.Rotation{geom.Identity, geom.Identity},
	})
	if got := cfg.Basic()[transform.BasicAxial]; !(math.Abs(got-d) <= 1e-10*d) {
		t.Errorf("elongation %.17g, want %g", got, d)
	}
}
