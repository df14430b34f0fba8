package nonlinear_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// node is a test node: ID and position.
type node struct {
	id      int64
	x, y, z float64
}

// lawModel returns a model of the nodes, members and supports given, in
// the steel section of the other tests (shear-rigid: Ay = Az = 0, so
// that bending follows the Euler–Bernoulli closed forms), with the node
// loads of case "L".
func lawModel(nodes []node, members []domain.Member, supports []domain.Support, loads []domain.NodeLoad) *domain.Model {
	m := &domain.Model{
		Materials: []domain.Material{{ID: 1, E: steel.E, G: steel.G}},
		Sections:  []domain.Section{{ID: 1, A: steel.A, J: steel.J, Iy: steel.Iy, Iz: steel.Iz}},
		Supports:  supports,
		LoadCases: []domain.LoadCase{{ID: 1, NodeLoads: loads}},
	}
	for _, n := range nodes {
		m.Nodes = append(m.Nodes, domain.Node{ID: n.id, X: n.x, Y: n.y, Z: n.z})
	}
	for _, mm := range members {
		mm.Section, mm.Material = 1, 1
		m.Members = append(m.Members, mm)
	}
	return m
}

// axial returns the axial force of result member i, tension positive.
func axial(res *nonlinear.Result, i int) float64 { return res.Members[i].Forces[transform.BasicAxial] }

// checkNear reports an error when got is not within tol of want (NaN
// fails).
func checkNear(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.12g, want %.12g ± %.3g", what, got, want, tol)
	}
}

// theories are the theories the member-law tests run in.
var theories = []nonlinear.Theory{nonlinear.Small, nonlinear.Finite}

// TestTensionOnlyBracedPanel: a pin-jointed rectangular panel (columns
// AC and BD, beam CD: trusses) braced by the tension-only diagonals AD and
// BC, pinned at A (0, 0) and B (L, 0), under a lateral load at C (0, h).
// The diagonal in compression drops out and the panel is statically
// determinate. By the method of joints (d = √(L² + h²), member forces
// tension positive), with the load +H along X:
//
//	joint C: X: H + N_CD = 0, Y: −N_AC = 0;
//	joint D: X: −N_CD − N_AD·L/d = 0, Y: −N_BD − N_AD·h/d = 0;
//	so N_CD = −H, N_AC = 0, N_AD = H·d/L, N_BD = −H·h/L, N_BC = 0,
//	reactions A = (−H, −H·h/L), B = (0, H·h/L);
//
// and with −H along X:
//
//	joint C: X: −H + N_CD + N_BC·L/d = 0, Y: −N_AC − N_BC·h/d = 0;
//	joint D: N_CD = 0, N_BD = 0;
//	so N_BC = H·d/L, N_AC = −H·h/L, N_AD = 0,
//	reactions A = (0, H·h/L), B = (H, −H·h/L).
//
// The hand statics are first-order: both theories add terms of the order
// of the strains (P-Δ, or the turned chords), about H/EA·d/L = 2e-6
// relative here, hence the tolerance of 1e-5·H; the dropped diagonal's
// force is zero by its law, to round-off (1e-9·H).
func TestTensionOnlyBracedPanel(t *testing.T) {
	const (
		L = 4.0
		h = 3.0
		H = 1e3
	)
	d := math.Hypot(L, h)
	for _, tc := range []struct {
		name   string
		sign   float64
		want   [5]float64 // AC BD CD AD BC
		ra, rb [2]float64
		slack  int // the diagonal that drops out
	}{
		{"+X", 1, [5]float64{0, -H * h / L, -H, H * d / L, 0}, [2]float64{-H, -H * h / L}, [2]float64{0, H * h / L}, 4},
		{"-X", -1, [5]float64{-H * h / L, 0, 0, 0, H * d / L}, [2]float64{0, H * h / L}, [2]float64{H, -H * h / L}, 3},
	} {
		for _, th := range theories {
			t.Run(th.String()+" "+tc.name, func(t *testing.T) {
				m := lawModel(
					[]node{{1, 0, 0, 0}, {2, L, 0, 0}, {3, 0, h, 0}, {4, L, h, 0}},
					[]domain.Member{
						{ID: 62, Type: domain.Truss, NodeA: 1, NodeB: 3},
						{ID: 63, Type: domain.Truss, NodeA: 2, NodeB: 4},
						{ID: 64, Type: domain.Truss, NodeA: 3, NodeB: 4},
						{ID: 65, Type: domain.TensionOnly, NodeA: 1, NodeB: 4},
						{ID: 66, Type: domain.TensionOnly, NodeA: 2, NodeB: 3},
					},
					// Trusses leave rotations free: C and D are held out of
					// plane and in rotation.
					[]domain.Support{{Node: 1, Code: "FFFFFF"}, {Node: 2, Code: "FFFFFF"},
						{Node: 3, Code: "RRFFFF"}, {Node: 4, Code: "RRFFFF"}},
					[]domain.NodeLoad{{Node: 3, F: [6]float64{tc.sign * H}}})
				res := analyze(t, m, nonlinear.Options{Theory: th, Steps: 2, Tolerance: 1e-10})
				t.Logf("%d iterations", len(res.History))
				for i, w := range tc.want {
					tol := 1e-5 * H
					if i == tc.slack {
						tol = 1e-9 * H
						if !(res.Members[i].Basic[transform.BasicAxial] < 0) {
							t.Errorf("%d: elongation %g, want a shortening", res.Members[i].Member, res.Members[i].Basic[transform.BasicAxial])
						}
					}
					checkNear(t, fmt.Sprint(res.Members[i].Member, " N"), axial(res, i), w, tol)
				}
				for k := range 2 {
					checkNear(t, "reaction at A", res.Nodes[0].Reaction[k], tc.ra[k], 1e-5*H)
					checkNear(t, "reaction at B", res.Nodes[1].Reaction[k], tc.rb[k], 1e-5*H)
				}
			})
		}
	}
}

