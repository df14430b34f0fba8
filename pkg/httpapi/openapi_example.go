package httpapi

import (
	"encoding/json"
	"reflect"
	"slices"
)

// exampleOf builds the example of a request body of type t from the field
// definitions the routes validate with: a create body gives its required
// fields (and the fields whose definition carries an `example` tag); a
// merge body (partial) gives its keys and one field to change. Enum
// fields take their default, numbers a value inside their bounds, and an
// `example` tag overrides the value where a generic one would not do
// (two ends of a member must be different nodes). keys are the key
// fields: a bulk item carries them, and a merge body changes another
// field. It returns nil when no example can be
// built (an untyped body).
func exampleOf(t reflect.Type, partial bool, keys []string) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		return recordExample(t, partial, keys)
	case reflect.Slice:
		e := t.Elem()
		if e.Kind() == reflect.Map && len(keys) > 0 { // keys of a composite-key bulk delete
			m := map[string]any{}
			for _, k := range keys {
				m[k] = 1
			}
			return []any{m}
		}
		if v := exampleOf(e, partial, keys); v != nil {
			return []any{v}
		}
		return nil
	case reflect.Int, reflect.Int64, reflect.Int32:
		return 1
	case reflect.Float64:
		return 1.0
	case reflect.String:
		return "example"
	case reflect.Bool:
		return true
	}
	return nil
}

func recordExample(t reflect.Type, partial bool, keys []string) any {
	if t == timeType {
		return nil
	}
	info := infoOf(t)
	out := map[string]any{}
	writable := func(f *fieldInfo) bool { return !f.ReadOnly && !slices.Contains(keys, f.Name) }
	for _, k := range keys {
		if f := info.byName[k]; f != nil {
			out[k] = fieldExample(t, f, partial)
		}
	}
	if partial {
		// One field to change: the first required one, else the first.
		pick := slices.IndexFunc(info.fields, func(f *fieldInfo) bool { return writable(f) && f.Required })
		if pick < 0 {
			pick = slices.IndexFunc(info.fields, writable)
		}
		if pick >= 0 {
			f := info.fields[pick]
			out[f.Name] = fieldExample(t, f, partial)
		}
		return out
	}
	for _, f := range info.fields {
		if writable(f) && (f.Required || f.Example != "") {
			out[f.Name] = fieldExample(t, f, partial)
		}
	}
	if len(out) == 0 {
		// Nothing is required: show the first two fields one may give.
		for _, f := range info.fields {
			if writable(f) && len(out) < 2 {
				if v := fieldExample(t, f, partial); v != nil {
					out[f.Name] = v
				}
			}
		}
	}
	return out
}

// fieldExample is the example value of one field of the record type t.
func fieldExample(t reflect.Type, f *fieldInfo, partial bool) any {
	if tag := f.Example; tag != "" {
		var v any
		if json.Unmarshal([]byte(tag), &v) == nil {
			return v
		}
		return tag
	}
	if ids := unitIDs(t, f.Name); ids != nil {
		return ids[0]
	}
	switch {
	case f.Enum != nil:
		return f.Enum[0]
	case f.nested != nil:
		return recordExample(f.Type, partial, nil)
	case f.columns != nil: // a table: rows of [x, y], the first x zero
		return map[string]any{"rows": [][]float64{{0, 0}, {1, 1}}}
	case f.Type.Kind() == reflect.Float64:
		return numberExample(f)
	}
	return exampleOf(f.Type, partial, nil)
}

// numberExample picks a number inside the field's bounds.
func numberExample(f *fieldInfo) float64 {
	switch lo, hi := f.Min, f.Max; {
	case lo != nil && hi != nil:
		return (*lo + *hi) / 2
	case lo != nil:
		return *lo + 1
	case hi != nil:
		return *hi - 1
	}
	return 1
}
