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
		Validate: func(c *model.LoadCase) error { return validateCaseText(c.Title, c.Notes) },
		Strip:    func(c *model.LoadCase) { c.Type, c.HasCombinationItems = "", false }},
		"id", func(c *model.LoadCase) *int64 { return &c.ID }))
	l.Combinations = NewCollection(e, idKind(Kind[model.CombinationLoadCase]{Coll: model.CollLoadCases, Noun: "combination load case", AutoKey: true,
		Defaults: func(c *model.CombinationLoadCase) {},
		Validate: func(c *model.CombinationLoadCase) error {
			if err := validateCaseText(c.Title, c.Notes); err != nil {
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
		}}, "id", func(c *model.LoadCategory) *int64 { return &c.ID }))
	l.NodeLoads = NewCollection(e, Kind[model.NodeLoad]{Coll: model.CollNodeLoads, Noun: "node load",
		KeyFields: []string{"loadCase", "node"},
		Key:       func(x *model.NodeLoad) []int64 { return []int64{x.LoadCase, x.Node} },
		SetKey:    func(x *model.NodeLoad, k []int64) { x.LoadCase, x.Node = k[0], k[1] },
		Refs: func(x *model.NodeLoad) []Ref {
			return elementRefs(x.LoadCase, model.CollNodes, "node", "node", x.Node, x.LoadCategory)
		},
		Check: checkCases(l, func(x *model.NodeLoad) int64 { return x.LoadCase })})
	l.Prescribed = NewCollection(e, Kind[model.PrescribedDisplacement]{Coll: model.CollPrescribedDisplacements, Noun: "prescribed displacement",
		KeyFields: []string{"loadCase", "node"},
		Key:       func(x *model.PrescribedDisplacement) []int64 { return []int64{x.LoadCase, x.Node} },
		SetKey:    func(x *model.PrescribedDisplacement, k []int64) { x.LoadCase, x.Node = k[0], k[1] },
		Refs: func(x *model.PrescribedDisplacement) []Ref {
			return elementRefs(x.LoadCase, model.CollNodes, "node", "node", x.Node, x.LoadCategory)
		},
		Check: checkCases(l, func(x *model.PrescribedDisplacement) int64 { return x.LoadCase })})
	l.LumpedMasses = NewCollection(e, Kind[model.LumpedMassLoad]{Coll: model.CollLumpedMassLoads, Noun: "lumped mass",
		KeyFields: []string{"loadCase", "node"},
		Key:       func(x *model.LumpedMassLoad) []int64 { return []int64{x.LoadCase, x.Node} },
		SetKey:    func(x *model.LumpedMassLoad, k []int64) { x.LoadCase, x.Node = k[0], k[1] },
		Validate: func(x *model.LumpedMassLoad) error {
			return nonNegative(
				named{"tmx", x.Tmx}, named{"tmy", x.Tmy}, named{"tmz", x.Tmz},
				named{"rmx", x.Rmx}, named{"rmy", x.Rmy}, named{"rmz", x.Rmz},
			)
		},
		Refs: func(x *model.LumpedMassLoad) []Ref {
			return elementRefs(x.LoadCase, model.CollNodes, "node", "node", x.Node, x.LoadCategory)
		},
		Check: checkCases(l, func(x *model.LumpedMassLoad) int64 { return x.LoadCase })})
	l.Concentrated = NewCollection(e, Kind[model.MemberConcentratedLoad]{Coll: model.CollMemberConcentratedLoads, Noun: "member concentrated load",
		KeyFields: []string{"loadCase", "member", "subLoad"}, AutoKey: true,
		Key:    func(x *model.MemberConcentratedLoad) []int64 { return []int64{x.LoadCase, x.Member, x.SubLoad} },
		SetKey: func(x *model.MemberConcentratedLoad, k []int64) { x.LoadCase, x.Member, x.SubLoad = k[0], k[1], k[2] },
		Refs: func(x *model.MemberConcentratedLoad) []Ref {
			return elementRefs(x.LoadCase, model.CollMembers, "member", "member", x.Member, x.LoadCategory)
		},
		Check: checkMemberLoadsOf(l, func(x *model.MemberConcentratedLoad) (int64, int64, string, [][2]any) {
			return x.LoadCase, x.Member, x.PositionUnits, [][2]any{{"position", x.Position}}
		})})
	l.Distributed = NewCollection(e, Kind[model.MemberDistributedLoad]{Coll: model.CollMemberDistributedLoads, Noun: "member distributed load",
		KeyFields: []string{"loadCase", "member", "subLoad"}, AutoKey: true,
		Key:      func(x *model.MemberDistributedLoad) []int64 { return []int64{x.LoadCase, x.Member, x.SubLoad} },
		SetKey:   func(x *model.MemberDistributedLoad, k []int64) { x.LoadCase, x.Member, x.SubLoad = k[0], k[1], k[2] },
		Defaults: func(x *model.MemberDistributedLoad) { x.PositionUnits, x.FinishPosition = "Percent", 100 },
		Refs: func(x *model.MemberDistributedLoad) []Ref {
			return elementRefs(x.LoadCase, model.CollMembers, "member", "member", x.Member, x.LoadCategory)
		},
		Check: checkMemberLoadsOf(l, func(x *model.MemberDistributedLoad) (int64, int64, string, [][2]any) {
			return x.LoadCase, x.Member, x.PositionUnits, [][2]any{{"startPosition", x.StartPosition}, {"finishPosition", x.FinishPosition}}
		})})
	l.Moments = NewCollection(e, Kind[model.MemberDistributedMoment]{Coll: model.CollMemberTorsionLoads, Noun: "member distributed moment",
		KeyFields: []string{"loadCase", "member", "subLoad"}, AutoKey: true,
		Key:      func(x *model.MemberDistributedMoment) []int64 { return []int64{x.LoadCase, x.Member, x.SubLoad} },
		SetKey:   func(x *model.MemberDistributedMoment, k []int64) { x.LoadCase, x.Member, x.SubLoad = k[0], k[1], k[2] },
		Defaults: func(x *model.MemberDistributedMoment) { x.PositionUnits, x.FinishPosition = "Percent", 100 },
		Refs: func(x *model.MemberDistributedMoment) []Ref {
			return elementRefs(x.LoadCase, model.CollMembers, "member", "member", x.Member, x.LoadCategory)
		},
		Check: checkMemberLoadsOf(l, func(x *model.MemberDistributedMoment) (int64, int64, string, [][2]any) {
			return x.LoadCase, x.Member, x.PositionUnits, [][2]any{{"startPosition", x.StartPosition}, {"finishPosition", x.FinishPosition}}
		})})
	l.Prestress = NewCollection(e, Kind[model.MemberPrestressLoad]{Coll: model.CollMemberPrestressLoads, Noun: "member prestress load",
		KeyFields: []string{"loadCase", "member"},
		Key:       func(x *model.MemberPrestressLoad) []int64 { return []int64{x.LoadCase, x.Member} },
		SetKey:    func(x *model.MemberPrestressLoad, k []int64) { x.LoadCase, x.Member = k[0], k[1] },
		Refs: func(x *model.MemberPrestressLoad) []Ref {
			return elementRefs(x.LoadCase, model.CollMembers, "member", "member", x.Member, x.LoadCategory)
		},
		Check: checkCases(l, func(x *model.MemberPrestressLoad) int64 { return x.LoadCase })})
	l.Pressures = NewCollection(e, Kind[model.PlatePressureLoad]{Coll: model.CollPlateLoads, Noun: "plate pressure load",
		KeyFields: []string{"loadCase", "plate"},
		Key:       func(x *model.PlatePressureLoad) []int64 { return []int64{x.LoadCase, x.Plate} },
		SetKey:    func(x *model.PlatePressureLoad, k []int64) { x.LoadCase, x.Plate = k[0], k[1] },
		Refs: func(x *model.PlatePressureLoad) []Ref {
			return elementRefs(x.LoadCase, model.CollPlates, "plate", "plate", x.Plate, x.LoadCategory)
		},
		Check: checkCases(l, func(x *model.PlatePressureLoad) int64 { return x.LoadCase })})
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

func validateCaseText(title, notes string) error {
	switch {
	case strings.TrimSpace(title) == "":
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