// cableAngle returns the sag angle θ of an extensible cable of unstressed
// length l0 and axial stiffness ea hung between supports 2a apart at the
// same level under a point load p at mid-span: the root of
//
//	f(θ) = a/cos θ − l0/2·(1 + T/EA),  T = p/(2 sin θ),
//
// the compatibility of either half (its stretched length reaches from a
// support to the load) with its equilibrium at the load (vertical: 2T·sin
// θ = p). f grows with θ on (0, π/2) (a/cos θ grows, T falls), so
// bisection finds the one root, here to the last bit.
func cableAngle(a, l0, ea, p float64) float64 {
	f := func(th float64) float64 { return a/math.Cos(th) - l0/2*(1+p/(2*math.Sin(th)*ea)) }
	lo, hi := 1e-12, math.Pi/2-1e-12
	for range 200 {
		mid := (lo + hi) / 2
		if f(mid) > 0 {
			hi = mid
		} else {
			lo = mid
		}
	}
	return (lo + hi) / 2
}

// TestCableMidspanLoad: a cable of two Cable members between supports at
// (±a, 0) carries a point load P at mid-span, Finite theory, against the
// extensible cable's closed form (cableAngle): the load point sags by
// a·tan θ below the supports and both halves carry T = P/(2 sin θ). The
// co-rotational bar is exact for a straight bar of any rotation, so the
// only error is the convergence tolerance (1e-11 of the load on the
// residual, i.e. about 1e-11 relative on the forces and, through the
// axial stiffness, on the displacements): 1e-8 relative.
//
//   - sagging: the mid node starts h0 below the chord with each half at
//     its unstressed length (CableLength 0: the member's chord), so
//     L0 = 2·√(a² + h0²) and the first tangent is the halves' elastic
//     stiffness;
//   - pretensioned: the cable starts straight with each half 0.1% short
//     (CableLength 0.999·a): its pretension EA·(a − L0/2)/(L0/2) gives
//     the straight cable the transverse stiffness to start from.
func TestCableMidspanLoad(t *testing.T) {
	const (
		a  = 5.0
		P  = 1e4
		E  = 2e11
		A  = 1e-4
		ea = E * A
	)
	for _, tc := range []struct {
		name   string
		h0     float64 // initial sag of the mid node
		length float64 // CableLength of each half (0: its chord)
		steps  int
	}{
		{"sagging", 0.5, 0, 4},
		{"pretensioned", 0, 0.999 * a, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := lawModel(
				[]node{{68, -a, 0, 0}, {69, 0, -tc.h0, 0}, {71, a, 0, 0}},
				[]domain.Member{
					{ID: 67, Type: domain.Cable, NodeA: 68, NodeB: 69, CableLength: tc.length},
					{ID: 70, Type: domain.Cable, NodeA: 69, NodeB: 71, CableLength: tc.length},
				},
				[]domain.Support{{Node: 68, Code: "FFFFFF"}, {Node: 71, Code: "FFFFFF"}, {Node: 69, Code: "RRFFFF"}},
				[]domain.NodeLoad{{Node: 69, F: [6]float64{0, -P}}})
			m.Materials[0].E, m.Sections[0].A = E, A
			res := analyze(t, m, nonlinear.Options{Theory: nonlinear.Finite, Steps: tc.steps, Tolerance: 1e-11, MaxIterations: 50})
			l0 := 2 * tc.length
			if l0 == 0 {
				l0 = 2 * math.Hypot(a, tc.h0)
			}
			th := cableAngle(a, l0, ea, P)
			sag, tension := a*math.Tan(th), P/(2*math.Sin(th))
			t.Logf("θ = %.6f rad, sag %.6f m, T = %.6f N; %d iterations", th, sag, tension, len(res.History))
			checkNear(t, "sag", tc.h0-res.Nodes[1].Translation[1], sag, 1e-8*sag)
			checkNear(t, "horizontal motion of the load point", res.Nodes[1].Translation[0], 0, 1e-8*sag)
			for i := range 2 {
				checkNear(t, fmt.Sprint(res.Members[i].Member, " T"), axial(res, i), tension, 1e-8*tension)
			}
		})
	}
}

