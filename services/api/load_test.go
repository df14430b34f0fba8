//go:build load

// Load test: two gusset-api replicas and a gusset-worker on one
// redis-server, 48 clients writing and reading one open job for
// loadTime. It takes over a minute and most of two cores, so `make
// test-load` runs it, not `make test`.
package main_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/testutil/proctest"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

const (
	// loadTime is how long the clients run; LOAD_DURATION (a Go
	// duration) overrides it for quick local runs.
	loadTime = 60 * time.Second
	// loadClients is the number of concurrent clients the issue asks for.
	loadClients = 48
	// deleteLimit is the fairness bound: a cascading delete must answer
	// within it however many writers compete.
	deleteLimit = 2 * time.Second
	// rssLimit bounds the resident memory of every process.
	rssLimit = 1 << 30
	// rssEvery is how often the resident memory is sampled.
	rssEvery = 500 * time.Millisecond
	// requestTimeout ends a request that hangs; it counts as a failure.
	requestTimeout = 20 * time.Second
	// setupTime bounds builds, start-up and the checks after the load, so
	// that the whole test stays under three minutes with a warm cache.
	setupTime = 100 * time.Second
)

// loadDuration is loadTime unless LOAD_DURATION says otherwise.
func loadDuration(t *testing.T) time.Duration {
	t.Helper()
	v := os.Getenv("LOAD_DURATION")
	if v == "" {
		return loadTime
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		t.Fatalf("LOAD_DURATION=%q: want a positive Go duration such as 15s", v)
	}
	return d
}

// redisPID asks the server for its process id (redistest keeps the
// process to itself).
func redisPID(ctx context.Context, t *testing.T, srv *redistest.Server) int {
	t.Helper()
	info, err := srv.Client(t).Info(ctx, "server").Result()
	if err != nil {
		t.Logf("redis INFO: %v; redis-server's memory is not measured", err)
		return 0
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "process_id:"); ok {
			pid, _ := strconv.Atoi(v)
			return pid
		}
	}
	t.Log("redis INFO has no process_id; redis-server's memory is not measured")
	return 0
}

// procKB reads a kB field (VmRSS, VmHWM) of /proc/<pid>/status; pid 0
// is the test process itself.
func procKB(pid int, field string) (int64, error) {
	path := "/proc/self/status"
	if pid != 0 {
		path = fmt.Sprintf("/proc/%d/status", pid)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("%s: no %s", path, field)
}

// rssWatch samples the resident memory of the service processes while
// the load runs.
type rssWatch struct {
	mu     sync.Mutex
	names  []string
	pids   map[string]int
	peak   map[string]int64 // greatest VmRSS sampled, kB
	hwm    map[string]int64 // VmHWM at the end, kB
	misses map[string]int
}

func newRSSWatch() *rssWatch {
	return &rssWatch{pids: map[string]int{}, peak: map[string]int64{}, hwm: map[string]int64{}, misses: map[string]int{}}
}

func (w *rssWatch) add(name string, pid int) {
	w.names = append(w.names, name)
	w.pids[name] = pid
}

func (w *rssWatch) sample() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, n := range w.names {
		kb, err := procKB(w.pids[n], "VmRSS")
		if err != nil {
			w.misses[n]++
			continue
		}
		w.peak[n] = max(w.peak[n], kb)
	}
}

