package sparse

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gusset/gusset/pkg/fem/sparse/kernel"
)

// DefaultPivotTol is the relative pivot threshold: a pivot d_j with
// |d_j| ≤ tol·max|a_ij| over the original row/column j is treated as zero.
// Legitimate pivots of a well-posed model are bounded below by roughly
// λ_min(A) (the last pivot of a leading block is 1/[A⁻¹]_jj), so 1e-13 only
// catches matrices whose condition number exceeds 1e13, where the solution
// would carry no correct digits anyway, while rounding noise of a truly
// singular matrix (mechanisms, unconnected DOFs) lands below it.
const DefaultPivotTol = 1e-13

// FactorOptions configure numeric factorization.
type FactorOptions struct {
	PivotTol float64 // relative zero-pivot threshold; 0 means DefaultPivotTol
	// AllowSingular counts tiny pivots as zero in the inertia and replaces
	// them by a huge value (pinning that DOF to zero in solves) instead of
	// failing with *SingularError.
	AllowSingular bool
	// Progress, when not nil, is told the fraction of the factorization
	// done: the flops of the finished supernodes over FlopsStored, in
	// (0, 1] and increasing, at most every ProgressInterval and once with 1
	// when the factorization succeeds. Calls come from the worker
	// goroutines, one at a time, and the worker making one waits for it,
	// so it must return quickly. It may cancel the factorization's
	// context.
	Progress func(fraction float64)
	// Kernels are the dense kernels the factorization and the factor's
	// solves run; nil means kernel.Best(), the widest the CPU supports.
	// They are an option rather than a package setting so that tests and
	// benchmarks can compare implementations (kernel.For) side by side.
	Kernels *kernel.Kernels
}

// Factor is a supernodal LDLᵀ factorization P·A·Pᵀ = L·D·Lᵀ with unit lower
// L. Panel s of its values (see Symbolic) holds L below the diagonal of its
// first k rows and D on the diagonal; the entries above the diagonal are
// scratch. The values live outside the Go heap (see newValues) and are
// returned to the system when the Factor is collected, so nothing may keep
// them beyond the Factor: they are not exported.
type Factor struct {
	Sym *Symbolic
	val []float64
	a   *SymMatrix // the matrix being factored, during Refactor

	inertia Inertia
	opt     FactorOptions
	ref     []float64 // per permuted column: largest |a| in original row/column
	kern    *kernel.Kernels

	// FactorTime is the wall time of the last numeric factorization.
	FactorTime time.Duration
	upd        [][]float64 // update matrices in flight, per supernode
}

// kernels returns the dense kernels of f: those it was factored with, or
// kernel.Best() for a Factor that was never factored here.
func (f *Factor) kernels() *kernel.Kernels {
	if f.kern != nil {
		return f.kern
	}
	return kernel.Best()
}

// Inertia returns the pivot sign counts of the factorization.
func (f *Factor) Inertia() Inertia { return f.inertia }

// Bytes returns the memory held by the factor values and the update stacks
// the numeric phase needs at its peak.
func (f *Factor) Bytes() int64 { return 8*int64(len(f.val)) + f.Sym.StackBytes() }

// Factorize computes the numeric factorization of a, whose pattern must be
// the one sym was analysed from. It honours ctx throughout: between
// supernodes, and inside large fronts between chunks of bounded work (dense
// updates of at most ctxChunkWork multiply-adds, zeroing, copying and
// scattering in blocks, large allocations abandoned on cancellation), and
// then returns ctx.Err() wrapped. A zero or tiny pivot yields a
// *SingularError naming the original DOF.
func Factorize(ctx context.Context, sym *Symbolic, a *SymMatrix, opt FactorOptions) (*Factor, error) {
	f := &Factor{Sym: sym, opt: opt}
	if err := f.Refactor(ctx, a); err != nil {
		return nil, err
	}
	return f, nil
}

