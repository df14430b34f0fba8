package httpapi

// This file is the hand-written JSON scanner of request bodies: it cuts
// objects and arrays into their members without building values, finds a
// repeated member name, and decodes plain scalars in place. Bulk bodies of
// 10,000 rows are mostly this work, which encoding/json does several times
// slower; everything the scanner declines goes to encoding/json, which also
// words the errors. It is fuzzed against encoding/json (fields_fuzz_test.go).

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
)

// duplicateName returns the first member name of the JSON object raw that
// appears twice (after unescaping), or "". It reads only the top level;
// nested objects are checked when they are merged.
func duplicateName(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return ""
		}
		name, _ := t.(string)
		if seen[name] {
			return name
		}
		seen[name] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return ""
		}
	}
	return ""
}

// splitArray cuts a JSON array into its elements, checking only the text
// between them; the caller checks each element. It reports false for
// anything but an array.
func splitArray(b []byte) ([][]byte, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	var out [][]byte
	if i = skipSpace(b, i+1); i < len(b) && b[i] == ']' {
		return out, skipSpace(b, i+1) == len(b)
	}
	for i < len(b) {
		end := valueEnd(b, i)
		if end == i {
			return nil, false
		}
		out = append(out, b[i:end])
		i = skipSpace(b, end)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == ']':
			return out, skipSpace(b, i+1) == len(b)
		default:
			return nil, false
		}
	}
	return nil, false
}

// splitObject splits a valid JSON object into its members. It reports
// false for escaped member names, which the decoder must unescape. Names
// of ti's fields (ti may be nil) reuse the field's name string. A name
// given twice keeps its last value, as in the decoder, and is returned as
// dup (the first such name) by splitObjectDup.
func splitObject(b []byte, ti *typeInfo) (map[string]json.RawMessage, bool) {
	m, _, ok := splitObjectDup(b, ti)
	return m, ok
}

func splitObjectDup(b []byte, ti *typeInfo) (m map[string]json.RawMessage, dup string, ok bool) {
	m = make(map[string]json.RawMessage, 8)
	ok = eachMember(b, func(name, raw []byte) bool {
		key := ""
		if f, ok := ti.field(name); ok {
			key = f.Name
		} else {
			key = string(name)
		}
		if _, seen := m[key]; seen && dup == "" {
			dup = key
		}
		m[key] = raw
		return true
	})
	return m, dup, ok
}

// eachMember calls fn with the name and value of each member of the valid
// JSON object b, in order, until fn returns false. It reports false when
// fn did, for anything but an object, and for escaped names, which only
// the decoder unescapes.
func eachMember(b []byte, fn func(name, raw []byte) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	if i = skipSpace(b, i+1); i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) && b[i] == '"' {
		j := i + 1
		for j < len(b) && b[j] != '"' {
			if b[j] == '\\' {
				return false
			}
			j++
		}
		if j >= len(b) {
			return false // unterminated name
		}
		name := b[i+1 : j]
		if i = skipSpace(b, j+1); i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		end := valueEnd(b, i)
		if end <= i {
			return false // no value
		}
		if !fn(name, b[i:end]) {
			return false
		}
		if i = skipSpace(b, end); i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		return i < len(b) && b[i] == '}'
	}
	return false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// valueEnd returns the index just after the valid JSON value at b[i]; on
// text that is not valid JSON it returns an index no greater than len(b).
func valueEnd(b []byte, i int) int {
	depth := 0
	for j := i; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			for j++; j < len(b) && b[j] != '"'; j++ {
				if b[j] == '\\' {
					j++
				}
			}
			if j >= len(b) {
				return len(b) // unterminated: the caller's check refuses it
			}
			if depth == 0 {
				return j + 1
			}
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth == 0 {
				return j
			}
			if depth--; depth == 0 {
				return j + 1
			}
		case depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return j
		}
	}
	return len(b)
}

// decodeScalar decodes the common scalar values (plain numbers, strings
// without escapes, booleans) straight into v, sparing encoding/json's
// per-call overhead on bulk bodies of 10,000 rows. It reports false when
// the value needs the general decoder, which then also explains errors.
// raw is already known to be one valid JSON value.
func decodeScalar(raw []byte, v reflect.Value) bool {
	if len(raw) == 0 {
		return false
	}
	switch v.Kind() {
	case reflect.Float64:
		if !plainNumber(raw) {
			return false
		}
		x, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return false
		}
		v.SetFloat(x)
		return true
	case reflect.Int64:
		for i, c := range raw {
			if !(c >= '0' && c <= '9' || c == '-' && i == 0) {
				return false
			}
		}
		x, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return false
		}
		v.SetInt(x)
		return true
	case reflect.String:
		if raw[0] != '"' || len(raw) < 2 {
			return false
		}
		body := raw[1 : len(raw)-1]
		for _, c := range body {
			if c == '\\' || c < 0x20 || c >= 0x80 {
				return false
			}
		}
		v.SetString(string(body))
		return true
	case reflect.Bool:
		switch string(raw) {
		case "true":
			v.SetBool(true)
			return true
		case "false":
			v.SetBool(false)
			return true
		}
	}
	return false
}

// plainNumber reports whether raw is a JSON number (which ParseFloat
// reads the same way); anything else goes to the general decoder.
func plainNumber(raw []byte) bool {
	for i, c := range raw {
		switch {
		case c >= '0' && c <= '9', c == '.', c == 'e', c == 'E', c == '+':
		case c == '-' && (i == 0 || raw[i-1] == 'e' || raw[i-1] == 'E'):
		default:
			return false
		}
	}
	return raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9'
}
