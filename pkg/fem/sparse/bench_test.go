package sparse_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/fem/gridn"
	"github.com/gusset/gusset/pkg/fem/sparse"
	"github.com/gusset/gusset/pkg/fem/sparse/kernel"
	"gonum.org/v1/gonum/mat"
)

// maxBenchFlops skips orderings whose predicted factor flops would take
// minutes (RCM's profile fill on grid-30).
const maxBenchFlops = 5e12

// memSampler tracks the peak heap in use while the benchmark body runs.
type memSampler struct {
	peak atomic.Uint64
	stop chan struct{}
	done chan struct{}
}

func startSampler() *memSampler {
	s := &memSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		var ms runtime.MemStats
		tk := time.NewTicker(20 * time.Millisecond)
		defer tk.Stop()
		for {
			runtime.ReadMemStats(&ms)
			if v := ms.HeapInuse; v > s.peak.Load() {
				s.peak.Store(v)
			}
			select {
			case <-s.stop:
				return
			case <-tk.C:
			}
		}
	}()
	return s
}

func (s *memSampler) finish() uint64 {
	close(s.stop)
	<-s.done
	return s.peak.Load()
}

// BenchmarkGridN reports, for grid-10/20/30 and each ordering, the factor
// nonzeros and flops, the time of every phase, GFLOP/s of the numeric
// factorization and the peak heap. Anchor (CHOLMOD, 2 cores): grid-20
// 33.5M nnz, 6.35e10 flops, total 4.0 s; grid-30 196M nnz, 8.21e11 flops,
// total 33.7 s. For comparison, SuiteSparse 5.12 on model.K as exported by
// WriteMatrixMarket: AMD 35.1M / 8.58e10 and 222.7M / 1.26e12 (our AMD
// reproduces these exactly), METIS 23.4M / 3.30e10 and 147.9M / 5.46e11.
func BenchmarkGridN(b *testing.B) {
	for _, n := range []int{10, 20, 30} {
		model, err := gridn.Generate(n)
		if err != nil {
			b.Fatal(err)
		}
		for _, meth := range []sparse.Method{sparse.AMD, sparse.NestedDissection, sparse.RCM} {
			b.Run(fmt.Sprintf("grid%d/%v", n, meth), func(b *testing.B) {
				runtime.GC()
				debug.FreeOSMemory()
				base := heapInUse()
				for i := 0; i < b.N; i++ {
					smp := startSampler()
					t0 := time.Now()
					sym, err := sparse.Analyze(model.K.Pat, sparse.AnalyzeOptions{Method: meth, NodeOf: model.NodeOf})
					if err != nil {
						b.Fatal(err)
					}
					if sym.Flops > maxBenchFlops {
						smp.finish()
						b.Logf("grid-%d %v: SKIPPED, predicted %.3g flops > %.0g (nnz(L) %.1fM)", n, meth, sym.Flops, maxBenchFlops, float64(sym.NnzL)/1e6)
						b.SkipNow()
					}
					f, err := sparse.Factorize(context.Background(), sym, model.K, sparse.FactorOptions{})
					if err != nil {
						b.Fatal(err)
					}
					t2 := time.Now()
					x := make([]float64, model.NFree)
					if err := f.Solve(x, model.RHS); err != nil {
						b.Fatal(err)
					}
					solve := time.Since(t2)
					total := time.Since(t0)
					peak := smp.finish()
					res := sparse.RelResidual(model.K, x, model.RHS)
					gf := sym.FlopsStored / f.FactorTime.Seconds() / 1e9
					b.ReportMetric(float64(sym.NnzL)/1e6, "Mnnz(L)")
					b.ReportMetric(sym.Flops, "flops")
					b.ReportMetric(sym.OrderTime.Seconds(), "s-order")
					b.ReportMetric(sym.SymbolicTime.Seconds(), "s-symbolic")
					b.ReportMetric(f.FactorTime.Seconds(), "s-numeric")
					b.ReportMetric(solve.Seconds(), "s-solve")
					b.ReportMetric(total.Seconds(), "s-total")
					b.ReportMetric(gf, "GFLOP/s")
					b.ReportMetric(float64(peak-min(peak, base))/(1<<30), "GiB-peak")
					b.Logf("grid-%-2d %-4v dofs %7d  nnz(L) %7.1fM (stored %7.1fM)  flops %.3g  order %6.2fs  symb %5.2fs  numeric %7.2fs  solve %5.2fs  total %7.2fs  %6.1f GFLOP/s  peak %.2f GiB  relres %.1e  kernel %v",
						n, meth, model.NFree, float64(sym.NnzL)/1e6, float64(sym.NnzStored)/1e6, sym.Flops,
						sym.OrderTime.Seconds(), sym.SymbolicTime.Seconds(), f.FactorTime.Seconds(), solve.Seconds(), total.Seconds(),
						gf, float64(peak-min(peak, base))/(1<<30), res, kernel.Best().Impl())
				}
			})
		}
	}
}

