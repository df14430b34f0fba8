package httpapi_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/model"
)

// origin is the service's own origin, http://127.0.0.1:port.
func (e *env) origin() string { return strings.TrimSuffix(e.base, "/api/v1") }

// send sends a request with the given headers ("Host" sets the Host the
// request names) and body.
func (e *env) send(method, path string, header map[string]string, body []byte) resp {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	url := e.base + path
	if strings.HasPrefix(path, "/healthz") || strings.HasPrefix(path, "/readyz") || strings.HasPrefix(path, "/metrics") {
		url = e.origin() + path
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	return do(e.t, http.DefaultClient, req)
}

// guardCase is one request and what the guard must answer.
type guardCase struct {
	name   string
	method string
	path   string
	header map[string]string
	body   string
	status int
	code   string // errorCode of a refusal
	detail string // a fragment the refusal's message must contain
}

// run sends every case to e, each on a fresh open job, and checks that a
// refused request left the job open and its error log empty.
func runGuardCases(t *testing.T, e *env, cases []guardCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			if r := e.do("GET", "/job", nil); r.status == 409 {
				e.must(200, "POST", "/job/new", nil)
			}
			var body []byte
			if c.body != "" {
				body = []byte(c.body)
			}
			r := e.send(c.method, c.path, c.header, body)
			if r.status != c.status {
				t.Fatalf("status %d, want %d: %s", r.status, c.status, r.body)
			}
			if c.code == "" {
				return
			}
			er := r.errBody(t)
			if er.ErrorCode != c.code || !strings.Contains(er.Detail, c.detail) {
				t.Errorf("errorCode %s detail %q, want %s containing %q", er.ErrorCode, er.Detail, c.code, c.detail)
			}
			// The job is still open, and the refusal did not write to it.
			if r := e.do("GET", "/job", nil); r.status != 200 {
				t.Errorf("the job is no longer open after a refused %s %s: %d %s", c.method, c.path, r.status, r.body)
			}
			var log struct{ Errors []any }
			e.must(200, "GET", "/job/errors", nil).decode(t, &log)
			if len(log.Errors) != 0 {
				t.Errorf("a refused request wrote the job's error log: %+v", log.Errors)
			}
		})
	}
}

