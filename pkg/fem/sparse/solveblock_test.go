package sparse

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gusset/gusset/pkg/fem/sparse/kernel"
	"gonum.org/v1/gonum/mat"
)

// TestSolveManyMatchesSingle checks the blocked multi-right-hand-side
// solve against column-by-column Solve, to 1e-12 relative per column, for
// every micro-kernel implementation this CPU supports, block widths that
// are and are not multiples of the kernels' 6-wide tiles and MR-row
// slivers, and supernodes whose pivot and off-diagonal row counts are not
// multiples of 6 (the edge tiles). The matrices are well conditioned, so
// the two rounding paths agree to ~1e-15.
func TestSolveManyMatchesSingle(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	mats := []struct {
		name  string
		a     *SymMatrix
		block int
	}{
		{"frame-like-spd", laplace3D(t, 6, 5, 5, 6, 0), 6},
		{"laplace3-spd", laplace3D(t, 7, 6, 5, 3, 0), 3},
		{"random-spd", randomSym(t, r, 260, 0.03, true), 1},
		{"random-indef", randomSym(t, r, 200, 0.01, false), 1},
	}
	edges := false
	defer func() {
		if !edges {
			t.Error("no supernode with edge tiles: the test does not cover them")
		}
	}()
	for _, impl := range []kernel.Impl{kernel.ImplGeneric, kernel.ImplAVX2, kernel.ImplAVX512} {
		if !kernel.Supported(impl) {
			t.Logf("%v not supported here, skipped", impl)
			continue
		}
		kern, err := kernel.For(impl)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range mats {
			for _, meth := range []Method{AMD, NestedDissection} {
				f := factorizeWith(t, c.a, AnalyzeOptions{Method: meth, BlockSize: c.block}, FactorOptions{Kernels: kern})
				if got := f.kernels().Impl(); got != impl {
					t.Fatalf("factor made with %v kernels uses %v", impl, got)
				}
				edges = edges || hasEdgeTiles(f.Sym)
				for _, h := range []int{1, 2, 7, 10, 16, 17, 33} {
					t.Run(fmt.Sprintf("%v/%s/%v/h%d", impl, c.name, meth, h), func(t *testing.T) {
						checkSolveMany(t, f, r, h)
					})
				}
			}
		}
	}
}

// hasEdgeTiles reports whether some supernode has pivot and off-diagonal
// row counts that are not multiples of the tile width.
func hasEdgeTiles(s *Symbolic) bool {
	var pivot, below bool
	for S := 0; S < s.NSuper; S++ {
		k, m := s.supDims(S)
		pivot = pivot || (k > solveNB && k%solveNB != 0)
		below = below || (m-k > solveNB && (m-k)%solveNB != 0)
	}
	return pivot && below
}

func checkSolveMany(t *testing.T, f *Factor, r *rand.Rand, h int) {
	t.Helper()
	n := f.Sym.N
	// B is a view with a stride wider than h, and X aliases it for odd h.
	wide := mat.NewDense(n, h+3, nil)
	b := wide.Slice(0, n, 1, 1+h).(*mat.Dense)
	for i := 0; i < n; i++ {
		for j := 0; j < h; j++ {
			b.Set(i, j, r.Float64()-0.5)
		}
	}
	bCopy := mat.DenseCopyOf(b)
	x := mat.NewDense(n, h, nil)
	if h%2 == 1 {
		x = b
	}
	if err := f.SolveMany(x, b); err != nil {
		t.Fatal(err)
	}
	single := make([]float64, n)
	for j := 0; j < h; j++ {
		if err := f.Solve(single, mat.Col(nil, j, bCopy)); err != nil {
			t.Fatal(err)
		}
		if d := relDiff(mat.Col(nil, j, x), single); d > 1e-12 {
			t.Fatalf("right-hand side %d of %d differs from Solve by %g", j, h, d)
		}
	}
	for i := 0; i < n; i++ { // the columns around the view are untouched
		if wide.At(i, 0) != 0 || wide.At(i, h+1) != 0 || wide.At(i, h+2) != 0 {
			t.Fatalf("row %d: values outside the block changed", i)
		}
	}
}

