package httpapi

import (
	"io"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/model"
)

// Serving the SDK's names (sgnames.go): a request on the SDK's base path
// is given our path (sgRewrite) before any middleware sees it, so that
// it meets the same authentication, body gate, guard, route and
// handler as on /api/v1; the route's handler then runs behind a
// translation of names (sgServe). The metrics name the route by its
// template under the SDK's base path, so the two paths count apart; the
// logs and ErrorResponse.instance give the path as sent.

// localSG holds the path as sent of a request on the SDK's base path;
// localSGNative marks an answer written in the SDK's names already;
// localSGQueried holds the query parameters the request gave in the
// SDK's names (ours → the SDK's); localSGAsSent marks an error that names what the
// client sent, which stays as it is.
const localSG, localSGNative, localSGQueried, localSGAsSent = "sgPath", "sgNative", "sgQueried", "sgAsSent"

// sgEntry is the first middleware: it moves a request on the SDK's base
// path onto ours.
func sgEntry(c *fiber.Ctx) error {
	p := c.Path()
	if rest, ok := strings.CutPrefix(p, sgPrefix); ok && (rest == "" || rest[0] == '/') {
		c.Locals(localSG, p)
		c.Path(apiPrefix + sgRewrite(rest))
	}
	return c.Next()
}

// onSGPath says whether a request came by the SDK's base path.
func onSGPath(c *fiber.Ctx) bool {
	_, ok := c.Locals(localSG).(string)
	return ok
}

// basePath is the base path a request came by, for the links and paths an
// answer gives.
func basePath(c *fiber.Ctx) string {
	if onSGPath(c) {
		return sgPrefix
	}
	return apiPrefix
}

// sgServe translates a request from the SDK's names to ours, runs h, and
// translates its answer back.
func sgServe(c *fiber.Ctx, h fiber.Handler) error {
	if err := sgRequest(c); err != nil {
		return err
	}
	if err := h(c); err != nil {
		return err
	}
	if native, _ := c.Locals(localSGNative).(bool); !native {
		sgAnswer(c)
	}
	return nil
}

// sgCopyWeight is how many more times the body gate counts each byte of
// a body on the SDK's base path: the renamed copy sgRequest makes is at
// most 1.6 times the body, and held beside it while the handler runs.
const sgCopyWeight = 2

// sgRequest renames the query parameters and the keys of a JSON body to
// ours. Our names the SDK renamed are unknown on its path, as a misspelt
// name is: the 400 names them.
func sgRequest(c *fiber.Ctx) error {
	renames := sgQueryOn(strings.TrimPrefix(c.Path(), apiPrefix))
	if renames == nil {
		return sgBody(c)
	}
	back := make(map[string]string, len(renames))
	for from, to := range renames {
		back[to] = from
	}
	args := c.Request().URI().QueryArgs()
	var refused string
	renamed := false
	args.VisitAll(func(k, _ []byte) {
		if _, ok := renames[string(k)]; ok && refused == "" {
			refused = string(k)
		}
		if _, ok := back[string(k)]; ok {
			renamed = true
		}
	})
	if refused != "" {
		c.Locals(localSGAsSent, true)
		return model.Invalid(refused, "unknown query parameter %q: this path names it %s", refused, renames[refused])
	}
	if renamed {
		queried := map[string]string{}
		type kv struct{ k, v string }
		var all []kv
		args.VisitAll(func(k, v []byte) {
			name := string(k)
			if from, ok := back[name]; ok {
				name, queried[from] = from, name
			}
			all = append(all, kv{name, string(v)})
		})
		args.Reset()
		for _, p := range all {
			args.Add(p.k, p.v)
		}
		c.Locals(localSGQueried, queried)
	}
	return sgBody(c)
}

// sgBody renames the keys of a JSON request body to ours.
func sgBody(c *fiber.Ctx) error {
	body := c.Body()
	if len(body) == 0 || !jsonMediaType(c.Get(fiber.HeaderContentType)) {
		return nil
	}
	// The copy is at most 1.6 times the body ("cases" becomes "loadCases"
	// at worst); the body gate counts it (sgCopyWeight).
	out, err := renameAll(body, sgKeysBack, sgRefused, nil)
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
		out, _ := renameAll(body, sgKeys, nil, sgValueKeys)
		res.SetBodyRaw(out)
	}
}

// answerStream is the stream that carries a streamed answer: on the
// SDK's base path its keys are renamed as the connection reads it,
// a chunk at a time.
func answerStream(c *fiber.Ctx, r io.Reader) io.Reader {
	if onSGPath(c) {
		return newRenamingReader(r, sgKeys, sgValueKeys)
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
	queried, _ := c.Locals(localSGQueried).(map[string]string)
	text := func(s string) string {
		// A path parameter's message says "in the path" and names the
		// parameter before the value it quotes, which stays as sent.
		if strings.Contains(s, " in the path") {
			head, tail := s, ""
			if i := strings.IndexByte(s, '"'); i >= 0 {
				head, tail = s[:i], s[i:]
			}
			s = sgRenameWords(head, sgParamWords, sgParams) + tail
		}
		if len(queried) > 0 {
			s = sgQueryWords.ReplaceAllStringFunc(s, func(w string) string {
				if to, ok := queried[w]; ok {
					return to
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
		case queried[e.Field] != "":
			e.Field = queried[e.Field]
		case sgKeys[e.Field] != "":
			e.Field = sgKeys[e.Field]
		}
	}
}
