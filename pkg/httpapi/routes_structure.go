package httpapi

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

const structurePath = "/job/structure"

// idSet reads which of ids have a row in coll.
func (a *API) idSet(ctx context.Context, ws, coll string, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = store.Key(id)
	}
	found, err := a.model.Exists(ctx, ws, coll, keys...)
	if err != nil {
		return nil, err
	}
	for i, id := range ids {
		if found[i] {
			out[id] = true
		}
	}
	return out, nil
}

// eqFilter keeps records whose string field equals the parameter.
func eqFilter[T any](name, desc string, allowed []string, get func(*T) string) filter[T] {
	return filter[T]{name: name, typ: "string", desc: desc, build: func(_ context.Context, _, v string, _ model.Units) (func(*T) bool, error) {
		for _, a := range allowed {
			if strings.EqualFold(a, v) {
				return func(r *T) bool { return get(r) == a }, nil
			}
		}
		return nil, model.Invalid(name, "%s must be one of %s, got %q", name, strings.Join(allowed, ", "), v)
	}}
}

// intFilter keeps records whose integer field equals the parameter.
func intFilter[T any](name, desc string, get func(*T) int64) filter[T] {
	return filter[T]{name: name, typ: "integer", desc: desc, build: func(_ context.Context, _, v string, _ model.Units) (func(*T) bool, error) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, model.Invalid(name, "%s must be an integer, got %q", name, v)
		}
		return func(r *T) bool { return get(r) == n }, nil
	}}
}

// idListFilter keeps records whose integer field is in an id list.
func idListFilter[T any](name, desc string, get func(*T) int64) filter[T] {
	return filter[T]{name: name, typ: "string", desc: desc, build: func(_ context.Context, _, v string, _ model.Units) (func(*T) bool, error) {
		list, ok, err := model.ParseIDList(name, v)
		if err != nil || !ok {
			return func(*T) bool { return true }, err
		}
		return func(r *T) bool { return list.Contains(get(r)) }, nil
	}}
}

// boundFilter keeps nodes on one side of a coordinate bound (job units).
func boundFilter(name string, axis int, isMin bool) filter[model.Node] {
	return filter[model.Node]{name: name, typ: "number", desc: "coordinate bound in the job length unit",
		build: func(_ context.Context, _, v string, u model.Units) (func(*model.Node) bool, error) {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
				return nil, model.Invalid(name, "%s must be a number, got %q", name, v)
			}
			x *= factorOf(parseUnitExpr("length"), u)
			return func(n *model.Node) bool {
				c := [3]float64{n.X, n.Y, n.Z}[axis]
				if isMin {
					return c >= x
				}
				return c <= x
			}, nil
		}}
}