// A browser on another site must not change anything: a form posted
// cross-site, a fetch marked cross-site by Sec-Fetch-Site, and an Origin
// that is not the service's own are refused on every mutating method;
// scripts (no Origin, no Sec-Fetch-Site) and same-origin pages pass.
func TestGuardCrossOrigin(t *testing.T) {
	e := newEnv(t, envOptions{allowedOrigins: "https://app.example, http://localhost:3000", allowedHosts: ""})
	own := e.origin()
	form := "application/x-www-form-urlencoded"
	cases := []guardCase{
		{"cross-site form closes no job", "POST", "/job/close",
			map[string]string{"Origin": "https://evil.example", "Content-Type": form}, "x=1", 403, "FORBIDDEN", "ALLOWED_ORIGINS"},
		{"cross-site body-less POST", "POST", "/job/close",
			map[string]string{"Origin": "https://evil.example"}, "", 403, "FORBIDDEN", "https://evil.example"},
		{"cross-site DELETE", "DELETE", "/job/data?force=true",
			map[string]string{"Origin": "https://evil.example"}, "", 403, "FORBIDDEN", "ALLOWED_ORIGINS"},
		{"cross-site PATCH with JSON", "PATCH", "/job/headings",
			map[string]string{"Origin": "https://evil.example", "Content-Type": "application/json"}, `{"heading": "pwned"}`, 403, "FORBIDDEN", "ALLOWED_ORIGINS"},
		{"cross-site PUT", "PUT", "/job/headings",
			map[string]string{"Origin": "https://evil.example"}, "", 403, "FORBIDDEN", "ALLOWED_ORIGINS"},
		{"Origin null", "POST", "/job/close",
			map[string]string{"Origin": "null"}, "", 403, "FORBIDDEN", "ALLOWED_ORIGINS"},
		{"own host on another scheme", "POST", "/job/close",
			map[string]string{"Origin": strings.Replace(own, "http://", "https://", 1)}, "", 403, "FORBIDDEN", "ALLOWED_ORIGINS"},
		{"own host on another port", "POST", "/job/close",
			map[string]string{"Origin": "http://127.0.0.1:1"}, "", 403, "FORBIDDEN", "ALLOWED_ORIGINS"},
		{"Sec-Fetch-Site cross-site", "POST", "/job/close",
			map[string]string{"Sec-Fetch-Site": "cross-site"}, "", 403, "FORBIDDEN", "Sec-Fetch-Site"},
		{"Sec-Fetch-Site same-site", "POST", "/job/close",
			map[string]string{"Sec-Fetch-Site": "same-site"}, "", 403, "FORBIDDEN", "ALLOWED_ORIGINS"},
		{"Sec-Fetch-Site cross-site with own Origin", "POST", "/job/close",
			map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": own}, "", 403, "FORBIDDEN", "Sec-Fetch-Site"},
		{"cross-site read is not refused", "GET", "/job/status",
			map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}, "", 200, "", ""},
		{"same-origin Origin passes", "POST", "/job/close",
			map[string]string{"Origin": own}, "", 200, "", ""},
		{"same-origin page passes", "PATCH", "/job/headings",
			map[string]string{"Origin": own, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json"}, `{"heading": "ok"}`, 200, "", ""},
		{"Sec-Fetch-Site none passes", "POST", "/job/close",
			map[string]string{"Sec-Fetch-Site": "none"}, "", 200, "", ""},
		{"localhost names the same service", "POST", "/job/close",
			map[string]string{"Host": "localhost:8080", "Origin": "http://localhost:8080"}, "", 200, "", ""},
		{"allowed origin passes", "POST", "/job/close",
			map[string]string{"Origin": "https://app.example", "Sec-Fetch-Site": "cross-site"}, "", 200, "", ""},
		{"allowed origin is matched without case", "POST", "/job/close",
			map[string]string{"Origin": "HTTPS://APP.example"}, "", 200, "", ""},
		{"second allowed origin passes", "POST", "/job/close",
			map[string]string{"Origin": "http://localhost:3000", "Sec-Fetch-Site": "same-site"}, "", 200, "", ""},
		{"allowed origin on another port is refused", "POST", "/job/close",
			map[string]string{"Origin": "https://app.example:8443"}, "", 403, "FORBIDDEN", "ALLOWED_ORIGINS"},
		{"curl-like request passes", "POST", "/job/close", nil, "", 200, "", ""},
	}
	runGuardCases(t, e, cases)
}

// Without ALLOWED_ORIGINS only the service's own origin may write.
func TestGuardNoAllowedOrigins(t *testing.T) {
	e := newEnv(t, envOptions{})
	runGuardCases(t, e, []guardCase{
		{"allow-listed elsewhere is refused here", "POST", "/job/close",
			map[string]string{"Origin": "https://app.example"}, "", 403, "FORBIDDEN", "ALLOWED_ORIGINS"},
		{"own origin passes", "POST", "/job/close", map[string]string{"Origin": e.origin()}, "", 200, "", ""},
	})
}

// A mutating request carries JSON or nothing: the content types an HTML
// form can send cross-site without a CORS preflight are a 415 even with
// no body, except multipart on the upload route.
func TestGuardContentType(t *testing.T) {
	e := newEnv(t, envOptions{})
	cases := []guardCase{
		{"text/plain body-less POST", "POST", "/job/close",
			map[string]string{"Content-Type": "text/plain"}, "", 415, "UNSUPPORTED_MEDIA_TYPE", "application/json"},
		{"text/plain with a parameter", "POST", "/job/close",
			map[string]string{"Content-Type": "Text/Plain; charset=utf-8"}, "", 415, "UNSUPPORTED_MEDIA_TYPE", "application/json"},
		{"form body-less POST", "POST", "/job/close",
			map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "", 415, "UNSUPPORTED_MEDIA_TYPE", "application/json"},
		{"form with a body", "POST", "/job/close",
			map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "x=1", 415, "UNSUPPORTED_MEDIA_TYPE", "application/json"},
		{"multipart body-less POST", "POST", "/job/close",
			map[string]string{"Content-Type": "multipart/form-data; boundary=x"}, "", 415, "UNSUPPORTED_MEDIA_TYPE", "application/json"},
		{"text/plain DELETE", "DELETE", "/job/data?force=true",
			map[string]string{"Content-Type": "text/plain"}, "", 415, "UNSUPPORTED_MEDIA_TYPE", "application/json"},
		{"a body without a content type", "POST", "/job/close", nil, "x=1", 415, "UNSUPPORTED_MEDIA_TYPE", "Content-Type"},
		{"a non-JSON body", "POST", "/job/new", map[string]string{"Content-Type": "application/octet-stream"}, "xx", 415, "UNSUPPORTED_MEDIA_TYPE", "application/json"},
		{"text/plain GET is a read", "GET", "/job/status", map[string]string{"Content-Type": "text/plain"}, "", 200, "", ""},
		{"JSON passes", "POST", "/job/close", map[string]string{"Content-Type": "application/json"}, "", 200, "", ""},
		{"JSON with a body passes", "POST", "/job/save",
			map[string]string{"Content-Type": "application/json"}, `{"filePath": "a/b"}`, 201, "", ""},
		{"curl-like request passes", "POST", "/job/close", nil, "", 200, "", ""},
	}
	runGuardCases(t, e, cases)

	// The upload route takes multipart on purpose.
	e.t = t
	e.must(200, "POST", "/job/close", nil)
	ct, body := templateUpload(t, "template", model.NewJob())
	if r := e.send("POST", "/job/new-from-template", map[string]string{"Content-Type": ct}, body); r.status != 200 {
		t.Errorf("multipart template upload: %d %s", r.status, r.body)
	}
	// ...but not cross-site.
	e.must(200, "POST", "/job/close", nil)
	r := e.send("POST", "/job/new-from-template", map[string]string{"Content-Type": ct, "Origin": "https://evil.example"}, body)
	if r.status != 403 {
		t.Errorf("cross-site template upload: %d %s", r.status, r.body)
	}
	if r := e.do("GET", "/job", nil); r.status != 409 {
		t.Errorf("a refused upload opened a job: %d %s", r.status, r.body)
	}
}

// DNS rebinding: a page whose name now resolves to 127.0.0.1 sends its
// own name as Host. Only loopback names pass unless ALLOWED_HOSTS says
// otherwise; the orchestrator's /healthz, /readyz and /metrics answer
// whatever the Host.
func TestGuardHost(t *testing.T) {
	e := newEnv(t, envOptions{})
	evil := map[string]string{"Host": "evil.example"}
	cases := []guardCase{
		{"foreign Host read", "GET", "/job/status", evil, "", 403, "FORBIDDEN", "ALLOWED_HOSTS"},
		{"foreign Host with port", "GET", "/job/status", map[string]string{"Host": "evil.example:8080"}, "", 403, "FORBIDDEN", "evil.example"},
		{"foreign Host write", "POST", "/job/close", evil, "", 403, "FORBIDDEN", "ALLOWED_HOSTS"},
		{"foreign Host unknown route", "GET", "/no/such/route", evil, "", 403, "FORBIDDEN", "ALLOWED_HOSTS"},
		{"foreign Host OpenAPI", "GET", "/openapi.json", evil, "", 403, "FORBIDDEN", "ALLOWED_HOSTS"},
		{"localhost-looking name", "GET", "/job/status", map[string]string{"Host": "localhost.evil.example"}, "", 403, "FORBIDDEN", "ALLOWED_HOSTS"},
		{"private address", "GET", "/job/status", map[string]string{"Host": "192.168.1.10:8080"}, "", 403, "FORBIDDEN", "ALLOWED_HOSTS"},
		{"localhost", "GET", "/job/status", map[string]string{"Host": "localhost"}, "", 200, "", ""},
		{"LOCALHOST with port", "GET", "/job/status", map[string]string{"Host": "LOCALHOST:8080"}, "", 200, "", ""},
		{"127.0.0.1", "GET", "/job/status", map[string]string{"Host": "127.0.0.1"}, "", 200, "", ""},
		{"127.8.9.10 with port", "GET", "/job/status", map[string]string{"Host": "127.8.9.10:9"}, "", 200, "", ""},
		{"[::1] with port", "GET", "/job/status", map[string]string{"Host": "[::1]:8080"}, "", 200, "", ""},
		{"[::1]", "POST", "/job/close", map[string]string{"Host": "[::1]"}, "", 200, "", ""},
		{"healthz with any Host", "GET", "/healthz", evil, "", 200, "", ""},
		{"readyz with any Host", "GET", "/readyz", evil, "", 200, "", ""},
		{"metrics with any Host", "GET", "/metrics", evil, "", 200, "", ""},
	}
	runGuardCases(t, e, cases)
}

// ALLOWED_HOSTS adds names: a bare name matches any port, name:port only
// that port, and * any Host. Loopback names keep working.
func TestGuardAllowedHosts(t *testing.T) {
	t.Run("names", func(t *testing.T) {
		e := newEnv(t, envOptions{allowedOrigins: "", allowedHosts: "gusset.internal, Evil.Example, 10.0.0.5:8080, ::2"})
		runGuardCases(t, e, []guardCase{
			{"allowed name", "GET", "/job/status", map[string]string{"Host": "evil.example"}, "", 200, "", ""},
			{"allowed name with a port", "POST", "/job/close", map[string]string{"Host": "gusset.internal:8080", "Origin": "http://gusset.internal:8080"}, "", 200, "", ""},
			{"allowed name:port", "GET", "/job/status", map[string]string{"Host": "10.0.0.5:8080"}, "", 200, "", ""},
			{"allowed IPv6", "GET", "/job/status", map[string]string{"Host": "[::2]:80"}, "", 200, "", ""},
			{"name:port on another port", "GET", "/job/status", map[string]string{"Host": "10.0.0.5:9090"}, "", 403, "FORBIDDEN", "ALLOWED_HOSTS"},
			{"other name", "GET", "/job/status", map[string]string{"Host": "other.example"}, "", 403, "FORBIDDEN", "ALLOWED_HOSTS"},
			{"loopback still works", "GET", "/job/status", map[string]string{"Host": "localhost:1"}, "", 200, "", ""},
		})
	})
	t.Run("any", func(t *testing.T) {
		e := newEnv(t, envOptions{allowedOrigins: "", allowedHosts: "*"})
		runGuardCases(t, e, []guardCase{
			{"any name", "GET", "/job/status", map[string]string{"Host": "evil.example"}, "", 200, "", ""},
			// An allowed Host does not make its pages same-origin writers
			// of another origin.
			{"still no cross-site writes", "POST", "/job/close", map[string]string{"Host": "evil.example", "Origin": "https://other.example"}, "", 403, "FORBIDDEN", "ALLOWED_ORIGINS"},
			{"own origin under that name", "POST", "/job/close", map[string]string{"Host": "evil.example", "Origin": "http://evil.example"}, "", 200, "", ""},
		})
	})
}

// The settings are checked when they are read: a malformed entry is an
// error that names it.
func TestGuardParseSettings(t *testing.T) {
	for _, c := range []struct {
		name, list string
		want       []string
		bad        string
	}{
		{"empty", "", nil, ""},
		{"spaces and case", " https://App.Example , http://localhost:3000/ ,", []string{"https://app.example", "http://localhost:3000"}, ""},
		{"no scheme", "app.example", nil, "app.example"},
		{"path", "https://app.example/x", nil, "https://app.example/x"},
		{"wildcard", "*", nil, "*"},
		{"other scheme", "ftp://app.example", nil, "ftp://app.example"},
	} {
		t.Run("origins "+c.name, func(t *testing.T) {
			got, err := httpapi.ParseAllowedOrigins(c.list)
			if c.bad != "" {
				if err == nil || !strings.Contains(err.Error(), c.bad) || !strings.Contains(err.Error(), "ALLOWED_ORIGINS") {
					t.Fatalf("err %v, want one naming ALLOWED_ORIGINS and %q", err, c.bad)
				}
				return
			}
			if err != nil || strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Fatalf("got %q %v, want %q", got, err, c.want)
			}
		})
	}
	for _, c := range []struct {
		name, list string
		want       []string
		bad        string
	}{
		{"empty", " , ", nil, ""},
		{"names", "Gusset.Internal, 10.0.0.5:8080, ::1, [::2]:80, *", []string{"gusset.internal", "10.0.0.5:8080", "[::1]", "[::2]:80", "*"}, ""},
		{"URL", "http://gusset.internal", nil, "http://gusset.internal"},
		{"path", "gusset.internal/x", nil, "gusset.internal/x"},
		{"bad port", "gusset.internal:x", nil, "gusset.internal:x"},
	} {
		t.Run("hosts "+c.name, func(t *testing.T) {
			got, err := httpapi.ParseAllowedHosts(c.list)
			if c.bad != "" {
				if err == nil || !strings.Contains(err.Error(), c.bad) || !strings.Contains(err.Error(), "ALLOWED_HOSTS") {
					t.Fatalf("err %v, want one naming ALLOWED_HOSTS and %q", err, c.bad)
				}
				return
			}
			if err != nil || strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Fatalf("got %q %v, want %q", got, err, c.want)
			}
		})
	}
}

// The OpenAPI document states the rules.
func TestGuardDocumented(t *testing.T) {
	e := newEnv(t, envOptions{})
	var doc struct {
		Info struct{ Description string }
	}
	e.must(200, "GET", "/openapi.json", nil).decode(t, &doc)
	for _, want := range []string{"ALLOWED_ORIGINS", "ALLOWED_HOSTS", "Sec-Fetch-Site", "/healthz"} {
		if !strings.Contains(doc.Info.Description, want) {
			t.Errorf("the OpenAPI description does not mention %s: %s", want, doc.Info.Description)
		}
	}
}
