package server

import "testing"

// MAX_JOB_BYTES is a positive number of bytes; unset leaves the default
// to the session (jobfile.DefaultMaxJobBytes).
func TestFromEnvMaxJobBytes(t *testing.T) {
	for _, bad := range []string{"0", "-1", "1GiB", "lots"} {
		t.Setenv("MAX_JOB_BYTES", bad)
		if _, err := FromEnv(); err == nil {
			t.Errorf("MAX_JOB_BYTES=%s accepted", bad)
		}
	}
	t.Setenv("MAX_JOB_BYTES", "")
	if c, err := FromEnv(); err != nil || c.MaxJobBytes != 0 {
		t.Errorf("unset: %d %v", c.MaxJobBytes, err)
	}
	t.Setenv("MAX_JOB_BYTES", "3221225472")
	if c, err := FromEnv(); err != nil || c.MaxJobBytes != 3<<30 {
		t.Errorf("3 GiB: %d %v", c.MaxJobBytes, err)
	}
}

// MAX_RESULT_BYTES is a whole number of bytes, 0 for no limit; unset is
// DefaultMaxResultBytes. Every workspace gets the same limit until quotas
// are set per workspace.
func TestFromEnvMaxResultBytes(t *testing.T) {
	for _, bad := range []string{"-1", "1GiB", "lots"} {
		t.Setenv("MAX_RESULT_BYTES", bad)
		if _, err := FromEnv(); err == nil {
			t.Errorf("MAX_RESULT_BYTES=%s accepted", bad)
		}
	}
	for _, tc := range []struct {
		env  string
		want int64
	}{{"", DefaultMaxResultBytes}, {"0", 0}, {"1048576", 1 << 20}} {
		t.Run("MAX_RESULT_BYTES="+tc.env, func(t *testing.T) {
			t.Setenv("MAX_RESULT_BYTES", tc.env)
			c, err := FromEnv()
			if err != nil {
				t.Fatal(err)
			}
			limit := c.resultBytesLimit()
			for _, ws := range []string{"a", "b"} {
				if got := limit(ws); got != tc.want {
					t.Errorf("limit of %s: %d, want %d", ws, got, tc.want)
				}
			}
		})
	}
}
