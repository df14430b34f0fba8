package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// renameValue renames the object keys of a decoded JSON value, the way a
// decoder sees what keyRenamer does to the text: the reference the
// scanner is checked against.
func renameValue(v any, names map[string]string, values map[string]bool) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			if s, ok := e.(string); ok && values[k] && names[s] != "" {
				e = names[s]
			}
			if to, ok := names[k]; ok {
				k = to
			}
			out[k] = renameValue(e, names, values)
		}
		return out
	case []any:
		for i := range t {
			t[i] = renameValue(t[i], names, values)
		}
	}
	return v
}

// renameInChunks renames p through a renamingReader that reads the source
// one byte at a time, so that every state of the scanner meets a chunk
// boundary.
func renameInChunks(t *testing.T, p []byte, names map[string]string, values map[string]bool) []byte {
	t.Helper()
	out, err := io.ReadAll(newRenamingReader(iotest.OneByteReader(bytes.NewReader(p)), names, values))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestKeyRenamer(t *testing.T) {
	names := map[string]string{"loadCase": "case", "loadCasesNotAnalyzed": "casesNotAnalyzed"}
	values := map[string]bool{"jsonName": true}
	for _, c := range []struct{ name, in, want string }{
		{"a key", `{"loadCase":1,"node":2}`, `{"case":1,"node":2}`},
		{"values stay", `{"title":"loadCase","loadCase":"loadCase"}`, `{"title":"loadCase","case":"loadCase"}`},
		{"nested and in arrays", `[{"a":{"loadCase":1}},{"b":[{"loadCase":2}]}]`, `[{"a":{"case":1}},{"b":[{"case":2}]}]`},
		{"an array value then a key", `{"x":[1,{"loadCase":3}],"loadCase":4}`, `{"x":[1,{"case":3}],"case":4}`},
		{"escaped quotes in a value", `{"t":"a\"loadCase\":","loadCase":1}`, `{"t":"a\"loadCase\":","case":1}`},
		{"an escaped key", `{"\u006coadCase":1}`, `{"case":1}`},
		{"whitespace", "{ \"loadCase\" : 1 ,\n \"loadCasesNotAnalyzed\" :\"1-3\" }", "{ \"case\" : 1 ,\n \"casesNotAnalyzed\" :\"1-3\" }"},
		{"a long key passes", `{"` + strings.Repeat("k", 100) + `":1,"loadCase":2}`, `{"` + strings.Repeat("k", 100) + `":1,"case":2}`},
		{"not JSON passes", `loadCase: "loadCase"}`, `loadCase: "loadCase"}`},
		{"a field name value", `{"fields":[{"jsonName":"loadCase","units":"loadCase"},{"jsonName" : "node"}]}`,
			`{"fields":[{"jsonName":"case","units":"loadCase"},{"jsonName" : "node"}]}`},
		{"not a field name value", `{"jsonName":["loadCase"],"x":"loadCase"}`, `{"jsonName":["loadCase"],"x":"loadCase"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := renameAll([]byte(c.in), names, nil, values)
			if err != nil || string(got) != c.want {
				t.Errorf("renameAll(%s) = %s, %v; want %s", c.in, got, err, c.want)
			}
			if chunked := renameInChunks(t, []byte(c.in), names, values); string(chunked) != c.want {
				t.Errorf("byte by byte: %s", chunked)
			}
		})
	}
	_, err := renameAll([]byte(`{"a":[{"loadCase":1}]}`), nil, map[string]bool{"loadCase": true}, nil)
	var rk *refusedKeyError
	if !errors.As(err, &rk) || rk.key != "loadCase" {
		t.Errorf("a refused key: %v", err)
	}
	if _, err := renameAll([]byte(`{"a":"loadCase"}`), nil, map[string]bool{"loadCase": true}, nil); err != nil {
		t.Errorf("a refused name as a value: %v", err)
	}
}

// The scanner renames exactly the keys a decoder sees, whatever the text:
// for valid JSON the renamed text decodes to the decoded input with its
// keys renamed, in one piece or byte by byte; invalid JSON stays invalid.
// Its state is bounded: the depth past maxRenameDepth and keys past
// maxRenamedKey pass through.
func FuzzKeyRenamer(f *testing.F) {
	for _, s := range []string{
		`{"loadCase":1}`, `[{"loadCase":1,"x":{"loadCase":[{"loadCase":2}]}}]`, `{"a":"\"loadCase\""}`,
		`{"\u006coadCase":1}`, `"loadCase"`, `{"loadCase"`, `[[[[{"loadCase":1}]]]]`, `{"loadCasesNotAnalyzed":"1-3","warnings":{}}`,
		`{"a\\":1,"loadCase":2}`, `{"jsonName":"loadCase","f":[{"jsonName":"case"}]}`, ``, `{`, `}`, `{"a":1,,"loadCase":2}`,
	} {
		f.Add([]byte(s))
	}
	names := map[string]string{"loadCase": "case", "loadCasesNotAnalyzed": "casesNotAnalyzed", "case": "loadCase"}
	values := map[string]bool{"jsonName": true}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := renameAll(in, names, nil, values)
		if err != nil {
			t.Fatalf("no key is refused, got %v", err)
		}
		if chunked := renameInChunks(t, in, names, values); !bytes.Equal(chunked, out) {
			t.Fatalf("byte by byte %q, in one piece %q", chunked, out)
		}
		var want any
		if json.Unmarshal(in, &want) != nil {
			if json.Valid(out) && !json.Valid(in) {
				t.Fatalf("invalid %q became valid %q", in, out)
			}
			return
		}
		var got any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("valid %q became invalid %q: %v", in, out, err)
		}
		if want = renameValue(want, names, values); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q renamed to %q: decodes to %v, want %v", in, out, got, want)
		}
	})
}
