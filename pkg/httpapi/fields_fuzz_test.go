package httpapi

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/gusset/gusset/pkg/model"
)

// Fuzz tests of the hand-written JSON scanner of fields.go, each checked
// against encoding/json. `go test` runs their seeds; `make fuzz` fuzzes
// them. Every input is copied into a slice without spare capacity, so that
// a read past its end panics instead of passing unseen.

// jsonSeeds are valid and tricky bodies shared by the scanner fuzzers.
var jsonSeeds = []string{
	`{}`, ` { } `, `{"a":1}`, `{"a":1,"a":2}`, `{"a":[]}`, `{"a":{}}`, `{"":0}`,
	`{"a":1,"b":"x,y}","c":[1,{"d":[2]}],"e":{"f":null},"g":true,"h":-1.5e3}`,
	"{\n\t\"a\" : 1 ,\r\n \"b\" : \"q\\\"z\" }", `{"a":"\\"}`, `{"a\u0062":1}`, `{"a\\":1}`,
	`{"member":3,"loadCase":1,"fyStart":-1.5}`, `{"fyStart":1,"fyStart":2}`,
	`{"finishPosition":2,"positionUnits":"Actual","startPosition":1}`,
	" {\n\"axes\" : \"a,}\" , \"loadCase\":[1, {\"x\":2}] } ", `{"member":3,"bogus":1}`,
	`{"a":"]}\"[{"}`, `{"a":"` + "\xff\xfe" + `"}`, `{"` + "\xff" + `":1}`, `{"é":"ü"}`,
	`{"a":1e400}`, `{"a":-0}`, `{"a":0.5E-3}`, `{"a":"\u0000"}`,
	`[]`, ` [ ] `, `[1]`, `[{"a":1},{"b":"]"}]`, " [ {\"a\" : [1, 2]} ,\n{ } ] \n", `[1, "x", null, true]`,
	`[{"a":"[{,}]"},{"b":"\"]"}]`, `[[[[]]]]`, `[{}{}]`, `[1 2]`, `[{"a":1}{"b":2}]`, `[tru e]`, `[{"a":1},]`,
	`[,1]`, `[{]`, `[}]`, `[1]]`, `[{"a":"x}]`, `["abc`, `["`, `["\`, `[{"x":1},"`, `[{"a":1}] x`, `[1"a"]`,
	`{"a":1`, `{"a`, `{"a":`, `{"a" 1}`, `{"a":1,}`, `{,}`, `{"a":1}}`, `{"a":tru}`, `{"a":1 2}`,
	`null`, `true`, `0`, `-`, `"x"`, ``, ` `, `{`, `[`, `"`, `\`,
}

func exactCopy(b []byte) []byte {
	out := make([]byte, len(b))
	copy(out, b)
	return out
}

func firstByte(b []byte) byte {
	if i := skipSpace(b, 0); i < len(b) {
		return b[i]
	}
	return 0
}

// FuzzSplitObject: whatever encoding/json accepts as an object, the
// scanner splits into the members the decoder finds, with the same raw
// values; whatever it refuses, splitFields (the entry point) refuses too.
func FuzzSplitObject(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	ti := infoOf(reflect.TypeOf(model.MemberDistributedLoad{}))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := exactCopy(data)
		isObject := json.Valid(b) && firstByte(b) == '{'
		fields, err := splitFields(b, "", false, nil)
		if !isObject {
			if err == nil {
				t.Fatalf("splitFields accepted %q, which encoding/json does not accept as an object: %q", b, fields)
			}
			if k := model.KindOf(err); k != model.KindValidation && k != model.KindMalformed {
				t.Fatalf("splitFields(%q): error of kind %d, want validation or malformed: %v", b, k, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("splitFields refused the object %q: %v", b, err)
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("decoder refused %q after json.Valid accepted it: %v", b, err)
		}
		// Known divergence: encoding/json replaces invalid UTF-8 in member
		// names with U+FFFD, the scanner keeps the bytes. Such names are
		// skipped (they reach no field: every field name is ASCII).
		namesUTF8 := true
		eachMember(b, func(name, _ []byte) bool {
			namesUTF8 = namesUTF8 && utf8.Valid(name)
			return true
		})
		count, escaped := decoderMembers(t, b)
		got, ok := splitObject(b, nil)
		switch {
		case ok == escaped:
			t.Fatalf("splitObject(%q) reported %v; the object has escaped names: %v", b, ok, escaped)
		case ok && namesUTF8:
			sameMembers(t, "splitObject", b, got, want)
		}
		if namesUTF8 {
			sameMembers(t, "splitFields", b, fields, want)
		}
		if ok {
			// Lending ti's field names must not change the split.
			withTI, ok2 := splitObject(b, ti)
			if !ok2 || !reflect.DeepEqual(map[string]json.RawMessage(withTI), map[string]json.RawMessage(got)) {
				t.Fatalf("splitObject(%q) with field names: %q (ok %v), without: %q", b, withTI, ok2, got)
			}
		}
		checkRecordMembers(t, b, ti, want, namesUTF8, count, escaped)
	})
}

// decoderMembers counts the members of the valid object b as the decoder
// reads them (repeats included) and tells whether any name, as written,
// holds an escape.
func decoderMembers(t *testing.T, b []byte) (count int, escaped bool) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		start := dec.InputOffset()
		if _, err := dec.Token(); err != nil { // the name
			t.Fatal(err)
		}
		name := bytes.TrimLeft(b[start:dec.InputOffset()], " \t\r\n,")
		if len(name) < 2 || name[0] != '"' || name[len(name)-1] != '"' {
			t.Fatalf("decoderMembers(%q): name read as %q", b, name)
		}
		escaped = escaped || bytes.IndexByte(name, '\\') >= 0
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
		count++
	}
	return count, escaped
}

// sameMembers compares a split with the decoder's: same names, and each
// raw value byte for byte (the decoder's RawMessage is the exact text of
// the value, as the scanner's slice must be).
func sameMembers(t *testing.T, what string, b []byte, got, want map[string]json.RawMessage) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s(%q): %d members %q, decoder %d %q", what, b, len(got), got, len(want), want)
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			t.Fatalf("%s(%q): no member %q; decoder has it as %s", what, b, k, w)
		}
		if !bytes.Equal(g, w) {
			t.Fatalf("%s(%q): member %q is %q, decoder %q", what, b, k, g, w)
		}
	}
}

// checkRecordMembers: the map-free split of bulk creates gives what the
// map path gives, and declines exactly the objects it documents: escaped,
// unknown or repeated names.
func checkRecordMembers(t *testing.T, b []byte, ti *typeInfo, want map[string]json.RawMessage, namesUTF8 bool, count int, escaped bool) {
	t.Helper()
	ms, ok := recordMembers(b, ti)
	known := true
	for k := range want {
		if _, ok := ti.byName[k]; !ok {
			known = false
		}
	}
	// A name with invalid UTF-8 is no field name (they are all ASCII).
	fast := known && count == len(want) && !escaped && namesUTF8
	if ok != fast {
		t.Fatalf("recordMembers(%q) took the fast path: %v, want %v (known names %v, %d members, %d distinct, escaped %v)",
			b, ok, fast, known, count, len(want), escaped)
	}
	if !ok {
		return
	}
	wantMs, err := fieldMembers(want, ti, "")
	if err != nil {
		t.Fatalf("recordMembers accepted %q, the map path refuses it: %v", b, err)
	}
	if len(ms) != len(wantMs) {
		t.Fatalf("recordMembers(%q): %d members, map path %d", b, len(ms), len(wantMs))
	}
	for i := range ms {
		if ms[i].f != wantMs[i].f || !bytes.Equal(ms[i].raw, wantMs[i].raw) {
			t.Fatalf("recordMembers(%q) member %d: %s=%s, map path %s=%s", b, i, ms[i].f.Name, ms[i].raw, wantMs[i].f.Name, wantMs[i].raw)
		}
	}
}

// FuzzEachMemberAnyInput: the object scanner (eachMember, and splitObject
// and recordMembers over it) never panics or reads out of range, whatever
// the bytes. Its callers hand it checked JSON only, but its contract says
// it reports false "for anything but an object", not that it crashes.
func FuzzEachMemberAnyInput(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	ti := infoOf(reflect.TypeOf(model.MemberDistributedLoad{}))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := exactCopy(data)
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("eachMember(%q) panicked: %v", b, r)
			}
		}()
		eachMember(b, func(name, raw []byte) bool {
			if len(name) > len(b) || len(raw) > len(b) {
				t.Fatalf("eachMember(%q): slice beyond the input: name %q raw %q", b, name, raw)
			}
			return true
		})
		splitObject(b, ti)
		recordMembers(b, ti)
	})
}

// FuzzSplitArray: a bulk body is cut as encoding/json cuts it. Any valid
// array splits into the decoder's elements, byte for byte; a body the
// scanner splits into valid items is a valid array; arrayItems (the entry
// point) refuses exactly what the decoder refuses, and empty arrays.
func FuzzSplitArray(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b := exactCopy(data)
		var want []json.RawMessage
		decErr := json.Unmarshal(b, &want)
		isArray := decErr == nil && firstByte(b) == '['
		items, ok := splitArray(b)
		for _, it := range items {
			if len(it) == 0 {
				t.Fatalf("splitArray(%q): an empty item in %q", b, items)
			}
		}
		if isArray {
			if !ok {
				t.Fatalf("splitArray declined the valid array %q", b)
			}
			sameItems(t, "splitArray", b, items, want)
		} else if ok {
			allValid := true
			for _, it := range items {
				allValid = allValid && json.Valid(it)
			}
			if allValid {
				t.Fatalf("splitArray accepted %q, which encoding/json refuses (%v), as valid items %q", b, decErr, items)
			}
		}
		got, err := arrayItems(b)
		switch {
		case isArray && len(want) > 0:
			if err != nil {
				t.Fatalf("arrayItems refused %q: %v", b, err)
			}
			sameItems(t, "arrayItems", b, got, want)
		case err == nil:
			t.Fatalf("arrayItems accepted %q (decoder: %v, %d items) as %q", b, decErr, len(want), got)
		case model.KindOf(err) != model.KindValidation:
			t.Fatalf("arrayItems(%q): error of kind %d, want validation: %v", b, model.KindOf(err), err)
		}
	})
}

func sameItems(t *testing.T, what string, b []byte, got [][]byte, want []json.RawMessage) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s(%q): %d items %q, decoder %d %q", what, b, len(got), got, len(want), want)
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("%s(%q): item %d is %q, decoder %q", what, b, i, got[i], want[i])
		}
	}
}

// FuzzValueEnd: valueEnd finds the end of any valid JSON value wherever it
// stands (behind a prefix, before any delimiter), and on any text returns
// an index between its start and the end of the input.
func FuzzValueEnd(f *testing.F) {
	for i, s := range jsonSeeds {
		f.Add([]byte(s), uint16(i))
	}
	f.Fuzz(func(t *testing.T, data []byte, at uint16) {
		b := exactCopy(data)
		i := int(at) % (len(b) + 1)
		if e := valueEnd(b, i); e < i || e > len(b) {
			t.Fatalf("valueEnd(%q, %d) = %d, outside [%d, %d]", b, i, e, i, len(b))
		}
		v := bytes.TrimLeft(bytes.TrimRight(b, " \t\r\n"), " \t\r\n")
		if !json.Valid(v) {
			return
		}
		for _, pre := range []string{"", "[", `{"k":`, "[1, "} {
			for _, post := range []string{"", ",", "]", "}", " ", "\t,", "\n]", "\r}", `,"x"`} {
				in := exactCopy([]byte(pre + string(v) + post))
				if e := valueEnd(in, len(pre)); e != len(pre)+len(v) {
					t.Fatalf("valueEnd(%q, %d) = %d, want %d (the end of %q)", in, len(pre), e, len(pre)+len(v), v)
				}
			}
		}
	})
}

// FuzzDecodeScalar: the fast scalar decoder agrees with encoding/json on
// every valid JSON value it takes, declines what it cannot take, and
// never panics on any text.
func FuzzDecodeScalar(f *testing.F) {
	for _, s := range []string{`0`, `-0`, `1`, `-1`, `1.5`, `-1.5e3`, `1E+2`, `1e-400`, `1e400`, `-1e400`,
		`9223372036854775807`, `9223372036854775808`, `-9223372036854775808`, `-9223372036854775809`,
		`0.1`, `123456789012345678901234567890`, `""`, `"abc"`, `"a\"b"`, `"a\u0062"`, `"é"`, `"` + "\x7f" + `"`,
		`true`, `false`, `null`, `[]`, `{}`, `-`, `.5`, `1.`, `01`, `+1`, `1e`, `--1`, `1-2`, `"`, `"a`, ``, `0x10`,
		`Inf`, `NaN`, `1_000`, `1e5`, `1.0`} {
		f.Add([]byte(s))
	}
	kinds := []reflect.Type{reflect.TypeOf(float64(0)), reflect.TypeOf(int64(0)), reflect.TypeOf(""), reflect.TypeOf(false)}
	f.Fuzz(func(t *testing.T, data []byte) {
		raw := exactCopy(data)
		valid := json.Valid(raw) && len(bytes.TrimSpace(raw)) == len(raw)
		if valid && plainNumber(raw) {
			var n json.Number
			if err := json.Unmarshal(raw, &n); err != nil {
				t.Fatalf("plainNumber(%q) is true, but it is no JSON number: %v", raw, err)
			}
		}
		for _, typ := range kinds {
			got := reflect.New(typ).Elem()
			if !decodeScalar(raw, got) || !valid {
				continue // declined, or outside its contract (and did not panic)
			}
			want := reflect.New(typ)
			if err := json.Unmarshal(raw, want.Interface()); err != nil {
				t.Fatalf("decodeScalar took %q as %s = %v; encoding/json refuses it: %v", raw, typ, got, err)
			}
			if !reflect.DeepEqual(got.Interface(), want.Elem().Interface()) {
				t.Fatalf("decodeScalar(%q) as %s = %#v, encoding/json %#v", raw, typ, got.Interface(), want.Elem().Interface())
			}
		}
	})
}