func (a *API) registerStructureRoutes() {
	s := a.structure
	const tag = "Structure"
	nodes := &collection[model.Node]{a: a, c: s.Nodes, path: structurePath + "/nodes", tag: tag, idFilter: "nodes",
		expandable: []string{"restraint", "constraint"}, removeBody: editor.DeleteResult{},
		desc: "Filters: nodes (id list), nodeType (All_Types or Restrained), minX, maxX, minY, maxY, minZ, maxZ (job length unit).",
		filters: []filter[model.Node]{
			{name: "nodeType", typ: "string", desc: "All_Types (default) or Restrained (nodes with a restraint row)",
				build: func(ctx context.Context, ws, v string, _ model.Units) (func(*model.Node) bool, error) {
					switch strings.ToLower(v) {
					case "all_types", "all":
						return func(*model.Node) bool { return true }, nil
					case "restrained":
						rs, err := s.Restraints.All(ctx, ws)
						if err != nil {
							return nil, err
						}
						set := map[int64]bool{}
						for _, r := range rs {
							set[r.Node] = true
						}
						return func(n *model.Node) bool { return set[n.ID] }, nil
					}
					return nil, model.Invalid("nodeType", "nodeType must be All_Types or Restrained, got %q", v)
				}},
			boundFilter("minX", 0, true), boundFilter("maxX", 0, false), boundFilter("minY", 1, true),
			boundFilter("maxY", 1, false), boundFilter("minZ", 2, true), boundFilter("maxZ", 2, false),
		}}
	nodes.hydrate = a.hydrateNodes
	nodes.remove = a.removeElements(model.CollNodes)
	a.add(route{method: "GET", path: nodes.path + "/by-location", tag: tag, summary: "Find the first node within a distance of a point",
		desc: "Scans nodes in id order and answers the first whose Euclidean distance from (x, y, z) is at most tolerance (job length unit); 404 when none is.",
		query: []param{{name: "x", typ: "number", required: true}, {name: "y", typ: "number", required: true},
			{name: "z", typ: "number", required: true}, {name: "tolerance", typ: "number", desc: "default 0"}},
		responses: map[int]any{200: model.Node{}}, errors: []int{400, 404, 409}, handler: a.nodeByLocation(nodes)})
	nodes.register()

	members := &collection[model.Member]{a: a, c: s.Members, path: structurePath + "/members", tag: tag, idFilter: "members",
		expandable: []string{"offsets"}, removeBody: editor.DeleteResult{},
		desc: "Filters: members (id list), type, section, material.",
		filters: []filter[model.Member]{
			eqFilter("type", "member type", []string{"Normal", "TensionOnly", "CompressionOnly", "Cable", "Gap", "BrittleFuse", "PlasticFuse", "Pulley", "Truss"},
				func(m *model.Member) string { return m.Type }),
			intFilter("section", "section id", func(m *model.Member) int64 { return m.Section }),
			intFilter("material", "material id", func(m *model.Member) int64 { return m.Material }),
		}}
	members.hydrate = a.hydrateMembers
	members.remove = a.removeElements(model.CollMembers)
	a.registerMemberSubresources(members)
	members.register()

	plates := &collection[model.Plate]{a: a, c: s.Plates, path: structurePath + "/plates", tag: tag, idFilter: "plates",
		removeBody: editor.DeleteResult{}, desc: "Filters: plates (id list), theory (Kirchoff or Mindlin), material. " +
			"A create needs only nodeA, nodeB and nodeC (as the interface says); material and actualThickness default to 0, meaning none yet, " +
			"and an analysis refuses to start (400) while a plate lacks either. Membrane, bending and shear thicknesses left at 0 follow actualThickness.",
		filters: []filter[model.Plate]{
			eqFilter("theory", "Kirchoff or Mindlin", []string{"Kirchoff", "Mindlin"}, func(p *model.Plate) string { return p.Theory }),
			intFilter("material", "material id", func(p *model.Plate) int64 { return p.Material }),
		}}
	plates.remove = a.removeElements(model.CollPlates)
	a.registerPlateSubresources(plates)
	plates.register()

	a.registerLibraryRoutes() // GET sections|materials/library and /libraries, before their "/:id" routes
	sections := &collection[model.Section]{a: a, c: s.Sections, path: structurePath + "/sections", tag: tag, idFilter: "sections"}
	sections.remove = removeRowsOf(s.Sections) // 409 while members use it
	a.registerSectionLibrary(sections)
	sections.register()

	materials := &collection[model.Material]{a: a, c: s.Materials, path: structurePath + "/materials", tag: tag, idFilter: "materials"}
	materials.remove = removeRowsOf(s.Materials) // 409 while members or plates use it
	a.registerMaterialLibrary(materials)
	materials.register()

	restraints := &collection[model.NodeRestraint]{a: a, c: s.Restraints, path: structurePath + "/node-restraints", tag: tag, idFilter: "nodes",
		desc: "Keyed by node. Filter: nodes (id list)."}
	restraints.remove = removeRowsOf(s.Restraints)
	a.registerRestraintTables(restraints)
	restraints.register()

	constraints := &collection[model.NodeConstraint]{a: a, c: s.Constraints, path: structurePath + "/node-constraints", tag: tag, idFilter: "slaves",
		desc: "Keyed by slaveNode. Filters: slaves (id list), masterNode.",
		filters: []filter[model.NodeConstraint]{
			intFilter("masterNode", "master node id", func(c *model.NodeConstraint) int64 { return c.MasterNode }),
		}}
	constraints.remove = removeRowsOf(s.Constraints)
	constraints.register()

	offsets := &collection[model.MemberOffset]{a: a, c: s.Offsets, path: structurePath + "/member-offsets", tag: tag, idFilter: "members",
		desc: "Keyed by member. Filter: members (id list)."}
	offsets.remove = removeRowsOf(s.Offsets)
	offsets.register()
}

