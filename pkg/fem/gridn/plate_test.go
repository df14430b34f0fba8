package gridn

import (
	"context"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/sparse"
)

// TestPlateCentreDeflection solves the plate benchmark on a 40×40 mesh and
// compares the centre deflection with the Kirchhoff solution of a clamped
// square plate under uniform pressure, w = 0.00126532·q·a⁴/D (Taylor and
// Govindjee, "Solution of clamped rectangular plate problems", Commun.
// Numer. Meth. Engng 20, 2004, table I; Timoshenko's table 35 rounds it to
// 0.00126). The coefficient does not depend on ν for clamped edges. DKQ
// on 40×40 is within 0.2 % of it (discretisation error, second order);
// 0.5 % leaves room for that while a wrong rigidity, element size or lost
// load is off by far more.
func TestPlateCentreDeflection(t *testing.T) {
	const n = 40
	m, err := GeneratePlate(n)
	if err != nil {
		t.Fatal(err)
	}
	if want := 6 * (n - 1) * (n - 1); m.NFree != want || len(m.NodeOf) != want {
		t.Fatalf("free DOFs %d (NodeOf %d), want %d", m.NFree, len(m.NodeOf), want)
	}
	sym, err := sparse.Analyze(m.K.Pat, sparse.AnalyzeOptions{Method: sparse.NestedDissection, NodeOf: m.NodeOf})
	if err != nil {
		t.Fatal(err)
	}
	f, err := sparse.Factorize(context.Background(), sym, m.K, sparse.FactorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, m.NFree)
	if err := f.Solve(x, m.RHS); err != nil {
		t.Fatal(err)
	}
	centre := n/2 + (n+1)*(n/2)
	w := x[m.DOF[centre][2]]
	d := PlateE * math.Pow(PlateThickness, 3) / (12 * (1 - PlateNu*PlateNu))
	want := -0.00126532 * PlatePressure * math.Pow(PlateSide, 4) / d
	rel := math.Abs(w-want) / math.Abs(want)
	t.Logf("centre deflection %.6g m, exact %.6g m (%.2f %%)", w, want, 100*rel)
	if !(rel <= 0.005) {
		t.Errorf("centre deflection %.6g m, want %.6g m (Taylor–Govindjee), off by %.2f %%", w, want, 100*rel)
	}
	if r := sparse.RelResidual(m.K, x, m.RHS); !(r <= 1e-10) {
		t.Errorf("relative residual %.2g > 1e-10", r)
	}
}
