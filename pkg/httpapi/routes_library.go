package httpapi

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/model/library"
)

// LibraryDescription is one built-in library in GET sections/libraries and
// materials/libraries.
type LibraryDescription struct {
	Library     string `json:"library" doc:"canonical library name, as the library parameter and the library creates take it"`
	Entries     int    `json:"entries" doc:"number of entries; 0 for Parametric"`
	Parametric  bool   `json:"parametric" doc:"true when sections are built from the dimensions in their names, so there is nothing to list"`
	Description string `json:"description" doc:"what the library holds and how its names are spelt"`
}

// LibrarySection is one section of GET sections/library, in the job units:
// what POST sections/library would store under that name.
type LibrarySection struct {
	Name    string      `json:"name" doc:"canonical name in its library; the US label when name= looks one up"`
	AltName string      `json:"altName,omitempty" doc:"AISC15: the same shape's label in the database's other sheet (W14X90 for W360X134 and back)"`
	Library string      `json:"library"`
	A       float64     `json:"a" unit:"sectionProperties^2"`
	J       float64     `json:"j" unit:"sectionProperties^4"`
	Iy      float64     `json:"iy" unit:"sectionProperties^4" doc:"second moment about local y (weak axis of an I)"`
	Iz      float64     `json:"iz" unit:"sectionProperties^4" doc:"second moment about local z (strong axis of an I)"`
	Ay      float64     `json:"ay" unit:"sectionProperties^2"`
	Az      float64     `json:"az" unit:"sectionProperties^2"`
	Shape   model.Shape `json:"shape" doc:"family, dimensions and extreme-fibre distances, as kept in a stored section's shapes"`
}

// LibraryMaterial is one material of GET materials/library, in the job
// units.
type LibraryMaterial struct {
	Name             string   `json:"name"`
	Library          string   `json:"library"`
	Aliases          []string `json:"aliases" doc:"other names the library accepts for it, normalised (upper case, no spaces, - or _)"`
	YoungsModulus    float64  `json:"youngsModulus" unit:"materialStrength"`
	PoissonsRatio    float64  `json:"poissonsRatio"`
	MassDensity      float64  `json:"massDensity" unit:"massDensity"`
	ThermalCoeff     float64  `json:"thermalCoeff" unit:"temperature^-1"`
	ConcreteStrength float64  `json:"concreteStrength" unit:"materialStrength" doc:"f'c or fck; 0 if not concrete"`
	Reference        string   `json:"reference" doc:"the standard, clause or table the values come from"`
}

// registerLibraryRoutes adds the library listings. It runs before the
// sections and materials collections register their "/:id" routes, so that
// "libraries" and "library" are not read as ids.
func (a *API) registerLibraryRoutes() {
	const tag = "Structure"
	secs, mats := structurePath+"/sections", structurePath+"/materials"
	listing := func(kind, names, example string) string {
		return "Lists what the built-in " + kind + " libraries hold, in the job units (a job must be open), in catalogue order. " +
			"library narrows the list to one library (any case); without it every library is listed, one after the other in the order of " +
			kind + "s/libraries, so that a search finds a name wherever it is. search keeps the entries whose name or other accepted " + names +
			" contains it, compared as lookups compare names (" + example + "); without it every entry is listed. " +
			"name instead looks one name up exactly as POST " + kind + "s/library does, with every spelling that accepts, and answers it as a one-entry list " +
			"(without library: each library that has it); a miss is a 404 whose message suggests the closest names. name and search together are a 400. " +
			"offset and limit page the result as in other lists (headers Total-Count, Offset, Limit). An unknown library is a 400 listing the known ones."
	}
	page := []param{
		{name: "library", typ: "string", desc: "one library (any case); default all"},
		{name: "search", typ: "string", desc: "case-insensitive substring of the name or another accepted name"},
		{name: "name", typ: "string", desc: "exact lookup of one name, as the library create accepts it"},
		{name: "offset", typ: "integer", desc: "rows to skip, 0 to 2147483647 (default 0)"},
		{name: "limit", typ: "integer", desc: "rows to return, 1 to 2147483647 (default all)"},
	}
	a.add(route{method: "GET", path: secs + "/libraries", tag: tag, summary: "List the built-in section libraries",
		desc: "The section libraries with their entry counts and what they hold. Needs no open job. " +
			"Parametric has no entries: it builds a section from the dimensions in its name.",
		responses: map[int]any{200: []LibraryDescription{}}, handler: func(c *fiber.Ctx) error {
			infos, err := library.SectionLibraryInfo()
			if err != nil {
				return err
			}
			return c.JSON(describeLibraries(infos))
		}})
	a.add(route{method: "GET", path: secs + "/library", tag: tag, headers: pagingHeaders, summary: "List or look up sections of the built-in libraries",
		desc: listing("section", "label (AISC15: the US label, W14X90 for W360X134)", "case and spaces ignored") +
			" Parametric lists nothing; name= computes a parametric section (RECT 300x200).",
		query: page, responses: map[int]any{200: []LibrarySection{}}, errors: []int{400, 404, 409},
		handler: func(c *fiber.Ctx) error {
			return libraryList(a, c, library.SectionLibraries(),
				func(lib, q string) ([]LibrarySection, error) {
					ss, err := library.SearchSections(lib, q)
					out := make([]LibrarySection, len(ss))
					for i, s := range ss {
						out[i] = librarySectionWire(s)
					}
					return out, err
				},
				func(lib, name string) (LibrarySection, error) {
					s, err := library.LookupSection(lib, name)
					return librarySectionWire(s), err
				})
		}})
	a.add(route{method: "GET", path: mats + "/libraries", tag: tag, summary: "List the built-in material libraries",
		desc:      "The material libraries with their entry counts and what they hold. Needs no open job.",
		responses: map[int]any{200: []LibraryDescription{}}, handler: func(c *fiber.Ctx) error {
			return c.JSON(describeLibraries(library.MaterialLibraryInfo()))
		}})
	a.add(route{method: "GET", path: mats + "/library", tag: tag, headers: pagingHeaders, summary: "List or look up materials of the built-in libraries",
		desc:  listing("material", "name (aliases such as CONC32 for N32)", "case, spaces, - and _ ignored"),
		query: page, responses: map[int]any{200: []LibraryMaterial{}}, errors: []int{400, 404, 409},
		handler: func(c *fiber.Ctx) error {
			return libraryList(a, c, library.MaterialLibraries(),
				func(lib, q string) ([]LibraryMaterial, error) {
					ms, err := library.SearchMaterials(lib, q)
					out := make([]LibraryMaterial, len(ms))
					for i, m := range ms {
						out[i] = libraryMaterialWire(m)
					}
					return out, err
				},
				func(lib, name string) (LibraryMaterial, error) {
					m, err := library.LookupMaterial(lib, name)
					return libraryMaterialWire(m), err
				})
		}})
}

