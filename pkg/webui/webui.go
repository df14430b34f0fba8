// Package webui holds the browser pages the api serves: the landing page,
// the 3-D viewer and the API reference. They are embedded in the binary
// and reach no other server: the viewer reads the open job through the
// public API only, and its three.js and the reference's Redoc are
// vendored, as published, under assets/vendor with their licences
// (`make vendor-web` fetches the pinned versions again).
//
// The package knows nothing of HTTP: it hands out the files and renders
// the landing page, and package httpapi serves them.
package webui

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"mime"
	"path"
	"regexp"
)

//go:embed assets
var assets embed.FS

var landing = template.Must(template.ParseFS(assets, "assets/landing.html"))

// Page names a page at its own address.
type Page string

// The pages, each an HTML file of the assets.
const (
	Viewer Page = "viewer/index.html"
	Docs   Page = "docs/index.html"
)

// LandingInfo is what the landing page shows.
type LandingInfo struct {
	Version string // the service version
	APIPath string // the path prefix of the API, e.g. /api/v1
}

// Landing renders the landing page.
func Landing(info LandingInfo) ([]byte, error) {
	var b bytes.Buffer
	if err := landing.Execute(&b, info); err != nil {
		return nil, fmt.Errorf("render the landing page: %w", err)
	}
	return b.Bytes(), nil
}

// PageHTML returns a page's HTML.
func PageHTML(p Page) ([]byte, error) {
	b, err := fs.ReadFile(assets, "assets/"+string(p))
	if err != nil {
		return nil, fmt.Errorf("read page %s: %w", p, err)
	}
	return b, nil
}

// Asset returns the file at name (a slash-separated path below the assets,
// such as "viewer/main.js") and its media type. ok is false for a name
// that is not a valid path, names no file, or names the landing template.
func Asset(name string) (body []byte, mediaType string, ok bool) {
	if !fs.ValidPath(name) || name == "landing.html" { // ValidPath refuses "..", "" and a trailing slash
		return nil, "", false
	}
	b, err := fs.ReadFile(assets, "assets/"+name)
	if err != nil {
		return nil, "", false
	}
	mt := mime.TypeByExtension(path.Ext(name))
	switch path.Ext(name) {
	case ".js":
		mt = "text/javascript; charset=utf-8" // module scripts need a JavaScript type
	case "", ".txt":
		mt = "text/plain; charset=utf-8" // VERSIONS, LICENSE, licence notices
	}
	if mt == "" {
		mt = "application/octet-stream"
	}
	return b, mt, true
}

// inlineScript matches a script element and captures its text.
var inlineScript = regexp.MustCompile(`(?is)<script\b[^>]*>(.*?)</script>`)

// InlineScripts returns the text of every inline script of the pages
// (the viewer's import map, which cannot be a file of its own): a
// Content-Security-Policy that allows scripts from the service only must
// allow these by their hashes. Scripts loaded from files have no text.
func InlineScripts() ([]string, error) {
	var out []string
	for _, name := range []string{"landing.html", string(Viewer), string(Docs)} {
		b, err := fs.ReadFile(assets, "assets/"+name)
		if err != nil {
			return nil, fmt.Errorf("read page %s: %w", name, err)
		}
		for _, m := range inlineScript.FindAllSubmatch(b, -1) {
			if len(m[1]) > 0 {
				out = append(out, string(m[1]))
			}
		}
	}
	return out, nil
}
