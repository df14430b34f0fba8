package library

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// published is one row of a published section-property table, in the
// tables' units: A in mm², Ix and Iy in 10⁶ mm⁴, J in 10³ mm⁴ (hot-rolled)
// or 10⁶ mm⁴ (hollow; see jUnit).
type published struct {
	name         string
	a, ix, iy, j float64
	jUnit        float64 // mm⁴ per unit of j
}

// aust300Published holds the published properties the computed Aust300
// sections must reproduce. Sources:
//
//   - UB: OneSteel Market Mills, "Hot Rolled and Structural Steel Products",
//     3rd ed. (Dec 2003), Table 15 Universal Beams - Dimensions and Properties
//     (Ag, Ix, Iy, J columns).
//   - UC: same publication, Table 17 Universal Columns - Dimensions and
//     Properties.
//   - RHS: OneSteel Australian Tube Mills, "Design Capacity Tables for
//     Structural Steel Hollow Sections" (Dec 2010), Rectangular Hollow
//     Sections DualGrade (AS 1163 C450L0) - Dimensions and Properties.
//
// Names are written as the tables print them (spaced), which also exercises
// the name parser.
var aust300Published = []published{
	{"610 UB 125", 16000, 986, 39.3, 1560, 1e3},
	{"610 UB 113", 14500, 875, 34.3, 1140, 1e3},
	{"610 UB 101", 13000, 761, 29.3, 790, 1e3},
	{"530 UB 92.4", 11800, 554, 23.8, 775, 1e3},
	{"530 UB 82.0", 10500, 477, 20.1, 526, 1e3},
	{"460 UB 82.1", 10500, 372, 18.6, 701, 1e3},
	{"460 UB 74.6", 9520, 335, 16.6, 530, 1e3},
	{"460 UB 67.1", 8580, 296, 14.5, 378, 1e3},
	{"410 UB 59.7", 7640, 216, 12.1, 337, 1e3},
	{"410 UB 53.7", 6890, 188, 10.3, 234, 1e3},
	{"360 UB 56.7", 7240, 161, 11.0, 338, 1e3},
	{"360 UB 50.7", 6470, 142, 9.60, 241, 1e3},
	{"360 UB 44.7", 5720, 121, 8.10, 161, 1e3},
	{"310 UB 46.2", 5930, 100, 9.01, 233, 1e3},
	{"310 UC 158", 20100, 388, 125, 3810, 1e3},
	{"310 UC 137", 17500, 329, 107, 2520, 1e3},
	{"310 UC 118", 15000, 277, 90.2, 1630, 1e3},
	{"310 UC 96.8", 12400, 223, 72.9, 928, 1e3},
	{"250 UC 89.5", 11400, 143, 48.4, 1040, 1e3},
	{"250 UC 72.9", 9320, 114, 38.8, 586, 1e3},
	{"200 UC 59.5", 7620, 61.3, 20.4, 477, 1e3},
	{"200 UC 52.2", 6660, 52.8, 17.7, 325, 1e3},
	{"200 UC 46.2", 5900, 45.9, 15.3, 228, 1e3},
	{"150 UC 37.2", 4730, 22.2, 7.01, 197, 1e3},
	{"150 UC 30.0", 3860, 17.6, 5.62, 109, 1e3},
	{"150 UC 23.4", 2980, 12.6, 3.98, 50.2, 1e3},
	{"100 UC 14.8", 1890, 3.18, 1.14, 34.9, 1e3},
	{"400 x 300 x 16.0 RHS", 20500, 453, 290, 586, 1e6},
	{"400 x 300 x 12.5 RHS", 16300, 370, 238, 471, 1e6},
	{"400 x 300 x 10.0 RHS", 13300, 306, 197, 384, 1e6},
	{"400 x 300 x 8.0 RHS", 10700, 251, 162, 312, 1e6},
	{"400 x 200 x 16.0 RHS", 17300, 335, 113, 290, 1e6},
	{"400 x 200 x 12.5 RHS", 13800, 277, 94.0, 236, 1e6},
	{"400 x 200 x 10.0 RHS", 11300, 230, 78.6, 194, 1e6},
	{"400 x 200 x 8.0 RHS", 9120, 190, 65.2, 158, 1e6},
	{"350 x 250 x 16.0 RHS", 17300, 283, 168, 355, 1e6},
	{"350 x 250 x 12.5 RHS", 13800, 233, 139, 287, 1e6},
	{"350 x 250 x 10.0 RHS", 11300, 194, 116, 235, 1e6},
	{"350 x 250 x 8.0 RHS", 9120, 160, 95.7, 191, 1e6},
	{"350 x 250 x 6.0 RHS", 6930, 124, 74.1, 146, 1e6},
}

