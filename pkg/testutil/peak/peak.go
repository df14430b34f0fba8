// Package peak samples a quantity in the background (a process's resident
// memory, the Go heap) and keeps the largest value seen, for tests and
// benchmarks that bound or report a peak that a single reading at the
// end would miss.
package peak

import (
	"sync"
	"time"
)

// Sampler samples until Stop.
type Sampler struct {
	mu       sync.Mutex
	top      int64
	done     chan struct{}
	finished chan struct{}
	once     sync.Once
}

// Start calls sample every interval, at once first, and keeps the
// largest value it gives; a sample that reports !ok (a process that has
// gone) is skipped. Past over bytes it calls onOver once, so that a test
// can stop a process before it takes the machine's memory (nil: never).
func Start(every time.Duration, sample func() (int64, bool), over int64, onOver func()) *Sampler {
	s := &Sampler{done: make(chan struct{}), finished: make(chan struct{})}
	go func() {
		defer close(s.finished)
		tick := time.NewTicker(every)
		defer tick.Stop()
		called := false
		for {
			if v, ok := sample(); ok {
				s.mu.Lock()
				s.top = max(s.top, v)
				s.mu.Unlock()
				if onOver != nil && v > over && !called {
					called = true
					onOver()
				}
			}
			select {
			case <-s.done:
				return
			case <-tick.C:
			}
		}
	}()
	return s
}

// Stop ends the sampling and returns the largest value seen; it may be
// called again.
func (s *Sampler) Stop() int64 {
	s.once.Do(func() { close(s.done) })
	<-s.finished
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.top
}
