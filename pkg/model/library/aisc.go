package library

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The AISC Shapes Database v15.0, SI sheet, as CSV (MIT-licensed extraction;
// see data/aisc15/NOTICE.md). Column units, checked against the US sheet
// (every SI/US ratio is 25.4ⁿ times a power of ten) and against W310X97 =
// W12X65 (A 12300 mm² = 19.1 in², Ix 222 = 533 in⁴, J 907 = 2.18 in⁴):
//
//	d, bf, tw, tf, b, t, x, y, Ht, B, OD, tdes  mm
//	A                                           mm²
//	Ix, Iy                                      10⁶ mm⁴
//	J                                           10³ mm⁴
//	Cw                                          10⁹ mm⁶ (not used)
//
//go:embed data/aisc15/Shapes-SI.csv
var aisc15CSV []byte

// The US sheet of the same database (in, in², in⁴). Only its labels are
// used: line n of it is line n of the SI sheet, so "W14X90" (line 202)
// resolves to the SI row of "W360X134" and gets the SI sheet's numbers. A
// model thus has the same stiffness whichever label was typed; the US
// sheet's own numbers are the same values rounded in another unit (three
// significant figures in both sheets, so they differ by up to 1 %).
//
//go:embed data/aisc15/Shapes-US.csv
var aisc15USCSV []byte

// Multipliers from the CSV's units to SI.
const (
	aiscMM  = 1e-3            // mm → m
	aiscMM2 = 1e-6            // mm² → m²
	aiscI   = 1e-6            // 10⁶ mm⁴ → m⁴
	aiscJ   = 1e-9            // 10³ mm⁴ → m⁴
	aiscIn2 = 0.0254 * 0.0254 // in² → m² (US sheet)
)

var aisc15 = catalogue{load: loadAISC15}

// aiscKey normalises an AISC manual label for lookup: case and spaces are
// ignored, so "w310x97" and "W 310 X 97" both find "W310X97", and
// "hss8x4x3/8" finds "HSS8X4X3/8".
func aiscKey(name string) string {
	return strings.ToUpper(strings.Join(strings.Fields(name), ""))
}

func lookupAISC15(name string) (Section, error) {
	t, err := aisc15.get()
	if err != nil {
		return Section{}, err
	}
	s, ok := t.byKey[aiscKey(name)]
	if !ok {
		return Section{}, &NotFoundError{Kind: "section", Library: LibAISC15, Name: name,
			Suggestions: suggest([]string{aiscKey(name)}, t.cands)}
	}
	return copyShape(s), nil
}

// aiscRow gives typed access to one CSV record by column name.
type aiscRow struct {
	cols   map[string]int
	rec    []string
	lineNo int
}

func (r aiscRow) str(col string) string { return r.rec[r.cols[col]] }

// num returns the column's value in the CSV's own units; 0 for a blank
// ("not applicable") cell.
func (r aiscRow) num(col string) (float64, error) {
	s := strings.TrimSpace(r.str(col))
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("AISC15 line %d, column %s: %w", r.lineNo, col, err)
	}
	return v, nil
}

func loadAISC15() (table, error) {
	recs, err := csv.NewReader(bytes.NewReader(aisc15CSV)).ReadAll()
	if err != nil {
		return table{}, fmt.Errorf("AISC15 data: %w", err)
	}
	cols := map[string]int{}
	for i, h := range recs[0] {
		cols[h] = i
	}
	for _, c := range []string{"AISC_Manual_Label", "Type", "A", "d", "bf", "tw", "tf", "b", "t", "x", "y", "Ht", "B", "OD", "tdes", "Ix", "Iy", "J"} {
		if _, ok := cols[c]; !ok {
			return table{}, fmt.Errorf("AISC15 data: missing column %q", c)
		}
	}
	rows := make([]aiscRow, 0, len(recs)-1)
	singleJ := map[string]float64{} // single-angle J (m⁴) by label, for double angles
	for i, rec := range recs[1:] {
		r := aiscRow{cols: cols, rec: rec, lineNo: i + 2}
		rows = append(rows, r)
		if r.str("Type") == "L" {
			j, err := r.num("J")
			if err != nil {
				return table{}, err
			}
			singleJ[r.str("AISC_Manual_Label")] = j * aiscJ
		}
	}
	t := table{byKey: make(map[string]Section, 2*len(rows))}
	for _, r := range rows {
		s, err := aiscSection(r, singleJ)
		if err != nil {
			return table{}, err
		}
		t.byKey[aiscKey(s.Name)] = s
		t.entries = append(t.entries, s)
	}
	if err := addAISCUSLabels(&t, rows); err != nil {
		return table{}, err
	}
	for _, s := range t.entries {
		t.cands = append(t.cands, candidate{forms: []string{aiscKey(s.Name)}, show: s.Name})
		if s.AltName != "" {
			t.cands = append(t.cands, candidate{forms: []string{aiscKey(s.AltName)}, show: s.AltName})
		}
	}
	return t, nil
}

