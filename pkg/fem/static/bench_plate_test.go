package static_test

import (
	"context"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/internal/platecase"
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/shell"
	"github.com/gusset/gusset/pkg/fem/static"
)

// BenchmarkPlateMesh times a whole linear static analysis of a 200 × 200
// quad mesh (40,000 Mindlin plates, 40,401 nodes, about 242,000
// equations), simply supported under a uniform pressure — setup,
// assembly, factorization, solution and recovery, each reported, with
// the factor's nonzeros and flops — and, in the same run, grid-30's
// static analysis. The target is the factorization rate: plates must not
// make the solver path slower per unit of work, so GFLOP/s on the plate
// mesh must be at least two thirds of grid-30's (plate/grid ≥ 0.67). The
// two are measured one after the other on one machine, as the ratio
// needs.
func BenchmarkPlateMesh(b *testing.B) {
	const n = 200
	plates := platecase.Grid(n, n, 20, 20, false, shell.Mindlin, 0.2)
	platecase.SimplySupport(plates, n, n)
	lc := domain.LoadCase{ID: 1}
	for _, p := range plates.Plates {
		lc.Pressures = append(lc.Pressures, domain.PlatePressure{Plate: p.ID, Axes: domain.GlobalInclined, P: [3]float64{0, 0, -5000}})
	}
	plates.LoadCases = []domain.LoadCase{lc}
	grid := gridModel(b, 30)
	ctx := context.Background()
	rate := func(m *domain.Model, cases []int64) (float64, linsys.SparseStats, static.Timings) {
		f := &linsys.SparseFactorizer{Orderings: static.Options{}.Orderings()}
		res, err := static.Analyze(ctx, m, static.Options{Cases: cases, Factorizer: f})
		if err != nil {
			b.Fatal(err)
		}
		st := f.Stats()
		return st.Flops / st.NumericTime.Seconds() / 1e9, st, res.Timings
	}
	for b.Loop() {
		pr, ps, tm := rate(plates, nil)
		gr, _, _ := rate(grid, []int64{1})
		reportTimings(b, tm)
		b.ReportMetric(float64(tm.Equations), "equations")
		b.ReportMetric(float64(ps.NnzL), "nnz(L)")
		b.ReportMetric(ps.Flops/1e9, "Gflop")
		b.ReportMetric(pr, "GFLOP/s-plates")
		b.ReportMetric(gr, "GFLOP/s-grid30")
		b.ReportMetric(pr/gr, "plate/grid")
	}
}
