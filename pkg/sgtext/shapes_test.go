package sgtext_test

import (
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/sgtext"
)

// A section line may declare shapes that the file does not then give:
// files written by other programs set the last item to 1 and go straight
// on to the next group. The next title line ends the shapes, so the
// groups after it are read as themselves, not passed over as shape
// lines (which had a TITLES line read as a section).
func TestSectionShapesEndAtTheNextTitle(t *testing.T) {
	for _, tc := range []struct {
		name, between string
	}{
		{"no shape lines", ""},
		{"one shape of two points", "1,2\n0,0,0\n0,0,0\n0,0\n10,10\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := "SPACE GASS Text File - Version 1420\n" +
				"UNITS LENGTH:m, SECTION:mm, STRENGTH:MPa, DENSITY:T/m^3, TEMP:Celsius, FORCE:kN, MOMENT:kNm, MASS:T, ACC:g's, TRANS:mm, STRESS:MPa\n" +
				"NODES\n1,0,0,0\n2,4,0,0\n" +
				"MEMBERS\n1,0,0, ,N,1,2,1,1,FFFFFF,FFFFFF\n" +
				"SECTIONS\n1,\"My section\",\"\",\"\",5210,157000,7650000,86400000,2000,3000,0,1,1,1,1,1\n" + tc.between +
				"MATERIALS\n1,\"STEEL\",\"\",200000,0.25,7.85,1.17E-5,0\n" +
				"NODELOADS\n1,2,0,-10,0,0,0,0\n" +
				"TITLES\n1,\"Tip load\"\n"
			imp, err := sgtext.Read(strings.NewReader(file))
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			snap := imp.Snapshot
			// 200,000 MPa is 2e11 Pa; 10 kN is 1e4 N (exact factors).
			if e, ok := field(t, snap, model.CollMaterials, "1", "youngsModulus"); !ok || e != 2e11 {
				t.Errorf("material 1 E = %v (%v), want 2e11 Pa", e, ok)
			}
			if fy, ok := field(t, snap, model.CollNodeLoads, "1:2", "fy"); !ok || fy != -1e4 {
				t.Errorf("node load fy = %v (%v), want -1e4 N", fy, ok)
			}
			if got := row(t, snap, model.CollLoadCases, "1")["title"]; got != "Tip load" {
				t.Errorf("case 1 title %v, want Tip load", got)
			}
		})
	}
}
