package static_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/static"
)

// TestLocalOffsetsPrincipalAngle checks that rigid offsets given in Local
// axes use the member's principal axes (direction angle plus the
// section's principal angle), the axes of Local member loads and of all
// member results.
//
// The model is a cantilever along global +X, A = (0, 0, 0) fixed, B =
// (L, 0, 0) free, vertical axis Y, direction angle 0, section principal
// angle 90°. Local axes (package geom): x = +X; y₀ = "up" = +Y,
// z₀ = x × y₀ = +Z; the angle β = 90° turns y and z about x by the
// right-hand rule, y = cos β·y₀ + sin β·z₀ = +Z and z = x × y = −Y. A
// Local offset (0, e, 0) therefore lies along global +Z: the same member
// as a Global offset (0, 0, e). (The code being fixed used the axes
// without the principal angle, y = +Y, so it put the offset along +Y.)
//
// Numbers: L = 3 m, e = 0.25 m, P = 10 kN, so P·L = 30 kN·m and
// P·e = 2.5 kN·m; E = 200 GPa, G = 80 GPa, I = 8e-5 m⁴ about both axes,
// J = 2I (helpers sec, base), Euler–Bernoulli (no shear areas).
//
// Hand statics (reactions are the forces the support exerts on node A;
// moments about A; r × F is the moment of force F applied at r):
//
//   - Node load F = (0, −P, 0) at node B, r = (L, 0, 0). Reaction
//     force (0, P, 0), moment −r × F = −(0, 0, −P·L) = (0, 0, P·L).
//     The cantilever is statically determinate and the load acts at the
//     node, so the reactions do not depend on the offsets at all: Mx = 0
//     before and after the fix. The offset shows in the member: the node
//     pushes on the member end at B + (0, 0, e) through the rigid link,
//     with force F and moment (node − end) × F = (0, 0, −e) × (0, −P, 0)
//     = (−P·e, 0, 0), a torque about X. With the offset along +Y (old
//     code) that moment is (0, −e, 0) × (0, −P, 0) = 0.
//   - Member load: a concentrated force P along −Y at 100 % of the
//     flexible length, i.e. at the member end B + (0, 0, e) = (L, 0, e).
//     Reaction moment −r × F = −(e·P, 0, −P·L) = (−P·e, 0, P·L): the
//     downward load at +Z twists the member about +X by the right-hand
//     rule (y·Fz − z·Fy = +e·P), so the support twists back, Mx = −P·e.
//     With the offset along +Y (old code) r = (L, e, 0) and Mx = 0.
//
// Member end actions (forces the nodes exert on the member ends),
// rotated to global axes with MemberResult.Axes so that they do not
// depend on the member's inclination: with node loads, end B gets
// F = (0, −P, 0) and M = (−P·e, 0, 0) as above, and member equilibrium
// about end A gives end A F = (0, P, 0) and M = −M_B − (r_B − r_A) × F_B,
// with r_B − r_A = (L, 0, e − e_A): M_A = (P·e, 0, 0) − (P·(e − e_A), 0,
// −P·L) = (P·e_A, 0, P·L), e_A = e when end A has the same offset, else
// 0. With the member load at the end of the flexible length, end B
// carries nothing (node B is free and unloaded) and end A balances the
// load alone: F = (0, P, 0) and M = −(r_load − r_A) × F_load with
// r_load − r_A = (L, 0, e − e_A), M_A = (−P·(e − e_A), 0, P·L). Without an
// offset at A that is the reaction; with one the torque P·e goes through
// the rigid link at A and the member itself is not twisted.
//
// With offsets (0, 0, e) at both ends the member stays along +X, length L,
// and the node-B deflection has a closed form: the end twists by
// θx = T·L/(G·J) with T = −P·e, and the node moves by u_node = u_end −
// θ × (0, 0, e), whose Y part is u_end,y + θx·e, so
// uy = −P·L³/(3·E·I) − P·e²·L/(G·J); the rotation about Z is the
// cantilever's −P·L²/(2·E·I).
//
// The strongest check compares node B's displacements with the same
// model written with Global offsets (0, 0, e): the stiffness and loads
// then differ only in round-off (cos 90° = 6e-17 in the Local axes), so
// they agree to 1e-12 of the largest translation (rotation); the zero
// components are held to that absolute bound.
func TestLocalOffsetsPrincipalAngle(t *testing.T) {
	const (
		L = 3.0
		e = 0.25
		P = 10e3
		I = 8e-5
	)
	EI, GJ := E*I, Gm*2*I
	type load int
	const (
		nodeLoad   load = iota // (0, −P, 0) at node B
		memberLoad             // P along −Y at 100 % of the flexible length
	)
	cases := []struct {
		name       string
		localA     bool // also an offset (0, e, 0) Local at end A
		ld         load
		reactionMx float64 // the other reactions are Fy = P, Mz = P·L, zero
	}{
		{"offset at B, node load", false, nodeLoad, 0},
		{"offsets at A and B, node load", true, nodeLoad, 0},
		{"offset at B, member load at end B", false, memberLoad, -P * e},
		{"offsets at A and B, member load at end B", true, memberLoad, -P * e},
	}
	build := func(local, atA bool, ld load) *domain.Model {
		m := base(sec(8, 0.01, I))
		m.Sections[0].PrincipalAngle = math.Pi / 2
		m.Nodes = []domain.Node{node(6, 0, 0, 0), node(5, L, 0, 0)}
		mm := frame(7, 6, 5, 8)
		off := geom.Vec3{0, 0, e} // global +Z
		if local {
			off = geom.Vec3{0, e, 0} // local +y
			mm.OffsetsLocal = true
		}
		mm.OffsetB = off
		if atA {
			mm.OffsetA = off
		}
		m.Members = []domain.Member{mm}
		m.Supports = []domain.Support{{Node: 6, Code: "FFFFFF"}}
		lc := domain.LoadCase{ID: 40}
		if ld == nodeLoad {
			lc.NodeLoads = []domain.NodeLoad{{Node: 5, F: [6]float64{0, -P}}}
		} else {
			lc.Members = []domain.MemberLoad{{Member: 7, Type: domain.ConcentratedForce, Axes: domain.GlobalInclined,
				Direction: geom.NegativeYAxis, Position: domain.Percent, A: 100, P1: P}}
		}
		m.LoadCases = []domain.LoadCase{lc}
		return m
	}
	// near checks got against want to tol relative to scale (want may be
	// zero).
	near := func(t *testing.T, what string, got, want [3]float64, scale, tol float64) {
		t.Helper()
		for i := range 3 {
			if d := math.Abs(got[i] - want[i]); d > tol*scale {
				t.Errorf("%s = %.10g, want %.10g (component %d off by %.3g > %.1g × %.4g)",
					what, got, want, i, d, tol, scale)
				return
			}
		}
	}
	three := func(v [6]float64, from int) [3]float64 { return [3]float64{v[from], v[from+1], v[from+2]} }
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			loc := caseByName(t, run(t, build(true, c.localA, c.ld), static.Options{}), 40)
			glo := caseByName(t, run(t, build(false, c.localA, c.ld), static.Options{}), 40)

			// Reactions at A: exact statics.
			ra := nodeRes(t, loc, 6).Reaction
			near(t, "reaction force", three(ra, 0), [3]float64{0, P, 0}, P, exactRel)
			near(t, "reaction moment", three(ra, 3), [3]float64{c.reactionMx, 0, P * L}, P*L, exactRel)

			// Member end actions in global axes: exact statics.
			mr := memberRes(t, loc, 7)
			if y := mr.Axes.Y(); math.Abs(y[1]) > 1e-12 || !(y[2] > 0.99) {
				t.Errorf("member local y = %v, want about global +Z (the member tilts in X-Z only)", y)
			}
			eA := 0.0
			if c.localA {
				eA = e
			}
			wantFA, wantMA := [3]float64{0, P, 0}, [3]float64{P * eA, 0, P * L}
			wantFB, wantMB := [3]float64{0, -P, 0}, [3]float64{-P * e, 0, 0}
			if c.ld == memberLoad {
				wantMA = [3]float64{-P * (e - eA), 0, P * L}
				wantFB, wantMB = [3]float64{}, [3]float64{}
			}
			g := func(v [6]float64, from int) [3]float64 { return mr.Axes.ApplyT(three(v, from)) }
			near(t, "end A force (global)", g(mr.EndA, 0), wantFA, P, exactRel)
			near(t, "end A moment (global)", g(mr.EndA, 3), wantMA, P*L, exactRel)
			near(t, "end B force (global)", g(mr.EndB, 0), wantFB, P, exactRel)
			near(t, "end B moment (global)", g(mr.EndB, 3), wantMB, P*L, exactRel)

			// Closed form for the member parallel to X.
			b := nodeRes(t, loc, 5).Disp
			if c.localA && c.ld == nodeLoad {
				verify(t, []check{
					{"uy_B", b[1], -P*L*L*L/(3*EI) - P*e*e*L/GJ, exactRel},
					{"rx_B", b[3], -P * e * L / GJ, exactRel},
					{"rz_B", b[5], -P * L * L / (2 * EI), exactRel},
				})
			}

			// Same as the Global-offset model.
			bg := nodeRes(t, glo, 5).Disp
			for _, part := range []struct {
				name string
				from int
			}{{"translation", 0}, {"rotation", 3}} {
				want := three(bg, part.from)
				scale := math.Max(math.Abs(want[0]), math.Max(math.Abs(want[1]), math.Abs(want[2])))
				near(t, fmt.Sprintf("node B %s (Local offsets vs Global (0, 0, e))", part.name),
					three(b, part.from), want, scale, 1e-12)
			}
		})
	}
}
