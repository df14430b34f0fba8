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
	"github.com/gusset/gusset/pkg/fem/transform"
)

// stiffenedPlate returns a cantilever aluminium plate 2 m × 1 m × 20 mm
// in the X-Y plane, clamped along x = 0, meshed 4 × 2 with quads except
// the last column, whose cells are split into triangles, and stiffened
// along y = 0 by an edge beam of four frame members on the plate's nodes.
// Its plates have the reference-surface offset (0: none). Case 1 has
// node forces and a moment at the free corners and a uniform pressure,
// all scaled by s, and moves every position by the rigid motion
// x → q·x + d (loads turned with it) so that the same problem can be posed
// in any orientation.
func stiffenedPlate(s, offset float64, q geom.Rotation, d geom.Vec3) *domain.Model {
	const (
		e  = 70e9
		nu = 0.33
	)
	// Node (i, j) is 10j + i + 1; plate k of cell (i, j) is 100 + 10j + 2i
	// + k; beam i is i + 1.
	id := func(i, j int) int64 { return int64(10*j + i + 1) }
	m := &domain.Model{
		Materials: []domain.Material{{ID: 1, E: e, G: e / (2 * (1 + nu))}},
		// A section with equal principal moments, so that the beam's
		// roll about its axis, which the global vertical axis sets, does
		// not matter when the model is turned.
		Sections: []domain.Section{{ID: 1, A: 2e-3, Ay: 1.5e-3, Az: 1.5e-3, J: 4e-6, Iy: 2e-6, Iz: 2e-6}},
	}
	for j := 0; j <= 2; j++ {
		for i := 0; i <= 4; i++ {
			x := q.Apply(geom.Vec3{0.5 * float64(i), 0.5 * float64(j), 0}).Add(d)
			m.Nodes = append(m.Nodes, domain.Node{ID: id(i, j), X: x[0], Y: x[1], Z: x[2]})
		}
		m.Supports = append(m.Supports, domain.Support{Node: id(0, j), Code: "FFFFFF"})
	}
	lc := domain.LoadCase{ID: 1}
	for j := range 2 {
		for i := range 4 {
			a, b, c, dd := id(i, j), id(i+1, j), id(i+1, j+1), id(i, j+1)
			cells := [][]int64{{a, b, c, dd}}
			if i == 3 {
				cells = [][]int64{{a, b, c}, {a, c, dd}}
			}
			for k, nodes := range cells {
				pid := int64(100 + 10*j + 2*i + k)
				m.Plates = append(m.Plates, domain.Plate{ID: pid, Nodes: nodes, Material: 1, Thickness: 0.02, Offset: offset})
				p := q.Apply(geom.Vec3{0.1 * s, 0, -1 * s})
				lc.Pressures = append(lc.Pressures, domain.PlatePressure{Plate: pid, Axes: domain.GlobalInclined, P: [3]float64(p)})
			}
		}
	}
	for i := range 4 {
		m.Members = append(m.Members, domain.Member{ID: int64(i + 1), NodeA: id(i, 0), NodeB: id(i+1, 0),
			Section: 1, Material: 1})
	}
	load := func(node int64, f, mo geom.Vec3) {
		f, mo = q.Apply(f.Scale(s)), q.Apply(mo.Scale(s))
		lc.NodeLoads = append(lc.NodeLoads, domain.NodeLoad{Node: node, F: [6]float64{f[0], f[1], f[2], mo[0], mo[1], mo[2]}})
	}
	load(id(4, 2), geom.Vec3{0, 0, -5}, geom.Vec3{})
	load(id(4, 0), geom.Vec3{2, 1, -3}, geom.Vec3{0.5, -1, 0.2})
	m.LoadCases = []domain.LoadCase{lc}
	return m
}

