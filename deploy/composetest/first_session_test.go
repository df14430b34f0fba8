//go:build compose

package composetest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/server"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// standalone starts the whole service in this process, as `make run`
// serves it (no keys, a real redis-server), and returns its base URL.
func standalone(t *testing.T) string {
	t.Helper()
	rdb := redistest.Start(t).Client(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	// The defaults `make run` starts with (limits included), on a free
	// loopback port.
	cfg, err := server.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Port, cfg.Host, cfg.JobsDir = "0", "127.0.0.1", t.TempDir()
	baseURL := make(chan string, 1)
	done := make(chan error, 2)
	go func() { done <- server.ServeAPI(ctx, cfg, rdb, log, nil, func(b string) { baseURL <- b }) }()
	go func() { done <- server.RunWorker(ctx, cfg, rdb, log, nil) }()
	t.Cleanup(func() {
		cancel()
		<-done
		<-done
	})
	select {
	case b := <-baseURL:
		return b
	case err := <-done:
		t.Fatalf("standalone stopped: %v", err)
	case <-time.After(2 * time.Minute):
		t.Fatal("the standalone did not start within 2 minutes")
	}
	return ""
}

// firstSession is the README's "A first session", step by step.
var firstSession = []struct {
	method, path, body string
	want               int
}{
	{"POST", "/job/new", "", http.StatusOK},
	{"GET", "/job/status", "", http.StatusOK},
	{"PATCH", "/job/headings", `{"projectHeading": "Depot", "heading": "Portal frame 3"}`, http.StatusOK},
	{"POST", "/job/save", `{"filePath": "depot/portal-3", "overwrite": true}`, http.StatusCreated},
	{"POST", "/job/close", "", http.StatusOK},
	{"POST", "/job/open", `{"filePath": "depot/portal-3.gsj"}`, http.StatusOK},
	{"POST", "/job/close", "", http.StatusOK},
}

// volatile are the parts of an answer that differ between two services
// by nature: times and the job's identity.
var volatile = regexp.MustCompile(`"(timestamp|createdAt|modifiedAt|openedAt|savedAt|lastSaved|lastModified|jobId)":"[^"]*"`)

// The README's first session and the portal-frame example, through the
// proxy, answer as the standalone does: the same statuses, the same
// bodies but for times, and the same numbers to the last digit.
func TestFirstSession(t *testing.T) {
	local := &client{base: standalone(t), http: &http.Client{Timeout: time.Minute}}
	remote := stk.workspace(t, "first-session")

	t.Run("README", func(t *testing.T) {
		for _, step := range firstSession {
			var body any
			if step.body != "" {
				body = []byte(step.body)
			}
			want := local.must(t, step.want, step.method, step.path, body, nil)
			got := remote.must(t, step.want, step.method, step.path, body, nil)
			if w, g := volatile.ReplaceAll(want, nil), volatile.ReplaceAll(got, nil); !bytes.Equal(w, g) {
				t.Errorf("%s %s through the proxy:\n%s\nthe standalone:\n%s", step.method, step.path, g, w)
			}
		}
	})

	t.Run("portal_frame.py", func(t *testing.T) {
		began := time.Now()
		want := portalFrame(t, local)
		standaloneTook := time.Since(began)
		began = time.Now()
		got := portalFrame(t, remote)
		composeTook := time.Since(began)
		if want != got {
			t.Errorf("portal_frame.py through the proxy printed\n%s\nthe standalone\n%s", got, want)
		}
		figure(t, "first session: portal_frame.py through nginx %v, standalone %v; results identical (%d bytes of JSON)",
			composeTook.Round(time.Millisecond), standaloneTook.Round(time.Millisecond), len(got))
	})
}

// portalFrame runs examples/portal_frame.py against c and returns the
// JSON object of its last line.
func portalFrame(t *testing.T, c *client) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("python3 is needed to run examples/portal_frame.py (apt-get install python3)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, filepath.Join(stk.root, "examples", "portal_frame.py"), c.base)
	cmd.Env = append(os.Environ(), "GUSSET_URL=", "GUSSET_API_KEY="+c.key, "PYTHONDONTWRITEBYTECODE=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("portal_frame.py %s: %v\n%s\n%s", c.base, err, out.String(), errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := lines[len(lines)-1]
	if !json.Valid([]byte(last)) {
		t.Fatalf("portal_frame.py: the last line is not JSON: %s", last)
	}
	return last
}
