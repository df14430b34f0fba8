package httpapi

import (
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gusset/gusset/pkg/model"
)

// This file is the one place where values cross between job units and SI.
// A record's `unit` struct tags name each number's quantity; reads scale SI
// records to job units, writes scale the client's numbers to SI.

// unitExpr is a parsed unit tag such as "force/length" or
// "sectionProperties^4" (model.ParseUnitExpr).
type unitExpr = model.UnitExpr

func parseUnitExpr(tag string) unitExpr { return model.ParseUnitExpr(tag) }

// factorOf is the multiplier from job units to SI for the quantity e.
func factorOf(e unitExpr, u model.Units) float64 { return e.Scale(categoryFactors(u)) }

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
	m := model.CategoryFactors(u)
	lastFactors.Store(&factorEntry{units: u, factors: m})
	return m
}

// label renders the unit for metadata, e.g. "kN/m" or "mm^4".
func unitLabel(e unitExpr, u model.Units) string {
	var num, den []string
	for _, t := range e {
		s := u.UnitOf(t.Category)
		if p := t.Power; p != 1 && p != -1 {
			s += "^" + strconv.Itoa(abs(p))
		}
		if t.Power > 0 {
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

// scale multiplies or divides every quantity of the record v (a pointer to
// a struct) by its unit factor: toSI true turns job units into SI.
func scale(v reflect.Value, u model.Units, toSI bool) {
	v = reflect.Indirect(v)
	ti := infoOf(v.Type())
	percent := isPercent(v)
	for _, f := range ti.fields {
		if f.Positional && percent {
			continue
		}
		scaleField(f, v.Field(f.Index), u, toSI)
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
			return x * factorOf(e, u)
		}
		return x / factorOf(e, u)
	}
	switch {
	case f.unit != nil && fv.Kind() == reflect.Float64:
		fv.SetFloat(apply(fv.Float(), f.unit))
	case f.unit != nil && fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.Float64:
		// Arrays of one quantity: the rows of member results.
		for i := 0; i < fv.Len(); i++ {
			e := fv.Index(i)
			e.SetFloat(apply(e.Float(), f.unit))
		}
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
