//go:build capacity

package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/testutil/proctest"
)

// hardMemoryLimit puts p under a memory limit of n bytes that it cannot
// survive exceeding, as a container's limit would: a memory cgroup of its
// own (v2 memory.max, or v1 memory.limit_in_bytes) where the test may
// make one (root, a writable cgroup file system), else an address-space
// limit (prlimit --as, the process's virtual size now plus n), else none
// (logged: the scenario then shows the run's outcome only). Either way a
// process that takes more than about n dies: the kernel's OOM killer, or
// the Go runtime's "fatal error: out of memory".
func hardMemoryLimit(t *testing.T, p *proctest.Proc, n int64) {
	t.Helper()
	if dir, err := memoryCgroup(p, n); err == nil {
		t.Cleanup(func() {
			p.Kill()
			_ = os.Remove(dir)
		})
		t.Logf("%s runs in memory cgroup %s, limit %d MiB", p.Name, dir, n>>20)
		return
	} else {
		t.Logf("no memory cgroup for %s (%v); trying prlimit", p.Name, err)
	}
	vsz := procStatus(t, p, "VmSize:")
	out, err := exec.Command("prlimit", "--pid", strconv.Itoa(p.PID()), fmt.Sprintf("--as=%d", vsz+n)).CombinedOutput()
	if err != nil {
		t.Logf("no hard memory limit on %s: prlimit: %v %s", p.Name, err, out)
		return
	}
	t.Logf("%s runs under an address-space limit of its %d MiB plus %d MiB", p.Name, vsz>>20, n>>20)
}

// memoryCgroup makes a memory cgroup limited to n bytes, moves p into it
// and returns its directory.
func memoryCgroup(p *proctest.Proc, n int64) (string, error) {
	name := fmt.Sprintf("gusset-capacity-%d", p.PID())
	limit := strconv.FormatInt(n, 10)
	var dir, file string
	if b, err := os.ReadFile("/sys/fs/cgroup/cgroup.controllers"); err == nil && strings.Contains(string(b), "memory") {
		dir, file = filepath.Join("/sys/fs/cgroup", name), "memory.max"
	} else {
		dir, file = filepath.Join("/sys/fs/cgroup/memory", name), "memory.limit_in_bytes"
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", err
	}
	for _, w := range [][2]string{{file, limit}, {"cgroup.procs", strconv.Itoa(p.PID())}} {
		if err := os.WriteFile(filepath.Join(dir, w[0]), []byte(w[1]), 0o644); err != nil {
			_ = os.Remove(dir)
			return "", err
		}
	}
	return dir, nil
}

// procStatus returns a size field of p's /proc status, in bytes.
func procStatus(t *testing.T, p *proctest.Proc, field string) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.PID()))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			var kb int64
			fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kb)
			return kb << 10
		}
	}
	t.Fatalf("no %s for %s", field, p.Name)
	return 0
}
