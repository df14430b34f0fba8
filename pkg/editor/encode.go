package editor

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"sync"

	"github.com/gusset/gusset/pkg/model"
)

// The stored form of a record is compact(json.Marshal(record)): JSON
// without its zero members. Bulk creates encode tens of thousands of
// records, so appendRecord writes that form directly, walking a plan made
// once per type instead of marshalling and then scanning the result. Any
// value the plan does not cover is marshalled and compacted as before, so
// the bytes are the same either way (encode_test.go holds every stored
// record type to that).

// encField is one member of a struct as json.Marshal writes it.
type encField struct {
	prefix    string // `"name":`
	index     int
	kind      reflect.Kind
	omitEmpty bool
	nested    *encPlan // struct-valued fields
}

// encPlan is how to write one struct type; nil means json.Marshal must.
type encPlan struct {
	fields []encField
}

var encPlans sync.Map // reflect.Type → *encPlan (nil: marshal)

var marshalerType = reflect.TypeOf((*json.Marshaler)(nil)).Elem()

func planOf(t reflect.Type) *encPlan {
	if p, ok := encPlans.Load(t); ok {
		return p.(*encPlan)
	}
	p := makePlan(t)
	encPlans.Store(t, p)
	return p
}

// makePlan covers structs of plainly tagged, exported, non-embedded
// fields; anything json.Marshal treats specially is left to it.
func makePlan(t reflect.Type) *encPlan {
	if t.Kind() != reflect.Struct || t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) {
		return nil
	}
	p := &encPlan{}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tags := model.TagsOf(sf)
		if sf.Anonymous {
			return nil
		}
		if !sf.IsExported() || tags.JSONSkip {
			continue
		}
		name, opts := tags.JSONName, tags.JSONOptions
		if name == "" {
			name = sf.Name
		}
		if opts != "" && opts != "omitempty" || !plainName(name) {
			return nil
		}
		f := encField{prefix: `"` + name + `":`, index: i, kind: sf.Type.Kind(), omitEmpty: opts == "omitempty"}
		if f.kind == reflect.Struct {
			if f.nested = planOf(sf.Type); f.nested == nil {
				return nil
			}
		}
		p.fields = append(p.fields, f)
	}
	return p
}

// plainName reports whether a member name needs no escaping in JSON.
func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// encodeCompact returns the stored form of v, a struct value.
func encodeCompact(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	p := planOf(rv.Type())
	if p == nil {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		return compact(b), nil
	}
	return p.append(make([]byte, 0, 256), rv)
}

func (p *encPlan) append(dst []byte, v reflect.Value) ([]byte, error) {
	dst = append(dst, '{')
	first := true
	for i := range p.fields {
		f := &p.fields[i]
		fv := v.Field(f.index)
		mark := len(dst)
		if !first {
			dst = append(dst, ',')
		}
		dst = append(dst, f.prefix...)
		start := len(dst)
		var err error
		dst, err = f.appendValue(dst, fv)
		if err != nil {
			return nil, err
		}
		if len(dst) == start { // a zero member: drop its name too
			dst = dst[:mark]
			continue
		}
		first = false
	}
	return append(dst, '}'), nil
}

// appendValue appends the value of a member, or nothing when compact would
// drop the member (0, false, "") or json.Marshal would omit it.
func (f *encField) appendValue(dst []byte, v reflect.Value) ([]byte, error) {
	switch f.kind {
	case reflect.Float64, reflect.Float32:
		x := v.Float()
		if x == 0 && !math.Signbit(x) {
			return dst, nil
		}
		return appendFloat(dst, x, v.Type().Bits())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Int() == 0 {
			return dst, nil
		}
		return strconv.AppendInt(dst, v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if v.Uint() == 0 {
			return dst, nil
		}
		return strconv.AppendUint(dst, v.Uint(), 10), nil
	case reflect.Bool:
		if !v.Bool() {
			return dst, nil
		}
		return append(dst, "true"...), nil
	case reflect.String:
		s := v.String()
		if s == "" {
			return dst, nil
		}
		if plainName(s) {
			dst = append(dst, '"')
			dst = append(dst, s...)
			return append(dst, '"'), nil
		}
	case reflect.Struct:
		return f.nested.append(dst, v)
	}
	if f.omitEmpty && isEmpty(v) {
		return dst, nil
	}
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return nil, err
	}
	b = compact(b)
	if string(b) == `""` || string(b) == "0" || string(b) == "false" {
		return dst, nil // a zero that compact would have dropped
	}
	return append(dst, b...), nil
}

// appendFloat writes x exactly as encoding/json does.
func appendFloat(dst []byte, x float64, bits int) ([]byte, error) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil, fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(x, 'g', -1, bits))
	}
	format := byte('f')
	if a := math.Abs(x); a != 0 && (bits == 64 && (a < 1e-6 || a >= 1e21) || bits == 32 && (float32(a) < 1e-6 || float32(a) >= 1e21)) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, x, format, -1, bits)
	if format == 'e' {
		// Like encoding/json: e-09 becomes e-9.
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, nil
}

// isEmpty is encoding/json's test for omitempty.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return v.IsZero() && v.Kind() != reflect.Struct
}

// EncodeRecord returns the stored form of the record v (a struct value):
// a package that builds a job's rows outside the editor (a text file
// import) stores them exactly as the editor would.
func EncodeRecord(v any) ([]byte, error) { return encodeCompact(v) }
