package nonlinear_test

import (
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
)

// TestPlateLoadsWithFollowers: plate pressures keep their directions
// when member loads follow their members. The stiffened plate of
// stiffenedPlate gains a member load in local axes so small (1 mN/m on
// one edge beam) that whether it follows cannot move the answer by more
// than its own size; so with and without FollowLocalLoads the tip
// deflection (about 155 mm) agrees to 1e-9 m, and in both the applied load
// is the pressures and node loads, 2 m² × 1 kPa·s + 8 N along −Z. A
// reference load rebuilt each iteration without the plates' share would
// drop the pressure.
func TestPlateLoadsWithFollowers(t *testing.T) {
	const s = 1000.0 // the pressure 1 kPa, the node forces 5 kN and 3 kN
	tip := map[bool]float64{}
	for _, follow := range []bool{false, true} {
		m := stiffenedPlate(s, 0, geom.Identity, geom.Vec3{})
		m.LoadCases[0].Members = []domain.MemberLoad{{Member: 1, Type: domain.DistributedForce, Axes: domain.Local,
			Direction: geom.ZAxis, P1: -1e-3, P2: -1e-3}}
		res := analyze(t, m, nonlinear.Options{Theory: nonlinear.Finite, Steps: 2, Tolerance: 1e-10, FollowLocalLoads: follow})
		fz := 0.0
		for n := range res.Nodes {
			fz += res.Applied[6*n+2]
		}
		// Pressure over 2 m × 1 m, the node forces 5 + 3, the beam's 0.5 m × 1 mN/m.
		if want := -(2*s + 8*s + 0.5e-3); !(math.Abs(fz-want) <= 1e-6) {
			t.Errorf("follow %v: applied Fz %.6f N, want %.6f", follow, fz, want)
		}
		tip[follow] = res.Nodes[nodeIndex(t, res, 25)].Translation[2]
	}
	if !(math.Abs(tip[true]-tip[false]) <= 1e-9) || !(math.Abs(tip[false]) > 1e-3) {
		t.Errorf("tip deflection %.9g m with followers, %.9g m without", tip[true], tip[false])
	}
}
