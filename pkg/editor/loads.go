package editor

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gusset/gusset/pkg/model"
)

// Loads holds the collections of the load model and their rules.
type Loads struct {
	e            *Editor
	s            *Structure
	Cases        *Collection[model.LoadCase]
	Combinations *Collection[model.CombinationLoadCase]
	Groups       *Collection[model.LoadCaseGroup]
	Categories   *Collection[model.LoadCategory]
	NodeLoads    *Collection[model.NodeLoad]
	Prescribed   *Collection[model.PrescribedDisplacement]
	LumpedMasses *Collection[model.LumpedMassLoad]
	Concentrated *Collection[model.MemberConcentratedLoad]
	Distributed  *Collection[model.MemberDistributedLoad]
	Moments      *Collection[model.MemberDistributedMoment]
	Prestress    *Collection[model.MemberPrestressLoad]
	Pressures    *Collection[model.PlatePressureLoad]
	SelfWeight   *Collection[model.SelfWeightLoad]
	Thermal      *Collection[model.ThermalLoad]
	Moving       *MovingLoads
}

// LoadCollections names the store collections of the load model.
var LoadCollections = []string{model.CollLoadCases, model.CollLoadCaseGroups, model.CollLoadCategories,
	model.CollNodeLoads, model.CollPrescribedDisplacements, model.CollLumpedMassLoads,
	model.CollMemberConcentratedLoads, model.CollMemberDistributedLoads, model.CollMemberTorsionLoads,
	model.CollMemberPrestressLoads, model.CollPlateLoads, model.CollSelfWeightLoads, model.CollThermalLoads}

// caseLoadCollections are the collections whose keys start with a load
// case: a case with a row in any of them is Primary.
var caseLoadCollections = LoadCollections[3:]

// Collections names every model collection of a job.
func Collections() []string {
	return append(append(append([]string{}, StructureCollections...), LoadCollections...), MovingLoadCollections...)
}

func caseRef(id int64) Ref {
	return Ref{Coll: model.CollLoadCases, Noun: "load case", Field: "loadCase", ID: id}
}

func categoryRefs(id int64) []Ref {
	if id == 0 {
		return nil
	}
	return []Ref{{Coll: model.CollLoadCategories, Noun: "load category", Field: "loadCategory", ID: id}}
}

// elementRefs builds Refs for a load on one element plus its case and
// category.
func elementRefs(lc int64, coll, noun, field string, id, cat int64) []Ref {
	return append([]Ref{caseRef(lc), {Coll: coll, Noun: noun, Field: field, ID: id}}, categoryRefs(cat)...)
}

