//go:build ccx

package ccx

import (
	"context"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/static"
)

// TestSensitivity shows that the 1 % comparison is not vacuous: CalculiX
// is given a deliberately different model and must then miss the
// engine's answer for the original one by more than the tolerance. Each
// mutation removes one feature the cross-check claims to cover.
func TestSensitivity(t *testing.T) {
	ccx := findCCX(t)
	noShear := func(m *domain.Model) {
		for i := range m.Sections {
			m.Sections[i].Ay, m.Sections[i].Az = 0, 0
		}
	}
	for _, tc := range []struct {
		name   string
		build  func() *domain.Model
		mutate func(m *domain.Model)
	}{
		{"grid-4 without shear deformation", func() *domain.Model { return gridModel(4) }, noShear},
		{"frame without shear deformation", frameModel, noShear},
		{"frame without the release", frameModel, func(m *domain.Model) { m.Members[4].ReleaseB = "" }},
		{"frame without the offsets", frameModel, func(m *domain.Model) {
			m.Members[3].OffsetA, m.Members[3].OffsetB = [3]float64{}, [3]float64{}
		}},
		{"frame with a uniform instead of a trapezoidal load", frameModel, func(m *domain.Model) {
			m.LoadCases[0].Members[0].P1, m.LoadCases[0].Members[0].P2 = 11e3, 11e3
		}},
	} {
		ref, m := tc.build(), tc.build()
		tc.mutate(m)
		res, err := static.Analyze(context.Background(), ref, static.Options{})
		if err != nil {
			t.Fatalf("%s: engine: %v", tc.name, err)
		}
		d, err := Write(m, 1, Options{})
		if err != nil {
			t.Fatalf("%s: write: %v", tc.name, err)
		}
		got, err := Run(context.Background(), ccx, t.TempDir(), d)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var scale, worst [2]float64
		for _, n := range res.Cases[0].Nodes {
			for i, v := range n.Disp {
				scale[i/3] = math.Max(scale[i/3], math.Abs(v))
			}
		}
		for _, n := range res.Cases[0].Nodes {
			for i, v := range n.Disp {
				worst[i/3] = math.Max(worst[i/3], math.Abs(got[n.Node][i]-v)/scale[i/3])
			}
		}
		t.Logf("%s: translations %.3g %%, rotations %.3g %%", tc.name, 100*worst[0], 100*worst[1])
		if math.Max(worst[0], worst[1]) <= tolerance {
			t.Errorf("%s: within %g %% of the original model, so the cross-check cannot see this feature", tc.name, 100*tolerance)
		}
	}
}
