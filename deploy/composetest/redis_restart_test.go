//go:build compose

package composetest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/gridjob"
)

// Scenario 4: Redis restarted under the API's feet, during a bulk load
// and during a run.
//
// What a restart may cost: docker restart sends Redis SIGTERM, and a Redis
// stopping on SIGTERM calls fsync() on its append-only file before it
// exits ("Calling fsync() on the AOF file" ... "ready to exit" in its log),
// so every write it acknowledged is on disk and is read back when it
// starts. appendfsync everysec alone (a crash, SIGKILL) would only
// promise the writes acknowledged more than a second before. The test
// reads Redis's log: after a clean stop it requires every confirmed write;
// without one, only those confirmed more than a second before the
// outage began.

const (
	// bulkBatch is the nodes of one bulk create: the scenario's load is a
	// client importing a model in batches.
	bulkBatch = 500
	// bulkBefore and bulkAfter are the batches confirmed before the
	// outage and after Redis is back: enough that Redis holds more than a
	// toy data set when it restarts, and that the load has clearly
	// resumed.
	bulkBefore, bulkAfter = 20, 10
	// outageLimit bounds each wait of the scenario (a batch confirmed,
	// Redis back, a run finished): a safety net for a loaded machine.
	outageLimit = 5 * time.Minute
	// unavailableSeen is how many 503s the clients get before a stopped
	// Redis is started again: a few, so that the retries are exercised.
	unavailableSeen = 3
	// runGrid is the structure the run solves: grid-20's factorization
	// shows for a few seconds (worker_loss_test.go), long enough for Redis
	// to be restarted inside it.
	runGrid = 20
	// aofWindow is what appendfsync everysec may lose in a crash.
	aofWindow = time.Second
)

// cleanStop is the line Redis logs when it shut down on a signal after
// flushing its append-only file.
const cleanStop = "ready to exit"

func TestRedisRestart(t *testing.T) {
	redisID := stk.containers(t, "redis")[0]
	// How Redis is taken away. restart is the scenario: docker restart,
	// over within a second or two, which go-redis's own retries (3, with
	// backoff) may hide from the clients entirely. "stop until 503" keeps
	// it down until the clients have been told 503 a few times, so that
	// the answers and the clients' retries are exercised whatever the
	// timing.
	outages := []struct {
		name string
		take func(t *testing.T, l *ledger)
	}{
		{"restart", func(t *testing.T, l *ledger) { docker(t, "restart", redisID) }},
		{"stop until 503", func(t *testing.T, l *ledger) {
			docker(t, "stop", redisID)
			defer docker(t, "start", redisID)
			waitFor(t, outageLimit, "the clients to be told 503", func() (bool, error) {
				return l.count(is503) >= unavailableSeen || len(l.failures()) > 0, nil
			})
		}},
	}
	for _, o := range outages {
		t.Run("bulk load/"+o.name, func(t *testing.T) {
			c := stk.workspace(t, "redis-bulk-"+strings.ReplaceAll(o.name, " ", "-"))
			c.must(t, http.StatusOK, "POST", "/job/new", nil, nil)
			bulkLoad(t, c, redisID, func(l *ledger) { o.take(t, l) })
		})
	}
	t.Run("run/restart", func(t *testing.T) {
		c := stk.workspace(t, "redis-run")
		runThroughRestart(t, c, redisID)
	})
}

