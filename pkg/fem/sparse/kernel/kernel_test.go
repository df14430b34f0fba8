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
// tiles and the cache blocking, and compares with the triple loop. The
// overwrite form starts from a C full of NaN, which any read of it would
// carry into the result.
func TestUpdateMatchesReference(t *testing.T) {
	shapes := []struct{ m, n, k int }{
		{1, 1, 1}, {7, 5, 3}, {16, 14, 1}, {17, 15, 9}, {33, 29, 300}, {300, 257, 70}, {450, 30, 513},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, kn := range supported(t) {
		for _, sh := range shapes {
			for _, lower := range []bool{false, true} {
				for _, form := range []struct{ scaled, over bool }{{false, false}, {true, false}, {true, true}} {
					scaled, over := form.scaled, form.over
					name := fmt.Sprintf("%v/%dx%dx%d/lower=%v/d=%v/overwrite=%v", kn.Impl(), sh.m, sh.n, sh.k, lower, scaled, over)
					t.Run(name, func(t *testing.T) {
						lda, ldb, ldc := sh.m+3, sh.n+1, sh.m+2
						a := randSlice(r, lda*sh.k)
						b := randSlice(r, ldb*sh.k)
						c := randSlice(r, ldc*sh.n)
						var d []float64
						if scaled {
							d = randSlice(r, sh.k)
						}
						want := append([]float64(nil), c...)
						if over {
							for j := 0; j < sh.n; j++ {
								for i := 0; i < sh.m; i++ {
									want[i+j*ldc], c[i+j*ldc] = 0, math.NaN()
								}
							}
						}
						refUpdate(sh.m, sh.n, sh.k, a, lda, d, b, ldb, want, ldc, lower)
						if over {
							kn.OverwriteNTPar(sh.m, sh.n, sh.k, a, lda, d, b, ldb, c, ldc, lower, 2)
						} else {
							kn.UpdateNTPar(sh.m, sh.n, sh.k, a, lda, d, b, ldb, c, ldc, lower, 2)
						}
						for j := 0; j < sh.n; j++ {
							for i := 0; i < sh.m; i++ {
								if lower && i < j {
									continue
								}
								// Sums of k products of O(1) terms: allow
								// k·ε relative reassociation error.
								tol := 1e-15 * float64(sh.k+1) * 4
								if g, w := c[i+j*ldc], want[i+j*ldc]; !(math.Abs(g-w) <= tol*(1+math.Abs(w))) {
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

// TestAxpyDot compares the AXPY and DOT of every implementation this CPU
// supports with the portable loops, through both the methods and the
// functions they hand out.
func TestAxpyDot(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, kn := range supported(t) {
		for _, n := range []int{0, 1, 3, 4, 15, 16, 17, 67} {
			t.Run(fmt.Sprintf("%v/%d", kn.Impl(), n), func(t *testing.T) {
				x, y := randSlice(r, n), randSlice(r, n)
				y2 := append([]float64(nil), y...)
				y3 := append([]float64(nil), y...)
				kn.AxpyNeg(0.7, x, y)
				kn.AxpyNegFunc()(0.7, x, y3)
				axpyNegGeneric(0.7, x, y2)
				for i := range y {
					// FMA rounds once, the generic loop twice: one ulp-ish.
					if math.Abs(y[i]-y2[i]) > 1e-15 {
						t.Fatalf("axpy[%d] = %v want %v", i, y[i], y2[i])
					}
					if y3[i] != y[i] {
						t.Fatalf("AxpyNegFunc()[%d] = %v, AxpyNeg %v", i, y3[i], y[i])
					}
				}
				// Reassociated sum of n terms of size ≤ 1.
				if g, w := kn.Dot(x, y), dotGeneric(x, y); math.Abs(g-w) > 1e-15*float64(n+1) {
					t.Fatalf("dot = %v want %v", g, w)
				}
				if g, w := kn.DotFunc()(x, y), kn.Dot(x, y); g != w {
					t.Fatalf("DotFunc() = %v, Dot %v", g, w)
				}
			})
		}
	}
}

// allImpls lists every implementation, from the portable one to the widest.
var allImpls = []Impl{ImplGeneric, ImplAVX2, ImplAVX512}

// supported returns every implementation this machine runs, logging the
// others as skipped.
func supported(t *testing.T) []*Kernels {
	t.Helper()
	var out []*Kernels
	for _, impl := range allImpls {
		if !Supported(impl) {
			t.Logf("%v not supported here, skipped", impl)
			continue
		}
		kn, err := For(impl)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, kn)
	}
	return out
}

// TestBestIsWidest checks that Best picks the widest implementation this
// machine supports, and that the choice is the same on every call.
func TestBestIsWidest(t *testing.T) {
	want := ImplGeneric
	for _, impl := range allImpls {
		if Supported(impl) {
			want = impl
		}
	}
	if got := Best().Impl(); got != want {
		t.Fatalf("Best() = %v, want %v (the widest supported)", got, want)
	}
	// Each caller gets its own copy: overwriting one cannot change the
	// choice for the others.
	a := Best()
	*a = Kernels{}
	if got := Best().Impl(); got != want {
		t.Fatalf("after overwriting a copy, Best() = %v, want %v", got, want)
	}
	t.Logf("best kernels: %v", want)
}

// TestFor checks that For builds exactly the supported implementations and
// refuses the others, and that the zero Kernels is the portable one.
func TestFor(t *testing.T) {
	for _, impl := range allImpls {
		kn, err := For(impl)
		if !Supported(impl) {
			if err == nil {
				t.Errorf("For(%v) = %v, want an error on this CPU", impl, kn.Impl())
			}
			continue
		}
		if err != nil {
			t.Fatalf("For(%v): %v", impl, err)
		}
		if kn.Impl() != impl {
			t.Errorf("For(%v).Impl() = %v", impl, kn.Impl())
		}
	}
	for _, bad := range []Impl{-1, ImplAVX512 + 1} {
		if Supported(bad) {
			t.Errorf("Supported(%d) = true", int(bad))
		}
		if _, err := For(bad); err == nil {
			t.Errorf("For(%d) succeeded", int(bad))
		}
	}
	var zero Kernels
	if zero.Impl() != ImplGeneric {
		t.Fatalf("zero Kernels: Impl() = %v", zero.Impl())
	}
	r := rand.New(rand.NewPCG(7, 8))
	const m, n, k = 9, 7, 5
	a, b := randSlice(r, m*k), randSlice(r, n*k)
	c := randSlice(r, m*n)
	want := append([]float64(nil), c...)
	refUpdate(m, n, k, a, m, nil, b, n, want, m, false)
	zero.UpdateNT(m, n, k, a, m, nil, b, n, c, m, false)
	for i := range c {
		if math.Abs(c[i]-want[i]) > 1e-15*float64(k+1)*4*(1+math.Abs(want[i])) {
			t.Fatalf("zero Kernels: C[%d] = %v, want %v", i, c[i], want[i])
		}
	}
}

// BenchmarkUpdate measures the kernel on a square rank-256 update.
func BenchmarkUpdate(b *testing.B) {
	for _, impl := range allImpls {
		if !Supported(impl) {
			continue
		}
		kn, err := For(impl)
		if err != nil {
			b.Fatal(err)
		}
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%v/w%d", impl, workers), func(b *testing.B) {
				m, k := 2000, 256
				r := rand.New(rand.NewPCG(5, 6))
				a := randSlice(r, m*k)
				c := randSlice(r, m*m)
				for i := 0; i < b.N; i++ {
					kn.UpdateNTPar(m, m, k, a, m, nil, a, m, c, m, false, workers)
				}
				b.ReportMetric(2*float64(m)*float64(m)*float64(k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
