package sparse

import (
	"sync"

	"gonum.org/v1/gonum/mat"
)

// The parallel block solve (SolveManyParallel) runs on the elimination
// tree like the factorization: disjoint subtrees on separate goroutines,
// then (forward) or before them (backward) the supernodes above, on one. Each
// supernode's panel is read once per sweep, so the subtrees are balanced
// by panel size, the data a solve streams, rather than by flops. The
// forward sweep goes by panels of columns (forwardPanels).
//
// Backward, a subtree writes only its own pivot rows and reads rows of its
// ancestors, final by then. Forward, a subtree also updates the rows of its
// ancestors: those inside the subtree are its own, but those of the top
// supernodes are shared with the other subtrees, so each goroutine
// accumulates its updates to them in a zeroed buffer of its own (the
// updates are additive), and the buffers are added to y in worker order
// before the top is solved. The result depends on the schedule (the
// number of workers of the analysis) only through that order of
// additions, at round-off; it differs from the sequential SolveMany's, in
// the order of additions, at round-off too.

// solveSchedule is the plan of the parallel block solve.
type solveSchedule struct {
	bins [][][2]int // per worker: subtrees as supernode ranges [first, root], postorder
	top  []int32    // the other supernodes, ascending (every one when bins is nil)
	// pos gives each permuted column of a top supernode its row in the
	// top buffers, and −1 to the others; nTop counts the former.
	pos  []int32
	nTop int
}

// buildSolveSchedule splits s for workers goroutines; one worker, or a
// tree that does not split, gets the sequential plan.
func buildSolveSchedule(s *Symbolic, workers int) solveSchedule {
	all := solveSchedule{top: make([]int32, s.NSuper)}
	for S := range all.top {
		all.top[S] = int32(S)
	}
	if workers < 2 || s.NSuper < 2 {
		return all
	}
	work := make([]float64, s.NSuper)
	for S := range work {
		work[S] = float64(s.ValPtr[S+1] - s.ValPtr[S])
	}
	bins, top := splitTree(s, workers, work)
	busy := 0
	for _, b := range bins {
		if len(b) > 0 {
			busy++
		}
	}
	if busy < 2 {
		return all
	}
	sc := solveSchedule{bins: bins, top: top, pos: make([]int32, s.N)}
	for i := range sc.pos {
		sc.pos[i] = -1
	}
	for _, S := range top {
		for c := s.SupPtr[S]; c < s.SupPtr[S+1]; c++ {
			sc.pos[c] = int32(sc.nTop)
			sc.nTop++
		}
	}
	return sc
}

// topBuffer is one forward goroutine's accumulator for the rows of the top
// supernodes: h values per row, in the order of solveSchedule.pos.
type topBuffer struct {
	pos []int32
	buf []float64
}

// SolveManyParallel is SolveMany on all the workers of the analysis (see
// AnalyzeOptions.Workers), for callers that need speed more than
// reproducibility: its results agree with SolveMany's to round-off but not
// bit for bit, and depend at round-off on the number of workers. SolveMany
// stays sequential, so that analyses reproduce their stored results
// exactly.
func (f *Factor) SolveManyParallel(x, b *mat.Dense) error {
	return f.solveManyWith(x, b, f.solveBlockParallel)
}

// solveBlockParallel overwrites y, the permuted row-major N×h block, with
// (L·D·Lᵀ)⁻¹·y, on the solve schedule of the analysis.
func (f *Factor) solveBlockParallel(y []float64, h int) {
	s := f.Sym
	sc := &s.solveSched
	if sc.top == nil && sc.bins == nil {
		// A Symbolic made without Analyze: the sequential plan.
		seq := buildSolveSchedule(s, 1)
		sc = &seq
	}
	impl := f.kernels().Impl()
	var wg sync.WaitGroup
	tops := make([]*topBuffer, len(sc.bins))
	for w, ranges := range sc.bins {
		if len(ranges) == 0 {
			continue
		}
		tb := &topBuffer{pos: sc.pos, buf: make([]float64, sc.nTop*h)}
		tops[w] = tb
		wg.Go(func() {
			bs := newBlockSolver(s, h, impl)
			for _, rg := range ranges {
				for S := rg[0]; S <= rg[1]; S++ {
					bs.forwardNode(f, y, h, S, tb)
				}
			}
		})
	}
	wg.Wait()
	for _, tb := range tops {
		if tb == nil {
			continue
		}
		i := 0
		for _, S := range sc.top {
			for c := s.SupPtr[S]; c < s.SupPtr[S+1]; c++ {
				row, add := y[c*h:(c+1)*h], tb.buf[i*h:(i+1)*h]
				for t := range row {
					row[t] += add[t]
				}
				i++
			}
		}
	}
	bs := newBlockSolver(s, h, impl)
	for _, S := range sc.top {
		bs.forwardNode(f, y, h, int(S), nil)
	}
	for i := len(sc.top) - 1; i >= 0; i-- {
		bs.backwardNode(f, y, h, int(sc.top[i]))
	}
	for _, ranges := range sc.bins {
		if len(ranges) == 0 {
			continue
		}
		wg.Go(func() {
			bs := newBlockSolver(s, h, impl)
			for i := len(ranges) - 1; i >= 0; i-- {
				for S := ranges[i][1]; S >= ranges[i][0]; S-- {
					bs.backwardNode(f, y, h, S)
				}
			}
		})
	}
	wg.Wait()
}

// forwardNode applies supernode S's part of (L·D)⁻¹ to y: L⁻¹ on its
// pivot rows and the update of the rows below, then D⁻¹ on the pivot rows,
// which are final once S is done.
func (bs *blockSolver) forwardNode(f *Factor, y []float64, h, S int, top *topBuffer) {
	s := f.Sym
	k, m := s.supDims(S)
	c0 := s.SupPtr[S]
	rows := s.Rows[s.RowPtr[S]+k : s.RowPtr[S+1]]
	panel := f.val[s.ValPtr[S]:s.ValPtr[S+1]]
	bs.gather(y, h, c0, k, rows, top)
	bs.forwardPanels(panel, m, k)
	for j := 0; j < k; j++ {
		dj := panel[j*m+j]
		row := bs.w[j*bs.hp : j*bs.hp+h]
		for t := range row {
			row[t] /= dj
		}
	}
	bs.scatter(y, h, c0, k, rows, top)
}

// backwardNode applies supernode S's part of L⁻ᵀ to y: its pivot rows
// from the rows below, which are final.
func (bs *blockSolver) backwardNode(f *Factor, y []float64, h, S int) {
	s := f.Sym
	k, m := s.supDims(S)
	c0 := s.SupPtr[S]
	bs.gather(y, h, c0, k, s.Rows[s.RowPtr[S]+k:s.RowPtr[S+1]], nil)
	bs.backward(f.val[s.ValPtr[S]:s.ValPtr[S+1]], m, k)
	bs.scatter(y, h, c0, k, nil, nil)
}
