//go:build compose

package composetest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
)

// client is one workspace's client through the proxy.
type client struct {
	base string // http://127.0.0.1:port/api/v1
	key  string
	http *http.Client
}

// do sends a request with a JSON body (none when body is nil) and
// returns the status and the answer.
func (c *client) do(method, path string, body any) (int, []byte, error) {
	var rd io.Reader
	ctype := ""
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
		ctype = "application/json"
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			return 0, nil, err
		}
		rd, ctype = bytes.NewReader(raw), "application/json"
	}
	return c.send(method, path, ctype, rd)
}

func (c *client) send(method, path, ctype string, body io.Reader) (int, []byte, error) {
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		return 0, nil, err
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("X-API-Key", c.key)
	res, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// must sends a request, fails the test unless it answers want, and
// decodes the answer into out (when not nil).
func (c *client) must(t *testing.T, want int, method, path string, body, out any) []byte {
	t.Helper()
	status, b, err := c.do(method, path, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if status != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, status, clip(b), want)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return b
}

// upload opens a job file as a new job (POST /job/new-from-template).
func (c *client) upload(t *testing.T, file []byte) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	part, err := w.CreateFormFile("template", "job.gsj")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = part.Write(file)
	_ = w.Close()
	status, body, err := c.send("POST", "/job/new-from-template", w.FormDataContentType(), &b)
	if err != nil || status != http.StatusOK {
		t.Fatalf("upload a job file: %d %s %v", status, clip(body), err)
	}
}

// startRun starts a linear static run with the job's settings.
func (c *client) startRun(t *testing.T) model.Run {
	t.Helper()
	var run model.Run
	c.must(t, http.StatusAccepted, "POST", "/job/analysis/static/run-linear", nil, &run)
	return run
}

// run reads a run.
func (c *client) run(id string) (model.Run, error) {
	var run model.Run
	status, b, err := c.do("GET", "/job/analysis/runs/"+id, nil)
	if err != nil {
		return run, err
	}
	if status != http.StatusOK {
		return run, fmt.Errorf("%w: GET run %s: %d %s", errStatus, id, status, clip(b))
	}
	return run, json.Unmarshal(b, &run)
}

// poll reads a run until cond holds, and fails after limit.
func (c *client) poll(t *testing.T, id string, limit time.Duration, what string, cond func(model.Run) bool) model.Run {
	t.Helper()
	var last model.Run
	waitFor(t, limit, fmt.Sprintf("run %s %s", id, what), func() (bool, error) {
		run, err := c.run(id)
		if err != nil {
			return false, err
		}
		last = run
		return cond(run), fmt.Errorf("run is %s, attempt %d, step %d %q", run.Status, run.Attempt, run.Progress.CurrentStep, run.Progress.StatusText)
	})
	return last
}

// noRunUnderWay fails when a run of the workspace is Queued, Running or
// Cancelling.
func (c *client) noRunUnderWay(t *testing.T) {
	t.Helper()
	var runs []model.Run
	c.must(t, http.StatusOK, "GET", "/job/analysis/runs", nil, &runs)
	for _, r := range runs {
		if !r.Status.Finished() {
			t.Errorf("run %s is still %s (attempt %d)", r.RunID, r.Status, r.Attempt)
		}
	}
}

func finished(r model.Run) bool { return r.Status.Finished() }

// clip shortens an answer for a message.
func clip(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "…"
	}
	return string(b)
}
