package httpapi

import (
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
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
	handler      fiber.Handler
}

func (r route) fullPath() string {
	if r.root {
		return r.path
	}
	return apiPrefix + r.path
}

// add registers a route with Fiber and keeps it for the document.
func (a *API) add(r route) {
	a.routes = append(a.routes, r)
	full, h := r.fullPath(), r.handler
	// The handler names its route for the metrics: a request no route
	// matched reaches no handler, whatever c.Route() says (Fiber reports
	// the middleware's "/" then, which is also a route).
	handler := func(c *fiber.Ctx) error {
		c.Locals(localRoute, full)
		return h(c)
	}
	a.app.Add(r.method, full, handler)
	if r.method == fiber.MethodGet {
		// Fiber answers HEAD for every GET route.
		a.app.Add(fiber.MethodHead, full, handler)
	}
}

// openAPI builds the OpenAPI 3.0 document of every registered route.
func (a *API) openAPI() map[string]any {
	sg := newSchemaGen()
	sg.ref(reflect.TypeOf(ErrorResponse{}))
	paths := map[string]map[string]any{}
	var tags []any
	seen := map[string]bool{}
	for _, r := range a.routes {
		if !seen[r.tag] {
			seen[r.tag] = true
			tags = append(tags, map[string]any{"name": r.tag})
		}
		p := openAPIPath(r.fullPath())
		if paths[p] == nil {
			paths[p] = map[string]any{}
		}
		paths[p][strings.ToLower(r.method)] = sg.operation(r)
	}
	return map[string]any{
		"openapi": "3.0.3",
		"info": map[string]any{
			"title":   "gusset structural analysis job service",
			"version": Version,
			"description": "JSON/HTTP interface to the gusset finite-element engine. The contract follows " +
				"version 1 of the structural analysis job service interface, with the names of the desktop program whose REST API it copies. Decisions where that interface is silent " +
				"are written into the descriptions of the operations concerned. " + authDescription + " " + guardDescription + " " +
				bodiesDescription + " " + writesDescription + " " + pagesDescription,
		},
		"servers": []any{map[string]any{"url": "/"}},
		"tags":    tags,
		"paths":   paths,
		// Either scheme carries the key; the empty requirement is open
		// mode, where none is needed.
		"security": []any{map[string]any{"bearerKey": []any{}}, map[string]any{"headerKey": []any{}}, map[string]any{}},
		"components": map[string]any{"schemas": sg.schemas, "securitySchemes": map[string]any{
			"bearerKey": map[string]any{"type": "http", "scheme": "bearer",
				"description": "An API key made by gusset-admin key create (AUTH_MODE=keys), as Authorization: Bearer <key>."},
			"headerKey": map[string]any{"type": "apiKey", "in": "header", "name": "X-API-Key",
				"description": "The same API key in the X-API-Key header."},
		}},
	}
}

// bodiesDescription says how request bodies are bounded.
const bodiesDescription = "Request bodies: a body larger than MAX_BODY_BYTES, whether its Content-Length declares it or it is sent chunked, " +
	"is a 413 PAYLOAD_TOO_LARGE whose detail names the limit in bytes. A body with a Content-Encoding other than identity is a 415 " +
	"UNSUPPORTED_MEDIA_TYPE: send it uncompressed. The service reads and decodes at most BODY_MEMORY bytes of request bodies at once " +
	"(default 384 MiB, each body byte counted 6 times). A request that cannot get room for its body within 5 s, or that would have to " +
	"wait behind an older request while holding part of its body, is a 503 SERVICE_UNAVAILABLE; the request had no effect, so retry it " +
	"after a few seconds. Headers must arrive within 10 s, and a body within 10 s plus 1 s per MiB; a slower body is a 400 and the " +
	"connection is closed. These body refusals are not written to the job's error log."