// TestAust300AgainstPublished requires computed A, Iz (= Ix), Iy and J within
// 1 % of the published tables. Why 1 % and not closer: the tables print
// three significant figures (±0.5 in the last digit, up to 0.25 %), and the
// printed dimensions used here as input are themselves rounded (depths to
// the mm), which moves Ix by a few tenths of a percent.
// The worst errors are logged; at the time of writing they were 0.38 % (A),
// 0.54 % (Ix), 0.43 % (Iy) and 0.43 % (J).
func TestAust300AgainstPublished(t *testing.T) {
	const tol = 0.01
	var worst [4]float64
	var worstName [4]string
	for _, p := range aust300Published {
		t.Run(p.name, func(t *testing.T) {
			s := mustSection(t, LibAust300, p.name)
			got := [4]float64{s.A, s.Iz, s.Iy, s.J}
			want := [4]float64{p.a * 1e-6, p.ix * 1e-6, p.iy * 1e-6, p.j * p.jUnit * 1e-12}
			for i, what := range []string{"A", "Iz (Ix)", "Iy", "J"} {
				checkRel(t, what, got[i], want[i], tol)
				if e := relErr(got[i], want[i]); e > worst[i] {
					worst[i], worstName[i] = e, p.name
				}
			}
		})
	}
	t.Logf("%d shapes; worst errors: A %.2f%% (%s), Ix %.2f%% (%s), Iy %.2f%% (%s), J %.2f%% (%s)",
		len(aust300Published), 100*worst[0], worstName[0], 100*worst[1], worstName[1],
		100*worst[2], worstName[2], 100*worst[3], worstName[3])
}

// TestAust300Mass guards the data file against typing errors in the rows not
// covered by TestAust300AgainstPublished: area × 7850 kg/m³ must match the
// nominal mass per metre, which is part of UB/UC designations and in the mass
// column for PFCs (same catalogues). 1.5 % because designation masses are
// nominal (AS/NZS 3679.1 rounds them) and d is rounded to the mm; the
// largest difference is about 1.2 % (310UB40.4).
func TestAust300Mass(t *testing.T) {
	rows, err := readAust300()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		mass := r.massK
		if r.family == "UB" || r.family == "UC" {
			_, m, _ := strings.Cut(r.name, r.family)
			if mass, err = strconv.ParseFloat(m, 64); err != nil {
				t.Fatalf("%s: %v", r.name, err)
			}
		}
		if mass == 0 {
			continue
		}
		t.Run(r.name, func(t *testing.T) {
			checkRel(t, "A·ρ", mustSection(t, LibAust300, r.name).A*7850, mass, 0.015)
		})
	}
}

// TestAust300AllLoad checks every entry for sane, positive properties and the
// symmetric or one-sided fibre layout its family implies.
func TestAust300AllLoad(t *testing.T) {
	names, err := SectionNames(LibAust300)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 200 {
		t.Fatalf("%d Aust300 sections, want the full table (> 200)", len(names))
	}
	for _, n := range names {
		s := mustSection(t, LibAust300, n)
		if s.Name != n || s.A <= 0 || s.J <= 0 || s.Iy <= 0 || s.Iz <= 0 || s.Ay <= 0 || s.Az <= 0 {
			t.Errorf("%s: implausible section %+v", n, s)
		}
		f := s.Shape.ExtremeFibres()
		if f.YPos != f.YNeg {
			t.Errorf("%s: YPos %g ≠ YNeg %g for a section symmetric about z", n, f.YPos, f.YNeg)
		}
		if s.Shape.Family != FamilyChannel && f.ZPos != f.ZNeg {
			t.Errorf("%s: ZPos %g ≠ ZNeg %g for a section symmetric about y", n, f.ZPos, f.ZNeg)
		}
	}
}

