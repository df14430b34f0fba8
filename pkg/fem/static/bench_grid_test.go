package static_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/gusset/gusset/pkg/fem/static"
)

// BenchmarkGridStatic times a whole linear static analysis of grid-20
// (52,920 equations) and grid-30 (172,980) under one load case, SW+X,
// through the default solver settings: setup, assembly, ordering and
// factorization, solution and recovery, each reported. These are the
// figures to compare when the engine's core changes.
func BenchmarkGridStatic(b *testing.B) {
	for _, n := range []int{20, 30} {
		b.Run(fmt.Sprintf("grid-%d", n), func(b *testing.B) {
			m := gridModel(b, n)
			ctx := context.Background()
			for b.Loop() {
				res, err := static.Analyze(ctx, m, static.Options{Cases: []string{"SW+X"}})
				if err != nil {
					b.Fatal(err)
				}
				tm := res.Timings
				b.ReportMetric(tm.Setup.Seconds(), "s-setup")
				b.ReportMetric(tm.Assembly.Seconds(), "s-assembly")
				b.ReportMetric(tm.Factor.Seconds(), "s-factor")
				b.ReportMetric((tm.Loads + tm.Solve).Seconds(), "s-solve")
				b.ReportMetric(tm.Recovery.Seconds(), "s-recovery")
				b.ReportMetric(tm.Total.Seconds(), "s-total")
			}
		})
	}
}
