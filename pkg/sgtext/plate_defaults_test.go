package sgtext_test

import (
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/sgtext"
)

// A plate needs only its corner nodes, as through the API: its material
// and thickness may come later (an analysis refuses the plate until they
// do). A line that gives only the nodes reads, and a plate without them
// writes a file that reads back to the same row.
func TestPlateOfCornersOnly(t *testing.T) {
	file := sgtext.Header + "\n" +
		"NODES\n1,0,0,0\n2,2,0,0\n3,2,2,0\n4,0,2,0\n" +
		"PLATES\n1,0,0,,K,1,2,3,4\n"
	imp, err := sgtext.Read(strings.NewReader(file))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	p := row(t, imp.Snapshot, model.CollPlates, "1")
	if p["nodeD"] != float64(4) || p["material"] != nil || p["actualThickness"] != nil {
		t.Fatalf("plate 1 = %v, want nodes 1-4, no material, no thickness", p)
	}
	again, err := sgtext.Read(strings.NewReader(write(t, imp.Snapshot)))
	if err != nil {
		t.Fatalf("Read of the written file: %v", err)
	}
	sameRows(t, model.CollPlates, imp.Snapshot.Collections[model.CollPlates], again.Snapshot.Collections[model.CollPlates])
}
