package shell

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// kirProps is a steel-like plate; the element tests below compare numbers
// relative to the size of Db, so its scale is immaterial.
var kirProps = Props{E: 2.1e11, Nu: 0.3, Tm: 0.01, Tb: 0.01, Ts: 0.01}

// kirShapes are single elements of every kind the tests need: regular,
// irregular (a trapezoid-like quad with no parallel sides), a
// parallelogram, triangles acute and obtuse, and copies turned through
// odd angles and moved away from the origin, so that nothing relies on an
// edge being parallel to an axis.
func kirShapes() []struct {
	name string
	p    Plane
} {
	quad := Plane{N: 4, X: [4]float64{0, 2, 2.3, -0.2}, Y: [4]float64{0, 0.3, 1.6, 1.1}}
	tri := Plane{N: 3, X: [4]float64{0.1, 1.9, 0.6}, Y: [4]float64{-0.2, 0.4, 1.3}}
	return []struct {
		name string
		p    Plane
	}{
		{"unit square", Plane{N: 4, X: [4]float64{0, 1, 1, 0}, Y: [4]float64{0, 0, 1, 1}}},
		{"irregular quad", quad},
		{"irregular quad turned 37°", kirTurn(quad, 37*math.Pi/180, 5, -3)},
		{"parallelogram", Plane{N: 4, X: [4]float64{0, 1.5, 2.1, 0.6}, Y: [4]float64{0, 0, 0.8, 0.8}}},
		{"slender quad", Plane{N: 4, X: [4]float64{0, 3, 3.2, 0.1}, Y: [4]float64{0, 0.1, 0.7, 0.5}}},
		{"right triangle", Plane{N: 3, X: [4]float64{0, 1, 0}, Y: [4]float64{0, 0, 1}}},
		{"irregular triangle", tri},
		{"obtuse triangle turned 200°", kirTurn(Plane{N: 3, X: [4]float64{0, 2, 1.7}, Y: [4]float64{0, 0, 0.35}}, 200*math.Pi/180, -1, 2)},
		{"irregular triangle turned 121°", kirTurn(tri, 121*math.Pi/180, 0.5, 7)},
	}
}

// kirTurn returns p rotated by phi about the origin and moved by (dx, dy).
func kirTurn(p Plane, phi, dx, dy float64) Plane {
	c, s := math.Cos(phi), math.Sin(phi)
	q := Plane{N: p.N}
	for i := range p.N {
		q.X[i] = c*p.X[i] - s*p.Y[i] + dx
		q.Y[i] = s*p.X[i] + c*p.Y[i] + dy
	}
	return q
}

// kirField is the exact thin-plate field w = w0 + a·x + b·y +
// ½(A·x² + 2B·xy + C·y²) with its Kirchhoff rotations θx = w,y,
// θy = −w,x. Its curvatures are κ = (−A, −C, −2B) everywhere.
type kirField struct{ w0, a, b, A, B, C float64 }

func (f kirField) at(x, y float64) (w, tx, ty float64) {
	w = f.w0 + f.a*x + f.b*y + (f.A*x*x+2*f.B*x*y+f.C*y*y)/2
	return w, f.b + f.B*x + f.C*y, -(f.a + f.A*x + f.B*y)
}

func (f kirField) kappa() [3]float64 { return [3]float64{-f.A, -f.C, -2 * f.B} }

// dofs writes the element vector of f at the corners of p.
func (f kirField) dofs(p *Plane) []float64 {
	u := make([]float64, 3*p.N)
	for i := range p.N {
		u[3*i], u[3*i+1], u[3*i+2] = f.at(p.X[i], p.Y[i])
	}
	return u
}

// kirDense returns the 3N×3N stiffness of p as a gonum matrix.
func kirDense(t *testing.T, p *Plane, db *Mat3) *mat.Dense {
	t.Helper()
	if err := p.Check(); err != nil {
		t.Fatalf("shape: %v", err)
	}
	m := 3 * p.N
	k := make([]float64, m*m)
	KirchhoffBending(p, db, k)
	return mat.NewDense(m, m, k)
}

