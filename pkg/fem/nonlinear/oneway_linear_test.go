package nonlinear_test

import (
	"context"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
	"github.com/gusset/gusset/pkg/fem/static"
)

// TestSmallOneWayMatchesReversal: under tiny loads the Small theory's
// member and support laws must find a state of the one-way problem: on a
// 3-D frame with tension-only diagonals (one with rigid offsets), a
// compression-only strut that a thermal load presses, a cable and a gap without
// openings (tension- and compression-only) and one-way supports, every
// one-way member and support either acts the right way or has no force
// and stands on its slack side, and the state is the linear solution of
// the model without the members and support DOFs that carry nothing
// (removing a member or restraint that carries nothing leaves the
// equilibrium as it is). The linear analysis's reversal loop cycles on
// this model (it switches every wrong member and support at once), so the
// reference is that state's linear analysis: displacements, reactions and
// end actions within 1e-6 of the largest of each, as in
// TestSmallFeaturesMatchLinear (the geometric terms are about 1e-7
// relative at these loads).
func TestSmallOneWayMatchesReversal(t *testing.T) {
	const s = 0.01 // N, N·m
	m := &domain.Model{
		Materials: []domain.Material{{ID: 1, E: steel.E, G: steel.G, Alpha: 1.2e-5}},
		Sections: []domain.Section{{ID: 1, A: steel.A, Ay: steel.Ay, Az: steel.Az, J: steel.J, Iy: steel.Iy, Iz: steel.Iz,
			PrincipalAngle: 0.3}},
		Nodes: []domain.Node{{ID: 1, X: 0, Y: 0, Z: 0}, {ID: 2, X: 0, Y: 3, Z: 0}, {ID: 3, X: 4, Y: 3, Z: 0},
			{ID: 4, X: 4, Y: 3, Z: 2.5}, {ID: 5, X: 4, Y: 0, Z: 2.5}, {ID: 6, X: 5, Y: 1, Z: 3},
			{ID: 9, X: 4, Y: 0, Z: 0}, {ID: 10, X: 0, Y: 0, Z: 2.5}},
		Members: []domain.Member{
			{ID: 77, NodeA: 1, NodeB: 2, Section: 1, Material: 1},
			{ID: 66, NodeA: 2, NodeB: 3, Section: 1, Material: 1, Direction: geom.Direction{Angle: 0.5}},
			{ID: 64, NodeA: 3, NodeB: 4, Section: 1, Material: 1},
			{ID: 78, NodeA: 4, NodeB: 5, Section: 1, Material: 1},
			{ID: 79, NodeA: 4, NodeB: 6, Section: 1, Material: 1},
			{ID: 80, NodeA: 9, NodeB: 3, Section: 1, Material: 1},
			{ID: 63, NodeA: 2, NodeB: 4, Section: 1, Material: 1},
			{ID: 81, NodeA: 10, NodeB: 2, Section: 1, Material: 1},
			{ID: 62, Type: domain.TensionOnly, NodeA: 1, NodeB: 3, Section: 1, Material: 1,
				OffsetA: geom.Vec3{0.05, 0.1, 0}, OffsetB: geom.Vec3{-0.1, 0, 0.05}},
			{ID: 82, Type: domain.TensionOnly, NodeA: 9, NodeB: 2, Section: 1, Material: 1},
			{ID: 83, Type: domain.CompressionOnly, NodeA: 3, NodeB: 5, Section: 1, Material: 1},
			{ID: 84, Type: domain.Cable, NodeA: 5, NodeB: 6, Section: 1, Material: 1},
			{ID: 85, Type: domain.Gap, NodeA: 10, NodeB: 4, Section: 1, Material: 1},
		},
		Supports: []domain.Support{{Node: 1, Code: "FFFFFF"}, {Node: 9, Code: "FFFFFF", Active: [6]byte{1: 'P'}},
			{Node: 5, Code: "FFFRRS", Springs: [6]float64{5: 2e6}, Active: [6]byte{1: 'P'}},
			{Node: 10, Code: "FFFFFF", Active: [6]byte{1: 'N'}}},
		LoadCases: []domain.LoadCase{{ID: 1,
			NodeLoads: []domain.NodeLoad{{Node: 3, F: [6]float64{s * 1, s * -2, s * 0.5, s * 1, s * -0.5, s * 2}},
				{Node: 6, F: [6]float64{0, 0, s * -1, 0, 0, 0}}, {Node: 2, F: [6]float64{s * 2, s * 1, 0, 0, 0, 0}}},
			// Free elongation 4.7e-9 m, ten times the strut's shortening
			// under the loads: the strut acts, against its expansion.
			Thermal: []domain.ThermalLoad{{Member: 83, DT: s * 1e-2}},
		}},
	}
	d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := nonlinear.Analyze(context.Background(), d, 1, nonlinear.Options{Theory: nonlinear.Small, Steps: 2,
		Convergence: nonlinear.Deflections, Tolerance: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	// The state: members and support DOFs with no force are dropped.
	const tol = 1e-12 // N, far below the forces (about 1e-2 N)
	m2 := *m
	m2.Members = nil
	filtered := *res
	filtered.Members = nil
	for i, mm := range m.Members {
		// A slack member's elongation is all mechanical: the one with a
		// thermal load acts (checked below).
		n, e := res.Members[i].EndB[0], res.Members[i].Basic[0]
		dir := mm.Type.OneWay()
		switch {
		case dir == 0:
		case math.Abs(n) <= tol:
			t.Logf("member %d drops out (elongation %.3g)", mm.ID, e)
			if !(float64(dir)*e <= 0) {
				t.Errorf("member %d carries nothing but is stretched the way it acts: elongation %g", mm.ID, e)
			}
			continue
		case !(float64(dir)*n > 0):
			t.Errorf("member %d: axial force %g acts the wrong way", mm.ID, n)
		}
		m2.Members = append(m2.Members, mm)
		filtered.Members = append(filtered.Members, res.Members[i])
	}
	m2.LoadCases = []domain.LoadCase{m.LoadCases[0]}
	m2.LoadCases[0].Thermal = nil
	for _, th := range m.LoadCases[0].Thermal {
		for _, mm := range m2.Members {
			if mm.ID == th.Member {
				m2.LoadCases[0].Thermal = append(m2.LoadCases[0].Thermal, th)
			}
		}
	}
	m2.Supports = nil
	for _, sp := range m.Supports {
		n, _ := d.Node(sp.Node)
		code := []byte(sp.Code)
		for k, a := range sp.Active {
			if a == 0 {
				continue
			}
			dir := map[byte]float64{'P': 1, 'N': -1}[a]
			r, u := res.Nodes[n].Reaction[k], res.Nodes[n].Translation[k]
			switch {
			case math.Abs(r) <= tol:
				t.Logf("support at %d, DOF %d, carries nothing (u = %.3g)", sp.Node, k, u)
				if !(dir*u >= 0) {
					t.Errorf("support at %d carries nothing but the node went into it: u = %g", sp.Node, u)
				}
				code[k] = 'R'
			case !(dir*r > 0):
				t.Errorf("support at %d, DOF %d: reaction %g acts the wrong way", sp.Node, k, r)
			}
		}
		sp.Code, sp.Active = string(code), [6]byte{}
		m2.Supports = append(m2.Supports, sp)
	}
	if len(m2.Members) == len(m.Members) || m2.Members[8].ID != 62 || len(m2.LoadCases[0].Thermal) != 1 {
		t.Fatalf("the expected state has AC and CE acting and some one-way member out: %d members kept", len(m2.Members))
	}
	lin, err := static.Analyze(context.Background(), &m2, static.Options{Cases: []int64{1}})
	if err != nil {
		t.Fatal(err)
	}
	compareLinear(t, &filtered, lin.Cases[0], 1e-6)
}
