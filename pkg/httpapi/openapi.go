package httpapi

import (
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/model"
)

// param documents a query parameter.
type param struct {
	name, typ, desc string
	required        bool
}

// route is one endpoint: how it is served and how it is documented. Every
// route goes through add, so the OpenAPI document cannot miss one.
type route struct {
	method, path string // path is relative to apiPrefix unless root is set
	root         bool   // served outside /api/v1 (health, metrics)
	summary      string
	desc         string
	tag          string
	query        []param
	body         any  // request body type (a zero value), nil for none
	bodyRequired bool // whether the body may be left out
	fileParts    []string
	responses    map[int]any       // success status → body type; nil value for no body
	headers      map[string]string // success response header → description
	rawResponse  string            // media type of a non-JSON success body
	errors       []int
	// example replaces the body example built from the field definitions
	// where the body type is shared by routes that want different values.
	example any
	// keys are the key fields a bulk body's items carry (its example
	// shows them).
	keys    []string
	handler fiber.Handler
}

func (r route) fullPath() string {
	if r.root {
		return r.path
	}
	return apiPrefix + r.path
}

// add registers a route with Fiber and keeps it for the document.
// Every route also serves the SDK's base path (sgserve.go).
func (a *API) add(r route) {
	a.routes = append(a.routes, r)
	a.mount(r.method, r.fullPath(), r.handler)
}

// mount registers handler h at the full path.
func (a *API) mount(method, full string, h fiber.Handler) {
	// The handler names its route for the metrics: a request no route
	// matched reaches no handler, whatever c.Route() says (Fiber reports
	// the middleware's "/" then, which is also a route).
	handler := func(c *fiber.Ctx) error {
		if onSGPath(c) {
			c.Locals(localRoute, sgPrefix+strings.TrimPrefix(full, apiPrefix))
			return sgServe(c, h)
		}
		c.Locals(localRoute, full)
		return h(c)
	}
	a.app.Add(method, full, handler)
	if method == fiber.MethodGet {
		// Fiber answers HEAD for every GET route.
		a.app.Add(fiber.MethodHead, full, handler)
	}
}

// openAPI builds the OpenAPI 3.0 document of every registered route.
func (a *API) openAPI() map[string]any {
	return a.document(v1Description(), func(sg *schemaGen, add func(r route, path string, op map[string]any)) {
		for _, r := range a.routes {
			add(r, openAPIPath(r.fullPath()), sg.operation(r))
		}
	})
}

// v1Description introduces the /api/v1 document.
func v1Description() string {
	return "JSON/HTTP interface to the gusset finite-element engine. The contract follows " +
		"version 1 of the structural analysis job service interface, with the names of the desktop program whose REST API it copies. Decisions where that interface is silent " +
		"are written into the descriptions of the operations concerned. " + sgNote + " " + authDescription + " " + guardDescription + " " +
		bodiesDescription + " " + limitsDescription() + " " + writesDescription + " " + fieldsDescription + " " + pagesDescription + " " + securityDescription
}

// document builds an OpenAPI 3.0 document whose operations ops adds.
func (a *API) document(description string, ops func(sg *schemaGen, add func(r route, path string, op map[string]any))) map[string]any {
	sg := newSchemaGen()
	sg.ref(reflect.TypeOf(ErrorResponse{}), false)
	paths := map[string]map[string]any{}
	var tags []any
	seen := map[string]bool{}
	ops(sg, func(r route, p string, op map[string]any) {
		if !seen[r.tag] {
			seen[r.tag] = true
			tags = append(tags, map[string]any{"name": r.tag, "description": tagDescriptions[r.tag]})
		}
		if paths[p] == nil {
			paths[p] = map[string]any{}
		}
		paths[p][strings.ToLower(r.method)] = op
	})
	return map[string]any{
		"openapi": "3.0.3",
		"info": map[string]any{
			"title":       "gusset structural analysis job service",
			"version":     Version,
			"description": description,
		},
		"servers": []any{map[string]any{"url": "/"}},
		"tags":    tags,
		"paths":   paths,
		// Either scheme carries the key; the empty requirement is open
		// mode, where none is needed.
		"security": []any{map[string]any{"bearerKey": []any{}}, map[string]any{"headerKey": []any{}}, map[string]any{}},
		"components": map[string]any{"schemas": sg.schemas, "securitySchemes": map[string]any{
			"bearerKey": map[string]any{"type": "http", "scheme": "bearer",
				"description": "An API key made by gusset-admin key create (AUTH_MODE=keys), as `Authorization: Bearer <key>`."},
			"headerKey": map[string]any{"type": "apiKey", "in": "header", "name": "X-API-Key",
				"description": "The same API key in the X-API-Key header."},
		}},
	}
}

