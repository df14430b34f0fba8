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
