package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gusset/gusset/pkg/model"
)

// This file is the one place where values cross between job units and SI.
// Model records carry struct tags (see pkg/model): `unit` names a field's
// quantity, `ro` marks read-only fields, `req` required ones and `enum` the
// allowed values. Reads scale SI records to job units; writes decode a
// client's JSON field by field, scale it to SI and merge it into a record.

// unitExpr is a parsed unit tag such as "force/length" or "sectionProperties^4".
type unitExpr []unitTerm

type unitTerm struct {
	category string
	power    int
}

func parseUnitExpr(tag string) unitExpr {
	if tag == "" {
		return nil
	}
	var out unitExpr
	sign := 1
	for _, part := range strings.FieldsFunc(strings.ReplaceAll(tag, "/", " / "), func(r rune) bool { return r == '*' || r == ' ' }) {
		if part == "/" {
			sign = -1
			continue
		}
		cat, pw, ok := strings.Cut(part, "^")
		p := 1
		if ok {
			p, _ = strconv.Atoi(pw)
		}
		out = append(out, unitTerm{cat, sign * p})
	}
	return out
}

// factor is the multiplier from job units to SI for this quantity.
func (e unitExpr) factor(u model.Units) float64 {
	cat := categoryFactors(u)
	f := 1.0
	for _, t := range e {
		c := cat[t.category]
		switch t.power {
		case 1:
			f *= c
		case -1:
			f /= c
		default:
			f *= math.Pow(c, float64(t.power))
		}
	}
	return f
}

type factorEntry struct {
	units   model.Units
	factors map[string]float64
}

// lastFactors remembers the factors of the last units seen: a job has one
// set of units at a time, and this sits on the path of every number.
var lastFactors atomic.Pointer[factorEntry]

// categoryFactors maps each unit category to its factor to SI under u.
func categoryFactors(u model.Units) map[string]float64 {
	if e := lastFactors.Load(); e != nil && e.units == u {
		return e.factors
	}
	m := map[string]float64{}
	for _, c := range model.UnitCategories {
		if unit, ok := model.LookupUnit(c.JSONName, unitID(u, c.JSONName)); ok {
			m[c.JSONName] = unit.ToSI
		} else {
			m[c.JSONName] = 1 // validated on write; an unknown unit cannot be stored
		}
	}
	lastFactors.Store(&factorEntry{units: u, factors: m})
	return m
}

// label renders the unit for metadata, e.g. "kN/m" or "mm^4".
func (e unitExpr) label(u model.Units) string {
	var num, den []string
	for _, t := range e {
		s := unitID(u, t.category)
		if p := t.power; p != 1 && p != -1 {
			s += "^" + strconv.Itoa(abs(p))
		}
		if t.power > 0 {
			num = append(num, s)
		} else {
			den = append(den, s)
		}
	}
	out := strings.Join(num, "·")
	if out == "" {
		out = "1"
	}
	if len(den) > 0 {
		out += "/" + strings.Join(den, "·")
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func unitID(u model.Units, category string) string {
	v := reflect.ValueOf(u)
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).Tag.Get("json") == category {
			return v.Field(i).String()
		}
	}
	return ""
}

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
	fields []*fieldInfo
	byName map[string]*fieldInfo
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

// scale multiplies or divides every quantity of the record v (a pointer to
// a struct) by its unit factor: toSI true turns job units into SI.
func scale(v reflect.Value, u model.Units, toSI bool) {
	v = reflect.Indirect(v)
	ti := infoOf(v.Type())
	percent := isPercent(v)
	for _, f := range ti.fields {
		if f.positional && percent {
			continue
		}
		scaleField(f, v.Field(f.index), u, toSI)
	}
}

// isPercent reports whether a record's positions are percentages.
func isPercent(v reflect.Value) bool {
	if !v.CanAddr() {
		return false
	}
	p, ok := v.Addr().Interface().(model.Positional)
	return ok && p.PercentPositions()
}

func scaleField(f *fieldInfo, fv reflect.Value, u model.Units, toSI bool) {
	apply := func(x float64, e unitExpr) float64 {
		if e == nil {
			return x
		}
		if toSI {
			return x * e.factor(u)
		}
		return x / e.factor(u)
	}
	switch {
	case f.unit != nil && fv.Kind() == reflect.Float64:
		fv.SetFloat(apply(fv.Float(), f.unit))
	case f.nested != nil:
		scale(fv.Addr(), u, toSI)
	case fv.Kind() == reflect.Pointer && !fv.IsNil() && fv.Elem().Kind() == reflect.Struct:
		if f.columns != nil {
			if t, ok := fv.Interface().(*model.Table); ok {
				for _, row := range t.Rows {
					for c := range row {
						if c < len(f.columns) {
							row[c] = apply(row[c], f.columns[c])
						}
					}
				}
			}
			return
		}
		scale(fv, u, toSI)
	case fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.Struct:
		for i := 0; i < fv.Len(); i++ {
			scale(fv.Index(i).Addr(), u, toSI)
		}
	}
}

