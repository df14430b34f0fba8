package httpapi

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// The scanner splits objects exactly as encoding/json does.
func TestSplitObjectMatchesDecoder(t *testing.T) {
	for _, in := range []string{
		`{}`, ` { } `, `{"a":1}`, `{"a":1,"b":"x,y}","c":[1,{"d":[2]}],"e":{"f":null},"g":true,"h":-1.5e3}`,
		"{\n\t\"a\" : 1 ,\r\n \"b\" : \"q\\\"z\" }", `{"a":"\\"}`, `{"a":1,"a":2}`, `{"a":[]}`,
	} {
		t.Run(in, func(t *testing.T) {
			var want map[string]json.RawMessage
			if err := json.Unmarshal([]byte(in), &want); err != nil {
				t.Fatal(err)
			}
			got, ok := splitObject([]byte(in), nil)
			if !ok || len(got) != len(want) {
				t.Fatalf("split %v (ok %v), decoder %v", got, ok, want)
			}
			for k, v := range want {
				var a, b any
				_ = json.Unmarshal(v, &a)
				_ = json.Unmarshal(got[k], &b)
				if !reflect.DeepEqual(a, b) {
					t.Errorf("%s: %s vs %s", k, got[k], v)
				}
			}
		})
	}
	if _, ok := splitObject([]byte(`{"a\u0062":1}`), nil); ok {
		t.Error("an escaped name must go to the decoder")
	}
}

// A bulk body is cut into the same items as the decoder cuts it, and any
// body the decoder refuses is refused with the decoder's message.
func TestArrayItemsMatchesDecoder(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"objects", `[{"a":1},{"b":"]"}]`, true},
		{"spaces", " [ {\"a\" : [1, 2]} ,\n{ } ] \n", true},
		{"scalars", `[1, "x", null, true]`, true},
		{"nested brackets in strings", `[{"a":"[{,}]"},{"b":"\"]"}]`, true},
		{"empty", `[]`, false},
		{"missing comma", `[{"a":1}{"b":2}]`, false},
		{"split literal", `[tru e]`, false},
		{"trailing comma", `[{"a":1},]`, false},
		{"unterminated string", `[{"a":"x}]`, false},
		// Cut-off bodies: the scanner must stop at the end of the body.
		{"unterminated top-level string", `["abc`, false},
		{"lone quote", `["`, false},
		{"escape at the end", `["\`, false},
		{"cut after an item", `[{"x":1},"`, false},
		{"text after the array", `[{"a":1}] x`, false},
		{"not an array", `{"a":1}`, false},
		{"null", `null`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// No spare capacity: a read past the end of the body panics
			// instead of passing unseen.
			body := make([]byte, len(tt.in))
			copy(body, tt.in)
			got, err := arrayItems(body)
			var want []json.RawMessage
			decErr := json.Unmarshal([]byte(tt.in), &want)
			if !tt.ok {
				if err == nil {
					t.Fatalf("accepted %q as %q", tt.in, got)
				}
				if decErr != nil && !strings.Contains(err.Error(), decErr.Error()) {
					t.Errorf("message %q does not carry the decoder's %q", err, decErr)
				}
				return
			}
			if err != nil || decErr != nil || len(got) != len(want) {
				t.Fatalf("got %q, %v; decoder %q, %v", got, err, want, decErr)
			}
			for i := range want {
				if string(got[i]) != string(want[i]) {
					t.Errorf("item %d: %s, decoder %s", i, got[i], want[i])
				}
			}
		})
	}
}

// Bulk create items take a map-free split; it must give the members the
// map path gives, in struct order, and leave every other object to it.
func TestRecordMembersMatchesMapPath(t *testing.T) {
	ti := infoOf(reflect.TypeOf(model.MemberDistributedLoad{}))
	tests := []struct {
		name, in string
		fast     bool
	}{
		{"plain", `{"member":3,"loadCase":1,"fyStart":-1.5}`, true},
		{"positions after their units", `{"finishPosition":2,"positionUnits":"Actual","startPosition":1}`, true},
		{"spaces and nesting", " {\n\"axes\" : \"a,}\" , \"loadCase\":[1, {\"x\":2}] } ", true},
		{"empty", `{}`, true},
		// Repeated names take the map path, where the last value wins
		// instead of both being merged.
		{"duplicate name", `{"fyStart":1,"fyStart":2}`, false},
		{"unknown name", `{"member":3,"bogus":1}`, false},
		{"escaped name", `{"memb\u0065r":3}`, false},
		{"not an object", `[1]`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, ok := recordMembers([]byte(tt.in), ti)
			if ok != tt.fast {
				t.Fatalf("fast path %v, want %v", ok, tt.fast)
			}
			if !ok {
				return
			}
			fields, err := splitFields([]byte(tt.in), "", false, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, err := fieldMembers(fields, ti, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(ms) != len(want) {
				t.Fatalf("%d members, map path %d", len(ms), len(want))
			}
			for i := range ms {
				if ms[i].f != want[i].f || string(ms[i].raw) != string(want[i].raw) {
					t.Errorf("member %d: %s=%s, map path %s=%s", i, ms[i].f.Name, ms[i].raw, want[i].f.Name, want[i].raw)
				}
			}
		})
	}
}