// kirClose fails unless |got − want| ≤ tol, NaN included.
func kirClose(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.15g, want %.15g ± %.3g (off by %.3g)", what, got, want, tol, got-want)
	}
}

// TestKirchhoffStiffnessSpectrum checks that k is symmetric and has
// exactly the three rigid-body modes of a plate in bending as its null
// space: w = a + b·x + c·y with θx = c, θy = −b bends nothing, and every
// other deformation costs energy (no spurious zero-energy modes, the
// failure of under-integrated plate elements).
func TestKirchhoffStiffnessSpectrum(t *testing.T) {
	db := kirProps.Db()
	for _, tc := range kirShapes() {
		t.Run(tc.name, func(t *testing.T) {
			k := kirDense(t, &tc.p, &db)
			m, _ := k.Dims()
			scale := mat.Norm(k, math.Inf(1))
			// Symmetry: Bᵀ·Db·B is symmetric term by term, so the only
			// asymmetry is the rounding of the sums, a few ulps of |k|.
			for i := range m {
				for j := range i {
					kirClose(t, fmt.Sprintf("k[%d][%d]−k[%d][%d]", i, j, j, i), k.At(i, j)-k.At(j, i), 0, 1e-14*scale)
				}
			}
			// Rigid modes: k·u is rounding only, ≤ 1e-13·|k|·|u|.
			for _, f := range []kirField{{w0: 1}, {a: 1}, {b: 1}, {w0: 0.3, a: -1.2, b: 0.7}} {
				u := mat.NewVecDense(m, f.dofs(&tc.p))
				var r mat.VecDense
				r.MulVec(k, u)
				for i := range m {
					kirClose(t, fmt.Sprintf("(k·u)[%d] for %+v", i, f), r.AtVec(i), 0, 1e-13*scale*mat.Norm(u, math.Inf(1)))
				}
			}
			sym := mat.NewSymDense(m, nil)
			for i := range m {
				for j := i; j < m; j++ {
					sym.SetSym(i, j, (k.At(i, j)+k.At(j, i))/2)
				}
			}
			var eig mat.EigenSym
			if !eig.Factorize(sym, false) {
				t.Fatal("EigenSym did not converge")
			}
			ev := eig.Values(nil) // ascending
			top := ev[m-1]
			// Zero to rounding: ≤ 1e-12 of the largest eigenvalue (the
			// observed values are ~1e-16). The rest must be clearly
			// positive; 1e-6 of the largest is far below the smallest
			// observed ratio (7e-4, the slender quad and the obtuse
			// triangle), far above rounding.
			for i, l := range ev {
				if i < 3 {
					kirClose(t, fmt.Sprintf("λ%d/λmax", i), l/top, 0, 1e-12)
				} else if !(l > 1e-6*top) {
					t.Errorf("λ%d/λmax = %.3g, want > 1e-6: a spurious mechanism", i, l/top)
				}
			}
		})
	}
}

// kirPoints are the natural points where the curvature tests look: the
// element's own Gauss points, its centroid, the corners and one point
// off any symmetry line.
func kirPoints(p *Plane) [][2]float64 {
	var pts [][2]float64
	for _, g := range p.Gauss() {
		pts = append(pts, [2]float64{g.Xi, g.Eta})
	}
	xi, eta := p.Centroid()
	pts = append(pts, [2]float64{xi, eta})
	if p.N == 3 {
		return append(pts, [2]float64{0, 0}, [2]float64{1, 0}, [2]float64{0, 1}, [2]float64{0.21, 0.57})
	}
	return append(pts, [2]float64{-1, -1}, [2]float64{1, -1}, [2]float64{1, 1}, [2]float64{-1, 1}, [2]float64{0.37, -0.81})
}

