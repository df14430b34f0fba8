package library

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Units of the two AISC v15.0 sheets, as multipliers to SI. The US sheet is
// in inches (exact: 1 in = 0.0254 m); the SI sheet in mm with the 10⁶ and
// 10³ multipliers documented in aisc.go.
const (
	usIn2 = 0.0254 * 0.0254                   // in² → m²
	usIn4 = 0.0254 * 0.0254 * 0.0254 * 0.0254 // in⁴ → m⁴
)

// aiscProps are the columns compared between the sheets, with their SI
// multipliers in the SI sheet and in the US sheet.
var aiscProps = []struct {
	col    string
	si, us float64
}{
	{"A", 1e-6, usIn2},  // mm², in²
	{"Ix", 1e-6, usIn4}, // 10⁶ mm⁴, in⁴
	{"Iy", 1e-6, usIn4}, // 10⁶ mm⁴, in⁴
	{"J", 1e-9, usIn4},  // 10³ mm⁴, in⁴
}

// sectionProp reads the library value that the AISC column col maps to
// (AISC Ix is the strong axis, our Iz; see doc.go).
func sectionProp(s Section, col string) float64 {
	switch col {
	case "A":
		return s.A
	case "Ix":
		return s.Iz
	case "Iy":
		return s.Iy
	default:
		return s.J
	}
}

// printedHalfUnit is half a unit in the third significant figure of the printed
// value s: the largest rounding error of a number printed to three
// significant figures, which is how both sheets print A, Ix, Iy and J (no
// cell of those columns carries more; "10000" is 1.00×10⁴, not 1×10⁴).
func printedHalfUnit(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v == 0 {
		t.Fatalf("printed value %q: %v", s, err)
	}
	return 0.5 * math.Pow(10, math.Floor(math.Log10(math.Abs(v)))-2)
}

// checkRounded checks a library value (SI) against the same quantity as the
// US sheet prints it. The library value comes from the SI sheet, so the two
// are roundings of one true value: they may differ by at most the sum of the
// two half units in the last printed place, converted to SI. Relative to the
// value that is 0.5·10⁻²/m_US + 0.5·10⁻²/m_SI, where m is the mantissa
// (1 ≤ m < 10) of each printed number: from 0.1 % (both mantissas near 10)
// to 1 % (both near 1); 0.82 % is the largest any row of the database
// needs (HP310X79 A: 10000 mm² against 15.5 in²).
func checkRounded(t *testing.T, what string, got float64, us string, usF float64, si string, siF float64) {
	t.Helper()
	u, err := strconv.ParseFloat(us, 64)
	if err != nil {
		t.Fatalf("%s: US value %q: %v", what, us, err)
	}
	want := u * usF
	bound := (printedHalfUnit(t, us)*usF + printedHalfUnit(t, si)*siF) * (1 + 1e-12)
	if d := math.Abs(got - want); !(d <= bound) {
		t.Errorf("%s = %.6g, US sheet %s → %.6g: difference %.3g%% exceeds the rounding bound %.3g%%",
			what, got, us, want, 100*d/want, 100*bound/want)
	}
}

// readAISCSheet reads one sheet of the embedded database from disk,
// independently of the loader, as rows keyed by column name.
func readAISCSheet(t *testing.T, file string) []map[string]string {
	t.Helper()
	f, err := os.Open("data/aisc15/" + file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]map[string]string, 0, len(recs)-1)
	for _, rec := range recs[1:] {
		row := map[string]string{}
		for i, h := range recs[0] {
			row[h] = rec[i]
		}
		rows = append(rows, row)
	}
	return rows
}

