package httpapi

import (
	"reflect"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// Inputs the fuzzers found, kept as regression cases of a normal test:
// the object scanner refuses cut-off and malformed objects without
// panicking or reading past its input.
func TestEachMemberCutOffInput(t *testing.T) {
	ti := infoOf(reflect.TypeOf(model.MemberDistributedLoad{}))
	for _, in := range []string{
		`{ "`, // fuzz: slice bounds out of range [5:3]
		`{"a`, `{"`, `{"a"`, `{"a" `, `{"a":`, `{"a": `, `{"a" 1}`, `{"a":1,"`, `{"a":1, "b`,
		`{"a":}`, `{"a":,"b":1}`, `{"a"1}`, `{"member":`,
	} {
		t.Run(in, func(t *testing.T) {
			b := []byte(in)[:len(in):len(in)] // no spare capacity: a read past the end panics
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			if eachMember(b, func(name, raw []byte) bool { return true }) {
				t.Errorf("eachMember accepted %q", in)
			}
			if _, ok := splitObject(b, ti); ok {
				t.Errorf("splitObject accepted %q", in)
			}
			if _, ok := recordMembers(b, ti); ok {
				t.Errorf("recordMembers accepted %q", in)
			}
			if _, err := splitFields(b, "", false, ti); err == nil {
				t.Errorf("splitFields accepted %q", in)
			}
		})
	}
}
