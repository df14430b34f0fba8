package sparse_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/gusset/gusset/pkg/fem/gridn"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// TestFactorProgress factors grid-8 with a progress callback on several
// workers and checks the contract: calls never overlap, fractions
// increase within (0, 1] and the last one is 1; a callback that cancels
// the context stops the factorization with context.Canceled.
func TestFactorProgress(t *testing.T) {
	model, err := gridn.Generate(8)
	if err != nil {
		t.Fatal(err)
	}
	sym, err := sparse.Analyze(model.K.Pat, sparse.AnalyzeOptions{Method: sparse.NestedDissection, NodeOf: model.NodeOf, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("fractions", func(t *testing.T) {
		var inside atomic.Int32
		var got []float64
		_, err := sparse.Factorize(context.Background(), sym, model.K, sparse.FactorOptions{Progress: func(f float64) {
			if inside.Add(1) != 1 {
				t.Error("progress calls overlap")
			}
			got = append(got, f)
			inside.Add(-1)
		}})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 || got[len(got)-1] != 1 {
			t.Fatalf("fractions %v: want a last call with 1", got)
		}
		for i, f := range got {
			if !(f > 0 && f <= 1) || (i > 0 && f <= got[i-1]) {
				t.Fatalf("fractions %v: want increasing values in (0, 1]", got)
			}
		}
	})
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		calls := 0
		_, err := sparse.Factorize(ctx, sym, model.K, sparse.FactorOptions{Progress: func(float64) { calls++; cancel() }})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("want context.Canceled, got %v (after %d progress calls)", err, calls)
		}
	})
}
