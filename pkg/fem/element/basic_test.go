package element_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/element"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// The basic stiffness against FrameStiffness: the natural-mode
// decomposition k = Γᵀ·kb·Γ of a frame member (Argyris' natural modes;
// de Souza 2000, PhD thesis UC Berkeley, ch. 3; Przemieniecki 1968, §5.6 for
// the Timoshenko terms) must hold exactly, and so must its consequence for
// the co-rotational element: at the initial state the global tangent is the
// rotated linear stiffness.

// linearBasic returns Γ, the 6×12 linear compatibility matrix from the
// local end displacements (package element DOF order) to the basic
// deformations of package transform: the end rotations less the chord
// rotation, rz − (uyB − uyA)/L and ry + (uzB − uzA)/L (ry = −dw/dx).
func linearBasic(L float64) [transform.BasicDOF][12]float64 {
	var g [transform.BasicDOF][12]float64
	g[transform.BasicAxial][0], g[transform.BasicAxial][6] = -1, 1
	g[transform.BasicTwist][3], g[transform.BasicTwist][9] = -1, 1
	for _, r := range []int{transform.BasicRzA, transform.BasicRzB} {
		g[r][1], g[r][7] = 1/L, -1/L
	}
	for _, r := range []int{transform.BasicRyA, transform.BasicRyB} {
		g[r][2], g[r][8] = -1/L, 1/L
	}
	g[transform.BasicRzA][5], g[transform.BasicRzB][11] = 1, 1
	g[transform.BasicRyA][4], g[transform.BasicRyB][10] = 1, 1
	return g
}

// maxAbs returns the largest |x| of s.
func maxAbs(s []float64) float64 {
	m := 0.0
	for _, x := range s {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// TestFrameBasicStiffnessProjection: Γᵀ·kb·Γ = FrameStiffness to round-off,
// with and without shear deformation, and kb is symmetric.
func TestFrameBasicStiffnessProjection(t *testing.T) {
	for _, shear := range []bool{false, true} {
		t.Run(fmt.Sprintf("shear=%v", shear), func(t *testing.T) {
			p := sample(shear)
			kb := make([]float64, 36)
			element.FrameBasicStiffness(p, kb)
			for i := range 6 {
				for j := range 6 {
					if kb[i*6+j] != kb[j*6+i] {
						t.Errorf("kb not symmetric at %d,%d", i, j)
					}
				}
			}
			k := make([]float64, 144)
			element.FrameStiffness(p, k)
			g := linearBasic(p.L)
			tol := 1e-14 * maxAbs(k)
			for i := range 12 {
				for j := range 12 {
					s := 0.0
					for r := range 6 {
						for c := range 6 {
							s += g[r][i] * kb[r*6+c] * g[c][j]
						}
					}
					if !(math.Abs(s-k[i*12+j]) <= tol) {
						t.Errorf("ΓᵀkbΓ[%d][%d] = %.17g, FrameStiffness %.17g", i, j, s, k[i*12+j])
					}
				}
			}
		})
	}
}

// TestCorotInitialTangentIsLinear: at the initial state (and zero basic
// forces) the co-rotational tangent Bᵀ·kb·B equals the rotated linear
// stiffness Tᵀ·k·T of FrameStiffness to round-off, for skew members with
// direction angles and shear deformation; and for a small displacement d
// the co-rotational end forces are k·d up to O(|d|²).
func TestCorotInitialTangentIsLinear(t *testing.T) {
	tests := []struct {
		name   string
		xa, xb geom.Vec3
		dir    geom.Direction
		vert   geom.Axis
		shear  bool
	}{
		{"along X", geom.Vec3{}, geom.Vec3{2.5, 0, 0}, geom.Direction{}, geom.YAxis, false},
		{"skew, angle, shear", geom.Vec3{0.3, -1, 2}, geom.Vec3{1.8, 0.7, 1.1}, geom.Direction{Angle: 0.6}, geom.ZAxis, true},
		{"vertical, shear", geom.Vec3{1, 1, 0}, geom.Vec3{1, 1, 3}, geom.Direction{Angle: -1.1}, geom.ZAxis, true},
		{"direction node", geom.Vec3{0, 0, 0}, geom.Vec3{-1, 2, -2}, geom.Direction{Kind: geom.DirectionNode, Node: geom.Vec3{5, 0, 1}}, geom.YAxis, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r0, err := geom.LocalAxes(tc.xa, tc.xb, tc.dir, tc.vert)
			if err != nil {
				t.Fatal(err)
			}
			c, err := transform.NewCorot(tc.xa, tc.xb, r0)
			if err != nil {
				t.Fatal(err)
			}
			p := sample(tc.shear)
			p.L = c.L0()
			kb := make([]float64, 36)
			element.FrameBasicStiffness(p, kb)
			klin := make([]float64, 144)
			element.FrameStiffness(p, klin)
			transform.ToGlobalMatrix(r0, 12, klin, klin)

			var cfg transform.CorotConfig
			id := [2]geom.Rotation{geom.Identity, geom.Identity}
			if err := c.Configure([2]geom.Vec3{}, id, &cfg); err != nil {
				t.Fatal(err)
			}
			k := make([]float64, 144)
			cfg.Tangent(cfg.Basic(), kb, k)
			kmax := maxAbs(klin)
			worst := 0.0
			for i := range k {
				if e := math.Abs(k[i]-klin[i]) / kmax; !(e <= worst) {
					worst = e
				}
			}
			t.Logf("max |K_corot − TᵀkT| / max|k| = %.2g", worst)
			if !(worst <= 1e-14) {
				t.Errorf("initial tangent differs from the linear stiffness by %.3g (relative)", worst)
			}

			// Small displacement: f(εd̂) = K·εd̂ + O(ε²).
			const eps = 1e-7
			dhat := []float64{0.3, -0.1, 0.2, 0.5, -0.4, 0.1, -0.2, 0.4, 0.1, -0.3, 0.2, 0.6}
			var u [2]geom.Vec3
			var rot [2]geom.Rotation
			for n := range 2 {
				for j := range 3 {
					u[n][j] = eps * dhat[6*n+j]
				}
				rot[n] = geom.ExpMap(geom.Vec3{dhat[6*n+3], dhat[6*n+4], dhat[6*n+5]}.Scale(eps))
			}
			if err := c.Configure(u, rot, &cfg); err != nil {
				t.Fatal(err)
			}
			v := cfg.Basic()
			var q [transform.BasicDOF]float64
			for i := range q {
				for j := range q {
					q[i] += kb[i*6+j] * v[j]
				}
			}
			f := make([]float64, 12)
			cfg.Forces(q, f)
			want := matVec(klin, dhat)
			fmax := eps * maxAbs(want)
			for i := range f {
				if e := math.Abs(f[i]-eps*want[i]) / fmax; !(e <= 1e-5) {
					t.Errorf("f[%d] = %.10g, linear %.10g (relative %.2g)", i, f[i], eps*want[i], e)
				}
			}
		})
	}
}