// barPair is the 1-D arrangement of the gap and fuse tests: node P at the
// origin, held along Y by member "low" from B1 (0, −l1) and member "high"
// to B2 (0, l2), everything else at P fixed, under a load f along Y at P.
// Both members move with P: an upward P stretches "low" by δ and shortens
// "high" by δ, so they act in parallel, with stiffnesses EA/l1 and EA/l2.
func barPair(low, high domain.Member, l1, l2, f float64) *domain.Model {
	low.ID, low.NodeA, low.NodeB = 72, 73, 74
	high.ID, high.NodeA, high.NodeB = 75, 74, 76
	return lawModel(
		[]node{{73, 0, -l1, 0}, {74, 0, 0, 0}, {76, 0, l2, 0}},
		[]domain.Member{low, high},
		[]domain.Support{{Node: 73, Code: "FFFFFF"}, {Node: 76, Code: "FFFFFF"}, {Node: 74, Code: "FRFFFF"}},
		[]domain.NodeLoad{{Node: 74, F: [6]float64{0, f}}})
}

// TestGapCloses: the column "low" (a truss, l1 = 3 m) and the gap "high"
// (l2 = 2 m) of barPair. Pushed up by F, the column stretches by δ and
// the gap shortens by δ: while δ ≤ g = GapCompression the column takes
// everything, δ = F/k1; once the gap has closed, k1·δ + k2·(δ − g) = F,
//
//	δ = (F + k2·g)/(k1 + k2),  N_low = k1·δ,  N_high = −k2·(δ − g),
//
// with k1 = EA/l1, k2 = EA/l2. Pulled down, the gap stretches: with
// GapTension 0 it never acts in tension (a Gap is compression-only), with
// GapTension g it closes after g the same way. The motion is along the
// members' line, where both theories are exact (no transverse motion, so
// no P-Δ; the chords do not turn), so the only error is the convergence
// tolerance: 1e-8 relative. The secant matrix is assembled again when the
// gap closes (with the start-of-step matrix, which lacks the gap's k2 >
// k1, modified Newton would diverge: each iteration would multiply the
// error by −k2/k1 = −1.5).
func TestGapCloses(t *testing.T) {
	const (
		l1, l2 = 3.0, 2.0
		g      = 1e-3
	)
	ea := steel.E * steel.A
	k1, k2 := ea/l1, ea/l2
	fc := k1 * g // the load that closes the gap
	for _, tc := range []struct {
		name   string
		gt, gc float64
		f      float64
		closed bool
	}{
		{"compression, open", 0, g, 0.5 * fc, false},
		{"compression, closed", 0, g, 3 * fc, true},
		{"compression, no opening", 0, 0, 0.5 * fc, true},
		{"tension, never acts", 0, g, -3 * fc, false},
		{"tension, open", g, g, -0.5 * fc, false},
		{"tension, closed", g, 0, -3 * fc, true},
	} {
		for _, th := range theories {
			for _, mt := range []nonlinear.MatrixType{nonlinear.Tangent, nonlinear.Secant} {
				name := th.String() + " " + tc.name
				if mt == nonlinear.Secant {
					name += " secant"
				}
				t.Run(name, func(t *testing.T) {
					m := barPair(domain.Member{Type: domain.Truss},
						domain.Member{Type: domain.Gap, GapTension: tc.gt, GapCompression: tc.gc}, l1, l2, tc.f)
					res := analyze(t, m, nonlinear.Options{Theory: th, Steps: 3, Tolerance: 1e-12, Matrix: mt})
					// δ is P's upward motion; the gap's opening on that side.
					open := tc.gc
					if tc.f < 0 {
						open = -tc.gt
					}
					delta, nHigh := tc.f/k1, 0.0
					if tc.closed {
						delta = (tc.f + k2*open) / (k1 + k2)
						nHigh = -k2 * (delta - open)
					}
					scale := math.Abs(tc.f)
					checkNear(t, "δ", res.Nodes[1].Translation[1], delta, 1e-8*math.Abs(delta))
					checkNear(t, "N low", axial(res, 0), k1*delta, 1e-8*scale)
					checkNear(t, "N high", axial(res, 1), nHigh, 1e-8*scale)
					checkNear(t, "equilibrium at P", axial(res, 0)-axial(res, 1), tc.f, 1e-8*scale)
				})
			}
		}
	}
}

