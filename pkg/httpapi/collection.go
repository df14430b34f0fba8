package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
)

// filter is a list query parameter that keeps some records.
type filter[T any] struct {
	name, typ, desc string
	// build turns the parameter's value into a predicate; it may read the
	// model (the set of restrained nodes, say).
	build func(ctx context.Context, ws, v string, u model.Units) (func(*T) bool, error)
}

// collection serves one model collection with the shape every collection
// shares (as the interface names it): list, get, create, update, delete, the bulk forms,
// metadata and next.
type collection[T any] struct {
	a    *API
	c    *editor.Collection[T]
	path string // e.g. "/job/structure/nodes"
	tag  string
	// idFilter is the query parameter holding an id list ("nodes").
	idFilter string
	filters  []filter[T]
	// hydrate fills derived fields (hasRestraint) and, with all, the
	// sub-resources that expand=all brings.
	hydrate func(ctx context.Context, ws string, recs []T, all bool) error
	// expandable names what expand=all adds, for the metadata.
	expandable []string
	// remove deletes rows; it answers the response body (nil for 204).
	remove func(ctx context.Context, ws string, keys [][]int64, continueOnError bool, bulk bool) (any, error)
	// removeBody is the delete response (nil: 204); removeDesc describes
	// it.
	removeBody any
	removeDesc string
	desc       string
	// only, when set, hides records it returns false for: they are 404s
	// on get and update, and absent from lists (combination cases).
	only func(*T) bool
	// onCreate fills server-set fields of a new record (a category's
	// source and version).
	onCreate func(c *fiber.Ctx, rec *T)
	// keyText maps a textual key part to its number (elementType Member).
	keyText map[string]func(string) (int64, bool)
	// extraRoutes registers sub-resources; it runs before the "/:id"
	// routes so that fixed segments match first.
	extraRoutes func()
}

func (h *collection[T]) noun() string { return h.c.Kind().Noun }

// info describes the record type's fields.
func (h *collection[T]) info() *typeInfo { return infoOf(reflect.TypeOf((*T)(nil)).Elem()) }

// keyPath is the route suffix of one record: "/:id", or
// "/:loadCase/:node" for a composite key.
func (h *collection[T]) keyPath() string {
	return "/:" + strings.Join(h.c.Kind().KeyFields, "/:")
}

// keyNames lists the key fields for documentation.
func (h *collection[T]) keyNames() string { return strings.Join(h.c.Kind().KeyFields, ", ") }

// pathKey reads the key of a record from the route.
func (h *collection[T]) pathKey(c *fiber.Ctx) ([]int64, error) {
	fields := h.c.Kind().KeyFields
	key := make([]int64, len(fields))
	for i, f := range fields {
		v := c.Params(f)
		n, err := strconv.ParseInt(v, 10, 64)
		if conv, ok := h.keyText[f]; ok && err != nil {
			if m, ok := conv(v); ok {
				n, err = m, nil
			}
		}
		if err != nil || n < 1 || n > model.MaxID {
			return nil, model.Invalid(f, "%s %q in the path must be an integer from 1 to %d", f, v, model.MaxID)
		}
		key[i] = n
	}
	return key, nil
}

// bodyKey reads the key fields of a bulk item; all are required.
func (h *collection[T]) bodyKey(fields map[string]json.RawMessage) ([]int64, error) {
	names := h.c.Kind().KeyFields
	key := make([]int64, len(names))
	for i, f := range names {
		raw, ok := fields[f]
		if !ok {
			return nil, fieldErr(f, "%s is required in each item", f)
		}
		if conv, ok := h.keyText[f]; ok {
			var text string
			if json.Unmarshal(raw, &text) == nil {
				if m, ok := conv(text); ok {
					key[i] = m
					continue
				}
			}
		}
		if err := json.Unmarshal(raw, &key[i]); err != nil {
			return nil, fieldErr(f, "%s must be an integer", f)
		}
	}
	return key, nil
}