// NewLoads binds the load collections to the editor.
func NewLoads(e *Editor, s *Structure) *Loads {
	l := &Loads{e: e, s: s}
	l.Cases = NewCollection(e, idKind(Kind[model.LoadCase]{Coll: model.CollLoadCases, Noun: "load case", AutoKey: true,
		Validate: func(c *model.LoadCase) error { return validateCaseText(c.Title, c.Notes, false) },
		// A deleted case with loads or items left keeps its row with an
		// empty title (DeleteCases), and a job saved so must open again.
		ValidateStored: func(c *model.LoadCase) error { return validateCaseText(c.Title, c.Notes, true) },
		Strip:          func(c *model.LoadCase) { c.Type, c.HasCombinationItems = "", false }},
		"id", func(c *model.LoadCase) *int64 { return &c.ID }))
	l.Combinations = NewCollection(e, idKind(Kind[model.CombinationLoadCase]{Coll: model.CollLoadCases, Noun: "combination load case", AutoKey: true,
		Defaults: func(c *model.CombinationLoadCase) {},
		Validate: func(c *model.CombinationLoadCase) error {
			if err := validateCaseText(c.Title, c.Notes, false); err != nil {
				return err
			}
			return validateItems(c.ID, c.CombinationItems)
		},
		Refs: func(c *model.CombinationLoadCase) []Ref {
			refs := make([]Ref, len(c.CombinationItems))
			for i, it := range c.CombinationItems {
				refs[i] = Ref{Coll: model.CollLoadCases, Noun: "load case", Field: fmt.Sprintf("combinationItems[%d].loadCase", i), ID: it.LoadCase}
			}
			return refs
		},
		Check: l.checkCombinations,
		Strip: func(c *model.CombinationLoadCase) { c.Type, c.HasCombinationItems = "", false }},
		"id", func(c *model.CombinationLoadCase) *int64 { return &c.ID }))
	l.Groups = NewCollection(e, idKind(Kind[model.LoadCaseGroup]{Coll: model.CollLoadCaseGroups, Noun: "load case group", AutoKey: true,
		Validate: func(g *model.LoadCaseGroup) error {
			if strings.TrimSpace(g.Title) == "" {
				return model.Invalid("title", "title must not be empty")
			}
			if list, ok, err := model.ParseIDList("loadCaseList", g.LoadCaseList); err != nil {
				return err
			} else if ok {
				g.LoadCaseList = list.String()
			}
			return nil
		}}, "id", func(g *model.LoadCaseGroup) *int64 { return &g.ID }))
	l.Categories = NewCollection(e, idKind(Kind[model.LoadCategory]{Coll: model.CollLoadCategories, Noun: "load category", AutoKey: true,
		Validate: func(c *model.LoadCategory) error {
			if strings.TrimSpace(c.Title) == "" {
				return model.Invalid("title", "title must not be empty")
			}
			return nil
		}, Users: l.categoryUsers}, "id", func(c *model.LoadCategory) *int64 { return &c.ID }))
	l.NodeLoads = NewCollection(e, elementLoadKind(l, model.CollNodeLoads, "node load", model.CollNodes, "node",
		func(x *model.NodeLoad) (*int64, *int64, int64) { return &x.LoadCase, &x.Node, x.LoadCategory }))
	l.Prescribed = NewCollection(e, elementLoadKind(l, model.CollPrescribedDisplacements, "prescribed displacement", model.CollNodes, "node",
		func(x *model.PrescribedDisplacement) (*int64, *int64, int64) {
			return &x.LoadCase, &x.Node, x.LoadCategory
		}))
	lumped := elementLoadKind(l, model.CollLumpedMassLoads, "lumped mass", model.CollNodes, "node",
		func(x *model.LumpedMassLoad) (*int64, *int64, int64) { return &x.LoadCase, &x.Node, x.LoadCategory })
	lumped.Validate = func(x *model.LumpedMassLoad) error {
		return nonNegative(
			named{"tmx", x.Tmx}, named{"tmy", x.Tmy}, named{"tmz", x.Tmz},
			named{"rmx", x.Rmx}, named{"rmy", x.Rmy}, named{"rmz", x.Rmz},
		)
	}
	l.LumpedMasses = NewCollection(e, lumped)
	l.Concentrated = NewCollection(e, subLoadKind(l, model.CollMemberConcentratedLoads, "member concentrated load", nil,
		func(x *model.MemberConcentratedLoad) subLoadParts {
			return subLoadParts{&x.LoadCase, &x.Member, &x.SubLoad, x.LoadCategory, x.PositionUnits, [2]position{{"position", x.Position}}, 1}
		}))
	l.Distributed = NewCollection(e, subLoadKind(l, model.CollMemberDistributedLoads, "member distributed load",
		func(x *model.MemberDistributedLoad) { x.PositionUnits, x.FinishPosition = "Percent", 100 },
		func(x *model.MemberDistributedLoad) subLoadParts {
			return subLoadParts{&x.LoadCase, &x.Member, &x.SubLoad, x.LoadCategory, x.PositionUnits,
				[2]position{{"startPosition", x.StartPosition}, {"finishPosition", x.FinishPosition}}, 2}
		}))
	l.Moments = NewCollection(e, subLoadKind(l, model.CollMemberTorsionLoads, "member distributed moment",
		func(x *model.MemberDistributedMoment) { x.PositionUnits, x.FinishPosition = "Percent", 100 },
		func(x *model.MemberDistributedMoment) subLoadParts {
			return subLoadParts{&x.LoadCase, &x.Member, &x.SubLoad, x.LoadCategory, x.PositionUnits,
				[2]position{{"startPosition", x.StartPosition}, {"finishPosition", x.FinishPosition}}, 2}
		}))
	l.Prestress = NewCollection(e, elementLoadKind(l, model.CollMemberPrestressLoads, "member prestress load", model.CollMembers, "member",
		func(x *model.MemberPrestressLoad) (*int64, *int64, int64) {
			return &x.LoadCase, &x.Member, x.LoadCategory
		}))
	l.Pressures = NewCollection(e, elementLoadKind(l, model.CollPlateLoads, "plate pressure load", model.CollPlates, "plate",
		func(x *model.PlatePressureLoad) (*int64, *int64, int64) { return &x.LoadCase, &x.Plate, x.LoadCategory }))
	l.SelfWeight = NewCollection(e, Kind[model.SelfWeightLoad]{Coll: model.CollSelfWeightLoads, Noun: "self-weight load",
		KeyFields: []string{"loadCase"},
		Key:       func(x *model.SelfWeightLoad) []int64 { return []int64{x.LoadCase} },
		SetKey:    func(x *model.SelfWeightLoad, k []int64) { x.LoadCase = k[0] },
		Refs: func(x *model.SelfWeightLoad) []Ref {
			return append([]Ref{caseRef(x.LoadCase)}, categoryRefs(x.LoadCategory)...)
		},
		Check: checkCases(l, func(x *model.SelfWeightLoad) int64 { return x.LoadCase })})
	l.Thermal = NewCollection(e, Kind[model.ThermalLoad]{Coll: model.CollThermalLoads, Noun: "thermal load",
		KeyFields: []string{"loadCase", "elementType", "elementId"},
		Key: func(x *model.ThermalLoad) []int64 {
			return []int64{x.LoadCase, ThermalTypeCode(x.ElementType), x.ElementID}
		},
		SetKey: func(x *model.ThermalLoad, k []int64) {
			x.LoadCase, x.ElementType, x.ElementID = k[0], ThermalTypeName(k[1]), k[2]
		},
		Refs: func(x *model.ThermalLoad) []Ref {
			if x.ElementType == "Plate" {
				return elementRefs(x.LoadCase, model.CollPlates, "plate", "elementId", x.ElementID, x.LoadCategory)
			}
			return elementRefs(x.LoadCase, model.CollMembers, "member", "elementId", x.ElementID, x.LoadCategory)
		},
		Check: checkCases(l, func(x *model.ThermalLoad) int64 { return x.LoadCase })})
	s.AddDependent(l.cascade)
	l.Moving = NewMovingLoads(e, s)
	l.Moving.loads = l
	return l
}

