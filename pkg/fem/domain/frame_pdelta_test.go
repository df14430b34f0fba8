package domain_test

import (
	"context"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// TestGeometricEndForcesRigidRotation: a column in axial force −P turned
// rigidly by a small angle θ about global Z. The geometric end forces are
// then the change of direction of the axial force and no moments: the
// consistent K_G (McGuire, Gallagher and Ziemian, Matrix Structural
// Analysis, 2nd ed., 2000, §9.4) times a rigid rotation (0, θ, θL, θ) on
// (v_A, θ_A, v_B, θ_B) is (−Nθ, 0, Nθ, 0). The column is along Y, so its
// chord turns toward −X: in global axes f_B = (P·θ, 0, 0) and f_A = −f_B.
func TestGeometricEndForcesRigidRotation(t *testing.T) {
	const L, i, p, theta = 3.0, 4e-5, 1000.0, 1e-3
	d := column(t, L, i, "", "", 0)
	fe := d.Frames[0]
	u := compressed(L, p)
	u[5], u[11] = theta, theta
	u[6] = -theta * L // θẑ × (0, L, 0)
	var q, g [12]float64
	if err := fe.GeometricEndForces(u, nil, q[:]); err != nil {
		t.Fatal(err)
	}
	transform.ToGlobalVector(fe.Rot, q[:], g[:])
	want := [12]float64{0: -p * theta, 6: p * theta}
	for k := range 12 {
		if !(math.Abs(g[k]-want[k]) <= 1e-9*p*theta*L) {
			t.Errorf("global geometric end forces %v, want %v", g, want)
			break
		}
	}
}

// TestGeometricEndForcesMatchMatrix: for a member with a rigid offset at
// each end, a moment release at end B and loads along it, the end forces
// moved to the nodes (local to global axes, then Hᵀ through the offsets)
// are GeometricStiffness(u, c)·u, and they vanish over the released DOFs.
func TestGeometricEndForcesMatchMatrix(t *testing.T) {
	m := &domain.Model{
		Nodes:     []domain.Node{{ID: 1}, {ID: 2, X: 2, Y: 3, Z: 1}},
		Materials: []domain.Material{{ID: 5, E: e, G: gm}},
		Sections:  []domain.Section{{ID: 4, A: 0.01, J: 1e-6, Iy: 3e-5, Iz: 5e-5}},
		Members: []domain.Member{{ID: 3, NodeA: 1, NodeB: 2, Section: 4, Material: 5,
			ReleaseB: "FFFFRR", OffsetA: geom.Vec3{0.1, 0.2, 0}, OffsetB: geom.Vec3{0, -0.15, 0.05}}},
		LoadCases: []domain.LoadCase{{ID: 12, Members: []domain.MemberLoad{{Member: 3, Type: domain.DistributedForce,
			Axes: domain.GlobalInclined, Direction: geom.YAxis, P1: -2e4, P2: -2e4}}}},
	}
	d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.ResolveCase(12)
	if err != nil {
		t.Fatal(err)
	}
	fe := d.Frames[0]
	u := []float64{1e-4, -2e-4, 3e-5, 1e-4, -3e-4, 2e-4, -3e-4, -1e-3, 2e-4, 5e-4, 1e-4, -2e-4}
	var q, g [12]float64
	if err := fe.GeometricEndForces(u, c, q[:]); err != nil {
		t.Fatal(err)
	}
	transform.ToGlobalVector(fe.Rot, q[:], g[:])
	transform.OffsetForces([]geom.Vec3{m.Members[0].OffsetA, m.Members[0].OffsetB}, g[:], g[:])
	var kg [144]float64
	if err := fe.GeometricStiffness(u, c, kg[:]); err != nil {
		t.Fatal(err)
	}
	scale := 0.0
	var want [12]float64
	for r := range 12 {
		for k := range 12 {
			want[r] += kg[r*12+k] * u[k]
		}
		scale = math.Max(scale, math.Abs(want[r]))
	}
	if !(scale > 0) {
		t.Fatalf("no geometric force: K_G·u = %v", want)
	}
	for r := range 12 {
		if !(math.Abs(g[r]-want[r]) <= 1e-10*scale) {
			t.Errorf("moved end forces %v, K_G·u %v", g, want)
			break
		}
	}
	if q[10] != 0 || q[11] != 0 {
		t.Errorf("released moments at end B carry %g, %g", q[10], q[11])
	}
}
