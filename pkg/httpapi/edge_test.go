package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/httpapi"
)

// Each error case of the foundation issue, point 6, answers with a complete
// ErrorResponse and the right status.
func TestErrorResponses(t *testing.T) {
	e := newEnv(t, envOptions{bodyLimit: 4096, beforeServe: func(a *httpapi.API) {
		a.App().Get("/api/v1/test/panic", func(c *fiber.Ctx) error {
			panic("secret detail: password=hunter2")
		})
	}})
	e.must(200, "POST", "/job/new", nil)
	cases := []struct {
		name        string
		method      string
		path        string
		contentType string
		body        string
		status      int
		code        string
		detail      string // a fragment the message must contain
	}{
		{"unknown route", "GET", "/no/such/thing", "", "", 404, "NOT_FOUND", "no such endpoint"},
		{"unknown route outside the prefix", "GET", "/../../elsewhere", "", "", 404, "NOT_FOUND", "no such endpoint"},
		{"wrong method", "PUT", "/job/status", "", "", 405, "METHOD_NOT_ALLOWED", "PUT is not allowed"},
		{"wrong method on a POST route", "GET", "/job/new", "", "", 405, "METHOD_NOT_ALLOWED", "GET is not allowed"},
		{"malformed JSON", "PATCH", "/job/headings", "application/json", `{"heading": "x"`, 400, "MALFORMED_REQUEST", "malformed JSON"},
		{"not JSON at all", "PATCH", "/job/headings", "application/json", `heading=x`, 400, "MALFORMED_REQUEST", "malformed JSON"},
		{"trailing data", "PATCH", "/job/headings", "application/json", `{"heading": "x"} {}`, 400, "MALFORMED_REQUEST", "after the JSON value"},
		{"unknown property", "PATCH", "/job/headings", "application/json", `{"heading": "x", "colour": "red"}`, 400, "VALIDATION_FAILED", `unknown property "colour"`},
		{"wrong type", "PATCH", "/job/headings", "application/json", `{"heading": 12}`, 400, "VALIDATION_FAILED", "heading: expected a string"},
		{"wrong type in open", "POST", "/job/open", "application/json", `{"filePath": ["a"]}`, 400, "VALIDATION_FAILED", "filePath: expected a string"},
		{"array instead of object", "PATCH", "/job/units", "application/json", `[1]`, 400, "VALIDATION_FAILED", "expected an object"},
		{"missing required body", "PATCH", "/job/headings", "application/json", ``, 400, "VALIDATION_FAILED", "body is required"},
		{"body over the limit", "PATCH", "/job/headings", "application/json", `{"notes": "` + strings.Repeat("a", 5000) + `"}`, 413, "PAYLOAD_TOO_LARGE", "4096 bytes"},
		{"wrong media type", "PATCH", "/job/headings", "text/plain", `{"heading": "x"}`, 415, "UNSUPPORTED_MEDIA_TYPE", "application/json"},
		{"form media type", "PATCH", "/job/headings", "application/x-www-form-urlencoded", `heading=x`, 415, "UNSUPPORTED_MEDIA_TYPE", "text/json"},
		{"no media type", "PATCH", "/job/headings", "", `{"heading": "x"}`, 415, "UNSUPPORTED_MEDIA_TYPE", "Content-Type none"},
		{"panic", "GET", "/test/panic", "", "", 500, "INTERNAL_ERROR", "internal error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.raw(c.method, c.path, c.contentType, []byte(c.body))
			if r.status != c.status {
				t.Fatalf("status %d, want %d: %s", r.status, c.status, r.body)
			}
			if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q", ct)
			}
			er := r.errBody(t)
			if er.ErrorCode != c.code || !strings.Contains(er.Detail, c.detail) {
				t.Errorf("errorCode %s detail %q, want %s containing %q", er.ErrorCode, er.Detail, c.code, c.detail)
			}
		})
	}
	if bytes.Contains([]byte(e.do("GET", "/test/panic", nil).body), []byte("hunter2")) {
		t.Error("the 500 body leaks the panic value")
	}
	if !strings.Contains(e.logs.String(), "hunter2") || !strings.Contains(e.logs.String(), "panic in handler") {
		t.Error("the panic was not logged")
	}
	// The rejected requests left the job as it was.
	var h struct{ Heading string }
	e.must(200, "GET", "/job/headings", nil).decode(t, &h)
	if h.Heading != "" {
		t.Errorf("a rejected request changed the heading to %q", h.Heading)
	}
}

