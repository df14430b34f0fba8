package sparse_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gusset/gusset/pkg/fem/gridn"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// Ordering grid-n takes seconds for large n, and a cancelled analysis must
// not wait for it: AnalyzeContext stops the fill-reducing orderings when
// the context ends and reports the context's error. "during" cancels at
// the middle check of the context an uncancelled analysis makes (cancelAt),
// so the cancel always lands inside the ordering; the orderings must then
// stop at their next checks, short of the checks a whole analysis makes.
func TestAnalyzeStopsWhenCancelled(t *testing.T) {
	m, err := gridn.Generate(16)
	if err != nil {
		t.Fatal(err)
	}
	for _, meth := range []sparse.Method{sparse.AMD, sparse.NestedDissection} {
		t.Run(meth.String()+"/before", func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if _, err := sparse.AnalyzeContext(ctx, m.K.Pat, sparse.AnalyzeOptions{Method: meth, BlockSize: 6}); !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled before: err %v, want context.Canceled", err)
			}
		})
		t.Run(meth.String()+"/during", func(t *testing.T) {
			whole := newCancelAt(0)
			if _, err := sparse.AnalyzeContext(whole, m.K.Pat, sparse.AnalyzeOptions{Method: meth, BlockSize: 6}); err != nil {
				t.Fatal(err)
			}
			total := whole.checks.Load()
			ctx := newCancelAt(total / 2)
			_, err := sparse.AnalyzeContext(ctx, m.K.Pat, sparse.AnalyzeOptions{Method: meth, BlockSize: 6})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled at check %d of %d: err %v, want context.Canceled", total/2, total, err)
			}
			if n := ctx.checks.Load(); n >= total {
				t.Errorf("cancelled at check %d, the analysis went on to check %d times, as many as a whole one (%d)", total/2, n, total)
			}
		})
	}
	// An uncancelled analysis still works after the changes.
	if _, err := sparse.AnalyzeContext(context.Background(), m.K.Pat, sparse.AnalyzeOptions{Method: sparse.NestedDissection, BlockSize: 6}); err != nil {
		t.Fatal(err)
	}
}
