package sparse

import (
	"context"
	"math/rand/v2"
	"testing"
)

// laplace3D returns the 7-point Laplacian on an nx×ny×nz grid with b DOFs
// per grid point (coupled by a dense SPD 6×6-like block), shifted by shift·I:
// an SPD (shift > −λmin) or indefinite model of a 3-D FE pattern.
func laplace3D(t testing.TB, nx, ny, nz, b int, shift float64) *SymMatrix {
	t.Helper()
	id := func(x, y, z int) int { return (x + nx*(y+ny*z)) * b }
	var ri, ci []int
	var v []float64
	add := func(i, j int, val float64) { ri = append(ri, i); ci = append(ci, j); v = append(v, val) }
	for z := 0; z < nz; z++ {
		for y := 0; y < ny; y++ {
			for x := 0; x < nx; x++ {
				p := id(x, y, z)
				for a := 0; a < b; a++ {
					add(p+a, p+a, 6+shift+0.1*float64(a))
					for c := 0; c < a; c++ {
						add(p+a, p+c, 0.05)
					}
				}
				nb := [][3]int{{x + 1, y, z}, {x, y + 1, z}, {x, y, z + 1}}
				for _, q := range nb {
					if q[0] < nx && q[1] < ny && q[2] < nz {
						o := id(q[0], q[1], q[2])
						for a := 0; a < b; a++ {
							for c := 0; c < b; c++ {
								val := 0.0
								if a == c {
									val = -1
								} else if (a+c)%3 == 0 {
									val = 0.01
								}
								add(o+a, p+c, val)
							}
						}
					}
				}
			}
		}
	}
	m, err := FromCOO(nx*ny*nz*b, ri, ci, v)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// randomSym returns a random symmetric matrix with the given density; with
// spd the diagonal dominates so it is positive definite.
func randomSym(t testing.TB, r *rand.Rand, n int, density float64, spd bool) *SymMatrix {
	t.Helper()
	var ri, ci []int
	var v []float64
	rowsum := make([]float64, n)
	for j := 0; j < n; j++ {
		for i := j + 1; i < n; i++ {
			if r.Float64() < density {
				x := r.Float64()*2 - 1
				ri, ci, v = append(ri, i), append(ci, j), append(v, x)
				rowsum[i] += abs(x)
				rowsum[j] += abs(x)
			}
		}
	}
	for i := 0; i < n; i++ {
		d := r.Float64()*4 - 2
		if spd {
			d = rowsum[i] + 0.5 + r.Float64()
		} else if abs(d) < 0.3 {
			d += 0.6 // keep pivots away from zero for the unpivoted LDLᵀ
		}
		ri, ci, v = append(ri, i), append(ci, i), append(v, d)
	}
	m, err := FromCOO(n, ri, ci, v)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// factorize analyses and factors a, failing the test on error.
func factorize(t testing.TB, a *SymMatrix, opt AnalyzeOptions) *Factor {
	t.Helper()
	return factorizeWith(t, a, opt, FactorOptions{})
}

// factorizeWith is factorize with factor options (the kernels under test).
func factorizeWith(t testing.TB, a *SymMatrix, opt AnalyzeOptions, fopt FactorOptions) *Factor {
	t.Helper()
	sym, err := Analyze(a.Pat, opt)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Factorize(context.Background(), sym, a, fopt)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func randVec(r *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = r.Float64()*2 - 1
	}
	return x
}
