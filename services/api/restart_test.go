package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/proctest"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// startAPI runs the binary on a free port and returns it with its base
// URL; the test kills it at its end.
func startAPI(t *testing.T, dir, name, bin, redisURL, jobsDir string) (*proctest.Proc, string) {
	t.Helper()
	// A safety net against an api that never prints its URL, generous
	// for a loaded machine.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, base, err := proctest.StartAPI(ctx, dir, name, bin, proctest.Env("REDIS_URL="+redisURL, "PORT=0",
		"HOST=127.0.0.1", "JOBS_DIR="+jobsDir, "LOG_LEVEL=warn"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	return p, base
}

func call(t *testing.T, method, url string, body any, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("decode %s: %v", b, err)
		}
	}
	return res.StatusCode
}

// The API keeps nothing in memory: killed and started again on the same
// Redis, it still has the open job, its headings and its units.
func TestKillAndRestartKeepsTheJob(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	redis := redistest.Start(t)
	dir, jobs := t.TempDir(), t.TempDir()
	if err := proctest.Build(context.Background(), dir, "."); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "api")
	api, base := startAPI(t, dir, "api-1", bin, redis.URL(), jobs)
	if s := call(t, "POST", base+"/job/new", nil, nil); s != 200 {
		t.Fatalf("new job: %d", s)
	}
	heads := model.Headings{ProjectHeading: "Restart", Heading: "kill -9", DesignerInitials: "GS", Notes: "survives"}
	if s := call(t, "PATCH", base+"/job/headings", heads, nil); s != 200 {
		t.Fatalf("headings: %d", s)
	}
	if s := call(t, "PATCH", base+"/job/units", map[string]string{"length": "mm", "force": "N", "moment": "Nmm"}, nil); s != 200 {
		t.Fatalf("units: %d", s)
	}
	if s := call(t, "POST", base+"/job/save", map[string]string{"filePath": "restart"}, nil); s != 201 {
		t.Fatalf("save: %d", s)
	}
	if s := call(t, "PATCH", base+"/job/headings", map[string]string{"notes": "unsaved but in redis"}, nil); s != 200 {
		t.Fatalf("headings: %d", s)
	}
	var before struct {
		Job   model.Job   `json:"job"`
		State model.State `json:"state"`
	}
	call(t, "GET", base+"/job/status", nil, &before)

	api.Kill() // SIGKILL: no shutdown hooks run

	_, base2 := startAPI(t, dir, "api-2", bin, redis.URL(), jobs)
	var after struct {
		Job   model.Job   `json:"job"`
		State model.State `json:"state"`
	}
	if s := call(t, "GET", base2+"/job/status", nil, &after); s != 200 {
		t.Fatalf("status after restart: %d", s)
	}
	if !reflect.DeepEqual(after.Job, before.Job) {
		t.Errorf("job after restart %+v, before %+v", after.Job, before.Job)
	}
	if after.Job.Headings.Notes != "unsaved but in redis" || after.Job.Units.Force != "N" || after.Job.Units.Length != "mm" {
		t.Errorf("headings or units lost: %+v", after.Job)
	}
	if !after.State.IsOpen || !after.State.IsModified || after.State.File.Path != "restart.gsj" ||
		after.State.OpenedAt == nil || !after.State.OpenedAt.Equal(*before.State.OpenedAt) {
		t.Errorf("state after restart %+v, before %+v", after.State, before.State)
	}
}