// TestShellSmallLoadsMatchLinear: under tiny loads the large-displacement
// analysis of plates and frames together is the linear one, since the
// co-rotational tangent at the initial state is the linear stiffness
// (transform's TestCorotShellLinearLimit) and the plate loads are the
// linear analysis's equivalent node loads. The stiffened plate, with and
// without a plate offset (the offset's rigid links are in the plates'
// local stiffness), must give static.Analyze's translations, rotations,
// reactions and plate moments to 1e-6 of the largest of each (the
// tolerance of TestSmallLoadsMatchLinear). The loads make displacements
// of about 1e-8 of the span, so the non-linear terms, of relative size
// w/L (membrane stretching), are about that (measured 8e-8 at most).
//
// The in-plane forces also have an absolute floor: the co-rotational
// frame of an element is known to round-off, ε ≈ 2.2e-16 rad, which reads
// as a strain of that size, a membrane force of ε·E·t ≈ 3e-7 N/m
// (E·t = 1.4e9 N/m) and an axial force of ε·E·A ≈ 3e-8 N in the beam,
// whatever the load — immaterial in practice, but up to 6e-4 of this
// test's tiny membrane forces. The plate membrane and node forces are
// held to 1e-6 of the largest plus 10·ε·E·t (N/m, and N for the node
// forces of these half-metre elements), the member end actions to 1e-6
// of the largest plus 10·ε·E·A (measured 2.3e-6 of the largest, 3e-9 N).
// (Kirchhoff shears are left out: the linear analysis fits them over
// patches.)
func TestShellSmallLoadsMatchLinear(t *testing.T) {
	for _, offset := range []float64{0, 0.03} {
		t.Run(fmt.Sprintf("offset=%g", offset), func(t *testing.T) {
			m := stiffenedPlate(1e-4, offset, geom.Identity, geom.Vec3{})
			res := analyze(t, m, nonlinear.Options{Steps: 1, Convergence: nonlinear.Deflections, Tolerance: 1e-8})
			lin, err := static.Analyze(context.Background(), m, static.Options{Cases: []int64{1}})
			if err != nil {
				t.Fatal(err)
			}
			sc := lin.Cases[0]
			const (
				floor       = 10 * 2.2e-16 * 70e9 * 0.02 // 10·ε·E·t
				floorMember = 10 * 2.2e-16 * 70e9 * 2e-3 // 10·ε·E·A
			)
			compare := func(what string, got, want [][]float64, abs float64) {
				t.Helper()
				scale, worst := 0.0, 0.0
				for _, w := range want {
					for _, v := range w {
						scale = math.Max(scale, math.Abs(v))
					}
				}
				for i := range want {
					for k := range want[i] {
						worst = math.Max(worst, math.Abs(got[i][k]-want[i][k])/(scale+abs*1e6))
					}
				}
				t.Logf("%s: largest %.3g, worst difference %.2e of the largest (plus %.2g)", what, scale, worst*(scale+abs*1e6)/scale, abs)
				if !(worst <= 1e-6) {
					t.Errorf("%s: non-linear differs from linear by %.3g of the largest (%g) plus %g", what, worst*(scale+abs*1e6)/scale, scale, abs)
				}
			}
			var gt, wt, gr, wr, grea, wrea, ge, we, gf, wf, gm, wm, gn, wn [][]float64
			for n, nr := range res.Nodes {
				lr := sc.Nodes[n]
				gt, wt = append(gt, nr.Translation[:]), append(wt, lr.Disp[:3])
				gr, wr = append(gr, nr.Rotation[:]), append(wr, lr.Disp[3:])
				grea, wrea = append(grea, nr.Reaction[:]), append(wrea, lr.Reaction[:])
			}
			for i, mr := range res.Members {
				ge, we = append(ge, mr.EndA[:], mr.EndB[:]), append(we, sc.Members[i].EndA[:], sc.Members[i].EndB[:])
			}
			for i, pr := range res.Plates {
				lp := sc.Plates[i]
				if pr.Plate != lp.Plate {
					t.Fatalf("plate %d, linear %d", pr.Plate, lp.Plate)
				}
				gf, wf = append(gf, pr.Resultants.F[:]), append(wf, lp.Resultants.F[:])
				gm, wm = append(gm, pr.Resultants.M[:]), append(wm, lp.Resultants.M[:])
				gn, wn = append(gn, pr.NodeForces), append(wn, lp.NodeForces)
			}
			compare("translations", gt, wt, 0)
			compare("rotations", gr, wr, 0)
			compare("reactions", grea, wrea, 0)
			compare("member end actions", ge, we, floorMember)
			compare("plate membrane forces", gf, wf, floor)
			compare("plate moments", gm, wm, 0)
			compare("plate node forces", gn, wn, floor)
		})
	}
}

