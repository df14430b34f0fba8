package nonlinear_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
	"github.com/gusset/gusset/pkg/fem/static"
)

// swayPortal returns a portal frame in the X-Y plane (Y up): two columns
// of height h, ne members each, pinned at their base by a moment release
// of their first member at end A (the base nodes are fixed), a beam of
// span b, rigid in bending (I × 1e4), joined to the column tops through
// rigid end offsets of 0.2 m along it. The tops are held out of the plane
// (uz, rx, ry). Case 1: a lateral load H along +X at the left top and a
// load P down each column. Node i of column c (from its base) is
// portalNode(c, i), and member i of column c has that id too (counting
// from 1); the beam is member 1.
func swayPortal(h, b float64, ne int, s section, H, P float64) *domain.Model {
	m := &domain.Model{
		VerticalAxis: geom.YAxis,
		Materials:    []domain.Material{{ID: 1, E: s.E, G: s.G}},
		Sections: []domain.Section{{ID: 1, A: s.A, Ay: s.Ay, Az: s.Az, J: s.J, Iy: s.Iy, Iz: s.Iz},
			{ID: 2, A: s.A * 10, J: s.J * 1e4, Iy: s.Iy * 1e6, Iz: s.Iz * 1e6}},
	}
	lc := domain.LoadCase{ID: 1}
	for c, x := range []float64{0, b} {
		for i := range ne + 1 {
			id := portalNode(c, i)
			m.Nodes = append(m.Nodes, domain.Node{ID: id, X: x, Y: h * float64(i) / float64(ne)})
			if i > 0 {
				mm := domain.Member{ID: id, NodeA: portalNode(c, i-1), NodeB: id,
					Section: 1, Material: 1}
				if i == 1 {
					mm.ReleaseA = "FFFFRR"
				}
				m.Members = append(m.Members, mm)
			}
		}
		top := portalNode(c, ne)
		m.Supports = append(m.Supports, domain.Support{Node: portalNode(c, 0), Code: "FFFFFF"},
			domain.Support{Node: top, Code: "RRFFFR"})
		f := [6]float64{1: -P}
		if c == 0 {
			f[0] = H
		}
		lc.NodeLoads = append(lc.NodeLoads, domain.NodeLoad{Node: top, F: f})
	}
	m.Members = append(m.Members, domain.Member{ID: 1, NodeA: portalNode(0, ne), NodeB: portalNode(1, ne),
		Section: 2, Material: 1, OffsetA: geom.Vec3{0.2, 0, 0}, OffsetB: geom.Vec3{-0.2, 0, 0}})
	m.LoadCases = []domain.LoadCase{lc}
	return m
}

// portalNode is the id of node i of column c of swayPortal.
func portalNode(c, i int) int64 { return int64(100*(c+1) + i) }

