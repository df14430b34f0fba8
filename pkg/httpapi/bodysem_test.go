package httpapi

import (
	"context"
	"fmt"
	"testing"
)

// The semaphore serves waiters oldest request first, lets the ones
// behind a waiter that gives up through, lets only the oldest waiter hold
// weight while it waits, and refuses what could never fit. One owner
// holds at most its share, and a waiter held up by its own owner's share
// holds up no other owner.
func TestWeighted(t *testing.T) {
	// waitFor starts an Acquire and returns its outcome.
	waitFor := func(s *weighted, ctx context.Context, n int64, age uint64, owner string, holding bool) <-chan error {
		done := make(chan error, 1)
		go func() { done <- s.Acquire(ctx, n, age, owner, holding) }()
		return done
	}
	waiting := func(t *testing.T, s *weighted, n int) {
		t.Helper()
		poll(t, fmt.Sprintf("%d wait", n), func() bool { return s.waiting() == n })
	}
	granted := func(t *testing.T, chs ...<-chan error) {
		t.Helper()
		for _, ch := range chs {
			if err := <-ch; err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []struct {
		name  string
		share int64 // of a semaphore of 10
		run   func(t *testing.T, s *weighted)
	}{
		{"waiters are served oldest first", 10, func(t *testing.T, s *weighted) {
			if !s.TryAcquire(8, 1, "") {
				t.Fatal("TryAcquire(8) of 10 failed")
			}
			big := waitFor(s, context.Background(), 5, 3, "", false)
			waiting(t, s, 1)
			if s.TryAcquire(1, 4, "") {
				t.Fatal("a younger small weight went past a waiter")
			}
			small := waitFor(s, context.Background(), 1, 4, "", false)
			waiting(t, s, 2)
			if !s.TryAcquire(2, 2, "") {
				t.Fatal("an older request waited behind younger ones")
			}
			s.Release("", 8)
			granted(t, big, small)
			if s.Held() != 8 {
				t.Errorf("held %d, want 8", s.Held())
			}
		}},
		{"a waiter that gives up lets the next through", 10, func(t *testing.T, s *weighted) {
			if err := s.Acquire(context.Background(), 8, 1, "", false); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			big := waitFor(s, ctx, 5, 2, "", false)
			waiting(t, s, 1)
			small := waitFor(s, context.Background(), 2, 3, "", false)
			waiting(t, s, 2)
			cancel()
			if err := <-big; err != context.Canceled {
				t.Errorf("the cancelled waiter got %v", err)
			}
			granted(t, small)
			if s.Held() != 10 || s.waiting() != 0 {
				t.Errorf("held %d with %d waiting, want 10 and none", s.Held(), s.waiting())
			}
		}},
		{"a holder does not wait behind an older request", 10, func(t *testing.T, s *weighted) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s.TryAcquire(8, 1, "")
			waitFor(s, ctx, 5, 2, "", false)
			waiting(t, s, 1)
			if err := s.Acquire(ctx, 1, 3, "", true); err != errYield {
				t.Errorf("got %v, want errYield", err)
			}
			// One that holds nothing waits in line instead.
			waitFor(s, ctx, 1, 3, "", false)
			waiting(t, s, 2)
		}},
		{"an older waiter makes younger holders give way", 10, func(t *testing.T, s *weighted) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s.TryAcquire(8, 1, "")
			younger := waitFor(s, ctx, 5, 3, "", true)
			waiting(t, s, 1)
			waitFor(s, ctx, 5, 2, "", false)
			if err := <-younger; err != errYield {
				t.Errorf("the younger holder got %v, want errYield", err)
			}
			waiting(t, s, 1)
		}},
		{"more than the size is refused at once", 10, func(t *testing.T, s *weighted) {
			if err := s.Acquire(context.Background(), 11, 1, "", false); err == nil {
				t.Fatal("Acquire(11) of 10 succeeded")
			}
			if s.Held() != 0 || s.waiting() != 0 {
				t.Errorf("held %d with %d waiting", s.Held(), s.waiting())
			}
		}},
		{"releasing more than held panics", 10, func(t *testing.T, s *weighted) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			s.Release("", 1)
		}},
		{"an owner holds at most its share", 5, func(t *testing.T, s *weighted) {
			if !s.TryAcquire(5, 1, "a") {
				t.Fatal("TryAcquire(5) of a share of 5 failed")
			}
			if s.TryAcquire(1, 2, "a") {
				t.Fatal("an owner went past its share")
			}
			if !s.TryAcquire(5, 3, "b") {
				t.Fatal("another owner found no room")
			}
			if err := s.Acquire(context.Background(), 6, 4, "c", false); err == nil {
				t.Fatal("Acquire(6) of a share of 5 succeeded")
			}
			if s.heldBy("a") != 5 || s.heldBy("b") != 5 || s.heldBy("c") != 0 {
				t.Errorf("held by a, b, c: %d, %d, %d", s.heldBy("a"), s.heldBy("b"), s.heldBy("c"))
			}
		}},
		{"a waiter held up by its own share holds up no other owner", 5, func(t *testing.T, s *weighted) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s.TryAcquire(5, 1, "a") // a stalled body, say
			more := waitFor(s, ctx, 2, 2, "a", false)
			waiting(t, s, 1)
			if !s.TryAcquire(3, 3, "b") {
				t.Fatal("b waited behind a's waiter")
			}
			granted(t, waitFor(s, ctx, 2, 4, "b", false))
			// a's younger requests wait behind its older one.
			if s.TryAcquire(1, 5, "a") {
				t.Fatal("a's younger request went past its older waiter")
			}
			s.Release("b", 5)
			s.Release("a", 5)
			granted(t, more)
			if s.heldBy("a") != 2 || s.Held() != 2 {
				t.Errorf("held %d, by a %d; want 2 and 2", s.Held(), s.heldBy("a"))
			}
		}},
		{"a waiter behind its owner's waiter holds up no other owner", 5, func(t *testing.T, s *weighted) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s.TryAcquire(4, 1, "a")
			waitFor(s, ctx, 3, 2, "a", false) // over a's share
			waiting(t, s, 1)
			waitFor(s, ctx, 1, 3, "a", false) // within it, but behind a's older waiter
			waiting(t, s, 2)
			if !s.TryAcquire(5, 4, "b") {
				t.Fatal("b waited behind a's waiters")
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, newWeighted(10, c.share)) })
	}
}