// TestShellObjectivity: the stiffened plate under loads that bend it well
// beyond the linear range (tip deflection 7.6 % of the span), posed
// again after a rigid turn of 90° about a skew axis and a translation,
// gives the same answer turned with it: translations, rotation vectors
// and reactions turned, and the same plate resultants and node forces,
// which are in axes that turn with the plates, and member end actions. The
// two runs converge to a residual of 1e-9 of the load (round-off keeps
// it above 3e-10), so they agree to about 1e-8 of the largest value;
// 1e-7 is held.
func TestShellObjectivity(t *testing.T) {
	const s = 1000.0
	turn := geom.ExpMap(geom.Vec3{1, 2, -2}.Scale(math.Pi / 2 / 3))
	opts := nonlinear.Options{Steps: 4, MaxIterations: 40, Tolerance: 1e-9}
	a := analyze(t, stiffenedPlate(s, 0.01, geom.Identity, geom.Vec3{}), opts)
	b := analyze(t, stiffenedPlate(s, 0.01, turn, geom.Vec3{3, -2, 1}), opts)
	t.Logf("tip deflection %.4f m on a 2 m span; %d and %d iterations", a.Nodes[14].Translation[2], len(a.History), len(b.History))
	if !(math.Abs(a.Nodes[14].Translation[2]) > 0.05*2) {
		t.Errorf("tip deflection %g: not a large-displacement case", a.Nodes[14].Translation[2])
	}
	check := func(what string, got, want [][]float64) {
		t.Helper()
		scale, worst := 0.0, 0.0
		for i := range want {
			for k := range want[i] {
				scale = math.Max(scale, math.Abs(want[i][k]))
				worst = math.Max(worst, math.Abs(got[i][k]-want[i][k]))
			}
		}
		t.Logf("%s: largest %.3g, worst difference %.2e of it", what, scale, worst/scale)
		if !(worst <= 1e-7*scale) {
			t.Errorf("%s: the turned model differs by %.3g of the largest %.3g", what, worst/scale, scale)
		}
	}
	turned := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for p := 0; p < len(v); p += 3 {
			w := turn.Apply(geom.Vec3{v[p], v[p+1], v[p+2]})
			copy(out[p:p+3], w[:])
		}
		return out
	}
	var gu, wu, gr, wr, grea, wrea, gp, wp, gm, wm [][]float64
	for n := range a.Nodes {
		na, nb := a.Nodes[n], b.Nodes[n]
		gu, wu = append(gu, nb.Translation[:]), append(wu, turned(na.Translation[:]))
		gr, wr = append(gr, nb.Rotation[:]), append(wr, turned(na.Rotation[:]))
		grea, wrea = append(grea, nb.Reaction[:]), append(wrea, turned(na.Reaction[:]))
	}
	for i := range a.Plates {
		pa, pb := a.Plates[i], b.Plates[i]
		gp, wp = append(gp, pb.Resultants.F[:], pb.Resultants.M[:], pb.NodeForces), append(wp, pa.Resultants.F[:], pa.Resultants.M[:], pa.NodeForces)
	}
	// The members' local y and z roll with the global vertical axis, so
	// only the axial force, the torque and the magnitudes of the shear
	// and bending pairs are compared.
	invariants := func(e [6]float64) []float64 {
		return []float64{e[0], e[3], math.Hypot(e[1], e[2]), math.Hypot(e[4], e[5])}
	}
	for i := range a.Members {
		ma, mb := a.Members[i], b.Members[i]
		gm, wm = append(gm, invariants(mb.EndA), invariants(mb.EndB)), append(wm, invariants(ma.EndA), invariants(ma.EndB))
	}
	check("translations", gu, wu)
	check("rotations", gr, wr)
	check("reactions", grea, wrea)
	check("plate resultants and node forces", gp, wp)
	check("member end actions (invariants)", gm, wm)
}

