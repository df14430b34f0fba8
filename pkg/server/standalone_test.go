package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"
)

// The standalone process needs no Redis of its own: with REDIS_URL unset
// it embeds one, and answers the job status (409 NO_JOB_OPEN) at once.
func TestStandaloneAnswersWithEmbeddedRedis(t *testing.T) {
	cfg := Config{Port: "0", Host: "127.0.0.1", JobsDir: t.TempDir()}
	ctx, cancel := context.WithCancel(context.Background())
	baseURL := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- RunStandalone(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), func(b string) { baseURL <- b })
	}()
	var base string
	select {
	case base = <-baseURL:
	case err := <-done:
		t.Fatalf("standalone stopped: %v", err)
	case <-time.After(patience):
		t.Fatal("standalone did not start")
	}
	res, err := http.Get(base + "/job")
	if err != nil {
		t.Fatal(err)
	}
	var body struct{ ErrorCode string }
	_ = json.NewDecoder(res.Body).Decode(&body)
	res.Body.Close()
	if res.StatusCode != 409 || body.ErrorCode != "NO_JOB_OPEN" {
		t.Errorf("GET /job = %d %s, want 409 NO_JOB_OPEN", res.StatusCode, body.ErrorCode)
	}
	res, err = http.Post(base+"/job/new", "application/json", nil)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("new job: %v %v", err, res)
	}
	res.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("shutdown: %v", err)
		}
	case <-time.After(patience):
		t.Error("standalone did not stop after cancel")
	}
}

func TestFromEnvRejectsBadValues(t *testing.T) {
	for name, kv := range map[string][2]string{
		"port": {"PORT", "eighty"}, "body": {"MAX_BODY_BYTES", "-1"},
		"delay": {"RECOVERY_DELAY_MS", "soon"}, "level": {"LOG_LEVEL", "loud"},
		"retries": {"ANALYSIS_MAX_RETRY", "-1"}, "retries-word": {"ANALYSIS_MAX_RETRY", "many"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(kv[0], kv[1])
			if _, err := FromEnv(); err == nil {
				t.Errorf("%s=%s accepted", kv[0], kv[1])
			}
		})
	}
	t.Setenv("PORT", "")
	c, err := FromEnv()
	if err != nil || c.Port != "8080" || c.JobsDir != "./data/jobs" || c.AnalysisMaxRetry != nil {
		t.Errorf("defaults: %+v %v", c, err)
	}
	t.Setenv("ANALYSIS_MAX_RETRY", "0")
	if c, err := FromEnv(); err != nil || c.AnalysisMaxRetry == nil || *c.AnalysisMaxRetry != 0 {
		t.Errorf("ANALYSIS_MAX_RETRY=0: %+v %v", c, err)
	}
}

// BODY_MEMORY is a positive number of bytes, at least the body limit
// (MAX_BODY_BYTES or its default) so that the largest body fits; unset
// leaves the default to the API.
func TestFromEnvBodyMemory(t *testing.T) {
	for _, c := range []struct {
		name, memory, limit string
		want                int64 // -1: refused
	}{
		{"unset", "", "", 0},
		{"1 GiB", "1073741824", "", 1 << 30},
		{"the default body limit", "67108864", "", 64 << 20},
		{"below the default body limit", "67108863", "", -1},
		{"below MAX_BODY_BYTES", "1048575", "1048576", -1},
		{"at MAX_BODY_BYTES", "1048576", "1048576", 1 << 20},
		{"zero", "0", "", -1},
		{"negative", "-1", "", -1},
		{"with a unit", "256MiB", "", -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("BODY_MEMORY", c.memory)
			t.Setenv("MAX_BODY_BYTES", c.limit)
			got, err := FromEnv()
			switch {
			case c.want < 0 && err == nil:
				t.Errorf("BODY_MEMORY=%s with MAX_BODY_BYTES=%q accepted", c.memory, c.limit)
			case c.want >= 0 && (err != nil || got.BodyMemory != c.want):
				t.Errorf("BODY_MEMORY=%s: %d %v, want %d", c.memory, got.BodyMemory, err, c.want)
			}
		})
	}
}
