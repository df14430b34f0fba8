package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// refUpdate is the textbook triple loop the packed kernels must reproduce.
func refUpdate(m, n, k int, a []float64, lda int, d []float64, b []float64, ldb int, c []float64, ldc int, lower bool) {
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			if lower && i < j {
				continue
			}
			s := 0.0
			for p := 0; p < k; p++ {
				dp := 1.0
				if d != nil {
					dp = d[p]
				}
				s += a[i+p*lda] * dp * b[j+p*ldb]
			}
			c[i+j*ldc] -= s
		}
	}
}

func randSlice(r *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = r.Float64()*2 - 1
	}
	return x
}

// TestUpdateMatchesReference runs every implementation this CPU supports
// (the pure-Go fallback always) on awkward shapes that exercise the edge
// tiles and the cache blocking, and compares with the triple loop.
func TestUpdateMatchesReference(t *testing.T) {
	shapes := []struct{ m, n, k int }{
		{1, 1, 1}, {7, 5, 3}, {16, 14, 1}, {17, 15, 9}, {33, 29, 300}, {300, 257, 70}, {450, 30, 513},
	}
	r := rand.New(rand.NewPCG(1, 2))
	prev := Current()
	defer Use(prev)
	for _, impl := range []Impl{ImplGeneric, ImplAVX2, ImplAVX512} {
		if !Supported(impl) {
			t.Logf("%v not supported here, skipped", impl)
			continue
		}
		for _, sh := range shapes {
			for _, lower := range []bool{false, true} {
				for _, scaled := range []bool{false, true} {
					name := fmt.Sprintf("%v/%dx%dx%d/lower=%v/d=%v", impl, sh.m, sh.n, sh.k, lower, scaled)
					t.Run(name, func(t *testing.T) {
						if _, err := Use(impl); err != nil {
							t.Fatal(err)
						}
						lda, ldb, ldc := sh.m+3, sh.n+1, sh.m+2
						a := randSlice(r, lda*sh.k)
						b := randSlice(r, ldb*sh.k)
						c := randSlice(r, ldc*sh.n)
						var d []float64
						if scaled {
							d = randSlice(r, sh.k)
						}
						want := append([]float64(nil), c...)
						refUpdate(sh.m, sh.n, sh.k, a, lda, d, b, ldb, want, ldc, lower)
						UpdateNTPar(sh.m, sh.n, sh.k, a, lda, d, b, ldb, c, ldc, lower, 2)
						for j := 0; j < sh.n; j++ {
							for i := 0; i < sh.m; i++ {
								if lower && i < j {
									continue
								}
								// Sums of k products of O(1) terms: allow
								// k·ε relative reassociation error.
								tol := 1e-15 * float64(sh.k+1) * 4
								if g, w := c[i+j*ldc], want[i+j*ldc]; math.Abs(g-w) > tol*(1+math.Abs(w)) {
									t.Fatalf("C(%d,%d) = %v, want %v", i, j, g, w)
								}
							}
							// Padding between columns must never be touched.
							for i := sh.m; i < ldc; i++ {
								if c[i+j*ldc] != want[i+j*ldc] {
									t.Fatalf("wrote outside C at (%d,%d)", i, j)
								}
							}
						}
					})
				}
			}
		}
	}
}

func TestAxpyDot(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 3, 4, 15, 16, 17, 67} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			x, y := randSlice(r, n), randSlice(r, n)
			y2 := append([]float64(nil), y...)
			AxpyNeg(0.7, x, y)
			axpyNegGeneric(0.7, x, y2)
			for i := range y {
				// FMA rounds once, the generic loop twice: one ulp-ish.
				if math.Abs(y[i]-y2[i]) > 1e-15 {
					t.Fatalf("axpy[%d] = %v want %v", i, y[i], y2[i])
				}
			}
			// Reassociated sum of n terms of size ≤ 1.
			if g, w := Dot(x, y), dotGeneric(x, y); math.Abs(g-w) > 1e-15*float64(n+1) {
				t.Fatalf("dot = %v want %v", g, w)
			}
		})
	}
}

// BenchmarkUpdate measures the kernel on a square rank-256 update.
func BenchmarkUpdate(b *testing.B) {
	for _, impl := range []Impl{ImplGeneric, ImplAVX2, ImplAVX512} {
		if !Supported(impl) {
			continue
		}
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%v/w%d", impl, workers), func(b *testing.B) {
				prev, _ := Use(impl)
				defer Use(prev)
				m, k := 2000, 256
				r := rand.New(rand.NewPCG(5, 6))
				a := randSlice(r, m*k)
				c := randSlice(r, m*m)
				for i := 0; i < b.N; i++ {
					UpdateNTPar(m, m, k, a, m, nil, a, m, c, m, false, workers)
				}
				b.ReportMetric(2*float64(m)*float64(m)*float64(k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
