package static_test

import (
	"context"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/static"
)

// TestGeometricStiffnessFromStaticState assembles K and K_G of a
// one-element cantilever column through the shared parts, K_G from the
// static solution under a tip compression P, and solves det(K + λ·K_G) =
// 0 on the tip's sway and rotation in each bending plane. With cubic
// shape functions the critical load is λ·P = 2.486·EI/L² (McGuire,
// Gallagher and Ziemian, Matrix Structural Analysis, 2nd ed., 2000, §9.4;
// exact π²/4 = 2.467), the smaller root of 0.15·p² − 5.2·p + 12 = 0 in p =
// PL²/EI (tolerance 1e-9: round-off of the static solution's axial force).
func TestGeometricStiffnessFromStaticState(t *testing.T) {
	const L, P, iz = 4.0, 1000.0, 8e-6
	m := base(sec(9, 0.01, iz))
	m.Nodes = []domain.Node{node(37, 0, 0, 0), node(38, 0, L, 0)}
	m.Members = []domain.Member{frame(39, 37, 38, 9)}
	m.Supports = []domain.Support{{Node: 37, Code: "FFFFFF"}}
	m.LoadCases = []domain.LoadCase{{ID: 40, NodeLoads: []domain.NodeLoad{{Node: 38, F: [6]float64{1: -P}}}}}
	ctx := context.Background()
	d, err := domain.Build(ctx, m, domain.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := static.Run(ctx, d, static.Options{})
	if err != nil {
		t.Fatal(err)
	}
	u := make([]float64, 12)
	tip := nodeRes(t, caseByName(t, res, 40), 38).Disp
	copy(u[6:], tip[:])
	loads, err := d.ResolveCase(40)
	if err != nil {
		t.Fatal(err)
	}
	num := d.DOF.Number(nil)
	as, err := d.NewAssembler(num)
	if err != nil {
		t.Fatal(err)
	}
	k, kg := as.NewMatrix(), as.NewMatrix()
	d.Assemble(as, k, domain.StiffnessMatrix, nil)
	if err := d.AssembleGeometric(as, kg, u, loads, nil); err != nil {
		t.Fatal(err)
	}
	want := (5.2 - math.Sqrt(5.2*5.2-4*0.15*12)) / (2 * 0.15)
	eq := func(dof int) int { return num.Eq[6+dof] }
	// The column runs along global Y: sway along X bends about Z, sway
	// along Z bends about X.
	for _, plane := range []struct {
		name        string
		sway, twist int
	}{{"sway X, rotation Z", 0, 5}, {"sway Z, rotation X", 2, 3}} {
		t.Run(plane.name, func(t *testing.T) {
			i, j := eq(plane.sway), eq(plane.twist)
			a := [2][2]float64{{k.At(i, i), k.At(i, j)}, {k.At(j, i), k.At(j, j)}}
			g := [2][2]float64{{kg.At(i, i), kg.At(i, j)}, {kg.At(j, i), kg.At(j, j)}}
			// det(a + λg) = qa·λ² + qb·λ + qc.
			qa := g[0][0]*g[1][1] - g[0][1]*g[1][0]
			qb := a[0][0]*g[1][1] + a[1][1]*g[0][0] - a[0][1]*g[1][0] - a[1][0]*g[0][1]
			qc := a[0][0]*a[1][1] - a[0][1]*a[1][0]
			lambda := (-qb - math.Sqrt(qb*qb-4*qa*qc)) / (2 * qa)
			if got := lambda * P * L * L / (E * iz); !(math.Abs(got-want) <= 1e-9*want) {
				t.Errorf("λ·P·L²/EI = %.12g, want %.12g", got, want)
			}
		})
	}
}
