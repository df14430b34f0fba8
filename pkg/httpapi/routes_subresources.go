package httpapi

import (
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/model/library"
)

// subUpdate reads a record, lets fn change it and stores it through the
// collection's update, so every rule of the record still applies.
func subUpdate[T any](c *fiber.Ctx, h *collection[T], fn func(rec *T, u model.Units) error) (T, model.Units, error) {
	var zero T
	key, err := h.pathKey(c)
	if err != nil {
		return zero, model.Units{}, err
	}
	u, err := h.units(c)
	if err != nil {
		return zero, u, err
	}
	ch := editor.Change[T]{Key: key, Apply: func(rec *T) error { return fn(rec, u) }}
	out, err := h.c.Update(c.UserContext(), workspace(c), []editor.Change[T]{ch}, false)
	if err != nil {
		return zero, u, unwrapSingle(err)
	}
	return out.Records[0], u, nil
}

// directionPut replaces a direction with exactly one of dirAngle, dirNode
// or dirAxis; a missing or empty body is a 400 (spec).
func directionPut(c *fiber.Ctx, d *model.Direction, u model.Units) error {
	if err := requireJSON(c); err != nil {
		return err
	}
	fields, err := objectFields(c.Body(), "")
	if err != nil {
		return err
	}
	n := 0
	for _, k := range []string{"dirAngle", "dirNode", "dirAxis"} {
		if _, ok := fields[k]; ok {
			n++
		}
	}
	if _, ok := fields["source"]; ok || n != 1 {
		return model.Invalid("direction", "send exactly one of dirAngle, dirNode or dirAxis")
	}
	var nd model.Direction
	if err := mergeDirection(reflect.ValueOf(&nd).Elem(), c.Body(), u, ""); err != nil {
		return err
	}
	*d = nd
	return nil
}

func (a *API) registerMemberSubresources(h *collection[model.Member]) {
	p, tag := h.path, h.tag
	a.add(route{method: "GET", path: p + "/:id/direction", tag: tag, summary: "Get a member's direction",
		responses: map[int]any{200: model.Direction{}}, errors: []int{400, 404, 409}, handler: func(c *fiber.Ctx) error {
			id, err := pathID(c, "id")
			if err != nil {
				return err
			}
			m, err := h.c.Get(c.UserContext(), workspace(c), id)
			if err != nil {
				return err
			}
			return c.JSON(m.Direction)
		}})
	a.add(route{method: "PUT", path: p + "/:id/direction", tag: tag, summary: "Set a member's direction",
		desc: "Exactly one of dirAngle (degrees), dirNode or dirAxis; the source follows and the other two are zeroed.",
		body: model.Direction{}, bodyRequired: true, responses: map[int]any{200: model.Direction{}}, errors: []int{400, 404, 409},
		handler: func(c *fiber.Ctx) error {
			m, _, err := subUpdate(c, h, func(m *model.Member, u model.Units) error { return directionPut(c, &m.Direction, u) })
			if err != nil {
				return err
			}
			return c.JSON(m.Direction)
		}})
	a.add(route{method: "GET", path: p + "/:id/releases", tag: tag, summary: "Get a member's end releases",
		responses: map[int]any{200: model.Releases{}}, errors: []int{400, 404, 409}, handler: func(c *fiber.Ctx) error {
			id, err := pathID(c, "id")
			if err != nil {
				return err
			}
			u, err := h.units(c)
			if err != nil {
				return err
			}
			m, err := h.c.Get(c.UserContext(), workspace(c), id)
			if err != nil {
				return err
			}
			return c.JSON(toWire(m, u).Releases)
		}})
	a.add(route{method: "PATCH", path: p + "/:id/releases", tag: tag, summary: "Update a member's end releases",
		desc: "Fixity codes are 6 characters of F (fixed), R (released), S (spring) in member local axes; only supplied fields change.",
		body: model.Releases{}, bodyRequired: true, responses: map[int]any{200: model.Releases{}}, errors: []int{400, 404, 409},
		handler: func(c *fiber.Ctx) error {
			if err := requireJSON(c); err != nil {
				return err
			}
			m, u, err := subUpdate(c, h, func(m *model.Member, u model.Units) error {
				return merge(reflect.ValueOf(&m.Releases), c.Body(), u, "")
			})
			if err != nil {
				return err
			}
			return c.JSON(toWire(m, u).Releases)
		}})
}

func (a *API) registerPlateSubresources(h *collection[model.Plate]) {
	p, tag := h.path, h.tag
	a.add(route{method: "GET", path: p + "/direction/metadata", tag: tag, summary: "Describe the plate direction fields",
		responses: map[int]any{200: Metadata{}}, handler: func(c *fiber.Ctx) error {
			return c.JSON(Metadata{ResourceType: "PlateDirection", Fields: fieldMetadata(directionType, model.DefaultUnits(), "")})
		}})
	a.add(route{method: "GET", path: p + "/:id/direction", tag: tag, summary: "Get a plate's direction",
		responses: map[int]any{200: model.Direction{}}, errors: []int{400, 404, 409}, handler: func(c *fiber.Ctx) error {
			id, err := pathID(c, "id")
			if err != nil {
				return err
			}
			pl, err := h.c.Get(c.UserContext(), workspace(c), id)
			if err != nil {
				return err
			}
			return c.JSON(pl.Direction)
		}})
	a.add(route{method: "PUT", path: p + "/:id/direction", tag: tag, summary: "Set a plate's direction",
		desc: "Exactly one of dirAngle (degrees), dirNode or dirAxis; a missing or empty body is a 400.",
		body: model.Direction{}, bodyRequired: true, responses: map[int]any{200: model.Direction{}}, errors: []int{400, 404, 409},
		handler: func(c *fiber.Ctx) error {
			pl, _, err := subUpdate(c, h, func(pl *model.Plate, u model.Units) error { return directionPut(c, &pl.Direction, u) })
			if err != nil {
				return err
			}
			return c.JSON(pl.Direction)
		}})
}

