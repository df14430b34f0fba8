package sparse_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gusset/gusset/pkg/fem/gridn"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// cancelAt is a context that cancels itself at its at-th check (a call of
// Err; 0 never), counting the checks and those begun after the cancel.
// The numeric factorization checks its context with Err before each
// supernode and between the chunks of bounded work inside a front, and the
// orderings every so many steps, so a cancel lands at an exact point of
// the work, however fast or loaded the machine.
type cancelAt struct {
	context.Context
	cancel context.CancelFunc
	at     int64
	checks atomic.Int64 // Err calls
	after  atomic.Int64 // Err calls begun once the cancel was made
	fired  atomic.Bool
}

func newCancelAt(at int64) *cancelAt {
	ctx, cancel := context.WithCancel(context.Background())
	return &cancelAt{Context: ctx, cancel: cancel, at: at}
}

// Err counts the check and cancels at the at-th.
func (c *cancelAt) Err() error {
	if c.fired.Load() {
		c.after.Add(1)
	}
	if c.checks.Add(1) == c.at {
		c.cancel()
		c.fired.Store(true)
	}
	return c.Context.Err()
}

// cancelWorkers is the Workers of the analysis TestFactorizeStopsAtTheCancel
// factors: two goroutines in the parallel phase, so that a cancel can find
// a supernode under way on the other one.
const cancelWorkers = 2

// TestFactorizeStopsAtTheCancel cancels the numeric factorization of
// grid-10 (AMD order) at checks of its context from the first (set-up,
// before any supernode) through the parallel phase to the root front, and
// at the first, a middle and the last check inside the root front, which
// is only reached through the chunked dense updates of the front. Each
// time the factorization must return context.Canceled having observed the
// cancel: the goroutine whose check saw it stops there, and each other
// goroutine stops at its next check, so no supernode is factored after the
// cancel except one already under way on another goroutine of the
// parallel phase (at most cancelWorkers − 1; none in the root front, where
// one goroutine works). How soon that is in time is
// BenchmarkFactorizeCancelLag's figure, not this test's.
func TestFactorizeStopsAtTheCancel(t *testing.T) {
	model, err := gridn.Generate(10)
	if err != nil {
		t.Fatal(err)
	}
	sym, err := sparse.Analyze(model.K.Pat, sparse.AnalyzeOptions{Method: sparse.AMD, NodeOf: model.NodeOf, Workers: cancelWorkers})
	if err != nil {
		t.Fatal(err)
	}

	// A factorization without a cancel: how many checks it makes, and how
	// many precede the root's (the last supernode factored: the postorder
	// ends with the root, which waits for every other supernode).
	var mu sync.Mutex
	var order []int
	var checksAt []int64
	full := newCancelAt(0)
	sparse.SetFactoredHook(t, func(S int) {
		mu.Lock()
		defer mu.Unlock()
		order = append(order, S)
		checksAt = append(checksAt, full.checks.Load())
	})
	if _, err := sparse.Factorize(full, sym, model.K, sparse.FactorOptions{}); err != nil {
		t.Fatal(err)
	}
	total := full.checks.Load()
	if len(order) != sym.NSuper || order[len(order)-1] != sym.NSuper-1 {
		t.Fatalf("factored %d of %d supernodes, the root (%d) last: got %v last", len(order), sym.NSuper, sym.NSuper-1, order[len(order)-1])
	}
	// The root's checks: the one before it, then those inside its front.
	rootFirst := checksAt[len(checksAt)-2] + 1
	if inside := total - rootFirst; inside < 3 {
		t.Fatalf("%d checks inside the root front, want at least 3 to cancel at its first, middle and last", inside)
	}

	points := []struct {
		name string
		at   int64
		// others: goroutines that may have a supernode under way besides
		// the one that sees the cancel.
		others int64
	}{
		{"set-up", 1, 0},
		{"before the root", rootFirst, 0},
		{"root front first", rootFirst + 1, 0},
		{"root front middle", (rootFirst + 1 + total) / 2, 0},
		{"root front last", total, 0},
	}
	for k := int64(1); k <= 7; k++ {
		at := max(2, total*k/8)
		others := int64(cancelWorkers - 1)
		if at >= rootFirst {
			others = 0
		}
		points = append(points, struct {
			name   string
			at     int64
			others int64
		}{fmt.Sprintf("%d of 8", k), at, others})
	}
	for _, p := range points {
		t.Run(fmt.Sprintf("%s (check %d of %d)", p.name, p.at, total), func(t *testing.T) {
			ctx := newCancelAt(p.at)
			var factored, afterCancel atomic.Int64
			sparse.SetFactoredHook(t, func(int) {
				factored.Add(1)
				if ctx.fired.Load() {
					afterCancel.Add(1)
				}
			})
			_, err := sparse.Factorize(ctx, sym, model.K, sparse.FactorOptions{})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled at check %d: want context.Canceled, got %v (%d of %d supernodes factored)", p.at, err, factored.Load(), sym.NSuper)
			}
			if n := afterCancel.Load(); n > p.others {
				t.Errorf("%d supernode(s) factored after the cancel, want at most %d (under way on another goroutine)", n, p.others)
			}
			if n := ctx.after.Load(); n > p.others {
				t.Errorf("%d check(s) after the cancel, want at most %d (the next check of each other goroutine)", n, p.others)
			}
		})
	}
}
