package nonlinear_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
)

// The benchmark strip of Sze, Liu & Lo, "Popular benchmark problems for
// geometric nonlinear analysis of shells", Finite Elem. Anal. Des. 40
// (2004) 1551–1569: a cantilever strip of width b = 1 and thickness
// h = 0.1, E = 1.2e6, ν = 0, so EI = E·b·h³/12 = 100.
const (
	stripB  = 1.0
	stripH  = 0.1
	stripE  = 1.2e6
	stripEI = stripE * stripB * stripH * stripH * stripH / 12
)

// stripMesh selects the plates of a strip model: quads or triangles
// (each quad split along its diagonal from corner 1 to corner 3), and the
// bending theory.
type stripMesh struct {
	name    string
	tri     bool
	mindlin bool
	// twist bounds how far apart the two tip corners move, over L. The
	// quad meshes are symmetric about the strip's axis, so their tip
	// corners move together to round-off. The triangle meshes are not
	// (every quad is split along the same diagonal), and their discrete
	// answer twists a little: up to 7.6e-5·L in these tests, falling as
	// h² (2.3e-5·L on 8, 6.5e-6·L on 16 elements at θ = π/2).
	twist float64
}

// stripMeshes are the four element kinds of the shell package: DKQ, DKT,
// MITC4 and MITC3.
var stripMeshes = []stripMesh{
	{"DKQ", false, false, 1e-6}, {"DKT", true, false, 1e-4},
	{"MITC4", false, true, 1e-6}, {"MITC3", true, true, 1e-4},
}

// stripID is the id of node i along the strip on edge j (y = j·b):
// 1000j + i + 1.
func stripID(i, j int) int64 { return int64(1000*j + i + 1) }

// stripModel returns the strip of length L along +X in the X-Y plane on
// ne elements along its length and one across, clamped at x = 0, with
// the node load f (global axes) on each of the two tip corners, case 1.
// Quad i is plate i+1; the triangles of cell i are plates 2i+1 and 2i+2.
// ν = 0 is G = E/2.
func stripModel(L float64, ne int, mesh stripMesh, f [6]float64) *domain.Model {
	m := &domain.Model{
		Materials: []domain.Material{{ID: 1, E: stripE, G: stripE / 2}},
		Supports:  []domain.Support{{Node: stripID(0, 0), Code: "FFFFFF"}, {Node: stripID(0, 1), Code: "FFFFFF"}},
	}
	for j := range 2 {
		for i := 0; i <= ne; i++ {
			m.Nodes = append(m.Nodes, domain.Node{ID: stripID(i, j), X: L * float64(i) / float64(ne), Y: stripB * float64(j)})
		}
	}
	plate := func(id int64, nodes ...int64) {
		p := domain.Plate{ID: id, Nodes: nodes, Material: 1, Thickness: stripH}
		if mesh.mindlin {
			p.Theory = 1 // shell.Mindlin
		}
		m.Plates = append(m.Plates, p)
	}
	for i := range ne {
		a, b, c, d := stripID(i, 0), stripID(i+1, 0), stripID(i+1, 1), stripID(i, 1)
		if mesh.tri {
			plate(int64(2*i+1), a, b, c)
			plate(int64(2*i+2), a, c, d)
			continue
		}
		plate(int64(i+1), a, b, c, d)
	}
	m.LoadCases = []domain.LoadCase{{ID: 1, NodeLoads: []domain.NodeLoad{
		{Node: stripID(ne, 0), F: f}, {Node: stripID(ne, 1), F: f}}}}
	return m
}

// stripTip returns the mean position of the two tip corners of a strip
// result (the strip's axis at the tip) in the X-Z plane.
func stripTip(t *testing.T, res *nonlinear.Result, L float64, ne int, mesh stripMesh) (x, z float64) {
	t.Helper()
	a, b := res.Nodes[ne], res.Nodes[2*ne+1]
	if a.Node != stripID(ne, 0) || b.Node != stripID(ne, 1) {
		t.Fatalf("tip nodes %d, %d", a.Node, b.Node)
	}
	if d := a.Translation.Sub(b.Translation).Norm(); !(d <= mesh.twist*L) {
		t.Errorf("the tip corners move apart by %.3g L: the strip twists", d/L)
	}
	mid := a.Translation.Add(b.Translation).Scale(0.5)
	return L + mid[0], mid[2]
}