func heapInUse() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// BenchmarkDenseCholeskyCeiling measures gonum's dense Cholesky on a
// 2000×2000 SPD matrix: the practical GFLOP/s ceiling of pure-Go BLAS on
// this machine, for comparison with the supernodal kernels.
func BenchmarkDenseCholeskyCeiling(b *testing.B) {
	const n = 2000
	r := rand.New(rand.NewPCG(1, 1))
	a := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a.Set(i, j, r.Float64())
		}
	}
	var spd mat.SymDense
	spd.SymOuterK(1, a)
	for i := 0; i < n; i++ {
		spd.SetSym(i, i, spd.At(i, i)+n)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var ch mat.Cholesky
		if !ch.Factorize(&spd) {
			b.Fatal("not SPD")
		}
	}
	gf := float64(n) * n * n / 3 / (b.Elapsed().Seconds() / float64(b.N)) / 1e9
	b.ReportMetric(gf, "GFLOP/s")
	b.Logf("gonum dense Cholesky %d×%d: %.2f GFLOP/s", n, n, gf)
}

// BenchmarkSolveManyGrid20 times the block solve of ten right-hand sides
// on the nested-dissection factor of grid-20 against ten single solves
// (the ten-case static analysis solves that block), and reports the block
// solve's cost in single solves.
func BenchmarkSolveManyGrid20(b *testing.B) {
	const h = 10
	model, err := gridn.Generate(20)
	if err != nil {
		b.Fatal(err)
	}
	sym, err := sparse.Analyze(model.K.Pat, sparse.AnalyzeOptions{Method: sparse.NestedDissection, NodeOf: model.NodeOf})
	if err != nil {
		b.Fatal(err)
	}
	f, err := sparse.Factorize(context.Background(), sym, model.K, sparse.FactorOptions{})
	if err != nil {
		b.Fatal(err)
	}
	n := model.NFree
	rhs := mat.NewDense(n, h, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < h; j++ {
			rhs.Set(i, j, model.RHS[i]*float64(j+1))
		}
	}
	x := mat.NewDense(n, h, nil)
	col := make([]float64, n)
	b.ResetTimer()
	var block, single time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := f.SolveMany(x, rhs); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		for j := 0; j < h; j++ {
			if err := f.Solve(col, mat.Col(col, j, rhs)); err != nil {
				b.Fatal(err)
			}
		}
		block += t1.Sub(t0)
		single += time.Since(t1)
	}
	b.ReportMetric(block.Seconds()/float64(b.N), "s-block")
	b.ReportMetric(single.Seconds()/float64(b.N)/h, "s-single")
	b.ReportMetric(block.Seconds()/single.Seconds()*h, "singles/block")
}

// BenchmarkAnalyze times the analysis alone (nested dissection ordering
// and symbolic factorization) of grid-20 and grid-30, reporting the flops
// of the order it finds: the ordering's speed and quality side by side.
func BenchmarkAnalyze(b *testing.B) {
	for _, n := range []int{20, 30} {
		b.Run(fmt.Sprintf("grid%d", n), func(b *testing.B) {
			model, err := gridn.Generate(n)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				sym, err := sparse.Analyze(model.K.Pat, sparse.AnalyzeOptions{Method: sparse.NestedDissection, NodeOf: model.NodeOf})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(sym.Flops, "flops")
				b.ReportMetric(sym.OrderTime.Seconds(), "s-order")
			}
		})
	}
}

// BenchmarkFactorizeCancelLag cancels the numeric factorization of grid-20
// at points from set-up (allocating and filling the factor) to the root
// front, and reports the longest wait from the cancel to the return of
// Factorize as ms-lag/op, with the number of points the cancel reached
// before the factorization ended. AMD's order has the largest fronts (a
// 4998-column root), so it is the hard case. Between two checks of the
// context the factorization does at most a chunk of dense work of
// ctxChunkWork multiply-adds per worker, or a block of zeroing, copying or
// scattering: the service promises a cancel within 100 ms, and lags were
// below 10 ms idle and below 20 ms with two CPU-bound processes beside it,
// 106–221 ms on a loaded 2-core CI machine. TestFactorizeStopsAtTheCancel
// checks, without a clock, that the cancel is observed.
func BenchmarkFactorizeCancelLag(b *testing.B) {
	model, err := gridn.Generate(20)
	if err != nil {
		b.Fatal(err)
	}
	sym, err := sparse.Analyze(model.K.Pat, sparse.AnalyzeOptions{Method: sparse.AMD, NodeOf: model.NodeOf})
	if err != nil {
		b.Fatal(err)
	}
	afters := []time.Duration{0, 5 * time.Millisecond, 50 * time.Millisecond, 150 * time.Millisecond,
		300 * time.Millisecond, 600 * time.Millisecond, 900 * time.Millisecond}
	var worst time.Duration
	reached := 0
	b.ResetTimer()
	for b.Loop() {
		for _, after := range afters {
			ctx, cancel := context.WithCancel(context.Background())
			var at atomic.Pointer[time.Time]
			timer := time.AfterFunc(after, func() {
				now := time.Now()
				at.Store(&now)
				cancel()
			})
			_, err := sparse.Factorize(ctx, sym, model.K, sparse.FactorOptions{})
			done := time.Now()
			timer.Stop()
			cancel()
			switch {
			case err == nil:
				continue // finished before the cancel
			case !errors.Is(err, context.Canceled):
				b.Fatalf("cancel after %v: want context.Canceled, got %v", after, err)
			}
			reached++
			lag := done.Sub(*at.Load())
			worst = max(worst, lag)
			b.Logf("cancel after %v: returned %v later", after, lag.Round(10*time.Microsecond))
		}
	}
	b.ReportMetric(float64(worst)/float64(time.Millisecond), "ms-lag/op")
	b.ReportMetric(float64(reached)/float64(b.N), "cancels/op")
}
