package httpapi

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/gofiber/fiber/v2"
	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
)

// bulkBody reads a bulk request: its continueOnError flag and the items
// of its body, a JSON array.
func bulkBody(c *fiber.Ctx) ([][]byte, bool, error) {
	cont, err := queryBool(c, "continueOnError")
	if err != nil {
		return nil, false, err
	}
	if err := requireJSON(c); err != nil {
		return nil, false, err
	}
	raws, err := arrayItems(c.Body())
	return raws, cont, err
}

// bulkItems decodes a bulk body into the fields of each item, a JSON
// object of the record type ti describes.
func bulkItems(c *fiber.Ctx, ti *typeInfo) ([]map[string]json.RawMessage, bool, error) {
	raws, cont, err := bulkBody(c)
	if err != nil {
		return nil, false, err
	}
	items := make([]map[string]json.RawMessage, len(raws))
	errs := make([]error, len(raws))
	editor.Parallel(len(raws), func(i int) { items[i], errs[i] = splitBody(raws[i], fmt.Sprintf("[%d]", i), true, ti) })
	if err := firstError(errs); err != nil {
		return nil, false, err
	}
	return items, cont, nil
}

// createBody is one item of a bulk create body: its members when they all
// name fields (the common case, split without a map), else its fields.
type createBody struct {
	ms     []member
	fields map[string]json.RawMessage
}

func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// arrayItems cuts a bulk body into its items. A scanner cuts the array and
// the items are checked on every core; a body that fails either goes to
// the decoder, whose message says what is wrong.
func arrayItems(body []byte) ([][]byte, error) {
	raws, ok := splitArray(body)
	if ok {
		bad := make([]bool, len(raws))
		editor.Parallel(len(raws), func(i int) { bad[i] = !json.Valid(raws[i]) })
		ok = !slices.Contains(bad, true)
	}
	if !ok {
		var decoded []json.RawMessage
		if err := json.Unmarshal(body, &decoded); err != nil {
			return nil, model.E(model.KindValidation, "the body must be a JSON array of objects: %v", err)
		}
		raws = make([][]byte, len(decoded))
		for i, r := range decoded {
			raws[i] = r
		}
	}
	if len(raws) == 0 {
		return nil, model.E(model.KindValidation, "the body is an empty array: nothing to do")
	}
	if len(raws) > MaxBulkItems {
		return nil, model.E(model.KindTooLarge, "a bulk request holds at most %d items, this one %d: send them in batches of %d",
			MaxBulkItems, len(raws), MaxBulkItems)
	}
	return raws, nil
}

// MaxBulkItems caps the items of one bulk request: each lands in one
// Redis transaction, whose size and time it bounds.
const MaxBulkItems = 10_000

func (h *collection[T]) bulkCreate(c *fiber.Ctx) error {
	raws, cont, err := bulkBody(c)
	if err != nil {
		return err
	}
	ti := h.info()
	bodies := make([]createBody, len(raws))
	errs := make([]error, len(raws))
	editor.Parallel(len(raws), func(i int) {
		if ms, ok := recordMembers(raws[i], ti); ok {
			bodies[i].ms = ms
			return
		}
		bodies[i].fields, errs[i] = splitBody(raws[i], fmt.Sprintf("[%d]", i), true, ti)
	})
	if err := firstError(errs); err != nil {
		return err
	}
	u, err := h.units(c)
	if err != nil {
		return err
	}
	items := make([]editor.Item[T], len(raws))
	editor.Parallel(len(raws), func(i int) {
		if bodies[i].fields != nil {
			items[i] = h.item(bodies[i].fields, u)
		} else {
			h.fill(&items[i], bodies[i].ms, nil, u)
		}
	})
	for i := range items {
		if h.onCreate != nil && items[i].Err == nil {
			h.onCreate(c, &items[i].Rec)
		}
	}
	out, err := h.c.Create(c.UserContext(), workspace(c), items, cont)
	if err != nil {
		return err
	}
	return c.JSON(out.Result)
}

func (h *collection[T]) bulkUpdate(c *fiber.Ctx) error {
	raws, cont, err := bulkItems(c, h.info())
	if err != nil {
		return err
	}
	u, err := h.units(c)
	if err != nil {
		return err
	}
	changes := make([]editor.Change[T], len(raws))
	for i, raw := range raws {
		changes[i] = h.change(raw, u, nil) // applied later, in Update
	}
	out, err := h.c.Update(c.UserContext(), workspace(c), changes, cont)
	if err != nil {
		return err
	}
	return c.JSON(out.Result)
}

func (h *collection[T]) bulkDelete(c *fiber.Ctx) error {
	cont, err := queryBool(c, "continueOnError")
	if err != nil {
		return err
	}
	var keys [][]int64
	if len(h.c.Kind().KeyFields) == 1 {
		var ids []int64
		if err := decodeJSON(c, &ids, true); err != nil {
			return err
		}
		for _, id := range ids {
			keys = append(keys, []int64{id})
		}
	} else {
		var objs []json.RawMessage
		if err := decodeJSON(c, &objs, true); err != nil {
			return err
		}
		for i, raw := range objs {
			fields, err := objectFields(raw, fmt.Sprintf("[%d]", i))
			if err != nil {
				return err
			}
			key, err := h.bodyKey(fields)
			if err != nil {
				return err
			}
			keys = append(keys, key)
		}
	}
	if len(keys) == 0 {
		return model.E(model.KindValidation, "the body is an empty array: nothing to delete")
	}
	body, err := h.remove(c.UserContext(), workspace(c), keys, cont, true)
	if err != nil {
		return err
	}
	return c.JSON(body)
}