// TestShellStripEndMoment: the strip of length L = 12 clamped at one end
// under an end moment M (Sze et al. 2004, "cantilever subjected to end
// moment") bends into a circular arc of radius EI/M, turned by θ = ML/EI
// at the tip, u = L·(sin θ/θ − 1), w = L·(1 − cos θ)/θ; at
// M_max = 2π·EI/L = 50π/3 it rolls into a full circle. The moment is
// applied as equal node moments on the two tip corners, about −Y so that
// the strip curls up (+Z); about a fixed axis in a planar deformation it
// is conservative. The mesh is Sze et al.'s 16 × 1.
//
// The discrete answer is known exactly (as for the frame,
// TestCantileverEndMoment): in pure bending with ν = 0 each flat element
// keeps its length L/n and its sides turn by ±α/2 relative to it,
// α = θ/n, a state all four elements represent exactly (constant
// curvature, no membrane or shear strain), so the tip is at the end of
// the regular polygon of n chords L/n turned by α each. The tip is held
// to that polygon within 1e-7·L (the convergence tolerance; measured
// 1e-11·L or less, but 2.1e-7·L for DKT, whose nodal moments on the
// diagonals are not parallel to the rotations and so are turned by J⁻ᵀ
// unequally — see twist — held to 1e-6·L). The polygon's own distance
// from the circle, computed here (1.0e-3·L at θ = π; 0 at the full
// circle, where the polygon closes), bounds the distance from the closed
// form.
//
// The quads run to the full circle. The triangles stop at θ = π: their
// meshes, not symmetric about the strip's axis, excite the out-of-plane
// modes, and those converge at the rate ρ(K_s⁻¹·½[M]ₓ) of the symmetric
// tangent (package doc, "Solution"), measured 0.25 at M_max/2, 0.9 at
// 0.8·M_max and above 1 at M_max.
func TestShellStripEndMoment(t *testing.T) {
	const (
		L  = 12.0
		ne = 16
	)
	mMax := 2 * math.Pi * stripEI / L
	for _, mesh := range stripMeshes {
		levels := []float64{0.25, 0.5, 1}
		polyTol := 1e-7
		if mesh.tri {
			levels = levels[:2]
		}
		if mesh.name == "DKT" {
			polyTol = 1e-6
		}
		for _, frac := range levels {
			t.Run(fmt.Sprintf("%s/M=%.2gMmax", mesh.name, frac), func(t *testing.T) {
				mt := frac * mMax
				m := stripModel(L, ne, mesh, [6]float64{4: -mt / 2})
				res := analyze(t, m, nonlinear.Options{Steps: int(16 * frac), MaxIterations: 60, Tolerance: 1e-10})
				x, z := stripTip(t, res, L, ne, mesh)
				theta := mt * L / stripEI
				cu, cw := L*(math.Sin(theta)/theta-1), L*(1-math.Cos(theta))/theta
				alpha := theta / ne
				var px, pz float64
				for k := range ne {
					sn, cs := math.Sincos((float64(k) + 0.5) * alpha)
					px, pz = px+cs*L/ne, pz+sn*L/ne
				}
				errCircle := math.Hypot(x-L-cu, z-cw) / L
				errPoly := math.Hypot(x-px, z-pz) / L
				polyCircle := math.Hypot(px-L-cu, pz-cw) / L
				t.Logf("θ = %.4f: tip u = %.6f, w = %.6f (closed form %.6f, %.6f); |tip − circle|/L = %.2e (polygon vs circle %.2e), |tip − polygon|/L = %.2e; %d iterations, at most %d in a step",
					theta, x-L, z, cu, cw, errCircle, polyCircle, errPoly, len(res.History), iterationStats(res))
				if !(errPoly <= polyTol) {
					t.Errorf("tip (%.8g, %.8g), polygon (%.8g, %.8g): %.3g L apart", x, z, px, pz, errPoly)
				}
				if !(errCircle <= polyCircle+polyTol) {
					t.Errorf("tip %.3g L from the closed form, more than the polygon's %.3g L", errCircle, polyCircle)
				}
				if frac == 1 && !(math.Hypot(x, z) <= 1e-7*L) {
					t.Errorf("at M_max the tip is at (%.3g, %.3g), not back at the base", x, z)
				}
				// The base reaction balances the applied moment.
				if r := res.Nodes[0].Reaction[4] + res.Nodes[ne+1].Reaction[4]; !near(r, mt, 1e-6*mt) {
					t.Errorf("base reaction My = %g, want %g", r, mt)
				}
			})
		}
	}
}

