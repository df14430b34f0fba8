package sparse

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"
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
}

// Factor is a supernodal LDLᵀ factorization P·A·Pᵀ = L·D·Lᵀ with unit lower
// L. Panel s of Val (see Symbolic) holds L below the diagonal of its first k
// rows and D on the diagonal; the entries above the diagonal are scratch.
type Factor struct {
	Sym *Symbolic
	Val []float64

	inertia Inertia
	opt     FactorOptions
	ref     []float64 // per permuted column: largest |a| in original row/column

	// FactorTime is the wall time of the last numeric factorization.
	FactorTime time.Duration
	upd        [][]float64 // update matrices in flight, per supernode
}

// Inertia returns the pivot sign counts of the factorization.
func (f *Factor) Inertia() Inertia { return f.inertia }

// Bytes returns the memory held by the factor values and the update stacks
// the numeric phase needs at its peak.
func (f *Factor) Bytes() int64 { return 8*int64(len(f.Val)) + f.Sym.StackBytes() }

// Factorize computes the numeric factorization of a, whose pattern must be
// the one sym was analysed from. It honours ctx between supernodes (and
// between blocks of very large ones) and then returns ctx.Err() wrapped. A
// zero or tiny pivot yields a *SingularError naming the original DOF.
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
	if a.Pat != sym.aPat && !samePattern(a.Pat, sym.aPat) {
		return errors.New("sparse: factorize: matrix pattern differs from the analysed one")
	}
	if f.Val == nil {
		f.Val = make([]float64, sym.ValPtr[sym.NSuper])
	} else {
		clear(f.Val)
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
			v := a.Val[q]
			f.Val[sym.amap[q]] += v
			av := math.Abs(v)
			pi := sym.IPerm[p.RowIdx[q]]
			f.ref[pj] = math.Max(f.ref[pj], av)
			f.ref[pi] = math.Max(f.ref[pi], av)
		}
	}
	f.upd = make([][]float64, sym.NSuper)
	sc := &sym.sched
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
			fw := newFrontWorker(f, sc.binStack[w], 1)
			for _, rg := range sc.bins[w] {
				for S := rg[0]; S <= rg[1]; S++ {
					if stop.Load() {
						return
					}
					if err := ctx.Err(); err != nil {
						fail(fmt.Errorf("sparse: factorize: %w", err))
						return
					}
					if err := fw.supernode(ctx, S); err != nil {
						fail(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if firstErr == nil && len(sc.top) > 0 {
		fw := newFrontWorker(f, sc.topStack, sc.workers)
		for _, S := range sc.top {
			if err := ctx.Err(); err != nil {
				firstErr = fmt.Errorf("sparse: factorize: %w", err)
				break
			}
			if err := fw.supernode(ctx, int(S)); err != nil {
				firstErr = err
				break
			}
		}
	}
	f.upd = nil
	if firstErr != nil {
		return firstErr
	}
	f.countInertia()
	f.FactorTime = time.Since(t0)
	return nil
}

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
		panel := f.Val[s.ValPtr[S]:]
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

func newFrontWorker(f *Factor, stackWords int64, par int) *frontWorker {
	return &frontWorker{f: f, stack: make([]float64, stackWords), pos: make([]int32, f.Sym.N), par: par}
}

// supernode assembles the front of S from A (already scattered into the
// panel) and the children's update matrices, factors its pivot block, and
// leaves its own update matrix for the parent.
func (w *frontWorker) supernode(ctx context.Context, S int) error {
	f, s := w.f, w.f.Sym
	heap := s.sched.heapUpdate
	k, m := s.supDims(S)
	r := m - k
	panel := f.Val[s.ValPtr[S]:s.ValPtr[S+1]]
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
		if heap[S] {
			u = make([]float64, r*r)
		} else {
			u = w.stack[w.top : w.top+r*r]
			clear(u)
		}
	}
	for _, c := range kids {
		kc, mc := s.supDims(int(c))
		rc := mc - kc
		if rc == 0 {
			continue
		}
		crow := s.Rows[s.RowPtr[c]+kc : s.RowPtr[c+1]]
		w.extendAdd(panel, m, k, u, r, f.upd[c], rc, crow)
		f.upd[c] = nil
	}
	if cap(w.d) < k {
		w.d = make([]float64, k)
	}
	d := w.d[:k]
	if err := w.ldlPanel(ctx, panel, m, 0, k, d, s.SupPtr[S]); err != nil {
		return err
	}
	// The update of the parent's front is cut into column blocks so a
	// cancellation is seen within a fraction of a second even on the
	// largest fronts.
	const blk = 512
	for c0 := 0; c0 < r; c0 += blk {
		if c0 > 0 && ctx.Err() != nil {
			return fmt.Errorf("sparse: factorize: %w", ctx.Err())
		}
		cw := min(blk, r-c0)
		updateNT(r-c0, cw, k, panel[k+c0:], m, d, panel[k+c0:], m, u[c0+c0*r:], r, true, w.par)
	}
	if heap[S] {
		f.upd[S] = u
		w.top = base
	} else {
		if r > 0 && base != w.top {
			copy(w.stack[base:base+r*r], u)
		}
		f.upd[S] = w.stack[base : base+r*r]
		w.top = base + r*r
	}
	return nil
}

// extendAdd adds the child update uc (rc×rc, rows crow) into the front:
// columns that are pivots of S go to the panel, the rest to u.
func (w *frontWorker) extendAdd(panel []float64, m, k int, u []float64, r int, uc []float64, rc int, crow []int32) {
	if cap(w.rel) < rc {
		w.rel = make([]int32, rc)
	}
	rel := w.rel[:rc]
	for i, row := range crow {
		rel[i] = w.pos[row]
	}
	for j := 0; j < rc; j++ {
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
}
