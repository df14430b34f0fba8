package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// sgSend makes one request on the SDK's base path, with key unless it is
// empty, and answers the status and the error code (empty for a success).
func (e *gateEnv) sgSend(method, path, key string, body []byte) (int, string) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, "http://"+e.addr+path, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var er ErrorResponse
	if res.StatusCode >= 400 {
		_ = json.Unmarshal(b, &er)
	}
	return res.StatusCode, er.ErrorCode
}

// The SDK's base path meets the same edge as /api/v1: the same key is
// needed (and the document is open to all), the same body limit refuses
// the same body, and the metrics count its routes under their own
// template.
func TestSGNamesSameEdge(t *testing.T) {
	const limit = 4096
	e := newGateEnv(t, Config{BodyLimit: limit, Auth: keyTable{"key-a": "a"}})
	if status, code := e.sgSend("POST", sgPrefix+"/job/new", "key-a", nil); status != 200 {
		t.Fatalf("new job: %d %s", status, code)
	}
	big := []byte(`{"projectHeading": "` + strings.Repeat("x", limit) + `"}`)
	for _, c := range []struct {
		name, method, path, key string
		body                    []byte
		status                  int
		code                    string
	}{
		{"no key", "POST", "/job/new", "", nil, 401, "UNAUTHORIZED"},
		{"a wrong key", "GET", "/job/status", "key-x", nil, 401, "UNAUTHORIZED"},
		{"the document needs none", "GET", "/openapi.json", "", nil, 200, ""},
		{"a read", "GET", "/job/headings", "key-a", nil, 200, ""},
		{"a body over the limit", "PATCH", "/job/headings", "key-a", big, 413, "PAYLOAD_TOO_LARGE"},
		{"a route that is not", "GET", "/job/nowhere", "key-a", nil, 404, "NOT_FOUND"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, base := range []string{apiPrefix, sgPrefix} {
				if status, code := e.sgSend(c.method, base+c.path, c.key, c.body); status != c.status || code != c.code {
					t.Errorf("%s %s%s: %d %s, want %d %s", c.method, base, c.path, status, code, c.status, c.code)
				}
			}
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+e.addr+"/metrics", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	m, _ := io.ReadAll(res.Body)
	for _, want := range []string{
		`gusset_http_requests_total{method="POST",route="/api/sg/v1/job/new",status="200",workspace="a"} 1`,
		`gusset_http_requests_total{method="GET",route="/api/sg/v1/job/headings",status="200",workspace="a"} 1`,
		`gusset_http_requests_total{method="GET",route="/api/v1/job/headings",status="200",workspace="a"} 1`,
	} {
		if !strings.Contains(string(m), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// The body gate counts a body on the SDK's base path sgCopyWeight times
// more than on ours, for the renamed copy its handler holds beside it:
// a stalled 1 MiB body holds its first chunk (bodyChunk bytes) × 6 of
// BODY_MEMORY on /api/v1 and × 8 on /api/sg/v1.
func TestSGNamesBodyWeight(t *testing.T) {
	e := newGateEnv(t, Config{Auth: keyTable{"key-a": "a"}})
	for _, c := range []struct {
		base string
		want int64
	}{{apiPrefix, bodyChunk * BodyWeightFactor}, {sgPrefix, bodyChunk * (BodyWeightFactor + sgCopyWeight)}} {
		t.Run(c.base, func(t *testing.T) {
			conn, err := net.Dial("tcp", e.addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			head := "PATCH " + c.base + "/job/headings HTTP/1.1\r\nHost: " + e.addr + "\r\nContent-Type: application/json\r\n" +
				"Authorization: Bearer key-a\r\nContent-Length: 1048576\r\n\r\n{\"heading\":"
			// The server passes the request on once part of the body is in.
			if _, err := conn.Write(append([]byte(head), bytes.Repeat([]byte(" "), 40<<10)...)); err != nil {
				t.Fatal(err)
			}
			poll(t, "the stalled body holds its weight", func() bool { return e.sem().heldBy("workspace a") == c.want })
			_ = conn.Close()
			poll(t, "the dropped body gives its weight back", func() bool { return e.sem().heldBy("workspace a") == 0 })
		})
	}
}