// TestAust300Channel checks the PFC geometry that has no published check:
// 380PFC computed by hand from d = 380, bf = 100, tf = 17.5, tw = 10,
// r1 = 14 mm: A = 2·100·17.5 + 345·10 + 2·(1−π/4)·14² = 7034.1 mm², and the
// centroid lies (2·17.5·100²/2 + 345·10²/2 + 2·42.06·(10 + 3.127)) / 7034.1
// = 27.49 mm behind the web's back face. The hand numbers carry four
// significant figures, hence 0.1 %.
func TestAust300Channel(t *testing.T) {
	s := mustSection(t, LibAust300, "380 PFC")
	checkRel(t, "A", s.A, 7034.1e-6, 0.001)
	f := s.Shape.ExtremeFibres()
	checkRel(t, "ZNeg (back of web)", f.ZNeg, 27.49e-3, 0.001)
	checkRel(t, "ZPos (toes)", f.ZPos, (100-27.49)*1e-3, 0.001)
}

// TestAust300CHS checks a tube against a hand calculation: 168.3 × 7.1 has
// an inside diameter of 154.1 mm, so A = π/4·(168.3² − 154.1²) = 3595.6 mm²
// and I = π/64·(168.3⁴ − 154.1⁴) = 11.70×10⁶ mm⁴, J = 2I. Tolerance 0.05 %
// for the hand rounding.
func TestAust300CHS(t *testing.T) {
	s := mustSection(t, LibAust300, "168.3x7.1 CHS")
	checkRel(t, "A", s.A, 3595.6e-6, 0.0005)
	checkRel(t, "Iz", s.Iz, 11.70e-6, 0.0005)
	checkRel(t, "Iy", s.Iy, s.Iz, 1e-15)
	checkRel(t, "J", s.J, 2*s.Iz, 1e-15)
}

func TestAust300Spellings(t *testing.T) {
	tests := []struct{ in, want string }{
		{"360UB44.7", "360UB44.7"},
		{"360 UB 44.7", "360UB44.7"},
		{"360ub44.7", "360UB44.7"},
		{"530UB82", "530UB82.0"},
		{"150 UC 37.2", "150UC37.2"},
		{"380PFC", "380PFC"},
		{"PFC 380", "380PFC"},
		{"100x100x6.0 SHS", "100x100x6.0SHS"},
		{"SHS 100x100x6", "100x100x6.0SHS"},
		{"100 × 100 × 6 shs", "100x100x6.0SHS"},
		{"150x50x3.0 RHS", "150x50x3.0RHS"},
		{"RHS150X50X3", "150x50x3.0RHS"},
		{"168.3x7.1 CHS", "168.3x7.1CHS"},
		{"CHS 508x12.7", "508.0x12.7CHS"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if s := mustSection(t, "AUST300", tc.in); s.Name != tc.want {
				t.Errorf("canonical name %q, want %q", s.Name, tc.want)
			}
		})
	}
}

func TestAust300Misses(t *testing.T) {
	for _, name := range []string{"360 UB 45", "100x100x7.0SHS", "SHS 100x100x6 SHS", "100x100x6.0", "CHS 168.3x7.1x2", ""} {
		t.Run(name, func(t *testing.T) {
			_, err := LookupSection(LibAust300, name)
			var nf *NotFoundError
			if !errors.As(err, &nf) || !errors.Is(err, ErrNotFound) {
				t.Fatalf("err = %v, want a *NotFoundError", err)
			}
			// The closest names may follow (suggest_test.go).
			if want := fmt.Sprintf("section %q not found in library \"Aust300\"", name); !strings.HasPrefix(err.Error(), want) {
				t.Errorf("message %q, want it to start %q", err.Error(), want)
			}
		})
	}
}
