package library

import (
	"errors"
	"strings"
	"testing"
)

func TestSectionLibraryInfo(t *testing.T) {
	infos, err := SectionLibraryInfo()
	if err != nil {
		t.Fatal(err)
	}
	aust, _ := SectionNames(LibAust300)
	want := []LibraryInfo{
		{Name: LibAISC15, Entries: 2091}, // AISC Shapes Database v15.0: 2091 shapes
		{Name: LibAust300, Entries: len(aust)},
		{Name: LibParametric, Parametric: true},
	}
	if len(infos) != len(want) {
		t.Fatalf("%+v, want %+v", infos, want)
	}
	for i, w := range want {
		if g := infos[i]; g.Name != w.Name || g.Entries != w.Entries || g.Parametric != w.Parametric || g.Description == "" {
			t.Errorf("%d: %+v, want %+v with a description", i, g, w)
		}
	}
	mats := MaterialLibraryInfo()
	for i, lib := range MaterialLibraries() {
		n, _ := MaterialNames(lib)
		if mats[i].Name != lib || mats[i].Entries != len(n) || mats[i].Description == "" {
			t.Errorf("material library %d: %+v, want %s with %d entries", i, mats[i], lib, len(n))
		}
	}
}

func TestSearchSections(t *testing.T) {
	tests := []struct {
		library, search string
		want            []string
	}{
		// AISC v15.0 lines 201-202: W360X147 = W14X99, W360X134 = W14X90; the
		// US labels are searched as well as the metric ones.
		{"AISC15", "w14x9", []string{"W360X147", "W360X134"}},
		{"aisc15", " W360 X13", []string{"W360X134"}},
		{"AISC15", "hss8x4x3/8", []string{"HSS203.2X101.6X9.5"}}, // line 1724
		{"Aust300", "44.7", []string{"360UB44.7"}},
		{"Aust300", "w14", []string{}},
		{"Parametric", "", []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.library+"/"+tc.search, func(t *testing.T) {
			got, err := SearchSections(tc.library, tc.search)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range got {
				names = append(names, s.Name)
			}
			if strings.Join(names, "|") != strings.Join(tc.want, "|") {
				t.Errorf("= %v, want %v", names, tc.want)
			}
		})
	}
	all, err := SearchSections(LibAISC15, "")
	if err != nil || len(all) != 2091 || all[0].Name != "W1100X499" || all[0].AltName != "W44X335" {
		t.Errorf("empty search: %d sections, first %+v, err %v; want 2091 from W1100X499 (W44X335)", len(all), all[:1], err)
	}
	all[0].Shape.D = 99 // the caller's own copy
	if again, _ := SearchSections(LibAISC15, "W1100X499"); again[0].Shape.D == 99 {
		t.Error("a listed Shape is shared with the catalogue")
	}
	if _, err := SearchSections("BS5950", ""); !errors.Is(err, ErrUnknownLibrary) {
		t.Errorf("unknown library: %v", err)
	}
}

func TestSearchMaterials(t *testing.T) {
	tests := []struct {
		library, search string
		want            []string
	}{
		{"Aust", "conc3", []string{"N32"}}, // alias CONC32
		{"euro", "c30", []string{"C30/37"}},
		{"US", "a572 50", []string{"A572-50"}},
		{"US", "6061t6", []string{"AL6061-T6"}}, // "-" ignored as in lookups
		{"Euro", "zz", []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.library+"/"+tc.search, func(t *testing.T) {
			got, err := SearchMaterials(tc.library, tc.search)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, m := range got {
				names = append(names, m.Name)
				if m.Library == "" {
					t.Errorf("%s: no library", m.Name)
				}
			}
			if strings.Join(names, "|") != strings.Join(tc.want, "|") {
				t.Errorf("= %v, want %v", names, tc.want)
			}
		})
	}
	if got := MaterialAliases("aust", "n32"); strings.Join(got, ",") != "CONC32" {
		t.Errorf("aliases of N32: %v", got)
	}
	if got := MaterialAliases("US", "AL6061-T6"); strings.Join(got, ",") != "6061T6,ALUMINIUM,ALUMINUM" {
		t.Errorf("aliases of AL6061-T6: %v", got)
	}
}