// register adds the collection's routes; the fixed segments go before
// "/:id" so that Fiber matches them first.
func (h *collection[T]) register() {
	var zero T
	p, tag, n := h.path, h.tag, h.noun()
	page := []param{{name: "offset", typ: "integer", desc: "rows to skip, 0 to 2147483647 (default 0)"},
		{name: "limit", typ: "integer", desc: limitDescription},
		{name: "expand", typ: "string", desc: "None (default for lists) or All (default for single gets): hydrate " + strings.Join(h.expandable, ", ")}}
	q := append([]param{}, page...)
	if h.idFilter != "" {
		q = append(q, param{name: h.idFilter, typ: "string", desc: "id list, e.g. 1,3-7,10"})
	}
	for _, f := range h.filters {
		q = append(q, param{name: f.name, typ: f.typ, desc: f.desc})
	}
	cont := []param{{name: "continueOnError", typ: "boolean", desc: "false (default): any failing item rejects the request; true: valid items are applied, failures reported per item"}}
	errs := []int{http.StatusBadRequest, http.StatusNotFound, http.StatusConflict}
	delResp := map[int]any{204: nil}
	if h.removeBody != nil {
		delResp = map[int]any{200: h.removeBody}
	}
	h.a.add(route{method: "GET", path: p + "/metadata", tag: tag, summary: "Describe the " + n + " fields, units and bounds",
		desc: metadataDoc, responses: map[int]any{200: Metadata{}}, errors: []int{http.StatusConflict}, handler: h.metadata})
	if len(h.c.Kind().KeyFields) == 1 { // ids of composite keys are not allocated
		h.a.add(route{method: "GET", path: p + "/next", tag: tag, summary: "The smallest free " + n + " id at or above start",
			desc:  "Returns the id as a bare JSON integer.",
			query: []param{{name: "start", typ: "integer", desc: "first id to consider (default 1)"}}, responses: map[int]any{200: int64(0)}, errors: errs, handler: h.next})
	}
	h.a.add(route{method: "POST", path: p + "/bulk", tag: tag, summary: "Create many " + n + "s",
		desc: "Body: an array of create bodies. All items are validated up front.", query: cont, body: []T{}, bodyRequired: true,
		responses: map[int]any{200: editor.BulkResult{}}, errors: errs, handler: h.bulkCreate})
	h.a.add(route{method: "PATCH", path: p + "/bulk", tag: tag, summary: "Update many " + n + "s",
		desc: "Body: an array of update bodies, each with its " + h.keyNames() + ".", query: cont, body: []T{}, bodyRequired: true,
		keys: h.c.Kind().KeyFields, responses: map[int]any{200: editor.BulkResult{}}, errors: errs, handler: h.bulkUpdate})
	delBody, delDesc := any([]int64{}), "Body: a JSON array of ids."
	if len(h.c.Kind().KeyFields) > 1 {
		delBody, delDesc = []map[string]int64{}, "Body: a JSON array of keys, each an object with "+h.keyNames()+"."
	}
	h.a.add(route{method: "DELETE", path: p + "/bulk", tag: tag, summary: "Delete many " + n + "s",
		desc: delDesc, query: cont, body: delBody, bodyRequired: true, keys: h.c.Kind().KeyFields,
		responses: map[int]any{200: editor.BulkResult{}}, errors: errs, handler: h.bulkDelete})
	if h.extraRoutes != nil {
		h.extraRoutes()
	}
	h.a.add(route{method: "GET", path: p, tag: tag, summary: "List " + n + "s", desc: h.desc, query: q,
		responses: map[int]any{200: []T{}}, headers: pagingHeaders, errors: errs, handler: h.list})
	h.a.add(route{method: "POST", path: p, tag: tag, summary: "Create a " + n, body: zero, bodyRequired: true,
		desc:      "The id is optional: when omitted the next available number, the smallest id no " + n + " holds, is assigned (the metadata's nextId). Answers the record as GET with expand=All.",
		responses: map[int]any{201: zero}, errors: errs, handler: h.create})
	h.a.add(route{method: "GET", path: p + h.keyPath(), tag: tag, summary: "Get a " + n, query: page[2:],
		responses: map[int]any{200: zero}, errors: errs, handler: h.get})
	patchDesc := "Key fields in the body (" + h.keyNames() + ") are optional; when given each must be the route's, else a 400 naming it."
	if h.c.Kind().Parent != "" {
		patchDesc = "The route's " + h.keyNames() + " wins over one in the body, which is ignored (the row is keyed by its " + h.c.Kind().ParentNoun + ")."
	}
	h.a.add(route{method: "PATCH", path: p + h.keyPath(), tag: tag, summary: "Update a " + n + " (only the supplied fields change)",
		desc: patchDesc, body: zero, bodyRequired: true, keys: h.c.Kind().KeyFields, responses: map[int]any{200: zero}, errors: errs, handler: h.update})
	h.a.add(route{method: "DELETE", path: p + h.keyPath(), tag: tag, summary: "Delete a " + n, desc: h.removeDesc,
		responses: delResp, errors: errs, handler: h.delete})
}

