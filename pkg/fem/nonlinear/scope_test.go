package nonlinear_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
	"github.com/gusset/gusset/pkg/fem/static"
)

// steel is a test section of a 3 m steel member.
var steel = section{E: 210e9, G: 81e9, A: 4e-3, Ay: 3e-3, Az: 3e-3, J: 6e-6, Iy: 2e-5, Iz: 8e-6}

// TestRefusals: what the analysis does not support yet is refused before
// any work, with an error naming the member, plate, node or case (the
// issue's scope).
func TestRefusals(t *testing.T) {
	base := func() *domain.Model {
		return chainModel(straight(3, 2), steel, geom.YAxis, map[int][6]float64{2: {1: -1e3}})
	}
	for _, tc := range []struct {
		name string
		edit func(m *domain.Model)
		want []string // substrings of the error
	}{
		{"offset member", func(m *domain.Model) { m.Members[1].OffsetB = geom.Vec3{0.1, 0, 0} }, []string{"member 2", "offsets"}},
		{"released member", func(m *domain.Model) { m.Members[0].ReleaseB = "FFFFFR" }, []string{"member 1", "releases"}},
		{"pulley", func(m *domain.Model) { m.Members[0].Pulley = true }, []string{"member 1", "pulley members are not supported"}},
		{"thermal load on a plate", func(m *domain.Model) {
			m.Nodes = append(m.Nodes, domain.Node{ID: 74, X: 1.5, Y: 1})
			m.Plates = []domain.Plate{{ID: 68, Nodes: []int64{1, 2, 74}, Material: 1, Thickness: 0.01}}
			m.LoadCases[0].PlateThermal = []domain.PlateThermalLoad{{Plate: 68, DT: 20}}
		}, []string{"case 1", "plate 68", "thermal"}},
		{"one-way support", func(m *domain.Model) { m.Supports[0].Active[1] = 'P' }, []string{"node 1", "one-way supports"}},
		{"variable support", func(m *domain.Model) {
			m.Supports = append(m.Supports, domain.Support{Node: 3, Code: "RVRRRR",
				Tables: [6][]domain.SpringSegment{1: {{Stiffness: 1e6, Limit: 1}}}})
		}, []string{"node 3", "variable"}},
		{"constraint", func(m *domain.Model) {
			m.Constraints = []domain.Constraint{{Master: 2, Slaves: []int64{3}, Code: "FFFFFF"}}
		}, []string{"master node 2", "constraints"}},
		{"prescribed displacement", func(m *domain.Model) {
			m.LoadCases[0].Prescribed = []domain.PrescribedDisplacement{{Node: 1, Set: [6]bool{1: true}, Value: [6]float64{1: 1e-3}}}
		}, []string{"case 1", "node 1", "prescribed"}},
		{"thermal load", func(m *domain.Model) {
			m.LoadCases[0].Thermal = []domain.ThermalLoad{{Member: 1, DT: 20}}
		}, []string{"case 1", "member 1", "thermal"}},
		{"component of a combination", func(m *domain.Model) {
			// What is refused of a primary case is refused of a
			// combination bringing it in.
			m.LoadCases[0].Prescribed = []domain.PrescribedDisplacement{{Node: 1, Set: [6]bool{1: true}, Value: [6]float64{1: 1e-3}}}
			m.Combinations = []domain.Combination{{ID: 3, Terms: []domain.Term{{Case: 1, Factor: 1.5}}}}
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := base()
			tc.edit(m)
			var name int64 = 1
			want := tc.want
			if want == nil {
				name, want = 3, []string{"case 1", "node 1", "prescribed"}
			}
			refuses(t, m, name, nonlinear.Options{}, want)
		})
	}
}

