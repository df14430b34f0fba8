package server

import (
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// TestLargeTheoryPlateStrip runs the cantilever strip under an end moment
// (Sze, Liu & Lo, "Popular benchmark problems for geometric nonlinear
// analysis of shells", Finite Elem. Anal. Des. 40, 2004: L = 12, b = 1,
// h = 0.1, E = 1.2e6, ν = 0; here in kip and inch) through HTTP in the
// Large theory: 16 × 1 quads clamped at x = 0, the moment M = M_max/2 =
// π·EI/L about −Y split over the two tip corners, so the strip bends up
// into a half circle (θ = ML/EI = π). In pure bending with ν = 0 each flat
// element keeps its length L/16 and turns by α = θ/16 relative to its
// neighbour, so the tip is at the end of the polygon of 16 chords L/16,
// chord k at angle (k + ½)·α (the engine's TestShellStripEndMoment holds
// it to 1e-7·L); 1e-6·L here. The closed form of the arc,
// x = L·sin θ/θ = 0 and z = L·(1 − cos θ)/θ = 2L/π, is 1.0e-3·L from that
// polygon. Every plate carries the moment per unit width, mx = −M/b (the
// top face, inside the curl, in compression), to 1e-6. The run converges
// on deflections (1e-10 relative): the residual of the co-rotational frame
// has a round-off floor near 1e-8 of the load here.
func TestLargeTheoryPlateStrip(t *testing.T) {
	const (
		L, b, h, E = 12.0, 1.0, 0.1, 1.2e6
		n          = 16
	)
	ei := E * b * h * h * h / 12
	M := math.Pi * ei / L
	s := startStack(t, 1)
	s.must(200, "POST", "/job/new", nil)
	s.must(200, "PATCH", "/job/units", map[string]any{"length": "in", "sectionProperties": "in", "materialStrength": "Ksi",
		"force": "K", "moment": "Kin", "translation": "inch"})
	s.must(201, "POST", "/job/structure/materials", map[string]any{"id": 1, "name": "strip", "youngsModulus": E, "poissonsRatio": 0})
	node := func(i, j int) int { return 1 + i + (n+1)*j }
	var nodes, plates []map[string]any
	for j := range 2 {
		for i := 0; i <= n; i++ {
			nodes = append(nodes, map[string]any{"id": node(i, j), "x": L * float64(i) / n, "y": b * float64(j), "z": 0})
		}
	}
	for i := range n {
		plates = append(plates, map[string]any{"id": i + 1, "nodeA": node(i, 0), "nodeB": node(i+1, 0), "nodeC": node(i+1, 1),
			"nodeD": node(i, 1), "material": 1, "actualThickness": h, "theory": "Mindlin"})
	}
	s.must(200, "POST", "/job/structure/nodes/bulk", nodes)
	s.must(200, "POST", "/job/structure/plates/bulk", plates)
	for j := range 2 {
		s.must(201, "POST", "/job/structure/node-restraints", map[string]any{"node": node(0, j), "restraintCode": "FFFFFF"})
	}
	s.must(201, "POST", "/job/loads/load-cases", map[string]any{"id": 1, "title": "end moment"})
	for j := range 2 {
		s.must(201, "POST", "/job/loads/node-loads", map[string]any{"loadCase": 1, "node": node(n, j), "my": -M / 2})
	}
	done := s.wait(s.runNonLinear(map[string]any{"theory": "Large", "loadSteps": 8, "loadStepIterations": 50,
		"convergenceAccuracy": 1e-8, "matrixType": "Tangent", "residualsConvergence": false}).RunID)
	if done.Status != model.RunCompleted || len(done.Warnings) != 0 {
		t.Fatalf("run %s: %q %v", done.Status, done.ErrorMessage, done.Warnings)
	}
	alpha := math.Pi / n
	var px, pz float64
	for k := range n {
		px += L / n * math.Cos((float64(k)+0.5)*alpha)
		pz += L / n * math.Sin((float64(k)+0.5)*alpha)
	}
	tips := query[model.NodeDisplacementRow](s, fmtPath("node-displacements?nodes=%d,%d", node(n, 0), node(n, 1)))
	if len(tips.Results) != 2 {
		t.Fatalf("tip rows %+v", tips.Results)
	}
	for _, r := range tips.Results {
		x, z := L+r.Tx, r.Tz
		if !(math.Hypot(x-px, z-pz) <= 1e-6*L) {
			t.Errorf("tip node %d at (%.7f, %.7f), polygon (%.7f, %.7f); arc (0, %.4f)", r.Node, x, z, px, pz, 2*L/math.Pi)
		}
	}
	forces := query[model.PlateForcesRow](s, "plate-element-forces")
	if len(forces.Results) != n {
		t.Fatalf("%d plate rows, want %d", len(forces.Results), n)
	}
	for _, r := range forces.Results {
		if !near(r.Mx, -M/b, 1e-6) || !(math.Abs(r.Fx) <= 1e-6*M/h) {
			t.Errorf("plate %d: mx %.6f kip·in/in, fx %.3g kip/in; want mx = %.6f and no membrane force", r.Plate, r.Mx, r.Fx, -M/b)
		}
	}
}
