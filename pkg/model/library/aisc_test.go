package library

import (
	"encoding/csv"
	"errors"
	"os"
	"strconv"
	"testing"
)

// readCSVRows reads the embedded AISC file from disk, independently of the
// package's loader, keyed by column name.
func readCSVRows(t *testing.T) []map[string]string {
	t.Helper()
	f, err := os.Open("data/aisc15/Shapes-SI.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]string
	for _, rec := range recs[1:] {
		row := map[string]string{}
		for i, h := range recs[0] {
			row[h] = rec[i]
		}
		rows = append(rows, row)
	}
	return rows
}

func csvNum(t *testing.T, row map[string]string, col string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(row[col], 64)
	if err != nil {
		t.Fatalf("%s %s: %v", row["AISC_Manual_Label"], col, err)
	}
	return v
}

// TestAISC15EveryRow loads every shape of the database and compares A, Iz,
// Iy and J with the CSV, converted with the units of the AISC SI sheet (A in
// mm², Ix and Iy in 10⁶ mm⁴, J in 10³ mm⁴). The conversion is one
// multiplication, so the tolerance is a few ulps (1e-12), not a rounding one.
// Double angles have no tabulated J; theirs must be twice the component
// angle's.
func TestAISC15EveryRow(t *testing.T) {
	const tol = 1e-12
	rows := readCSVRows(t)
	if len(rows) != 2091 {
		t.Fatalf("CSV has %d shapes, want 2091 (AISC v15.0)", len(rows))
	}
	byType := map[string][]map[string]string{}
	var types []string
	for _, r := range rows {
		if byType[r["Type"]] == nil {
			types = append(types, r["Type"])
		}
		byType[r["Type"]] = append(byType[r["Type"]], r)
	}
	for _, typ := range types {
		t.Run(typ, func(t *testing.T) {
			for _, r := range byType[typ] {
				label := r["AISC_Manual_Label"]
				s := mustSection(t, LibAISC15, label)
				checkRel(t, label+" A", s.A, csvNum(t, r, "A")*1e-6, tol)
				checkRel(t, label+" Iz", s.Iz, csvNum(t, r, "Ix")*1e-6, tol)
				checkRel(t, label+" Iy", s.Iy, csvNum(t, r, "Iy")*1e-6, tol)
				if typ == "2L" {
					single, _, err := parseDoubleAngleLabel(label)
					if err != nil {
						t.Fatal(err)
					}
					checkRel(t, label+" J", s.J, 2*mustSection(t, LibAISC15, single).J, tol)
				} else {
					checkRel(t, label+" J", s.J, csvNum(t, r, "J")*1e-9, tol)
				}
				if s.Ay <= 0 || s.Az <= 0 {
					t.Errorf("%s: shear areas Ay=%g Az=%g, want > 0", label, s.Ay, s.Az)
				}
				f := s.Shape.ExtremeFibres()
				if f.YPos <= 0 || f.YNeg <= 0 || f.ZPos <= 0 || f.ZNeg <= 0 {
					t.Errorf("%s: fibre distances %+v, want all > 0", label, f)
				}
			}
		})
	}
}

// TestAISC15KnownShape checks the unit interpretation on W310X97, which is
// W12X65 in the US sheet of the same database: A = 19.1 in², Ix = 533 in⁴,
// Iy = 174 in⁴, J = 2.18 in⁴, d = 12.1 in, tw = 0.39 in. The SI sheet rounds
// to three significant figures, so the two agree to 0.5 %.
func TestAISC15KnownShape(t *testing.T) {
	const in = 0.0254 // m
	const tol = 0.005
	s := mustSection(t, LibAISC15, "W310X97")
	checkRel(t, "A", s.A, 19.1*in*in, tol)
	checkRel(t, "Iz", s.Iz, 533*in*in*in*in, tol)
	checkRel(t, "Iy", s.Iy, 174*in*in*in*in, tol)
	checkRel(t, "J", s.J, 2.18*in*in*in*in, tol)
	checkRel(t, "Ay = d·tw", s.Ay, 12.1*in*0.39*in, tol)
	if s.Shape.Family != FamilyI {
		t.Errorf("family = %q, want %q", s.Shape.Family, FamilyI)
	}
	f := s.Shape.ExtremeFibres()
	// d = 307 mm, bf = 305 mm in the SI sheet: symmetric fibres at d/2, bf/2.
	checkRel(t, "YPos", f.YPos, 0.1535, 1e-12)
	checkRel(t, "YNeg", f.YNeg, 0.1535, 1e-12)
	checkRel(t, "ZPos", f.ZPos, 0.1525, 1e-12)
	checkRel(t, "ZNeg", f.ZNeg, 0.1525, 1e-12)
}

// TestAISC15SinglySymmetricFibres checks that channels, tees and angles put
// their centroids where the database's x and y columns say (SI sheet values,
// mm), with the orientation documented on the Family constants.
func TestAISC15SinglySymmetricFibres(t *testing.T) {
	tests := []struct {
		label                  string
		yPos, yNeg, zPos, zNeg float64 // mm
	}{
		// C380X74: d = 381, bf = 94.5, x = 20.3 from the back of the web (-z).
		{"C380X74", 190.5, 190.5, 94.5 - 20.3, 20.3},
		// WT550X249.5: d = 559, bf = 404, y = 140 from the flange face (+y).
		{"WT550X249.5", 140, 559 - 140, 202, 202},
		// L203X152X25.4: long leg 203 vertical, y = 67.3, x = 41.9 from the heel.
		{"L203X152X25.4", 203 - 67.3, 67.3, 152 - 41.9, 41.9},
		// 2L203X152X25.4X19LLBB: two 152 legs and a 19 mm gap across z.
		{"2L203X152X25.4X19LLBB", 203 - 67.3, 67.3, 152 + 9.5, 152 + 9.5},
		// HSS203.2X101.6X9.5: Ht = 203, B = 102.
		{"HSS203.2X101.6X9.5", 101.5, 101.5, 51, 51},
		// Pipe100STD (looked up in upper case): OD = 114.3 mm.
		{"PIPE100STD", 57.15, 57.15, 57.15, 57.15},
	}
	for _, tc := range tests {
		t.Run(tc.label, func(t *testing.T) {
			f := mustSection(t, LibAISC15, tc.label).Shape.ExtremeFibres()
			const tol = 1e-9 // the CSV values are exact decimal mm
			checkRel(t, "YPos", f.YPos, tc.yPos*1e-3, tol)
			checkRel(t, "YNeg", f.YNeg, tc.yNeg*1e-3, tol)
			checkRel(t, "ZPos", f.ZPos, tc.zPos*1e-3, tol)
			checkRel(t, "ZNeg", f.ZNeg, tc.zNeg*1e-3, tol)
		})
	}
}

func TestAISC15NameSpelling(t *testing.T) {
	for _, name := range []string{"W310X97", "w310x97", " W 310 X 97 "} {
		if s := mustSection(t, "aisc15", name); s.Name != "W310X97" {
			t.Errorf("%q: canonical name %q, want W310X97", name, s.Name)
		}
	}
	_, err := LookupSection(LibAISC15, "W310X98")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("W310X98: err = %v, want ErrNotFound", err)
	}
	// The W310 rows nearest by edit distance, then by weight (SI sheet).
	if got, want := err.Error(), `section "W310X98" not found in library "AISC15"; closest: "W310X97", "W310X86", "W310X79", "W310X74", "W310X67"`; got != want {
		t.Errorf("message = %q, want %q", got, want)
	}
}

func TestParseDoubleAngleLabel(t *testing.T) {
	tests := []struct {
		label, single string
		gap           float64
	}{
		{"2L305X305X34.9", "L305X305X34.9", 0},
		{"2L305X305X34.9X19", "L305X305X34.9", 19},
		{"2L203X152X25.4X9LLBB", "L203X152X25.4", 9},
		{"2L203X152X25.4SLBB", "L203X152X25.4", 0},
	}
	for _, tc := range tests {
		t.Run(tc.label, func(t *testing.T) {
			single, gap, err := parseDoubleAngleLabel(tc.label)
			if err != nil || single != tc.single || gap != tc.gap {
				t.Errorf("= %q, %g, %v; want %q, %g, nil", single, gap, err, tc.single, tc.gap)
			}
		})
	}
}