// TestSolveUpdateKernels compares each micro-kernel with the portable
// loops on both access patterns the sweeps use (rows and columns of a
// panel), including an empty shared dimension.
func TestSolveUpdateKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, impl := range []kernel.Impl{kernel.ImplAVX2, kernel.ImplAVX512} {
		if !kernel.Supported(impl) {
			continue
		}
		kn, err := kernel.For(impl)
		if err != nil {
			t.Fatal(err)
		}
		kern, mr := solveKernel(kn.Impl())
		if kern == nil {
			t.Fatalf("%v: no assembly kernel", impl)
		}
		for _, kk := range []int{0, 1, 5, 37} {
			for _, hp := range []int{mr, 2 * mr} {
				const m = 50 // panel leading dimension
				a := randVec(r, max(kk, 1)*hp)
				panel := randVec(r, m*40)
				for _, layout := range [][2]int{{1, m}, {m, 1}} {
					bs := &blockSolver{kern: kern, mr: mr, hp: hp}
					c := randVec(r, solveNB*hp)
					want := append([]float64(nil), c...)
					bs.update(kk, a, panel[3:], layout[0], layout[1], c, solveNB)
					solveUpdateGo(kk, hp, a, panel[3:], layout[0], layout[1], want, solveNB)
					if d := relDiff(c, want); d > 1e-14 {
						t.Fatalf("%v kk=%d hp=%d layout %v: differs from the loops by %g", impl, kk, hp, layout, d)
					}
				}
			}
		}
	}
}

// TestParallelBlockSolve: SolveManyParallel splits the elimination tree
// over the analysis's workers (subtrees in parallel, the supernodes above
// them after). For 1 worker the plan is sequential; for more, at least
// two workers get subtrees, every supernode is solved exactly once, and
// the supernodes above the subtrees are closed under taking parents (the
// shared rows a forward subtree updates through its buffer are exactly
// theirs). The solutions agree with SolveMany's to 1e-12 for every plan,
// definite and indefinite, including supernodes wider than the forward
// sweep's column panels, and X may be B.
func TestParallelBlockSolve(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	mats := []struct {
		name string
		a    *SymMatrix
		blk  int
	}{
		{"spd", laplace3D(t, 9, 8, 7, 3, 0), 3},
		{"indefinite", laplace3D(t, 8, 7, 7, 2, 1.7), 2},
	}
	for _, c := range mats {
		for _, workers := range []int{1, 2, 3, 5} {
			f := factorize(t, c.a, AnalyzeOptions{Method: NestedDissection, BlockSize: c.blk, Workers: workers})
			s := f.Sym
			sc := s.solveSched
			seen := make([]int, s.NSuper)
			busy := 0
			for _, ranges := range sc.bins {
				if len(ranges) > 0 {
					busy++
				}
				for _, rg := range ranges {
					for S := rg[0]; S <= rg[1]; S++ {
						seen[S]++
					}
				}
			}
			top := make([]bool, s.NSuper)
			for _, S := range sc.top {
				seen[S]++
				top[S] = true
			}
			for S, n := range seen {
				if n != 1 {
					t.Fatalf("%s, %d workers: supernode %d solved %d times", c.name, workers, S, n)
				}
				if p := s.Parent[S]; top[S] && p >= 0 && !top[p] {
					t.Fatalf("%s, %d workers: top supernode %d has parent %d outside the top", c.name, workers, S, p)
				}
			}
			wide := 0
			for S := range s.NSuper {
				if k, _ := s.supDims(S); k > solvePanel && k%solvePanel != 0 {
					wide++
				}
			}
			switch {
			case workers == 1 && sc.bins != nil:
				t.Fatalf("%s: one worker, %d bins", c.name, len(sc.bins))
			case workers > 1 && (busy < 2 || sc.nTop == 0):
				t.Fatalf("%s, %d workers: %d busy bins, %d top columns", c.name, workers, busy, sc.nTop)
			case wide == 0:
				t.Fatalf("%s: no supernode wider than a forward panel", c.name)
			}
			n := s.N
			for _, h := range []int{1, 8, 13} {
				b := mat.NewDense(n, h, nil)
				for i := range n {
					for j := range h {
						b.Set(i, j, r.Float64()-0.5)
					}
				}
				want := mat.NewDense(n, h, nil)
				if err := f.SolveMany(want, b); err != nil {
					t.Fatal(err)
				}
				got := b // in place
				if err := f.SolveManyParallel(got, b); err != nil {
					t.Fatal(err)
				}
				for j := range h {
					if d := relDiff(mat.Col(nil, j, got), mat.Col(nil, j, want)); d > 1e-12 {
						t.Fatalf("%s, %d workers, %d right-hand sides: column %d differs from SolveMany by %g", c.name, workers, h, j, d)
					}
				}
			}
		}
	}
}
