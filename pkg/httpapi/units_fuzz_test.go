package httpapi

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
)

// modelUnitTags lists the `unit` struct tags of pkg/model's source, split
// at commas (a tag per table column), the expressions parseUnitExpr meets.
func modelUnitTags(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob("../model/*.go")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no model sources: %v", err)
	}
	seen := map[string]bool{}
	var out []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		file, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			tb.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			fl, ok := n.(*ast.Field)
			if !ok || fl.Tag == nil {
				return true
			}
			tag, err := strconv.Unquote(fl.Tag.Value)
			if err != nil {
				return true
			}
			u := model.ParseTags(tag).Unit
			if u == "" {
				return true
			}
			for _, col := range strings.Split(u, ",") {
				if !seen[col] {
					seen[col] = true
					out = append(out, col)
				}
			}
			return true
		})
	}
	if len(out) < 5 {
		tb.Fatalf("found only %d unit tags in pkg/model", len(out))
	}
	return out
}

func knownCategory(c string) bool {
	for _, uc := range model.UnitCategories {
		if uc.JSONName == c {
			return true
		}
	}
	return false
}

// unitSystem picks one allowed unit per category from sel: every valid
// unit system is some sel.
func unitSystem(sel uint64) model.Units {
	var u model.Units
	v := reflect.ValueOf(&u).Elem()
	for i, c := range model.UnitCategories {
		n := uint64(len(c.Units))
		v.Field(i).SetString(c.Units[sel%n].ID)
		sel /= n
	}
	return u
}

// FuzzParseUnitExpr: unit expressions (the `unit` tags) never panic the
// parser, label or factor; an expression of known categories with powers
// of a physical size has, in every valid unit system, a finite positive
// factor equal to the product of its units' SI factors; and its label,
// written with category names, parses back to the same expression. The
// seeds are the tags of pkg/model, each of which must name known
// categories only (an unknown one would scale by 0 or infinity).
func FuzzParseUnitExpr(f *testing.F) {
	tags := modelUnitTags(f)
	for i, tag := range tags {
		f.Add(tag, uint64(i)*0x9e3779b97f4a7c15)
	}
	for _, tag := range []string{"", "/", "//", "length//length", "force/length/length", "length^-2", "length^0",
		"length^+3", "length^2^3", "length^", "^2", "length^x", "1/length", "length**force", " length / force ",
		"length^99999999999999999999", "length^-9223372036854775808", "temperature^-1/stress", "·", "length·force"} {
		f.Add(tag, uint64(len(tag)))
	}
	// Unit systems whose units are named by their categories: labels come
	// out in category names, which the parser reads back.
	var byName model.Units
	bv := reflect.ValueOf(&byName).Elem()
	for i, c := range model.UnitCategories {
		bv.Field(i).SetString(c.JSONName)
	}
	modelTag := map[string]bool{}
	for _, tag := range tags {
		modelTag[tag] = true
	}
	f.Fuzz(func(t *testing.T, tag string, sel uint64) {
		e := parseUnitExpr(tag)
		u := unitSystem(sel)
		got := factorOf(e, u)
		_ = unitLabel(e, u)
		known, size := true, 0
		for _, term := range e {
			known = known && knownCategory(term.Category)
			p := term.Power
			if p < 0 {
				p = -p
			}
			if p < 0 || p > 64 {
				p = 64 // MinInt and the like
			}
			size += p
		}
		if modelTag[tag] && !known {
			t.Fatalf("the model's unit tag %q names an unknown category: %+v", tag, e)
		}
		if !known {
			return
		}
		if size <= 12 {
			want := 1.0
			for _, term := range e {
				unit, ok := model.LookupUnit(term.Category, u.UnitOf(term.Category))
				if !ok {
					t.Fatalf("unit system %+v has no %s unit", u, term.Category)
				}
				want *= math.Pow(unit.ToSI, float64(term.Power))
			}
			if !(got > 0) || math.IsInf(got, 0) || math.Abs(got-want) > 1e-12*want {
				t.Fatalf("factor of %q (%+v) in %+v = %g, want %g (finite, positive)", tag, e, u, got, want)
			}
		}
		// Round trip through the label: numerators first, each group in
		// its order; "1" stands for an empty numerator.
		label := strings.ReplaceAll(unitLabel(e, byName), "·", "*")
		text := label
		if text == "1" || strings.HasPrefix(text, "1/") {
			text = text[1:]
		}
		back := parseUnitExpr(text)
		var want unitExpr
		for _, term := range e {
			if term.Power > 0 {
				want = append(want, term)
			}
		}
		for _, term := range e {
			if term.Power <= 0 {
				want = append(want, term)
			}
		}
		if !reflect.DeepEqual(back, want) {
			t.Fatalf("%q → %+v → label %q → %+v, want %+v", tag, e, label, back, want)
		}
	})
}
