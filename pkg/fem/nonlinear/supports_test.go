package nonlinear_test

import (
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
)

// TestOneWaySupportLiftsOff: a cantilever A–B–C (L = 3 m, B at mid-span,
// A clamped, shear-rigid section) rests at its tip C on a support that
// may only push along Y — up (Active 'P') or down ('N') — under a load P
// at B, Small theory. Pushed against the support it is a propped
// cantilever: R_C = 5P/16 and C does not move (the classic reaction of a
// propped cantilever under a central load, by compatibility of the
// cantilever deflections P·a²(3L − a)/(6EI) and R·L³/(3EI), a = L/2).
// Pulled away the support lifts off: R_C = 0 and C moves with the free
// cantilever, P·a²(3L − a)/(6EI) = 5PL³/(48EI). The beam has no axial
// force, so the P-Δ terms vanish and the closed forms are exact (the
// frame element is exact for end loads): 1e-9 relative.
func TestOneWaySupportLiftsOff(t *testing.T) {
	const (
		L = 3.0
		P = 1e4
	)
	ei := steel.E * steel.Iz
	free := 5 * P * L * L * L / (48 * ei)
	for _, tc := range []struct {
		name   string
		active byte
		load   float64 // along Y at B
		rc, uc float64 // reaction and motion of C along Y
	}{
		{"pushed up, holds", 'P', -P, 5 * P / 16, 0},
		{"pulled up, lifts off", 'P', P, 0, free},
		{"pushed down, holds", 'N', P, -5 * P / 16, 0},
		{"pulled down, lifts off", 'N', -P, 0, -free},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sup := domain.Support{Node: 3, Code: "RFRRRR"}
			sup.Active[1] = tc.active
			m := lawModel([]node{{1, 0, 0, 0}, {2, L / 2, 0, 0}, {3, L, 0, 0}},
				[]domain.Member{{ID: 77, NodeA: 1, NodeB: 2}, {ID: 66, NodeA: 2, NodeB: 3}},
				[]domain.Support{{Node: 1, Code: "FFFFFF"}, sup},
				[]domain.NodeLoad{{Node: 2, F: [6]float64{0, tc.load}}})
			res := analyze(t, m, nonlinear.Options{Theory: nonlinear.Small, Steps: 2, Tolerance: 1e-12})
			t.Logf("%d iterations", len(res.History))
			checkNear(t, "R_C", res.Nodes[2].Reaction[1], tc.rc, 1e-9*P)
			checkNear(t, "u_C", res.Nodes[2].Translation[1], tc.uc, 1e-9*free)
			checkNear(t, "R_A", res.Nodes[0].Reaction[1], -tc.load-tc.rc, 1e-9*P)
			if !res.Nodes[2].HasReaction {
				t.Error("C has no reaction")
			}
		})
	}
}

// slider is the model of the friction and plastic support tests: node S
// at the origin, supported by sup, tied along X to the fixed node T at
// (lb, 0, 0) by a truss, and loaded by (h, v) along X and Y.
func slider(sup domain.Support, lb, h, v float64) *domain.Model {
	sup.Node = 96
	return lawModel([]node{{96, 0, 0, 0}, {98, lb, 0, 0}},
		[]domain.Member{{ID: 97, Type: domain.Truss, NodeA: 96, NodeB: 98}},
		[]domain.Support{sup, {Node: 98, Code: "FFFFFF"}},
		[]domain.NodeLoad{{Node: 96, F: [6]float64{h, v}}})
}