// units reads the job units; every request converts through them.
func (h *collection[T]) units(c *fiber.Ctx) (model.Units, error) {
	job, err := h.a.sess.Job(c.UserContext(), workspace(c))
	return job.Units, err
}

func pathID(c *fiber.Ctx, name string) (int64, error) {
	return pathParam(c, "id", name)
}

// pathParam reads an id from the route parameter param; name is how
// messages call it.
func pathParam(c *fiber.Ctx, param string, names ...string) (int64, error) {
	name := param
	if len(names) > 0 {
		name = names[0]
	}
	v := c.Params(param)
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id < 1 || id > model.MaxID {
		return 0, model.Invalid(name, "%s %q in the path must be an integer from 1 to %d", name, v, model.MaxID)
	}
	return id, nil
}

// setPaging sends the paging headers of a list: Total-Count when the total
// is known (total >= 0), Has-More, Offset and Limit always. The interface
// lists Limit on every list; a list without a limit (limit < 0) sends the
// greatest limit a request may give, 2147483647, which asks for the same
// rows when a client sends it back.
func setPaging(c *fiber.Ctx, total, offset, limit int64, more bool) {
	if total >= 0 {
		c.Set("Total-Count", strconv.FormatInt(total, 10))
	}
	c.Set("Has-More", strconv.FormatBool(more))
	c.Set("Offset", strconv.FormatInt(offset, 10))
	if limit < 0 {
		limit = model.MaxID
	}
	c.Set("Limit", strconv.FormatInt(limit, 10))
}

// pagingHeaders describes the headers setPaging sends, for the OpenAPI
// document of every list.
var pagingHeaders = map[string]string{
	"Total-Count": "Number of matching rows. Always sent for an unfiltered list; for a filtered collection list only when the server read to the end of the matches (it stops once it has the page and one more match), and then it is exact.",
	"Has-More":    "true when rows past this page match, false otherwise; page until it is false rather than relying on a count.",
	"Offset":      "The offset applied.",
	"Limit":       "The limit applied; 2147483647 (the greatest limit a request may give) when the request gave none, so that sending it back asks for the same rows.",
}

// paging reads offset and limit (spec Limits table); limit is -1 when the
// request gives none.
func paging(c *fiber.Ctx) (offset, limit int64, err error) {
	offset, limit = 0, -1
	if v := c.Query("offset"); v != "" {
		offset, err = strconv.ParseInt(v, 10, 64)
		if err != nil || offset < 0 || offset > model.MaxID {
			return 0, 0, model.Invalid("offset", "offset must be an integer from 0 to %d, got %q", model.MaxID, v)
		}
	}
	if v := c.Query("limit"); v != "" {
		limit, err = strconv.ParseInt(v, 10, 64)
		if err != nil || limit < 1 || limit > model.MaxID {
			return 0, 0, model.Invalid("limit", "limit must be an integer from 1 to %d, got %q", model.MaxID, v)
		}
	}
	return offset, limit, nil
}

// metadataDoc says how every metadata record describes its fields.
const metadataDoc = "Units are resolved against the job units. dataType is one of Integer, Double, String, Enum, Boolean, Guid: " +
	"a sub-resource or struct-valued field is described by its own fields, named with a path (restraint.txStiffness, " +
	"direction.source, combinationItems[].multiplyingFactor; those expand=All brings say so), and an array or table of " +
	"numbers has the type of its numbers. A computed enum (a load case's type) lists its values; default is what a " +
	"field the body leaves out gets (a combination item's multiplyingFactor: 1)."

