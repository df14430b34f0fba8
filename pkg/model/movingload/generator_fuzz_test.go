package movingload

import (
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/model"
)

// FuzzGeneratorConservesLoad drives one vehicle along a path of up to
// three stations over members, plates or both, built from the fuzzer's
// numbers. Whatever the geometry, the generator must not panic, every
// generated number must be finite, and with no filter on, every wheel
// finds an element, so the vertical loads of each step must add up to the
// vehicle's weight: the lever rule's shares sum to 1, and so do the plate
// shape functions (statics; round-off tolerance 1e-9 relative).
func FuzzGeneratorConservesLoad(f *testing.F) {
	f.Add(0.0, 0.0, 10.0, 0.0, 10.0, 10.0, 3.0, 1.5, 2.0, 0.3, false, false)
	f.Add(-5.0, 1.0, 4.0, 2.0, 9.0, -3.0, 0.0, 0.5, 1.0, 0.7, true, false)
	f.Add(0.0, 0.0, 10.0, 0.0, 20.0, 0.0, 50.0, 3.0, 0.5, 1.3, false, true)
	f.Fuzz(func(t *testing.T, x1, z1, x2, z2, x3, z3, radius, gauge, speed, spacing float64, closest, plates bool) {
		// Paths stay well inside the elements (members and plates cover
		// ±40 m), so that no wheel falls off the structure.
		for _, v := range []float64{x1, z1, x2, z2, x3, z3, radius, gauge, speed, spacing} {
			if math.IsNaN(v) || math.Abs(v) > 15 {
				return
			}
		}
		if math.Abs(spacing) > 3 {
			return
		}
		speed, spacing, radius = math.Abs(speed)+0.5, math.Abs(spacing)+0.2, math.Abs(radius)
		in := &Input{
			Settings: model.MovingLoadSettings{ApplyToClosestMember: closest},
			Vehicles: map[int64]model.Vehicle{1: {ID: 1, Loads: []model.VehicleLoad{
				{X: 0, Y: gauge / 2, Fz: -30}, {X: 0, Y: -gauge / 2, Fz: -30}, {X: -1.2, Y: gauge / 2, Fz: -50}, {X: -1.2, Y: -gauge / 2, Fz: -50}}}},
			Paths: map[int64][]Station{1: {{At: geom.Vec3{x1, 0, z1}}, {At: geom.Vec3{x2, 0, z2}, Radius: radius}, {At: geom.Vec3{x3, 0, z3}}}},
		}
		// Three girders along X and cross-beams along Z, or a plate deck.
		if plates {
			in.Plates = deck(16, 16, -40, -40, 5, 0)
		} else {
			for i, z := range []float64{-spacing * 4, 0, spacing * 4} {
				in.Members = append(in.Members, Member{ID: int64(i + 1), A: geom.Vec3{-40, 0, z}, B: geom.Vec3{40, 0, z}})
			}
			for i := 0; i < 9; i++ {
				x := -40 + 10*float64(i)
				in.Members = append(in.Members, Member{ID: int64(10 + i), A: geom.Vec3{x, 0, -40}, B: geom.Vec3{x, 0, 40}})
			}
		}
		g, err := New(in)
		if err != nil {
			return // a path that cannot be built is refused, not generated
		}
		if p, err := g.path(1, "path"); err != nil || p.Length() > 200 {
			return
		}
		load := model.ScenarioLoad{LoadType: model.MovingLoadVehicle, VehicleID: 1, TravelPathID: 1, Speed: speed, LoadFactor: 1,
			LaneFactor: 1, DynamicFactor: 1, GenerateStationaryLc: model.StationaryStarting}
		steps, err := g.Scenario(model.Scenario{ID: 1, TimeInterval: 1, Loads: []model.ScenarioLoad{load}})
		if err != nil {
			return
		}
		area := map[int64]float64{}
		for _, p := range in.Plates {
			area[p.ID] = trueArea(p.Corners)
		}
		for _, st := range steps {
			total := 0.0
			check := func(v geom.Vec3) {
				for _, c := range v {
					if math.IsNaN(c) || math.IsInf(c, 0) {
						t.Fatalf("step %d: a load is not finite: %v", st.Index, v)
					}
				}
			}
			for _, l := range st.Members {
				check(l.F)
				total += l.F[1]
			}
			for _, n := range st.Nodes {
				check(n.F)
				total += n.F[1]
			}
			for _, p := range st.Plates {
				check(p.P)
				total += p.P[1] * area[p.Plate]
			}
			if want := -160.0; st.Dropped == 0 && math.Abs(total-want) > 1e-9*160 {
				t.Fatalf("step %d (t = %g s): vertical loads add up to %.12g, want %g", st.Index, st.Time, total, want)
			}
			if !plates && st.Dropped != 0 {
				t.Fatalf("step %d: %d loads dropped with members everywhere and no filter", st.Index, st.Dropped)
			}
		}
	})
}
