// Package par runs the engine's data-parallel loops: fixed-size chunks of
// an index range on up to GOMAXPROCS goroutines.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Chunks calls fn(c, lo, hi) for the chunks [lo, hi) of size chunk
// covering [0, n), on up to GOMAXPROCS goroutines, and returns when all
// are done. fn must only write state owned by its chunk; callers combine
// per-chunk results in chunk order so that results do not depend on
// scheduling.
func Chunks(n, chunk int, fn func(c, lo, hi int)) {
	nChunks := (n + chunk - 1) / chunk
	workers := min(runtime.GOMAXPROCS(0), nChunks)
	if workers <= 1 {
		for c := range nChunks {
			fn(c, c*chunk, min((c+1)*chunk, n))
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				c := int(next.Add(1)) - 1
				if c >= nChunks {
					return
				}
				fn(c, c*chunk, min((c+1)*chunk, n))
			}
		})
	}
	wg.Wait()
}
