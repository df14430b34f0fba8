package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/gusset/gusset/pkg/model"
)

// This file decodes clients' JSON into model records field by field.
// What a field's struct tags say (read-only, required, enum, bounds,
// unit) comes from model.DefOf, the one reader of the tags; units.go
// scales the numbers.

// fieldInfo describes one JSON field of a record type: the field's
// definition (model.FieldDef, read from its tags by the one reader of
// them; its rules are checked by model, the one validator of bodies, bulk
// items and job-file rows alike) and what the edge adds, the units.
type fieldInfo struct {
	*model.FieldDef
	unit    unitExpr   // numbers
	columns []unitExpr // tables: one per column
	nested  *typeInfo  // struct-valued fields merge field by field
}

type typeInfo struct {
	def *model.RecordDef
	// bounds: the edge checks the tagged bounds of each supplied field
	// (false for records whose Validate does, model.BoundsInValidate).
	bounds   bool
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
	def := model.DefOf(t)
	ti := &typeInfo{def: def, bounds: !model.BoundsInValidate(t), byName: map[string]*fieldInfo{}}
	for _, d := range def.Fields {
		fi := &fieldInfo{FieldDef: d}
		if u := d.Unit; u != "" {
			if strings.Contains(u, ",") {
				for _, c := range strings.Split(u, ",") {
					fi.columns = append(fi.columns, parseUnitExpr(c))
				}
			} else {
				fi.unit = parseUnitExpr(u)
			}
		}
		if d.Nested != nil {
			fi.nested = infoOf(d.Type)
		}
		ti.fields = append(ti.fields, fi)
		ti.byName[d.Name] = fi
		if fi.Required {
			ti.required = append(ti.required, fi)
		}
	}
	actual, _ := typeCache.LoadOrStore(t, ti)
	return actual.(*typeInfo)
}

// objectFields splits a JSON object into its members, keeping their order
// of appearance irrelevant and rejecting anything but an object.
// A member name given twice is a 400 naming it: the decoder would keep the
// last value silently.
func objectFields(raw []byte, path string) (map[string]json.RawMessage, error) {
	return splitBody(raw, path, false, nil)
}

// splitBody is splitFields for a body or bulk item: a repeated member name
// is a validation error naming it.
func splitBody(raw []byte, path string, valid bool, ti *typeInfo) (map[string]json.RawMessage, error) {
	return splitFieldsOpt(raw, path, valid, ti, true)
}

// splitFields is objectFields for raw already known to be valid JSON when
// valid is true, as the items of a checked bulk body are. ti, when known,
// lends its field names to the map, sparing a string per member.
func splitFields(raw []byte, path string, valid bool, ti *typeInfo) (map[string]json.RawMessage, error) {
	return splitFieldsOpt(raw, path, valid, ti, false)
}

func splitFieldsOpt(raw []byte, path string, valid bool, ti *typeInfo, strict bool) (map[string]json.RawMessage, error) {
	raw = trimJSONSpace(raw)
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
		if m, dup, ok := splitObjectDup(raw, ti); ok {
			if strict && dup != "" {
				return nil, duplicateErr(path, dup)
			}
			return m, nil
		}
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, &model.Error{Kind: model.KindMalformed, Msg: "malformed JSON: " + err.Error(), Err: err}
	}
	if strict {
		if dup := duplicateName(raw); dup != "" {
			return nil, duplicateErr(path, dup)
		}
	}
	return m, nil
}

func duplicateErr(path, name string) error {
	p := joinPath(path, name)
	return fieldErr(p, "the property %q is given more than once", p)
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
	ms, errs := splitMembers(fields, infoOf(dst.Type()), path)
	return model.FieldsError(appendFieldErrs(errs, mergeMembers(dst, ms, u, path)))
}

// member is one member of a JSON object that names a field of a record.
type member struct {
	f   *fieldInfo
	raw json.RawMessage
}

// fieldMembers lists the members of fields in struct order, or refuses
// them, naming every one that is no field of ti.
func fieldMembers(fields map[string]json.RawMessage, ti *typeInfo, path string) ([]member, error) {
	ms, errs := splitMembers(fields, ti, path)
	if errs != nil {
		return nil, model.FieldsError(errs)
	}
	return ms, nil
}

// splitMembers lists the members of fields that name fields of ti, in
// struct order, and an error for each that does not (in name order).
func splitMembers(fields map[string]json.RawMessage, ti *typeInfo, path string) ([]member, []model.FieldError) {
	ms := make([]member, 0, len(fields))
	var unknown []string
	for name, raw := range fields {
		f, ok := ti.byName[name]
		if !ok {
			unknown = append(unknown, name)
			continue
		}
		ms = append(ms, member{f, raw})
	}
	sortMembers(ms)
	if unknown == nil {
		return ms, nil
	}
	slices.Sort(unknown)
	return ms, ti.def.CheckMembers(unknown, path, false)
}

