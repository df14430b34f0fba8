package sparse_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/fem/gridn"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// Ordering grid-n takes seconds for large n, and a cancelled analysis must
// not wait for it: AnalyzeContext stops the fill-reducing orderings when
// the context ends and reports the context's error.
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
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			time.AfterFunc(5*time.Millisecond, cancel)
			_, err := sparse.AnalyzeContext(ctx, m.K.Pat, sparse.AnalyzeOptions{Method: meth, BlockSize: 6})
			if err == nil {
				t.Skip("the ordering finished before the cancel")
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err %v, want context.Canceled", err)
			}
		})
	}
	// An uncancelled analysis still works after the changes.
	if _, err := sparse.AnalyzeContext(context.Background(), m.K.Pat, sparse.AnalyzeOptions{Method: sparse.NestedDissection, BlockSize: 6}); err != nil {
		t.Fatal(err)
	}
}
