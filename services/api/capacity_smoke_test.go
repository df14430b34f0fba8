//go:build capacity

package main_test

import (
	"strings"
	"testing"
)

// The harness itself: the two workspaces reach the api with their own
// keys, and a job one opens is not the other's.
func TestCapacityStackSeparatesWorkspaces(t *testing.T) {
	s := startCapStack(t, capOptions{})
	s.must(200, "a", "POST", "/job/new", "")
	s.must(200, "a", "GET", "/job/status", "")
	if st, b := s.json("b", "GET", "/job", ""); st != 409 || !strings.Contains(string(b), "NO_JOB_OPEN") {
		t.Errorf("b's job after a opened a job: %d %s, want 409 NO_JOB_OPEN", st, b)
	}
	if st, _ := s.do("", "GET", "/job/status", nil, ""); st != 401 {
		t.Errorf("no key: %d, want 401", st)
	}
	s.alive()
}
