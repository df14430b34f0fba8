package model

import (
	"strings"
	"testing"
	"time"
)

// How a run shows its times: no elapsed time while queued, live while
// running, frozen once finished; a running run whose worker stopped
// refreshing it says so.
func TestRunShown(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	at := func(d time.Duration) *time.Time { x := t0.Add(d); return &x }
	cases := []struct {
		name    string
		run     Run
		now     time.Duration
		elapsed string // "" for null
		quiet   bool
	}{
		{"queued", Run{Status: RunQueued}, time.Minute, "", false},
		{"running", Run{Status: RunRunning, StartedAt: at(0), HeartbeatAt: at(61 * time.Second)}, 62*time.Second + 5*time.Millisecond, "00:01:02.005", false},
		{"quiet", Run{Status: RunRunning, StartedAt: at(0), HeartbeatAt: at(time.Second)}, 10 * time.Second, "00:00:10.000", true},
		{"finished", Run{Status: RunCompleted, StartedAt: at(0), CompletedAt: at(3723 * time.Second), HeartbeatAt: at(0)}, 99 * time.Hour, "01:02:03.000", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := c.run.Shown(t0.Add(c.now))
			got := ""
			if s.ElapsedTime != nil {
				got = *s.ElapsedTime
			}
			if got != c.elapsed {
				t.Errorf("elapsedTime %q, want %q", got, c.elapsed)
			}
			if quiet := strings.Contains(s.Progress.StatusText, "no word from the worker"); quiet != c.quiet {
				t.Errorf("status text %q (quiet %v, want %v)", s.Progress.StatusText, quiet, c.quiet)
			}
			if s.Warnings == nil || s.Parameters == nil {
				t.Error("nil lists would show as null")
			}
		})
	}
}