// expandAll reads expand (None or All, any case).
func expandAll(c *fiber.Ctx, def bool) (bool, error) {
	switch v := strings.ToLower(c.Query("expand")); v {
	case "":
		return def, nil
	case "all":
		return true, nil
	case "none":
		return false, nil
	default:
		return false, model.Invalid("expand", "expand must be None or All, got %q", c.Query("expand"))
	}
}

func (h *collection[T]) list(c *fiber.Ctx) error {
	ctx, ws := c.UserContext(), workspace(c)
	u, err := h.units(c)
	if err != nil {
		return err
	}
	offset, limit, err := paging(c)
	if err != nil {
		return err
	}
	all, err := expandAll(c, false)
	if err != nil {
		return err
	}
	q := editor.ListQuery[T]{Offset: offset, Limit: limit}
	if h.idFilter != "" {
		if ids, ok, err := model.ParseIDList(h.idFilter, c.Query(h.idFilter)); err != nil {
			return err
		} else if ok {
			q.IDs = &ids
		}
	}
	var preds []func(*T) bool
	if h.only != nil {
		preds = append(preds, h.only)
	}
	for _, f := range h.filters {
		if v := c.Query(f.name); v != "" {
			p, err := f.build(ctx, ws, v, u)
			if err != nil {
				return err
			}
			preds = append(preds, p)
		}
	}
	if len(preds) > 0 {
		q.Filter = func(r *T) bool {
			for _, p := range preds {
				if !p(r) {
					return false
				}
			}
			return true
		}
	}
	if limit < 0 || limit > min(editor.FilterPageRows, h.a.maxRows) {
		return h.streamList(c, q, all, u)
	}
	res, err := h.c.ListPage(ctx, ws, q)
	if err != nil {
		return err
	}
	recs := res.Rows
	if h.hydrate != nil {
		if err := h.hydrate(ctx, ws, recs, all); err != nil {
			return err
		}
	}
	out := make([]T, len(recs))
	for i := range recs {
		out[i] = toWire(recs[i], u)
	}
	// A filtered list stops reading once it has this page and one more
	// match, so it knows its total only when that read reached the end.
	setPaging(c, res.Total, offset, limit, res.More)
	return c.JSON(out)
}

// respond sends one record, hydrated, in job units.
func (h *collection[T]) respond(c *fiber.Ctx, status int, rec T, all bool, u model.Units) error {
	recs := []T{rec}
	if h.hydrate != nil {
		if err := h.hydrate(c.UserContext(), workspace(c), recs, all); err != nil {
			return err
		}
	}
	return c.Status(status).JSON(toWire(recs[0], u))
}

func (h *collection[T]) get(c *fiber.Ctx) error {
	key, err := h.pathKey(c)
	if err != nil {
		return err
	}
	all, err := expandAll(c, true)
	if err != nil {
		return err
	}
	u, err := h.units(c)
	if err != nil {
		return err
	}
	rec, err := h.getVisible(c, key)
	if err != nil {
		return err
	}
	return h.respond(c, 200, rec, all, u)
}

// getVisible reads a record and hides it (404) when only rejects it.
func (h *collection[T]) getVisible(c *fiber.Ctx, key []int64) (T, error) {
	rec, err := h.c.Get(c.UserContext(), workspace(c), key...)
	if err == nil && h.only != nil && !h.only(&rec) {
		var zero T
		return zero, model.E(model.KindNotFound, "%s %v not found", h.noun(), key)
	}
	return rec, err
}

// item decodes one create body: defaults, then the client's fields.
// Every problem is reported at once: missing required fields first, then
// unknown properties, then the fields' own errors.
func (h *collection[T]) item(fields map[string]json.RawMessage, u model.Units) editor.Item[T] {
	ms, unknown := splitMembers(fields, h.info(), "")
	var it editor.Item[T]
	h.fill(&it, ms, unknown, u)
	return it
}

