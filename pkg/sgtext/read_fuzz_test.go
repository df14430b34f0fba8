package sgtext_test

import (
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/sgtext"
)

// FuzzRead holds the reader to two promises: no input makes it panic,
// and a file it accepts writes to a file that reads back to the same
// model (rows equal to 15 significant digits) and writes to the same
// text again.
func FuzzRead(f *testing.F) {
	f.Add(everyGroup)
	f.Add(textHeaderForFuzz + "NODES\n1,0,0,0\n2,1e3,-2.5,0\nMEMBERS\n1,0,0,,N,1,2,1,1\nSECTIONS\n1,\"310UB40.4\",\"Aust300\"\nMATERIALS\n1,\"STEEL\",\"Aust\"\n")
	f.Add(textHeaderForFuzz + "TITLES\n1,\"a \"\"quoted\"\" title||on two lines\",&\n\"and notes\"\n")
	f.Add(textHeaderForFuzz + "SECTIONS\n1,\"S\",,,1,1,1,1,1,1,0,1,1,1,1,1\n19,3,0\n0\n0\n1,2,3\n4,5,6\n7,8,9\n")
	f.Add(textHeaderForFuzz + "UNITS FORCE:lb, LENGTH:in\nNODELOADS\n1,1,1,2,3,4,5,6\nNODES\n1,0,0,0\n")
	f.Add(textHeaderForFuzz + "NODES\n1,0,0,0\nMOVINGSETTINGS\nN,Y,N,N,1,Y,N\n*,0,0\n*,10,0\nLOADEDELEMENTS\n\"1-3\",\"\"\nVEHICLES\n1,\"Truck\"\n*,0,1,0,0,-60\n" +
		"LANEPRESSURES\n1,\"Lane\",3,10,0,0,-1,0.5\nTRAVELPATHS\n1,\"Path\"\n*,1,0,0,0,0\n*,0,10,0,0,2\nSCENARIOS\n1,\"S\",Y,101,0.5\n*,L,V,1,0,1,10\n*,C,1,0,1.5,201\n")
	f.Fuzz(func(t *testing.T, text string) {
		imp, err := sgtext.Read(strings.NewReader(text))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "line ") {
				t.Fatalf("error without its line: %v", err)
			}
			return
		}
		text1 := write(t, imp.Snapshot)
		again, err := sgtext.Read(strings.NewReader(text1))
		if err != nil {
			t.Fatalf("the written file does not read back: %v\n%s", err, text1)
		}
		for coll, rows := range imp.Snapshot.Collections {
			sameRows(t, coll, rows, again.Snapshot.Collections[coll])
		}
		if len(again.Snapshot.Collections) != len(imp.Snapshot.Collections) {
			t.Fatalf("collections %d, want %d", len(again.Snapshot.Collections), len(imp.Snapshot.Collections))
		}
		if again.Snapshot.Job.Headings != imp.Snapshot.Job.Headings || again.Snapshot.Job.Units != imp.Snapshot.Job.Units ||
			again.Snapshot.Job.Settings != imp.Snapshot.Job.Settings {
			t.Fatalf("job %+v, want %+v", again.Snapshot.Job, imp.Snapshot.Job)
		}
		if text2 := write(t, again.Snapshot); text2 != text1 {
			t.Fatalf("written twice, the files differ:\n%s", firstDiff(text1, text2))
		}
	})
}

const textHeaderForFuzz = "SPACE GASS Text File - Version 1420\n"