// hydrateNodes sets hasRestraint and hasConstraint and, with all, the rows.
func (a *API) hydrateNodes(ctx context.Context, ws string, recs []model.Node, all bool) error {
	ids := make([]int64, len(recs))
	for i := range recs {
		ids[i] = recs[i].ID
	}
	if all {
		rs, err := a.structure.Restraints.GetMany(ctx, ws, ids)
		if err != nil {
			return err
		}
		cs, err := a.structure.Constraints.GetMany(ctx, ws, ids)
		if err != nil {
			return err
		}
		for i := range recs {
			recs[i].Restraint, recs[i].Constraint = rs[i], cs[i]
			recs[i].HasRestraint, recs[i].HasConstraint = rs[i] != nil, cs[i] != nil
		}
		return nil
	}
	hasR, err := a.idSet(ctx, ws, model.CollNodeRestraints, ids)
	if err != nil {
		return err
	}
	hasC, err := a.idSet(ctx, ws, model.CollNodeConstraints, ids)
	if err != nil {
		return err
	}
	for i := range recs {
		recs[i].HasRestraint, recs[i].HasConstraint = hasR[recs[i].ID], hasC[recs[i].ID]
	}
	return nil
}

// hydrateMembers sets hasOffsets and, with all, the offsets row.
func (a *API) hydrateMembers(ctx context.Context, ws string, recs []model.Member, all bool) error {
	ids := make([]int64, len(recs))
	for i := range recs {
		ids[i] = recs[i].ID
	}
	if all {
		os, err := a.structure.Offsets.GetMany(ctx, ws, ids)
		if err != nil {
			return err
		}
		for i := range recs {
			recs[i].Offsets, recs[i].HasOffsets = os[i], os[i] != nil
		}
		return nil
	}
	has, err := a.idSet(ctx, ws, model.CollMemberOffsets, ids)
	if err != nil {
		return err
	}
	for i := range recs {
		recs[i].HasOffsets = has[recs[i].ID]
	}
	return nil
}

// removeElements deletes nodes, members or plates with their cascade; a
// single delete answers the DeleteResult, a bulk delete the bulk result.
func (a *API) removeElements(coll string) func(ctx context.Context, ws string, keys [][]int64, cont, bulk bool) (any, error) {
	return func(ctx context.Context, ws string, keys [][]int64, cont, bulk bool) (any, error) {
		res, br, err := a.structure.DeleteElements(ctx, ws, coll, firstParts(keys), cont)
		if err != nil {
			return nil, err
		}
		if bulk {
			return BulkDeleteResult{BulkResult: br, Deleted: res}, nil
		}
		return res, nil
	}
}

// BulkDeleteResult is a bulk delete of nodes, members or plates: the bulk
// result and, under deleted, everything the cascade removed.
type BulkDeleteResult struct {
	editor.BulkResult
	Deleted editor.DeleteResult `json:"deleted"`
}

// removeRowsOf deletes attribute rows (204 for a single delete).
func removeRowsOf[T any](c *editor.Collection[T]) func(ctx context.Context, ws string, keys [][]int64, cont, bulk bool) (any, error) {
	return func(ctx context.Context, ws string, keys [][]int64, cont, bulk bool) (any, error) {
		res, err := c.DeleteRows(ctx, ws, keys, cont)
		if err != nil || !bulk {
			return nil, err
		}
		return res, nil
	}
}

// firstParts takes the single ids out of single-part keys.
func firstParts(keys [][]int64) []int64 {
	out := make([]int64, len(keys))
	for i, k := range keys {
		out[i] = k[0]
	}
	return out
}