// appendFieldErrs adds the field errors of err (a validation error) to
// errs; any other error, or one without fields, becomes one entry.
func appendFieldErrs(errs []model.FieldError, err error) []model.FieldError {
	if err == nil {
		return errs
	}
	var me *model.Error
	if errors.As(err, &me) && len(me.Fields) == 1 {
		// The message of a one-field error is the fuller of the two.
		return append(errs, model.FieldError{Field: me.Fields[0].Field, Message: me.Msg})
	}
	if me != nil && len(me.Fields) > 0 {
		return append(errs, me.Fields...)
	}
	msg := err.Error()
	if me != nil {
		msg = me.Msg
	}
	return append(errs, model.FieldError{Message: msg})
}

// sortMembers puts members in struct order, not the order of the JSON:
// positionUnits comes before the positions whose unit it decides. Of two
// members with one name the later stays later, so it wins, as in a map.
func sortMembers(ms []member) {
	slices.SortStableFunc(ms, func(a, b member) int { return a.f.Index - b.f.Index })
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
// Every field is checked and every failure reported (model.FieldsError):
// read-only fields, wrong types, nulls, and the rules of
// model.FieldDef.Check on the value in SI (enum, bounds, magnitude). Enum
// values match ignoring case and are stored in their canonical spelling.
// On an error the caller drops the whole record.
func mergeMembers(dst reflect.Value, ms []member, u model.Units, path string) error {
	var errs []model.FieldError
	bounds := 0 // 1: the edge checks bounds, -1: Validate does; looked up once, when needed
	for _, m := range ms {
		f, raw := m.f, m.raw
		p := joinPath(path, f.Name)
		if f.ReadOnly {
			errs = append(errs, model.FieldError{Field: p, Message: p + " is read-only"})
			continue
		}
		fv := dst.Field(f.Index)
		if f.Type == directionType {
			if err := mergeDirection(fv, raw, u, p); err != nil {
				if model.KindOf(err) != model.KindValidation {
					return err
				}
				errs = appendFieldErrs(errs, err)
			}
			continue
		}
		if f.nested != nil {
			if err := merge(fv, raw, u, p); err != nil {
				if model.KindOf(err) != model.KindValidation {
					return err
				}
				errs = appendFieldErrs(errs, err)
			}
			continue
		}
		// Plain scalars are decoded in place; anything else into a fresh
		// value, so that a pointer or slice is replaced, not merged into.
		v, fresh := fv, !decodeScalar(raw, fv)
		if fresh {
			v = reflect.New(f.Type).Elem()
			if err := json.Unmarshal(raw, v.Addr().Interface()); err != nil {
				errs = appendFieldErrs(errs, decodeFieldErr(p, f.Type, raw, err))
				continue
			}
		}
		if f.Enum != nil && v.Kind() == reflect.String {
			if c, ok := f.Canonical(v.String()); ok {
				v.SetString(c)
			}
		}
		if string(raw) == "null" && f.Type.Kind() != reflect.Pointer && f.Type.Kind() != reflect.Slice {
			errs = append(errs, model.FieldError{Field: p, Message: p + " must not be null"})
			continue
		}
		if !(f.Positional && isPercent(dst)) {
			scaleField(f, v, u, true)
		}
		// Checked in SI, after scaling: a number fine in one unit may not
		// be in another.
		fe := f.CheckValue(v, p)
		if fe == nil && (f.Min != nil || f.Max != nil) {
			if bounds == 0 {
				bounds = map[bool]int{true: 1, false: -1}[infoOf(dst.Type()).bounds]
			}
			if bounds > 0 {
				fe = f.CheckBounds(v, p)
			}
		}
		if fe != nil {
			errs = append(errs, fe...)
			continue
		}
		if fresh {
			fv.Set(v)
		}
	}
	return model.FieldsError(errs)
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
// model.MaxMagnitude, in a value or, for tables, in every cell (the rule of
// model.FieldDef.Check).
func checkMagnitude(v reflect.Value, path string) error {
	return model.FieldsError((&model.FieldDef{Name: path}).Check(v, path))
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

// missingRequired names every required field of ti that a create body
// does not have.
func missingRequired(ti *typeInfo, has func(*fieldInfo) bool) []model.FieldError {
	var errs []model.FieldError
	for _, f := range ti.required {
		if !has(f) {
			errs = append(errs, model.FieldError{Field: f.Name, Message: f.Name + " is required"})
		}
	}
	return errs
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
		fv := v.Field(f.Index)
		switch {
		case f.Enum != nil && fv.Kind() == reflect.String && fv.String() == "":
			fv.SetString(f.Enum[0])
		case f.nested != nil:
			applyEnumDefaults(fv)
		}
	}
}

// fieldMetadata describes the fields of a record type for a metadata
// operation, with units resolved against the job units. Every dataType is
// one of the interface's set (Integer, Double, String, Enum, Boolean,
// Guid): a struct-valued field or sub-resource (a restraint row, a
// combination's items) is described by its own fields, named with a path
// ("restraint.restraintCode", "combinationItems[].loadCase"); an array or
// table of numbers by the type of its numbers.
func fieldMetadata(t reflect.Type, u model.Units, prefix string) []FieldMetadata {
	out := []FieldMetadata{}
	for _, f := range infoOf(t).fields {
		md := FieldMetadata{JSONName: prefix + f.Name, AllowedValues: []AllowedValue{}}
		var notes []string
		if f.Required {
			notes = append(notes, "required on create")
		}
		if f.ReadOnly {
			notes = append(notes, "read-only")
		}
		if f.Default != "" {
			var v any
			if json.Unmarshal([]byte(f.Default), &v) == nil {
				md.Default = v
			}
		}
		values := f.Enum
		if values == nil {
			values = f.Values
		}
		switch {
		case values != nil:
			md.DataType = "Enum"
			if md.Default == nil {
				md.Default = values[0]
			}
			if f.Enum == nil {
				notes = append(notes, "computed by the service")
			}
			for _, v := range values {
				md.AllowedValues = append(md.AllowedValues, AllowedValue{Value: v, Label: v})
			}
		case f.nested != nil:
			out = append(out, fieldMetadata(f.Type, u, prefix+f.Name+".")...)
			continue
		default:
			if sub, path := subRecord(f.Type); sub != nil {
				out = append(out, subFieldMetadata(sub, u, prefix+f.Name+path, notes)...)
				continue
			}
			var array bool
			md.DataType, array = scalarDataType(f.Type)
			if array && f.columns == nil {
				notes = append(notes, "array")
			}
		}
		if f.unit != nil {
			l := unitLabel(f.unit, u)
			md.Units = &l
		}
		if f.columns != nil {
			var ls []string
			for _, c := range f.columns {
				if c == nil {
					ls = append(ls, "rad")
				} else {
					ls = append(ls, unitLabel(c, u))
				}
			}
			l := strings.Join(ls, ", ")
			md.Units = &l
			notes = append(notes, "table rows of [x, y]")
		}
		md.Min, md.Max = f.Min, f.Max
		if f.Exclusive {
			notes = append(notes, "bounds exclusive")
		}
		md.Description = strings.Join(notes, "; ")
		out = append(out, md)
	}
	return out
}

// subFieldMetadata describes the fields of the sub-resource sub under
// the path prefix; the notes of the field that holds it (read-only,
// required) lead each description.
func subFieldMetadata(sub reflect.Type, u model.Units, prefix string, notes []string) []FieldMetadata {
	fields := fieldMetadata(sub, u, prefix)
	for i := range fields {
		d := append([]string{}, notes...)
		for _, n := range strings.Split(fields[i].Description, "; ") {
			if n != "" && !slices.Contains(d, n) {
				d = append(d, n)
			}
		}
		fields[i].Description = strings.Join(d, "; ")
	}
	return fields
}

var tableType = reflect.TypeOf(model.Table{})

// subRecord returns the record type a field of type t holds as a
// sub-resource (a pointer to a record, or a list of records, whose path
// segment is then "[]."), or nil when t holds numbers, text or a table.
func subRecord(t reflect.Type) (reflect.Type, string) {
	path := "."
	switch t.Kind() {
	case reflect.Pointer:
		t = t.Elem()
	case reflect.Slice:
		t, path = t.Elem(), "[]."
	}
	if t.Kind() != reflect.Struct || t == tableType || t == timeType {
		return nil, ""
	}
	return t, path
}

// scalarDataType names the dataType of a field that is no record: the
// type of its values, and whether it holds an array (or a table) of them.
func scalarDataType(t reflect.Type) (string, bool) {
	array := false
	for {
		switch t.Kind() {
		case reflect.Pointer:
			t = t.Elem()
			continue
		case reflect.Slice, reflect.Array:
			t, array = t.Elem(), true
			continue
		}
		break
	}
	switch k := t.Kind(); {
	case t == tableType:
		return "Double", true
	case t == timeType:
		return "String", array
	case k == reflect.Bool:
		return "Boolean", array
	case k == reflect.Float64 || k == reflect.Float32:
		return "Double", array
	case k >= reflect.Int && k <= reflect.Uint64:
		return "Integer", array
	}
	return "String", array
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
