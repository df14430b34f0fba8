package session_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/session"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// clock is a fake clock: every reading is one second after the last, so a
// value read back (openedAt, a manifest's savedAt) tells which call made it,
// and calls counts the readings.
type clock struct {
	mu    sync.Mutex
	t     time.Time
	calls int
}

func newClock() *clock {
	return &clock{t: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)}
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	c.calls++
	return c.t
}

// last is the most recent reading, without reading the clock.
func (c *clock) last() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

// env is one session service over a real redis-server and a fresh jobs
// directory. Environments made from one server use distinct workspaces,
// so they never see each other's job slot.
type env struct {
	svc   *session.Service
	jobs  *redisstore.Jobs
	dir   *jobfile.Dir
	root  string
	clock *clock
	ws    string
	ctx   context.Context
}

var wsSeq atomic.Int64

// server starts one redis-server for a test and its subtests.
func server(t *testing.T) redis.UniversalClient {
	t.Helper()
	return redistest.Start(t).Client(t)
}

// newEnv builds a service on rdb with the given recovery delay.
func newEnv(t *testing.T, rdb redis.UniversalClient, delay time.Duration) *env {
	t.Helper()
	jobs := redisstore.NewJobs(rdb, editor.Collections())
	root := t.TempDir()
	dir, err := jobfile.OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dir.Close() })
	c := newClock()
	ed := editor.New(redisstore.NewModel(rdb), jobs)
	svc := session.New(jobs, dir, session.Options{
		Generator:     "session-test",
		RecoveryDelay: delay,
		Now:           c.Now,
		Log:           slog.New(slog.NewTextHandler(io.Discard, nil)),
		CheckModel:    ed.CheckSnapshot,
	})
	// No background write may outlive the test's directory.
	t.Cleanup(svc.Flush)
	return &env{svc: svc, jobs: jobs, dir: dir, root: dir.Root(), clock: c,
		ws: fmt.Sprintf("ws%d", wsSeq.Add(1)), ctx: context.Background()}
}

// path is the absolute path on disk of a path relative to the jobs directory.
func (e *env) path(rel string) string { return filepath.Join(e.root, filepath.FromSlash(rel)) }

// recovery is the absolute path of the recovery file of a job file.
func (e *env) recovery(rel string) string { return e.path(rel) + jobfile.RecoverySuffix }

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// writeJob writes a job file with the given heading straight to disk.
func (e *env) writeJob(t *testing.T, rel, heading string) {
	t.Helper()
	job := model.NewJob()
	job.Headings.Heading = heading
	e.writeSnapshot(t, rel, store.Snapshot{Job: job})
}

func (e *env) writeSnapshot(t *testing.T, rel string, snap store.Snapshot) {
	t.Helper()
	var b bytes.Buffer
	if err := jobfile.Encode(&b, snap, "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	p := e.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// decodeFile decodes a job (or recovery) file on disk.
func decodeFile(t *testing.T, path string) jobfile.Decoded {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := jobfile.Decode(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return dec
}

// heading reads the heading of a job file on disk.
func heading(t *testing.T, path string) string {
	t.Helper()
	return decodeFile(t, path).Snapshot.Job.Headings.Heading
}

// newJob opens a blank job, failing the test otherwise.
func (e *env) newJob(t *testing.T) session.Opened {
	t.Helper()
	o, err := e.svc.NewJob(e.ctx, e.ws)
	if err != nil {
		t.Fatalf("new job: %v", err)
	}
	return o
}

func (e *env) setHeading(t *testing.T, h string) {
	t.Helper()
	got, err := e.svc.PatchHeadings(e.ctx, e.ws, model.HeadingsPatch{Heading: &h})
	if err != nil {
		t.Fatalf("patch heading %q: %v", h, err)
	}
	if got.Heading != h {
		t.Fatalf("patch heading answered %q, want %q", got.Heading, h)
	}
}

func (e *env) save(t *testing.T, filePath string, overwrite bool) session.Saved {
	t.Helper()
	s, err := e.svc.Save(e.ctx, e.ws, filePath, overwrite)
	if err != nil {
		t.Fatalf("save %q (overwrite %v): %v", filePath, overwrite, err)
	}
	return s
}

func (e *env) close(t *testing.T) {
	t.Helper()
	st, err := e.svc.Close(e.ctx, e.ws)
	if err != nil {
		t.Fatalf("close: %v", err)
	}
	if st.IsOpen {
		t.Fatalf("close answered an open state: %+v", st)
	}
}

func (e *env) slot(t *testing.T) store.Slot {
	t.Helper()
	sl, err := e.svc.Slot(e.ctx, e.ws)
	if err != nil {
		t.Fatalf("slot: %v", err)
	}
	return sl
}

// crash leaves the job file rel behind with a newer recovery file holding
// heading h, as a session that vanished without a close does: it opens rel,
// changes the heading (the recovery file is written inline) and empties the
// job slot in the store, behind the session's back.
func (e *env) crash(t *testing.T, rel, h string) {
	t.Helper()
	if _, err := e.svc.Open(e.ctx, e.ws, rel, session.ForceNone); err != nil {
		t.Fatalf("open %s: %v", rel, err)
	}
	e.setHeading(t, h)
	e.svc.Flush()
	if !exists(e.recovery(rel)) {
		t.Fatalf("no recovery file after a change of %s", rel)
	}
	if _, err := e.jobs.Close(e.ctx, e.ws); err != nil {
		t.Fatal(err)
	}
}

// wantErr checks that err is a model error of kind k whose text holds each
// fragment and names no HTTP route: the domain layer knows none.
func wantErr(t *testing.T, err error, k model.Kind, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want kind %v naming %q", k, fragments)
	}
	if got := model.KindOf(err); got != k {
		t.Fatalf("kind %v, want %v: %v", got, k, err)
	}
	msg := err.Error()
	for _, f := range fragments {
		if !strings.Contains(msg, f) {
			t.Errorf("message %q does not name %q", msg, f)
		}
	}
	noRoute(t, err)
}

// noRoute fails when the error's message or field messages name a route.
func noRoute(t *testing.T, err error) {
	t.Helper()
	texts := []string{err.Error()}
	var me *model.Error
	if errors.As(err, &me) {
		for _, f := range me.Fields {
			texts = append(texts, f.Message)
		}
	}
	for _, s := range texts {
		for _, route := range []string{"GET /", "POST /", "PATCH /", "PUT /", "DELETE /", "/api/v1", "/job/"} {
			if strings.Contains(s, route) {
				t.Errorf("message %q names the route %q: the domain layer knows no routes", s, route)
			}
		}
	}
}

// noRouteText is noRoute for a plain text (a file status's advice).
func noRouteText(t *testing.T, s string) {
	t.Helper()
	noRoute(t, errors.New(s))
}

// asModelError is errors.As for *model.Error.
func asModelError(err error, target **model.Error) bool { return errors.As(err, target) }

// decodeFileOK returns the notes of the job file at path, "" when it
// cannot be read or decoded (yet).
func decodeFileOK(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	dec, err := jobfile.Decode(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return ""
	}
	return dec.Snapshot.Job.Headings.Notes
}