// Refactor recomputes the factorization for new values on the same pattern,
// reusing the factor storage (non-linear iterations, new shifts σ).
func (f *Factor) Refactor(ctx context.Context, a *SymMatrix) error {
	t0 := time.Now()
	sym := f.Sym
	if f.kern == nil {
		f.kern = f.opt.Kernels
		if f.kern == nil {
			f.kern = kernel.Best()
		}
	}
	if a.Pat != sym.aPat && !samePattern(a.Pat, sym.aPat) {
		return errors.New("sparse: factorize: matrix pattern differs from the analysed one")
	}
	if err := cancelled(ctx); err != nil {
		return err
	}
	if f.val == nil {
		// Not zeroed nor touched here: each worker clears and fills its
		// own supernodes' panels, so the first touch of the pages (the
		// costliest part of a large factor's memory on a virtual
		// machine) is spread over the workers instead of done up front.
		v, release, err := newValues(sym.ValPtr[sym.NSuper])
		if err != nil {
			return fmt.Errorf("sparse: factorize: %w", err)
		}
		f.val = v
		runtime.AddCleanup(f, func(release func()) { release() }, release)
	}
	if f.ref == nil {
		f.ref = make([]float64, sym.N)
	} else {
		clear(f.ref)
	}
	p := a.Pat
	for j := 0; j < p.N; j++ {
		pj := sym.IPerm[j]
		for q := p.ColPtr[j]; q < p.ColPtr[j+1]; q++ {
			av := math.Abs(a.Val[q])
			pi := sym.IPerm[p.RowIdx[q]]
			f.ref[pj] = math.Max(f.ref[pj], av)
			f.ref[pi] = math.Max(f.ref[pi], av)
		}
	}
	f.a = a
	defer func() { f.a = nil }()
	f.upd = make([][]float64, sym.NSuper)
	sc := &sym.sched
	prog := newProgress(f.opt.Progress, sym)
	var stop atomic.Bool
	var errMu sync.Mutex
	var firstErr error
	fail := func(err error) {
		errMu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		errMu.Unlock()
		stop.Store(true)
	}
	var wg sync.WaitGroup
	for w := range sc.bins {
		if len(sc.bins[w]) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			fw, err := newFrontWorker(ctx, f, sc.binStack[w], 1)
			if err != nil {
				fail(err)
				return
			}
			for _, rg := range sc.bins[w] {
				for S := rg[0]; S <= rg[1]; S++ {
					if stop.Load() {
						return
					}
					if err := cancelled(ctx); err != nil {
						fail(err)
						return
					}
					if err := fw.supernode(ctx, S); err != nil {
						fail(err)
						return
					}
					prog.finished(sym, S)
					if factoredHook != nil {
						factoredHook(S)
					}
				}
			}
		}()
	}
	wg.Wait()
	if firstErr == nil && len(sc.top) > 0 {
		fw, err := newFrontWorker(ctx, f, sc.topStack, sc.workers)
		if err != nil {
			firstErr = err
		}
		for _, S := range sc.top {
			if firstErr != nil {
				break
			}
			if err := cancelled(ctx); err != nil {
				firstErr = err
				break
			}
			if err := fw.supernode(ctx, int(S)); err != nil {
				firstErr = err
				break
			}
			prog.finished(sym, int(S))
			if factoredHook != nil {
				factoredHook(int(S))
			}
		}
	}
	f.upd = nil
	if firstErr != nil {
		return firstErr
	}
	f.countInertia()
	f.FactorTime = time.Since(t0)
	prog.complete()
	return nil
}

// factoredHook, when not nil, is called with each supernode as soon as it
// is factored, on the goroutine that factored it. It lets the cancellation
// tests see what a factorization still does after a cancel, by counting
// instead of timing (export_test.go sets it); Progress cannot serve, as it
// reports at most every ProgressInterval. It is nil outside those tests.
var factoredHook func(S int)

func samePattern(a, b *Pattern) bool {
	if a.N != b.N || len(a.RowIdx) != len(b.RowIdx) {
		return false
	}
	for i := range a.ColPtr {
		if a.ColPtr[i] != b.ColPtr[i] {
			return false
		}
	}
	for i := range a.RowIdx {
		if a.RowIdx[i] != b.RowIdx[i] {
			return false
		}
	}
	return true
}

func (f *Factor) countInertia() {
	var in Inertia
	s := f.Sym
	for S := 0; S < s.NSuper; S++ {
		k, m := s.supDims(S)
		panel := f.val[s.ValPtr[S]:]
		for j := 0; j < k; j++ {
			d := panel[j+j*m]
			switch {
			case d > 0 && !math.IsInf(d, 1):
				in.Positive++
			case d < 0:
				in.Negative++
			default:
				in.Zero++ // pinned pivots (AllowSingular) are stored as +Inf
			}
		}
	}
	f.inertia = in
}

// frontWorker owns the scratch of one goroutine of the multifrontal
// factorization: its update-matrix stack and relative-index buffers.
type frontWorker struct {
	f     *Factor
	stack []float64
	top   int
	pos   []int32
	rel   []int32
	d     []float64
	par   int
}

func newFrontWorker(ctx context.Context, f *Factor, stackWords int64, par int) (*frontWorker, error) {
	stack, err := allocFloats(ctx, int(stackWords))
	if err != nil {
		return nil, err
	}
	return &frontWorker{f: f, stack: stack, pos: make([]int32, f.Sym.N), par: par}, nil
}