// TestSmallSwayPortal: the sway of a portal whose columns are pinned at
// the base (member releases) and held against rotation at the top by a
// beam rigid in bending (joined through rigid offsets). Each column is
// then a cantilever of height h turned upside down, with buckling load
// P_cr = π²EI/(4h²), and the closed form of Timoshenko & Gere §1.11
// gives the sway Δ = (H/2)/(P·k)·(tan kh − kh) and the mean of the column
// top moments (H/2)·h + P·Δ (the overturning moment puts the windward
// column in less compression than the leeward one, so they share H
// unequally, but their sum is H·h + 2P·Δ). The columns are made axially
// rigid (A × 1e4), as the closed form: with their own area the overturning
// would stretch one and shorten the other, turning the beam and its
// joints by about 1e-6 rad, worth 7e-4 of the sway.
//
// With tiny loads (H = 1e-3 N, P = 1e-6 N) the Small theory is the linear
// analysis: static.Analyze's displacements, reactions and member end
// actions to 1e-7 (measured 2e-8: the round-off of K·u in the axially
// rigid members). At P/P_cr = 0.25, 0.5 and 0.8, with 6 members per
// column, the sway and the top moment are held within 5e-5 of the closed
// form (measured within 1e-5); the amplification of the sway over the
// first-order (H/2)h³/(3EI) grows from 1.329 to 1.986 and 4.943, close
// to 1/(1 − P/P_cr) = 1.333, 2 and 5 (the closed form is the reference;
// the B2 of AISC 360 Appendix 8, with R_M = 0.85 for a moment frame,
// estimates 1/(1 − 0.97·P/P_cr) here).
func TestSmallSwayPortal(t *testing.T) {
	const (
		h  = 4.0
		b  = 6.0
		ne = 6
		H  = 1e3
	)
	s := steel
	s.A, s.Iy, s.Ay, s.Az = s.A*1e4, s.Iz, 0, 0
	ei := s.E * s.Iz
	pcr := math.Pi * math.Pi * ei / (4 * h * h)
	opts := nonlinear.Options{Theory: nonlinear.Small, Tolerance: 1e-10, MaxIterations: 50}
	top := portalNode(0, ne)
	first := (H / 2) * h * h * h / (3 * ei)

	t.Run("tiny axial load matches linear", func(t *testing.T) {
		m := swayPortal(h, b, ne, s, 1e-3, 1e-6)
		// Deflections: the round-off of K·u in the axially rigid members
		// (1e-16 of their stiffness) is far above 1e-10 of these loads.
		res := analyze(t, m, nonlinear.Options{Theory: nonlinear.Small, Convergence: nonlinear.Deflections, Tolerance: 1e-9})
		lin, err := static.Analyze(context.Background(), m, static.Options{Cases: []int64{1}})
		if err != nil {
			t.Fatal(err)
		}
		compareLinear(t, res, lin.Cases[0], 1e-7)
		if got := res.Nodes[ne].Translation[0] / 1e-3 * H; !near(got, first, 1e-5*first) {
			t.Errorf("first-order sway %g (scaled to H), (H/2)h³/3EI = %g", got, first)
		}
	})
	for _, ratio := range []float64{0.25, 0.5, 0.8} {
		t.Run(fmt.Sprintf("P = %.2g P_cr", ratio), func(t *testing.T) {
			P := ratio * pcr
			res := analyze(t, swayPortal(h, b, ne, s, H, P), opts)
			k := math.Sqrt(P / ei)
			want := H / 2 / (P * k) * (math.Tan(k*h) - k*h)
			wantM := H/2*h + P*want
			var got float64
			for _, nr := range res.Nodes {
				if nr.Node == top {
					got = nr.Translation[0]
				}
			}
			// The moments at the column tops (end B of each column's top
			// member, about local z) sum to H·h + 2P·Δ: the overturning
			// moment puts the windward column in less compression than
			// the leeward one, so they share it unequally.
			gotM := (math.Abs(res.Members[ne-1].EndB[5]) + math.Abs(res.Members[2*ne-1].EndB[5])) / 2
			t.Logf("P/P_cr = %.2f: sway %.6g m (closed form %.6g, %+.2e), amplification %.4f (closed form %.4f, 1/(1 − P/P_cr) = %.4f); top moment %.6g N·m (%.6g, %+.2e); %d iterations",
				ratio, got, want, got/want-1, got/first, want/first, 1/(1-ratio), gotM, wantM, gotM/wantM-1, len(res.History))
			if !near(got, want, 5e-5*want) {
				t.Errorf("sway %g, closed form %g", got, want)
			}
			if !near(gotM, wantM, 5e-5*wantM) {
				t.Errorf("top moment %g, closed form %g", gotM, wantM)
			}
			// Equilibrium: the bases take −H and 2P; the released base
			// moments are zero.
			var fx, fy float64
			for _, nr := range res.Nodes {
				if nr.Node == portalNode(0, 0) || nr.Node == portalNode(1, 0) {
					fx += nr.Reaction[0]
					fy += nr.Reaction[1]
					if !near(nr.Reaction[5], 0, 1e-8*wantM) {
						t.Errorf("node %d: base moment %g at a pinned base", nr.Node, nr.Reaction[5])
					}
				}
			}
			if !near(fx, -H, 1e-8*H) || !near(fy, 2*P, 1e-8*P) {
				t.Errorf("base reactions Fx %g, Fy %g; want %g, %g", fx, fy, -H, 2*P)
			}
		})
	}
}

// compareLinear holds the Small result res to the linear case result lin:
// displacements and rotations, reactions and member end actions, each
// within tol of the largest of its kind (forces and moments apart).
func compareLinear(t *testing.T, res *nonlinear.Result, lin static.CaseResult, tol float64) {
	t.Helper()
	compare := func(what string, got, want [][6]float64) {
		t.Helper()
		for _, part := range [][2]int{{0, 3}, {3, 6}} {
			scale := 0.0
			for _, w := range want {
				for k := part[0]; k < part[1]; k++ {
					scale = math.Max(scale, math.Abs(w[k]))
				}
			}
			if scale == 0 { // none: compare absolutely
				scale = 1
			}
			worst := 0.0
			for i := range want {
				for k := part[0]; k < part[1]; k++ {
					worst = math.Max(worst, math.Abs(got[i][k]-want[i][k])/scale)
				}
			}
			t.Logf("%s %d–%d: largest %.3g, worst relative difference %.2e", what, part[0], part[1]-1, scale, worst)
			if !(worst <= tol) {
				t.Errorf("%s: Small theory differs from linear by %.3g of the largest (%g)", what, worst, scale)
			}
		}
	}
	var gotU, wantU, gotR, wantR, gotE, wantE [][6]float64
	for n, nr := range res.Nodes {
		var u [6]float64
		copy(u[:3], nr.Translation[:])
		copy(u[3:], nr.Rotation[:])
		gotU, wantU = append(gotU, u), append(wantU, lin.Nodes[n].Disp)
		if nr.HasReaction != lin.Nodes[n].HasReaction {
			t.Errorf("node %d: HasReaction %v, linear %v", nr.Node, nr.HasReaction, lin.Nodes[n].HasReaction)
		}
		gotR, wantR = append(gotR, nr.Reaction), append(wantR, lin.Nodes[n].Reaction)
	}
	for i, mr := range res.Members {
		gotE, wantE = append(gotE, mr.EndA, mr.EndB), append(wantE, lin.Members[i].EndA, lin.Members[i].EndB)
	}
	compare("displacements", gotU, wantU)
	compare("reactions", gotR, wantR)
	compare("member end actions", gotE, wantE)
}