// addAISCUSLabels lets every label of the US sheet find the section of the
// SI row on the same line, named by the US label, and records each label
// as the other's AltName. The pairing is checked: same Type, and areas equal
// within the rounding of the two sheets. Two US labels are also metric
// labels of other shapes, "Pipe20STD" and "Pipe20XS" (20 in pipes in the US
// sheet, 3/4 in pipes in the SI sheet); the metric meaning, which those
// names had before US labels were accepted, wins, and the 20 in pipes stay
// reachable as Pipe500STD and Pipe500XS (which then have no AltName).
func addAISCUSLabels(t *table, si []aiscRow) error {
	recs, err := csv.NewReader(bytes.NewReader(aisc15USCSV)).ReadAll()
	if err != nil {
		return fmt.Errorf("AISC15 US data: %w", err)
	}
	cols := map[string]int{}
	for i, h := range recs[0] {
		cols[h] = i
	}
	for _, c := range []string{"AISC_Manual_Label", "Type", "A"} {
		if _, ok := cols[c]; !ok {
			return fmt.Errorf("AISC15 US data: missing column %q", c)
		}
	}
	if len(recs)-1 != len(si) {
		return fmt.Errorf("AISC15 US data: %d shapes, the SI sheet has %d", len(recs)-1, len(si))
	}
	for i, rec := range recs[1:] {
		u, m := aiscRow{cols: cols, rec: rec, lineNo: i + 2}, si[i]
		label := u.str("AISC_Manual_Label")
		if u.str("Type") != m.str("Type") {
			return fmt.Errorf("AISC15 line %d: US %s is a %s, SI %s a %s", u.lineNo, label, u.str("Type"), m.str("AISC_Manual_Label"), m.str("Type"))
		}
		au, err := u.num("A")
		if err != nil {
			return err
		}
		am, err := m.num("A")
		if err != nil {
			return err
		}
		if !sameRounded(am*aiscMM2, halfUnit3(am)*aiscMM2, au*aiscIn2, halfUnit3(au)*aiscIn2) {
			return fmt.Errorf("AISC15 line %d: US %s (A %g in²) and SI %s (A %g mm²) are not the same shape", u.lineNo, label, au, m.str("AISC_Manual_Label"), am)
		}
		key := aiscKey(label)
		if _, taken := t.byKey[key]; taken {
			continue // Pipe20STD, Pipe20XS: the metric label wins
		}
		s := t.entries[i]
		s.AltName = label
		t.entries[i], t.byKey[aiscKey(s.Name)] = s, s
		s.Name, s.AltName = label, s.Name
		t.byKey[key] = s
	}
	return nil
}

// halfUnit3 is half a unit in the third significant figure of v: the
// largest rounding error of a value printed, as both AISC sheets print A,
// Ix, Iy and J, to three significant figures.
func halfUnit3(v float64) float64 {
	if v == 0 {
		return 0
	}
	return 0.5 * math.Pow(10, math.Floor(math.Log10(math.Abs(v)))-2)
}

// sameRounded reports whether a ± ha and b ± hb can be roundings of one
// value.
func sameRounded(a, ha, b, hb float64) bool {
	return math.Abs(a-b) <= (ha+hb)*(1+1e-9)
}

