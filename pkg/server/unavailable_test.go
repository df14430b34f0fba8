package server

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// A Redis that cannot serve (restarting: loading its data set again, or
// not running at all) is a dependency that is unavailable, not a fault of
// the service: every route answers 503 SERVICE_UNAVAILABLE with an
// ErrorResponse, which clients retry, never 500 INTERNAL_ERROR, which
// they must not. `docker restart` of the compose file's Redis showed
// "500: check model rows: LOADING Redis is loading the dataset in
// memory" on a bulk create.
func TestRedisUnavailableAnswers503(t *testing.T) {
	// DEBUG RELOAD makes a real Redis load its data set again, answering
	// LOADING meanwhile, as a restarted one does; events (other clients'
	// commands) are served every KiB loaded.
	srv := redistest.StartSingleArgs(t, "--enable-debug-command", "yes", "--loading-process-events-interval-bytes", "1024")
	s := startStackOn(t, srv, 0, Config{}, io.Discard)
	s.must(http.StatusOK, "POST", "/job/new", nil)
	s.must(http.StatusOK, "POST", "/job/structure/nodes/bulk", []map[string]any{{"id": 1, "x": 0, "y": 0, "z": 0}, {"id": 2, "x": 3, "y": 0, "z": 0}})

	// The routes a client of the open job uses most, reads and writes.
	routes := []struct {
		method, path string
		body         any
	}{
		{"GET", "/job/status", nil},
		{"PATCH", "/job/headings", map[string]string{"heading": "during the outage"}},
		{"GET", "/job/structure/nodes", nil},
		{"GET", "/job/structure/nodes/1", nil},
		{"POST", "/job/structure/nodes", map[string]any{"id": 3, "x": 6, "y": 0, "z": 0}},
		{"POST", "/job/structure/nodes/bulk", []map[string]any{{"id": 4, "x": 9, "y": 0, "z": 0}}},
		{"PATCH", "/job/structure/nodes/1", map[string]any{"z": 1}},
		{"DELETE", "/job/structure/nodes/2", nil},
		{"POST", "/job/analysis/static/run-linear", nil},
		{"GET", "/job/analysis/runs", nil},
		{"POST", "/job/save", map[string]any{"filePath": "outage", "overwrite": true}},
		{"POST", "/job/close", nil},
	}
	states := []struct {
		name  string
		enter func(t *testing.T)
	}{
		{"loading", func(t *testing.T) { reloadSlowly(t, srv) }},
		{"stopped", func(t *testing.T) {
			// go-redis logs each failed dial; keep the output readable.
			redis.SetLogger(quietRedis{})
			srv.Kill()
		}},
	}
	for _, st := range states {
		t.Run(st.name, func(t *testing.T) {
			st.enter(t)
			for _, r := range routes {
				got := s.call(r.method, r.path, r.body)
				if got.status != http.StatusServiceUnavailable || got.errorCode(t) != "SERVICE_UNAVAILABLE" {
					t.Errorf("%s %s with Redis %s: %d %s, want 503 SERVICE_UNAVAILABLE", r.method, r.path, st.name, got.status, got.body)
				}
			}
		})
	}
}

// reloadSlowly makes srv load its data set again, a key every 10 ms (the
// hidden setting key-load-delay, in microseconds) with twenty thousand filler
// keys, so that it answers LOADING for far longer than the test needs
// (the test kills it next), and returns once it does. Each filler key is
// 2 KiB, over loading-process-events-interval-bytes, so that Redis
// answers other clients after every key.
func reloadSlowly(t *testing.T, srv *redistest.Server) {
	t.Helper()
	ctx := context.Background()
	admin := redis.NewClient(&redis.Options{Addr: srv.Addr, MaxRetries: -1})
	defer admin.Close()
	if err := admin.Do(ctx, "DEBUG", "POPULATE", 20000, "filler", 2048).Err(); err != nil {
		t.Fatal(err)
	}
	if err := admin.ConfigSet(ctx, "key-load-delay", "10000").Err(); err != nil {
		t.Fatal(err)
	}
	// DEBUG RELOAD answers once the load ends; its client gives up long
	// before, which leaves the load going.
	go func() {
		c := redis.NewClient(&redis.Options{Addr: srv.Addr, MaxRetries: -1})
		defer c.Close()
		_ = c.Do(ctx, "DEBUG", "RELOAD").Err()
	}()
	deadline := time.Now().Add(patience)
	for {
		err := admin.Get(ctx, "filler:0").Err()
		if err != nil && strings.HasPrefix(err.Error(), "LOADING") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Redis did not start loading within %v (last: %v)", patience, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// quietRedis is a go-redis logger that drops what it is given.
type quietRedis struct{}

func (quietRedis) Printf(context.Context, string, ...any) {}