// writesDescription says how concurrent and interrupted writes behave.
const writesDescription = "Concurrent writes: a change planned over many rows (a cascading delete, a bulk create) that finds the model " +
	"changed under it is planned again under the workspace's write lease; other writes wait for the lease (at most 10 s, then 409 CONFLICT), " +
	"so such changes complete under many concurrent writers. A write whose reply from the store was lost is settled before the API answers: " +
	"committed, it answers as usual; not committed, it is fenced off and answers 503 SERVICE_UNAVAILABLE saying nothing was applied; with the " +
	"store unreachable, the 503 says the outcome is unknown and to read the rows before retrying. A write never answers 500 after it committed."

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

type schemaGen struct {
	schemas map[string]any
}

func newSchemaGen() *schemaGen { return &schemaGen{schemas: map[string]any{}} }

func (g *schemaGen) operation(r route) map[string]any {
	op := map[string]any{
		"summary":     r.summary,
		"operationId": operationID(r),
		"tags":        []string{r.tag},
	}
	if r.desc != "" {
		op["description"] = r.desc
	}
	var params []any
	for _, s := range strings.Split(r.fullPath(), "/") {
		if strings.HasPrefix(s, ":") {
			params = append(params, map[string]any{"name": strings.TrimPrefix(s, ":"), "in": "path", "required": true,
				"schema": map[string]any{"type": "string"}})
		}
		if s == "*" {
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
		op["requestBody"] = map[string]any{"required": r.bodyRequired, "content": map[string]any{
			"application/json": map[string]any{"schema": g.schema(reflect.TypeOf(r.body))}}}
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
			resp["content"] = map[string]any{"application/json": map[string]any{"schema": g.schema(reflect.TypeOf(body))}}
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
	if noKeyNeeded(r.fullPath()) {
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

var timeType = reflect.TypeOf(time.Time{})

// schema returns the JSON schema of t; named struct types become shared
// components referenced by name.
func (g *schemaGen) schema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case t.Kind() == reflect.Struct && t.Name() != "":
		return g.ref(t)
	}
	switch t.Kind() {
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string", "format": "byte"}
		}
		return map[string]any{"type": "array", "items": g.schema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.schema(t.Elem())}
	case reflect.Struct:
		return g.object(t)
	}
	return map[string]any{}
}

func (g *schemaGen) ref(t reflect.Type) map[string]any {
	name := schemaName(t)
	if _, ok := g.schemas[name]; !ok {
		g.schemas[name] = map[string]any{} // placeholder breaks recursion
		g.schemas[name] = g.object(t)
	}
	return map[string]any{"$ref": "#/components/schemas/" + name}
}

func (g *schemaGen) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	g.fields(t, props)
	return map[string]any{"type": "object", "properties": props}
}

// fields collects the JSON properties of t, flattening embedded structs as
// encoding/json does.
func (g *schemaGen) fields(t reflect.Type, props map[string]any) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name := strings.Split(tag, ",")[0]
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				g.fields(ft, props)
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		s := g.schema(f.Type)
		if d := f.Tag.Get("doc"); d != "" {
			s = map[string]any{"allOf": []any{s}, "description": d}
		}
		props[name] = s
	}
}

func statusText(status int) string {
	if t := http.StatusText(status); t != "" {
		return t
	}
	return "status " + strconv.Itoa(status)
}

// schemaName names the component of a struct type; an instance of a
// generic type is named after its type arguments' short names
// (Envelope[pkg/model.NodeReactionRow] → Envelope_NodeReactionRow), since
// a component name may not hold slashes or brackets.
func schemaName(t reflect.Type) string {
	name := t.Name()
	open := strings.IndexByte(name, '[')
	if open < 0 {
		return name
	}
	args := strings.Split(strings.TrimSuffix(name[open+1:], "]"), ",")
	out := name[:open]
	for _, a := range args {
		out += "_" + a[strings.LastIndexByte(a, '.')+1:]
	}
	return out
}