// describeLibraries maps the library package's descriptions to the wire.
func describeLibraries(infos []library.LibraryInfo) []LibraryDescription {
	out := make([]LibraryDescription, len(infos))
	for i, l := range infos {
		out[i] = LibraryDescription{Library: l.Name, Entries: l.Entries, Parametric: l.Parametric, Description: l.Description}
	}
	return out
}

// librarySectionWire maps a library section (SI) to its listing entry (SI;
// toWire scales it).
func librarySectionWire(s library.Section) LibrarySection {
	out := LibrarySection{Name: s.Name, AltName: s.AltName, Library: s.Library, A: s.A, J: s.J, Iy: s.Iy, Iz: s.Iz, Ay: s.Ay, Az: s.Az}
	if st := s.Record(""); len(st.Shapes) > 0 {
		out.Shape = st.Shapes[0]
	}
	return out
}

// libraryMaterialWire maps a library material (SI) to its listing entry.
func libraryMaterialWire(m library.Material) LibraryMaterial {
	return LibraryMaterial{Name: m.Name, Library: m.Library, Aliases: library.MaterialAliases(m.Library, m.Name),
		YoungsModulus: m.YoungsModulus, PoissonsRatio: m.PoissonsRatio, MassDensity: m.MassDensity,
		ThermalCoeff: m.ThermalCoeff, ConcreteStrength: m.ConcreteStrength, Reference: m.Source}
}

// libraryList serves a library listing: a search (or one name) over one
// library or all of libs, paged, in the job units.
func libraryList[E any](a *API, c *fiber.Ctx, libs []string, search func(lib, q string) ([]E, error),
	lookup func(lib, name string) (E, error)) error {
	lib, q, name := c.Query("library"), c.Query("search"), c.Query("name")
	if name != "" && q != "" {
		return model.Invalid("name", "name looks one entry up and search filters the list: give one of them")
	}
	offset, limit, err := paging(c)
	if err != nil {
		return err
	}
	job, err := a.sess.Job(c.UserContext(), workspace(c))
	if err != nil {
		return err
	}
	if lib != "" {
		libs = []string{lib}
	}
	all := []E{}
	var misses []*library.NotFoundError
	for _, l := range libs {
		if name == "" {
			found, err := search(l, q)
			if err != nil {
				return libraryError(err, "search")
			}
			all = append(all, found...)
			continue
		}
		e, err := lookup(l, name)
		var miss *library.NotFoundError
		switch {
		case err == nil:
			all = append(all, e)
		case errors.As(err, &miss) && lib == "":
			misses = append(misses, miss)
		default:
			return libraryError(err, "name")
		}
	}
	if name != "" && len(all) == 0 {
		return missEverywhere(name, libs, misses)
	}
	total := int64(len(all))
	page := all[min(offset, total):]
	if limit >= 0 {
		page = page[:min(limit, int64(len(page)))]
	}
	out := make([]E, len(page))
	for i := range page {
		out[i] = toWire(page[i], job.Units)
	}
	setPaging(c, total, offset, limit, limit >= 0 && offset+limit < total)
	return c.JSON(out)
}

// missEverywhere is the 404 of a name looked up in every library: it names
// the libraries and, per library, the closest names it holds.
func missEverywhere(name string, libs []string, misses []*library.NotFoundError) error {
	kind := "entry"
	var closest []string
	for _, m := range misses {
		kind = m.Kind
		if len(m.Suggestions) > 0 {
			q := make([]string, len(m.Suggestions))
			for i, s := range m.Suggestions {
				q[i] = strconv.Quote(s)
			}
			closest = append(closest, "closest in "+m.Library+": "+strings.Join(q, ", "))
		}
	}
	msg := fmt.Sprintf("%s %q not found in any library (%s)", kind, name, strings.Join(libs, ", "))
	if len(closest) > 0 {
		msg += "; " + strings.Join(closest, "; ")
	}
	return model.E(model.KindNotFound, "%s", msg)
}

// libraryError maps the library package's errors onto the error table.
func libraryError(err error, field string) error {
	switch {
	case errors.Is(err, library.ErrUnknownLibrary):
		return model.Invalid("library", "%v", err)
	case errors.Is(err, library.ErrNotFound):
		return model.E(model.KindNotFound, "%v", err)
	case errors.Is(err, library.ErrInvalidDimensions):
		return model.Invalid(field, "%v", err)
	}
	return err
}