// fill decodes the members of one create body, in struct order, into the
// zero item it (in place: a bulk create fills its 10,000 items where they
// lie, not through copies on the heap). unknown lists the body's unknown
// properties, already explained.
func (h *collection[T]) fill(it *editor.Item[T], ms []member, unknown []model.FieldError, u model.Units) {
	k := h.c.Kind()
	if k.Defaults != nil {
		k.Defaults(&it.Rec)
	}
	applyEnumDefaults(reflect.ValueOf(&it.Rec))
	ti := h.info()
	errs := missingRequired(ti, func(f *fieldInfo) bool { return hasMember(ms, f) })
	errs = append(errs, unknown...)
	errs = appendFieldErrs(errs, mergeMembers(reflect.ValueOf(&it.Rec).Elem(), ms, u, ""))
	if len(errs) == 0 {
		it.HasKey = hasMember(ms, ti.byName[k.KeyFields[len(k.KeyFields)-1]])
	}
	it.Err = model.FieldsError(errs)
}

// objectBody reads a single-record body: a JSON object, with the job units
// to read it in.
func (h *collection[T]) objectBody(c *fiber.Ctx) (map[string]json.RawMessage, model.Units, error) {
	if err := requireJSON(c); err != nil {
		return nil, model.Units{}, err
	}
	u, err := h.units(c)
	if err != nil {
		return nil, u, err
	}
	fields, err := objectFields(c.Body(), "")
	return fields, u, err
}

func (h *collection[T]) create(c *fiber.Ctx) error {
	fields, u, err := h.objectBody(c)
	if err != nil {
		return err
	}
	it := h.item(fields, u)
	if it.Err != nil {
		return it.Err
	}
	if h.onCreate != nil {
		h.onCreate(c, &it.Rec)
	}
	out, err := h.c.Create(c.UserContext(), workspace(c), []editor.Item[T]{it}, false)
	if err != nil {
		return unwrapSingle(err)
	}
	return h.respond(c, fiber.StatusCreated, out.Records[0], true, u)
}

// change decodes one update body into a merge of its fields. A bulk item
// (key nil) carries its key in the body; a single update takes it from the
// route. A row keyed by its parent (a node's restraint or constraint, a
// member's offsets) ignores the key in the body: the interface says the
// route id wins over it. Elsewhere a key in the body must be the route's
// (sameKey).
func (h *collection[T]) change(fields map[string]json.RawMessage, u model.Units, key []int64) editor.Change[T] {
	ch := editor.Change[T]{Key: key}
	switch {
	case key == nil:
		if ch.Key, ch.Err = h.bodyKey(fields); ch.Err != nil {
			return ch
		}
	case h.c.Kind().Parent != "":
	default:
		if ch.Err = h.sameKey(fields, key); ch.Err != nil {
			return ch
		}
	}
	for _, f := range h.c.Kind().KeyFields {
		delete(fields, f) // key fields name the record; they never change it
	}
	ch.Apply = func(rec *T) error {
		if h.only != nil && !h.only(rec) {
			return model.E(model.KindNotFound, "%s %v not found", h.noun(), ch.Key)
		}
		return mergeFields(reflect.ValueOf(rec), fields, u, "")
	}
	return ch
}

// sameKey checks the key fields a single update's body gives: each must
// be the integer (or key text, elementType Member) the route names.
func (h *collection[T]) sameKey(fields map[string]json.RawMessage, key []int64) error {
	var errs []model.FieldError
	for i, f := range h.c.Kind().KeyFields {
		raw, ok := fields[f]
		if !ok {
			continue
		}
		var n int64
		good := json.Unmarshal(raw, &n) == nil
		if conv, ok := h.keyText[f]; ok && !good {
			var text string
			if json.Unmarshal(raw, &text) == nil {
				n, good = conv(text)
			}
		}
		if !good || n != key[i] {
			errs = append(errs, model.FieldError{Field: f, Message: fmt.Sprintf(
				"%s in the body must be %d, the %s of the path, when given; got %s", f, key[i], f, raw)})
		}
	}
	return model.FieldsError(errs)
}

