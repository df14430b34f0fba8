package static_test

import (
	"context"
	"errors"
	"math"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/sparse"
	"github.com/gusset/gusset/pkg/fem/static"
)

// featureFrame is a two-storey, two-by-one-bay frame (Z up) with member
// releases, global and local rigid offsets, a rigid floor diaphragm per
// storey (master–slave constraints), a pinned and a spring base, truss
// bracing, and six load cases plus a combination: node loads, self-weight,
// distributed and point member loads, a thermal gradient and a support
// settlement. Node (i, j, k), at (xs[i], ys[j], zs[k]), is 100(k+1) +
// 10j + i + 1; the column above it is 1000 plus its id, the beams from it
// along x and y 2000 and 3000 plus it, the brace 4001; the diaphragm
// masters are 901 and 902. The sections col, beam and brace are 1–3; the
// cases wind, dead, point, thermal, settle and uplift 1–6, the
// combination 7.
func featureFrame() *domain.Model {
	m := base(domain.Section{ID: 1, A: 0.012, Ay: 0.006, Az: 0.006, J: 3e-6, Iy: 1.2e-4, Iz: 4e-5},
		domain.Section{ID: 2, A: 0.008, J: 2e-6, Iy: 9e-5, Iz: 2e-5, PrincipalAngle: 0.1},
		sec(3, 0.002, 1e-7))
	m.VerticalAxis = geom.ZAxis
	xs, ys, zs := []float64{0, 5, 11}, []float64{0, 6}, []float64{0, 3.5, 6.5}
	id := func(i, j, k int) int64 { return int64(100*(k+1) + 10*j + i + 1) }
	for k, z := range zs {
		for j, y := range ys {
			for i, x := range xs {
				m.Nodes = append(m.Nodes, node(id(i, j, k), x, y, z))
			}
		}
	}
	for k := 0; k+1 < len(zs); k++ {
		for j := range ys {
			for i := range xs {
				m.Members = append(m.Members, frame(1000+id(i, j, k), id(i, j, k), id(i, j, k+1), 1))
			}
		}
	}
	for k := 1; k < len(zs); k++ {
		for j := range ys {
			for i := 0; i+1 < len(xs); i++ {
				b := frame(2000+id(i, j, k), id(i, j, k), id(i+1, j, k), 2)
				if i == 0 {
					b.ReleaseA = "FFFFRR" // pinned in bending at the first column
					b.OffsetA = geom.Vec3{0.15, 0, 0}
				}
				if i == 1 {
					b.ReleaseB = "FFFFFS"
					b.SpringsB = [6]float64{5: 2e6}
					b.OffsetB = geom.Vec3{-0.2, 0, -0.05}
					b.OffsetsLocal = true
				}
				m.Members = append(m.Members, b)
			}
		}
		for i := range xs {
			b := frame(3000+id(i, 0, k), id(i, 0, k), id(i, 1, k), 2)
			b.OffsetA, b.OffsetB = geom.Vec3{0, 0.1, -0.1}, geom.Vec3{0, -0.1, -0.1}
			m.Members = append(m.Members, b)
		}
	}
	br := frame(4001, id(0, 0, 0), id(1, 0, 1), 3)
	br.Type = domain.Truss
	m.Members = append(m.Members, br)
	for j := range ys {
		for i := range xs {
			code := "FFFFFF"
			if i == 1 {
				code = "FFFRRR" // pinned
			}
			s := domain.Support{Node: id(i, j, 0), Code: code}
			if i == 2 && j == 1 {
				s.Code = "FFSFFF"
				s.Springs[2] = 5e7
			}
			m.Supports = append(m.Supports, s)
		}
	}
	// Diaphragm masters at the floor centres; their out-of-plane DOFs are
	// supported since no member reaches them.
	for k := 1; k < len(zs); k++ {
		mid := int64(900 + k)
		m.Nodes = append(m.Nodes, node(mid, 5.5, 3, zs[k]))
		m.Supports = append(m.Supports, domain.Support{Node: mid, Code: "RRFFFR"})
		var slaves []int64
		for j := range ys {
			for i := range xs {
				slaves = append(slaves, id(i, j, k))
			}
		}
		m.Constraints = append(m.Constraints, domain.Constraint{Master: mid, Slaves: slaves, Code: "FFRRRF"})
	}
	m.LoadCases = []domain.LoadCase{
		{ID: 1, NodeLoads: []domain.NodeLoad{{Node: 901, F: [6]float64{20e3, 5e3, 0, 0, 0, 8e3}},
			{Node: 902, F: [6]float64{30e3, 0, 0, 0, 0, -4e3}}, {Node: id(2, 1, 2), F: [6]float64{0, 0, -7e3, 1e3}}}},
		{ID: 2, SelfWeight: [3]float64{0, 0, -1}, Members: []domain.MemberLoad{
			{Member: 2000 + id(0, 0, 1), Type: domain.DistributedForce, Axes: domain.GlobalProjected, Direction: geom.NegativeZAxis, P1: 12e3, P2: 12e3},
			{Member: 2000 + id(1, 1, 2), Type: domain.DistributedForce, Axes: domain.Local, Direction: geom.NegativeYAxis, Position: domain.Percent, A: 20, B: 70, P1: 4e3, P2: 9e3}}},
		{ID: 3, Members: []domain.MemberLoad{
			{Member: 3000 + id(1, 0, 2), Type: domain.ConcentratedForce, Axes: domain.GlobalInclined, Direction: geom.NegativeZAxis, A: 2.2, P1: 40e3},
			{Member: 1000 + id(2, 0, 0), Type: domain.ConcentratedMoment, Direction: geom.ZAxis, Position: domain.Percent, A: 50, P1: 3e3}}},
		{ID: 4, Thermal: []domain.ThermalLoad{{Member: 2000 + id(1, 0, 2), DT: 30, DTz: 10}, {Member: 4001, DT: -20}}},
		{ID: 5, Prescribed: []domain.PrescribedDisplacement{{Node: id(0, 1, 0), Set: [6]bool{2: true, 4: true}, Value: [6]float64{2: -0.01, 4: 0.002}}}},
		{ID: 6, NodeLoads: []domain.NodeLoad{{Node: id(1, 1, 1), F: [6]float64{0, 0, 15e3, 0, 2e3}}}},
	}
	m.Combinations = []domain.Combination{{ID: 7, Terms: []domain.Term{{Case: 2, Factor: 1.35}, {Case: 1, Factor: 1.5}, {Case: 4, Factor: 0.6}}}}
	return m
}