// ThermalTypeCode is the key part of a thermal element type.
func ThermalTypeCode(name string) int64 {
	if name == "Plate" {
		return model.ThermalPlate
	}
	return model.ThermalMember
}

// ThermalTypeName is the element type of a thermal key part.
func ThermalTypeName(code int64) string {
	if code == model.ThermalPlate {
		return "Plate"
	}
	return "Member"
}

// validateCaseText checks a load case's title and notes; blank allows
// the empty title of a deleted case that stays listed.
func validateCaseText(title, notes string, blank bool) error {
	switch {
	case strings.TrimSpace(title) == "" && !(blank && title == ""):
		return model.Invalid("title", "title is required and must not be blank")
	case utf8.RuneCountInString(title) > model.MaxCaseTitle:
		return model.Invalid("title", "title has %d characters; at most %d are allowed", utf8.RuneCountInString(title), model.MaxCaseTitle)
	case utf8.RuneCountInString(notes) > model.MaxCaseNotes:
		return model.Invalid("notes", "notes has %d characters; at most %d are allowed", utf8.RuneCountInString(notes), model.MaxCaseNotes)
	}
	return nil
}

// validateItems applies the spec's item rules that need no lookups: the
// list is not empty, no item is the case itself, no case appears twice.
func validateItems(self int64, items []model.CombinationItem) error {
	if len(items) == 0 {
		return model.Invalid("combinationItems", "a combination needs at least one item")
	}
	seen := map[int64]int{}
	for i, it := range items {
		f := fmt.Sprintf("combinationItems[%d].loadCase", i)
		if self != 0 && it.LoadCase == self {
			return model.Invalid(f, "%s: a combination cannot include itself (load case %d)", f, self)
		}
		if j, dup := seen[it.LoadCase]; dup {
			return model.Invalid(f, "%s: load case %d is already item %d; each case may appear once", f, it.LoadCase, j)
		}
		seen[it.LoadCase] = i
	}
	return nil
}

// elementLoadKind describes a load keyed by its case and one element (a
// node, member or plate, also the name of the key field).
func elementLoadKind[T any](l *Loads, coll, noun, elemColl, elem string, parts func(*T) (lc, id *int64, cat int64)) Kind[T] {
	return Kind[T]{Coll: coll, Noun: noun, KeyFields: []string{"loadCase", elem},
		Key: func(x *T) []int64 { lc, id, _ := parts(x); return []int64{*lc, *id} },
		SetKey: func(x *T, k []int64) {
			lc, id, _ := parts(x)
			*lc, *id = k[0], k[1]
		},
		Refs: func(x *T) []Ref {
			lc, id, cat := parts(x)
			return elementRefs(*lc, elemColl, elem, elem, *id, cat)
		},
		Check: checkCases(l, func(x *T) int64 { lc, _, _ := parts(x); return *lc })}
}

// subLoadParts are the fields of a member load numbered by sub-load.
type subLoadParts struct {
	lc, member, sub *int64
	cat             int64
	units           string
	// The first npos positions, in order along the member. An array, not a
	// slice: parts runs several times per record of a 10,000-row batch.
	pos  [2]position
	npos int
}

// position is a named position along a member.
type position struct {
	field string
	value float64
}

// subLoadKind describes a member load keyed by case, member and a
// server-numbered sub-load, with positions along the member.
func subLoadKind[T any](l *Loads, coll, noun string, defaults func(*T), parts func(*T) subLoadParts) Kind[T] {
	return Kind[T]{Coll: coll, Noun: noun, KeyFields: []string{"loadCase", "member", "subLoad"}, AutoKey: true,
		Key: func(x *T) []int64 { p := parts(x); return []int64{*p.lc, *p.member, *p.sub} },
		SetKey: func(x *T, k []int64) {
			p := parts(x)
			*p.lc, *p.member, *p.sub = k[0], k[1], k[2]
		},
		Defaults: defaults,
		Refs: func(x *T) []Ref {
			p := parts(x)
			return elementRefs(*p.lc, model.CollMembers, "member", "member", *p.member, p.cat)
		},
		Check: checkMemberLoadsOf(l, parts)}
}
