package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gusset/gusset/pkg/model"
)

// This file decodes clients' JSON into model records field by field.
// Model records carry struct tags (see pkg/model): `ro` marks read-only
// fields, `req` required ones and `enum` the allowed values; units.go
// scales the numbers.

// fieldInfo describes one JSON field of a record type.
type fieldInfo struct {
	name     string
	index    int
	typ      reflect.Type
	unit     unitExpr   // numbers
	columns  []unitExpr // tables: one per column
	readOnly bool
	required bool
	// positional fields are lengths unless the record says its positions
	// are in percent (model.Positional).
	positional bool
	enum       []string
	min, max   *float64 // bounds for metadata (SI; only 0 or unitless bounds are tagged)
	exclusive  bool
	nested     *typeInfo // struct-valued fields merge field by field
}

type typeInfo struct {
	fields   []*fieldInfo
	byName   map[string]*fieldInfo
	required []*fieldInfo
}

// field looks a member name up without making a string of it.
func (ti *typeInfo) field(name []byte) (*fieldInfo, bool) {
	if ti == nil {
		return nil, false
	}
	f, ok := ti.byName[string(name)]
	return f, ok
}

var typeCache sync.Map // reflect.Type → *typeInfo

func infoOf(t reflect.Type) *typeInfo {
	if ti, ok := typeCache.Load(t); ok {
		return ti.(*typeInfo)
	}
	ti := &typeInfo{byName: map[string]*fieldInfo{}}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name := strings.Split(sf.Tag.Get("json"), ",")[0]
		if name == "" || name == "-" || !sf.IsExported() {
			continue
		}
		fi := &fieldInfo{name: name, index: i, typ: sf.Type, readOnly: sf.Tag.Get("ro") == "true",
			required: sf.Tag.Get("req") == "true", positional: sf.Tag.Get("positional") == "true"}
		if u := sf.Tag.Get("unit"); u != "" {
			if strings.Contains(u, ",") {
				for _, c := range strings.Split(u, ",") {
					fi.columns = append(fi.columns, parseUnitExpr(c))
				}
			} else {
				fi.unit = parseUnitExpr(u)
			}
		}
		if e := sf.Tag.Get("enum"); e != "" {
			fi.enum = strings.Split(e, "|")
		}
		fi.min, fi.max = tagFloat(sf.Tag.Get("min")), tagFloat(sf.Tag.Get("max"))
		fi.exclusive = sf.Tag.Get("exclusive") == "true"
		if sf.Type.Kind() == reflect.Struct {
			fi.nested = infoOf(sf.Type)
		}
		ti.fields = append(ti.fields, fi)
		ti.byName[name] = fi
		if fi.required {
			ti.required = append(ti.required, fi)
		}
	}
	typeCache.Store(t, ti)
	return ti
}

func tagFloat(s string) *float64 {
	if s == "" {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic("bad bound tag " + s)
	}
	return &v
}

// objectFields splits a JSON object into its members, keeping their order
// of appearance irrelevant and rejecting anything but an object.
func objectFields(raw []byte, path string) (map[string]json.RawMessage, error) {
	return splitFields(raw, path, false, nil)
}

