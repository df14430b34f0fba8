package sgtext

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/gusset/gusset/pkg/model"
)

// unitKeys pairs the keys of the UNITS line with the job unit categories,
// in the order the line is written.
var unitKeys = []struct{ key, category string }{
	{"LENGTH", "length"}, {"SECTION", "sectionProperties"}, {"STRENGTH", "materialStrength"},
	{"DENSITY", "massDensity"}, {"TEMP", "temperature"}, {"FORCE", "force"}, {"MOMENT", "moment"},
	{"MASS", "mass"}, {"ACC", "acceleration"}, {"TRANS", "translation"}, {"STRESS", "stress"},
	// PRESSURE (plate pressure loads) is this service's extension; a line
	// without it gives pressures in its STRESS unit, as the desktop
	// program does.
	{"PRESSURE", "pressure"},
}

// fileTokens are the spellings the desktop program writes where they
// differ from the service's unit ids; import accepts either (any case).
var fileTokens = map[string]string{
	"in": "in", "inch": "in",
	"Ksi": "ksi", "Psi": "psi", "Ksf": "ksf", "Psf": "psf",
	"kgperm2": "kg/m^2", "kgpercm2": "kg/cm^2", "kgpermm2": "kg/mm^2", "kNperm2": "kN/m^2", "Npermm2": "N/mm^2",
	"Tperm3": "T/m^3", "Tpercm3": "T/cm^3", "Tpermm3": "T/mm^3", "kgperm3": "kg/m^3", "kgpercm3": "kg/cm^3", "kgpermm3": "kg/mm^3",
	"lbperft3": "lb/ft^3", "lbperin3": "lb/in^3", "Kperft3": "kip/ft^3", "Kperin3": "kip/in^3",
	"degC": "Celsius", "degF": "Fahrenheit",
	"K": "kip", "Kft": "kipft", "Kin": "kipin",
	"gs": "g's", "mpersec2": "m/sec^2", "cmpersec2": "cm/sec^2", "mmpersec2": "mm/sec^2",
	"ftpersec2": "ft/sec^2", "inpersec2": "in/sec^2", "kNperkg": "kN/kg",
}

// unitAliases are further spellings a UNITS line may use.
var unitAliases = []struct{ category, token, id string }{
	{"mass", "kip", "K"}, {"force", "kips", "K"}, {"mass", "kips", "K"},
	{"temperature", "C", "degC"}, {"temperature", "F", "degF"},
	{"acceleration", "g", "gs"}, {"acceleration", "m/s^2", "mpersec2"},
}

// fileToken is how the UNITS line writes the unit id of a category.
func fileToken(id string) string {
	if t, ok := fileTokens[id]; ok {
		return t
	}
	return id
}

// unitFromToken finds the unit id of category that token spells.
func unitFromToken(category, token string) (string, bool) {
	for _, c := range model.UnitCategories {
		if c.JSONName != category {
			continue
		}
		for _, u := range c.Units {
			if strings.EqualFold(token, u.ID) || strings.EqualFold(token, fileToken(u.ID)) {
				return u.ID, true
			}
		}
		for _, a := range unitAliases {
			if a.category == category && strings.EqualFold(token, a.token) {
				return a.id, true
			}
		}
	}
	return "", false
}

// parseUnits reads the text after UNITS: KEY:unit pairs separated by
// commas. Categories the line leaves out keep the new-job units, but for
// PRESSURE, which follows STRESS.
func parseUnits(rest string, line int) (model.Units, error) {
	u := model.DefaultUnits()
	uv := reflect.ValueOf(&u).Elem()
	def := model.DefOf(uv.Type())
	pressure := false
	for _, part := range strings.Split(rest, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, token, ok := strings.Cut(part, ":")
		if !ok {
			return u, lineError(line, "UNITS item %q is not KEY:unit (e.g. LENGTH:m)", part)
		}
		key, token = strings.ToUpper(strings.TrimSpace(key)), strings.TrimSpace(token)
		cat := ""
		for _, k := range unitKeys {
			if k.key == key {
				cat = k.category
			}
		}
		for _, k := range unitKeys {
			// Longer spellings (TEMPERATURE, ACCELERATION) name the same.
			if cat == "" && len(k.key) >= 3 && strings.HasPrefix(key, k.key) {
				cat = k.category
			}
		}
		if cat == "" {
			return u, lineError(line, "UNITS names %q, which is no unit category; the categories are %s", key, unitKeyList())
		}
		id, ok := unitFromToken(cat, token)
		if !ok {
			return u, lineError(line, "UNITS %s: %q is not a %s unit this service knows; allowed: %s", key, token, cat, tokenList(cat))
		}
		uv.Field(def.ByName[cat].Index).SetString(id)
		pressure = pressure || cat == "pressure"
	}
	if !pressure {
		u.Pressure = u.Stress
	}
	return u, nil
}

// formatUnits writes the UNITS line of u.
func formatUnits(u model.Units) string {
	parts := make([]string, len(unitKeys))
	for i, k := range unitKeys {
		parts[i] = k.key + ":" + fileToken(u.UnitOf(k.category))
	}
	return "UNITS " + strings.Join(parts, ", ")
}

func unitKeyList() string {
	keys := make([]string, len(unitKeys))
	for i, k := range unitKeys {
		keys[i] = k.key
	}
	return strings.Join(keys, ", ")
}

func tokenList(category string) string {
	var out []string
	for _, c := range model.UnitCategories {
		if c.JSONName == category {
			for _, u := range c.Units {
				out = append(out, fileToken(u.ID))
			}
		}
	}
	return strings.Join(out, ", ")
}

// converter turns numbers between a file's units and SI by the unit tag
// of the field they fill, so that a field whose tag changes converts
// differently here without a change to this package.
type converter struct {
	cats map[string]float64
}

func newConverter(u model.Units) converter { return converter{cats: model.CategoryFactors(u)} }

var tagCache sync.Map // tagKey → model.UnitExpr

type tagKey struct {
	t    reflect.Type
	path string
}

// factor is the multiplier from the file's units to SI of the field at
// path ("x", "releases.txStiffnessAtA") of records of rec's type.
func (c converter) factor(rec any, path string) float64 {
	t := reflect.TypeOf(rec)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	k := tagKey{t, path}
	e, ok := tagCache.Load(k)
	if !ok {
		e = model.ParseUnitExpr(unitTag(t, path))
		tagCache.Store(k, e)
	}
	return e.(model.UnitExpr).Scale(c.cats)
}

// unitTag is the unit tag of the field at path; a path the record does
// not have is a bug of this package's tables.
func unitTag(t reflect.Type, path string) string {
	d := model.DefOf(t)
	parts := strings.Split(path, ".")
	for i, p := range parts {
		f, ok := d.ByName[p]
		if !ok {
			panic(fmt.Sprintf("sgtext: %s has no field %s", t, path))
		}
		if i == len(parts)-1 {
			return f.Unit
		}
		d = f.Nested
		if d == nil {
			panic(fmt.Sprintf("sgtext: %s field %s is not a record", t, p))
		}
	}
	return ""
}
