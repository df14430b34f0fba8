package library

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Dimensions of the Aust300 sections, in mm, with their sources; see the
// header of the file.
//
//go:embed data/aust300.csv
var aust300CSV []byte

var aust300 = catalogue{load: loadAust300}

// Aust300 designations follow the compact form of the OneSteel / Australian
// Tube Mills tables: "360UB44.7", "150UC37.2", "380PFC", "100x100x6.0SHS",
// "150x50x3.0RHS", "168.3x7.1CHS". Lookups also accept, case-insensitively,
// the spaced catalogue spelling ("360 UB 44.7", "100 x 100 x 6.0 SHS"), the
// family written first ("SHS 100x100x6", "PFC 380"), "×" for "x", and numbers
// with or without trailing zeros ("6" for "6.0").
var (
	austUBUC   = regexp.MustCompile(`^(\d+)(UB|UC)(\d+(?:\.\d+)?)$`)
	austPFC    = regexp.MustCompile(`^(?:PFC(\d+)|(\d+)PFC)$`)
	austHollow = regexp.MustCompile(`^(SHS|RHS|CHS)?(\d+(?:\.\d+)?(?:X\d+(?:\.\d+)?){1,2})(SHS|RHS|CHS)?$`)
)

// austKey reduces an Aust300 designation to "FAMILY|n1|n2…" with the numbers
// in shortest form, or "" when the name has none of the accepted forms.
func austKey(name string) string {
	s := strings.ToUpper(strings.Join(strings.Fields(name), ""))
	s = strings.ReplaceAll(s, "×", "X")
	join := func(family string, nums ...string) string {
		for i, n := range nums {
			v, err := strconv.ParseFloat(n, 64)
			if err != nil {
				return ""
			}
			nums[i] = strconv.FormatFloat(v, 'f', -1, 64)
		}
		return family + "|" + strings.Join(nums, "|")
	}
	if m := austUBUC.FindStringSubmatch(s); m != nil {
		return join(m[2], m[1], m[3])
	}
	if m := austPFC.FindStringSubmatch(s); m != nil {
		return join("PFC", m[1]+m[2])
	}
	if m := austHollow.FindStringSubmatch(s); m != nil {
		family := m[1]
		if family == "" {
			family = m[3]
		} else if m[3] != "" {
			return "" // the family written twice
		}
		nums := strings.Split(m[2], "X")
		want := 3
		if family == "CHS" {
			want = 2
		}
		if family == "" || len(nums) != want {
			return ""
		}
		return join(family, nums...)
	}
	return ""
}

func lookupAust300(name string) (Section, error) {
	t, err := aust300.get()
	if err != nil {
		return Section{}, err
	}
	if s, ok := t.byKey[austKey(name)]; ok {
		return copyShape(s), nil
	}
	return Section{}, &NotFoundError{Kind: "section", Library: LibAust300, Name: name,
		Suggestions: suggest([]string{searchKey(name), austKey(name)}, t.cands)}
}

// hollowCornerRadius is the outer corner radius that the Australian Tube
// Mills tables assume for cold-formed SHS and RHS: 2.5t for walls over 3 mm,
// 2.0t otherwise. t is in m.
func hollowCornerRadius(t float64) float64 {
	if t > 3e-3 {
		return 2.5 * t
	}
	return 2.0 * t
}

// austRow is one parsed line of the data file, dimensions already in m.
type austRow struct {
	family, name, source       string
	d, b, tf, tw, r1, t, massK float64 // massK: catalogue kg/m, 0 if absent
}

func readAust300() ([]austRow, error) {
	r := csv.NewReader(bytes.NewReader(aust300CSV))
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("Aust300 data: %w", err)
	}
	var rows []austRow
	for i, rec := range recs[1:] { // recs[0] is the column header
		if len(rec) != 10 {
			return nil, fmt.Errorf("Aust300 data row %d: %d fields, want 10", i+1, len(rec))
		}
		var v [7]float64
		for j := range v {
			if rec[2+j] == "" {
				continue
			}
			if v[j], err = strconv.ParseFloat(rec[2+j], 64); err != nil {
				return nil, fmt.Errorf("Aust300 %s: %w", rec[1], err)
			}
		}
		rows = append(rows, austRow{
			family: rec[0], name: rec[1], source: rec[9],
			d: v[0] * 1e-3, b: v[1] * 1e-3, tf: v[2] * 1e-3, tw: v[3] * 1e-3, r1: v[4] * 1e-3, t: v[5] * 1e-3,
			massK: v[6],
		})
	}
	return rows, nil
}

func loadAust300() (table, error) {
	rows, err := readAust300()
	if err != nil {
		return table{}, err
	}
	t := table{byKey: make(map[string]Section, len(rows))}
	for _, r := range rows {
		s, err := austSection(r)
		if err != nil {
			return table{}, err
		}
		key := austKey(s.Name)
		if key == "" {
			return table{}, fmt.Errorf("Aust300 %s: designation does not parse", s.Name)
		}
		if _, dup := t.byKey[key]; dup {
			return table{}, fmt.Errorf("Aust300 %s: duplicate designation", s.Name)
		}
		t.byKey[key] = s
		t.entries = append(t.entries, s)
		t.cands = append(t.cands, candidate{forms: []string{searchKey(s.Name), key}, show: s.Name})
	}
	return t, nil
}

func austSection(r austRow) (Section, error) {
	var p props
	var sh Shape
	switch r.family {
	case "UB", "UC":
		p = iSectionProps(r.d, r.b, r.tf, r.tw, r.r1)
		sh = Shape{Family: FamilyI, D: r.d, B: r.b, Tf: r.tf, Tw: r.tw, R: r.r1}
	case "PFC":
		p = channelProps(r.d, r.b, r.tf, r.tw, r.r1)
		sh = Shape{Family: FamilyChannel, D: r.d, B: r.b, Tf: r.tf, Tw: r.tw, R: r.r1}
	case "SHS", "RHS":
		ro := hollowCornerRadius(r.t)
		p = hollowRectProps(r.d, r.b, r.t, ro)
		sh = Shape{Family: FamilyHollowRect, D: r.d, B: r.b, T: r.t, R: ro}
	case "CHS":
		p = tubeProps(r.d, r.t)
		sh = Shape{Family: FamilyHollowCircle, D: r.d, B: r.d, T: r.t}
	default:
		return Section{}, fmt.Errorf("Aust300 %s: unknown family %q", r.name, r.family)
	}
	sh.Yc, sh.Zc = p.Yc, p.Zc
	return Section{
		Name: r.name, Library: LibAust300,
		A: p.A, J: p.J, Iy: p.Iy, Iz: p.Iz, Ay: p.Ay, Az: p.Az,
		Shape: &sh,
	}, nil
}