// elastica returns the tip position (x, z) of the inextensible elastica
// of length L clamped at s = 0 and loaded at its free end by a force P
// normal to its initial axis (+z), flexural rigidity ei: EI·θ” = −P·cos θ,
// θ(0) = 0, θ'(L) = 0 (Mattiasson, "Numerical results from large
// deflection beam and frame problems analysed by means of elliptic
// integrals", Int. J. Numer. Methods Eng. 17 (1981) 145–153, whose
// elliptic-integral tables it reproduces: at PL²/EI = 4,
// x/L = 0.67106, z/L = 0.66996 — Mattiasson's 1 − u/L with u/L = 0.32894,
// and w/L). It
// shoots on the base curvature θ'(0) by bisection, with RK4 on 4000
// steps: error about 1e-13, far below the tolerances that use it.
func elastica(L, ei, p float64) (x, z float64) {
	const steps = 4000
	h := L / steps
	run := func(k0 float64) (kL, x, z float64) {
		// y = (θ, θ', x, z); y' = (θ', −P·cos θ/EI, cos θ, sin θ).
		f := func(y [4]float64) [4]float64 {
			return [4]float64{y[1], -p * math.Cos(y[0]) / ei, math.Cos(y[0]), math.Sin(y[0])}
		}
		y := [4]float64{0, k0, 0, 0}
		for range steps {
			k1 := f(y)
			var y2, y3, y4 [4]float64
			for i := range y {
				y2[i] = y[i] + h/2*k1[i]
			}
			k2 := f(y2)
			for i := range y {
				y3[i] = y[i] + h/2*k2[i]
			}
			k3 := f(y3)
			for i := range y {
				y4[i] = y[i] + h*k3[i]
			}
			k4 := f(y4)
			for i := range y {
				y[i] += h / 6 * (k1[i] + 2*k2[i] + 2*k3[i] + k4[i])
			}
		}
		return y[1], y[2], y[3]
	}
	// θ'(L) = θ'(0) − ∫P·cos θ/EI ds is negative at θ'(0) = 0 and not
	// negative at θ'(0) = PL/EI (cos θ ≤ 1), the bracket of the bisection.
	lo, hi := 0.0, p*L/ei
	for range 60 {
		mid := (lo + hi) / 2
		if kL, _, _ := run(mid); kL < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	_, x, z = run((lo + hi) / 2)
	return x, z
}

// TestShellStripEndShear: the strip of length L = 10 clamped at one end
// under a transverse end force P (Sze et al. 2004, "cantilever subjected
// to end shear force", P_max = 4, P_max·L²/EI = 4), the force staying
// along +Z, split equally on the two tip corners. The tip is compared
// with the elastica (elastica above, Mattiasson 1981) at P = P_max/2 and
// P_max. With 16 elements along the length (Sze et al.'s mesh) the tip
// is held within 1e-3·L of the elastica, the discretisation error of
// flat facets on this mesh (measured 1.3e-4·L to 4.5e-4·L over the four
// elements; the residual tolerance 1e-8 adds nothing visible). The
// triangles twist a little (see stripMesh).
func TestShellStripEndShear(t *testing.T) {
	const (
		L    = 10.0
		ne   = 16
		pMax = 4.0
	)
	if x, z := elastica(L, stripEI, pMax); !near(x/L, 0.67106, 5e-6) || !near(z/L, 0.66996, 5e-6) {
		t.Fatalf("elastica at PL²/EI = 4: x/L = %.5f, z/L = %.5f, Mattiasson 0.67106, 0.66996", x/L, z/L)
	}
	for _, mesh := range stripMeshes {
		for _, lv := range []struct {
			frac  float64
			steps int
		}{{0.5, 5}, {1, 10}} {
			t.Run(fmt.Sprintf("%s/P=%.2gPmax", mesh.name, lv.frac), func(t *testing.T) {
				p := lv.frac * pMax
				res := analyze(t, stripModel(L, ne, mesh, [6]float64{2: p / 2}),
					nonlinear.Options{Steps: lv.steps, MaxIterations: 50, Tolerance: 1e-8})
				x, z := stripTip(t, res, L, ne, mesh)
				ex, ez := elastica(L, stripEI, p)
				e := math.Hypot(x-ex, z-ez) / L
				t.Logf("PL²/EI = %.1f: tip u = %.5f, w = %.5f; elastica %.5f, %.5f; |tip − elastica|/L = %.2e; %d iterations, at most %d in a step",
					p*L*L/stripEI, x-L, z, ex-L, ez, e, len(res.History), iterationStats(res))
				if !(e <= 1e-3) {
					t.Errorf("tip (%.6g, %.6g), elastica (%.6g, %.6g): %.3g L apart", x, z, ex, ez, e)
				}
			})
		}
	}
}
