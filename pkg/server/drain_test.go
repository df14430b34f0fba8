package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// A stopping api (SIGTERM ends ServeAPI's context) finishes the requests
// it is serving before it exits: a client half-way through sending a
// body when the signal comes still gets its answer, and the job change it
// asked for is made.
func TestAPIDrainsInFlightRequests(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := Config{Port: "0", Host: "127.0.0.1", JobsDir: t.TempDir()}
	bases := make(chan string, 1)
	done := make(chan error, 1)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	reg := newRegistry()
	go func() { done <- ServeAPI(ctx, cfg, rdb, log, reg, func(b string) { bases <- b }) }()
	var base string
	select {
	case base = <-bases:
	case err := <-done:
		t.Fatalf("api stopped: %v", err)
	}
	if res, err := http.Post(base+"/job/new", "application/json", nil); err != nil || res.StatusCode != 200 {
		t.Fatalf("new job: %v %v", res, err)
	}

	// The request: its headers and half its body now, the rest after the
	// stop has begun.
	addr := strings.TrimPrefix(strings.TrimSuffix(base, "/api/v1"), "http://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// 256 KiB of padding makes the body larger than the server reads with
	// the headers, so the body gate, whose gauge tells the request is
	// being served, streams it.
	body := `{"projectHeading": "drained", "heading": "in flight"` + strings.Repeat(" ", 256<<10) + `}`
	half := len(body) / 2
	fmt.Fprintf(conn, "PATCH /api/v1/job/headings HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		addr, len(body), body[:half])
	// Wait until the server holds the request (the gate counts its body
	// memory), then stop the api.
	waitFor(t, "the request to be in flight", func() bool { return gauges(t, reg)["gusset_http_body_memory_bytes"] > 0 })
	cancel()
	// The listener closes at once: new connections are refused while the
	// held one is served.
	waitFor(t, "the listener to close", func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err != nil
	})
	select {
	case err := <-done:
		t.Fatalf("the api exited before its in-flight request was answered: %v", err)
	default:
	}
	if _, err := io.WriteString(conn, body[half:]); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to the in-flight request: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("in-flight request = %d, want 200", res.StatusCode)
	}
	conn.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeAPI after the drain: %v", err)
		}
	case <-time.After(patience):
		t.Fatal("the api did not exit after its last request")
	}
	// The change was made.
	h, err := rdb.HGet(context.Background(), "{ws:default}:job", "headings").Result()
	if err != nil || !strings.Contains(h, "in flight") {
		t.Errorf("stored headings = %q, %v; want the drained request's", h, err)
	}
}

// waitFor polls cond every 10 ms, failing after patience.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