// run samples every rssEvery until ctx ends.
func (w *rssWatch) run(ctx context.Context) {
	tick := time.NewTicker(rssEvery)
	defer tick.Stop()
	for {
		w.sample()
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// finish reads each process's high-water mark, which also catches peaks
// between samples, and fails the test for any process over rssLimit.
func (w *rssWatch) finish(t *testing.T) {
	t.Helper()
	w.sample()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, n := range w.names {
		if kb, err := procKB(w.pids[n], "VmHWM"); err == nil {
			w.hwm[n] = kb
		} else {
			t.Errorf("%s: cannot read VmHWM: %v", n, err)
		}
		top := max(w.peak[n], w.hwm[n]) << 10
		t.Logf("memory %-8s pid %-7d peak VmRSS sampled %6.1f MiB, VmHWM %6.1f MiB (%d samples missed)",
			n, w.pids[n], float64(w.peak[n])/1024, float64(w.hwm[n])/1024, w.misses[n])
		if n != "test" && top > rssLimit {
			t.Errorf("RSS: %s peaked at %.1f MiB, over the 1 GiB limit", n, float64(top)/(1<<20))
		}
	}
}

// TestLoad runs loadClients clients against two api replicas and checks
// the acceptance: only 2xx or documented 4xx answers, every
// delete completes (within deleteLimit), every process under 1 GiB.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the services for over a minute")
	}
	dur := loadDuration(t)
	ctx, cancel := context.WithTimeout(context.Background(), dur+setupTime)
	defer cancel()
	dir := t.TempDir()
	var procs []*proctest.Proc
	t.Cleanup(func() { // registered first, so it runs once the processes have been killed
		if t.Failed() {
			for _, p := range procs {
				t.Logf("%s log tail:\n%s", p.Name, p.LogTail(10))
			}
		}
	})

	start := time.Now()
	if err := proctest.Build(ctx, dir, ".", "../worker"); err != nil {
		t.Fatal(err)
	}
	t.Logf("built gusset-api and gusset-worker in %v", time.Since(start).Round(time.Millisecond))
	apiBin, workerBin := filepath.Join(dir, "api"), filepath.Join(dir, "worker")
	srv := redistest.Start(t)
	startCtx, startDone := context.WithTimeout(ctx, 30*time.Second)
	defer startDone()
	var bases [2]string
	for i := range bases {
		p, base, err := proctest.StartAPI(startCtx, dir, fmt.Sprintf("api-%d", i+1), apiBin, proctest.Env("REDIS_URL="+srv.URL(),
			"PORT=0", "HOST=127.0.0.1", "JOBS_DIR="+filepath.Join(dir, "jobs"), "LOG_LEVEL=warn"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Kill)
		procs, bases[i] = append(procs, p), base
	}
	// The worker takes no task here; it is measured as the deployment runs it.
	worker, err := proctest.StartWorker(startCtx, dir, "worker", workerBin, proctest.Env("REDIS_URL="+srv.URL(), "LOG_LEVEL=warn"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(worker.Kill)
	procs = append(procs, worker)

	watch := newRSSWatch()
	for _, p := range procs {
		watch.add(p.Name, p.PID())
	}
	if pid := redisPID(ctx, t, srv); pid != 0 {
		watch.add("redis", pid)
	}
	watch.add("test", 0)

	hc := &http.Client{Transport: &http.Transport{MaxIdleConns: 4 * loadClients, MaxIdleConnsPerHost: 2 * loadClients,
		IdleConnTimeout: 30 * time.Second}}
	defer hc.CloseIdleConnections()
	section, material := openJob(ctx, t, hc, bases)

	watchCtx, stopWatch := context.WithCancel(ctx)
	watchDone := make(chan struct{})
	go func() { defer close(watchDone); watch.run(watchCtx) }()

	t.Logf("%d clients for %v on %s and %s", loadClients, dur, bases[0], bases[1])
	until := time.Now().Add(dur)
	clients := make([]*loadClient, loadClients)
	var wg sync.WaitGroup
	for i := range clients {
		clients[i] = newLoadClient(i, bases, hc, section, material, dur)
		wg.Add(1)
		go func(c *loadClient) { defer wg.Done(); c.run(ctx, until) }(clients[i])
	}
	wg.Wait()
	elapsed := time.Since(until.Add(-dur))
	stopWatch()
	<-watchDone

	for _, p := range procs {
		if p.Exited() {
			t.Errorf("%s exited during the load: %s", p.Name, p.LogTail(10))
		}
	}
	watch.finish(t)
	total := report(t, clients, elapsed)
	if total == 0 {
		t.Fatal("no request was made")
	}
	verifyFinalState(ctx, t, clients, bases, hc)
}

// openJob starts a blank job and adds the section and material every
// member uses.
func openJob(ctx context.Context, t *testing.T, hc *http.Client, bases [2]string) (section, material int64) {
	t.Helper()
	c := &loadClient{http: hc, bases: bases}
	if r := c.do(ctx, "POST", "/job/new", nil, nil); r.status != 200 {
		t.Fatalf("POST /job/new: %d %s", r.status, r.body)
	}
	var rec struct{ ID int64 }
	if r := c.do(ctx, "POST", "/job/structure/materials", map[string]any{"name": "steel", "youngsModulus": 200000,
		"poissonsRatio": 0.3, "massDensity": 7.85}, &rec); r.status != 201 {
		t.Fatalf("create material: %d %s", r.status, r.body)
	}
	material = rec.ID
	if r := c.do(ctx, "POST", "/job/structure/sections", map[string]any{"name": "box", "a": 1e4, "j": 2e8,
		"iy": 1e8, "iz": 1e8, "ay": 5e3, "az": 5e3}, &rec); r.status != 201 {
		t.Fatalf("create section: %d %s", r.status, r.body)
	}
	return rec.ID, material
}

// percentile is the q-quantile of sorted durations (nearest rank).
func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// report logs what each operation answered and how fast, fails the test
// for every status outside the operation's allow-list and for slow
// deletes, and answers the number of requests.
func report(t *testing.T, clients []*loadClient, elapsed time.Duration) int {
	t.Helper()
	all := newLoadStats()
	tainted := 0
	for _, c := range clients {
		all.merge(c.stats)
		if c.tainted {
			tainted++
		}
	}
	total := 0
	for _, op := range opNames {
		lat := all.lat[op]
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		total += len(lat)
		t.Logf("%-13s %6d requests  p50 %7v  p99 %7v  max %7v  statuses %s", op, len(lat),
			percentile(lat, 0.5).Round(100*time.Microsecond), percentile(lat, 0.99).Round(100*time.Microsecond),
			percentile(lat, 1).Round(100*time.Microsecond), all.statusLine(op))
	}
	t.Logf("%d requests in %v (%.0f/s); %d clients stopped writing after a failed write", total,
		elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds(), tainted)
	for _, k := range all.sortedKeys() {
		if !k.allowed {
			t.Errorf("%s answered %d %s %d times (not 2xx nor documented for it); e.g. %s",
				k.op, k.status, k.code, all.count[k.statusKey], all.example[k.statusKey])
		} else {
			t.Logf("%s answered documented %d %s %d times; e.g. %s", k.op, k.status, k.code, all.count[k.statusKey], all.example[k.statusKey])
		}
	}
	for _, v := range all.violations {
		t.Error(v)
	}
	if all.violationsDropped > 0 {
		t.Errorf("... and %d more answers whose content was wrong", all.violationsDropped)
	}
	dl := all.lat[opDelete]
	slow := 0
	for _, d := range dl {
		if d > deleteLimit {
			slow++
		}
	}
	t.Logf("deletes: %d, p50 %v, p99 %v, max %v (limit %v)", len(dl), percentile(dl, 0.5).Round(time.Millisecond),
		percentile(dl, 0.99).Round(time.Millisecond), percentile(dl, 1).Round(time.Millisecond), deleteLimit)
	if slow > 0 {
		t.Errorf("fairness: %d of %d cascading deletes took longer than %v under %d writers (p99 %v, max %v)",
			slow, len(dl), deleteLimit, loadClients, percentile(dl, 0.99).Round(time.Millisecond),
			percentile(dl, 1).Round(time.Millisecond))
	}
	return total
}

// statusKey is one kind of answer of one operation.
type statusKey struct {
	op     string
	status int
	code   string
}

// loadStats is what one client (or, merged, all of them) saw.
type loadStats struct {
	lat               map[string][]time.Duration
	count             map[statusKey]int
	example           map[statusKey]string
	allowed           map[statusKey]bool
	violations        []string
	violationsDropped int
}

func newLoadStats() *loadStats {
	return &loadStats{lat: map[string][]time.Duration{}, count: map[statusKey]int{},
		example: map[statusKey]string{}, allowed: map[statusKey]bool{}}
}

func (s *loadStats) merge(o *loadStats) {
	for op, l := range o.lat {
		s.lat[op] = append(s.lat[op], l...)
	}
	for k, n := range o.count {
		s.count[k] += n
	}
	for k, e := range o.example {
		if _, ok := s.example[k]; !ok {
			s.example[k] = e
		}
	}
	for k, a := range o.allowed {
		s.allowed[k] = a
	}
	for _, v := range o.violations {
		s.violate(v)
	}
	s.violationsDropped += o.violationsDropped
}

func (s *loadStats) violate(msg string) {
	if len(s.violations) < maxViolations {
		s.violations = append(s.violations, msg)
	} else {
		s.violationsDropped++
	}
}

// sortedKeys are the answers other than success, by operation and status.
func (s *loadStats) sortedKeys() []failureKey {
	var out []failureKey
	for k := range s.example {
		out = append(out, failureKey{statusKey: k, allowed: s.allowed[k]})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.op != b.op {
			return a.op < b.op
		}
		return a.status < b.status || a.status == b.status && a.code < b.code
	})
	return out
}

// failureKey is an answer other than success and whether it is allowed.
type failureKey struct {
	statusKey
	allowed bool
}

// statusLine summarises an operation's answers, e.g. "200×812 409/CONFLICT×3".
func (s *loadStats) statusLine(op string) string {
	var keys []statusKey
	for k := range s.count {
		if k.op == op {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].status < keys[j].status })
	var parts []string
	for _, k := range keys {
		name := strconv.Itoa(k.status)
		if k.code != "" {
			name += "/" + k.code
		}
		parts = append(parts, fmt.Sprintf("%s×%d", name, s.count[k]))
	}
	return strings.Join(parts, " ")
}