// application/json, text/json and application/*+json are all accepted,
// with or without parameters.
func TestAcceptedMediaTypes(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	for i, ct := range []string{"application/json", "application/json; charset=utf-8", "text/json",
		"application/merge-patch+json", "application/vnd.gusset.v1+json; charset=UTF-8"} {
		t.Run(ct, func(t *testing.T) {
			heading := "h" + string(rune('a'+i))
			r := e.raw("PATCH", "/job/headings", ct, []byte(`{"heading":"`+heading+`"}`))
			if r.status != 200 {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			var h struct{ Heading string }
			r.decode(t, &h)
			if h.Heading != heading {
				t.Errorf("heading %q, want %q", h.Heading, heading)
			}
		})
	}
}

// Every registered route appears in the OpenAPI document with its method,
// and every documented operation has responses.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	e := newEnv(t, envOptions{})
	var doc struct {
		OpenAPI string                               `json:"openapi"`
		Paths   map[string]map[string]map[string]any `json:"paths"`
		Comps   struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	e.must(200, "GET", "/openapi.json", nil).decode(t, &doc)
	if doc.OpenAPI == "" || doc.Comps.Schemas["ErrorResponse"] == nil {
		t.Fatalf("incomplete document: openapi=%q, schemas=%v", doc.OpenAPI, len(doc.Comps.Schemas))
	}
	n := 0
	for _, r := range e.api.App().GetRoutes(true) {
		if r.Method == http.MethodHead {
			continue // Fiber's automatic HEAD for each GET
		}
		n++
		p := r.Path
		for _, seg := range strings.Split(p, "/") {
			if strings.HasPrefix(seg, ":") {
				p = strings.Replace(p, seg, "{"+seg[1:]+"}", 1)
			}
			if seg == "*" { // the rest of the path, as the document names it
				p = strings.Replace(p, seg, "{file}", 1)
			}
		}
		op, ok := doc.Paths[p][strings.ToLower(r.Method)]
		if !ok {
			t.Errorf("route %s %s is missing from the OpenAPI document", r.Method, r.Path)
			continue
		}
		if op["responses"] == nil || op["summary"] == "" {
			t.Errorf("operation %s %s lacks responses or a summary", r.Method, p)
		}
	}
	if n < 20 {
		t.Errorf("only %d routes registered", n)
	}
	// The schema generator resolves named types into components.
	b, _ := json.Marshal(doc.Comps.Schemas["Status"])
	if !bytes.Contains(b, []byte(`"accessMode"`)) || !bytes.Contains(b, []byte(`#/components/schemas/StructureCounts`)) {
		t.Errorf("Status schema: %s", b)
	}
}

func TestMetricsAndHealth(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.wantError(409, "NO_JOB_OPEN", "GET", "/job", nil)
	e.must(200, "POST", "/job/new", nil)
	e.must(200, "GET", "/job/status", nil)
	e.do("GET", "/nowhere", nil)
	root := strings.TrimSuffix(e.base, "/api/v1")
	m := e.raw("GET", root+"/metrics", "", nil)
	if m.status != 200 {
		t.Fatalf("/metrics: %d", m.status)
	}
	for _, want := range []string{
		`gusset_http_requests_total{method="GET",route="/api/v1/job",status="409",workspace="default"} 1`,
		`gusset_http_requests_total{method="GET",route="/api/v1/job/status",status="200",workspace="default"} 1`,
		`gusset_http_requests_total{method="POST",route="/api/v1/job/new",status="200",workspace="default"} 1`,
		`gusset_http_requests_total{method="GET",route="unmatched",status="404",workspace="default"} 1`,
		`gusset_http_request_duration_seconds_bucket{method="GET",route="/api/v1/job/status",status="200",le="+Inf"} 1`,
	} {
		if !strings.Contains(string(m.body), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	var h httpapi.Health
	e.must(200, "GET", root+"/healthz", nil).decode(t, &h)
	e.must(200, "GET", root+"/readyz", nil).decode(t, &h)
	if h.Status != "ok" {
		t.Errorf("readyz = %+v", h)
	}
	e.rdb.Kill()
	// go-redis logs each failed dial; keep the test output readable.
	redis.SetLogger(quietRedis{})
	r := e.raw("GET", root+"/readyz", "", nil)
	if r.status != 503 {
		t.Errorf("readyz with Redis down: %d %s", r.status, r.body)
	}
	if r := e.raw("GET", root+"/healthz", "", nil); r.status != 200 {
		t.Errorf("healthz with Redis down: %d (liveness must not depend on Redis)", r.status)
	}
	// A job endpoint with Redis down is a 503 SERVICE_UNAVAILABLE, which
	// clients retry (not a 500, which they must not), and it names neither
	// Redis nor its address.
	r = e.raw("GET", "/job/status", "", nil)
	if body := r.errBody(t); r.status != 503 || body.ErrorCode != "SERVICE_UNAVAILABLE" ||
		strings.Contains(body.Detail, "dial") || strings.Contains(strings.ToLower(body.Detail), "redis") {
		t.Errorf("job status with Redis down: %d %s", r.status, r.body)
	}
}

type quietRedis struct{}

func (quietRedis) Printf(context.Context, string, ...any) {}