// docker runs the docker client and fails the test when it fails.
func docker(t *testing.T, args ...string) {
	t.Helper()
	if out, err := stk.run(args...); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// bulkLoad creates nodes in batches while take takes Redis away, and
// checks that every confirmed batch is there afterwards.
func bulkLoad(t *testing.T, c *client, redisID string, take func(*ledger)) {
	l := &ledger{}
	ld := &loader{c: c, l: l, next: 1}
	stops := strings.Count(stk.logs(t, redisID), cleanStop)
	done, stop := make(chan struct{}), make(chan struct{})
	go func() { defer close(done); ld.loop(stop) }()
	halt := sync.OnceFunc(func() { close(stop); <-done })
	defer halt()

	waitFor(t, outageLimit, fmt.Sprintf("%d batches confirmed", bulkBefore), func() (bool, error) {
		return ld.confirmedCount() >= bulkBefore || len(l.failures()) > 0, nil
	})
	began := time.Now()
	take(l)
	resumed := time.Now()
	back := resumed.Sub(began)
	// The load resumes: bulkAfter batches confirmed once Redis is back
	// (docker stop and docker restart return once it has started again).
	waitFor(t, outageLimit, fmt.Sprintf("%d batches confirmed after the outage", bulkAfter), func() (bool, error) {
		return ld.confirmedSince(resumed) >= bulkAfter || len(l.failures()) > 0, nil
	})
	halt()

	for _, f := range l.failures() {
		t.Errorf("bulk load: %s", f)
	}
	logServerErrors(t, began.Add(-time.Minute))
	clean := strings.Count(stk.logs(t, redisID), cleanStop) > stops
	// Every batch known to have landed (answered 2xx, or found already
	// there by its retry) must be readable, with its coordinates.
	var nodes []model.Node
	readBack(t, c, "/job/structure/nodes", &nodes)
	have := make(map[int64]model.Node, len(nodes))
	for _, n := range nodes {
		have[n.ID] = n
	}
	var want, found, before, during, after int
	for _, b := range ld.landedBatches() {
		switch {
		case b.confirmedAt.Before(began):
			before++
		case b.confirmedAt.Before(resumed):
			during++ // before Redis took the signal, or after it started
		default:
			after++
		}
		if !clean && !b.confirmedAt.Before(began.Add(-aofWindow)) {
			continue // the crash window of appendfsync everysec
		}
		for id := b.first; id < b.first+bulkBatch; id++ {
			want++
			if n, ok := have[id]; ok && n.X == float64(id) && n.Y == 1 && n.Z == 2 {
				found++
			} else if want-found <= 5 {
				t.Errorf("node %d of a confirmed batch (confirmed %s) after the outage: %+v (present %v)",
					id, b.confirmedAt.Format(time.RFC3339Nano), n, ok)
			}
		}
	}
	if want != found {
		t.Errorf("%d of %d confirmed nodes are missing or changed after the outage", want-found, want)
	}
	if !clean {
		t.Logf("Redis's log does not show a clean stop (%q): only the writes confirmed %v before the outage were required", cleanStop, aofWindow)
	}
	w := l.window(is503)
	figure(t, "redis %s during a bulk load: Redis back after %v; 503 answered for %v (first 503 to the first 2xx after it), %d requests got 503, %d retried after no answer; "+
		"confirmed nodes %d (%d batches before the outage, %d during it, %d after), found after it %d; %d batches found landed by their retry (409 DUPLICATE_ENTITY); clean AOF stop: %v",
		t.Name()[strings.LastIndex(t.Name(), "/")+1:], back.Round(time.Millisecond), w.Round(time.Millisecond), l.count(is503), l.count(noAnswer),
		want, before, during, after, found, ld.retryFound(), clean)
}

// logServerErrors logs, when the test has failed, the api replicas' own
// account of the 5xx they answered since a moment ("request failed" with
// its cause): the client sees only "internal error".
func logServerErrors(t *testing.T, since time.Time) {
	t.Helper()
	if !t.Failed() {
		return
	}
	for _, id := range stk.containers(t, "api") {
		for _, line := range strings.Split(logsSince(t, id, since), "\n") {
			if strings.Contains(line, `"msg":"request failed"`) && !strings.Contains(line, `"status":503`) {
				t.Logf("api %s: %s", id[:12], line)
			}
		}
	}
}

// logsSince returns a container's output (both streams) since a moment:
// stk.logs reads it all, and a scenario wants what one phase logged.
func logsSince(t *testing.T, id string, since time.Time) string {
	t.Helper()
	out, err := exec.Command(stk.docker, "logs", "--since", since.UTC().Format(time.RFC3339Nano), id).CombinedOutput()
	if err != nil {
		t.Fatalf("docker logs %s: %v\n%s", id, err, out)
	}
	return string(out)
}

// readBack reads path into out once the service answers it, waiting out
// 503s and lost answers (Redis may still be starting when the load gave
// up); any other answer but 200 fails the test.
func readBack(t *testing.T, c *client, path string, out any) {
	t.Helper()
	l := &ledger{}
	var a answer
	waitFor(t, outageLimit, "GET "+path+" answered", func() (bool, error) {
		a = l.do(c, "GET", path, nil)
		return !retryable(a), fmt.Errorf("%s", a)
	})
	if a.status != http.StatusOK {
		t.Fatalf("%s", a)
	}
	if err := json.Unmarshal(a.body, out); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
}

// loader is a client importing nodes in bulk batches of explicit ids,
// retrying a batch that was answered 503 (with an ErrorResponse) or not
// answered at all, with backoff, until it is answered for good.
type loader struct {
	c    *client
	l    *ledger
	mu   sync.Mutex
	next int64
	// landed are the batches known to be stored: answered 2xx, or found
	// already there by a retry.
	landed []batch
	found  int
}

// batch is one bulk create of bulkBatch nodes from first.
type batch struct {
	first       int64
	confirmedAt time.Time
	// byRetry is a batch whose retry was refused as a duplicate: an
	// attempt that got no answer (or a 503) had stored it.
	byRetry bool
}

func (ld *loader) loop(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		items := make([]map[string]any, bulkBatch)
		for i := range items {
			id := ld.next + int64(i)
			items[i] = map[string]any{"id": id, "x": id, "y": 1, "z": 2}
		}
		b, ok := ld.send(items, stop)
		if !ok {
			return
		}
		ld.mu.Lock()
		ld.landed = append(ld.landed, b)
		if b.byRetry {
			ld.found++
		}
		ld.next += bulkBatch
		ld.mu.Unlock()
	}
}