// TestKirchhoffConstantCurvature is the single-element patch test: a
// quadratic w is represented exactly by the DKT and DKQ (see the comment
// at the top of kirchhoff.go), so B·u is its curvature (−A, −C, −2B) everywhere in the
// element, the curvature gradient vanishes and the strain energy is
// ½·Area·κᵀ·Db·κ, i.e. uᵀ·k·u = Area·κᵀ·Db·κ.
func TestKirchhoffConstantCurvature(t *testing.T) {
	db := kirProps.Db()
	fields := []kirField{
		{A: 1},
		{C: 1},
		{B: 1},
		{w0: 0.2, a: -0.4, b: 1.1, A: 0.9, B: -0.35, C: 1.7},
	}
	for _, tc := range kirShapes() {
		for fi, f := range fields {
			t.Run(fmt.Sprintf("%s/field %d", tc.name, fi), func(t *testing.T) {
				p := &tc.p
				m := 3 * p.N
				u := f.dofs(p)
				want := f.kappa()
				ks := math.Max(math.Abs(f.A), math.Max(math.Abs(f.B), math.Abs(f.C)))
				b := make([]float64, 3*m)
				bx := make([]float64, 3*m)
				by := make([]float64, 3*m)
				for _, pt := range kirPoints(p) {
					KirchhoffCurvature(p, pt[0], pt[1], b)
					KirchhoffCurvatureGradient(p, pt[0], pt[1], bx, by)
					for r := range 3 {
						var kap, gx, gy float64
						for c := range m {
							kap += b[r*m+c] * u[c]
							gx += bx[r*m+c] * u[c]
							gy += by[r*m+c] * u[c]
						}
						// B·u cancels terms of the size of the corner
						// rotations over the element size, up to ~10·|κ|
						// for the moved elements; the error observed is
						// ≤ 4e-14·|κ|, so 1e-12·|κ| is rounding with a
						// margin.
						kirClose(t, fmt.Sprintf("κ%d at %v", r, pt), kap, want[r], 1e-12*ks)
						// One more 1/size for the gradient: 1e-11·|κ|
						// (observed ≤ 1.2e-13·|κ|).
						kirClose(t, fmt.Sprintf("∂κ%d/∂x at %v", r, pt), gx, 0, 1e-11*ks)
						kirClose(t, fmt.Sprintf("∂κ%d/∂y at %v", r, pt), gy, 0, 1e-11*ks)
					}
				}
				k := kirDense(t, p, &db)
				uv := mat.NewVecDense(m, u)
				got := mat.Inner(uv, k, uv)
				var energy float64
				for r := range 3 {
					for c := range 3 {
						energy += want[r] * db[r][c] * want[c]
					}
				}
				energy *= p.Area()
				// The quadrature of a constant is exact, so only rounding
				// is left; but uᵀ·k·u cancels terms far larger than the
				// result when the rigid part of u is large (the elements
				// moved away from the origin), so the tolerance is 1e-14
				// of the sum of the terms' sizes Σ|ui·kij·uj| (about 100
				// ulps of it), not of the result.
				var size float64
				for i := range m {
					for j := range m {
						size += math.Abs(u[i] * k.At(i, j) * u[j])
					}
				}
				kirClose(t, "uᵀ·k·u", got, energy, 1e-14*size)
			})
		}
	}
}

