package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

// make run builds only what it runs: the standalone. Building the api and
// the worker too doubles the wait before a first-time user sees the
// service answer.
func TestMakeRunBuildsOnlyTheStandalone(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatal("make is needed (bash .ci/run installs it)")
	}
	out, err := exec.Command("make", "-n", "-C", "../..", "run").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n run: %v\n%s", err, out)
	}
	var builds []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, " build ") {
			builds = append(builds, line)
		}
	}
	if len(builds) != 1 || !strings.HasSuffix(strings.TrimSpace(builds[0]), "./services/standalone") {
		t.Errorf("make run builds %q, want only ./services/standalone", builds)
	}
}
