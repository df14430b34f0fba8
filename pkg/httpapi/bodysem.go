package httpapi

import (
	"context"
	"errors"
	"slices"
	"sync"
)

// weighted is the byte-weighted semaphore of the body gate. Its weight is
// held by owners (a workspace, or a remote address: see bodyOwner), and
// no owner may hold more than its share, so that no single client can
// take the whole budget: while one client's bodies hold its share, the
// others still find the rest.
//
// Waiters are served oldest request first (by age, a sequence number), so
// that a large body is not starved by a stream of small ones; a waiter
// that waits only because its own owner holds its share does not hold up
// the others' waiters, but does hold up its own owner's younger ones. It
// also keeps half-read bodies from waiting for each other: only the
// oldest waiter may hold weight while it waits. A holder that would wait
// behind an older request, or is waiting when an older one comes to wait,
// is told to give way (errYield) and gives back what it holds. Every
// other holder is reading or handling its body and will give its weight
// back, so the oldest waiter always gets its weight in the end: at most
// its share, which is at most the size.
type weighted struct {
	size    int64
	share   int64 // the most one owner may hold
	mu      sync.Mutex
	cur     int64
	peak    int64            // the most ever held at once, for tests
	owners  map[string]int64 // weight held, by owner
	waiters []*waiter        // oldest first
}

type waiter struct {
	n       int64
	age     uint64
	owner   string
	holding bool
	ready   chan error // nil: granted; errYield: give way
}

// newWeighted returns a semaphore of size whose owners may each hold
// share; a share outside 1..size is the size.
func newWeighted(size, share int64) *weighted {
	if share <= 0 || share > size {
		share = size
	}
	return &weighted{size: size, share: share, owners: map[string]int64{}}
}

// TryAcquire takes n for owner without waiting, if it is free, within the
// owner's share, and no older request is in line before it.
func (s *weighted) TryAcquire(n int64, age uint64, owner string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.free(n, owner) && !s.ahead(age, owner) {
		s.take(owner, n)
		return true
	}
	return false
}

// Acquire takes n for owner's request of the given age, which holds
// weight already if holding, waiting until it is free or ctx ends. It
// fails at once with errYield when the request holds weight and an older
// one waits, and with an error when n exceeds the share: it could never
// be free.
func (s *weighted) Acquire(ctx context.Context, n int64, age uint64, owner string, holding bool) error {
	s.mu.Lock()
	if n > s.share {
		s.mu.Unlock()
		return errors.New("weight larger than an owner's share of the semaphore")
	}
	if s.free(n, owner) && !s.ahead(age, owner) {
		s.take(owner, n)
		s.mu.Unlock()
		return nil
	}
	if holding && len(s.waiters) > 0 && s.waiters[0].age < age {
		s.mu.Unlock()
		return errYield
	}
	w := &waiter{n: n, age: age, owner: owner, holding: holding, ready: make(chan error, 1)}
	at, _ := slices.BinarySearchFunc(s.waiters, age, func(x *waiter, a uint64) int {
		switch {
		case x.age < a:
			return -1
		case x.age > a:
			return 1
		}
		return 0
	})
	s.waiters = slices.Insert(s.waiters, at, w)
	if at == 0 {
		// Younger waiters that hold weight would keep it from w.
		s.waiters = slices.DeleteFunc(s.waiters, func(x *waiter) bool {
			if x != w && x.holding {
				x.ready <- errYield
				return true
			}
			return false
		})
	}
	s.mu.Unlock()
	select {
	case err := <-w.ready:
		return err
	case <-ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case err := <-w.ready:
		if err == nil {
			// Granted as ctx ended: give it back.
			s.give(owner, n)
		}
	default:
		s.waiters = slices.DeleteFunc(s.waiters, func(x *waiter) bool { return x == w })
	}
	// w may have held up the waiters behind it.
	s.grant()
	return ctx.Err()
}

// Release gives back n that owner took by TryAcquire or Acquire.
func (s *weighted) Release(owner string, n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.give(owner, n)
	s.grant()
}

// Held is the weight taken now.
func (s *weighted) Held() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

// heldBy is the weight owner holds now.
func (s *weighted) heldBy(owner string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.owners[owner]
}

// waiting is the number of waiters, for tests.
func (s *weighted) waiting() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.waiters)
}

// maxHeld is the most ever held at once, for tests.
func (s *weighted) maxHeld() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak
}

// free reports whether n is free for owner: in the semaphore and in the
// owner's share. The caller holds mu.
func (s *weighted) free(n int64, owner string) bool {
	return s.size-s.cur >= n && s.owners[owner]+n <= s.share
}

// ahead reports whether a request of owner of the given age must wait
// behind an older waiter: one of its own owner, or one that grant would
// serve before it (not held up by its own owner's share). The caller
// holds mu.
func (s *weighted) ahead(age uint64, owner string) bool {
	var blocked map[string]bool
	for _, w := range s.waiters {
		if w.age >= age {
			return false
		}
		if w.owner == owner {
			return true
		}
		if !blocked[w.owner] && s.owners[w.owner]+w.n <= s.share {
			return true
		}
		if blocked == nil {
			blocked = map[string]bool{}
		}
		blocked[w.owner] = true
	}
	return false
}

// take records n as taken by owner; the caller holds mu.
func (s *weighted) take(owner string, n int64) {
	s.cur += n
	s.owners[owner] += n
	s.peak = max(s.peak, s.cur)
}

// give records n as given back by owner; the caller holds mu.
func (s *weighted) give(owner string, n int64) {
	s.cur -= n
	s.owners[owner] -= n
	if s.cur < 0 || s.owners[owner] < 0 {
		panic("weighted semaphore: released more than held")
	}
	if s.owners[owner] == 0 {
		delete(s.owners, owner)
	}
}

// grant wakes the waiters, oldest first, whose weight is free. A waiter
// held up by its own owner's share is passed over (and so are its
// owner's younger waiters), one held up by the semaphore stops the
// round: the younger ones wait behind it. The caller holds mu.
func (s *weighted) grant() {
	var blocked map[string]bool
	for i := 0; i < len(s.waiters); {
		w := s.waiters[i]
		if blocked[w.owner] || s.owners[w.owner]+w.n > s.share {
			if blocked == nil {
				blocked = map[string]bool{}
			}
			blocked[w.owner] = true
			i++
			continue
		}
		if s.size-s.cur < w.n {
			return
		}
		s.take(w.owner, w.n)
		s.waiters = slices.Delete(s.waiters, i, i+1)
		w.ready <- nil
	}
}
