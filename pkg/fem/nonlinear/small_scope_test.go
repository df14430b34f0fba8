package nonlinear_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
	"github.com/gusset/gusset/pkg/fem/static"
)

// TestSmallFeaturesMatchLinear: what the large-displacement theories
// refuse and the Small theory takes through domain.Element — end
// releases, rigid offsets, a constraint (rigid link), a prescribed
// displacement, thermal and prestress loads — with a support spring, a
// truss and a member load, on a 3-D frame under tiny loads (displacements
// about 1e-7 of the lengths, so the geometric terms are about 1e-7
// relative): the Small theory must give static.Analyze's displacements,
// reactions and member end actions within 1e-6 of the largest of each.
func TestSmallFeaturesMatchLinear(t *testing.T) {
	const s = 0.01 // N, N·m, N/m
	m := &domain.Model{
		Materials: []domain.Material{{ID: 1, E: steel.E, G: steel.G, Alpha: 1.2e-5}},
		Sections: []domain.Section{{ID: 1, A: steel.A, Ay: steel.Ay, Az: steel.Az, J: steel.J, Iy: steel.Iy, Iz: steel.Iz,
			PrincipalAngle: 0.3}},
		Nodes: []domain.Node{{ID: 1, X: 0, Y: 0, Z: 0}, {ID: 2, X: 0, Y: 3, Z: 0}, {ID: 3, X: 4, Y: 3, Z: 0},
			{ID: 4, X: 4, Y: 3, Z: 2.5}, {ID: 5, X: 4, Y: 0, Z: 2.5}, {ID: 6, X: 5, Y: 1, Z: 3},
			{ID: 7, X: 4.3, Y: 3.2, Z: -0.2}, {ID: 8, X: 6, Y: 3, Z: -1}},
		Members: []domain.Member{
			{ID: 77, NodeA: 1, NodeB: 2, Section: 1, Material: 1, OffsetA: geom.Vec3{0.05, 0.1, 0}},
			{ID: 66, NodeA: 2, NodeB: 3, Section: 1, Material: 1, Direction: geom.Direction{Angle: 0.5},
				ReleaseB: "FFFFRR", OffsetB: geom.Vec3{-0.2, 0, 0.05}},
			{ID: 64, NodeA: 3, NodeB: 4, Section: 1, Material: 1},
			{ID: 78, NodeA: 4, NodeB: 5, Section: 1, Material: 1, ReleaseA: "FFFFFR"},
			{ID: 79, NodeA: 4, NodeB: 6, Section: 1, Material: 1},
			{ID: 86, NodeA: 2, NodeB: 6, Section: 1, Material: 1, Type: domain.Truss},
			{ID: 95, NodeA: 7, NodeB: 8, Section: 1, Material: 1},
		},
		Supports: []domain.Support{{Node: 1, Code: "FFFFFF"}, {Node: 5, Code: "FFFRRS", Springs: [6]float64{5: 2e6}},
			{Node: 8, Code: "RFFRRR"}},
		Constraints: []domain.Constraint{{Master: 3, Slaves: []int64{7}, Code: "FFFFFF"}},
		LoadCases: []domain.LoadCase{{ID: 1,
			NodeLoads: []domain.NodeLoad{{Node: 3, F: [6]float64{s * 1, s * -2, s * 0.5, s * 1, s * -0.5, s * 2}},
				{Node: 6, F: [6]float64{0, 0, s * -1, 0, 0, 0}}, {Node: 8, F: [6]float64{s * 0.5, 0, 0, 0, 0, 0}}},
			Members: []domain.MemberLoad{{Member: 66, Type: domain.DistributedForce, Axes: domain.GlobalInclined,
				Direction: geom.YAxis, P1: s * -1, P2: s * -2}},
			Thermal:    []domain.ThermalLoad{{Member: 64, DT: s * 1e-3, DTy: s * 1e-2}},
			Prestress:  []domain.PrestressLoad{{Member: 79, Force: s * 3}},
			Prescribed: []domain.PrescribedDisplacement{{Node: 1, Set: [6]bool{1: true, 5: true}, Value: [6]float64{1: 2e-8, 5: 1e-8}}},
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
	lin, err := static.Analyze(context.Background(), m, static.Options{Cases: []int64{1}})
	if err != nil {
		t.Fatal(err)
	}
	compareLinear(t, res, lin.Cases[0], 1e-6)
	// The prescribed displacement is reached.
	if got := res.Nodes[0].Translation[1]; got != 2e-8 {
		t.Errorf("prescribed uy at A: %g", got)
	}
}

// TestSmallRefusals: what the Small theory does not support yet is
// refused before any work, naming the member, node or case.
func TestSmallRefusals(t *testing.T) {
	base := func() *domain.Model {
		return chainModel(straight(3, 2), steel, geom.YAxis, map[int][6]float64{2: {1: -1e3}})
	}
	for _, tc := range []struct {
		name string
		edit func(m *domain.Model)
		want []string
	}{
		{"pulley", func(m *domain.Model) { m.Members[0].Pulley = true }, []string{"member 1", "pulley members are not supported"}},
		{"fuse with an axial release", func(m *domain.Model) {
			m.Members[1].Fuse, m.Members[1].ReleaseB = domain.PlasticFuse, "RFFFFF"
		}, []string{"member 2", "fuse", "axial"}},
		{"one-way fuse", func(m *domain.Model) {
			m.Members[1].Fuse, m.Members[1].Type = domain.BrittleFuse, domain.TensionOnly
		}, []string{"member 2", "fuse"}},
		{"negative cable length", func(m *domain.Model) {
			m.Members[1].Type, m.Members[1].CableLength = domain.Cable, -1
		}, []string{"member 2", "cable length"}},
		{"one-way plastic support", func(m *domain.Model) { m.Supports[0].Code, m.Supports[0].Active[1] = "FPFFFF", 'P' }, []string{"node 1", "one-way"}},
		{"friction on a rotation", func(m *domain.Model) { m.Supports[0].Code = "FFFFFN" }, []string{"node 1", "rotation about Z", "translations only"}},
		{"friction without a normal", func(m *domain.Model) { m.Supports[0].Code = "NFFFFF" }, []string{"node 1", "normal axis"}},
		{"friction on a free normal", func(m *domain.Model) {
			m.Supports[0].Code, m.Supports[0].Friction[0] = "NRFFFF", domain.Friction{Normal: geom.YAxis, Factor: 0.3}
		}, []string{"node 1", "normal translation along Y", "supported"}},
		{"variable support with decreasing limits", func(m *domain.Model) {
			m.Supports = append(m.Supports, domain.Support{Node: 3, Code: "RVRRRR",
				Tables: [6][]domain.SpringSegment{1: {{Stiffness: 1e6, Limit: 1}, {Stiffness: 1e5, Limit: 0.5}}}})
		}, []string{"node 3", "variable spring segment 2"}},
		{"prescribed plastic support", func(m *domain.Model) {
			m.Supports[0].Code = "FPFFFF"
			m.LoadCases[0].Prescribed = []domain.PrescribedDisplacement{{Node: 1, Set: [6]bool{1: true}, Value: [6]float64{1: 1e-3}}}
		}, []string{"case 1", "node 1", "plastic or friction"}},
		{"component of a combination", func(m *domain.Model) {
			// What is refused of a primary case is refused of a
			// combination bringing it in.
			m.Supports[0].Code = "FPFFFF"
			m.LoadCases[0].Prescribed = []domain.PrescribedDisplacement{{Node: 1, Set: [6]bool{1: true}, Value: [6]float64{1: 1e-3}}}
			m.Combinations = []domain.Combination{{ID: 3, Terms: []domain.Term{{Case: 1, Factor: 1.5}}}}
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := base()
			tc.edit(m)
			name, want := int64(1), tc.want
			if want == nil {
				name, want = 3, []string{"case 1", "node 1", "plastic or friction"}
			}
			refuses(t, m, name, nonlinear.Options{Theory: nonlinear.Small}, want)
		})
	}
	// An unknown theory is an option error.
	d, err := domain.Build(context.Background(), base(), domain.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nonlinear.Analyze(context.Background(), d, 1, nonlinear.Options{Theory: 7}); err == nil || !strings.Contains(err.Error(), "theory") {
		t.Errorf("theory 7: error %v", err)
	}
}

// TestSmallNotConvergedAndUnstable: in the Small theory the first
// iteration of the first step is the linear solution (no axial force at
// u = 0), so one iteration cannot meet a tight tolerance under an axial
// load: a *NotConvergedError, as in the other theories. Past the critical
// load (a cantilever at 1.1·P_cr, P_cr = π²EI/(4L²)) the tangent K + K_G
// has a negative pivot, reported as an *UnstableError, in every step
// count's last step or earlier.
func TestSmallNotConvergedAndUnstable(t *testing.T) {
	const L = 3.0
	s := steel
	s.Iy = s.Iz
	pcr := math.Pi * math.Pi * s.E * s.Iz / (4 * L * L)
	build := func(ratio float64) *domain.Domain {
		m := chainModel(straight(L, 8), s, geom.YAxis, map[int][6]float64{8: {-ratio * pcr, 1e3, 0, 0, 0, 0}})
		d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	var recs []nonlinear.Iteration
	_, err := nonlinear.Analyze(context.Background(), build(0.5), 1, nonlinear.Options{Theory: nonlinear.Small, MaxIterations: 1,
		Tolerance: 1e-10, Progress: func(it nonlinear.Iteration) { recs = append(recs, it) }})
	var nc *nonlinear.NotConvergedError
	if !errors.As(err, &nc) {
		t.Fatalf("error %v, want a *NotConvergedError", err)
	}
	t.Logf("%v", err)
	if nc.Case != 1 || nc.Step != 1 || nc.Iterations != 1 || nc.LoadFactor != 0 || len(recs) != 1 || !(nc.Residual > 0) || nc.Residual != recs[0].Residual {
		t.Errorf("error %+v, records %+v", nc, recs)
	}
	for _, steps := range []int{1, 4} {
		_, err = nonlinear.Analyze(context.Background(), build(1.1), 1, nonlinear.Options{Theory: nonlinear.Small, Steps: steps})
		var ue *nonlinear.UnstableError
		if !errors.As(err, &ue) {
			t.Fatalf("%d steps: error %v, want an *UnstableError", steps, err)
		}
		t.Logf("%d steps: %v", steps, err)
		if ue.Case != 1 || ue.Negative < 1 || !(ue.LoadFactor > 0.9) {
			t.Errorf("%d steps: error %+v", steps, ue)
		}
	}
	// Below it the analysis converges, in parabolic steps with the secant
	// matrix too (modified Newton: at 0.7·P_cr the start-of-step matrix of
	// the last step, at λ = 4/9, makes each iteration cut the error by
	// about 1 − 0.3/0.69).
	res, err := nonlinear.Analyze(context.Background(), build(0.7), 1, nonlinear.Options{Theory: nonlinear.Small, Steps: 3,
		Stepping: nonlinear.Parabolic, Matrix: nonlinear.Secant, Convergence: nonlinear.Both, Tolerance: 1e-8, MaxIterations: 100})
	if err != nil {
		t.Fatal(err)
	}
	if res.LoadFactor != 1 || len(res.History) == 0 {
		t.Errorf("load factor %g, %d iterations", res.LoadFactor, len(res.History))
	}
	t.Logf("0.7·P_cr, 3 parabolic secant steps: %d iterations, tip %.6g m", len(res.History), res.Nodes[8].Translation[0])
}

// TestTheories: Large runs the same analysis as Finite (the zero value);
// in the Small theory a case without loads on free DOFs returns the
// initial state at once, its loads on supported DOFs as reactions, as in
// the other theories.
func TestTheories(t *testing.T) {
	m := chainModel(straight(3, 4), steel, geom.YAxis, map[int][6]float64{4: {-1e4, 2e3, 0, 0, 0, 0}})
	fin := analyze(t, m, nonlinear.Options{Steps: 2})
	lar := analyze(t, m, nonlinear.Options{Theory: nonlinear.Large, Steps: 2})
	if fin.Nodes[4].Translation != lar.Nodes[4].Translation || len(fin.History) != len(lar.History) {
		t.Errorf("Finite tip %v in %d iterations, Large %v in %d", fin.Nodes[4].Translation, len(fin.History),
			lar.Nodes[4].Translation, len(lar.History))
	}
	if nonlinear.Small.String() != "Small" || nonlinear.Finite.String() != "Finite" || nonlinear.Large.String() != "Large" {
		t.Errorf("theory names %v %v %v", nonlinear.Finite, nonlinear.Large, nonlinear.Small)
	}
	m = chainModel(straight(3, 2), steel, geom.YAxis, map[int][6]float64{0: {1: 5}})
	res := analyze(t, m, nonlinear.Options{Theory: nonlinear.Small, Steps: 3})
	if len(res.History) != 0 || res.LoadFactor != 1 || res.Nodes[2].Translation != (geom.Vec3{}) || res.Nodes[0].Reaction[1] != -5 {
		t.Errorf("result %+v", res)
	}
}