// tagDescriptions introduce each group of operations on the docs page.
var tagDescriptions = map[string]string{
	"Service":           "Health, readiness, metrics, this document and the browser pages (landing page, viewer, API reference).",
	"Files":             "Job files in the workspace's jobs directory: list, upload, download, delete.",
	"Job":               "The open job: new, open, save, close; its headings, settings, units and status.",
	"Analysis settings": "Settings of the static, buckling and natural-frequency analyses, kept with the job.",
	"Structure":         "Nodes, members, plates, sections, materials, supports, constraints, offsets, releases and directions, one collection each, with bulk operations.",
	"Geometry":          "Derived geometry the model implies: member ends after offsets, local axes, lengths, plate corners.",
	"Loads":             "Load cases, combinations, groups and categories, and the loads on nodes, members and plates.",
	"Moving loads":      "Vehicles, lanes, travel paths and scenarios, and the generation of their load cases.",
	"Analysis":          "Start, follow and cancel analysis runs; each run is queued and solved by a worker.",
	"Results":           "Results of the last runs, as paged queries per load case, mode or combination, in job units.",
}

// bodiesDescription says how request bodies are bounded.
const bodiesDescription = "Request bodies: a body larger than MAX_BODY_BYTES, whether its Content-Length declares it or it is sent chunked, " +
	"is a 413 PAYLOAD_TOO_LARGE whose detail names the limit in bytes. A body with a Content-Encoding other than identity is a 415 " +
	"UNSUPPORTED_MEDIA_TYPE: send it uncompressed. The service reads and decodes at most BODY_MEMORY bytes of request bodies at once " +
	"(default 384 MiB, each body byte counted 6 times), and the bodies of one workspace (or, for a request without an API key, of one " +
	"address) at most BODY_MEMORY_PER_CLIENT of it (default half of BODY_MEMORY; one body counts for at most that much, so the largest " +
	"body is always accepted on its own), so that one client's slow or stalled uploads leave room for the others'. A request that cannot " +
	"get room for its body within 5 s, or that would have to wait behind an older request while holding part of its body, is a 503 " +
	"SERVICE_UNAVAILABLE whose detail names the limit it met; the request had no effect, so retry it after a few seconds. Headers, and " +
	"then the first bytes of a body, must arrive within 10 s; after that every 10 s must bring BODY_MIN_RATE bytes a second of the body " +
	"(default 1048576, so 10 MiB) or all the rest of it. A slower body is a 400 MALFORMED_REQUEST naming BODY_MIN_RATE and the connection " +
	"is closed, at most 20 s after the body stopped. These body refusals are not written to the job's error log."

// fieldsDescription says how the schemas' field rules read.
const fieldsDescription = "Fields: a create must give the fields a schema lists as required; a PATCH body (the ...Update " +
	"schemas) gives only the fields it changes. An enum value is accepted in any case and stored in the spelling the enum " +
	"lists. Numbers are in the job's units (GET /api/v1/job/units), as each field's description names."

// limitsDescription lists the workspace limits (model.LimitDefs).
func limitsDescription() string {
	var b strings.Builder
	b.WriteString("Workspace limits: each workspace may hold or ask for at most ")
	for i, d := range model.LimitDefs {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s %s (%s, default %s)", d.Name, d.Noun, d.Setting, model.FormatCount(d.Default, d.Bytes))
	}
	b.WriteString(". The variables set every workspace's defaults; an administrator sets a workspace's own with gusset-admin " +
		"workspace limits. A request that would go past a limit is a 403 LIMIT_EXCEEDED naming the limit and its value, checked " +
		"before the work starts, and nothing of it is done (a job file over its size limit is a 413 PAYLOAD_TOO_LARGE). A workspace " +
		"over a limit lowered later can still change and delete rows; it cannot add more.")
	return b.String()
}

// writesDescription says how concurrent and interrupted writes behave.
const writesDescription = "Concurrent writes: a change planned over many rows (a cascading delete, a bulk create) that finds the model " +
	"changed under it is planned again under the workspace's write lease; other writes wait for the lease (at most 10 s, then 409 CONFLICT), " +
	"so such changes complete under many concurrent writers. A write whose reply from the store was lost is settled before the API answers: " +
	"committed, it answers as usual; not committed, it is fenced off and answers 503 SERVICE_UNAVAILABLE saying nothing was applied; with the " +
	"store unreachable, the 503 says the outcome is unknown and to read the rows before retrying. A write never answers 500 after it committed. " +
	"A full store (Redis at its maxmemory) refuses writes: they answer 503 STORAGE_FULL saying the storage is full, and nothing of them is " +
	"written; reads go on, and closing or clearing a job and deleting rows still work and free storage (GET /readyz says storage.full; " +
	"GET /api/v1/job/status shows the result bytes a workspace stores)."