// TestNotConverged: a step that does not converge in MaxIterations fails
// with a *NotConvergedError carrying the step, its target load factor,
// the load factor reached (that of the last converged step), the
// iterations and the last residual; the history is the Progress records.
func TestNotConverged(t *testing.T) {
	const L = 3.0
	ei := steel.E * steel.Iz
	for _, tc := range []struct {
		name                 string
		opts                 nonlinear.Options
		step                 int
		target, reached      float64
		iterations, progress int
	}{
		// The first iteration of any step is the linear solution, whose
		// residual under an end moment of ML/EI = π is far above 1e-12.
		{"first step", nonlinear.Options{Steps: 4, MaxIterations: 1, Tolerance: 1e-12}, 1, 0.25, 0, 1, 1},
		// Parabolic steps: 1/16 converges in 4 iterations, 4/16 not.
		{"second step", nonlinear.Options{Steps: 4, Stepping: nonlinear.Parabolic, MaxIterations: 4, Tolerance: 1e-6}, 2, 0.25, 0.0625, 4, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := chainModel(straight(L, 20), steel, geom.YAxis, map[int][6]float64{20: {5: math.Pi * ei / L}})
			d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var recs []nonlinear.Iteration
			opts := tc.opts
			opts.Progress = func(it nonlinear.Iteration) { recs = append(recs, it) }
			_, err = nonlinear.Analyze(context.Background(), d, 1, opts)
			var nc *nonlinear.NotConvergedError
			if !errors.As(err, &nc) {
				t.Fatalf("error %v, want a *NotConvergedError", err)
			}
			t.Logf("%v", err)
			last := recs[len(recs)-1]
			if nc.Case != 1 || nc.Step != tc.step || !near(nc.Target, tc.target, 1e-15) || !near(nc.LoadFactor, tc.reached, 1e-15) ||
				nc.Iterations != tc.iterations || !(nc.Residual > 0) || nc.Residual != last.Residual || nc.Increment != last.Increment {
				t.Errorf("error %+v, want case 1, step %d, target %g, reached %g, %d iterations, residual %g", nc, tc.step, tc.target, tc.reached, tc.iterations, last.Residual)
			}
			if tc.progress >= 0 && len(recs) != tc.progress {
				t.Errorf("%d progress records, want %d", len(recs), tc.progress)
			}
		})
	}
}

