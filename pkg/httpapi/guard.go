package httpapi

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"

	"github.com/gusset/gusset/pkg/model"
)

// The guard keeps web pages of other sites out of the service. Open mode
// has no credentials a browser would have to hold, so without it any page
// the user visits could post a form to /job/close or read the model
// through DNS rebinding. Its rules:
//
//   - Host: every request names a loopback host (localhost, 127.0.0.0/8,
//     [::1], any port) or one of AllowedHosts, else 403. /healthz, /readyz
//     and /metrics answer whatever the Host, for orchestrators' probes.
//   - Origin: a mutating request (POST, PUT, PATCH, DELETE) whose Origin is
//     neither the request's own (scheme://Host) nor one of AllowedOrigins,
//     or which the browser marks Sec-Fetch-Site other than same-origin or
//     none without an allowed Origin, is a 403.
//   - Content type: a mutating request carries JSON or no body. The types
//     a form sends without a CORS preflight (form-urlencoded, multipart,
//     text/plain) are a 415 even without a body, except multipart on the
//     upload routes; a body of any other non-JSON type is a 415.
//
// Requests without Origin and Sec-Fetch-Site (curl, scripts) are not
// browsers' cross-site requests and pass the Origin rule. A refusal is
// answered here and, unlike other errors, not written to the open job's
// error log: a page on another site must not be able to write that either.

// guardDescription states the guard's rules for the OpenAPI document.
const guardDescription = "Browser protection (open mode has no credentials): a request whose Host is not a loopback name " +
	"(localhost, 127.0.0.0/8, [::1], any port) or listed in ALLOWED_HOSTS (comma-separated names, name:port, or * for any) is a 403 FORBIDDEN, " +
	"against DNS rebinding; /healthz, /readyz and /metrics answer whatever the Host. A POST, PUT, PATCH or DELETE whose Origin is neither " +
	"the request's own scheme://host nor listed in ALLOWED_ORIGINS (comma-separated scheme://host[:port]), or that the browser marks " +
	"Sec-Fetch-Site other than same-origin or none without an allowed Origin, is a 403 FORBIDDEN; requests without Origin and " +
	"Sec-Fetch-Site (scripts) pass. Such a request carries a JSON body or none: Content-Type application/x-www-form-urlencoded, " +
	"multipart/form-data (except on POST /job/new-from-template) or text/plain is a 415 even without a body, as is a non-JSON body. " +
	"These refusals are not written to the job's error log."

// hostExempt are the root routes that answer whatever the Host:
// orchestrators probe them by pod or container address.
var hostExempt = map[string]bool{"/healthz": true, "/readyz": true, "/metrics": true}

// formTypes are the media types an HTML form (or a no-cors fetch) can
// send to another origin without a CORS preflight.
var formTypes = map[string]bool{
	"application/x-www-form-urlencoded": true,
	fiber.MIMEMultipartForm:             true,
	"text/plain":                        true,
}

// guard holds the settings of the guard middleware.
type guard struct {
	api     *API
	origins map[string]bool
	hosts   map[string]bool // names (any port) and name:port entries
	anyHost bool
	once    sync.Once
	uploads map[string]bool // "POST /api/v1/..." routes that take multipart
}

// newGuard builds the guard of a's routes from cfg. The entries are taken
// as ParseAllowedOrigins and ParseAllowedHosts return them.
func newGuard(a *API, cfg Config) *guard {
	g := &guard{api: a, origins: map[string]bool{}, hosts: map[string]bool{}}
	for _, o := range cfg.AllowedOrigins {
		g.origins[strings.ToLower(o)] = true
	}
	for _, h := range cfg.AllowedHosts {
		if h == "*" {
			g.anyHost = true
		}
		g.hosts[strings.ToLower(h)] = true
	}
	return g
}

// uploadRoutes are the routes that take multipart/form-data on purpose,
// read once every route is registered.
func (g *guard) uploadRoutes() map[string]bool {
	g.once.Do(func() {
		g.uploads = map[string]bool{}
		for _, r := range g.api.routes {
			if len(r.fileParts) > 0 {
				g.uploads[r.method+" "+strings.ToLower(r.fullPath())] = true
			}
		}
	})
	return g.uploads
}