// wildcardParam names a route's trailing * (the rest of the path) in the
// document.
const wildcardParam = "file"

// openAPIPath turns Fiber's ":id" parameters into OpenAPI's "{id}", and a
// trailing * into {file}.
func openAPIPath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if strings.HasPrefix(s, ":") {
			parts[i] = "{" + strings.TrimSuffix(strings.TrimPrefix(s, ":"), "?") + "}"
		}
		if s == "*" {
			parts[i] = "{" + wildcardParam + "}"
		}
	}
	return strings.Join(parts, "/")
}

func (g *schemaGen) operation(r route) map[string]any {
	return g.operationAt(r, r.fullPath(), operationID(r))
}

// operationAt documents route r served at full (a Fiber path, or one in
// the document's form) as operation id.
func (g *schemaGen) operationAt(r route, full, id string) map[string]any {
	op := map[string]any{
		"summary":     r.summary,
		"operationId": id,
		"tags":        []string{r.tag},
	}
	if r.desc != "" {
		op["description"] = r.desc
	}
	var params []any
	for _, s := range strings.Split(full, "/") {
		if strings.HasPrefix(s, ":") || strings.HasPrefix(s, "{") && s != "{"+wildcardParam+"}" {
			params = append(params, map[string]any{"name": strings.Trim(s, ":{}"), "in": "path", "required": true,
				"schema": map[string]any{"type": "string"}})
		}
		if s == "*" || s == "{"+wildcardParam+"}" {
			params = append(params, map[string]any{"name": wildcardParam, "in": "path", "required": true,
				"description": "the rest of the path, slashes included", "schema": map[string]any{"type": "string"}})
		}
	}
	for _, q := range r.query {
		params = append(params, map[string]any{"name": q.name, "in": "query", "required": q.required,
			"description": q.desc, "schema": map[string]any{"type": q.typ}})
	}
	if params != nil {
		op["parameters"] = params
	}
	switch {
	case r.body != nil:
		op["requestBody"] = g.requestBody(r)
	case len(r.fileParts) > 0:
		props := map[string]any{}
		for _, p := range r.fileParts {
			props[p] = map[string]any{"type": "string", "format": "binary"}
		}
		op["requestBody"] = map[string]any{"required": true, "content": map[string]any{
			"multipart/form-data": map[string]any{"schema": map[string]any{"type": "object", "properties": props, "required": r.fileParts}}}}
	}
	resps := map[string]any{}
	for status, body := range r.responses {
		resp := map[string]any{"description": statusText(status)}
		switch {
		case r.rawResponse != "":
			resp["content"] = map[string]any{r.rawResponse: map[string]any{"schema": map[string]any{"type": "string"}}}
		case body != nil:
			resp["content"] = map[string]any{"application/json": map[string]any{"schema": g.schema(reflect.TypeOf(body), false)}}
		}
		if len(r.headers) > 0 {
			hs := map[string]any{}
			for name, d := range r.headers {
				hs[name] = map[string]any{"description": d, "schema": map[string]any{"type": "string"}}
			}
			resp["headers"] = hs
		}
		resps[strconv.Itoa(status)] = resp
	}
	for _, status := range r.errors {
		resps[strconv.Itoa(status)] = map[string]any{"description": statusText(status), "content": map[string]any{
			"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/ErrorResponse"}}}}
	}
	if r.method != "GET" && r.method != "DELETE" {
		// Every write may meet the browser guard or a workspace limit.
		resps["403"] = map[string]any{"description": statusText(403) + " (FORBIDDEN: a cross-origin browser write or a Host that is " +
			"not allowed; LIMIT_EXCEEDED: the request would take the workspace past one of its limits)",
			"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/ErrorResponse"}}}}
	}
	if noKeyNeeded(full) {
		op["security"] = []any{}
	} else {
		resps["401"] = map[string]any{"description": statusText(401) + " (AUTH_MODE=keys: no key, or one that is not valid)",
			"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/ErrorResponse"}}}}
	}
	op["responses"] = resps
	return op
}

func operationID(r route) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(r.method))
	for _, s := range strings.FieldsFunc(r.fullPath(), func(c rune) bool { return c == '/' || c == '-' || c == ':' || c == '.' }) {
		if s == "api" || s == "v1" {
			continue
		}
		b.WriteString(strings.ToUpper(s[:1]) + s[1:])
	}
	return b.String()
}

func statusText(status int) string {
	if t := http.StatusText(status); t != "" {
		return t
	}
	return "status " + strconv.Itoa(status)
}
