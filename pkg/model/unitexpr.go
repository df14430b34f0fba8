package model

import (
	"math"
	"strconv"
	"strings"
)

// UnitTerm is one factor of a unit tag: a unit category raised to a power
// ("sectionProperties^4" is {sectionProperties 4}, "/length" is
// {length -1}).
type UnitTerm struct {
	Category string
	Power    int
}

// UnitExpr is a parsed unit tag (see FieldTags.Unit): every reader of
// numbers in job units (the HTTP edge, the text file format) converts a
// field by the quantity its tag names, so that changing a tag changes
// every conversion of that field at once.
type UnitExpr []UnitTerm

// ParseUnitExpr parses a unit tag such as "force/length" or
// "mass*length^2"; "" is a number without unit (nil).
func ParseUnitExpr(tag string) UnitExpr {
	if tag == "" {
		return nil
	}
	var out UnitExpr
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
		out = append(out, UnitTerm{cat, sign * p})
	}
	return out
}

// Scale is the multiplier from job units to SI of the quantity, given
// each category's factor to SI (CategoryFactors).
func (e UnitExpr) Scale(categories map[string]float64) float64 {
	f := 1.0
	for _, t := range e {
		c := categories[t.Category]
		switch t.Power {
		case 1:
			f *= c
		case -1:
			f /= c
		default:
			f *= math.Pow(c, float64(t.Power))
		}
	}
	return f
}

// Factor is Scale under the units u.
func (e UnitExpr) Factor(u Units) float64 { return e.Scale(CategoryFactors(u)) }

// CategoryFactors maps each unit category of u to its factor to SI; an
// unknown unit (which validation keeps out of a job) counts as SI.
func CategoryFactors(u Units) map[string]float64 {
	m := make(map[string]float64, len(UnitCategories))
	for i, v := range u.fields() {
		c := UnitCategories[i]
		m[c.JSONName] = 1
		if unit, ok := LookupUnit(c.JSONName, *v); ok {
			m[c.JSONName] = unit.ToSI
		}
	}
	return m
}

// UnitOf returns the unit of category in u ("" for an unknown category).
func (u Units) UnitOf(category string) string {
	for i, v := range u.fields() {
		if UnitCategories[i].JSONName == category {
			return *v
		}
	}
	return ""
}
