package server

import (
	"fmt"
	"testing"

	"github.com/gusset/gusset/pkg/jobfile"
	"github.com/gusset/gusset/pkg/model"
)

// Every limit's variable (MAX_JOB_BYTES among them) is a positive whole
// number; unset leaves the limit's default, and the job-file default is
// the job-file reader's own (jobfile.DefaultMaxJobBytes), so that the
// two never disagree.
func TestFromEnvLimits(t *testing.T) {
	for _, d := range model.LimitDefs {
		t.Run(d.Setting, func(t *testing.T) {
			for _, bad := range []string{"0", "-1", "1GiB", "lots"} {
				t.Setenv(d.Setting, bad)
				if _, err := FromEnv(); err == nil {
					t.Errorf("%s=%s accepted", d.Setting, bad)
				}
			}
			t.Setenv(d.Setting, "")
			if c, err := FromEnv(); err != nil || c.Limits.Of(d) != d.Default {
				t.Errorf("unset: %d %v, want the default %d", c.Limits.Of(d), err, d.Default)
			}
			t.Setenv(d.Setting, "3221225472")
			if c, err := FromEnv(); err != nil || c.Limits.Of(d) != 3<<30 {
				t.Errorf("3221225472: %d %v", c.Limits.Of(d), err)
			}
		})
	}
	t.Setenv("MAX_JOB_BYTES", fmt.Sprint(5<<20))
	if c, _ := FromEnv(); c.MaxJobBytes != 5<<20 {
		t.Errorf("MAX_JOB_BYTES does not reach the session: %d", c.MaxJobBytes)
	}
	if d, _ := model.LimitDefOf("jobFileBytes"); d.Default != jobfile.DefaultMaxJobBytes {
		t.Errorf("the job-file limit defaults to %d, the reader to %d", d.Default, jobfile.DefaultMaxJobBytes)
	}
}
