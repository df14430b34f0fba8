package server

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's first session works as written against the service, and
// leaves no job open, so it can be run again: it is run twice with sh and
// curl, every answer a 2xx.
func TestReadmeFirstSessionRunsTwice(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("curl is needed to run the README's session (bash .ci/run installs it)")
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)## A first session\n\n```sh\n(.*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatal("README has no sh block under \"A first session\"")
	}
	script := string(m[1])
	s := startStack(t, 1)
	// The session's own base URL points at make run's port; use this one.
	script = regexp.MustCompile(`(?m)^B=.*$`).ReplaceAllString(script, "B="+s.base)
	// Every curl reports its status on a line of its own.
	script = strings.ReplaceAll(script, "curl -s", `curl -s -o /dev/null -w '%{http_code}\n'`)
	for run := 1; run <= 2; run++ {
		out, err := exec.Command("sh", "-c", "set -e\n"+script).CombinedOutput()
		if err != nil {
			t.Fatalf("run %d: %v\n%s", run, err, out)
		}
		codes := strings.Fields(string(bytes.TrimSpace(out)))
		if len(codes) < 6 {
			t.Fatalf("run %d: %d requests answered: %s", run, len(codes), out)
		}
		for i, c := range codes {
			if c[0] != '2' {
				t.Errorf("run %d: request %d answered %s", run, i+1, c)
			}
		}
	}
	if r := s.call("GET", "/job", nil); r.status != 409 {
		t.Errorf("a job is still open after the session: %d", r.status)
	}
}
