package adapter_test

import (
	"context"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/dynamic"
	"github.com/gusset/gusset/pkg/fem/modal"
	"github.com/gusset/gusset/pkg/fem/static"
)

// The multi-storey sample's dead load case G as mass: every part of it
// points down (self-weight and the floor loads), so the mass the
// frequency analysis takes is the case's whole load over g, in each of
// the three directions. The load is summed from the stored records alone
// (appliedLoads), so this checks the conversion and the mass assembly
// against statics; 1e-9 is round-off. The lowest modes are then checked
// against what the frame is: a five-storey steel moment frame of 16.8 m,
// whose fundamental period the approximate formula T = 0.0724·h^0.8
// (ASCE 7-16 Eq. 12.8-7, steel moment frames, h in m: 0.69 s) puts at
// about 0.7 s; a bare-frame model without the slab's stiffness is
// expected longer, so the band is generous (0.4 to 2.5 s). Its modes come
// with no warnings, so the Sturm count agreed.
func TestMultiStoreyFrequencies(t *testing.T) {
	sr := runSample(t, "Multi-storey frame", static.Options{})
	loads := appliedLoads(t, sr.snap, readSampleModel(t, sr.snap))
	res, err := dynamic.Analyze(context.Background(), sr.in.Model, dynamic.Options{Settings: modal.Settings{Cases: []int64{1}, Modes: 6}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) > 0 {
		t.Errorf("warnings %q", res.Warnings)
	}
	c := res.Cases[0]
	weight := -loads[1][1] // N, downward
	for k := range 3 {
		if got := c.TotalMass[k] * 9.80665; !(math.Abs(got-weight) <= 1e-9*weight) {
			t.Errorf("total mass along axis %d × g = %g N, want the case's load %g N", k, got, weight)
		}
	}
	if len(c.Modes) != 6 {
		t.Fatalf("%d modes", len(c.Modes))
	}
	if t1 := c.Modes[0].Period; !(t1 > 0.4 && t1 < 2.5) {
		t.Errorf("fundamental period %g s, outside 0.4 to 2.5 s", t1)
	}
	sum := [3]float64{}
	for i, m := range c.Modes {
		if i > 0 && !(m.Frequency >= c.Modes[i-1].Frequency) {
			t.Errorf("mode %d: %g Hz below mode %d's %g Hz", i+1, m.Frequency, i, c.Modes[i-1].Frequency)
		}
		for k := range 3 {
			sum[k] += m.Participation[k]
		}
	}
	// The first modes of a regular frame are its two sways and its
	// twist: the six lowest move most of the mass along X and Z, and
	// never more than all of it.
	for _, k := range []int{0, 2} {
		if !(sum[k] > 0.6 && sum[k] <= 1+1e-9) {
			t.Errorf("participation along axis %d over six modes: %g", k, sum[k])
		}
	}
}