// TestFrictionAndPlasticSupports: node S of slider under a tangential
// load H along X, held along X by a friction support (μ = 0.3 times the
// normal reaction along Y, which is W under the load −W) or a plastic one
// (limit R_p) in parallel with a bar of stiffness k = EA/lb. While |H| is
// within the capacity C (μ·W or R_p) the support holds: R_x = −H, the bar
// takes nothing. Beyond it slides: R_x = −C·sign H, the bar takes the
// rest, N = −(H − C·sign H) (S moves toward T under +H: compression),
// u_x = (H − C·sign H)/k. A friction whose normal may only press one way
// gives no friction when the normal reaction has the other sign: the bar
// takes all. Small theory, loaded in 4 steps so that sliding starts part
// way. The bar lies along X, so the P-Δ terms act on the fixed Y and Z:
// the closed forms are exact, 1e-9 relative.
func TestFrictionAndPlasticSupports(t *testing.T) {
	const (
		lb = 2.0
		W  = 1e4
		mu = 0.3
		rp = 5e3
	)
	k := steel.E * steel.A / lb
	friction := func(sign int) domain.Support {
		s := domain.Support{Code: "NFFFFF"}
		s.Friction[0] = domain.Friction{Normal: geom.YAxis, Sign: sign, Factor: mu}
		return s
	}
	plastic := domain.Support{Code: "PFFFFF"}
	plastic.PlasticLimit[0] = rp
	for _, tc := range []struct {
		name   string
		sup    domain.Support
		h, v   float64
		slides bool
		cap    float64 // the support's force while it slides
	}{
		{"friction holds", friction(0), 0.8 * mu * W, -W, false, 0},
		{"friction slides +X", friction(0), 2 * mu * W, -W, true, mu * W},
		{"friction slides -X", friction(0), -2 * mu * W, -W, true, mu * W},
		{"friction under a lifting normal, either sign", friction(0), 2 * mu * W, W, true, mu * W},
		{"friction under a lifting normal, positive only", friction(1), 2 * mu * W, W, true, 0},
		{"plastic holds", plastic, 0.9 * rp, 0, false, 0},
		{"plastic yields", plastic, 3 * rp, 0, true, rp},
		{"plastic yields -X", plastic, -3 * rp, 0, true, rp},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := analyze(t, slider(tc.sup, lb, tc.h, tc.v), nonlinear.Options{Theory: nonlinear.Small, Steps: 4, Tolerance: 1e-12})
			t.Logf("%d iterations", len(res.History))
			rx, n, ux := -tc.h, 0.0, 0.0
			if tc.slides {
				c := math.Copysign(tc.cap, tc.h)
				rx, n, ux = -c, -(tc.h - c), (tc.h-c)/k
			}
			scale := math.Abs(tc.h)
			checkNear(t, "R_x", res.Nodes[0].Reaction[0], rx, 1e-9*scale)
			checkNear(t, "N bar", axial(res, 0), n, 1e-9*scale)
			checkNear(t, "u_x", res.Nodes[0].Translation[0], ux, 1e-9*scale/k)
			checkNear(t, "R_y", res.Nodes[0].Reaction[1], -tc.v, 1e-9*scale)
		})
	}
}

// TestVariableAndOneWaySprings: node S of slider without the bar's help
// along X except where stated. A variable spring (code V) with the table
// {k1 up to x1, then k2}: its force is k1·u up to x1, then k1·x1 +
// k2·(u − x1), the same for negative u mirrored (the odd law), so under H
// the node moves u = H/k1 or x1 + (H − k1·x1)/k2. A one-way spring
// (code S, Active 'P': it may only push +X) in parallel with the bar:
// pushed (H < 0) it shares the load by stiffness, u = H/(k_s + k); pulled
// it acts not at all, u = H/k. Exact (see TestFrictionAndPlasticSupports):
// 1e-9 relative.
func TestVariableAndOneWaySprings(t *testing.T) {
	const (
		lb     = 2.0
		k1, k2 = 1e7, 2e6
		x1     = 1e-3
		ks     = 3e8
	)
	kb := steel.E * steel.A / lb
	variable := domain.Support{Code: "VFFFFF"}
	variable.Tables[0] = []domain.SpringSegment{{Stiffness: k1, Limit: x1}, {Stiffness: k2, Limit: math.Inf(1)}}
	oneWay := domain.Support{Code: "SFFFFF", Springs: [6]float64{ks}}
	oneWay.Active[0] = 'P'
	for _, tc := range []struct {
		name string
		sup  domain.Support
		bar  bool
		h, u float64
	}{
		{"variable, first segment", variable, false, 0.5 * k1 * x1, 0.5 * x1},
		{"variable, second segment", variable, false, 3 * k1 * x1, x1 + 2*k1*x1/k2},
		{"variable, negative", variable, false, -3 * k1 * x1, -(x1 + 2*k1*x1/k2)},
		{"one-way spring pushes", oneWay, true, -1e5, -1e5 / (ks + kb)},
		{"one-way spring lets go", oneWay, true, 1e5, 1e5 / kb},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := slider(tc.sup, lb, tc.h, 0)
			if !tc.bar {
				m.Members, m.Nodes = nil, m.Nodes[:1]
				m.Supports = m.Supports[:1]
			}
			res := analyze(t, m, nonlinear.Options{Theory: nonlinear.Small, Steps: 3, Tolerance: 1e-12})
			t.Logf("%d iterations", len(res.History))
			checkNear(t, "u_x", res.Nodes[0].Translation[0], tc.u, 1e-9*math.Abs(tc.u))
			if !tc.bar {
				checkNear(t, "R_x", res.Nodes[0].Reaction[0], -tc.h, 1e-9*math.Abs(tc.h))
			}
		})
	}
}
