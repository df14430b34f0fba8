package model_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// CheckFields holds a decoded record to the rules of its struct tags:
// enum values in their canonical spelling (also in nested records),
// bounds, and finite numbers within MaxMagnitude; every failure is named.
func TestCheckFields(t *testing.T) {
	member := func(edit func(m *model.Member)) *model.Member {
		m := &model.Member{ID: 1, NodeA: 1, NodeB: 2, Section: 1, Material: 1, Type: "Normal",
			Direction: model.Direction{Source: "Angle", DirAxis: "NotApplicable"}}
		edit(m)
		return m
	}
	tests := []struct {
		name string
		rec  any
		want []string // fields named, in order
	}{
		{"valid member", member(func(*model.Member) {}), nil},
		{"unknown type", member(func(m *model.Member) { m.Type = "Bogus" }), []string{"type"}},
		{"type in another spelling", member(func(m *model.Member) { m.Type = "normal" }), []string{"type"}},
		{"empty type", member(func(m *model.Member) { m.Type = "" }), []string{"type"}},
		{"nested enum", member(func(m *model.Member) { m.Direction.DirAxis = "Up" }), []string{"direction.dirAxis"}},
		{"bounds and magnitude, all at once", member(func(m *model.Member) {
			m.Type, m.CableLength, m.Direction.DirAngle, m.Releases.TxStiffnessAtA = "Bogus", -1, 400, math.NaN()
		}), []string{"type", "cableLength", "direction.dirAngle", "releases.txStiffnessAtA"}},
		{"exclusive bound", model.Material{Name: "m", YoungsModulus: 0, PoissonsRatio: 0.5, Source: "User"},
			[]string{"youngsModulus", "poissonsRatio"}},
		{"table cell beyond 1e20", model.NodeRestraint{Node: 1, XFrictionNormalAxis: "None", YFrictionNormalAxis: "None", ZFrictionNormalAxis: "None",
			XFrictionNormalDirection: "Either", YFrictionNormalDirection: "Either", ZFrictionNormalDirection: "Either",
			TxVariableTable: &model.Table{Rows: [][]float64{{0, 1e21}}}}, []string{"txVariableTable"}},
		{"record without tags", model.Node{X: 1e21}, []string{"x"}},
		{"not a struct", 3, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := model.CheckFields(tt.rec)
			var got []string
			for _, e := range errs {
				got = append(got, e.Field)
				if !strings.Contains(e.Message, e.Field) {
					t.Errorf("message %q does not name %s", e.Message, e.Field)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("fields %v, want %v: %v", got, tt.want, errs)
			}
		})
	}
}

// Canonical matches enum values ignoring case; CheckMembers names
// unknown, read-only and missing required members.
func TestFieldDefRules(t *testing.T) {
	d := model.DefOf(reflect.TypeOf(model.Member{}))
	for in, want := range map[string]string{"tensiononly": "TensionOnly", "NORMAL": "Normal", "Cable": "Cable", "Tension Only": ""} {
		t.Run(in, func(t *testing.T) {
			got, ok := d.ByName["type"].Canonical(in)
			if got != want || ok != (want != "") {
				t.Errorf("Canonical(%q) = %q, %v; want %q", in, got, ok, want)
			}
		})
	}
	errs := d.CheckMembers([]string{"nodeA", "hasOffsets", "colour"}, "", true)
	var got []string
	for _, e := range errs {
		got = append(got, e.Field)
	}
	if want := []string{"nodeB", "section", "material", "hasOffsets", "colour"}; !reflect.DeepEqual(got, want) {
		t.Errorf("CheckMembers: %v, want %v", got, want)
	}
	if err := model.FieldsError(errs); model.KindOf(err) != model.KindValidation || !strings.Contains(err.Error(), "4 more") {
		t.Errorf("FieldsError: %v", err)
	}
	if model.FieldsError(nil) != nil {
		t.Error("FieldsError(nil) is not nil")
	}
}

// ParseTags is the one reading of the tag grammar: json's name, options
// and "-", the rules and what the edge and the documents take.
func TestParseTags(t *testing.T) {
	one, zero := 1.0, 0.0
	tests := []struct {
		name string
		tag  string
		want model.FieldTags
	}{
		{"none", ``, model.FieldTags{}},
		{"json name and options", `json:"constraint,omitempty" ro:"true"`,
			model.FieldTags{JSONName: "constraint", JSONOptions: "omitempty", ReadOnly: true}},
		{"json skip", `json:"-"`, model.FieldTags{JSONName: "-", JSONSkip: true}},
		{"a member named -", `json:"-,"`, model.FieldTags{JSONName: "-"}},
		{"options only", `json:",omitempty"`, model.FieldTags{JSONOptions: "omitempty"}},
		{"rules", `json:"tolerance" req:"true" min:"0" max:"1" exclusive:"true" enum:"A|B"`,
			model.FieldTags{JSONName: "tolerance", Required: true, Min: &zero, Max: &one, Exclusive: true, Enum: []string{"A", "B"}}},
		{"edge and documents", `json:"position" unit:"length" positional:"true" doc:"where" example:"2"`,
			model.FieldTags{JSONName: "position", Unit: "length", Positional: true, Doc: "where", Example: "2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := model.ParseTags(tt.tag); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseTags(%q) = %+v, want %+v", tt.tag, got, tt.want)
			}
		})
	}
	sf, _ := reflect.TypeOf(model.Node{}).FieldByName("X")
	if got := model.TagsOf(sf); got.JSONName != "x" || got.Unit != "length" || !got.Required {
		t.Errorf("TagsOf(Node.X) = %+v", got)
	}
}