// TestCancelled: a cancelled context stops the analysis between
// iterations.
func TestCancelled(t *testing.T) {
	m := chainModel(straight(3, 10), steel, geom.YAxis, map[int][6]float64{10: {5: 1e5}})
	d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err = nonlinear.Analyze(ctx, d, 1, nonlinear.Options{Steps: 10, Progress: func(nonlinear.Iteration) { cancel() }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

// TestSmallLoadsMatchLinear: under tiny loads the large-displacement
// analysis is the linear one (the co-rotational tangent at the initial
// state is the linear stiffness; transform package doc), so a 3-D frame
// with members in every direction, a support spring, node forces and
// moments and a member load must give static.Analyze's displacements,
// rotations, reactions and member end actions to a relative 1e-6 of the
// largest of each. The loads make displacements about 1e-7 of the
// members' lengths: the non-linear terms grow with the load and are about
// 3e-7 relative here (ten times less for ten times smaller loads), while
// round-off in the co-rotational forces, about 1e-16 of the stiffness
// whatever the load, stays near 1e-9 relative.
func TestSmallLoadsMatchLinear(t *testing.T) {
	const s = 0.01 // N, N·m, N/m
	m := &domain.Model{
		Materials: []domain.Material{{ID: 1, E: steel.E, G: steel.G}},
		Sections: []domain.Section{{ID: 1, A: steel.A, Ay: steel.Ay, Az: steel.Az, J: steel.J, Iy: steel.Iy, Iz: steel.Iz,
			PrincipalAngle: 0.3}},
		Nodes: []domain.Node{{ID: 1, X: 0, Y: 0, Z: 0}, {ID: 2, X: 0, Y: 3, Z: 0}, {ID: 3, X: 4, Y: 3, Z: 0},
			{ID: 4, X: 4, Y: 3, Z: 2.5}, {ID: 5, X: 4, Y: 0, Z: 2.5}, {ID: 6, X: 5, Y: 1, Z: 3}},
		Members: []domain.Member{
			{ID: 77, NodeA: 1, NodeB: 2, Section: 1, Material: 1},
			{ID: 66, NodeA: 2, NodeB: 3, Section: 1, Material: 1, Direction: geom.Direction{Angle: 0.5}},
			{ID: 64, NodeA: 3, NodeB: 4, Section: 1, Material: 1},
			{ID: 78, NodeA: 4, NodeB: 5, Section: 1, Material: 1},
			{ID: 79, NodeA: 4, NodeB: 6, Section: 1, Material: 1},
			{ID: 86, NodeA: 2, NodeB: 6, Section: 1, Material: 1, Type: domain.Truss},
		},
		Supports: []domain.Support{{Node: 1, Code: "FFFFFF"}, {Node: 5, Code: "FFFRRS", Springs: [6]float64{5: 2e6}}},
		LoadCases: []domain.LoadCase{{ID: 1,
			NodeLoads: []domain.NodeLoad{{Node: 3, F: [6]float64{s * 1, s * -2, s * 0.5, s * 1, s * -0.5, s * 2}},
				{Node: 6, F: [6]float64{0, 0, s * -1, 0, 0, 0}}},
			Members: []domain.MemberLoad{{Member: 66, Type: domain.DistributedForce, Axes: domain.GlobalInclined,
				Direction: geom.YAxis, P1: s * -1, P2: s * -2}},
		}},
	}
	d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := nonlinear.Analyze(context.Background(), d, 1, nonlinear.Options{Steps: 2, Convergence: nonlinear.Deflections, Tolerance: 1e-7})
	if err != nil {
		t.Fatal(err)
	}
	lin, err := static.Analyze(context.Background(), m, static.Options{Cases: []int64{1}})
	if err != nil {
		t.Fatal(err)
	}
	sc := lin.Cases[0]
	compare := func(what string, got, want [][6]float64) {
		t.Helper()
		for _, part := range [][2]int{{0, 3}, {3, 6}} { // forces and moments, or translations and rotations, apart
			scale := 0.0
			for _, w := range want {
				for k := part[0]; k < part[1]; k++ {
					scale = math.Max(scale, math.Abs(w[k]))
				}
			}
			worst := 0.0
			for i := range want {
				for k := part[0]; k < part[1]; k++ {
					worst = math.Max(worst, math.Abs(got[i][k]-want[i][k])/scale)
				}
			}
			t.Logf("%s %d–%d: largest %.3g, worst relative difference %.2e", what, part[0], part[1]-1, scale, worst)
			if !(worst <= 1e-6) {
				t.Errorf("%s: non-linear differs from linear by %.3g of the largest (%g)", what, worst, scale)
			}
		}
	}
	var gotU, wantU, gotR, wantR, gotE, wantE [][6]float64
	for n, nr := range res.Nodes {
		var u [6]float64
		copy(u[:3], nr.Translation[:])
		copy(u[3:], nr.Rotation[:])
		gotU, wantU = append(gotU, u), append(wantU, sc.Nodes[n].Disp)
		if nr.HasReaction != sc.Nodes[n].HasReaction {
			t.Errorf("node %d: HasReaction %v, linear %v", nr.Node, nr.HasReaction, sc.Nodes[n].HasReaction)
		}
		gotR, wantR = append(gotR, nr.Reaction), append(wantR, sc.Nodes[n].Reaction)
	}
	for i, mr := range res.Members {
		gotE, wantE = append(gotE, mr.EndA, mr.EndB), append(wantE, sc.Members[i].EndA, sc.Members[i].EndB)
	}
	compare("displacements", gotU, wantU)
	compare("reactions", gotR, wantR)
	compare("member end actions", gotE, wantE)
}

// TestNoLoad: a case without loads on free DOFs returns the initial state
// at once, its loads on supported DOFs as reactions.
func TestNoLoad(t *testing.T) {
	m := chainModel(straight(3, 2), steel, geom.YAxis, map[int][6]float64{0: {1: 5}})
	res := analyze(t, m, nonlinear.Options{Steps: 3})
	if len(res.History) != 0 || res.LoadFactor != 1 || res.Nodes[2].Translation != (geom.Vec3{}) || res.Nodes[0].Reaction[1] != -5 {
		t.Errorf("result %+v", res)
	}
}

// TestMechanism: a truss is an axial bar, so a cantilever ending in a
// truss member cannot carry its tip node sideways; the singular tangent is
// reported as the *domain.ModelError naming the node and DOF, as in the
// linear analysis.
func TestMechanism(t *testing.T) {
	m := chainModel(straight(3, 2), steel, geom.YAxis, map[int][6]float64{2: {0: 1e3}})
	m.Members[1].Type = domain.Truss
	d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = nonlinear.Analyze(context.Background(), d, 1, nonlinear.Options{})
	var me *domain.ModelError
	if !errors.As(err, &me) || me.Node != 3 || me.DOFIndex() < 0 {
		t.Fatalf("error %v, want a mechanism at node 3", err)
	}
}
