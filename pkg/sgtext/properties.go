package sgtext

import (
	"fmt"
	"strings"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/model/library"
)

const sectionLayout = "Sec,Secn,Lib,Mark,Ar,Ix,Iy,Iz,Ay,Az,Pa,Af,Ixf,Iyf,Izf,Shapes"

// Section: Sec,Secn,Lib[,Mark] names a library section; with its
// properties (sectionLayout, then AngleType and Transposed Y/N as this
// service's extension) the file's numbers count, and a known library
// gives the section its shape.
func readSection(b *builder, r *row) {
	r.need(2, "Sec,Secn")
	r.most(18, sectionLayout+",AngleType,Transposed")
	id, name, lib, mark := r.id(0, "Sec"), r.text(1, "Secn"), r.text(2, "Lib"), r.text(3, "Mark")
	if r.err != nil {
		return
	}
	var s model.Section
	known := false
	if lib != "" {
		if ls, err := library.LookupSection(lib, name); err == nil {
			s, known = ls.Record(mark), true
		}
	}
	if len(r.items) <= 4 {
		if !known {
			r.fail(1, "Secn", "section %q is not in a library this service holds (%s); give its properties on the line instead",
				name, strings.Join(library.SectionLibraries(), ", "))
			return
		}
		s.ID = id
		b.put(r, model.CollSections, s, id)
		return
	}
	if !known {
		s = model.Section{Name: name, Source: "User", Shapes: []model.Shape{}}
		if lib != "" {
			b.warn("library "+lib, fmt.Sprintf("section library %q is not one this service holds; its sections (first at line %d) keep the properties the file gives as user sections", lib, r.line))
		}
	}
	s.ID, s.Mark = id, mark
	f := func(path string) float64 { return b.conv.factor(&s, path) }
	// A property the line leaves 0 (files often give no shear areas)
	// keeps the library's value; a user section must give each.
	props := []struct {
		name, path string
		dst        *float64
	}{{"Ar", "a", &s.A}, {"Ix", "j", &s.J}, {"Iy", "iy", &s.Iy}, {"Iz", "iz", &s.Iz}, {"Ay", "ay", &s.Ay}, {"Az", "az", &s.Az}}
	for i, p := range props {
		if x := r.si(4+i, p.name, f(p.path)); x != 0 || !known {
			*p.dst = x
		}
	}
	s.PrincipalAngle = r.num(10, "Pa")
	factor := func(i int, name string) float64 {
		if x := r.num(i, name); x != 0 {
			return x
		}
		return 1
	}
	s.AreaFactor, s.TorsionFactor, s.IyFactor, s.IzFactor = factor(11, "Af"), factor(12, "Ixf"), factor(13, "Iyf"), factor(14, "Izf")
	if shapes := r.int(15, "Shapes"); shapes > 1000 {
		r.fail(15, "Shapes", "%d shapes is more than the 1000 a section may have", shapes)
	} else if shapes > 0 && r.err == nil {
		b.shape = shapeSkip{of: id, shapes: int(shapes)}
		b.warn("shapes", fmt.Sprintf("the shape lines of sections (first after line %d) are skipped: a library section takes its shape from the library, a user section has none", r.line))
	} else if shapes < 0 {
		r.fail(15, "Shapes", "the number of shapes cannot be negative")
	}
	s.AngleType = r.pick(16, "AngleType", angleTypes, "NotApplicable")
	s.Transposed = r.pick(17, "Transposed", yesNo, "N") == "Y"
	b.put(r, model.CollSections, s, id)
}

// shapeSkip counts the lines of section shapes still to pass over:
// three lines a shape, the first naming how many point lines follow the
// third.
type shapeSkip struct {
	of                   int64 // the section
	shapes, line, points int
	pending              int
}

func (k *shapeSkip) active() bool { return k.shapes > 0 || k.points > 0 }

// skipShapeLine passes over one line of a section's shapes.
func (b *builder) skipShapeLine(s string, line int) error {
	k := &b.shape
	if k.points > 0 {
		k.points--
		return nil
	}
	if k.line == 0 {
		items, err := splitItems(s, line)
		if err != nil {
			return err
		}
		r := &row{group: "SECTIONS", line: line, items: items}
		n := r.int(1, "Points")
		if n < 0 || n > 100000 {
			r.fail(1, "Points", "%d is not a number of points from 0 to 100000", n)
		}
		if r.err != nil {
			return r.err
		}
		k.pending = int(n)
	}
	if k.line++; k.line == 3 {
		k.line, k.points, k.pending = 0, k.pending, 0
		k.shapes--
	}
	return nil
}

func writeSection(w *writer, c converter, s model.Section) {
	f := func(path string) float64 { return c.factor(&s, path) }
	w.int(s.ID)
	w.text(s.Name)
	w.text(s.Library)
	w.text(s.Mark)
	w.si(s.A, f("a"))
	w.si(s.J, f("j"))
	w.si(s.Iy, f("iy"))
	w.si(s.Iz, f("iz"))
	w.si(s.Ay, f("ay"))
	w.si(s.Az, f("az"))
	w.num(s.PrincipalAngle)
	w.num(s.AreaFactor)
	w.num(s.TorsionFactor)
	w.num(s.IyFactor)
	w.num(s.IzFactor)
	w.int(0)
	w.code(s.AngleType)
	if s.Transposed {
		w.code("Y")
	} else {
		w.code("N")
	}
	w.end()
}

// Material: Mat,Name,Lib names a library material; with its properties
// Mat,Name,Lib,E,Pr,Den,Exp,Fc the file's numbers count.
func readMaterial(b *builder, r *row) {
	const layout = "Mat,Name,Lib,E,Pr,Den,Exp,Fc"
	r.need(2, "Mat,Name")
	r.most(8, layout)
	id, name, lib := r.id(0, "Mat"), r.text(1, "Name"), r.text(2, "Lib")
	if r.err != nil {
		return
	}
	var m model.Material
	known := false
	if lib != "" {
		if lm, err := library.LookupMaterial(lib, name); err == nil {
			m, known = lm.Record(), true
		}
	}
	if len(r.items) <= 3 {
		if !known {
			r.fail(1, "Name", "material %q is not in a library this service holds (%s); give its properties on the line instead",
				name, strings.Join(library.MaterialLibraries(), ", "))
			return
		}
		m.ID = id
		b.put(r, model.CollMaterials, m, id)
		return
	}
	if !known {
		m = model.Material{Name: name, Source: "User"}
	}
	m.ID, m.Name = id, name
	f := func(path string) float64 { return b.conv.factor(&m, path) }
	m.YoungsModulus = r.si(3, "E", f("youngsModulus"))
	m.PoissonsRatio = r.num(4, "Pr")
	m.MassDensity = r.si(5, "Den", f("massDensity"))
	m.ThermalCoeff = r.si(6, "Exp", f("thermalCoeff"))
	m.ConcreteStrength = r.si(7, "Fc", f("concreteStrength"))
	b.put(r, model.CollMaterials, m, id)
}

func writeMaterial(w *writer, c converter, m model.Material) {
	f := func(path string) float64 { return c.factor(&m, path) }
	w.int(m.ID)
	w.text(m.Name)
	w.text(m.Library)
	w.si(m.YoungsModulus, f("youngsModulus"))
	w.num(m.PoissonsRatio)
	w.si(m.MassDensity, f("massDensity"))
	w.si(m.ThermalCoeff, f("thermalCoeff"))
	w.si(m.ConcreteStrength, f("concreteStrength"))
	w.end()
}
