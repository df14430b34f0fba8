package httpapi_test

import (
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/httpapi"
)

// TestPagesAndTheirFiles serves the landing page, the viewer, the API
// reference and their files, each with its media type, and answers a
// 404 NOT_FOUND naming the file for anything else under /ui/.
func TestPagesAndTheirFiles(t *testing.T) {
	e := newEnv(t, envOptions{})
	root := strings.TrimSuffix(e.base, "/api/v1")
	for _, c := range []struct {
		path, mediaType string
		contains        []string
	}{
		{"/", "text/html", []string{"version " + httpapi.Version, `href="/viewer"`, `href="/docs"`, `href="/metrics"`, `href="/healthz"`, `href="/readyz"`}},
		{"/viewer", "text/html", []string{`src="/ui/viewer/main.js"`, `"three": "/ui/vendor/three/three.module.js"`}},
		{"/docs", "text/html", []string{`spec-url="/api/v1/openapi.json"`, "/ui/vendor/redoc/redoc.standalone.js"}},
		{"/ui/viewer/main.js", "text/javascript", []string{"window.gussetViewer"}},
		{"/ui/vendor/three/three.module.js", "text/javascript", []string{"three.core.js"}},
		{"/ui/vendor/three/LICENSE", "text/plain", []string{"MIT License"}},
		{"/ui/vendor/redoc/LICENSE", "text/plain", []string{"MIT License"}},
		{"/ui/viewer/viewer.css", "text/css", []string{"#scene"}},
		{"/ui/favicon.svg", "image/svg+xml", []string{"<svg"}},
	} {
		t.Run(c.path, func(t *testing.T) {
			r := e.raw("GET", root+c.path, "", nil)
			if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), c.mediaType) {
				t.Fatalf("GET %s = %d %s, want 200 %s", c.path, r.status, r.header.Get("Content-Type"), c.mediaType)
			}
			for _, s := range c.contains {
				if !strings.Contains(string(r.body), s) {
					t.Errorf("GET %s lacks %q", c.path, s)
				}
			}
		})
	}
	for _, path := range []string{"/ui/nothing.js", "/ui/landing.html", "/ui/viewer", "/ui/viewer/", "/ui/vendor/../landing.html", "/ui/%2e%2e/webui.go"} {
		t.Run("missing "+path, func(t *testing.T) {
			r := e.raw("GET", root+path, "", nil)
			var er httpapi.ErrorResponse
			r.decode(t, &er)
			if r.status != 404 || er.ErrorCode != "NOT_FOUND" || !strings.Contains(er.Detail, "under /ui/") {
				t.Errorf("GET %s = %d %+v, want 404 NOT_FOUND naming the file", path, r.status, er)
			}
		})
	}
}