// TestAISC15USLabels looks shapes of every kind of family up by their US
// label and checks that each resolves to the very section of its metric
// label (the SI sheet's numbers, so a model does not change with the name
// typed), named as typed, and that those numbers agree with what the US
// sheet prints within the rounding of the two sheets (see checkRounded).
// Every number below is the row of AISC Shapes Database v15.0 named in the
// comment (Shapes-US.csv and Shapes-SI.csv, same CSV line in both).
func TestAISC15USLabels(t *testing.T) {
	type cell struct{ us, si string }
	tests := []struct {
		us, si       string
		a, ix, iy, j cell // US sheet (in², in⁴), SI sheet (mm², 10⁶ mm⁴, 10³ mm⁴)
		noJ          bool // double angles: J blank in both sheets
		family       Family
	}{
		// line 202: W14X90 = W360X134.
		{us: "W14X90", si: "W360X134", a: cell{"26.5", "17100"}, ix: cell{"999", "416"}, iy: cell{"362", "151"}, j: cell{"4.06", "1690"},
			family: FamilyI},
		// line 344: HP14X73 = HP360X108.
		{us: "HP14X73", si: "HP360X108", a: cell{"21.4", "13800"}, ix: cell{"729", "303"}, iy: cell{"261", "109"}, j: cell{"2.01", "837"},
			family: FamilyI},
		// line 303: S24X121 = S610X180.
		{us: "S24X121", si: "S610X180", a: cell{"35.5", "22900"}, ix: cell{"3160", "1320"}, iy: cell{"83", "34.5"}, j: cell{"12.8", "5330"},
			family: FamilyI},
		// line 353: C15X50 = C380X74.
		{us: "C15X50", si: "C380X74", a: cell{"14.7", "9480"}, ix: cell{"404", "168"}, iy: cell{"11", "4.58"}, j: cell{"2.65", "1100"},
			family: FamilyChannel},
		// line 393: MC12X50 = MC310X74.
		{us: "MC12X50", si: "MC310X74", a: cell{"14.7", "9480"}, ix: cell{"269", "112"}, iy: cell{"17.4", "7.24"}, j: cell{"3.23", "1340"},
			family: FamilyChannel},
		// line 562: WT22X167.5 = WT550X249.5.
		{us: "WT22X167.5", si: "WT550X249.5", a: cell{"49.2", "31700"}, ix: cell{"2170", "903"}, iy: cell{"600", "250"}, j: cell{"37.2", "15500"},
			family: FamilyTee},
		// line 442: L8X6X1 = L203X152X25.4.
		{us: "L8X6X1", si: "L203X152X25.4", a: cell{"13.1", "8450"}, ix: cell{"80.9", "33.7"}, iy: cell{"38.8", "16.1"}, j: cell{"4.34", "1810"},
			family: FamilyAngle},
		// line 1072: 2L8X6X1X3/4LLBB = 2L203X152X25.4X19LLBB (J blank).
		{us: "2L8X6X1X3/4LLBB", si: "2L203X152X25.4X19LLBB", a: cell{"26.2", "16900"}, ix: cell{"162", "67.4"}, iy: cell{"185", "77"}, noJ: true,
			family: FamilyDoubleAngle},
		// line 1724: HSS8X4X3/8 = HSS203.2X101.6X9.5.
		{us: "HSS8X4X3/8", si: "HSS203.2X101.6X9.5", a: cell{"7.58", "4890"}, ix: cell{"58.7", "24.4"}, iy: cell{"19.6", "8.16"}, j: cell{"49.3", "20500"},
			family: FamilyHollowRect},
		// line 2040: HSS1.900X0.120 = HSS48.3X3.0 (round HSS).
		{us: "HSS1.900X0.120", si: "HSS48.3X3.0", a: cell{"0.624", "403"}, ix: cell{"0.251", "0.104"}, iy: cell{"0.251", "0.104"}, j: cell{"0.501", "209"},
			family: FamilyHollowCircle},
		// line 2053: Pipe4STD = Pipe100STD.
		{us: "Pipe4STD", si: "Pipe100STD", a: cell{"2.96", "1910"}, ix: cell{"6.82", "2.84"}, iy: cell{"6.82", "2.84"}, j: cell{"13.6", "5660"},
			family: FamilyHollowCircle},
	}
	for _, tc := range tests {
		t.Run(tc.us, func(t *testing.T) {
			us := mustSection(t, LibAISC15, tc.us)
			si := mustSection(t, LibAISC15, tc.si)
			if us.Name != tc.us || us.AltName != tc.si || si.AltName != tc.us {
				t.Errorf("names %q/%q and %q/%q, want %q and %q each with the other as AltName", us.Name, us.AltName, si.Name, si.AltName, tc.us, tc.si)
			}
			if us.Library != LibAISC15 || us.Shape.Family != tc.family {
				t.Errorf("library %q family %q, want %q %q", us.Library, us.Shape.Family, LibAISC15, tc.family)
			}
			// The same row: every property and the whole shape are identical.
			if us.A != si.A || us.J != si.J || us.Iy != si.Iy || us.Iz != si.Iz || us.Ay != si.Ay || us.Az != si.Az || *us.Shape != *si.Shape {
				t.Errorf("US %+v %+v\nSI %+v %+v: not the same section", us, *us.Shape, si, *si.Shape)
			}
			checkRounded(t, "A", us.A, tc.a.us, usIn2, tc.a.si, 1e-6)
			checkRounded(t, "Iz (AISC Ix)", us.Iz, tc.ix.us, usIn4, tc.ix.si, 1e-6)
			checkRounded(t, "Iy", us.Iy, tc.iy.us, usIn4, tc.iy.si, 1e-6)
			if !tc.noJ {
				checkRounded(t, "J", us.J, tc.j.us, usIn4, tc.j.si, 1e-9)
			}
		})
	}
}

