package vehicles

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func relClose(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// axleXs returns the distinct x positions of a vehicle's loads, leading
// first, and checks on the way that each axle is exactly two equal wheel
// loads symmetric about the centreline with the given gauge.
func axleXs(t *testing.T, v Vehicle, gauge float64) []float64 {
	t.Helper()
	if len(v.Loads)%2 != 0 {
		t.Fatalf("%s: %d loads, want two per axle", v.Name, len(v.Loads))
	}
	var xs []float64
	for i := 0; i < len(v.Loads); i += 2 {
		l, r := v.Loads[i], v.Loads[i+1]
		if l.X != r.X || l.Fz != r.Fz || l.Y != gauge/2 || r.Y != -gauge/2 {
			t.Fatalf("%s axle %d: wheels %+v and %+v are not a symmetric pair at gauge %g", v.Name, i/2, l, r, gauge)
		}
		if l.Fz >= 0 || l.Fx != 0 || l.Fy != 0 || l.Mx != 0 || l.My != 0 || l.Mz != 0 {
			t.Fatalf("%s axle %d: want a pure downward load, got %+v", v.Name, i/2, l)
		}
		xs = append(xs, l.X)
	}
	return xs
}

func gaps(xs []float64) []float64 {
	out := make([]float64, len(xs)-1)
	for i := range out {
		out[i] = xs[i] - xs[i+1]
	}
	return out
}

func closeSlices(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

func TestAS5100(t *testing.T) {
	// Expected values: AS 5100.2:2017 Cl. 7.2.4 (M1600: 120 kN axles in
	// tri-axle groups of 360 kN at 1.25 m, group gaps 3.75 m, 6.25 m min
	// and 5.0 m, 6 kN/m lane load) and Cl. 7.2.5 (S1600: 80 kN axles,
	// 24 kN/m lane load); wheel groups 2.0 m apart, lane load over 3.2 m.
	m1600Gaps := []float64{1.25, 1.25, 3.75, 1.25, 1.25, 6.25, 1.25, 1.25, 5.0, 1.25, 1.25}
	tests := []struct {
		name     string
		total    float64 // N, sum of the axle loads
		gaps     []float64
		udl      float64 // N/m, 0 for none
		udlWidth float64
	}{
		{NameM1600TriAxle, 360e3, []float64{1.25, 1.25}, 0, 0},
		{NameM1600, 4 * 360e3, m1600Gaps, 6e3, 3.2},
		{NameS1600, 4 * 240e3, m1600Gaps, 24e3, 3.2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Lookup("AS5100", tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if v.Library != LibraryAS5100 || v.Source == "" || v.Description == "" {
				t.Errorf("metadata: %+v", v)
			}
			if !relClose(-v.TotalFz(), tc.total, 1e-12) {
				t.Errorf("total axle load %g N, want %g N", -v.TotalFz(), tc.total)
			}
			xs := axleXs(t, v, 2.0)
			if xs[0] != 0 {
				t.Errorf("leading axle at x = %g, want 0", xs[0])
			}
			if g := gaps(xs); !closeSlices(g, tc.gaps, 1e-12) {
				t.Errorf("axle gaps %v, want %v", g, tc.gaps)
			}
			if tc.udl == 0 {
				if v.LaneLoad != nil {
					t.Errorf("unexpected lane load %+v", *v.LaneLoad)
				}
				return
			}
			if v.LaneLoad == nil || v.LaneLoad.Fz != -tc.udl || v.LaneLoad.Width != tc.udlWidth {
				t.Errorf("lane load %+v, want Fz = %g N/m over %g m", v.LaneLoad, -tc.udl, tc.udlWidth)
			}
		})
	}
}

func TestAS5100GroupsAre360kN(t *testing.T) {
	// AS 5100.2:2017 Cl. 7.2.4: each M1600 tri-axle group is 360 kN.
	v, err := M1600(AS5100MinVariableSpacing)
	if err != nil {
		t.Fatal(err)
	}
	for g := 0; g < 4; g++ {
		var sum float64
		for _, l := range v.Loads[6*g : 6*g+6] {
			sum += -l.Fz
		}
		if !relClose(sum, 360e3, 1e-12) {
			t.Errorf("group %d: %g N, want 360 kN", g+1, sum)
		}
	}
}

func TestM1600VariableSpacing(t *testing.T) {
	for _, s := range []float64{6.25, 10, 20} {
		for _, build := range []func(float64) (Vehicle, error){M1600, S1600} {
			v, err := build(s)
			if err != nil {
				t.Fatalf("spacing %g: %v", s, err)
			}
			g := gaps(axleXs(t, v, AS5100Gauge))
			if g[5] != s {
				t.Errorf("%s: variable gap %g, want %g", v.Name, g[5], s)
			}
			// 8 gaps of 1.25 m, 3.75 m and 5.0 m (fixed) plus the variable one.
			if want := 8*1.25 + 3.75 + 5.0 + s; math.Abs(v.Length()-want) > 1e-12 {
				t.Errorf("%s: length %g, want %g", v.Name, v.Length(), want)
			}
		}
	}
	for _, s := range []float64{6.2, 0, -1, math.NaN(), math.Inf(-1)} {
		if _, err := M1600(s); !errors.Is(err, ErrInvalidParameter) {
			t.Errorf("M1600(%g): err %v, want ErrInvalidParameter", s, err)
		}
		if _, err := S1600(s); !errors.Is(err, ErrInvalidParameter) {
			t.Errorf("S1600(%g): err %v, want ErrInvalidParameter", s, err)
		}
	}
}

func TestAASHTO(t *testing.T) {
	// Exact factors: NIST SP 811 Appendix B (1 lbf = 0.45359237 kg ×
	// 9.80665 m/s², 1 ft = 0.3048 m), written out independently of the
	// package constants.
	const kip, ft = 0.45359237 * 9.80665 * 1000, 0.3048
	if !relClose(4448.2216152605, kip, 1e-15) {
		t.Fatalf("the published kip %v differs from lbf×1000 = %v", 4448.2216152605, kip)
	}
	// Expected values: AASHTO LRFD Art. 3.6.1.2.2 and Fig. 3.6.1.2.2-1
	// (truck: 8, 32, 32 kip at 14 ft and 14-30 ft, wheels 6 ft apart),
	// Art. 3.6.1.2.3 (tandem: two 25 kip axles 4 ft apart, wheels 6 ft
	// apart), Art. 3.6.1.2.4 (lane: 0.64 kip/ft over 10 ft).
	tests := []struct {
		name    string
		totalN  float64
		approxN float64 // the SI total rounded to 1 N, for a reader checking by hand
		gaps    []float64
		lane    *LaneLoad
	}{
		{NameHL93Truck, 72 * kip, 320272, []float64{14 * ft, 14 * ft}, nil},
		{NameHL93Tandem, 50 * kip, 222411, []float64{4 * ft}, nil},
		{NameHL93Lane, 0, 0, nil, &LaneLoad{Fz: -0.64 * kip / ft, Width: 10 * ft}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Lookup("aashto", tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if v.Source == "" || !strings.Contains(v.Source, "3.6.1.2") {
				t.Errorf("source %q does not cite Art. 3.6.1.2", v.Source)
			}
			if tc.lane != nil {
				if len(v.Loads) != 0 || v.LaneLoad == nil ||
					!relClose(v.LaneLoad.Fz, tc.lane.Fz, 1e-12) || !relClose(v.LaneLoad.Width, tc.lane.Width, 1e-12) {
					t.Fatalf("lane load: %+v, %+v; want %+v", v.Loads, v.LaneLoad, *tc.lane)
				}
				// 0.64 kip/ft ≈ 9.34 kN/m and 10 ft = 3.048 m, as in the SI
				// edition's 9.3 N/mm over 3000 mm (rounded there).
				if !relClose(-v.LaneLoad.Fz, 9.3401e3, 1e-4) {
					t.Errorf("lane load %g N/m, want about 9.34 kN/m", -v.LaneLoad.Fz)
				}
				return
			}
			if v.LaneLoad != nil {
				t.Errorf("unexpected lane load %+v", *v.LaneLoad)
			}
			if !relClose(-v.TotalFz(), tc.totalN, 1e-12) {
				t.Errorf("total %.10g N, want %.10g N", -v.TotalFz(), tc.totalN)
			}
			if math.Abs(-v.TotalFz()-tc.approxN) > 0.5 {
				t.Errorf("total %g N, want about %g N", -v.TotalFz(), tc.approxN)
			}
			if g := gaps(axleXs(t, v, 6*ft)); !closeSlices(g, tc.gaps, 1e-12) {
				t.Errorf("gaps %v, want %v", g, tc.gaps)
			}
		})
	}
}

func TestHL93TruckAxles(t *testing.T) {
	// AASHTO LRFD Fig. 3.6.1.2.2-1: the 8 kip axle leads, then two 32 kip.
	const kip, ft = 4448.2216152605, 0.3048
	v, err := HL93Truck(30 * ft)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{8 * kip, 32 * kip, 32 * kip}
	for i := range want {
		got := -(v.Loads[2*i].Fz + v.Loads[2*i+1].Fz)
		if !relClose(got, want[i], 1e-12) {
			t.Errorf("axle %d: %g N, want %g N", i+1, got, want[i])
		}
	}
	if !relClose(v.Length(), 44*ft, 1e-12) {
		t.Errorf("length %g m, want 44 ft", v.Length())
	}
	for _, s := range []float64{13.9 * ft, 30.1 * ft, math.NaN(), math.Inf(1)} {
		if _, err := HL93Truck(s); !errors.Is(err, ErrInvalidParameter) {
			t.Errorf("HL93Truck(%g): err %v, want ErrInvalidParameter", s, err)
		}
	}
	if _, err := HL93Truck(14 * ft); err != nil {
		t.Errorf("the 14 ft minimum itself is rejected: %v", err)
	}
}

func TestLookupErrors(t *testing.T) {
	_, err := Lookup("AS5100", "M1700")
	var nf *NotFoundError
	if !errors.As(err, &nf) || !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want *NotFoundError", err)
	}
	msg := err.Error()
	for _, s := range []string{`"M1700"`, `"AS5100"`, "known:", NameM1600, NameS1600} {
		if !strings.Contains(msg, s) {
			t.Errorf("message %q lacks %q", msg, s)
		}
	}
	_, err = Lookup("Eurocode", "LM1")
	if !errors.Is(err, ErrUnknownLibrary) || !strings.Contains(err.Error(), "AASHTO") {
		t.Errorf("err = %v, want an unknown-library error listing AASHTO", err)
	}
}

func TestNamesAndLibraries(t *testing.T) {
	if got := Libraries(); !slices.Equal(got, []string{"AS5100", "AASHTO"}) {
		t.Errorf("Libraries() = %v", got)
	}
	if Names("nope") != nil {
		t.Error("Names of an unknown library should be nil")
	}
	for _, lib := range Libraries() {
		names := Names(lib)
		if len(names) == 0 {
			t.Errorf("%s: no vehicles", lib)
		}
		for _, n := range names {
			v, err := Lookup(lib, " "+strings.ToLower(n)+" ")
			if err != nil {
				t.Errorf("%s/%s: %v", lib, n, err)
				continue
			}
			if v.Name != n || v.Library != lib || v.Source == "" {
				t.Errorf("%s/%s: got name %q library %q source %q", lib, n, v.Name, v.Library, v.Source)
			}
		}
	}
}

func TestLookupReturnsFreshCopies(t *testing.T) {
	a, _ := Lookup("AS5100", NameM1600)
	a.Loads[0].Fz = 0
	a.LaneLoad.Fz = 0
	b, _ := Lookup("AS5100", NameM1600)
	if b.Loads[0].Fz == 0 || b.LaneLoad.Fz == 0 {
		t.Error("editing a looked-up vehicle changed the library")
	}
}
