package httpapi

import (
	"context"
	"reflect"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
)

const loadsPath = "/job/loads"

// ItemsBody is the body of GET and PUT combination-load-cases/{id}/items.
type ItemsBody struct {
	CombinationItems []model.CombinationItem `json:"combinationItems"`
}

func (a *API) registerLoadRoutes() {
	l := a.loads
	const tag = "Loads"
	cases := &collection[model.LoadCase]{a: a, c: l.Cases, path: loadsPath + "/load-cases", tag: tag, idFilter: "loadCases",
		expandable: []string{"combinationItems"}, removeBody: editor.CaseDeleteResult{},
		desc: "Filters: loadCases (id list), titleSearch (case-insensitive contains), type (Primary, Combination, Step, Unused). " +
			"type is computed: Combination with items, Primary with loads, Unused otherwise; Step for the load steps a non-linear " +
			"run kept (keepLoadSteps), with stepOf naming their case: they carry results, never loads, and go with those results.",
		filters: []filter[model.LoadCase]{
			{name: "titleSearch", typ: "string", desc: "case-insensitive substring of the title",
				build: func(_ context.Context, _, v string, _ model.Units) (func(*model.LoadCase) bool, error) {
					needle := strings.ToLower(v)
					return func(c *model.LoadCase) bool { return strings.Contains(strings.ToLower(c.Title), needle) }, nil
				}},
			{name: "type", typ: "string", desc: "Primary, Combination, Step or Unused", build: a.caseTypeFilter},
		}}
	cases.removeDesc = caseDeleteDoc
	cases.hydrate = a.hydrateCases
	cases.remove = a.removeCases(false)
	cases.register()

	combos := &collection[model.CombinationLoadCase]{a: a, c: l.Combinations, path: loadsPath + "/combination-load-cases", tag: tag,
		idFilter: "loadCases", removeBody: editor.CaseDeleteResult{}, expandable: []string{"combinationItems"},
		desc: "Cases of type Combination only. Lists leave combinationItems out unless expand=All; a get has them unless expand=None. " +
			"Items: loadCase and multiplyingFactor (default 1). Rules: at least one item; each component exists " +
			"and is Primary, Combination or Unused (never Step); no self-reference; no case twice; no cycle through other combinations.",
		only: func(c *model.CombinationLoadCase) bool { return len(c.CombinationItems) > 0 },
		filters: []filter[model.CombinationLoadCase]{{name: "titleSearch", typ: "string", desc: "case-insensitive substring of the title",
			build: func(_ context.Context, _, v string, _ model.Units) (func(*model.CombinationLoadCase) bool, error) {
				needle := strings.ToLower(v)
				return func(c *model.CombinationLoadCase) bool { return strings.Contains(strings.ToLower(c.Title), needle) }, nil
			}}}}
	combos.hydrate = func(_ context.Context, _ string, recs []model.CombinationLoadCase, all bool) error {
		for i := range recs {
			recs[i].Type, recs[i].HasCombinationItems = model.CaseCombination, len(recs[i].CombinationItems) > 0
			if !all {
				recs[i].CombinationItems = nil
			}
		}
		return nil
	}
	combos.remove, combos.removeDesc = a.removeCases(true), caseDeleteDoc
	combos.extraRoutes = func() { a.registerCombinationItems(combos) }
	combos.register()

	groups := &collection[model.LoadCaseGroup]{a: a, c: l.Groups, path: loadsPath + "/load-case-groups", tag: tag, idFilter: "loadCaseGroups",
		desc: "loadCaseList is an id list string such as \"1,3-7\"."}
	groups.remove = removeRowsOf(l.Groups)
	groups.register()

	cats := &collection[model.LoadCategory]{a: a, c: l.Categories, path: loadsPath + "/load-categories", tag: tag, idFilter: "loadCategories",
		desc: "source, version and username are set by the server: source Api, the service version, and the workspace name."}
	cats.onCreate = func(c *fiber.Ctx, rec *model.LoadCategory) {
		rec.Source, rec.Version, rec.Username = "Api", Version, workspace(c)
	}
	cats.remove = removeRowsOf(l.Categories) // 409 while loads use it
	cats.register()

	registerLoad(a, l.NodeLoads, "/node-loads", "nodes", func(x *model.NodeLoad) int64 { return x.Node }, func(x *model.NodeLoad) int64 { return x.LoadCategory })
	registerLoad(a, l.Prescribed, "/prescribed-displacements", "nodes", func(x *model.PrescribedDisplacement) int64 { return x.Node },
		func(x *model.PrescribedDisplacement) int64 { return x.LoadCategory })
	registerLoad(a, l.LumpedMasses, "/lumped-mass-loads", "nodes", func(x *model.LumpedMassLoad) int64 { return x.Node },
		func(x *model.LumpedMassLoad) int64 { return x.LoadCategory })
	registerLoad(a, l.Concentrated, "/member-concentrated-loads", "members", func(x *model.MemberConcentratedLoad) int64 { return x.Member },
		func(x *model.MemberConcentratedLoad) int64 { return x.LoadCategory })
	registerLoad(a, l.Distributed, "/member-distributed-loads", "members", func(x *model.MemberDistributedLoad) int64 { return x.Member },
		func(x *model.MemberDistributedLoad) int64 { return x.LoadCategory })
	registerLoad(a, l.Moments, "/member-distributed-moments", "members", func(x *model.MemberDistributedMoment) int64 { return x.Member },
		func(x *model.MemberDistributedMoment) int64 { return x.LoadCategory })
	registerLoad(a, l.Prestress, "/member-prestress-loads", "members", func(x *model.MemberPrestressLoad) int64 { return x.Member },
		func(x *model.MemberPrestressLoad) int64 { return x.LoadCategory })
	registerLoadWith(a, l.Pressures, "/plate-pressure-loads", "plates", func(x *model.PlatePressureLoad) int64 { return x.Plate },
		func(x *model.PlatePressureLoad) int64 { return x.LoadCategory }, func(h *collection[model.PlatePressureLoad]) {
			h.desc += " px, py and pz are in the job's pressure unit (kPa in a new job; an extension of the job units, see " +
				"GET /job/units). axes Local: px, py, pz along the plate's local axes (pz along the normal), per unit of plate area; " +
				"GlobalInclined: along the global axes per unit of plate area; GlobalProjected: along the global axes per unit " +
				"of the plate's area projected on the plane normal to each axis, so a component along an axis in the plate's " +
				"plane does nothing. Each becomes consistent node loads."
		})
	registerLoad(a, l.SelfWeight, "/self-weight-loads", "", nil, func(x *model.SelfWeightLoad) int64 { return x.LoadCategory })
	registerLoadWith(a, l.Thermal, "/thermal-loads", "elements", func(x *model.ThermalLoad) int64 { return x.ElementID },
		func(x *model.ThermalLoad) int64 { return x.LoadCategory }, func(h *collection[model.ThermalLoad]) {
			h.keyText = map[string]func(string) (int64, bool){"elementType": func(s string) (int64, bool) {
				switch strings.ToLower(s) {
				case "member":
					return model.ThermalMember, true
				case "plate":
					return model.ThermalPlate, true
				}
				return 0, false
			}}
			h.filters = append(h.filters, eqFilter("elementType", "Member or Plate", []string{"Member", "Plate"},
				func(x *model.ThermalLoad) string { return x.ElementType }))
			h.desc += " On a plate, thermalLoad is the uniform change and zThermalGradient the gradient through the " +
				"thickness (along local +z); a plate has no yThermalGradient, so one is left out and the run warns, once."
		})
	a.registerMovingLoadRoutes()
}

