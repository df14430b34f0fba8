package httpapi

import (
	"reflect"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
)

// TableMetadata describes a restraint table (as the interface names it).
type TableMetadata struct {
	TableName string          `json:"tableName"`
	Columns   []FieldMetadata `json:"columns"`
	MaxRows   int             `json:"maxRows"`
}

// SetGeneralRequest is the body of POST node-restraints/set-general.
type SetGeneralRequest struct {
	Node *int64 `json:"node" doc:"the node whose restraint becomes the general restraint; null clears it"`
}

// tableUnits are the column quantities of a table direction.
func tableUnits(dir int) [2]unitExpr {
	if dir < 3 {
		return [2]unitExpr{parseUnitExpr("translation"), parseUnitExpr("force/length")}
	}
	return [2]unitExpr{nil, parseUnitExpr("moment")}
}

func (a *API) registerRestraintTables(h *collection[model.NodeRestraint]) {
	p, tag := h.path, h.tag
	dirParam := func(c *fiber.Ctx) (int, error) { return editor.TableIndex(c.Params("direction")) }
	a.add(route{method: "GET", path: p + "/table/:direction/metadata", tag: tag, summary: "Describe a restraint table's columns",
		responses: map[int]any{200: TableMetadata{}}, errors: []int{400, 409}, handler: func(c *fiber.Ctx) error {
			d, err := dirParam(c)
			if err != nil {
				return err
			}
			u, err := h.units(c)
			if err != nil {
				return err
			}
			cols := tableUnits(d)
			names := [2]string{"deflection", "stiffness"}
			if d >= 3 {
				names[0] = "rotation"
			}
			md := TableMetadata{TableName: strings.ToLower(c.Params("direction")[:1]) + c.Params("direction")[1:] + "VariableTable", MaxRows: editor.MaxTableRows}
			for i, cu := range cols {
				l := "rad"
				if cu != nil {
					l = unitLabel(cu, u)
				}
				min := 0.0
				md.Columns = append(md.Columns, FieldMetadata{JSONName: names[i], DataType: "Double", Units: &l, Min: &min,
					AllowedValues: []AllowedValue{}, Description: []string{"x: the first row is 0, values unique", "y: spring stiffness"}[i]})
			}
			return c.JSON(md)
		}})
	a.add(route{method: "POST", path: p + "/set-general", tag: tag, summary: "Make a node's restraint the general restraint",
		desc: "The node must have a restraint row; {\"node\": null} clears the general restraint. Answers the restraint, or 204 when cleared.",
		body: SetGeneralRequest{}, bodyRequired: true, responses: map[int]any{200: model.NodeRestraint{}, 204: nil}, errors: []int{400, 404, 409},
		handler: func(c *fiber.Ctx) error { return a.setGeneral(c, h) }})
	a.add(route{method: "GET", path: p + "/:node/table/:direction", tag: tag, summary: "Get a restraint's variable-stiffness table",
		desc: "404 when the node has no restraint or the table is empty.", responses: map[int]any{200: model.Table{}}, errors: []int{400, 404, 409},
		handler: func(c *fiber.Ctx) error {
			d, err := dirParam(c)
			if err != nil {
				return err
			}
			id, err := pathParam(c, "node")
			if err != nil {
				return err
			}
			u, err := h.units(c)
			if err != nil {
				return err
			}
			r, err := h.c.Get(c.UserContext(), workspace(c), id)
			if err != nil {
				return err
			}
			r = toWire(r, u)
			t := *editor.Table(&r, d)
			if t == nil || len(t.Rows) == 0 {
				return model.E(model.KindNotFound, "the %s table of the restraint at node %d is empty", c.Params("direction"), id)
			}
			return c.JSON(t)
		}})
	a.add(route{method: "PUT", path: p + "/:node/table/:direction", tag: tag, summary: "Set a restraint's variable-stiffness table",
		desc: "1 to 15 rows of [x, y]: the first x is 0, x values unique, x and y at least 0; the restraintCode letter of the direction must be V.",
		body: model.Table{}, bodyRequired: true, responses: map[int]any{200: model.Table{}}, errors: []int{400, 404, 409},
		handler: func(c *fiber.Ctx) error {
			d, err := dirParam(c)
			if err != nil {
				return err
			}
			var t model.Table
			if err := decodeJSON(c, &t, true); err != nil {
				return err
			}
			rec, u, err := subUpdate(c, h, func(r *model.NodeRestraint, u model.Units) error {
				cols := tableUnits(d)
				for _, row := range t.Rows {
					for i := range row {
						if i < 2 && cols[i] != nil {
							row[i] *= factorOf(cols[i], u)
						}
					}
				}
				if r.RestraintCode[d] != 'V' {
					return model.Invalid("restraintCode", "restraintCode position %d is %q; set it to V before giving a variable table",
						d+1, string(r.RestraintCode[d]))
				}
				if err := editor.ValidateTable("rows", &t); err != nil {
					return err
				}
				if err := checkMagnitude(reflect.ValueOf(&t), "rows"); err != nil {
					return err
				}
				*editor.Table(r, d) = &t
				return nil
			})
			if err != nil {
				return err
			}
			rec = toWire(rec, u)
			return c.JSON(*editor.Table(&rec, d))
		}})
	a.add(route{method: "DELETE", path: p + "/:node/table/:direction", tag: tag, summary: "Clear a restraint's variable-stiffness table",
		responses: map[int]any{204: nil}, errors: []int{400, 404, 409},
		handler: func(c *fiber.Ctx) error {
			d, err := dirParam(c)
			if err != nil {
				return err
			}
			if _, _, err := subUpdate(c, h, func(r *model.NodeRestraint, _ model.Units) error {
				*editor.Table(r, d) = nil
				return nil
			}); err != nil {
				return err
			}
			return c.SendStatus(fiber.StatusNoContent)
		}})
}

// setGeneral moves the general-restraint flag (editor.SetGeneral).
func (a *API) setGeneral(c *fiber.Ctx, h *collection[model.NodeRestraint]) error {
	var req SetGeneralRequest
	if err := decodeJSON(c, &req, true); err != nil {
		return err
	}
	u, err := h.units(c)
	if err != nil {
		return err
	}
	rec, err := a.structure.SetGeneral(c.UserContext(), workspace(c), req.Node)
	if err != nil {
		return err
	}
	if rec == nil {
		return c.SendStatus(fiber.StatusNoContent)
	}
	return c.JSON(toWire(*rec, u))
}
