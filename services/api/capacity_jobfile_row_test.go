//go:build capacity

package main_test

import (
	"strings"
	"testing"
	"time"
)

// Finding 9 of the capacity review: a job file whose nodes entry is one
// row of 63 MiB kept a core busy for 60 s (bufio.Scanner looked at the
// whole line again after each read: quadratic in its length) and ended
// in a 503. Now rows are read in linear time and a row longer than the
// cap (16 MiB, MaxRowBytes) is refused as soon as the reader passes it:
// a 4xx ErrorResponse naming the limit. The client waits as long as the
// harness's (5 minutes), generous for a loaded machine: what is asserted
// is the refusal, and its latency is logged.
func TestCapacityJobFileLongRow(t *testing.T) {
	attackLongRow(startCapStack(t, capOptions{}))
}

// attackLongRow is finding 9 by workspace a.
func attackLongRow(s *capStack) {
	t := s.t
	t.Helper()
	row := `{"key":"1","score":1,"value":{"id":1,"x":0,"y":0,"z":0,"note":"` + strings.Repeat("x", 63<<20) + `"}}` + "\n"
	file := jobfileZip(t, []jobfileEntry{jobfileManifest("nodes"), {name: "model/nodes.jsonl", data: []byte(row)}})
	t.Logf("the job file is %s; its one row is %s", jobfileMiB(int64(len(file))), jobfileMiB(int64(len(row))))

	start := time.Now()
	st, body := s.jobfileUpload("a", file)
	t.Logf("upload: %d in %v: %.300s", st, time.Since(start).Round(time.Millisecond), body)
	if st < 400 || st >= 500 {
		t.Errorf("a job file with a row of 63 MiB: %d, want a 4xx", st)
	}
	for _, part := range []string{`"errorCode"`, "16777216 bytes", "the most a row may hold"} {
		if !strings.Contains(string(body), part) {
			t.Errorf("the refusal does not say %q (it should name the row limit): %.300s", part, body)
		}
	}
	s.alive()
	// Nothing opened.
	if st, body := s.json("a", "GET", "/job", ""); st != 409 {
		t.Errorf("a's job after the refusal: %d %.200s, want 409 NO_JOB_OPEN", st, body)
	}
}