// send creates one batch, retrying as loader says. It returns false when
// the batch was refused for good or stop came first.
func (ld *loader) send(items []map[string]any, stop <-chan struct{}) (batch, bool) {
	b := batch{first: ld.next}
	pause := 100 * time.Millisecond
	for attempt := 0; ; attempt++ {
		a := ld.l.do(ld.c, "POST", "/job/structure/nodes/bulk", items)
		switch {
		case a.status == http.StatusOK:
			b.confirmedAt = a.at
			return b, true
		case attempt > 0 && a.status == http.StatusConflict && a.code == "DUPLICATE_ENTITY":
			// Bulk creates are all or nothing and these ids are this
			// loader's alone: an earlier attempt stored the batch.
			b.confirmedAt, b.byRetry = a.at, true
			return b, true
		case !retryable(a):
			ld.l.fail(fmt.Sprintf("batch from %d, attempt %d: %s", b.first, attempt+1, a))
			return b, false
		}
		select {
		case <-stop:
			return b, false
		case <-time.After(pause):
		}
		pause = min(2*pause, 2*time.Second)
	}
}

// retryable is an answer a client retries with backoff: no answer at all,
// or a 503 with an ErrorResponse (the service saying it cannot serve yet).
func retryable(a answer) bool { return noAnswer(a) || is503(a) }

func (ld *loader) confirmedCount() int {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	return len(ld.landed)
}

// confirmedSince counts the batches confirmed after since.
func (ld *loader) confirmedSince(since time.Time) int {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	n := 0
	for _, b := range ld.landed {
		if b.confirmedAt.After(since) {
			n++
		}
	}
	return n
}

func (ld *loader) landedBatches() []batch {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	return append([]batch(nil), ld.landed...)
}

func (ld *loader) retryFound() int {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	return ld.found
}

