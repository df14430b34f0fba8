package httpapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// authDescription states the authentication rules for the OpenAPI
// document.
const authDescription = "With AUTH_MODE=keys every request carries an API key, as `Authorization: Bearer <key>` or as " +
	"`X-API-Key: <key>`, and works in the key's workspace: its own job slot, runs, results, error log and jobs " +
	"directory. A request without a key, or with a key that is malformed, unknown or revoked, is a 401 UNAUTHORIZED " +
	"(with WWW-Authenticate: Bearer); a revoked key stops working at the next request. /healthz, /readyz and /metrics " +
	"answer without a key, for orchestrators and Prometheus. In open mode (AUTH_MODE=open, the default) no key is " +
	"needed and every request works in the one workspace \"default\"."

// authExempt are the root routes that answer without a key: probes and
// scrapes carry none.
var authExempt = hostExempt

// authenticate sets the workspace of the request: the default workspace in
// open mode, the key's with API keys on.
func (a *API) authenticate(c *fiber.Ctx) error {
	if a.auth == nil {
		c.Locals(localWorkspace, store.DefaultWorkspace)
		return c.Next()
	}
	if noKeyNeeded(c.Path()) {
		return c.Next()
	}
	key, err := presentedKey(c)
	if err == nil {
		var ws string
		ws, err = a.auth.Authenticate(c.UserContext(), key)
		if err == nil {
			c.Locals(localWorkspace, ws)
			return c.Next()
		}
	}
	if model.KindOf(err) == model.KindUnauthorized {
		c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="gusset"`)
	}
	return err
}

// presentedKey reads the key from Authorization: Bearer or X-API-Key.
func presentedKey(c *fiber.Ctx) (string, error) {
	bearer, hasBearer := "", false
	if h := c.Get(fiber.HeaderAuthorization); h != "" {
		scheme, rest, _ := strings.Cut(h, " ")
		if !strings.EqualFold(scheme, "Bearer") {
			return "", model.E(model.KindUnauthorized, "the Authorization header must read \"Bearer <API key>\"")
		}
		bearer, hasBearer = strings.TrimSpace(rest), true
	}
	apiKey := strings.TrimSpace(c.Get("X-API-Key"))
	switch {
	case hasBearer && apiKey != "" && apiKey != bearer:
		return "", model.E(model.KindUnauthorized, "the request carries two different API keys (Authorization and X-API-Key): send one")
	case hasBearer && bearer != "":
		return bearer, nil
	case apiKey != "":
		return apiKey, nil
	}
	return "", model.E(model.KindUnauthorized, "this service needs an API key: send it as \"Authorization: Bearer <key>\" "+
		"or \"X-API-Key: <key>\"; an administrator makes keys with gusset-admin key create")
}

// workspace is the workspace of a request that passed authenticate.
func workspace(c *fiber.Ctx) string {
	if ws, ok := c.Locals(localWorkspace).(string); ok {
		return ws
	}
	return store.DefaultWorkspace
}
