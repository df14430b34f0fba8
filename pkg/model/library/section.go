package library

import (
	"sort"
	"strings"
	"sync"
)

// Section is a cross-section's stiffness properties in SI units together with
// the shape they came from. See the package doc for the axis convention.
type Section struct {
	Name    string  // canonical name within its library, e.g. "W310X97", or "W12X65" when looked up by the US label
	AltName string  // the same shape's label in the catalogue's other unit system ("W12X65" for "W310X97" and back); "" if none
	Library string  // canonical library name, e.g. "AISC15"
	A       float64 // area (m²)
	J       float64 // St Venant torsion constant (m⁴)
	Iy      float64 // second moment about local y, ∫z² dA (m⁴): weak axis of an I
	Iz      float64 // second moment about local z, ∫y² dA (m⁴): strong axis of an I
	Ay      float64 // shear area for shear along y (m²)
	Az      float64 // shear area for shear along z (m²)
	Shape   *Shape  // outline; nil only for sections built outside this package
}

// Canonical section library names.
const (
	LibAISC15     = "AISC15"
	LibAust300    = "Aust300"
	LibParametric = "Parametric"
)

// sectionLibrary resolves names within one library. Catalogue libraries are
// tables loaded once on first use; the parametric one builds on demand.
type sectionLibrary struct {
	name   string
	lookup func(name string) (Section, error)
	cat    *catalogue // nil for the parametric library
}

var sectionLibs = []sectionLibrary{
	{LibAISC15, lookupAISC15, &aisc15},
	{LibAust300, lookupAust300, &aust300},
	{LibParametric, lookupParametric, nil},
}

func findSectionLibrary(library string) (sectionLibrary, error) {
	for _, l := range sectionLibs {
		if strings.EqualFold(strings.TrimSpace(library), l.name) {
			return l, nil
		}
	}
	return sectionLibrary{}, &UnknownLibraryError{Kind: "section", Library: library, Known: SectionLibraries()}
}

// SectionLibraries returns the canonical names of the built-in section
// libraries, sorted.
func SectionLibraries() []string {
	out := make([]string, 0, len(sectionLibs))
	for _, l := range sectionLibs {
		out = append(out, l.name)
	}
	sort.Strings(out)
	return out
}

// LookupSection returns the named section of the named library. Library names
// are matched case-insensitively. Section names: AISC15 takes the
// AISC_Manual_Label of either sheet, metric ("W310X97") or US ("W12X65",
// "HSS8X4X3/8"), case and spaces ignored; both give the SI sheet's numbers
// and the name as the database prints it (see aisc.go). Aust300 the
// OneSteel/ATM designation ("360UB44.7", "100x100x6.0SHS", see aust300.go
// for accepted spellings), Parametric a keyword and mm dimensions
// ("RECT 300x200", see parametric.go). The returned Shape is the caller's own
// copy.
func LookupSection(library, name string) (Section, error) {
	l, err := findSectionLibrary(library)
	if err != nil {
		return Section{}, err
	}
	return l.lookup(name)
}

// SectionNames returns the canonical names of a catalogue library's sections
// in catalogue order. The parametric library has no finite list and returns
// an empty slice.
func SectionNames(library string) ([]string, error) {
	l, err := findSectionLibrary(library)
	if err != nil || l.cat == nil {
		return []string{}, err
	}
	t, err := l.cat.get()
	if err != nil {
		return nil, err
	}
	names := make([]string, len(t.entries))
	for i, s := range t.entries {
		names[i] = s.Name
	}
	return names, nil
}

// table is a loaded catalogue: sections by normalised key (every accepted
// label), plus the entries in catalogue order under their canonical names.
type table struct {
	byKey   map[string]Section
	entries []Section
	cands   []candidate // what a miss may suggest
}

// catalogue wraps a loader so that the embedded data is parsed once, on the
// first lookup, and only by the libraries actually used.
type catalogue struct {
	once  sync.Once
	load  func() (table, error)
	table table
	err   error
}

func (c *catalogue) get() (table, error) {
	c.once.Do(func() { c.table, c.err = c.load() })
	return c.table, c.err
}

// copyShape returns a section whose Shape pointer is private to the caller,
// so that nobody can alter the cached catalogue through it.
func copyShape(s Section) Section {
	if s.Shape != nil {
		sh := *s.Shape
		s.Shape = &sh
	}
	return s
}