// TestKirchhoffCurvatureGradient checks the analytic second derivatives
// against central differences of KirchhoffCurvature in ξ and η, turned
// into x and y through the inverse Jacobian: ∂/∂x = J⁻¹₀₀∂/∂ξ + J⁻¹₀₁∂/∂η.
// The step h = 1e-5 leaves a truncation error of order h² times the
// third derivative of B (≈ 1e-10) and a rounding error of order
// 1e-16·|B|/h (≈ 1e-11), both relative to the largest entry; the largest
// difference observed is 2e-11 of it. So 1e-6 relative has a wide margin
// and still catches any wrong term, such as a dropped second derivative
// of the bilinear map.
func TestKirchhoffCurvatureGradient(t *testing.T) {
	const h = 1e-5
	for _, tc := range kirShapes() {
		t.Run(tc.name, func(t *testing.T) {
			p := &tc.p
			m := 3 * p.N
			bp, bm := make([]float64, 3*m), make([]float64, 3*m)
			dxi, deta := make([]float64, 3*m), make([]float64, 3*m)
			bx, by := make([]float64, 3*m), make([]float64, 3*m)
			for _, pt := range kirPoints(p) {
				xi, eta := pt[0], pt[1]
				KirchhoffCurvature(p, xi+h, eta, bp)
				KirchhoffCurvature(p, xi-h, eta, bm)
				for i := range bp {
					dxi[i] = (bp[i] - bm[i]) / (2 * h)
				}
				KirchhoffCurvature(p, xi, eta+h, bp)
				KirchhoffCurvature(p, xi, eta-h, bm)
				for i := range bp {
					deta[i] = (bp[i] - bm[i]) / (2 * h)
				}
				j := p.At(xi, eta)
				i00, i01 := j.J[1][1]/j.Det, -j.J[0][1]/j.Det
				i10, i11 := -j.J[1][0]/j.Det, j.J[0][0]/j.Det
				KirchhoffCurvatureGradient(p, xi, eta, bx, by)
				scale := 0.0
				for i := range bx {
					scale = math.Max(scale, math.Max(math.Abs(bx[i]), math.Abs(by[i])))
				}
				if !(scale > 0) {
					t.Fatalf("gradient at %v is zero or NaN", pt)
				}
				for i := range bx {
					kirClose(t, fmt.Sprintf("∂B/∂x[%d] at %v", i, pt), bx[i], i00*dxi[i]+i01*deta[i], 1e-6*scale)
					kirClose(t, fmt.Sprintf("∂B/∂y[%d] at %v", i, pt), by[i], i10*dxi[i]+i11*deta[i], 1e-6*scale)
				}
			}
		})
	}
}

// TestKirchhoffRotation checks that the element does not depend on the
// orientation of its local axes: turning the corners by φ turns the
// rotation vector (θx, θy) by φ and leaves w alone, so
// k(turned) = T·k·Tᵀ with T block-diagonal diag(1, R(φ)).
func TestKirchhoffRotation(t *testing.T) {
	db := kirProps.Db()
	for _, tc := range kirShapes() {
		t.Run(tc.name, func(t *testing.T) {
			phi := 0.83
			q := kirTurn(tc.p, phi, 0.4, -2.5)
			k0 := kirDense(t, &tc.p, &db)
			k1 := kirDense(t, &q, &db)
			m, _ := k0.Dims()
			tm := mat.NewDense(m, m, nil)
			c, s := math.Cos(phi), math.Sin(phi)
			for i := range tc.p.N {
				tm.Set(3*i, 3*i, 1)
				tm.Set(3*i+1, 3*i+1, c)
				tm.Set(3*i+1, 3*i+2, -s)
				tm.Set(3*i+2, 3*i+1, s)
				tm.Set(3*i+2, 3*i+2, c)
			}
			var want mat.Dense
			want.Product(tm, k0, tm.T())
			scale := mat.Norm(k0, math.Inf(1))
			for i := range m {
				for j := range m {
					// Same arithmetic in another frame: rounding, 1e-13·|k|.
					kirClose(t, fmt.Sprintf("k[%d][%d]", i, j), k1.At(i, j), want.At(i, j), 1e-13*scale)
				}
			}
		})
	}
}

// TestKirchhoffNoAlloc pins the hot-path promise: the element routines
// work in fixed-size arrays and the caller's buffers.
func TestKirchhoffNoAlloc(t *testing.T) {
	db := kirProps.Db()
	for _, tc := range kirShapes() {
		p := tc.p
		m := 3 * p.N
		k := make([]float64, m*m)
		b, bx, by := make([]float64, 3*m), make([]float64, 3*m), make([]float64, 3*m)
		n := testing.AllocsPerRun(20, func() {
			KirchhoffBending(&p, &db, k)
			KirchhoffCurvature(&p, 0.1, 0.2, b)
			KirchhoffCurvatureGradient(&p, 0.1, 0.2, bx, by)
		})
		if n != 0 {
			t.Errorf("%s: %v allocations per call, want 0", tc.name, n)
		}
	}
}
