package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
)

const geometryPath = "/job/query/geometry"

// predicates builds the filters present in the query into one predicate.
func predicates[T any](c *fiber.Ctx, u model.Units, filters []filter[T]) (func(*T) bool, error) {
	var preds []func(*T) bool
	for _, f := range filters {
		if v := c.Query(f.name); v != "" {
			p, err := f.build(c.UserContext(), workspace(c), v, u)
			if err != nil {
				return nil, err
			}
			preds = append(preds, p)
		}
	}
	return func(r *T) bool {
		for _, p := range preds {
			if !p(r) {
				return false
			}
		}
		return true
	}, nil
}

// sendPage pages rows that are already in order and sends them in job units.
func sendPage[T any](c *fiber.Ctx, rows []T, u model.Units) error {
	offset, limit, err := paging(c)
	if err != nil {
		return err
	}
	total := int64(len(rows))
	lo := min(offset, total)
	hi := total
	if limit >= 0 {
		hi = min(lo+limit, total)
	}
	out := make([]T, 0, hi-lo)
	for _, r := range rows[lo:hi] {
		out = append(out, toWire(r, u))
	}
	setPaging(c, total, offset, limit, limit >= 0 && offset+limit < total)
	return c.JSON(out)
}

func (a *API) registerGeometryRoutes() {
	s := a.structure
	const tag = "Geometry"
	memberFilters := []filter[model.Member]{
		idListFilter("members", "id list", func(m *model.Member) int64 { return m.ID }),
		eqFilter("type", "member type", []string{"Normal", "TensionOnly", "CompressionOnly", "Cable", "Gap", "BrittleFuse", "PlasticFuse", "Pulley", "Truss"},
			func(m *model.Member) string { return m.Type }),
		intFilter("section", "section id", func(m *model.Member) int64 { return m.Section }),
		intFilter("material", "material id", func(m *model.Member) int64 { return m.Material }),
	}
	plateFilters := []filter[model.Plate]{
		idListFilter("plates", "id list", func(p *model.Plate) int64 { return p.ID }),
		eqFilter("theory", "Kirchoff or Mindlin", []string{"Kirchoff", "Mindlin"}, func(p *model.Plate) string { return p.Theory }),
		intFilter("material", "material id", func(p *model.Plate) int64 { return p.Material }),
	}
	q := func(fs ...string) []param {
		out := []param{{name: "offset", typ: "integer"}, {name: "limit", typ: "integer"}}
		for _, f := range fs {
			out = append(out, param{name: f, typ: "string"})
		}
		return out
	}
	job := func(c *fiber.Ctx) (model.Job, error) { return a.sess.Job(c.UserContext(), workspace(c)) }
	a.add(route{method: "GET", path: geometryPath + "/members", tag: tag, headers: pagingHeaders, summary: "List member geometry",
		desc: "Analytical ends (nodes), physical ends shifted by the rigid offsets, physical length and local axes (origin at pointA). " +
			"Members with missing nodes or degenerate geometry are left out.",
		query: q("members", "type", "section", "material"), responses: map[int]any{200: []editor.MemberGeometry{}}, errors: []int{400, 409},
		handler: func(c *fiber.Ctx) error {
			j, err := job(c)
			if err != nil {
				return err
			}
			keep, err := predicates(c, j.Units, memberFilters)
			if err != nil {
				return err
			}
			rows, err := s.MemberGeometries(c.UserContext(), workspace(c), j.Settings.VerticalAxis, keep)
			if err != nil {
				return err
			}
			return sendPage(c, rows, j.Units)
		}})
	a.add(route{method: "GET", path: geometryPath + "/members/:id", tag: tag, summary: "Get a member's geometry",
		desc:      "409 when the member's geometry is degenerate (zero length, direction node on the member line, axis parallel to it).",
		responses: map[int]any{200: editor.MemberGeometry{}}, errors: []int{400, 404, 409},
		handler: func(c *fiber.Ctx) error {
			id, err := pathID(c, "id")
			if err != nil {
				return err
			}
			j, err := job(c)
			if err != nil {
				return err
			}
			g, err := s.MemberGeometryOf(c.UserContext(), workspace(c), j.Settings.VerticalAxis, id)
			if err != nil {
				return err
			}
			return c.JSON(toWire(g, j.Units))
		}})
	a.add(route{method: "GET", path: geometryPath + "/plates", tag: tag, headers: pagingHeaders, summary: "List plate geometry",
		desc: "Corners, corners shifted along the normal by the plate offset, area, perimeter, centroid and local axes (z the normal, origin at the centroid). " +
			"Degenerate plates are left out.",
		query: q("plates", "theory", "material"), responses: map[int]any{200: []editor.PlateGeometry{}}, errors: []int{400, 409},
		handler: func(c *fiber.Ctx) error {
			j, err := job(c)
			if err != nil {
				return err
			}
			keep, err := predicates(c, j.Units, plateFilters)
			if err != nil {
				return err
			}
			rows, err := s.PlateGeometries(c.UserContext(), workspace(c), keep)
			if err != nil {
				return err
			}
			return sendPage(c, rows, j.Units)
		}})
	a.add(route{method: "GET", path: geometryPath + "/plates/:id", tag: tag, summary: "Get a plate's geometry",
		responses: map[int]any{200: editor.PlateGeometry{}}, errors: []int{400, 404, 409},
		handler: func(c *fiber.Ctx) error {
			id, err := pathID(c, "id")
			if err != nil {
				return err
			}
			j, err := job(c)
			if err != nil {
				return err
			}
			g, err := s.PlateGeometryOf(c.UserContext(), workspace(c), id)
			if err != nil {
				return err
			}
			return c.JSON(toWire(g, j.Units))
		}})
}
