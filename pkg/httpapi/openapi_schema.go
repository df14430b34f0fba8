package httpapi

import (
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/gusset/gusset/pkg/model"
)

// This file turns Go types into the OpenAPI document's schemas. The field
// rules come from the same definitions the routes decode and validate
// with (infoOf: model.DefOf plus the units), so the document cannot say
// something the validator does not do: required on create, enum,
// readOnly, bounds and units.

// schemaGen collects the named component schemas while operations are
// described.
type schemaGen struct {
	schemas map[string]any
}

func newSchemaGen() *schemaGen { return &schemaGen{schemas: map[string]any{}} }

var timeType = reflect.TypeOf(time.Time{})

// requestBody documents a route's JSON body with an example built from
// the same definitions. A PATCH body merges only the fields it gives, so
// its schema drops the create-time required lists.
func (g *schemaGen) requestBody(r route) map[string]any {
	t := reflect.TypeOf(r.body)
	partial := r.method == "PATCH"
	media := map[string]any{"schema": g.schema(t, partial)}
	if ex := exampleOf(t, partial, r.keys); ex != nil {
		media["example"] = ex
	}
	if r.example != nil {
		media["example"] = r.example
	}
	return map[string]any{"required": r.bodyRequired, "content": map[string]any{"application/json": media}}
}

// schema returns the JSON schema of t; named struct types become shared
// components referenced by name. partial describes a merge body: no
// field is required.
func (g *schemaGen) schema(t reflect.Type, partial bool) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case t.Kind() == reflect.Struct && t.Name() != "":
		return g.ref(t, partial)
	}
	switch t.Kind() {
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string", "format": "byte"}
		}
		return map[string]any{"type": "array", "items": g.schema(t.Elem(), partial)}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.schema(t.Elem(), partial)}
	case reflect.Struct:
		return g.object(t, partial)
	}
	return map[string]any{}
}

// ref names the component of t; the merge form of a type with required
// fields is its own component, NameUpdate.
func (g *schemaGen) ref(t reflect.Type, partial bool) map[string]any {
	partial = partial && hasRequired(t, map[reflect.Type]bool{})
	name := schemaName(t)
	if partial {
		name += "Update"
	}
	if _, ok := g.schemas[name]; !ok {
		g.schemas[name] = map[string]any{} // placeholder breaks recursion
		g.schemas[name] = g.object(t, partial)
	}
	return map[string]any{"$ref": "#/components/schemas/" + name}
}

// hasRequired reports whether t, or a struct it holds, has a field
// required on create.
func hasRequired(t reflect.Type, seen map[reflect.Type]bool) bool {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t == timeType || seen[t] {
		return false
	}
	seen[t] = true
	if len(model.DefOf(t).Required) > 0 {
		return true
	}
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); (f.IsExported() || f.Anonymous) && hasRequired(f.Type, seen) {
			return true
		}
	}
	return false
}

func (g *schemaGen) object(t reflect.Type, partial bool) map[string]any {
	props := map[string]any{}
	var required []string
	g.fields(t, props, &required, partial)
	obj := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		obj["required"] = required
	}
	if partial {
		obj["description"] = "Only the fields given change; the others keep their values."
	}
	return obj
}

// fields collects the JSON properties of t, flattening embedded structs as
// encoding/json does.
func (g *schemaGen) fields(t reflect.Type, props map[string]any, required *[]string, partial bool) {
	info := infoOf(t)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tags := model.TagsOf(f)
		name := tags.JSONName
		if tags.JSONSkip || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				g.fields(ft, props, required, partial)
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		fi := info.byName[name]
		if fi != nil && fi.Required && !partial {
			*required = append(*required, name)
		}
		props[name] = g.property(t, f.Type, tags, fi, partial)
	}
}

// property is the schema of one field of t, of type ft, with its rules:
// read-only, enum, bounds, units and the field's own doc tag.
func (g *schemaGen) property(t, ft reflect.Type, tags model.FieldTags, fi *fieldInfo, partial bool) map[string]any {
	s := g.schema(ft, partial)
	extra := map[string]any{}
	var desc []string
	if d := tags.Doc; d != "" {
		desc = append(desc, d)
	}
	if fi != nil {
		if fi.ReadOnly {
			extra["readOnly"] = true
		}
		// No default: a record kind's own defaults (the analysis
		// settings') may differ from the first allowed value, and a PATCH
		// keeps what the record has.
		if fi.Enum != nil && s["type"] == "string" {
			extra["enum"] = fi.Enum
		}
		if fi.Values != nil && s["type"] == "string" {
			extra["enum"] = fi.Values // a computed field's values
		}
		if ids := unitIDs(t, fi.Name); ids != nil {
			extra["enum"] = ids
		}
		if fi.Min != nil {
			extra["minimum"] = *fi.Min
			if fi.Exclusive {
				extra["exclusiveMinimum"] = true
			}
		}
		if fi.Max != nil {
			extra["maximum"] = *fi.Max
			if fi.Exclusive {
				extra["exclusiveMaximum"] = true
			}
		}
		if u := unitDescription(tags.Unit, fi.Positional); u != "" {
			desc = append(desc, u)
		}
	}
	if len(desc) > 0 {
		extra["description"] = strings.Join(desc, " ")
	}
	if len(extra) == 0 {
		return s
	}
	if _, isRef := s["$ref"]; isRef {
		// OpenAPI 3.0 ignores the siblings of a $ref.
		s = map[string]any{"allOf": []any{s}}
	}
	for k, v := range extra {
		s[k] = v
	}
	return s
}

var unitsTypes = []reflect.Type{reflect.TypeOf(model.Units{}), reflect.TypeOf(model.UnitsPatch{})}

// unitIDs lists the unit ids a field of the job units may take (as GET
// /job/units/metadata does), or nil for any other field.
func unitIDs(t reflect.Type, name string) []string {
	if !slices.Contains(unitsTypes, t) {
		return nil
	}
	for _, c := range model.UnitCategories {
		if c.JSONName == name {
			ids := make([]string, len(c.Units))
			for i, u := range c.Units {
				ids[i] = u.ID
			}
			return ids
		}
	}
	return nil
}

// unitDescription says in which of the job's units a number (or each
// column of a table) is given, with the unit of a new job as an example.
func unitDescription(tag string, positional bool) string {
	if tag == "" {
		return ""
	}
	def := model.DefaultUnits()
	var quantities, labels []string
	for _, c := range strings.Split(tag, ",") {
		quantities = append(quantities, c)
		labels = append(labels, unitLabel(parseUnitExpr(c), def))
	}
	what := "In the job's " + strings.Join(quantities, ", ") + " units"
	if len(quantities) > 1 {
		what = "Columns in the job's units of " + strings.Join(quantities, ", ")
	}
	out := what + " (" + strings.Join(labels, ", ") + " in a new job; GET /api/v1/job/units gives the job's)."
	if positional {
		out += " A percent of the member's length instead when the record's positionUnits is Percent."
	}
	return out
}

// schemaName names the component of a struct type; an instance of a
// generic type is named after its type arguments' short names
// (Envelope[pkg/model.NodeReactionRow] → Envelope_NodeReactionRow), since
// a component name may not hold slashes or brackets.
func schemaName(t reflect.Type) string {
	name := t.Name()
	open := strings.IndexByte(name, '[')
	if open < 0 {
		return name
	}
	args := strings.Split(strings.TrimSuffix(name[open+1:], "]"), ",")
	out := name[:open]
	for _, a := range args {
		out += "_" + a[strings.LastIndexByte(a, '.')+1:]
	}
	return out
}
