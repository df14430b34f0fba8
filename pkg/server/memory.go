package server

import (
	"bufio"
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/gusset/gusset/pkg/analysis/lifecycle"
)

// WorkerMemorySetting is the variable of a worker's memory budget.
const WorkerMemorySetting = "WORKER_MEMORY"

// parseWorkerMemory reads WORKER_MEMORY: bytes, positive; "" is 0 (the
// default, from the process's memory limit).
func parseWorkerMemory(v string) (int64, error) {
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s must be a positive integer (bytes), got %q", WorkerMemorySetting, v)
	}
	return n, nil
}

// noLimit is where a cgroup's limit means "none": v1 reports the largest
// page-aligned int64, v2 "max".
const noLimit = 1 << 62

// memoryLimit returns the memory the process may take before the system
// stops it, and where that figure comes from: the least of its cgroup's
// limits (v2 memory.max, v1 memory.limit_in_bytes; the cgroup of the
// process, or the root of the cgroup file system as a container sees it)
// and the machine's RAM (MemTotal of /proc/meminfo). root is the file
// system root ("/"; tests give another). It returns 0 when none is known.
func memoryLimit(root string) (int64, string) {
	var best int64
	var from string
	take := func(n int64, src string) {
		if n > 0 && n < noLimit && (best == 0 || n < best) {
			best, from = n, src
		}
	}
	for _, p := range cgroupLimitFiles(root) {
		if b, err := os.ReadFile(p); err == nil {
			s := strings.TrimSpace(string(b))
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				take(n, "cgroup "+strings.TrimPrefix(p, filepath.Clean(root)))
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(root, "proc/meminfo")); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
				var kb int64
				if _, err := fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kb); err == nil {
					take(kb<<10, "MemTotal")
				}
			}
		}
	}
	return best, from
}

// cgroupLimitFiles lists the files that may hold the process's memory
// limit, from /proc/self/cgroup.
func cgroupLimitFiles(root string) []string {
	cg := filepath.Join(root, "sys/fs/cgroup")
	out := []string{filepath.Join(cg, "memory.max"), filepath.Join(cg, "memory/memory.limit_in_bytes")}
	b, err := os.ReadFile(filepath.Join(root, "proc/self/cgroup"))
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(b), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 || parts[2] == "/" {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			out = append(out, filepath.Join(cg, parts[2], "memory.max"), filepath.Join(cg, "unified", parts[2], "memory.max"))
		case strings.Contains(","+parts[1]+",", ",memory,"):
			out = append(out, filepath.Join(cg, "memory", parts[2], "memory.limit_in_bytes"))
		}
	}
	return out
}

// workerHeadroom is what a worker keeps of its memory limit for itself
// (its runtime, the queue, a standalone's API) and for the estimates'
// error: an eighth of the limit, at least 256 MiB, but never more than
// half of it.
func workerHeadroom(limit int64) int64 { return min(max(limit/8, 256<<20), limit/2) }

// budgets are the memory budgets of the workers of this process, by size:
// every worker of a process (tests start several) shares one.
var budgets struct {
	sync.Mutex
	of map[int64]*lifecycle.MemoryBudget
}

// workerBudget returns the process's memory budget for its analyses:
// cfg.WorkerMemory, or the process's memory limit less workerHeadroom
// (nil when no limit is known: every run is admitted). It also sets the
// Go runtime's soft memory limit, unless GOMEMLIMIT does, halfway
// between the budget and the limit, so that the collector works harder
// before the system would stop the process rather than after.
func workerBudget(cfg Config, log *slog.Logger) *lifecycle.MemoryBudget {
	limit, from := memoryLimit("/")
	total := cfg.WorkerMemory
	if total == 0 && limit > 0 {
		total = limit - workerHeadroom(limit)
	}
	if total <= 0 {
		log.Warn("no memory limit found and no " + WorkerMemorySetting + ": runs are not checked against a memory budget")
		return nil
	}
	soft := total + total/4
	if limit > total {
		soft = total + (limit-total)/2
	} else if limit > 0 {
		log.Warn(WorkerMemorySetting+" is at or above the process's memory limit: a run that fits it may still stop the worker",
			"budget", total, "limit", limit, "limitFrom", from)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(soft)
	}
	log.Info("worker memory budget", "budget", total, "limit", limit, "limitFrom", from)
	budgets.Lock()
	defer budgets.Unlock()
	if budgets.of == nil {
		budgets.of = map[int64]*lifecycle.MemoryBudget{}
	}
	b := budgets.of[total]
	if b == nil {
		b = lifecycle.NewMemoryBudget(total)
		budgets.of[total] = b
	}
	return b
}
