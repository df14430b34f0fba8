package library

import (
	"sort"
	"strings"
)

// Material is an isotropic linear-elastic material in SI units.
type Material struct {
	Name             string  // canonical name within its library, e.g. "N32"
	Library          string  // canonical library name, e.g. "Aust"
	YoungsModulus    float64 // E (Pa)
	PoissonsRatio    float64 // ν
	MassDensity      float64 // ρ (kg/m³)
	ThermalCoeff     float64 // α, coefficient of linear thermal expansion (1/°C)
	ConcreteStrength float64 // characteristic compressive strength f'c or fck (Pa); 0 if not concrete
	Source           string  // where the values come from (standard, clause or table)
}

// ShearModulus returns G = E / (2(1+ν)), the isotropic shear modulus.
func (m Material) ShearModulus() float64 {
	return m.YoungsModulus / (2 * (1 + m.PoissonsRatio))
}

// Canonical material library names.
const (
	LibAust = "Aust"
	LibUS   = "US"
	LibEuro = "Euro"
)

// materialLibrary is one built-in table: entries by canonical name, plus
// alternative spellings mapped to canonical names.
type materialLibrary struct {
	name    string
	entries []Material
	aliases map[string]string
}

var materialLibs = []materialLibrary{
	{LibAust, austMaterials, austAliases},
	{LibUS, usMaterials, usAliases},
	{LibEuro, euroMaterials, euroAliases},
}

// MaterialLibraries returns the canonical names of the built-in material
// libraries, sorted.
func MaterialLibraries() []string {
	out := make([]string, 0, len(materialLibs))
	for _, l := range materialLibs {
		out = append(out, l.name)
	}
	sort.Strings(out)
	return out
}

// materialKey normalises a material name: case, spaces, "-" and "_" are
// ignored, so "c32/40", "S 355" and "6061-T6" match their entries.
func materialKey(name string) string {
	s := strings.ToUpper(strings.Join(strings.Fields(name), ""))
	return strings.NewReplacer("-", "", "_", "").Replace(s)
}

// LookupMaterial returns the named material of the named library; both names
// are matched case-insensitively. The names of each library are listed by
// [MaterialNames]; aliases (e.g. "CONC32" for "N32", "C30" for "C30/37") are
// documented next to the tables in materials_data.go.
func LookupMaterial(library, name string) (Material, error) {
	l, err := findMaterialLibrary(library)
	if err != nil {
		return Material{}, err
	}
	key := materialKey(name)
	if canon, ok := l.aliases[key]; ok {
		key = materialKey(canon)
	}
	for _, m := range l.entries {
		if materialKey(m.Name) == key {
			m.Library = l.name
			return m, nil
		}
	}
	return Material{}, &NotFoundError{Kind: "material", Library: l.name, Name: name,
		Suggestions: suggest([]string{materialKey(name)}, l.candidates())}
}

// MaterialNames returns the canonical names of a material library's entries
// in table order.
func MaterialNames(library string) ([]string, error) {
	l, err := findMaterialLibrary(library)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(l.entries))
	for i, m := range l.entries {
		out[i] = m.Name
	}
	return out, nil
}

func findMaterialLibrary(library string) (materialLibrary, error) {
	for _, l := range materialLibs {
		if strings.EqualFold(strings.TrimSpace(library), l.name) {
			return l, nil
		}
	}
	return materialLibrary{}, &UnknownLibraryError{Kind: "material", Library: library, Known: MaterialLibraries()}
}

// candidates are what a miss may suggest: the canonical names, and each
// alias showing its canonical name.
func (l materialLibrary) candidates() []candidate {
	out := make([]candidate, 0, len(l.entries)+len(l.aliases))
	for _, m := range l.entries {
		out = append(out, candidate{forms: []string{materialKey(m.Name)}, show: m.Name})
		for _, a := range l.aliasesOf(m.Name) {
			out = append(out, candidate{forms: []string{a}, show: m.Name})
		}
	}
	return out
}