func (h *collection[T]) update(c *fiber.Ctx) error {
	key, err := h.pathKey(c)
	if err != nil {
		return err
	}
	fields, u, err := h.objectBody(c)
	if err != nil {
		return err
	}
	// change hides records that only rejects, inside the update itself.
	ch := h.change(fields, u, key)
	if ch.Err != nil {
		return ch.Err
	}
	// The editor's one-item rejection keeps the first field of an error;
	// the body's own field errors are answered whole.
	var applyErr error
	apply := ch.Apply
	ch.Apply = func(rec *T) error { applyErr = apply(rec); return applyErr }
	out, err := h.c.Update(c.UserContext(), workspace(c), []editor.Change[T]{ch}, false)
	if err != nil {
		if applyErr != nil && model.KindOf(applyErr) == model.KindOf(err) {
			return applyErr
		}
		return unwrapSingle(err)
	}
	return h.respond(c, 200, out.Records[0], true, u)
}

func (h *collection[T]) delete(c *fiber.Ctx) error {
	key, err := h.pathKey(c)
	if err != nil {
		return err
	}
	body, err := h.remove(c.UserContext(), workspace(c), [][]int64{key}, false, false)
	if err != nil {
		return unwrapSingle(err)
	}
	if body == nil {
		return c.SendStatus(fiber.StatusNoContent)
	}
	return c.JSON(body)
}

func (h *collection[T]) next(c *fiber.Ctx) error {
	start := int64(1)
	if v := c.Query("start"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return model.Invalid("start", "start must be an integer, got %q", v)
		}
		start = n
	}
	id, err := h.c.NextID(c.UserContext(), workspace(c), start)
	if err != nil {
		return err
	}
	return c.JSON(id)
}

func (h *collection[T]) metadata(c *fiber.Ctx) error {
	u, err := h.units(c)
	if err != nil {
		return err
	}
	count, maxID, err := h.c.Stats(c.UserContext(), workspace(c))
	if err != nil {
		return err
	}
	var zero T
	md := Metadata{ResourceType: h.c.Kind().Noun, Count: &count, Fields: fieldMetadata(reflect.TypeOf(zero), u, "")}
	// Composite keys have no id space of their own: maxId and nextId stay
	// 0. Otherwise nextId is the id a create without one gets, the
	// smallest free; 0 when none is left.
	if len(h.c.Kind().KeyFields) == 1 {
		md.MaxID = maxID
		if md.NextID, err = h.c.NextID(c.UserContext(), workspace(c), 1); model.KindOf(err) == model.KindConflict {
			md.NextID, err = 0, nil
		}
		if err != nil {
			return err
		}
	}
	// A sub-resource is described by its fields ("restraint.node",
	// "combinationItems[].loadCase"): each says what brings it.
	for _, e := range h.expandable {
		for i := range md.Fields {
			if n := md.Fields[i].JSONName; n == e || strings.HasPrefix(n, e+".") || strings.HasPrefix(n, e+"[].") {
				md.Fields[i].Description = strings.TrimSuffix("hydrated by expand=All; "+md.Fields[i].Description, "; ")
			}
		}
	}
	return c.JSON(md)
}

// requireJSON checks the media type of a body that must be JSON.
func requireJSON(c *fiber.Ctx) error {
	if !bodyPresent(c) {
		return model.E(model.KindValidation, "a JSON request body is required")
	}
	if ct := c.Get(fiber.HeaderContentType); !jsonMediaType(ct) {
		if ct == "" {
			ct = "none"
		}
		return model.E(model.KindUnsupportedMedia,
			"Content-Type %s is not accepted: send application/json, text/json or application/*+json", ct)
	}
	return nil
}

// unwrapSingle turns the "item 0:" rejection of a one-item request back
// into the item's own error, with its own status.
func unwrapSingle(err error) error {
	if me, ok := err.(*model.Error); ok && len(me.Fields) > 0 && strings.HasPrefix(me.Fields[0].Field, "[0]") {
		cp := *me
		cp.Msg = me.Fields[0].Message
		cp.Fields = []model.FieldError{{Field: strings.TrimPrefix(strings.TrimPrefix(me.Fields[0].Field, "[0]"), "."), Message: me.Fields[0].Message}}
		return &cp
	}
	return err
}