// TestShellLargeEquilibrium: the stiffened plate under a large load
// (tip deflection 11 % of the span) converges in the Finite and
// the Large theories alike, and the converged state balances: the plates'
// and members' node forces, turned to global axes, with the applied loads
// and reactions, node by node. The residual tolerance is 1e-9 of the
// load; the balance is held to 1e-7 of it.
func TestShellLargeEquilibrium(t *testing.T) {
	for _, th := range []nonlinear.Theory{nonlinear.Finite, nonlinear.Large} {
		t.Run(th.String(), func(t *testing.T) {
			d, err := domain.Build(context.Background(), stiffenedPlate(1500, 0, geom.Identity, geom.Vec3{}), domain.BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := nonlinear.Analyze(context.Background(), d, 1, nonlinear.Options{Theory: th, Steps: 8, MaxIterations: 40, Tolerance: 1e-9})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("tip deflection %.4f m on a 2 m span, %d iterations, at most %d in a step", res.Nodes[14].Translation[2], len(res.History), iterationStats(res))
			// The node forces of a loaded plate are those the nodes exert on
			// it, which balance its pressure: what they balance at the
			// nodes is the node loads alone (λ = 1) and the reactions.
			bal := make([]float64, len(res.Applied))
			pmax := 0.0
			for _, nl := range d.Model.LoadCases[0].NodeLoads {
				n := nodeIndex(t, res, nl.Node)
				for k, v := range nl.F {
					bal[6*n+k] += v
				}
			}
			for _, v := range res.Applied {
				pmax = math.Max(pmax, math.Abs(v))
			}
			for n, nr := range res.Nodes {
				for k := range 6 {
					bal[6*n+k] += nr.Reaction[k]
				}
			}
			add := func(nodes []int, axes geom.Rotation, f []float64) {
				for e, nd := range nodes {
					for h := 0; h < 6; h += 3 {
						v := axes.ApplyT(geom.Vec3{f[6*e+h], f[6*e+h+1], f[6*e+h+2]})
						for k := range 3 {
							bal[6*nd+h+k] -= v[k]
						}
					}
				}
			}
			for i, pr := range res.Plates {
				// The plate's current axes: its node forces are in them.
				pe := d.Plates[i]
				add(pe.Nodes(), plateAxesNow(t, d, res, i), pr.NodeForces)
			}
			for i, mr := range res.Members {
				add(d.Frames[i].Nodes(), mr.Axes, append(mr.EndA[:], mr.EndB[:]...))
			}
			worst := 0.0
			for _, v := range bal {
				worst = math.Max(worst, math.Abs(v))
			}
			t.Logf("largest out-of-balance %.2e of the largest load %.3g (Result.Residual %.2e)", worst/pmax, pmax, res.Residual)
			if !(worst <= 1e-7*pmax) {
				t.Errorf("nodes out of balance by %.3g of the load", worst/pmax)
			}
		})
	}
}

// plateAxesNow returns the current local axes of plate i of d in the
// state of res, in which its node forces are reported: the co-rotational
// frame of its current corners (PlateResult does not carry them).
func plateAxesNow(t *testing.T, d *domain.Domain, res *nonlinear.Result, i int) geom.Rotation {
	t.Helper()
	pe := d.Plates[i]
	var x, u []geom.Vec3
	var rot []geom.Rotation
	for _, nd := range pe.Nodes() {
		x, u, rot = append(x, d.Pos[nd]), append(u, res.Nodes[nd].Translation), append(rot, res.Nodes[nd].Turning)
	}
	c, err := transform.NewCorotShell(x, pe.Rot)
	if err != nil {
		t.Fatal(err)
	}
	var cfg transform.CorotShellConfig
	if err := c.Configure(u, rot, &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg.Axes()
}

// nodeIndex returns the index of node id in res.
func nodeIndex(t *testing.T, res *nonlinear.Result, id int64) int {
	t.Helper()
	for n, nr := range res.Nodes {
		if nr.Node == id {
			return n
		}
	}
	t.Fatalf("no node %d", id)
	return -1
}
