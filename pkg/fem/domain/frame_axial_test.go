package domain_test

import (
	"context"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
)

// TestAxialParts: for a member with a rigid offset at each end and a
// moment release at B, under arbitrary node displacements u (no loads):
// ChordVector·u is the node-side chord elongation of End
// (UNode[6] − UNode[0]); the axial force of End is EA/L times it (the
// axial DOF is not released); and GeometricStiffnessOf and
// GeometricEndForcesOf at that force are GeometricStiffness and
// GeometricEndForces of the state. All are the same linear algebra in
// another order, so they agree to round-off: 1e-12 relative (the end
// forces relative to the largest entry of K_G times 12·max|u|, a bound of
// their size).
func TestAxialParts(t *testing.T) {
	m := &domain.Model{
		Nodes:     []domain.Node{{ID: 1}, {ID: 2, X: 2, Y: 3, Z: 1}},
		Materials: []domain.Material{{ID: 5, E: e, G: gm}},
		Sections:  []domain.Section{{ID: 4, A: 0.01, J: 1e-6, Iy: 3e-5, Iz: 5e-5}},
		Members: []domain.Member{{ID: 3, NodeA: 1, NodeB: 2, Section: 4, Material: 5,
			ReleaseB: "FFFFRR", OffsetA: geom.Vec3{0.1, 0.2, 0}, OffsetB: geom.Vec3{0, -0.15, 0.05}}},
	}
	d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fe := d.Frames[0]
	u := [12]float64{1e-3, -2e-3, 0.5e-3, 1e-3, 2e-3, -3e-3, 3e-3, 1e-3, -1e-3, -2e-3, 1e-3, 4e-3}
	var b, qc, q0 [12]float64
	fe.ChordVector(b[:])
	var st domain.FrameState
	if err := fe.End(&u, &qc, &q0, &st); err != nil {
		t.Fatal(err)
	}
	elong := 0.0
	for i := range 12 {
		elong += b[i] * u[i]
	}
	want := st.UNode[6] - st.UNode[0]
	if !(math.Abs(elong-want) <= 1e-12*math.Abs(want)) {
		t.Errorf("ChordVector·u = %g, End's elongation %g", elong, want)
	}
	n := (st.Q[6] - st.Q[0]) / 2
	ka := e * 0.01 / fe.Props.L
	if !(math.Abs(n-ka*want) <= 1e-12*math.Abs(n)) {
		t.Errorf("axial force %g, EA/L·elongation %g", n, ka*want)
	}
	var kg, kgOf [144]float64
	if err := fe.GeometricStiffness(u[:], nil, kg[:]); err != nil {
		t.Fatal(err)
	}
	fe.GeometricStiffnessOf(n, domain.GeometricFull, kgOf[:])
	var qg, qgOf [12]float64
	if err := fe.GeometricEndForces(u[:], nil, qg[:]); err != nil {
		t.Fatal(err)
	}
	fe.GeometricEndForcesOf(u[:], n, domain.GeometricFull, qgOf[:])
	scale := 0.0
	for _, v := range kg {
		scale = math.Max(scale, math.Abs(v))
	}
	for i := range kg {
		if !(math.Abs(kg[i]-kgOf[i]) <= 1e-12*scale) {
			t.Fatalf("GeometricStiffnessOf(%g)[%d] = %g, GeometricStiffness %g", n, i, kgOf[i], kg[i])
		}
	}
	for i := range qg {
		if !(math.Abs(qg[i]-qgOf[i]) <= 1e-12*scale*12*4e-3) { // ‖K_G‖·12·max|u|

			t.Errorf("GeometricEndForcesOf[%d] = %g, GeometricEndForces %g", i, qgOf[i], qg[i])
		}
	}
}
