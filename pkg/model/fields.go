package model

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// The field rules of the struct tags (see node.go) are checked here, in
// one place, for every way a record arrives: the HTTP edge checks each
// member of a body with FieldDef.Check and RecordDef.CheckMembers, and a
// job file's rows, decoded without HTTP, go through CheckFields.

// FieldTags are what the struct tags of one field say. The model records
// carry these tags:
//
//	json     the wire name, with encoding/json's options ("omitempty")
//	unit     the job-unit quantity of a number, e.g. "length",
//	         "sectionProperties^4", "force/length", "temperature^-1"; for a
//	         table ([][]float64) one quantity per column, comma-separated.
//	         Stored values are SI; the HTTP edge converts.
//	positional  a position along a member: a length, or a percent of the
//	         member's length when the record says so (Positional)
//	ro       read-only: computed or hydrated, a client may not send it
//	req      required on create
//	enum     the allowed values, '|'-separated; the first is the default
//	values   the values a read-only, computed field takes, '|'-separated:
//	         documented (metadata, API document), never checked, since the
//	         server sets the field and stored rows leave it empty
//	default  the value a create body or item without the field gets (JSON),
//	         for fields whose default is not their zero value or enum[0]
//	min, max bounds in SI (only 0 or unitless bounds are tagged)
//	exclusive  the bounds themselves are refused
//	doc      what the field means, for the API document and the metadata
//	example  the value the API document's example bodies show (JSON),
//	         where the field's type and bounds alone would not give a valid
//	         one (the second node of a member differs from the first)
//
// This file is the one reader of them (ParseTags, TagsOf, DefOf): the
// validator, the HTTP edge's decoding, metadata and API document and the
// editor's encoder all take a field's rules from here, so no two of them
// can read a tag differently. pkg/archtest fails any other package that
// reads a struct tag itself.
type FieldTags struct {
	// JSONName is the name part of the json tag; "" when the tag names
	// none, and encoding/json then uses the Go name.
	JSONName string
	// JSONOptions is what follows the name in the json tag ("omitempty").
	JSONOptions string
	// JSONSkip is true for json:"-": encoding/json leaves the field out.
	JSONSkip bool
	ReadOnly bool // ro
	Required bool // req (on create)
	// Enum lists the allowed values in their canonical spelling; the
	// first is the default.
	Enum []string
	// Values are the documented values of a computed field (values tag).
	Values []string
	// Default is the JSON text of the default tag; "" for none.
	Default    string
	Min, Max   *float64 // SI bounds (only 0 or unitless bounds are tagged)
	Exclusive  bool     // the bounds themselves are refused
	Unit       string   // the unit tag as written; "" for no unit
	Positional bool
	Doc        string
	Example    string // JSON text
}

// ParseTags reads the text of one field's struct tag. Source scans that
// meet a tag literal rather than a reflect.StructField use it, so that
// they read the tag as DefOf does.
func ParseTags(tag string) FieldTags {
	st := reflect.StructTag(tag)
	js := st.Get("json")
	name, opts, _ := strings.Cut(js, ",")
	ft := FieldTags{JSONName: name, JSONOptions: opts, JSONSkip: js == "-",
		ReadOnly: st.Get("ro") == "true", Required: st.Get("req") == "true",
		Exclusive: st.Get("exclusive") == "true", Positional: st.Get("positional") == "true",
		Min: boundTag(st.Get("min")), Max: boundTag(st.Get("max")),
		Unit: st.Get("unit"), Doc: st.Get("doc"), Example: st.Get("example"), Default: st.Get("default")}
	if e := st.Get("enum"); e != "" {
		ft.Enum = strings.Split(e, "|")
	}
	if v := st.Get("values"); v != "" {
		ft.Values = strings.Split(v, "|")
	}
	return ft
}

// TagsOf reads the struct tags of the field sf.
func TagsOf(sf reflect.StructField) FieldTags { return ParseTags(string(sf.Tag)) }

// FieldDef is one JSON field of a record type: what its tags say, and
// where the field is.
type FieldDef struct {
	FieldTags
	Name   string
	Index  int
	Type   reflect.Type
	Nested *RecordDef
}

