package library

import (
	"sort"
	"strings"
)

// LibraryInfo describes one built-in library for a listing of libraries.
type LibraryInfo struct {
	Name        string // canonical library name, e.g. "AISC15"
	Entries     int    // number of entries; 0 for Parametric
	Parametric  bool   // sections are built from the dimensions in their names: nothing to list
	Description string // what the library holds and how its names are spelt
}

// libraryDescriptions are the LibraryInfo descriptions by canonical name.
var libraryDescriptions = map[string]string{
	LibAISC15: "AISC Shapes Database v15.0: W, M, S, HP, C, MC, WT, MT, ST, L, 2L, HSS and Pipe shapes, " +
		"by metric label (W360X134) or US label (W14X90); both give the SI sheet's properties",
	LibAust300: "Australian hot-rolled UB, UC and PFC (AS/NZS 3679.1 Grade 300) and cold-formed SHS, RHS and CHS " +
		"(AS/NZS 1163), properties computed from the catalogue dimensions, e.g. 360UB44.7, 100x100x6.0SHS, 168.3x7.1CHS",
	LibParametric: "built on demand from the dimensions (mm) in the name: RECT d x b, RHS d x b x t, ROUND D, TUBE D x t, " +
		"e.g. RECT 300x200",
	LibAust: "Australian standards: STEEL (AS 4100), concrete N20 to N100 (AS 3600), ALUMINIUM, timber F17 and MGP10 (AS 1720.1)",
	LibUS:   "US standards: steels A992, A36, A572-50 (AISC 360), concrete CONC3000 to CONC6000 (ACI 318, f'c in psi), AL6061-T6",
	LibEuro: "Eurocodes: steels S235, S275, S355 (EN 1993-1-1), concrete C20/25 to C50/60 (EN 1992-1-1), ALUMINIUM (EN 1999-1-1)",
}

// SectionLibraryInfo describes the built-in section libraries, sorted by
// name like [SectionLibraries]. It loads the catalogues to count them, so
// its only error is a failure to read the embedded data.
func SectionLibraryInfo() ([]LibraryInfo, error) {
	out := make([]LibraryInfo, 0, len(sectionLibs))
	for _, name := range SectionLibraries() {
		l, _ := findSectionLibrary(name)
		info := LibraryInfo{Name: l.name, Parametric: l.cat == nil, Description: libraryDescriptions[l.name]}
		if l.cat != nil {
			t, err := l.cat.get()
			if err != nil {
				return nil, err
			}
			info.Entries = len(t.entries)
		}
		out = append(out, info)
	}
	return out, nil
}

// MaterialLibraryInfo describes the built-in material libraries, sorted by
// name like [MaterialLibraries].
func MaterialLibraryInfo() []LibraryInfo {
	out := make([]LibraryInfo, 0, len(materialLibs))
	for _, name := range MaterialLibraries() {
		l, _ := findMaterialLibrary(name)
		out = append(out, LibraryInfo{Name: l.name, Entries: len(l.entries), Description: libraryDescriptions[l.name]})
	}
	return out
}

// searchKey normalises a section name or search text as section lookups
// do: case and spaces are ignored, and "×" is "X".
func searchKey(s string) string {
	return strings.ReplaceAll(strings.ToUpper(strings.Join(strings.Fields(s), "")), "×", "X")
}

// SearchSections returns the sections of a catalogue library whose name or
// AltName (AISC15: the US label) contains search, compared as lookups
// compare names (case and spaces ignored), in catalogue order and under
// their canonical names. An empty search matches every section. The
// parametric library has no list and returns none. Each Shape is the
// caller's own copy.
func SearchSections(library, search string) ([]Section, error) {
	l, err := findSectionLibrary(library)
	if err != nil || l.cat == nil {
		return []Section{}, err
	}
	t, err := l.cat.get()
	if err != nil {
		return nil, err
	}
	q := searchKey(search)
	out := []Section{}
	for _, s := range t.entries {
		if strings.Contains(searchKey(s.Name), q) || (s.AltName != "" && strings.Contains(searchKey(s.AltName), q)) {
			out = append(out, copyShape(s))
		}
	}
	return out, nil
}

// SearchMaterials returns the materials of a library whose name or one of
// whose aliases contains search, compared as [LookupMaterial] compares
// names (case, spaces, "-" and "_" ignored), in table order. An empty
// search matches every material.
func SearchMaterials(library, search string) ([]Material, error) {
	l, err := findMaterialLibrary(library)
	if err != nil {
		return nil, err
	}
	q := materialKey(search)
	out := []Material{}
	for _, m := range l.entries {
		match := strings.Contains(materialKey(m.Name), q)
		for _, a := range l.aliasesOf(m.Name) {
			match = match || strings.Contains(a, q)
		}
		if match {
			m.Library = l.name
			out = append(out, m)
		}
	}
	return out, nil
}

// MaterialAliases returns the other names [LookupMaterial] accepts for a
// material, in their normalised form (upper case, without spaces, "-" or
// "_"), sorted; none for an unknown library or material. name may be
// spelt as LookupMaterial accepts it.
func MaterialAliases(library, name string) []string {
	l, err := findMaterialLibrary(library)
	if err != nil {
		return []string{}
	}
	m, err := LookupMaterial(l.name, name)
	if err != nil {
		return []string{}
	}
	return l.aliasesOf(m.Name)
}

// aliasesOf lists the alias keys that lead to the canonical name, sorted.
func (l materialLibrary) aliasesOf(canonical string) []string {
	out := []string{}
	for alias, target := range l.aliases {
		if target == canonical {
			out = append(out, alias)
		}
	}
	sort.Strings(out)
	return out
}
