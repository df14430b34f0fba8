package sparse_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/fem/gridn"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// TestCancelGrid20 cancels the numeric factorization of grid-20 at points
// from set-up (allocating and filling the factor) to the root front, and
// requires the error to arrive within 100 ms of the cancel (the acceptance
// bound). AMD's order has the largest fronts (a 4998-column root), so it is
// the hard case. Between two checks of the context the factorization does
// at most a chunk of dense work of ctxChunkWork multiply-adds per worker,
// or a block of zeroing, copying or scattering: observed lags are below
// 10 ms idle and below 20 ms with two CPU-bound processes competing.
func TestCancelGrid20(t *testing.T) {
	if testing.Short() {
		t.Skip("grid-20 factorization takes seconds")
	}
	model, err := gridn.Generate(20)
	if err != nil {
		t.Fatal(err)
	}
	sym, err := sparse.Analyze(model.K.Pat, sparse.AnalyzeOptions{Method: sparse.AMD, NodeOf: model.NodeOf})
	if err != nil {
		t.Fatal(err)
	}
	for _, after := range []time.Duration{0, 5 * time.Millisecond, 50 * time.Millisecond, 150 * time.Millisecond,
		300 * time.Millisecond, 600 * time.Millisecond, 900 * time.Millisecond} {
		t.Run(after.String(), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			var cancelled time.Time
			timer := time.AfterFunc(after, func() { cancelled = time.Now(); cancel() })
			defer timer.Stop()
			_, err := sparse.Factorize(ctx, sym, model.K, sparse.FactorOptions{})
			done := time.Now()
			if err == nil {
				t.Skip("factorization finished before the cancel")
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("want context.Canceled, got %v", err)
			}
			if lag := done.Sub(cancelled); lag > 100*time.Millisecond {
				t.Fatalf("returned %v after the cancel, want ≤ 100ms", lag)
			}
		})
	}
}