// sameDisplacements compares the node displacements of two results case by
// case: translations and rotations each to tol relative to the largest of
// their kind in the case.
func sameDisplacements(t *testing.T, label string, got, want *static.Results, tol float64) {
	t.Helper()
	if len(got.Cases) != len(want.Cases) {
		t.Fatalf("%s: %d cases, want %d", label, len(got.Cases), len(want.Cases))
	}
	for c := range want.Cases {
		wc, gc := want.Cases[c], got.Cases[c]
		var scale [2]float64
		for _, n := range wc.Nodes {
			for d, v := range n.Disp {
				scale[d/3] = math.Max(scale[d/3], math.Abs(v))
			}
		}
		if scale[0] == 0 || scale[1] == 0 {
			t.Fatalf("%s: case %d has no displacement of one kind", label, wc.Case)
		}
		worst := 0.0
		for i, n := range wc.Nodes {
			for d, v := range n.Disp {
				worst = math.Max(worst, math.Abs(gc.Nodes[i].Disp[d]-v)/scale[d/3])
			}
		}
		if worst > tol {
			t.Errorf("%s: case %d displacements differ by %.2g relative (> %.0g)", label, wc.Case, worst, tol)
		}
	}
}

// TestSparseMatchesDense: the default sparse path, every ordering, gives the
// dense path's displacements to 1e-10 on a model with releases, offsets,
// constraints, springs, prescribed displacements and several load cases.
func TestSparseMatchesDense(t *testing.T) {
	m := featureFrame()
	dense := run(t, m, static.Options{Factorizer: linsys.DenseFactorizer{}})
	def := run(t, m, static.Options{})
	sameDisplacements(t, "default", def, dense, 1e-10)
	for _, o := range []static.Options{
		{OptimizationMethod: linsys.OptimizeNone},
		{SolverType: linsys.Wavefront},
		{OptimizationMethod: linsys.OptimizeMinimumDegree},
		{OptimizationMethod: linsys.OptimizeNestedDissection},
	} {
		sf := &linsys.SparseFactorizer{Orderings: o.Orderings()}
		res := run(t, m, static.Options{Factorizer: sf})
		st := sf.Stats()
		sameDisplacements(t, st.Method.String(), res, dense, 1e-10)
		if st.Analyses != 1 || st.Factorizations != 1 {
			t.Errorf("%v: %d symbolic analyses and %d factorizations, want 1 and 1", st.Method, st.Analyses, st.Factorizations)
		}
	}
	// The load cases are solved as one block: one factorization, all
	// cases and the combination reported.
	if def.Timings.Factorizations != 1 || len(def.Cases) != 7 {
		t.Errorf("%d factorizations, %d cases; want 1 and 7", def.Timings.Factorizations, len(def.Cases))
	}
}

