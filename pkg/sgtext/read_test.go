package sgtext_test

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/sgtext"
	"github.com/gusset/gusset/pkg/store"
)

// everyGroup holds a line of every group Read reads, in US customary
// units, so that the conversions are checked against hand values
// (httpapi imports the same file through the API).
var everyGroup = func() string {
	b, err := os.ReadFile("testdata/every_group.txt")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// Exact factors (NIST SP 811): 1 ft = 0.3048 m, 1 in = 0.0254 m,
// 1 lbf = 4.4482216152605 N, 1 lb = 0.45359237 kg, g = 9.80665 m/s²,
// a change of 1 °F = 5/9 K.
const (
	ft  = 0.3048
	in  = 0.0254
	kip = 4448.2216152605
	lbm = 0.45359237
)

func TestReadEveryGroupInSI(t *testing.T) {
	imp, err := sgtext.Read(strings.NewReader(everyGroup))
	if err != nil {
		t.Fatal(err)
	}
	snap := imp.Snapshot
	h := snap.Job.Headings
	if h.ProjectHeading != "Every group" || h.Heading != "Frame, with a comma" || h.DesignerInitials != "ABC" || h.Notes != "line one\nline two" {
		t.Errorf("headings %+v", h)
	}
	if snap.Job.Settings.VerticalAxis != model.VerticalZ || snap.Job.Units.Length != "ft" || snap.Job.Units.Force != "K" || snap.Job.Units.Stress != "Psf" {
		t.Errorf("job %+v", snap.Job)
	}
	// Each value: the file's number times the exact factor of its field's
	// unit tag; a relative 1e-15 is the round-off of one product.
	cases := []struct {
		coll, key, field string
		want             float64
	}{
		{model.CollNodes, "2", "x", 10 * ft},
		// Section 2 gives only its area: the rest are the library's,
		// the area the file's (20 in²).
		{model.CollSections, "2", "a", 20 * in * in},
		{model.CollMembers, "1", "direction.dirAngle", 30},
		{model.CollMembers, "2", "gapTensionLimit", 0.5 * ft},
		{model.CollMembers, "3", "releases.txStiffnessAtA", 100 * kip / ft},
		{model.CollPlates, "1", "actualThickness", 0.5 * in},
		{model.CollNodeRestraints, "2", "tyStiffness", 50 * kip / ft},
		{model.CollMemberOffsets, "1", "xOffsetAtA", 1 * ft},
		{model.CollMemberOffsets, "1", "xOffsetAtB", -1 * ft},
		{model.CollMaterials, "1", "youngsModulus", 29000 * 1000 * 4.4482216152605 / (in * in)},
		{model.CollMaterials, "1", "massDensity", 490 * lbm / (ft * ft * ft)},
		{model.CollMaterials, "1", "thermalCoeff", 6.5e-6 * 9 / 5},
		{model.CollMaterials, "2", "concreteStrength", 5 * 1000 * 4.4482216152605 / (in * in)},
		{model.CollNodeLoads, "1:2", "fx", 2 * kip},
		{model.CollNodeLoads, "1:2", "mz", 1 * kip * ft},
		{model.CollMemberConcentratedLoads, "1:1:1", "position", 50},
		{model.CollMemberConcentratedLoads, "1:1:1", "fy", -kip},
		{model.CollMemberDistributedLoads, "1:2:1", "finishPosition", 5 * ft},
		{model.CollMemberDistributedLoads, "1:2:1", "fyStart", -kip / ft},
		{model.CollMemberTorsionLoads, "1:2:1", "mxStart", kip * ft / ft},
		{model.CollMemberPrestressLoads, "2:1", "prestress", 3 * kip},
		{model.CollPlateLoads, "2:1", "pz", -100 * 4.4482216152605 / (ft * ft)},
		{model.CollSelfWeightLoads, "1", "accelerationY", -9.80665},
		{model.CollThermalLoads, "2:1:1", "thermalLoad", 10 * 5.0 / 9},
		{model.CollThermalLoads, "2:2:1", "thermalLoad", 18 * 5.0 / 9},
		{model.CollPrescribedDisplacements, "2:1", "ty", -0.5 * in},
		{model.CollLumpedMassLoads, "2:3", "tmx", 1000 * lbm},
	}
	for _, c := range cases {
		got, ok := field(t, snap, c.coll, c.key, c.field)
		if !ok || math.Abs(got-c.want) > 1e-15*math.Abs(c.want) {
			t.Errorf("%s %s %s = %v (present %v), want %v", c.coll, c.key, c.field, got, ok, c.want)
		}
	}
	texts := []struct{ coll, key, field, want string }{
		{model.CollMembers, "2", "type", "Gap"},
		{model.CollMembers, "2", "direction.source", "Node"},
		{model.CollMembers, "3", "direction.dirAxis", "NegativeZAxis"},
		{model.CollMembers, "4", "type", "Truss"},
		{model.CollMembers, "1", "releases.fixityCodeAtB", "FFFFFR"},
		{model.CollPlates, "1", "theory", "Mindlin"},
		{model.CollNodeRestraints, "2", "activeDirection", "BPBBBB"},
		{model.CollNodeConstraints, "5", "constraintCode", "FFFRRR"},
		{model.CollSections, "1", "library", "AISC15"},
		{model.CollSections, "1", "source", "Library"},
		{model.CollMaterials, "1", "source", "User"},
		{model.CollLoadCases, "1", "notes", "with notes"},
		{model.CollLoadCategories, "1", "title", "Dead"},
		{model.CollMemberDistributedLoads, "1:2:1", "axes", "GlobalInclined"},
		{model.CollMemberDistributedLoads, "1:2:1", "positionUnits", "Actual"},
		{model.CollLoadCaseGroups, "1", "loadCaseList", "1-2"},
	}
	for _, c := range texts {
		got := row(t, snap, c.coll, c.key)
		if v := lookup(got, c.field); v != c.want {
			t.Errorf("%s %s %s = %v, want %q", c.coll, c.key, c.field, v, c.want)
		}
	}
	var lib, own model.Section
	if err := json.Unmarshal(rowBytes(t, snap, model.CollSections, "1"), &lib); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(rowBytes(t, snap, model.CollSections, "2"), &own); err != nil {
		t.Fatal(err)
	}
	if own.Iz != lib.Iz || own.Ay != lib.Ay || own.J != lib.J || own.A == lib.A {
		t.Errorf("section 2 %+v, want section 1's properties but its area: %+v", own, lib)
	}
	// The table of node 3's variable X spring: steps in file units.
	var r model.NodeRestraint
	if err := json.Unmarshal(rowBytes(t, snap, model.CollNodeRestraints, "3"), &r); err != nil {
		t.Fatal(err)
	}
	if tb := r.TxVariableTable; tb == nil || len(tb.Rows) != 2 || math.Abs(tb.Rows[1][0]-0.5*in) > 1e-17 || math.Abs(tb.Rows[1][1]-20*kip/ft) > 1e-15*20*kip/ft {
		t.Errorf("variable table %+v", r.TxVariableTable)
	}
	// Combination 3: the later line for case 1 overrides the earlier.
	var lc model.LoadCase
	if err := json.Unmarshal(rowBytes(t, snap, model.CollLoadCases, "3"), &lc); err != nil {
		t.Fatal(err)
	}
	if len(lc.CombinationItems) != 2 || lc.CombinationItems[0] != (model.CombinationItem{LoadCase: 1, MultiplyingFactor: 1.25}) {
		t.Errorf("combination items %+v", lc.CombinationItems)
	}
	if len(imp.Warnings) != 0 {
		t.Errorf("warnings %v", imp.Warnings)
	}

	// Written and read again, the model is the same to 15 digits.
	text := write(t, snap)
	again, err := sgtext.Read(strings.NewReader(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	for coll, rows := range snap.Collections {
		sameRows(t, coll, rows, again.Snapshot.Collections[coll])
	}
	if again.Snapshot.Job.Headings != snap.Job.Headings || again.Snapshot.Job.Settings != snap.Job.Settings || again.Snapshot.Job.Units != snap.Job.Units {
		t.Errorf("job record %+v, want %+v", again.Snapshot.Job, snap.Job)
	}
}

func rowBytes(t *testing.T, snap store.Snapshot, coll, key string) []byte {
	t.Helper()
	parts := strings.Split(key, ":")
	ids := make([]int64, len(parts))
	for i, p := range parts {
		for _, c := range p {
			ids[i] = ids[i]*10 + int64(c-'0')
		}
	}
	k := store.Key(ids...)
	for _, r := range snap.Collections[coll] {
		if r.Key == k {
			return r.Value
		}
	}
	t.Fatalf("%s has no row %s", coll, key)
	return nil
}

func row(t *testing.T, snap store.Snapshot, coll, key string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(rowBytes(t, snap, coll, key), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func lookup(m map[string]any, path string) any {
	var v any = m
	for _, p := range strings.Split(path, ".") {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[p]
	}
	return v
}

func field(t *testing.T, snap store.Snapshot, coll, key, path string) (float64, bool) {
	t.Helper()
	v := lookup(row(t, snap, coll, key), path)
	if v == nil {
		return 0, true // a zero member is left out of the stored row
	}
	x, ok := v.(float64)
	return x, ok
}
