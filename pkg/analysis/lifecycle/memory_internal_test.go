package lifecycle

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A budget hands out reservations while they fit, makes the next wait
// until one is given back, gives up a wait when its context ends, and
// counts a reservation given back twice once.
func TestMemoryBudgetReserve(t *testing.T) {
	ctx := context.Background()
	b := NewMemoryBudget(100)
	r1, err := b.reserve(ctx, 60)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := b.reserve(ctx, 40)
	if err != nil || b.Used() != 100 {
		t.Fatalf("two reservations that fit: %v, used %d, want 100", err, b.Used())
	}
	got := make(chan error, 1)
	go func() {
		r3, err := b.reserve(ctx, 50)
		if err == nil {
			defer r3()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("a reservation past the budget returned (%v) before any was given back", err)
	case <-time.After(50 * time.Millisecond):
		// A wait that did not end proves nothing by its length; the
		// check is that it had not returned yet.
	}
	r1()
	r1() // once only
	if err := <-got; err != nil {
		t.Fatalf("the waiting reservation: %v", err)
	}
	r2()
	if b.Used() != 0 {
		t.Errorf("used %d after every reservation went back, want 0", b.Used())
	}
	full, err := b.reserve(ctx, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer full()
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := b.reserve(cctx, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("a wait whose context ended: %v, want context.Canceled", err)
	}
}

// MiB rounds up, and shows KiB below 10 MiB so that a small figure is
// not 0 or 1.
func TestMiB(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0 KiB"}, {1, "1 KiB"}, {10<<20 - 1, "10240 KiB"}, {10 << 20, "10 MiB"}, {10<<20 + 1, "11 MiB"}} {
		if got := MiB(tc.n); got != tc.want {
			t.Errorf("MiB(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
