package server

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
)

// WORKER_MEMORY is a positive number of bytes; unset is 0, the default.
func TestFromEnvWorkerMemory(t *testing.T) {
	for _, c := range []struct {
		value string
		ok    bool
		want  int64
	}{
		{"", true, 0},
		{"268435456", true, 256 << 20},
		{"0", false, 0},
		{"-1", false, 0},
		{"2GiB", false, 0},
	} {
		t.Run(c.value, func(t *testing.T) {
			t.Setenv(WorkerMemorySetting, c.value)
			cfg, err := FromEnv()
			if !c.ok {
				if err == nil || !strings.Contains(err.Error(), WorkerMemorySetting) {
					t.Fatalf("%q: %v, want an error naming %s", c.value, err, WorkerMemorySetting)
				}
				return
			}
			if err != nil || cfg.WorkerMemory != c.want {
				t.Fatalf("%q: %d %v, want %d", c.value, cfg.WorkerMemory, err, c.want)
			}
		})
	}
}

// memoryLimit takes the least of the cgroup limits that apply (v2 and
// v1, at the cgroup file system's root as a container sees it or at the
// process's own cgroup) and the machine's RAM; "max" and v1's huge
// "unlimited" are no limit.
func TestMemoryLimit(t *testing.T) {
	const meminfo = "MemTotal:       16384000 kB\nMemFree:         1000 kB\n"
	ram := int64(16384000) << 10
	for _, c := range []struct {
		name  string
		files map[string]string
		want  int64
		from  string
	}{
		{"ram only", map[string]string{"proc/meminfo": meminfo}, ram, "MemTotal"},
		{"v2 container", map[string]string{"proc/meminfo": meminfo, "sys/fs/cgroup/memory.max": "536870912\n"},
			512 << 20, "cgroup /sys/fs/cgroup/memory.max"},
		{"v2 max", map[string]string{"proc/meminfo": meminfo, "sys/fs/cgroup/memory.max": "max\n"}, ram, "MemTotal"},
		{"v2 own cgroup", map[string]string{"proc/meminfo": meminfo, "proc/self/cgroup": "0::/job/w1\n",
			"sys/fs/cgroup/job/w1/memory.max": "1073741824"}, 1 << 30, "cgroup /sys/fs/cgroup/job/w1/memory.max"},
		{"v1 container", map[string]string{"proc/meminfo": meminfo,
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "268435456"}, 256 << 20, "cgroup /sys/fs/cgroup/memory/memory.limit_in_bytes"},
		{"v1 unlimited", map[string]string{"proc/meminfo": meminfo,
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712"}, ram, "MemTotal"},
		{"v1 own cgroup", map[string]string{"proc/meminfo": meminfo,
			"proc/self/cgroup": "5:cpu:/\n4:memory:/capacity/w2\n0::/\n",
			"sys/fs/cgroup/memory/capacity/w2/memory.limit_in_bytes": "805306368"}, 768 << 20,
			"cgroup /sys/fs/cgroup/memory/capacity/w2/memory.limit_in_bytes"},
		{"nothing known", nil, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			for name, body := range c.files {
				p := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, from := memoryLimit(root)
			if got != c.want || from != c.from {
				t.Errorf("memoryLimit = %d from %q, want %d from %q", got, from, c.want, c.from)
			}
		})
	}
}

// The headroom is an eighth of the limit, at least 256 MiB, at most half.
func TestWorkerHeadroom(t *testing.T) {
	for _, c := range []struct{ limit, want int64 }{
		{16 << 30, 2 << 30}, {1 << 30, 256 << 20}, {448 << 20, 224 << 20},
	} {
		if got := workerHeadroom(c.limit); got != c.want {
			t.Errorf("workerHeadroom(%d MiB) = %d MiB, want %d MiB", c.limit>>20, got>>20, c.want>>20)
		}
	}
}

// The parts of a non-linear run reserve their memory from the worker's
// budget before their first factorization, as a static run does: on a
// worker whose WORKER_MEMORY cannot hold grid-10's tangent and its factor
// (7,986 equations: several MiB), each case ends without results saying
// what it needs and what the worker may use, and the run fails without a
// worker stopping; the same run on the default budget completes
// (TestNonLinear* in nonlinear_test.go).
func TestNonLinearPartsAdmitted(t *testing.T) {
	s := startStackWith(t, 1, Config{WorkerMemory: 1 << 20}, io.Discard)
	s.upload(gridjob.File(10, 2))
	run := s.wait(s.runNonLinear(map[string]any{"loadSteps": 2}).RunID)
	if run.Status != model.RunFailed {
		t.Fatalf("run %s (%q), want Failed: neither case fits 1 MiB", run.Status, run.ErrorMessage)
	}
	for _, want := range []string{"load case 1 has no results", "this analysis needs about", "equations",
		"more than the 1024 KiB this worker may use (WORKER_MEMORY)"} {
		if !strings.Contains(run.ErrorMessage+strings.Join(run.Warnings, " "), want) {
			t.Errorf("the run's message %q and warnings %q do not say %q", run.ErrorMessage, run.Warnings, want)
		}
	}
}