// registerLoad serves one load collection: filters loadCases (the case id
// list), loadCategory and the element id list.
func registerLoad[T any](a *API, c *editor.Collection[T], path, elemFilter string, elem func(*T) int64, cat func(*T) int64) *collection[T] {
	return registerLoadWith(a, c, path, elemFilter, elem, cat, nil)
}

func registerLoadWith[T any](a *API, c *editor.Collection[T], path, elemFilter string, elem func(*T) int64, cat func(*T) int64, tweak func(*collection[T])) *collection[T] {
	h := &collection[T]{a: a, c: c, path: loadsPath + path, tag: "Loads", idFilter: "loadCases",
		desc: "Keyed by " + strings.Join(c.Kind().KeyFields, ", ") + ". Filters: loadCases (id list), loadCategory" +
			map[bool]string{true: ", " + elemFilter + " (id list)", false: ""}[elemFilter != ""] +
			". A load goes only on a Primary or Unused case; assigning the first load makes an Unused case Primary.",
		filters: []filter[T]{intFilter("loadCategory", "load category id", cat)}}
	if elemFilter != "" {
		h.filters = append(h.filters, idListFilter(elemFilter, "element id list", elem))
	}
	h.remove = removeRowsOf(c)
	if tweak != nil {
		tweak(h)
	}
	h.register()
	return h
}

// hydrateCases fills the computed type, hasCombinationItems and (with
// expand) the items.
func (a *API) hydrateCases(ctx context.Context, ws string, recs []model.LoadCase, all bool) error {
	types, err := a.loads.CaseTypes(ctx, ws, recs)
	if err != nil {
		return err
	}
	for i := range recs {
		recs[i].Type = types[i]
		recs[i].HasCombinationItems = len(recs[i].CombinationItems) > 0
		if !all {
			recs[i].CombinationItems = nil
		}
	}
	return nil
}