// supernode assembles the front of S from A (already scattered into the
// panel) and the children's update matrices, factors its pivot block, and
// leaves its own update matrix for the parent.
func (w *frontWorker) supernode(ctx context.Context, S int) error {
	f, s := w.f, w.f.Sym
	heap := s.sched.heapUpdate
	k, m := s.supDims(S)
	r := m - k
	panel := f.val[s.ValPtr[S]:s.ValPtr[S+1]]
	if err := clearFloats(ctx, panel); err != nil {
		return err
	}
	for t := s.aSupPtr[S]; t < s.aSupPtr[S+1]; t++ {
		panel[s.aOff[t]] += f.a.Val[s.aBySup[t]]
	}
	rows := s.Rows[s.RowPtr[S]:s.RowPtr[S+1]]
	for t, row := range rows {
		w.pos[row] = int32(t)
	}
	kids := s.child[s.childPtr[S]:s.childPtr[S+1]]
	base := w.top
	for _, c := range kids {
		if !heap[c] {
			kc, mc := s.supDims(int(c))
			base -= (mc - kc) * (mc - kc)
		}
	}
	var u []float64
	if r > 0 {
		// Not cleared: the update below overwrites it.
		if heap[S] {
			var err error
			if u, err = allocFloats(ctx, r*r); err != nil {
				return err
			}
		} else {
			u = w.stack[w.top : w.top+r*r]
		}
	}
	// The children's columns that are pivots of S go into the panel
	// before it is factored; the rest into u once the update has
	// written it, so u is never cleared.
	if err := w.extendAddKids(ctx, kids, panel, m, k, u, r, false); err != nil {
		return err
	}
	if cap(w.d) < k {
		w.d = make([]float64, k)
	}
	d := w.d[:k]
	if err := w.ldlPanel(ctx, panel, m, 0, k, d, s.SupPtr[S]); err != nil {
		return err
	}
	// The update matrix for the parent, in checked chunks.
	if err := w.lowerUpdate(ctx, r, r, k, panel[k:], m, d, u, r, true); err != nil {
		return err
	}
	if err := w.extendAddKids(ctx, kids, panel, m, k, u, r, true); err != nil {
		return err
	}
	if heap[S] {
		f.upd[S] = u
		w.top = base
	} else {
		if r > 0 && base != w.top {
			// Down the stack over the children's consumed updates: a
			// forward copy in blocks is safe for the overlap.
			for o := 0; o < r*r; o += ctxChunkWords {
				if err := cancelled(ctx); err != nil {
					return err
				}
				e := min(o+ctxChunkWords, r*r)
				copy(w.stack[base+o:base+e], u[o:e])
			}
		}
		f.upd[S] = w.stack[base : base+r*r]
		w.top = base + r*r
	}
	return nil
}

// extendAddKids extend-adds the update matrices of the children kids into
// the front (see extendAdd); the pass toU is their last use.
func (w *frontWorker) extendAddKids(ctx context.Context, kids []int32, panel []float64, m, k int, u []float64, r int, toU bool) error {
	f, s := w.f, w.f.Sym
	for _, c := range kids {
		kc, mc := s.supDims(int(c))
		rc := mc - kc
		if rc == 0 {
			continue
		}
		crow := s.Rows[s.RowPtr[c]+kc : s.RowPtr[c+1]]
		if err := w.extendAdd(ctx, panel, m, k, u, r, f.upd[c], rc, crow, toU); err != nil {
			return err
		}
		if toU {
			f.upd[c] = nil
		}
	}
	return nil
}

// extendAdd adds the child update uc (rc×rc, rows crow) into the front:
// the columns that are pivots of S to the panel, or with toU the rest to
// u. The child's rows are ascending, so the first kind of columns comes
// first.
func (w *frontWorker) extendAdd(ctx context.Context, panel []float64, m, k int, u []float64, r int, uc []float64, rc int, crow []int32, toU bool) error {
	if cap(w.rel) < rc {
		w.rel = make([]int32, rc)
	}
	rel := w.rel[:rc]
	for i, row := range crow {
		rel[i] = w.pos[row]
	}
	split, _ := slices.BinarySearch(rel, int32(k))
	j0, j1 := 0, split
	if toU {
		j0, j1 = split, rc
	}
	for j := j0; j < j1; j++ {
		if j%256 == 255 {
			if err := cancelled(ctx); err != nil {
				return err
			}
		}
		lj := int(rel[j])
		col := uc[j*rc+j : j*rc+rc]
		rr := rel[j:]
		if lj < k {
			dst := panel[lj*m : lj*m+m]
			for i, v := range col {
				dst[rr[i]] += v
			}
		} else {
			dst := u[(lj-k)*r : (lj-k)*r+r]
			for i, v := range col {
				dst[int(rr[i])-k] += v
			}
		}
	}
	return nil
}
