package sparse

import (
	"sync"
	"sync/atomic"
	"time"
)

// ProgressInterval is the least time between two calls of
// FactorOptions.Progress during a factorization (the final call excepted):
// often enough for a progress bar, rare enough that the callback never
// shows in the factorization time.
const ProgressInterval = 50 * time.Millisecond

// progress reports the fraction of FlopsStored done. Workers add the flops
// of each finished supernode to an atomic counter; the one that finds a
// report due and wins the try-lock makes the call, the others go straight
// on, so the hot loop pays one atomic add and a clock read per supernode.
type progress struct {
	fn    func(float64)
	total float64
	done  atomic.Uint64 // flops of finished supernodes
	start time.Time
	due   atomic.Int64 // ns since start when the next report may be made
	mu    sync.Mutex   // held while fn runs: one call at a time
	last  float64      // last fraction reported, guarded by mu
}

// newProgress returns the progress of a factorization with symbolic
// analysis s, or nil when fn is nil.
func newProgress(fn func(float64), s *Symbolic) *progress {
	if fn == nil {
		return nil
	}
	total := 0.0
	for S := 0; S < s.NSuper; S++ {
		total += float64(s.supFlops(S))
	}
	return &progress{fn: fn, total: total, start: time.Now()}
}

// supFlops returns the flops of supernode S on the stored structure,
// Σ (m−i)² over its k columns, its share of Symbolic.FlopsStored.
func (s *Symbolic) supFlops(S int) uint64 {
	k, m := s.supDims(S)
	sq := func(n uint64) uint64 { return n * (n + 1) * (2*n + 1) / 6 }
	return sq(uint64(m)) - sq(uint64(m-k))
}

// finished records supernode S as factored and reports when due.
func (p *progress) finished(s *Symbolic, S int) {
	if p == nil {
		return
	}
	p.done.Add(s.supFlops(S))
	now := int64(time.Since(p.start))
	if now < p.due.Load() || !p.mu.TryLock() {
		return
	}
	defer p.mu.Unlock()
	if now < p.due.Load() { // another worker reported meanwhile
		return
	}
	p.due.Store(now + int64(ProgressInterval))
	p.report(float64(p.done.Load()) / p.total)
}

// complete reports the end of a successful factorization.
func (p *progress) complete() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.report(1)
}

// report calls fn with f unless that would not advance; the caller holds
// p.mu, and reading the counter under it keeps successive fractions
// non-decreasing.
func (p *progress) report(f float64) {
	if !(f <= 1) { // no stored flops (0/0) or rounding past the end
		f = 1
	}
	if f <= p.last {
		return
	}
	p.last = f
	p.fn(f)
}
