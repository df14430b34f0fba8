package movingload

import (
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/model"
)

// oneMember is a 10 m member along X (Y up) with a path over it.
func oneMember() *Input {
	return &Input{
		Members:  []Member{{ID: 1, A: geom.Vec3{0, 0, 0}, B: geom.Vec3{10, 0, 0}}},
		Vehicles: map[int64]model.Vehicle{1: {ID: 1, Loads: []model.VehicleLoad{{Fz: -10}}}, 2: {ID: 2, Loads: []model.VehicleLoad{{Fz: -1}}}},
		Paths:    map[int64][]Station{1: {{At: geom.Vec3{0, 0, 0}}, {At: geom.Vec3{10, 0, 0}}}},
	}
}

// The stepping rules, counted by hand: a 10 kN axle waits 1 s at x = 0,
// then runs at 2 m/s, so it stands at 0, 0, 2, 4, 6, 8, 10 m at t = 0…6 s
// and has left at t = 7 s; a 1 kN axle parked at x = 5 m is in the first
// case only (StartingLoadCase) or in every case (AllLoadCases).
func TestSteppingDelayAndStationaryLoads(t *testing.T) {
	want := []float64{0, 0, 2, 4, 6, 8, 10}
	for _, tc := range []struct {
		mode      string
		parkedIn  int // cases that hold the parked axle
		wantSteps int
	}{
		{model.StationaryStarting, 1, 7},
		{model.StationaryAll, 7, 7},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			g, err := New(oneMember())
			if err != nil {
				t.Fatal(err)
			}
			moving := model.ScenarioLoad{LoadType: model.MovingLoadVehicle, VehicleID: 1, TravelPathID: 1, Speed: 2, Delay: 1,
				LoadFactor: 1, LaneFactor: 1, DynamicFactor: 1, GenerateStationaryLc: model.StationaryStarting}
			parked := model.ScenarioLoad{LoadType: model.MovingLoadVehicle, VehicleID: 2, TravelPathID: 1, StartPosition: 5,
				LoadFactor: 2, LaneFactor: 0.5, DynamicFactor: 1.5, GenerateStationaryLc: tc.mode}
			steps, err := g.Scenario(model.Scenario{ID: 1, Name: "s", TimeInterval: 1, Loads: []model.ScenarioLoad{moving, parked}})
			if err != nil {
				t.Fatal(err)
			}
			if len(steps) != tc.wantSteps {
				t.Fatalf("%d steps, want %d", len(steps), tc.wantSteps)
			}
			parkedIn := 0
			for k, st := range steps {
				if st.Index != k || st.Time != float64(k) {
					t.Errorf("step %d: index %d, time %g", k, st.Index, st.Time)
				}
				var axle *MemberLoad
				for i := range st.Members {
					switch l := &st.Members[i]; {
					case math.Abs(l.F[1]+10) < 1e-12:
						axle = l
					case math.Abs(l.F[1]+1*2*0.5*1.5) < 1e-12 && math.Abs(l.Position-5) < 1e-12:
						parkedIn++ // 1 kN × loadFactor 2 × laneFactor 0.5 × dynamicFactor 1.5
					default:
						t.Errorf("step %d: unexpected load %+v", k, *l)
					}
				}
				if axle == nil || math.Abs(axle.Position-want[k]) > 1e-12 {
					t.Errorf("step %d: axle %+v, want at %g m", k, axle, want[k])
				}
			}
			if parkedIn != tc.parkedIn {
				t.Errorf("the parked axle is in %d cases, want %d", parkedIn, tc.parkedIn)
			}
		})
	}
}

// Stationary loads alone make one case; a scenario stepping past
// MaxSteps is refused before any step is made.
func TestSteppingLimits(t *testing.T) {
	g, err := New(oneMember())
	if err != nil {
		t.Fatal(err)
	}
	parked := model.ScenarioLoad{LoadType: model.MovingLoadVehicle, VehicleID: 2, TravelPathID: 1, StartPosition: 5,
		LoadFactor: 1, LaneFactor: 1, DynamicFactor: 1, GenerateStationaryLc: model.StationaryAll}
	steps, err := g.Scenario(model.Scenario{ID: 1, TimeInterval: 1, Loads: []model.ScenarioLoad{parked}})
	if err != nil || len(steps) != 1 {
		t.Fatalf("stationary only: %d steps, %v; want 1", len(steps), err)
	}
	slow := parked
	slow.Speed, slow.StartPosition = 1e-3, 0
	_, err = g.Scenario(model.Scenario{ID: 2, Name: "slow", TimeInterval: 1, Loads: []model.ScenarioLoad{slow}})
	if ie, ok := err.(*InputError); !ok || ie.Field != "scenario 2 timeInterval" {
		t.Errorf("10,000 s at 1 s steps: %v, want an InputError on timeInterval", err)
	}
}