// runThroughRestart starts a run, restarts Redis while the run
// factorizes, and follows the run to its end: Completed with results that
// balance (checkGrid), or ended with a message, never Running for ever
// and never a 500 on the way.
func runThroughRestart(t *testing.T, c *client, redisID string) {
	c.upload(t, gridjob.File(runGrid, 1))
	run := c.startRun(t)
	r := c.poll(t, run.RunID, outageLimit, "to factorize", func(r model.Run) bool { return factorizing(r) || r.Status.Finished() })
	if !factorizing(r) {
		t.Fatalf("run %s was %s before Redis could be restarted (wanted it factorizing): a larger runGrid would keep it running longer", r.RunID, r.Status)
	}
	began := time.Now()
	docker(t, "restart", redisID)
	back := time.Since(began)

	// Follow the run as a client would: 503s and lost answers are waited
	// out, anything else but 200 is a failure.
	l := &ledger{}
	var last model.Run
	took := waitFor(t, outageLimit, fmt.Sprintf("run %s to finish after the restart", run.RunID), func() (bool, error) {
		a := l.do(c, "GET", "/job/analysis/runs/"+run.RunID, nil)
		switch {
		case a.status == http.StatusOK:
			if err := json.Unmarshal(a.body, &last); err != nil {
				return false, err
			}
			return last.Status.Finished(), fmt.Errorf("run is %s, attempt %d, step %d %q", last.Status, last.Attempt, last.Progress.CurrentStep, last.Progress.StatusText)
		case retryable(a):
			return false, fmt.Errorf("%s", a)
		}
		l.fail(a.String())
		return true, nil // failed: stop waiting
	})
	for _, f := range l.failures() {
		t.Errorf("following the run: %s", f)
	}
	logServerErrors(t, began.Add(-time.Minute))
	switch last.Status {
	case model.RunCompleted:
		checkGrid(t, c, runGrid)
	case model.RunFailed, model.RunCancelled:
		if last.ErrorMessage == "" {
			t.Errorf("run %s ended %s without a message", last.RunID, last.Status)
		}
	default:
		t.Errorf("run %s is %s after the restart, want it finished", last.RunID, last.Status)
	}
	c.noRunUnderWay(t)
	figure(t, "redis restart during a run (grid-%d, restarted while it factorized): Redis back after %v; run %s, attempt %d, %v after the restart; %d polls got 503, %d no answer; message %q",
		runGrid, back.Round(time.Millisecond), last.Status, last.Attempt, took.Round(time.Millisecond),
		l.count(is503), l.count(noAnswer), last.ErrorMessage)
}

// ledger records the answers a scenario's clients got, for its checks
// and its figures.
type ledger struct {
	mu      sync.Mutex
	answers []answer
	failed  []string
}

// answer is one request's outcome: status 0 when no answer came (the
// connection failed).
type answer struct {
	at           time.Time
	method, path string
	status       int
	code         string // the ErrorResponse's errorCode, when there is one
	body         []byte
	err          error
}

func (a answer) String() string {
	if a.status == 0 {
		return fmt.Sprintf("%s %s: no answer: %v", a.method, a.path, a.err)
	}
	return fmt.Sprintf("%s %s: %d %s", a.method, a.path, a.status, clip(a.body))
}

// do sends a request through c and records its answer.
func (l *ledger) do(c *client, method, path string, body any) answer {
	status, b, err := c.do(method, path, body)
	a := answer{at: time.Now(), method: method, path: path, status: status, body: b, err: err}
	if err != nil {
		a.status = 0
	}
	if a.status >= 400 {
		var e struct {
			ErrorCode string `json:"errorCode"`
		}
		if json.Unmarshal(b, &e) == nil {
			a.code = e.ErrorCode
		}
	}
	l.mu.Lock()
	l.answers = append(l.answers, a)
	l.mu.Unlock()
	return a
}

// fail records what makes the scenario fail; the test reports it.
func (l *ledger) fail(what string) {
	l.mu.Lock()
	l.failed = append(l.failed, what)
	l.mu.Unlock()
}

func (l *ledger) failures() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.failed...)
}

// count counts the answers that match.
func (l *ledger) count(match func(answer) bool) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, a := range l.answers {
		if match(a) {
			n++
		}
	}
	return n
}

// window is the time from the first answer that matches to the first 2xx
// after it (0 when none matches).
func (l *ledger) window(match func(answer) bool) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	var first time.Time
	for _, a := range l.answers {
		switch {
		case first.IsZero() && match(a):
			first = a.at
		case !first.IsZero() && a.status >= 200 && a.status < 300:
			return a.at.Sub(first)
		}
	}
	return 0
}

// is503 is a 503 with an ErrorResponse: the service saying, in its own
// words, that it cannot serve yet. A 503 without one (a proxy's page)
// is not.
func is503(a answer) bool { return a.status == http.StatusServiceUnavailable && a.code != "" }

// noAnswer is a request that got no answer.
func noAnswer(a answer) bool { return a.status == 0 }
