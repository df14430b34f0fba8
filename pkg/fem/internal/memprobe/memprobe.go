// Package memprobe measures the peak memory of an analysis, for the tests
// that hold the engine's memory estimates to it (static.MemoryEstimate).
// Only tests import it.
package memprobe

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/fem/sparse"
)

// GCPercent is the collector's target while a Probe runs: the heap's
// objects (live and not yet swept) exceed the live set by at most that
// fraction, so the peak measured is the live peak within it.
const GCPercent = 5

// Every is the sampling period: each phase of an analysis of the sizes
// measured holds its peak for far longer.
const Every = time.Millisecond

var samples = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"}}

// Held returns the memory the process holds now as a Probe counts it:
// the Go heap's objects, the goroutine stacks, and the factor values
// mapped outside the heap (sparse.MappedBytes).
func Held() int64 {
	s := make([]metrics.Sample, len(samples))
	copy(s, samples)
	metrics.Read(s)
	var n int64
	for _, v := range s {
		n += int64(v.Value.Uint64())
	}
	return n + sparse.MappedBytes()
}

// Probe samples Held from its start to Growth.
type Probe struct {
	stop chan struct{}
	done sync.WaitGroup
	mu   sync.Mutex
	base int64
	peak int64
}

// Start sets the collector's target to GCPercent until the test ends,
// collects garbage, waits until no factor of an earlier analysis is
// mapped (a factor's values are unmapped by a cleanup that runs after the
// collection that found it unused: a baseline taken before would count
// them, and the growth miss them), takes the baseline and starts sampling.
func Start(tb testing.TB) *Probe {
	tb.Helper()
	old := debug.SetGCPercent(GCPercent)
	tb.Cleanup(func() { debug.SetGCPercent(old) })
	deadline := time.Now().Add(time.Minute)
	for runtime.GC(); sparse.MappedBytes() != 0; runtime.GC() {
		if time.Now().After(deadline) {
			tb.Fatalf("%d bytes of factors still mapped after a minute", sparse.MappedBytes())
		}
		time.Sleep(10 * time.Millisecond)
	}
	p := &Probe{stop: make(chan struct{}), base: Held()}
	p.done.Go(func() {
		t := time.NewTicker(Every)
		defer t.Stop()
		for {
			h := Held()
			p.mu.Lock()
			p.peak = max(p.peak, h)
			p.mu.Unlock()
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	})
	return p
}

// Growth stops sampling and returns the peak above the baseline.
func (p *Probe) Growth() int64 {
	close(p.stop)
	p.done.Wait()
	return p.peak - p.base
}