// TestAISC15USSpelling: US labels tolerate what metric ones do, case and
// spaces, and answer the label as the database prints it.
func TestAISC15USSpelling(t *testing.T) {
	tests := []struct{ in, want string }{
		{"W14X90", "W14X90"},
		{"w14x90", "W14X90"},
		{" W 14 X 90 ", "W14X90"},
		{"hss8x4x3/8", "HSS8X4X3/8"},
		{"L 3-1/2 X 2-1/2 X 5/16", "L3-1/2X2-1/2X5/16"},
		{"pipe4std", "Pipe4STD"},
		{"Pipe 4 STD", "Pipe4STD"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if s := mustSection(t, LibAISC15, tc.in); s.Name != tc.want {
				t.Errorf("canonical name %q, want %q", s.Name, tc.want)
			}
		})
	}
}

// TestAISC15EveryUSLabel resolves every US label of the database and checks
// A, Iz, Iy and J against that row of the US sheet within the two sheets'
// rounding (checkRounded). The sheets list the same shapes in the same
// order, which is how a US label finds its metric row; the SI sheet's values
// are the ones used. Two US labels spell a metric label too: "Pipe20STD" and
// "Pipe20XS" are 20 in pipes in the US sheet but 3/4 in pipes (DN 20) in the
// SI sheet. The metric meaning, which those names always had here, wins;
// the 20 in pipes are Pipe500STD and Pipe500XS.
func TestAISC15EveryUSLabel(t *testing.T) {
	si := readAISCSheet(t, "Shapes-SI.csv")
	us := readAISCSheet(t, "Shapes-US.csv")
	if len(si) != len(us) {
		t.Fatalf("%d SI rows, %d US rows", len(si), len(us))
	}
	metric := map[string]bool{}
	for _, r := range si {
		metric[aiscKey(r["AISC_Manual_Label"])] = true
	}
	var shadowed []string
	for i, u := range us {
		label, m := u["AISC_Manual_Label"], si[i]
		if u["Type"] != m["Type"] {
			t.Fatalf("line %d: US %s is %s, SI %s is %s", i+2, label, u["Type"], m["AISC_Manual_Label"], m["Type"])
		}
		if metric[aiscKey(label)] {
			shadowed = append(shadowed, label)
			if s := mustSection(t, LibAISC15, label); s.Name == label && s.Shape.D > 0.1 {
				t.Errorf("%s resolves to the US sheet's %g m pipe, want the metric row", label, s.Shape.D)
			}
			continue
		}
		s := mustSection(t, LibAISC15, label)
		if s.Name != label {
			t.Errorf("%s: name %q", label, s.Name)
		}
		for _, p := range aiscProps {
			if u[p.col] == "" || m[p.col] == "" {
				continue // double angles: J blank in both sheets
			}
			checkRounded(t, label+" "+p.col, sectionProp(s, p.col), u[p.col], p.us, m[p.col], p.si)
		}
	}
	if len(shadowed) != 2 || shadowed[0] != "Pipe20STD" || shadowed[1] != "Pipe20XS" {
		t.Errorf("US labels that are also metric labels: %v, want [Pipe20STD Pipe20XS]", shadowed)
	}
	// SI sheet: Pipe20STD OD 26.7 mm (line 2061), Pipe500STD OD 508 mm (line 2044).
	checkRel(t, "Pipe20STD OD", mustSection(t, LibAISC15, "Pipe20STD").Shape.D, 26.7e-3, 1e-12)
	checkRel(t, "Pipe500STD OD", mustSection(t, LibAISC15, "Pipe500STD").Shape.D, 508e-3, 1e-12)
	if alt := mustSection(t, LibAISC15, "Pipe500STD").AltName; alt != "" {
		t.Errorf("Pipe500STD AltName %q, want none: its US label names another pipe here", alt)
	}
}

// TestAISC15USPairingChecked: the loader refuses a US sheet whose lines do
// not pair with the SI sheet's (here two W rows swapped: line 202 W14X90,
// A 26.5 in², and line 203 W14X82, A 24.0 in²).
func TestAISC15USPairingChecked(t *testing.T) {
	orig := aisc15USCSV
	t.Cleanup(func() { aisc15USCSV = orig })
	lines := strings.SplitAfter(string(orig), "\n")
	if !strings.HasPrefix(lines[201], "W14X90,") || !strings.HasPrefix(lines[202], "W14X82,") {
		t.Fatalf("lines 202-203 are %.10q, %.10q", lines[201], lines[202])
	}
	lines[201], lines[202] = lines[202], lines[201]
	aisc15USCSV = []byte(strings.Join(lines, ""))
	_, err := loadAISC15()
	if err == nil || !strings.Contains(err.Error(), "line 202") {
		t.Errorf("err = %v, want the misaligned line 202 named", err)
	}
}