func (a *API) caseTypeFilter(ctx context.Context, ws, v string, _ model.Units) (func(*model.LoadCase) bool, error) {
	want := ""
	for _, t := range []string{model.CasePrimary, model.CaseCombination, model.CaseStep, model.CaseUnused} {
		if strings.EqualFold(t, v) {
			want = t
		}
	}
	if want == "" {
		return nil, model.Invalid("type", "type must be Primary, Combination, Step or Unused, got %q", v)
	}
	all, err := a.loads.Cases.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	types, err := a.loads.CaseTypes(ctx, ws, all)
	if err != nil {
		return nil, err
	}
	keep := map[int64]bool{}
	for i, c := range all {
		keep[c.ID] = types[i] == want
	}
	return func(c *model.LoadCase) bool { return keep[c.ID] }, nil
}

// removeCases deletes load cases (see editor.DeleteCases); a bulk delete
// answers the bulk result with the case result under deleted.
func (a *API) removeCases(onlyCombinations bool) func(ctx context.Context, ws string, keys [][]int64, cont, bulk bool) (any, error) {
	return func(ctx context.Context, ws string, keys [][]int64, cont, bulk bool) (any, error) {
		res, br, err := a.loads.DeleteCases(ctx, ws, firstParts(keys), cont, onlyCombinations)
		if err != nil {
			return nil, err
		}
		if bulk {
			return BulkCaseDeleteResult{BulkResult: br, Deleted: res}, nil
		}
		return res, nil
	}
}

// caseDeleteDoc describes the answer to a load-case delete.
const caseDeleteDoc = "Only the title and notes go (the interface's load-case state table): a case that loads, combination items " +
	"or moving-load scenarios still refer to stays listed with an empty title and its type; one without goes, and GET answers 404. " +
	"The answer is the delete result record, as for a node, member or plate: a case delete removes no element, load or item, so its " +
	"lists are empty and totalRemoved counts the case rows removed. Two lists extend it: loadCases (the cases whose rows went) and " +
	"keptLoadCases (the cases kept). A bulk delete answers the bulk result with this record under deleted."

// BulkCaseDeleteResult is a bulk delete of load cases.
type BulkCaseDeleteResult struct {
	editor.BulkResult
	Deleted editor.CaseDeleteResult `json:"deleted"`
}

func (a *API) registerCombinationItems(h *collection[model.CombinationLoadCase]) {
	a.add(route{method: "GET", path: h.path + "/items/metadata", tag: h.tag, summary: "Describe the combination item fields",
		desc:      metadataDoc,
		responses: map[int]any{200: Metadata{}}, handler: func(c *fiber.Ctx) error {
			return c.JSON(Metadata{ResourceType: "CombinationItem", Fields: fieldMetadata(combinationItemType, model.DefaultUnits(), "")})
		}})
	a.add(route{method: "GET", path: h.path + "/:id/items", tag: h.tag, summary: "Get a combination's items",
		desc: "404 when the case is not a combination.", responses: map[int]any{200: ItemsBody{}}, errors: []int{400, 404, 409},
		handler: func(c *fiber.Ctx) error {
			key, err := h.pathKey(c)
			if err != nil {
				return err
			}
			rec, err := h.getVisible(c, key)
			if err != nil {
				return err
			}
			return c.JSON(ItemsBody{CombinationItems: rec.CombinationItems})
		}})
	a.add(route{method: "PUT", path: h.path + "/:id/items", tag: h.tag, summary: "Replace a combination's items",
		desc: "Body: {\"combinationItems\": [...]} or a bare JSON array of items. The item rules apply to the new list as a whole; it replaces the old one atomically.",
		body: ItemsBody{}, bodyRequired: true, responses: map[int]any{200: ItemsBody{}}, errors: []int{400, 404, 409},
		handler: func(c *fiber.Ctx) error {
			var body ItemsBody
			if b := trimJSONSpace(c.Body()); len(b) > 0 && b[0] == '[' {
				// A bare array of items is the list itself.
				if err := decodeJSON(c, &body.CombinationItems, true); err != nil {
					return err
				}
			} else if err := decodeJSON(c, &body, true); err != nil {
				return err
			}
			key, err := h.pathKey(c)
			if err != nil {
				return err
			}
			if _, err := h.getVisible(c, key); err != nil {
				return err
			}
			rec, _, err := subUpdate(c, h, func(r *model.CombinationLoadCase, _ model.Units) error {
				r.CombinationItems = body.CombinationItems
				return nil
			})
			if err != nil {
				return err
			}
			return c.JSON(ItemsBody{CombinationItems: rec.CombinationItems})
		}})
}

var combinationItemType = reflect.TypeOf(model.CombinationItem{})