// handle is the middleware.
func (g *guard) handle(c *fiber.Ctx) error {
	path := strings.ToLower(c.Path())
	if len(path) > 1 {
		path = strings.TrimSuffix(path, "/")
	}
	host := string(c.Request().Header.Host())
	if !hostExempt[path] && !g.hostAllowed(host) {
		shown := host
		if shown == "" {
			shown = "(none)"
		}
		return g.refuse(c, model.E(model.KindForbidden,
			"Host %s is not served: only loopback names (localhost, 127.0.0.0/8, [::1]) are, so that a web page cannot reach "+
				"this service through DNS rebinding. To serve this name, add it to ALLOWED_HOSTS (comma-separated host names, "+
				"host:port, or * for any Host)", shown))
	}
	switch c.Method() {
	case fiber.MethodPost, fiber.MethodPut, fiber.MethodPatch, fiber.MethodDelete:
	default:
		return c.Next()
	}
	if err := g.checkOrigin(c, host); err != nil {
		return g.refuse(c, err)
	}
	if err := g.checkContentType(c, path); err != nil {
		return g.refuse(c, err)
	}
	return c.Next()
}

// refuse answers err without recording it in the job's error log.
func (g *guard) refuse(c *fiber.Ctx, err error) error {
	resp := buildError(c, err, g.api.log)
	return c.Status(resp.Status).JSON(resp)
}

// checkOrigin refuses a browser's write from another origin.
func (g *guard) checkOrigin(c *fiber.Ctx, host string) error {
	origin := c.Get(fiber.HeaderOrigin)
	site := strings.ToLower(strings.TrimSpace(c.Get("Sec-Fetch-Site")))
	if origin != "" {
		norm, ok := normalizeOrigin(origin)
		if ok && g.origins[norm] {
			return nil
		}
		own, _ := normalizeOrigin(c.Protocol() + "://" + host)
		if !ok || norm != own {
			return model.E(model.KindForbidden,
				"cross-origin request refused: Origin %s is not this service's origin (%s), and a page of another origin may not "+
					"change anything here. To allow that origin, add it to ALLOWED_ORIGINS (comma-separated scheme://host[:port])",
				origin, own)
		}
	}
	if site != "" && site != "same-origin" && site != "none" {
		return model.E(model.KindForbidden,
			"cross-site request refused: the browser marked it Sec-Fetch-Site: %s, and only pages of this service's own origin "+
				"may change anything here. To allow a page's origin, add it to ALLOWED_ORIGINS (comma-separated scheme://host[:port])", site)
	}
	return nil
}

// checkContentType lets a mutating request through with a JSON content
// type, multipart on an upload route, or no body and no form type.
func (g *guard) checkContentType(c *fiber.Ctx, path string) error {
	ct := c.Get(fiber.HeaderContentType)
	if jsonMediaType(ct) {
		return nil
	}
	mt := strings.ToLower(strings.TrimSpace(strings.SplitN(ct, ";", 2)[0]))
	if mt == fiber.MIMEMultipartForm && g.uploadRoutes()[c.Method()+" "+path] {
		return nil
	}
	hasBody := len(c.Request().Body()) > 0
	if !formTypes[mt] && !hasBody {
		return nil
	}
	shown := ct
	if shown == "" {
		shown = "none"
	}
	if formTypes[mt] {
		return model.E(model.KindUnsupportedMedia,
			"Content-Type %s is not accepted on %s %s: send a JSON body (application/json, text/json or application/*+json), "+
				"or no body and no Content-Type; form and text/plain requests are refused, as any web page can send them",
			shown, c.Method(), loggedPath(c))
	}
	return model.E(model.KindUnsupportedMedia,
		"Content-Type %s is not accepted with a body on %s %s: send application/json, text/json or application/*+json",
		shown, c.Method(), loggedPath(c))
}