// toWire returns a copy of the SI record rec in job units, deep enough that
// scaling it leaves rec untouched.
func toWire[T any](rec T, u model.Units) T {
	cp := deepCopy(rec)
	scale(reflect.ValueOf(&cp), u, false)
	return cp
}

// deepCopy copies a record so that scaling the copy cannot reach the
// original through a pointer or a slice (hydrated rows, tables, shapes).
func deepCopy[T any](rec T) T {
	if !hasRefs(reflect.TypeOf(rec)) {
		return rec
	}
	var out T
	copyValue(reflect.ValueOf(&out).Elem(), reflect.ValueOf(rec))
	return out
}

// copyValue copies src into dst, duplicating what pointers and slices
// refer to.
func copyValue(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		copyValue(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := 0; i < src.Len(); i++ {
			copyValue(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Struct:
		if !hasRefs(src.Type()) {
			dst.Set(src)
			return
		}
		for i := 0; i < src.NumField(); i++ {
			if dst.Field(i).CanSet() {
				copyValue(dst.Field(i), src.Field(i))
			}
		}
	default:
		dst.Set(src)
	}
}

var refsCache sync.Map

func hasRefs(t reflect.Type) bool {
	if v, ok := refsCache.Load(t); ok {
		return v.(bool)
	}
	r := false
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		r = true
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if hasRefs(t.Field(i).Type) {
				r = true
				break
			}
		}
	}
	refsCache.Store(t, r)
	return r
}

// objectFields splits a JSON object into its members, keeping their order
// of appearance irrelevant and rejecting anything but an object.
func objectFields(raw []byte, path string) (map[string]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		where := path
		if where == "" {
			where = "the body"
		}
		return nil, fieldErr(path, "%s must be a JSON object", where)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, &model.Error{Kind: model.KindMalformed, Msg: "malformed JSON: " + err.Error(), Err: err}
	}
	return m, nil
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
	ti := infoOf(dst.Type())
	for name := range fields {
		if _, ok := ti.byName[name]; !ok {
			p := joinPath(path, name)
			return &model.Error{Kind: model.KindValidation, Msg: fmt.Sprintf("unknown property %q", p),
				Fields: []model.FieldError{{Field: p, Message: "unknown property"}}}
		}
	}
	// Struct order, not map order: positionUnits comes before the
	// positions whose unit it decides.
	for _, f := range ti.fields {
		raw, ok := fields[f.name]
		if !ok {
			continue
		}
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
		nv := reflect.New(f.typ)
		if err := json.Unmarshal(raw, nv.Interface()); err != nil {
			return decodeFieldErr(p, f.typ, raw, err)
		}
		if f.enum != nil {
			s := nv.Elem().String()
			if !contains(f.enum, s) {
				return fieldErr(p, "%s must be one of %s, got %q", p, strings.Join(f.enum, ", "), s)
			}
		}
		if err := checkFinite(nv.Elem(), p); err != nil {
			return err
		}
		if !(f.positional && isPercent(dst)) {
			scaleField(f, nv.Elem(), u, true)
		}
		fv.Set(nv.Elem())
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

// checkFinite rejects numbers JSON cannot carry back (and that would poison
// an analysis); encoding/json already refuses NaN in input, so this guards
// against overflow such as 1e400.
func checkFinite(v reflect.Value, path string) error {
	if v.Kind() == reflect.Float64 && (math.IsInf(v.Float(), 0) || math.IsNaN(v.Float())) {
		return fieldErr(path, "%s must be a finite number", path)
	}
	return nil
}

func decodeFieldErr(path string, t reflect.Type, raw []byte, err error) error {
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
	return &model.Error{Kind: model.KindValidation, Msg: fmt.Sprintf("%s: expected %s, got JSON %s", path, want, got),
		Fields: []model.FieldError{{Field: path, Message: fmt.Sprintf("expected %s", want)}}, Err: err}
}

// missingRequired names the first required field absent from a create body.
func missingRequired(t reflect.Type, fields map[string]json.RawMessage) error {
	for _, f := range infoOf(t).fields {
		if _, ok := fields[f.name]; f.required && !ok {
			return fieldErr(f.name, "%s is required", f.name)
		}
	}
	return nil
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
