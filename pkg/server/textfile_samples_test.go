package server

import (
	"math"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/samples"
)

// TestTextFileSamplesAnalyseAlike exports every bundled sample as a text
// file, imports it and runs the linear static analysis on both jobs: the
// displacements and reactions agree to 1e-12 of the largest of their kind
// in each load case. The file writes each number to 15 significant
// digits, so the two models differ by at most a relative 5e-16 in any
// input (plus a few ulps of unit conversion); a linear, well-conditioned
// frame answers such a change with a change of the same relative order,
// and the solver's own round-off is of order 1e-13 of the largest
// result on these models. 1e-12 leaves room for both while any real
// difference of the model (a lost load, a wrong unit) shows at 1e-3 or
// more.
func TestTextFileSamplesAnalyseAlike(t *testing.T) {
	s := startStack(t, 1)
	for _, name := range samples.Names() {
		t.Run(name, func(t *testing.T) {
			s.must(200, "POST", "/job/open-sample", map[string]any{"fileName": name})
			text := string(s.must(200, "GET", "/job/export/txt", nil).body)
			// The templates hold units and headings but no load case.
			loaded := strings.Contains(text, "\nTITLES\n")
			var disp, react map[[2]int64][6]float64
			if loaded {
				disp, react = analyse(t, s)
			}
			s.must(200, "POST", "/job/close", nil)
			r := s.uploadText(text)
			defer s.must(200, "POST", "/job/close", nil)
			if r.status != 200 {
				t.Fatalf("import: %d %s", r.status, r.body)
			}
			if !loaded {
				return
			}
			disp2, react2 := analyse(t, s)
			compare(t, "displacement", disp, disp2)
			compare(t, "reaction", react, react2)
		})
	}
}

// analyse runs the linear static analysis and returns every node's
// displacements and reactions by load case and node.
func analyse(t *testing.T, s *stack) (map[[2]int64][6]float64, map[[2]int64][6]float64) {
	t.Helper()
	if done := s.wait(s.run(nil).RunID); done.Status != model.RunCompleted {
		t.Fatalf("run %+v", done)
	}
	disp := map[[2]int64][6]float64{}
	for _, r := range query[model.NodeDisplacementRow](s, "node-displacements").Results {
		disp[[2]int64{r.LoadCase, r.Node}] = [6]float64{r.Tx, r.Ty, r.Tz, r.Rx, r.Ry, r.Rz}
	}
	react := map[[2]int64][6]float64{}
	for _, r := range query[model.NodeReactionRow](s, "node-reactions").Results {
		react[[2]int64{r.LoadCase, r.Node}] = [6]float64{r.Fx, r.Fy, r.Fz, r.Mx, r.My, r.Mz}
	}
	if len(disp) == 0 || len(react) == 0 {
		t.Fatalf("no results: %d displacements, %d reactions", len(disp), len(react))
	}
	return disp, react
}

// compare holds got to want within 1e-12 of the largest value of each
// component in the load case (translations and rotations apart).
func compare(t *testing.T, what string, want, got map[[2]int64][6]float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s rows: %d, want %d", what, len(got), len(want))
	}
	scale := map[int64][2]float64{}
	for k, v := range want {
		sc := scale[k[0]]
		for i, x := range v {
			sc[i/3] = math.Max(sc[i/3], math.Abs(x))
		}
		scale[k[0]] = sc
	}
	worst := 0.0
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			t.Fatalf("%s of case %d node %d missing", what, k[0], k[1])
		}
		for i := range w {
			sc := scale[k[0]][i/3]
			if sc == 0 {
				continue
			}
			d := math.Abs(g[i]-w[i]) / sc
			worst = math.Max(worst, d)
			if d > 1e-12 {
				t.Errorf("%s case %d node %d component %d: %.17g, want %.17g", what, k[0], k[1], i, g[i], w[i])
			}
		}
	}
	t.Logf("%s: largest difference %.2g of the case's largest value", what, worst)
}
