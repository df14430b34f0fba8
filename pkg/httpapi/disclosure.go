package httpapi

import (
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/auth"
	"github.com/gusset/gusset/pkg/webui"
)

// What the service tells others beyond its answers:
//
//   - Browsers get security headers on every answer, pages and API alike:
//     a Content-Security-Policy (pagePolicy for the pages and their files,
//     apiPolicy for everything else, which is data and runs nothing),
//     X-Frame-Options DENY (with the policy's frame-ancestors 'none':
//     no other site frames the viewer to click through it),
//     X-Content-Type-Options nosniff (a JSON answer that holds user text
//     is never taken for HTML or script) and Referrer-Policy same-origin
//     (no address of the service, with the job file names and ids in it,
//     goes to another site; the pages' requests to the service itself
//     keep theirs).
//   - Logs get no API key: a path, or a query value, shaped like one
//     (auth.Redact) is logged with its secret replaced, whatever route
//     it was sent to.
//   - /metrics, which answers without a key for Prometheus, names
//     workspaces in its workspace labels unless HideWorkspaceLabels
//     (METRICS_WORKSPACE_LABELS=false) replaces every name by
//     HiddenWorkspace.

// securityDescription states the headers and the label rule for the
// OpenAPI document.
const securityDescription = "Every answer carries Content-Security-Policy (the pages: scripts, styles and images from this " +
	"service only, no framing; everything else: `default-src 'none'; frame-ancestors 'none'`), X-Frame-Options: DENY, " +
	"X-Content-Type-Options: nosniff and Referrer-Policy: same-origin. A path or query value shaped like an API key is " +
	"logged with its secret replaced by REDACTED; send keys in a header, never in a URL. /metrics answers without a key " +
	"and names workspaces in its `workspace` labels; METRICS_WORKSPACE_LABELS=false (api and workers) writes \"" +
	HiddenWorkspace + "\" for every workspace instead."

// HiddenWorkspace is the value of every workspace label of the metrics
// when HideWorkspaceLabels is set. It cannot be a workspace's name (those
// start with a letter or a digit), so the series read as hidden, not as
// a workspace's, and dashboards that group by the label keep working.
const HiddenWorkspace = "_hidden"

// apiPolicy is the Content-Security-Policy of every answer but the pages.
const apiPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// pagePolicy builds the Content-Security-Policy of the pages: everything
// from the service itself, the inline scripts (the viewer's import map)
// by their hashes. Styles may be inline, because Redoc writes its styles
// into the page at run time; images and workers may be blob: or data:
// URLs, which Redoc makes for its icons and its search index.
func pagePolicy() (string, error) {
	scripts, err := webui.InlineScripts()
	if err != nil {
		return "", err
	}
	src := []string{"'self'"}
	for _, s := range scripts {
		sum := sha256.Sum256([]byte(s))
		src = append(src, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	return "default-src 'self'; script-src " + strings.Join(src, " ") + "; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; " +
		"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'", nil
}

// isPage reports whether path is a page or one of its files.
func isPage(path string) bool {
	return pageRoutes[path] || strings.HasPrefix(path, uiPrefix)
}

// setSecurityHeaders sets the security headers of c's answer, with the
// pages' policy when page. It runs before the handlers, and again with
// page false when an error is written: an ErrorResponse is data, and the
// server's own errors (a malformed request) reach no middleware.
func (a *API) setSecurityHeaders(c *fiber.Ctx, page bool) {
	h := &c.Response().Header
	if page {
		h.Set(fiber.HeaderContentSecurityPolicy, a.pagePolicy)
	} else {
		h.Set(fiber.HeaderContentSecurityPolicy, apiPolicy)
	}
	h.Set(fiber.HeaderXFrameOptions, "DENY")
	h.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	h.Set(fiber.HeaderReferrerPolicy, "same-origin")
}

// loggedPath is the path of c for logs and the job's error log, decoded
// and with the secret of anything shaped like an API key redacted.
func loggedPath(c *fiber.Ctx) string {
	if p, ok := c.Locals(localSG).(string); ok {
		return redactURL(p) // as sent, before sgEntry moved it
	}
	return redactURL(c.Path())
}

// redactURL decodes a path or URL (so that an escaped key is found too)
// and redacts the keys in it.
func redactURL(s string) string {
	if strings.Contains(s, "%") {
		if d, err := url.PathUnescape(s); err == nil {
			s = d
		}
	}
	return auth.Redact(s)
}

// metricWorkspace is the workspace label of a series: ws, or
// HiddenWorkspace when the labels are hidden. The empty label of a
// request that named no workspace stays empty.
func (a *API) metricWorkspace(ws string) string {
	if a.hideWorkspaces && ws != "" {
		return HiddenWorkspace
	}
	return ws
}
