package httpapi

import (
	"io"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/model"
)

// Serving the SDK's names (sgnames.go): every route is mounted a second
// time under sgPrefix with the same handler behind a translation. The
// middleware (authentication, the body gate, the guard, the metrics) is
// the app's, so it applies the same on both paths; the metrics name the
// route by its full template, so the two paths count apart.

// localSGQueried holds the query parameters (our names) a request on
// the SDK's path gave in the SDK's names; localSGAsSent marks an error
// that names what the client sent, which stays as it is.
const localSGQueried, localSGAsSent = "sgQueried", "sgAsSent"

// onSGPath says whether a request came by the SDK's base path.
func onSGPath(c *fiber.Ctx) bool {
	return strings.HasPrefix(c.Path(), sgPrefix+"/")
}

// basePath is the base path a request came by, for the links and paths an
// answer gives.
func basePath(c *fiber.Ctx) string {
	if onSGPath(c) {
		return sgPrefix
	}
	return apiPrefix
}

// mountSG mounts route r on the SDK's base path; the OpenAPI document
// route serves the SDK's document there.
func (a *API) mountSG(r route) {
	if r.root {
		return
	}
	h := a.sgHandler(r.handler)
	if r.path == "/openapi.json" {
		h = a.serveSGOpenAPI
	}
	for _, p := range sgPathsOf(r) {
		a.mount(r.method, sgPrefix+p.fiber, h)
	}
}

// sgHandler translates a request from the SDK's names to ours, runs h,
// and translates its answer back.
func (a *API) sgHandler(h fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if err := sgRequest(c); err != nil {
			return err
		}
		if err := h(c); err != nil {
			return err
		}
		sgAnswer(c)
		return nil
	}
}

// sgRequest renames the query parameters and the keys of a JSON body to
// ours. Our names the SDK renamed are unknown on its path, as a misspelt
// name is: the 400 names them.
func sgRequest(c *fiber.Ctx) error {
	args := c.Request().URI().QueryArgs()
	var refused string
	renamed := false
	args.VisitAll(func(k, _ []byte) {
		if _, ok := sgQuery[string(k)]; ok && refused == "" {
			refused = string(k)
		}
		if _, ok := sgQueryFrom[string(k)]; ok {
			renamed = true
		}
	})
	if refused != "" {
		c.Locals(localSGAsSent, true)
		return model.Invalid(refused, "unknown query parameter %q: this path names it %s", refused, sgQuery[refused])
	}
	if renamed {
		queried := map[string]bool{}
		type kv struct{ k, v string }
		var all []kv
		args.VisitAll(func(k, v []byte) {
			name := string(k)
			if from, ok := sgQueryFrom[name]; ok {
				name, queried[from] = from, true
			}
			all = append(all, kv{name, string(v)})
		})
		args.Reset()
		for _, p := range all {
			args.Add(p.k, p.v)
		}
		c.Locals(localSGQueried, queried)
	}
	body := c.Body()
	if len(body) == 0 || !jsonMediaType(c.Get(fiber.HeaderContentType)) {
		return nil
	}
	// The copy is at most 1.6 times the body ("cases" becomes "loadCases"
	// at worst): see the README on the body memory it takes.
	out, err := renameAll(body, sgKeysBack, sgRefused)
	if err != nil {
		if rk, ok := err.(*refusedKeyError); ok {
			c.Locals(localSGAsSent, true)
			return &model.Error{Kind: model.KindValidation, Msg: "unknown property \"" + rk.key + "\"",
				Fields: []model.FieldError{{Field: rk.key, Message: "unknown property"}}}
		}
		return err
	}
	c.Request().SetBodyRaw(out)
	return nil
}

// sgAnswer renames the keys of a JSON answer to the SDK's, and points a
// Location at the SDK's base path. A streamed answer is renamed as it
// goes out; any other is in memory already, and bounded as the route
// bounds it (MAX_RESPONSE_ROWS for lists and results).
func sgAnswer(c *fiber.Ctx) {
	res := c.Response()
	if loc := string(res.Header.Peek(fiber.HeaderLocation)); strings.HasPrefix(loc, apiPrefix+"/") {
		res.Header.Set(fiber.HeaderLocation, sgPrefix+strings.TrimPrefix(loc, apiPrefix))
	}
	if res.StatusCode() >= 400 || !jsonMediaType(string(res.Header.ContentType())) {
		return
	}
	if res.IsBodyStream() {
		// Renamed as it goes (answerStream).
		return
	}
	if body := res.Body(); len(body) > 0 {
		// An answer cannot refuse a key: the table refuses none this way.
		out, _ := renameAll(body, sgKeys, nil)
		res.SetBodyRaw(out)
	}
}

// answerStream is the stream that carries a streamed answer: on the
// SDK's base path its keys are renamed as the connection reads it,
// a chunk at a time.
func answerStream(c *fiber.Ctx, r io.Reader) io.Reader {
	if onSGPath(c) {
		return newRenamingReader(r, sgKeys)
	}
	return r
}

// sgError writes an error in the SDK's names: the fields and messages
// that name a renamed key, path parameter or query parameter name the
// SDK's instead, and the hints point at the SDK's base path.
func sgError(c *fiber.Ctx, resp *ErrorResponse) {
	if asSent, _ := c.Locals(localSGAsSent).(bool); asSent {
		return
	}
	queried, _ := c.Locals(localSGQueried).(map[string]bool)
	text := func(s string) string {
		// A path parameter's message says "in the path".
		if strings.Contains(s, " in the path") {
			s = sgRenameWords(s, sgParamWords, sgParams)
		}
		if len(queried) > 0 {
			s = sgQueryWords.ReplaceAllStringFunc(s, func(w string) string {
				if queried[w] {
					return sgQuery[w]
				}
				return w
			})
		}
		s = sgRenameWords(s, sgKeyWords, sgKeys)
		return strings.ReplaceAll(s, apiPrefix+"/", sgPrefix+"/")
	}
	resp.Detail = text(resp.Detail)
	for i := range resp.Errors {
		e := &resp.Errors[i]
		msg := e.Message
		e.Message = text(e.Message)
		switch {
		case strings.Contains(msg, " in the path") && sgParams[e.Field] != "":
			e.Field = sgParams[e.Field]
		case queried[e.Field]:
			e.Field = sgQuery[e.Field]
		case sgKeys[e.Field] != "":
			e.Field = sgKeys[e.Field]
		}
	}
}