// LibraryRequest is the body of the section and material library creates.
type LibraryRequest struct {
	ID      int64  `json:"id,omitempty" doc:"optional id; the next free id when omitted"`
	Name    string `json:"name" req:"true" example:"360UB44.7" doc:"shape or material name in the library, e.g. \"360UB44.7\" or \"STEEL\""`
	Library string `json:"library" req:"true" example:"Aust300" doc:"AISC15, Aust300 or Parametric for sections; Aust, US or Euro for materials"`
	Mark    string `json:"mark,omitempty"`
}

// libraryCreate stores one record built from a library entry.
func libraryCreate[T any](c *fiber.Ctx, h *collection[T], build func(req LibraryRequest) (T, error)) error {
	var req LibraryRequest
	if err := decodeJSON(c, &req, true); err != nil {
		return err
	}
	if err := checkRequest(&req); err != nil {
		return err
	}
	u, err := h.units(c)
	if err != nil {
		return err
	}
	rec, err := build(req)
	if err != nil {
		return model.Invalid("name", "%v", err)
	}
	it := editor.Item[T]{Rec: rec, HasKey: req.ID != 0}
	if it.HasKey {
		h.c.Kind().SetKey(&it.Rec, []int64{req.ID})
	}
	out, err := h.c.Create(c.UserContext(), workspace(c), []editor.Item[T]{it}, false)
	if err != nil {
		return unwrapSingle(err)
	}
	return h.respond(c, fiber.StatusCreated, out.Records[0], true, u)
}

func (a *API) registerSectionLibrary(h *collection[model.Section]) {
	a.add(route{method: "POST", path: h.path + "/library", tag: h.tag, summary: "Create a section from a built-in library",
		desc: "Libraries: " + fmt.Sprint(library.SectionLibraries()) + ". A miss is a 400 naming the library and the shape. The shape geometry is kept in shapes.",
		body: LibraryRequest{}, bodyRequired: true, responses: map[int]any{201: model.Section{}}, errors: []int{400, 409},
		handler: func(c *fiber.Ctx) error {
			return libraryCreate(c, h, func(req LibraryRequest) (model.Section, error) {
				ls, err := library.LookupSection(req.Library, req.Name)
				if err != nil {
					return model.Section{}, err
				}
				return ls.Record(req.Mark), nil
			})
		}})
}

func (a *API) registerMaterialLibrary(h *collection[model.Material]) {
	a.add(route{method: "POST", path: h.path + "/library", tag: h.tag, summary: "Create a material from a built-in library",
		desc: "Libraries: " + fmt.Sprint(library.MaterialLibraries()) + ". The source of each value is stated in the library.",
		body: LibraryRequest{}, bodyRequired: true, responses: map[int]any{201: model.Material{}}, errors: []int{400, 409},
		example: LibraryRequest{Name: "STEEL", Library: library.LibAust},
		handler: func(c *fiber.Ctx) error {
			return libraryCreate(c, h, func(req LibraryRequest) (model.Material, error) {
				lm, err := library.LookupMaterial(req.Library, req.Name)
				if err != nil {
					return model.Material{}, err
				}
				return lm.Record(), nil
			})
		}})
}

func (a *API) nodeByLocation(h *collection[model.Node]) fiber.Handler {
	return func(c *fiber.Ctx) error {
		u, err := h.units(c)
		if err != nil {
			return err
		}
		var p [4]float64
		for i, name := range []string{"x", "y", "z", "tolerance"} {
			v := c.Query(name)
			if v == "" && name == "tolerance" {
				continue
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
				return model.Invalid(name, "%s must be a number, got %q", name, v)
			}
			p[i] = x * factorOf(parseUnitExpr("length"), u)
		}
		if p[3] < 0 {
			return model.Invalid("tolerance", "tolerance must be zero or more")
		}
		nodes, err := h.c.All(c.UserContext(), workspace(c))
		if err != nil {
			return err
		}
		for _, n := range nodes {
			if math.Sqrt((n.X-p[0])*(n.X-p[0])+(n.Y-p[1])*(n.Y-p[1])+(n.Z-p[2])*(n.Z-p[2])) <= p[3] {
				return h.respond(c, 200, n, true, u)
			}
		}
		return model.E(model.KindNotFound, "no node within %g of (%g, %g, %g) (job length unit)",
			c.QueryFloat("tolerance"), c.QueryFloat("x"), c.QueryFloat("y"), c.QueryFloat("z"))
	}
}