// splitFields is objectFields for raw already known to be valid JSON when
// valid is true, as the items of a checked bulk body are. ti, when known,
// lends its field names to the map, sparing a string per member.
func splitFields(raw []byte, path string, valid bool, ti *typeInfo) (map[string]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		where := path
		if where == "" {
			where = "the body"
		}
		return nil, fieldErr(path, "%s must be a JSON object", where)
	}
	// Valid JSON with plain member names is split by a scanner, several
	// times faster than the reflective decoder on the small objects of a
	// bulk body; anything else takes the decoder, which also explains
	// errors.
	if valid || json.Valid(raw) {
		if m, ok := splitObject(raw, ti); ok {
			return m, nil
		}
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, &model.Error{Kind: model.KindMalformed, Msg: "malformed JSON: " + err.Error(), Err: err}
	}
	return m, nil
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
// of ti's fields (ti may be nil) reuse the field's name string.
func splitObject(b []byte, ti *typeInfo) (map[string]json.RawMessage, bool) {
	m := make(map[string]json.RawMessage, 8)
	ok := eachMember(b, func(name, raw []byte) bool {
		if f, ok := ti.field(name); ok {
			m[f.name] = raw
		} else {
			m[string(name)] = raw
		}
		return true
	})
	return m, ok
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
		name := b[i+1 : j]
		i = skipSpace(b, skipSpace(b, j+1)+1) // past ':'
		end := valueEnd(b, i)
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

func fieldErr(field, format string, args ...any) *model.Error {
	return model.Invalid(field, format, args...)
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// merge decodes the JSON object raw, field by field, into the SI record at
// dst: supplied fields are converted from job units and overwrite, omitted
// fields stay. Unknown and read-only fields, wrong types and values outside
// an enum are validation errors that name the field (path is its prefix).
func merge(dst reflect.Value, raw []byte, u model.Units, path string) error {
	fields, err := objectFields(raw, path)
	if err != nil {
		return err
	}
	return mergeFields(dst, fields, u, path)
}

func mergeFields(dst reflect.Value, fields map[string]json.RawMessage, u model.Units, path string) error {
	dst = reflect.Indirect(dst)
	ms, err := fieldMembers(fields, infoOf(dst.Type()), path)
	if err != nil {
		return err
	}
	return mergeMembers(dst, ms, u, path)
}

// member is one member of a JSON object that names a field of a record.
type member struct {
	f   *fieldInfo
	raw json.RawMessage
}

// fieldMembers lists the members of fields in struct order, or names the
// first that is no field of ti.
func fieldMembers(fields map[string]json.RawMessage, ti *typeInfo, path string) ([]member, error) {
	ms := make([]member, 0, len(fields))
	for name, raw := range fields {
		f, ok := ti.byName[name]
		if !ok {
			p := joinPath(path, name)
			return nil, &model.Error{Kind: model.KindValidation, Msg: fmt.Sprintf("unknown property %q", p),
				Fields: []model.FieldError{{Field: p, Message: "unknown property"}}}
		}
		ms = append(ms, member{f, raw})
	}
	sortMembers(ms)
	return ms, nil
}

// sortMembers puts members in struct order, not the order of the JSON:
// positionUnits comes before the positions whose unit it decides. Of two
// members with one name the later stays later, so it wins, as in a map.
func sortMembers(ms []member) {
	slices.SortStableFunc(ms, func(a, b member) int { return a.f.index - b.f.index })
}

// recordMembers splits a valid JSON object into members naming fields of
// ti, in struct order, without a map: the path of bulk create bodies. It
// reports false for escaped, unknown or repeated names (and anything but
// an object), which the map path decodes and explains.
func recordMembers(b []byte, ti *typeInfo) ([]member, bool) {
	ms := make([]member, 0, 8)
	ok := eachMember(b, func(name, raw []byte) bool {
		f, known := ti.field(name)
		// A repeated name goes to the map path too: there the last value
		// replaces the first, where merging both would mix them.
		if !known || hasMember(ms, f) {
			return false
		}
		ms = append(ms, member{f, raw})
		return true
	})
	if !ok {
		return nil, false
	}
	sortMembers(ms)
	return ms, true
}

// mergeMembers merges the members, in struct order, into the record dst.
func mergeMembers(dst reflect.Value, ms []member, u model.Units, path string) error {
	for _, m := range ms {
		f, raw := m.f, m.raw
		name := f.name
		p := joinPath(path, name)
		if f.readOnly {
			return fieldErr(p, "%s is read-only", p)
		}
		fv := dst.Field(f.index)
		if f.typ == directionType {
			if err := mergeDirection(fv, raw, u, p); err != nil {
				return err
			}
			continue
		}
		if f.nested != nil {
			if err := merge(fv, raw, u, p); err != nil {
				return err
			}
			continue
		}
		// Plain scalars are decoded in place; anything else into a fresh
		// value, so that a pointer or slice is replaced, not merged into.
		// On an error the caller drops the whole record, so a value left
		// half-checked in place does no harm.
		v, fresh := fv, !decodeScalar(raw, fv)
		if fresh {
			v = reflect.New(f.typ).Elem()
			if err := json.Unmarshal(raw, v.Addr().Interface()); err != nil {
				return decodeFieldErr(p, f.typ, raw, err)
			}
		}
		if f.enum != nil {
			s := v.String()
			if !contains(f.enum, s) {
				return fieldErr(p, "%s must be one of %s, got %q", p, strings.Join(f.enum, ", "), s)
			}
		}
		if string(raw) == "null" && f.typ.Kind() != reflect.Pointer && f.typ.Kind() != reflect.Slice {
			return fieldErr(p, "%s must not be null", p)
		}
		if !(f.positional && isPercent(dst)) {
			scaleField(f, v, u, true)
		}
		// Checked in SI, after scaling: a number fine in one unit may not
		// be in another.
		if err := checkMagnitude(v, p); err != nil {
			return err
		}
		if fresh {
			fv.Set(v)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// checkMagnitude rejects numbers that are not finite or beyond
// model.MaxMagnitude, in a value or, for tables, in every cell: they would
// poison an analysis or fail to encode.
func checkMagnitude(v reflect.Value, path string) error {
	bad := func(x float64) bool { return math.IsNaN(x) || math.Abs(x) > model.MaxMagnitude }
	switch {
	case v.Kind() == reflect.Float64 && bad(v.Float()):
		return fieldErr(path, "%s must be a finite number of magnitude at most %g in SI units, got %g", path, model.MaxMagnitude, v.Float())
	case v.Kind() == reflect.Pointer && !v.IsNil():
		if t, ok := v.Interface().(*model.Table); ok {
			for i, row := range t.Rows {
				for _, x := range row {
					if bad(x) {
						return fieldErr(path, "%s row %d: values must be finite and of magnitude at most %g in SI units", path, i, model.MaxMagnitude)
					}
				}
			}
		}
	}
	return nil
}

func decodeFieldErr(path string, t reflect.Type, raw []byte, err error) error {
	// A type's own UnmarshalJSON may refuse a value with its reason
	// (model.SolverType explains its integer codes): keep that message.
	if me := (*model.Error)(nil); errors.As(err, &me) && me.Kind == model.KindValidation {
		return fieldErr(path, "%s", me.Msg)
	}
	var typeErr *json.UnmarshalTypeError
	if msg := err.Error(); !errors.As(err, &typeErr) && strings.Contains(msg, "unknown field ") {
		name := strings.Trim(msg[strings.Index(msg, "unknown field ")+len("unknown field "):], `"`)
		return fieldErr(path, "%s: unknown property %q", path, name)
	}
	want := jsonTypeName(t.Kind().String())
	if t.Kind() == reflect.Pointer {
		want = jsonTypeName(t.Elem().Kind().String())
	}
	got := "value"
	if len(raw) > 0 {
		switch raw[0] {
		case '"':
			got = "string"
		case '{':
			got = "object"
		case '[':
			got = "array"
		case 't', 'f':
			got = "boolean"
		case 'n':
			got = "null"
		default:
			got = "number"
		}
	}
	if got == "number" && (t.Kind() == reflect.Int64 || t.Kind() == reflect.Int) {
		return fieldErr(path, "%s: expected an integer, got %s", path, string(raw))
	}
	if got == "number" && t.Kind() == reflect.Float64 {
		return fieldErr(path, "%s: the number %s is out of range", path, string(raw))
	}
	return &model.Error{Kind: model.KindValidation, Msg: fmt.Sprintf("%s: expected %s, got JSON %s", path, want, got),
		Fields: []model.FieldError{{Field: path, Message: fmt.Sprintf("expected %s", want)}}, Err: err}
}

// missingRequired names the first required field of ti that a create
// body does not have.
func missingRequired(ti *typeInfo, has func(*fieldInfo) bool) error {
	for _, f := range ti.required {
		if !has(f) {
			return fieldErr(f.name, "%s is required", f.name)
		}
	}
	return nil
}

// hasMember reports whether ms has a member for f.
func hasMember(ms []member, f *fieldInfo) bool {
	return slices.ContainsFunc(ms, func(m member) bool { return m.f == f })
}

// applyEnumDefaults sets every empty enum field (also in nested structs)
// to its first allowed value, the default.
func applyEnumDefaults(v reflect.Value) {
	v = reflect.Indirect(v)
	for _, f := range infoOf(v.Type()).fields {
		fv := v.Field(f.index)
		switch {
		case f.enum != nil && fv.Kind() == reflect.String && fv.String() == "":
			fv.SetString(f.enum[0])
		case f.nested != nil:
			applyEnumDefaults(fv)
		}
	}
}

// fieldMetadata describes the fields of a record type for a metadata
// operation, with units resolved against the job units.
func fieldMetadata(t reflect.Type, u model.Units, prefix string) []FieldMetadata {
	out := []FieldMetadata{}
	for _, f := range infoOf(t).fields {
		md := FieldMetadata{JSONName: prefix + f.name, AllowedValues: []AllowedValue{}}
		var notes []string
		if f.required {
			notes = append(notes, "required on create")
		}
		if f.readOnly {
			notes = append(notes, "read-only")
		}
		switch k := f.typ.Kind(); {
		case f.enum != nil:
			md.DataType = "Enum"
			md.Default = f.enum[0]
			for _, v := range f.enum {
				md.AllowedValues = append(md.AllowedValues, AllowedValue{Value: v, Label: v})
			}
		case k == reflect.Int64 || k == reflect.Int:
			md.DataType = "Integer"
		case k == reflect.Float64:
			md.DataType = "Double"
		case k == reflect.String:
			md.DataType = "String"
		case k == reflect.Bool:
			md.DataType = "Boolean"
		case f.nested != nil:
			out = append(out, fieldMetadata(f.typ, u, prefix+f.name+".")...)
			continue
		default:
			md.DataType = "Object"
		}
		if f.unit != nil {
			l := f.unit.label(u)
			md.Units = &l
		}
		if f.columns != nil {
			var ls []string
			for _, c := range f.columns {
				if c == nil {
					ls = append(ls, "rad")
				} else {
					ls = append(ls, c.label(u))
				}
			}
			l := strings.Join(ls, ", ")
			md.Units = &l
			notes = append(notes, "table rows of [x, y]")
		}
		md.Min, md.Max = f.min, f.max
		if f.exclusive {
			notes = append(notes, "bounds exclusive")
		}
		md.Description = strings.Join(notes, "; ")
		out = append(out, md)
	}
	return out
}

var directionType = reflect.TypeOf(model.Direction{})

// mergeDirection merges a direction object. Supplying one of dirAngle,
// dirNode or dirAxis without a source selects that source and zeroes the
// other two (spec: "setting one zeros the other two").
func mergeDirection(fv reflect.Value, raw []byte, u model.Units, path string) error {
	fields, err := objectFields(raw, path)
	if err != nil {
		return err
	}
	if _, ok := fields["source"]; !ok {
		var given []string
		for _, k := range []string{"dirAngle", "dirNode", "dirAxis"} {
			if _, ok := fields[k]; ok {
				given = append(given, k)
			}
		}
		if len(given) > 1 {
			return fieldErr(path, "%s: give one of dirAngle, dirNode or dirAxis (or a source), not %s", path, strings.Join(given, " and "))
		}
		if len(given) == 1 {
			d := fv.Addr().Interface().(*model.Direction)
			*d = model.Direction{Source: map[string]string{"dirAngle": "Angle", "dirNode": "Node", "dirAxis": "Axis"}[given[0]], DirAxis: "NotApplicable"}
		}
	}
	return mergeFields(fv, fields, u, path)
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
