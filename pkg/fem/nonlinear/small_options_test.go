package nonlinear_test

import (
	"context"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
)

// TestSmallPDeltaChoices checks what Options.PDelta selects on the AISC
// benchmark column (helpers_test.go) as one member, where each choice has
// a closed form. The column's axial force is −P whatever its sway, so
// each answer is a linear solve and is checked to 1e-9:
//
//   - PDeltaNone: the linear cantilever, Δ = H·L³/(3EI);
//   - PDeltaChord: the string stiffness −P/L on the tip's sway, with the
//     tip rotation free: Δ = H/(3EI/L³ − P/L) (the P-Δ-only amplification
//     1/(1 − P·L²/(3EI)) of the chord, e.g. Chen and Lui, Structural
//     Stability, §5.2);
//   - PDeltaBoth: the one-member cubic geometric stiffness, which also
//     bends the member (P-δ) and lands within 0.05 % of the beam-column
//     closed form (the 2-member error of TestSmallAISCBenchmark is 5e-4,
//     one member's is bounded the same way here), far from the other two.
func TestSmallPDeltaChoices(t *testing.T) {
	const E, A, I, L, H = aiscE, aiscA, aiscI, aiscL, aiscH
	P, exact, _ := aiscClosedForm()
	linear := H * L * L * L / (3 * E * I)
	chord := H / (3*E*I/(L*L*L) - P/L)
	s := section{E: E, G: 11200, A: A, J: 26.5, Iy: I, Iz: I}
	for _, tc := range []struct {
		name   string
		pd     nonlinear.PDelta
		want   float64
		within float64
	}{
		{"none", nonlinear.PDeltaNone, linear, 1e-9},
		{"chord", nonlinear.PDeltaChord, chord, 1e-9},
		{"both", nonlinear.PDeltaBoth, exact, 5e-3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := chainModel(straight(L, 1), s, geom.YAxis, map[int][6]float64{1: {-P, H, 0, 0, 0, 0}})
			res := analyze(t, m, nonlinear.Options{Theory: nonlinear.Small, PDelta: tc.pd, Tolerance: 1e-12})
			got := res.Nodes[1].Translation[1]
			if !near(got, tc.want, tc.within*tc.want) {
				t.Errorf("tip %.9f in, want %.9f (linear %.6f, chord %.6f, exact %.6f)", got, tc.want, linear, chord, exact)
			}
			// Statics of the deformed column: the base moment is H·L + P·Δ
			// for every choice, the geometric end forces being the P·Δ
			// couple of what each choice includes.
			if gotM := -res.Nodes[0].Reaction[5]; tc.pd != nonlinear.PDeltaNone && !near(gotM, H*L+P*got, 1e-9*H*L) {
				t.Errorf("base moment %.6f kip·in, H·L + P·Δ = %.6f", gotM, H*L+P*got)
			}
		})
	}
}

// TestDampingKeepsTheAnswer: damping scales the corrections of the first
// steps, so a damped analysis takes more iterations to the same state
// (the benchmark column in 10 members, Small theory, tolerance 1e-10 on
// the residuals: the two answers agree to 1e-8 relative, the tolerance's
// reach through the conditioning of the sway).
func TestDampingKeepsTheAnswer(t *testing.T) {
	const E, A, I, L, H = aiscE, aiscA, aiscI, aiscL, aiscH
	P, _, _ := aiscClosedForm()
	s := section{E: E, G: 11200, A: A, J: 26.5, Iy: I, Iz: I}
	m := chainModel(straight(L, 10), s, geom.YAxis, map[int][6]float64{10: {-P, H, 0, 0, 0, 0}})
	plain := analyze(t, m, nonlinear.Options{Theory: nonlinear.Small, Steps: 4, Tolerance: 1e-10, MaxIterations: 100})
	damped := analyze(t, m, nonlinear.Options{Theory: nonlinear.Small, Steps: 4, Tolerance: 1e-10, MaxIterations: 100, Damping: 0.5, DampingSteps: 2})
	a, b := plain.Nodes[10].Translation[1], damped.Nodes[10].Translation[1]
	if !near(b, a, 1e-8*math.Abs(a)) {
		t.Errorf("damped tip %.9f, undamped %.9f", b, a)
	}
	if len(damped.History) <= len(plain.History) {
		t.Errorf("damped run took %d iterations, undamped %d: the damping did not act", len(damped.History), len(plain.History))
	}
	// Steps past DampingSteps are not damped: their first correction is
	// the full Newton step, so they converge as fast as undamped ones.
	count := func(h []nonlinear.Iteration, step int) int {
		n := 0
		for _, it := range h {
			if it.Step == step {
				n++
			}
		}
		return n
	}
	if count(damped.History, 4) != count(plain.History, 4) {
		t.Errorf("step 4: %d damped iterations, %d undamped; it is past DampingSteps", count(damped.History, 4), count(plain.History, 4))
	}
}

// TestCombinationAsOneLoad: a combination is analysed as the factored sum
// of its components' loads, applied together (non-linear answers do not
// superpose): C = 1.5·A + 0.5·B gives exactly the state of a primary
// case holding 1.5·A + 0.5·B, in both kinds of theory (the same
// equations, so to round-off).
func TestCombinationAsOneLoad(t *testing.T) {
	const E, A, I, L, H = aiscE, aiscA, aiscI, aiscL, aiscH
	P, _, _ := aiscClosedForm()
	s := section{E: E, G: 11200, A: A, J: 26.5, Iy: I, Iz: I}
	for _, th := range []nonlinear.Theory{nonlinear.Small, nonlinear.Finite} {
		t.Run(th.String(), func(t *testing.T) {
			m := chainModel(straight(L, 6), s, geom.YAxis, map[int][6]float64{6: {-P, 1.5 * H, 0, 0, 0, 0}})
			// Case 1 is the sum; 2 and 3 its parts, 4 the combination.
			m.LoadCases = append(m.LoadCases,
				domain.LoadCase{ID: 2, NodeLoads: []domain.NodeLoad{{Node: 7, F: [6]float64{-P / 2, H, 0, 0, 0, 0}}}},
				domain.LoadCase{ID: 3, NodeLoads: []domain.NodeLoad{{Node: 7, F: [6]float64{-P / 2, 0, 0, 0, 0, 0}}}})
			m.Combinations = []domain.Combination{{ID: 4, Terms: []domain.Term{{Case: 2, Factor: 1.5}, {Case: 3, Factor: 0.5}}}}
			opts := nonlinear.Options{Theory: th, Steps: 3, Tolerance: 1e-10}
			want := analyze(t, m, opts)
			d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := nonlinear.Analyze(context.Background(), d, 4, opts)
			if err != nil {
				t.Fatal(err)
			}
			for n := range want.Nodes {
				for k := range 3 {
					if a, b := got.Nodes[n].Translation[k], want.Nodes[n].Translation[k]; !near(a, b, 1e-12*(1+math.Abs(b))) {
						t.Errorf("node %d axis %d: combination %.12g, combined case %.12g", n, k, a, b)
					}
				}
			}
		})
	}
}
