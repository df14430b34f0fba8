package httpapi

import (
	"encoding/json"
	"reflect"
	"testing"
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
			got, ok := splitObject([]byte(in))
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
	if _, ok := splitObject([]byte(`{"a\u0062":1}`)); ok {
		t.Error("an escaped name must go to the decoder")
	}
}