func TestOrderingsFollowSolverSettings(t *testing.T) {
	for _, c := range []struct {
		o    static.Options
		want []sparse.Method
	}{
		{static.Options{}, []sparse.Method{sparse.AMD, sparse.NestedDissection}},
		{static.Options{OptimizationMethod: linsys.OptimizeNone}, []sparse.Method{sparse.Natural}},
		{static.Options{SolverType: linsys.Wavefront, OptimizationMethod: linsys.OptimizeNone}, []sparse.Method{sparse.Natural}},
		{static.Options{SolverType: linsys.Wavefront}, []sparse.Method{sparse.RCM}},
		{static.Options{OptimizationMethod: linsys.OptimizeMinimumDegree}, []sparse.Method{sparse.AMD}},
		{static.Options{OptimizationMethod: linsys.OptimizeNestedDissection}, []sparse.Method{sparse.NestedDissection}},
	} {
		if got := c.o.Orderings(); !slices.Equal(got, c.want) {
			t.Errorf("solver %d, optimization %d: orderings %v, want %v", c.o.SolverType, c.o.OptimizationMethod, got, c.want)
		}
	}
	// Auto analyses both candidates and keeps the one with fewer flops.
	sf := &linsys.SparseFactorizer{}
	run(t, featureFrame(), static.Options{Factorizer: sf})
	st := sf.Stats()
	if len(st.Candidates) != 2 || st.Flops != min(st.Candidates[0], st.Candidates[1]) {
		t.Errorf("auto: chose %v with %g flops among %v", st.Method, st.Flops, st.Candidates)
	}
}

// swayPortal is a portal whose bases are pinned about Z and whose beam is
// hinged about Z at both ends: it sways freely in X. Every diagonal of the
// stiffness is positive, so only a pivot of the factorization reveals the
// mechanism. The axial stiffness is large next to the bending one, which
// is what makes the pivot round-off large.
func swayPortal() *domain.Model {
	m := base(sec(1, 0.1, 1e-6))
	m.Nodes = []domain.Node{node(1, 0, 0, 0), node(2, 3, 0, 0), node(3, 0, 3, 0), node(4, 3, 3, 0)}
	m.Members = []domain.Member{frame(1, 1, 3, 1), frame(2, 2, 4, 1), frame(3, 3, 4, 1)}
	m.Members[2].ReleaseA, m.Members[2].ReleaseB = "FFFFFR", "FFFFFR"
	m.Supports = []domain.Support{{Node: 1, Code: "FFFFFR"}, {Node: 2, Code: "FFFFFR"}}
	m.LoadCases = []domain.LoadCase{{ID: 1, NodeLoads: []domain.NodeLoad{{Node: 3, F: [6]float64{1e3}}}}}
	return m
}

