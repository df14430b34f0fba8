package static_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/fem/buckling"
	"github.com/gusset/gusset/pkg/fem/dynamic"
	"github.com/gusset/gusset/pkg/fem/modal"
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
				res, err := static.Analyze(ctx, m, static.Options{Cases: []int64{1}})
				if err != nil {
					b.Fatal(err)
				}
				reportTimings(b, res.Timings)
			}
		})
	}
}

// reportTimings reports the phases of a static analysis.
func reportTimings(b *testing.B, tm static.Timings) {
	b.Helper()
	b.ReportMetric(tm.Setup.Seconds(), "s-setup")
	b.ReportMetric(tm.Assembly.Seconds(), "s-assembly")
	b.ReportMetric(tm.Factor.Seconds(), "s-factor")
	b.ReportMetric((tm.Loads + tm.Solve).Seconds(), "s-solve")
	b.ReportMetric(tm.Recovery.Seconds(), "s-recovery")
	b.ReportMetric(tm.Total.Seconds(), "s-total")
}

// BenchmarkGridEigen times, on grid-20 (52,920 equations, one load case
// with self-weight), a linear static analysis, the 20 lowest natural
// frequencies and the 6 lowest buckling factors, one after the other on
// the same model, and reports the eigen analyses' times as ratios to the
// static one (targets: 2.5 and 3), with the factorizations and the
// vectors the eigen operator was applied to (each a solve, and for
// buckling a product with K_G).
func BenchmarkGridEigen(b *testing.B) {
	m := gridModel(b, 20)
	m.LoadCases = m.LoadCases[:1]
	ctx := context.Background()
	for b.Loop() {
		t0 := time.Now()
		if _, err := static.Analyze(ctx, m, static.Options{}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		fr, err := dynamic.Analyze(ctx, m, dynamic.Options{Settings: modal.Settings{Modes: 20}})
		if err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		br, err := buckling.Analyze(ctx, m, buckling.Options{Settings: modal.Settings{Modes: 6}})
		if err != nil {
			b.Fatal(err)
		}
		t3 := time.Now()
		st, ft, bt := t1.Sub(t0).Seconds(), t2.Sub(t1).Seconds(), t3.Sub(t2).Seconds()
		b.ReportMetric(st, "s-static")
		b.ReportMetric(ft/st, "freq/static")
		b.ReportMetric(bt/st, "buckling/static")
		b.Logf("static %.2fs | 20 frequencies %.2fs (%d factorizations, %d applies, warnings %v) | 6 buckling factors %.2fs (%d factorizations, %d applies, warnings %v)",
			st, ft, fr.Factorizations, fr.Applies, fr.Warnings, bt, br.Factorizations, br.Applies, br.Warnings)
	}
}
