package httpapi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/httpapi"
)

// A Redis at its maxmemory (noeviction) answered every write with a 500,
// and POST /job/close too (issue 35, finding 5). Now a write is a 503
// STORAGE_FULL whose detail says the storage is full and names the
// routes that free it; reads, saving, deleting a row, clearing and
// closing the job work; and /readyz stays 200, saying the storage is full.
func TestFullStore(t *testing.T) {
	var full bool
	e := newEnv(t, envOptions{storage: func(context.Context) (httpapi.Storage, error) {
		return httpapi.Storage{Full: full, UsedBytes: 1, MaxBytes: 1}, nil
	}})
	e.must(200, "POST", "/job/new", nil)
	e.must(200, "POST", sp+"/nodes/bulk", []map[string]any{{"x": 0, "y": 0, "z": 0}, {"x": 3, "y": 0, "z": 0}, {"x": 6, "y": 0, "z": 0}})
	// Redis over its limit: what it uses now, less a little.
	e.rdb.SetMaxMemory(t, -64<<10)
	full = true

	for _, w := range []struct {
		method, path string
		body         any
	}{
		{"POST", sp + "/nodes", map[string]any{"x": 9, "y": 0, "z": 0}},
		{"PATCH", sp + "/nodes/1", map[string]any{"x": 1}},
		{"PATCH", "/job/headings", map[string]any{"heading": "h"}},
	} {
		er := e.wantError(503, "STORAGE_FULL", w.method, w.path, w.body)
		if !strings.Contains(er.Detail, "storage is full") || !strings.Contains(er.Detail, "/job/close") {
			t.Errorf("%s %s: detail %q, want it to say the storage is full and name POST /job/close", w.method, w.path, er.Detail)
		}
	}
	var h httpapi.Health
	e.must(200, "GET", strings.TrimSuffix(e.base, "/api/v1")+"/readyz", nil).decode(t, &h)
	if h.Storage == nil || !h.Storage.Full || !strings.Contains(h.Detail, "STORAGE_FULL") {
		t.Errorf("readyz = %+v, want 200 saying the storage is full", h)
	}
	e.must(200, "GET", sp+"/nodes", nil)
	// Saving first, as a user about to close the job would.
	e.must(201, "POST", "/job/save", map[string]any{"filePath": "full"})
	e.must(200, "DELETE", sp+"/nodes/3", nil)
	e.must(200, "DELETE", "/job/data?force=true", nil)
	e.must(200, "POST", "/job/close", nil)
}