// hostAllowed reports whether a Host header names this service.
func (g *guard) hostAllowed(hostport string) bool {
	if g.anyHost {
		return true
	}
	name, port, ok := splitHost(hostport)
	if !ok {
		return false
	}
	if name == "localhost" {
		return true
	}
	if ip := net.ParseIP(strings.Trim(name, "[]")); ip != nil && ip.IsLoopback() {
		return true
	}
	return g.hosts[name] || (port != "" && g.hosts[name+":"+port])
}

// splitHost splits a Host header into a lower-case name (IPv6 addresses
// in brackets, no trailing dot) and its port, which may be empty.
func splitHost(hostport string) (name, port string, ok bool) {
	h := strings.ToLower(strings.TrimSpace(hostport))
	if strings.HasPrefix(h, "[") {
		end := strings.IndexByte(h, ']')
		if end < 0 {
			return "", "", false
		}
		name, rest := h[:end+1], h[end+1:]
		if rest != "" {
			if !strings.HasPrefix(rest, ":") {
				return "", "", false
			}
			port = rest[1:]
		}
		if net.ParseIP(name[1:end]) == nil {
			return "", "", false
		}
		return name, port, validPort(port)
	}
	if strings.Count(h, ":") > 1 {
		// A bare IPv6 address, as ALLOWED_HOSTS may spell it.
		if net.ParseIP(h) == nil {
			return "", "", false
		}
		return "[" + h + "]", "", true
	}
	name = h
	if i := strings.IndexByte(h, ':'); i >= 0 {
		name, port = h[:i], h[i+1:]
	}
	name = strings.TrimSuffix(name, ".")
	if name == "" || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789.-_") != "" {
		return "", "", false
	}
	return name, port, validPort(port)
}

func validPort(p string) bool {
	if p == "" {
		return true
	}
	n, err := strconv.Atoi(p)
	return err == nil && n > 0 && n <= 65535 && strings.Trim(p, "0123456789") == ""
}

// normalizeOrigin returns an origin as scheme://host[:port] in lower case
// without a default port; ok is false when it is not an http(s) origin.
func normalizeOrigin(origin string) (string, bool) {
	u, err := url.Parse(strings.ToLower(strings.TrimSuffix(strings.TrimSpace(origin), "/")))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", false
	}
	name, port, ok := splitHost(u.Host)
	if !ok || (strings.Count(u.Host, ":") > 1 && !strings.HasPrefix(u.Host, "[")) {
		return "", false
	}
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		name += ":" + port
	}
	return u.Scheme + "://" + name, true
}

// ParseAllowedOrigins reads ALLOWED_ORIGINS: comma-separated origins
// (scheme://host[:port], http or https, no path), returned normalised.
// Blank entries are skipped; anything else (a bare name, a path, "*") is
// an error naming the entry.
func ParseAllowedOrigins(list string) ([]string, error) {
	var out []string
	for _, e := range strings.Split(list, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		o, ok := normalizeOrigin(e)
		if !ok {
			return nil, fmt.Errorf("ALLOWED_ORIGINS: %q is not an origin: list each as scheme://host[:port] "+
				"(http or https, no path), e.g. https://app.example.com,http://localhost:3000", e)
		}
		out = append(out, o)
	}
	return out, nil
}

// ParseAllowedHosts reads ALLOWED_HOSTS: comma-separated host names or
// IP addresses (matching any port), name:port entries (that port only),
// or "*" (any Host), returned in lower case with IPv6 addresses in
// brackets. Blank entries are skipped; a URL or a malformed entry is an
// error naming it.
func ParseAllowedHosts(list string) ([]string, error) {
	var out []string
	for _, e := range strings.Split(list, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		if e == "*" {
			out = append(out, e)
			continue
		}
		name, port, ok := splitHost(e)
		if !ok {
			return nil, fmt.Errorf("ALLOWED_HOSTS: %q is not a host: list names or addresses, optionally with :port "+
				"(no scheme or path), e.g. gusset.internal,10.0.0.5:8080, or * for any Host", e)
		}
		if port != "" {
			name += ":" + port
		}
		out = append(out, name)
	}
	return out, nil
}