// TestSparseMechanismNamed: a mechanism found by a pivot of the sparse
// factorization names a node and DOF of the mechanism, for every ordering:
// restraining exactly that DOF makes the structure stable. Stabilizing
// instead refactors on the same pattern without a new symbolic analysis.
func TestSparseMechanismNamed(t *testing.T) {
	ctx := context.Background()
	// The sway mode moves the top nodes 3 and 4 along X and turns every
	// node about Z.
	inMode := map[int64][]int{1: {5}, 2: {5}, 3: {0, 5}, 4: {0, 5}}
	for _, o := range []static.Options{{}, {OptimizationMethod: linsys.OptimizeNone}, {SolverType: linsys.Wavefront},
		{Factorizer: linsys.DenseFactorizer{}}} {
		_, err := static.Analyze(ctx, swayPortal(), o)
		var me *domain.ModelError
		if !errors.As(err, &me) || me.DOFIndex() < 0 {
			t.Fatalf("%v: err = %v, want a mechanism", o.Orderings(), err)
		}
		if !slices.Contains(inMode[me.Node], me.DOFIndex()) {
			t.Fatalf("%v: %v is not a DOF of the sway mechanism", o.Orderings(), err)
		}
		fixed := swayPortal()
		code := []byte("RRRRRR")
		for i, s := range fixed.Supports {
			if s.Node == me.Node {
				code = []byte(s.Code)
				fixed.Supports = slices.Delete(fixed.Supports, i, i+1)
				break
			}
		}
		code[me.DOFIndex()] = 'F'
		fixed.Supports = append(fixed.Supports, domain.Support{Node: me.Node, Code: string(code)})
		run(t, fixed, o)
	}
	// (A stabilized sway mechanism is too ill-conditioned for the
	// equilibrium checks of run; only the bookkeeping is checked.)
	sf := &linsys.SparseFactorizer{}
	res, err := static.Analyze(ctx, swayPortal(), static.Options{Factorizer: sf, StabilizeUnrestrainedNodes: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) == 0 {
		t.Errorf("no stabilization warning")
	}
	if st := sf.Stats(); st.Analyses != 1 || st.Factorizations < 2 {
		t.Errorf("stabilization: %d symbolic analyses, %d factorizations; want 1 and ≥ 2", st.Analyses, st.Factorizations)
	}
}

// TestReversalReusesSymbolic: the reversal loop factors a new state of the
// same equation numbering by refilling values only.
func TestReversalReusesSymbolic(t *testing.T) {
	const L, H = 4.0, 3.0
	m := base(sec(1, 0.01, 8e-5), sec(2, 5e-4, 1e-9))
	m.Nodes = []domain.Node{node(1, 0, 0, 0), node(2, L, 0, 0), node(3, 0, H, 0), node(4, L, H, 0)}
	m.Members = []domain.Member{frame(1, 1, 3, 1), frame(2, 2, 4, 1), frame(3, 3, 4, 1),
		frame(4, 1, 4, 2), frame(5, 2, 3, 2)}
	m.Members[3].Type, m.Members[4].Type = domain.TensionOnly, domain.TensionOnly
	m.Supports = []domain.Support{{Node: 1, Code: "FFFFFR"}, {Node: 2, Code: "FFFFFR"}, {Node: 3, Code: "RRFFRR"}, {Node: 4, Code: "RRFFRR"}}
	m.LoadCases = []domain.LoadCase{{ID: 1, NodeLoads: []domain.NodeLoad{{Node: 3, F: [6]float64{10e3}}}}}
	sf := &linsys.SparseFactorizer{}
	res := run(t, m, static.Options{Factorizer: sf, TensionCompressionOnly: true})
	if !memberRes(t, res.Cases[0], 5).Inactive {
		t.Fatalf("compression diagonal 5 still active")
	}
	if st := sf.Stats(); st.Analyses != 1 || st.Factorizations != 2 {
		t.Errorf("%d symbolic analyses, %d factorizations; want 1 and 2", st.Analyses, st.Factorizations)
	}
	dense := run(t, m, static.Options{Factorizer: linsys.DenseFactorizer{}, TensionCompressionOnly: true})
	sameDisplacements(t, "reversal", res, dense, 1e-10)
}

// TestGridTenCases runs the benchmark's model (grid-3 instead of grid-20)
// through both paths: ten load cases in one block, equilibrium in every
// case, and the dense path's displacements.
func TestGridTenCases(t *testing.T) {
	m := gridModel(t, 3)
	res := run(t, m, static.Options{})
	if len(res.Cases) != 10 || res.Timings.Factorizations != 1 || res.Timings.Equations != 6*16*3 {
		t.Fatalf("%d cases, %d factorizations, %d equations", len(res.Cases), res.Timings.Factorizations, res.Timings.Equations)
	}
	sameDisplacements(t, "grid-3", res, run(t, m, static.Options{Factorizer: linsys.DenseFactorizer{}}), 1e-10)
}

// TestParallelDeterministic: member setup, load resolution and recovery run
// in parallel chunks; the results must not depend on the number of
// workers (grid-6 has several recovery chunks).
func TestParallelDeterministic(t *testing.T) {
	m := gridModel(t, 6)
	// The factorizer's own schedule is pinned; the engine's parallelism
	// follows GOMAXPROCS.
	prev := runtime.GOMAXPROCS(1)
	serial := run(t, m, static.Options{Factorizer: &linsys.SparseFactorizer{Workers: 2}})
	runtime.GOMAXPROCS(4)
	parallel := run(t, m, static.Options{Factorizer: &linsys.SparseFactorizer{Workers: 2}})
	runtime.GOMAXPROCS(prev)
	if !reflect.DeepEqual(serial.Cases, parallel.Cases) {
		t.Errorf("results differ between 1 and 4 workers")
	}
}