// TestFuses: the fuse "low" (l1 = 3 m) in parallel with the ordinary
// frame member "high" (l2 = 2 m) of barPair, pushed up by F in 4 steps.
// Elastic, the load splits by stiffness: δ = F/(k1 + k2), N_low = k1·δ,
// N_high = −k2·δ. A plastic fuse that reaches its tension limit N_y holds
// it while the load grows: N_low = N_y, N_high = −(F − N_y),
// δ = (F − N_y)/k2. A brittle fuse that reaches its limit breaks and drops
// its load to the other path: N_low = 0 (no end action at all),
// N_high = −F, δ = F/k2. A limit of 0 means no limit that way. As in
// TestGapCloses both theories are exact here: 1e-8 relative.
func TestFuses(t *testing.T) {
	const l1, l2 = 3.0, 2.0
	ea := steel.E * steel.A
	k1, k2 := ea/l1, ea/l2
	const F = 1e6
	elastic := k1 * F / (k1 + k2) // the fuse's force if it stayed elastic
	for _, tc := range []struct {
		name  string
		kind  domain.FuseKind
		nt    float64 // tension limit
		nc    float64 // compression limit
		state string  // elastic, yielded, broken
	}{
		{"plastic, below its limit", domain.PlasticFuse, 1.2 * elastic, 0, "elastic"},
		{"plastic, at its limit", domain.PlasticFuse, 0.5 * elastic, 0.1 * elastic, "yielded"},
		{"plastic, no tension limit", domain.PlasticFuse, 0, 0.1 * elastic, "elastic"},
		{"brittle, below its limit", domain.BrittleFuse, 1.2 * elastic, 0, "elastic"},
		{"brittle, broken", domain.BrittleFuse, 0.5 * elastic, 0, "broken"},
		{"brittle, no tension limit", domain.BrittleFuse, 0, 0.1 * elastic, "elastic"},
	} {
		for _, th := range theories {
			t.Run(th.String()+" "+tc.name, func(t *testing.T) {
				m := barPair(domain.Member{Fuse: tc.kind, FuseTension: tc.nt, FuseCompression: tc.nc}, domain.Member{}, l1, l2, F)
				res := analyze(t, m, nonlinear.Options{Theory: th, Steps: 4, Tolerance: 1e-12})
				var delta, nLow float64
				switch tc.state {
				case "elastic":
					delta = F / (k1 + k2)
					nLow = k1 * delta
				case "yielded":
					delta = (F - tc.nt) / k2
					nLow = tc.nt
				case "broken":
					delta = F / k2
				}
				checkNear(t, "δ", res.Nodes[1].Translation[1], delta, 1e-8*delta)
				checkNear(t, "N low", axial(res, 0), nLow, 1e-8*F)
				checkNear(t, "N high", axial(res, 1), -(F - nLow), 1e-8*F)
				if tc.state == "broken" && (res.Members[0].EndA != [6]float64{} || res.Members[0].EndB != [6]float64{}) {
					t.Errorf("broken fuse end actions %v %v, want none", res.Members[0].EndA, res.Members[0].EndB)
				}
			})
		}
	}
}
