package nonlinear_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
)

// section is a test section: material and section properties together.
type section struct {
	E, G                 float64
	A, Ay, Az, J, Iy, Iz float64
}

// chainModel returns a model of members through the points x (member i
// from node i to node i+1), node 0 clamped, and one load case 1 with
// the node loads given per node index. Node i is node i+1 (so id 1 is
// clamped), member i member i; the material and the section are 1.
func chainModel(x []geom.Vec3, s section, vertical geom.Axis, loads map[int][6]float64) *domain.Model {
	m := &domain.Model{
		VerticalAxis: vertical,
		Materials:    []domain.Material{{ID: 1, E: s.E, G: s.G}},
		Sections:     []domain.Section{{ID: 1, A: s.A, Ay: s.Ay, Az: s.Az, J: s.J, Iy: s.Iy, Iz: s.Iz}},
		Supports:     []domain.Support{{Node: 1, Code: "FFFFFF"}},
	}
	for i, p := range x {
		m.Nodes = append(m.Nodes, domain.Node{ID: int64(i + 1), X: p[0], Y: p[1], Z: p[2]})
		if i > 0 {
			m.Members = append(m.Members, domain.Member{ID: int64(i), NodeA: int64(i),
				NodeB: int64(i + 1), Section: 1, Material: 1})
		}
	}
	lc := domain.LoadCase{ID: 1}
	for n := range len(x) {
		if f, ok := loads[n]; ok {
			lc.NodeLoads = append(lc.NodeLoads, domain.NodeLoad{Node: int64(n + 1), F: f})
		}
	}
	m.LoadCases = []domain.LoadCase{lc}
	return m
}

// straight returns ne+1 points from the origin along +X to (L, 0, 0).
func straight(L float64, ne int) []geom.Vec3 {
	x := make([]geom.Vec3, ne+1)
	for i := range x {
		x[i] = geom.Vec3{L * float64(i) / float64(ne), 0, 0}
	}
	return x
}

// analyze builds m and runs the non-linear analysis of case 1.
func analyze(t *testing.T, m *domain.Model, opts nonlinear.Options) *nonlinear.Result {
	t.Helper()
	d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := nonlinear.Analyze(context.Background(), d, 1, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// iterationStats returns the most iterations of any step.
func iterationStats(res *nonlinear.Result) int {
	most := 0
	for _, it := range res.History {
		most = max(most, it.Iteration)
	}
	return most
}

// near reports whether got is within tol of want; false for NaN.
func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// The AISC benchmark cantilever (kip, inch): E, A, I, L and the lateral
// tip load H of TestAISCBenchmarkCantilever and TestSmallAISCBenchmark.
const (
	aiscE = 29500.0
	aiscA = 51.7
	aiscI = 2150.0
	aiscL = 196.0
	aiscH = 10.0
)

// aiscClosedForm returns the axial load P = 0.5·P_cr (P_cr = π²EI/4L²)
// and the second-order tip deflection and base moment of the benchmark
// cantilever: Δ = H/(P·k)·(tan kL − kL), k = √(P/EI), M = H·L + P·Δ
// (Timoshenko & Gere, Theory of Elastic Stability, §1.11).
func aiscClosedForm() (p, delta, moment float64) {
	pcr := math.Pi * math.Pi * aiscE * aiscI / (4 * aiscL * aiscL)
	p = 0.5 * pcr
	k := math.Sqrt(p / (aiscE * aiscI))
	delta = aiscH / (p * k) * (math.Tan(k*aiscL) - k*aiscL)
	return p, delta, aiscH*aiscL + p*delta
}

// refuses checks that the analysis of case id of m with opts fails
// with an error mentioning every string of want.
func refuses(t *testing.T, m *domain.Model, id int64, opts nonlinear.Options, want []string) {
	t.Helper()
	d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = nonlinear.Analyze(context.Background(), d, id, opts)
	if err == nil {
		t.Fatal("accepted")
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
}