// RecordDef describes the JSON fields of a record type.
type RecordDef struct {
	Type     reflect.Type
	Fields   []*FieldDef
	ByName   map[string]*FieldDef
	Required []*FieldDef
}

var defCache sync.Map // reflect.Type → *RecordDef

// DefOf describes the struct type t (a pointer is followed): its exported
// fields that the json tag names; a field without a json name is no field
// of a record.
func DefOf(t reflect.Type) *RecordDef {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if d, ok := defCache.Load(t); ok {
		return d.(*RecordDef)
	}
	d := &RecordDef{Type: t, ByName: map[string]*FieldDef{}}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tags := TagsOf(sf)
		name := tags.JSONName
		if name == "" || name == "-" || !sf.IsExported() {
			continue
		}
		f := &FieldDef{FieldTags: tags, Name: name, Index: i, Type: sf.Type}
		if sf.Type.Kind() == reflect.Struct {
			f.Nested = DefOf(sf.Type)
		}
		d.Fields = append(d.Fields, f)
		d.ByName[name] = f
		if f.Required {
			d.Required = append(d.Required, f)
		}
	}
	actual, _ := defCache.LoadOrStore(t, d)
	return actual.(*RecordDef)
}

func boundTag(s string) *float64 {
	if s == "" {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic("model: bad bound tag " + s)
	}
	return &v
}

// Canonical returns the allowed value of the enum field that equals s
// ignoring case, and whether there is one.
func (f *FieldDef) Canonical(s string) (string, bool) {
	for _, v := range f.Enum {
		if v == s {
			return v, true
		}
	}
	for _, v := range f.Enum {
		if strings.EqualFold(v, s) {
			return v, true
		}
	}
	return "", false
}

// Check checks the decoded value v of the field (SI values) against its
// rules: enum membership (exact, canonical spelling), bounds, and numbers
// finite and of magnitude at most MaxMagnitude (every cell of a table);
// nested records are checked field by field. path names the field in the
// errors. It returns nil when v passes.
func (f *FieldDef) Check(v reflect.Value, path string) []FieldError {
	if f.Nested != nil && v.Kind() == reflect.Struct {
		return f.Nested.check(v, path)
	}
	if errs := f.CheckValue(v, path); errs != nil {
		return errs
	}
	return f.CheckBounds(v, path)
}

// CheckBounds checks a number against the field's min, max and exclusive.
func (f *FieldDef) CheckBounds(v reflect.Value, path string) []FieldError {
	if f.Min == nil && f.Max == nil {
		return nil
	}
	var x float64
	switch v.Kind() {
	case reflect.Float64:
		x = v.Float()
	case reflect.Int64, reflect.Int:
		x = float64(v.Int())
	default:
		return nil
	}
	if msg := f.bounds(x, path); msg != "" {
		return []FieldError{{Field: path, Message: msg}}
	}
	return nil
}

// CheckValue is Check without the bounds: enum membership and magnitude.
func (f *FieldDef) CheckValue(v reflect.Value, path string) []FieldError {
	if f.Enum != nil && v.Kind() == reflect.String {
		if s := v.String(); !contains(f.Enum, s) {
			return []FieldError{{Field: path, Message: fmt.Sprintf("%s must be one of %s, got %q", path, strings.Join(f.Enum, ", "), s)}}
		}
	}
	switch v.Kind() {
	case reflect.Float64:
		x := v.Float()
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > MaxMagnitude {
			return []FieldError{{Field: path, Message: fmt.Sprintf("%s must be a finite number of magnitude at most %g in SI units, got %g", path, MaxMagnitude, x)}}
		}
	case reflect.Pointer:
		if t, ok := v.Interface().(*Table); ok && t != nil {
			for i, row := range t.Rows {
				for _, x := range row {
					if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > MaxMagnitude {
						return []FieldError{{Field: path, Message: fmt.Sprintf("%s row %d: values must be finite and of magnitude at most %g in SI units", path, i, MaxMagnitude)}}
					}
				}
			}
		}
	}
	return nil
}

