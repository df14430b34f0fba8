package httpapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/webui"
)

// uiPrefix is where the pages' scripts, styles and vendored libraries are
// served.
const uiPrefix = "/ui/"

// pageRoutes are the root routes of the browser pages. They and the files
// under uiPrefix answer without an API key: they hold no data, and the
// viewer asks for the key itself. The guard's Host rule still applies.
var pageRoutes = map[string]bool{"/": true, "/viewer": true, "/docs": true}

// pagesDescription states, for the OpenAPI document, how the pages are
// served.
const pagesDescription = "Browser pages: / (links and version), /viewer (a three.js view of the open job that reads it " +
	"through this API only; with AUTH_MODE=keys it asks for a key once and keeps it in the tab's session storage), /docs " +
	"(this document in Redoc). They and their files under /ui/ are embedded in the binary, load nothing from other servers " +
	"and need no API key; neither does /api/v1/openapi.json, which holds no job data."

func (a *API) registerPageRoutes() {
	const tag = "Service"
	html := func(render func() ([]byte, error)) fiber.Handler {
		return func(c *fiber.Ctx) error {
			b, err := render()
			if err != nil {
				return err
			}
			c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
			c.Set(fiber.HeaderCacheControl, "no-cache")
			return c.Send(b)
		}
	}
	a.add(route{method: "GET", path: "/", root: true, tag: tag, summary: "Landing page: links to the viewer, the API reference, metrics and probes",
		responses: map[int]any{200: nil}, rawResponse: fiber.MIMETextHTML, handler: html(func() ([]byte, error) {
			return webui.Landing(webui.LandingInfo{Version: Version, APIPath: apiPrefix})
		})})
	a.add(route{method: "GET", path: "/viewer", root: true, tag: tag, summary: "3-D viewer of the open job and its results",
		desc: "Draws nodes, members (as lines or section outlines in their local axes), plates, supports, releases, offsets and the loads " +
			"of a chosen case; the deflected shape of a static case through the member intermediate displacements, with a scale; member " +
			"diagrams and colouring by a member force; buckling and vibration mode shapes, animated. A click shows an object's id and its " +
			"values for the chosen case. It exposes a read-only window.gussetViewer state for tests.",
		responses: map[int]any{200: nil}, rawResponse: fiber.MIMETextHTML, handler: html(func() ([]byte, error) { return webui.PageHTML(webui.Viewer) })})
	a.add(route{method: "GET", path: "/docs", root: true, tag: tag, summary: "API reference (this document, rendered by Redoc)",
		responses: map[int]any{200: nil}, rawResponse: fiber.MIMETextHTML, handler: html(func() ([]byte, error) { return webui.PageHTML(webui.Docs) })})
	a.add(route{method: "GET", path: uiPrefix + "*", root: true, tag: tag, summary: "Scripts, styles and vendored libraries of the pages",
		responses: map[int]any{200: nil}, rawResponse: "application/octet-stream", errors: []int{404}, handler: a.serveAsset})
}

// serveAsset answers a file of the pages, or a 404 that names it.
func (a *API) serveAsset(c *fiber.Ctx) error {
	name := strings.TrimPrefix(c.Path(), uiPrefix)
	body, mediaType, ok := webui.Asset(name)
	if !ok {
		return model.E(model.KindNotFound, "no page file %q under %s", name, uiPrefix)
	}
	c.Set(fiber.HeaderContentType, mediaType)
	c.Set(fiber.HeaderCacheControl, "no-cache")
	return c.Send(body)
}

// noKeyNeeded says whether a request path answers without an API key.
func noKeyNeeded(path string) bool {
	return authExempt[path] || pageRoutes[path] || strings.HasPrefix(path, uiPrefix) || path == apiPrefix+"/openapi.json"
}