// aiscSection converts one row. A, Iz (= AISC Ix), Iy and J are the tabulated
// values; only the shear areas and the fibre geometry are derived here.
func aiscSection(r aiscRow, singleJ map[string]float64) (Section, error) {
	label := r.str("AISC_Manual_Label")
	v := map[string]float64{}
	for _, c := range []string{"A", "d", "bf", "tw", "tf", "b", "t", "x", "y", "Ht", "B", "OD", "tdes", "Ix", "Iy", "J"} {
		n, err := r.num(c)
		if err != nil {
			return Section{}, err
		}
		v[c] = n
	}
	a := v["A"] * aiscMM2
	s := Section{
		Name: label, Library: LibAISC15,
		A: a, Iz: v["Ix"] * aiscI, Iy: v["Iy"] * aiscI, J: v["J"] * aiscJ,
	}
	mm := func(c string) float64 { return v[c] * aiscMM }
	var sh Shape
	switch typ := r.str("Type"); typ {
	case "W", "M", "S", "HP":
		d, bf, tw, tf := mm("d"), mm("bf"), mm("tw"), mm("tf")
		sh = Shape{Family: FamilyI, D: d, B: bf, Tf: tf, Tw: tw, Yc: d / 2, Zc: bf / 2}
		s.Ay, s.Az = d*tw, 5.0/6*2*bf*tf
	case "C", "MC":
		d, bf, tw, tf := mm("d"), mm("bf"), mm("tw"), mm("tf")
		sh = Shape{Family: FamilyChannel, D: d, B: bf, Tf: tf, Tw: tw, Yc: d / 2, Zc: mm("x")}
		s.Ay, s.Az = d*tw, 5.0/6*2*bf*tf
	case "WT", "MT", "ST":
		// AISC's y is measured from the outside of the flange, which is on +y.
		d, bf, tw, tf := mm("d"), mm("bf"), mm("tw"), mm("tf")
		sh = Shape{Family: FamilyTee, D: d, B: bf, Tf: tf, Tw: tw, Yc: d - mm("y"), Zc: bf / 2}
		s.Ay, s.Az = d*tw, 5.0/6*bf*tf
	case "L":
		// Tabulated with the long leg vertical (Ix ≥ Iy in every row); x and
		// y locate the centroid from the backs of the vertical and horizontal
		// legs. The CSV's d/b columns do not say which leg is vertical.
		lv, lh, t := math.Max(mm("d"), mm("b")), math.Min(mm("d"), mm("b")), mm("t")
		sh = Shape{Family: FamilyAngle, D: lv, B: lh, T: t, Yc: mm("y"), Zc: mm("x")}
		s.Ay, s.Az = 5.0/6*lv*t, 5.0/6*lh*t
	case "2L":
		single, gapMM, err := parseDoubleAngleLabel(label)
		if err != nil {
			return Section{}, err
		}
		j, ok := singleJ[single]
		if !ok {
			return Section{}, fmt.Errorf("AISC15 %s: component angle %s not in the database", label, single)
		}
		// The database leaves J blank for double angles: two separate angles
		// (connected only at intervals) twist independently.
		s.J = 2 * j
		d, b, t, gap := mm("d"), mm("b"), mm("t"), gapMM*aiscMM
		sh = Shape{Family: FamilyDoubleAngle, D: d, B: 2*b + gap, T: t, Gap: gap, Yc: mm("y"), Zc: b + gap/2}
		s.Ay, s.Az = 5.0/6*2*d*t, 5.0/6*2*b*t
	case "HSS", "PIPE":
		t := mm("tdes")
		if od := mm("OD"); od > 0 {
			sh = Shape{Family: FamilyHollowCircle, D: od, B: od, T: t, Yc: od / 2, Zc: od / 2}
			s.Ay, s.Az = a/2, a/2
			break
		}
		// AISC computes HSS properties with an outside corner radius of 2·tdes.
		h, b := mm("Ht"), mm("B")
		sh = Shape{Family: FamilyHollowRect, D: h, B: b, T: t, R: 2 * t, Yc: h / 2, Zc: b / 2}
		s.Ay, s.Az = a*h/(h+b), a*b/(h+b)
	default:
		return Section{}, fmt.Errorf("AISC15 %s: unknown shape type %q", label, typ)
	}
	s.Shape = &sh
	return s, nil
}

// parseDoubleAngleLabel splits an AISC SI double-angle label such as
// "2L203X152X25.4X9LLBB" into its component single angle ("L203X152X25.4")
// and the back-to-back spacing in mm (9; 0 when the label gives none). The
// spacing is the label's rounded metric value of the nominal inch spacing.
func parseDoubleAngleLabel(label string) (single string, gapMM float64, err error) {
	body, ok := strings.CutPrefix(label, "2L")
	if !ok {
		return "", 0, fmt.Errorf("AISC15 %s: not a double-angle label", label)
	}
	body = strings.TrimSuffix(strings.TrimSuffix(body, "LLBB"), "SLBB")
	parts := strings.Split(body, "X")
	switch len(parts) {
	case 3:
	case 4:
		if gapMM, err = strconv.ParseFloat(parts[3], 64); err != nil {
			return "", 0, fmt.Errorf("AISC15 %s: spacing: %w", label, err)
		}
	default:
		return "", 0, fmt.Errorf("AISC15 %s: unexpected double-angle label", label)
	}
	return "L" + strings.Join(parts[:3], "X"), gapMM, nil
}