// bounds explains why x lies outside the field's bounds, or returns "".
func (f *FieldDef) bounds(x float64, path string) string {
	lo, hi := f.Min, f.Max
	if lo == nil && hi == nil {
		return ""
	}
	below := lo != nil && (x < *lo || f.Exclusive && x == *lo)
	above := hi != nil && (x > *hi || f.Exclusive && x == *hi)
	if !below && !above {
		return ""
	}
	switch {
	case lo != nil && hi != nil && f.Exclusive:
		return fmt.Sprintf("%s must lie between %g and %g (exclusive), got %g", path, *lo, *hi, x)
	case lo != nil && hi != nil:
		return fmt.Sprintf("%s must lie between %g and %g, got %g", path, *lo, *hi, x)
	case lo != nil && *lo == 0 && f.Exclusive:
		return fmt.Sprintf("%s must be greater than zero, got %g", path, x)
	case lo != nil && *lo == 0:
		return fmt.Sprintf("%s must be zero or more, got %g", path, x)
	case lo != nil && f.Exclusive:
		return fmt.Sprintf("%s must be greater than %g, got %g", path, *lo, x)
	case lo != nil:
		return fmt.Sprintf("%s must be %g or more, got %g", path, *lo, x)
	case f.Exclusive:
		return fmt.Sprintf("%s must be less than %g, got %g", path, *hi, x)
	}
	return fmt.Sprintf("%s must be %g or less, got %g", path, *hi, x)
}

func (d *RecordDef) check(v reflect.Value, path string) []FieldError {
	var errs []FieldError
	for _, f := range d.Fields {
		errs = append(errs, f.Check(v.Field(f.Index), joinField(path, f.Name))...)
	}
	return errs
}

// CheckMembers checks the member names of a JSON object that is to be
// merged into a record of d: every name must be a field, none read-only,
// and on a create every required field must be there. path prefixes the
// names in the errors.
func (d *RecordDef) CheckMembers(names []string, path string, create bool) []FieldError {
	var errs []FieldError
	if create {
		for _, f := range d.Required {
			if !contains(names, f.Name) {
				p := joinField(path, f.Name)
				errs = append(errs, FieldError{Field: p, Message: p + " is required"})
			}
		}
	}
	for _, n := range names {
		p := joinField(path, n)
		f, ok := d.ByName[n]
		switch {
		case !ok:
			errs = append(errs, FieldError{Field: p, Message: fmt.Sprintf("unknown property %q", p)})
		case f.ReadOnly:
			errs = append(errs, FieldError{Field: p, Message: p + " is read-only"})
		}
	}
	return errs
}

// CheckFields checks every field of the decoded record rec (a struct or a
// pointer to one; SI values) with FieldDef.Check: enum values, bounds and
// magnitudes. It is what a job file's rows meet, the same rules the HTTP
// edge applies to each field a body supplies. Read-only, required and
// unknown properties are about a body's members (RecordDef.CheckMembers);
// a decoder refusing unknown fields covers the last for stored rows.
func CheckFields(rec any) []FieldError {
	v := reflect.Indirect(reflect.ValueOf(rec))
	if v.Kind() != reflect.Struct {
		return nil
	}
	return DefOf(v.Type()).check(v, "")
}

// FieldsError turns field errors into one validation error whose message
// is the first and says how many more there are; nil when errs is empty.
func FieldsError(errs []FieldError) error {
	if len(errs) == 0 {
		return nil
	}
	msg := errs[0].Message
	if len(errs) > 1 {
		msg += fmt.Sprintf(" (and %d more field errors)", len(errs)-1)
	}
	return &Error{Kind: KindValidation, Msg: msg, Fields: errs}
}

func joinField(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// boundsInValidate is implemented by records whose Validate checks the
// bounds of their tags together with their other rules, reporting every
// failing field at once (the analysis settings, through checkTagged): a
// body's bounds are left to it rather than refused field by field first.
type boundsInValidate interface{ boundsInValidate() }

func (StaticSettings) boundsInValidate()   {}
func (BucklingSettings) boundsInValidate() {}
func (DynamicSettings) boundsInValidate()  {}

// BoundsInValidate reports whether records of type t check their tagged
// bounds in their own Validate (see boundsInValidate).
func BoundsInValidate(t reflect.Type) bool {
	return t.Implements(reflect.TypeOf((*boundsInValidate)(nil)).Elem())
}
