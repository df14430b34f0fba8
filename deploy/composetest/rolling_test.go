//go:build compose

package composetest_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
)

// Scenario 5: the API replicas restarted one at a time (docker restart,
// the next once the last is healthy again) while sixteen clients work.
// Nginx sends a request to another replica only when the connection to
// the first fails (proxy_next_upstream error), never a POST that reached
// one; so no request may be lost on a stopping replica: the API stops
// accepting on SIGTERM and finishes what it holds (README, Graceful
// stops). The scenario asserts no 5xx at all and no lost confirmed write.

const (
	// rollClients work at once, each in its own workspace with its own
	// key: the figure.
	rollClients = 16
	// rollBatch is the nodes (each with a fixed support) a client adds per
	// round.
	rollBatch = 5
	// rollFirstID is the first id a client's nodes take, above the
	// sample's own.
	rollFirstID = 1001
	// rollLimit bounds each wait of the scenario (a round, a replica
	// healthy again): a safety net for a loaded machine.
	rollLimit = 5 * time.Minute
)

func TestRollingRestart(t *testing.T) {
	apis := stk.containers(t, "api")
	if len(apis) < 2 {
		t.Fatalf("%d api replicas; a rolling restart needs 2 or more", len(apis))
	}
	l := &ledger{}
	roll := make([]*roller, rollClients)
	for i := range roll {
		roll[i] = &roller{c: execWorkspace(t, apis[0], fmt.Sprintf("roll-%02d", i)), l: l}
		roll[i].c.must(t, http.StatusOK, "POST", "/job/open-sample", map[string]string{"fileName": "Portal frame"}, nil)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, r := range roll {
		wg.Add(1)
		go func() { defer wg.Done(); r.loop(stop) }()
	}
	halt := sync.OnceFunc(func() { close(stop); wg.Wait() })
	defer halt()

	// Every client has done a round (and so has its reference reactions)
	// before the first replica goes.
	everyRound := func(after time.Time) func() (bool, error) {
		return func() (bool, error) {
			for i, r := range roll {
				if !r.roundSince(after) {
					return len(l.failures()) > 0, fmt.Errorf("client %d has not finished a round since %s", i, after.Format(time.TimeOnly))
				}
			}
			return true, nil
		}
	}
	waitFor(t, rollLimit, "every client to finish a round", everyRound(time.Time{}))

	began := time.Now()
	served := make([]time.Time, len(apis))
	for i, id := range apis {
		restarted := time.Now()
		docker(t, "restart", id)
		stopped := time.Since(restarted)
		healthy := waitFor(t, rollLimit, "api "+id[:12]+" healthy again", func() (bool, error) {
			out, err := stk.run("inspect", "-f", "{{.State.Health.Status}}", id)
			return strings.TrimSpace(out) == "healthy", err
		})
		served[i] = restarted
		figure(t, "rolling restart: api %s: docker restart %v, then healthy after %v", id[:12], stopped.Round(time.Millisecond), healthy.Round(time.Millisecond))
	}
	ended := time.Now()
	// The load carries on over the replicas as they now are.
	waitFor(t, rollLimit, "every client to finish a round after the restarts", everyRound(ended))
	halt()

	for _, f := range l.failures() {
		t.Errorf("%s", f)
	}
	// Every replica is back in the rotation: it served the scenario's
	// clients after its restart (nginx resolves the name again every 10 s
	// and a restarted container keeps its address).
	for i, id := range apis {
		n := 0
		for _, line := range strings.Split(logsSince(t, id, served[i]), "\n") {
			if strings.Contains(line, `"msg":"request"`) && strings.Contains(line, `"workspace":"roll-`) {
				n++
			}
		}
		if n == 0 {
			t.Errorf("api %s served none of the clients' requests after its restart", id[:12])
		}
		figure(t, "rolling restart: api %s served %d requests after its restart", id[:12], n)
	}
	// What nginx did about the stopping replicas: a request whose
	// connection was refused went to the other replica; one cut off after
	// it reached a replica was passed on only if idempotent, else it
	// answered 502 (counted above).
	proxy := proxyErrors(t, began)
	figure(t, "rolling restart: nginx passed %d requests to the other replica after connection refused; %d upstream connections cut after the request was sent; %d other upstream errors",
		proxy.refused, proxy.cut, proxy.other)
	var checked int
	for i, r := range roll {
		checked += r.verify(t, i)
	}
	during := func(a answer) bool { return !a.at.Before(began) && !a.at.After(ended) }
	fivexx := l.count(func(a answer) bool { return a.status >= 500 })
	if fivexx != 0 {
		t.Errorf("%d answers were 5xx, want none", fivexx)
	}
	figure(t, "rolling restart: %d clients, %d requests answered during the restarts (%v), %d in all; 5xx %d; retries: %d after no answer, %d after 502, %d after 503; confirmed rows checked %d",
		rollClients, l.count(during), ended.Sub(began).Round(time.Millisecond), l.count(func(answer) bool { return true }), fivexx,
		l.count(noAnswer), l.count(func(a answer) bool { return a.status == http.StatusBadGateway }), l.count(is503), checked)
}

// roller is one client of the rolling restart: in its own workspace, it
// adds nodes with fixed supports, reads them back, runs a linear static
// analysis and reads its reactions, round after round.
type roller struct {
	c *client
	l *ledger
	// ref is the reaction summary of its first run: later runs must
	// match it, since the nodes added are supported and unloaded.
	ref []summaryRow

	mu        sync.Mutex
	next      int64     // the next node id
	roundEnd  time.Time // when the last round ended
	confirmed []int64   // the nodes (and supports) known to be stored
}

// summaryRow is a row of the static reaction summary.
type summaryRow struct {
	LoadCase    int     `json:"loadCase"`
	SummaryType string  `json:"summaryType"`
	Fx          float64 `json:"fx"`
	Fy          float64 `json:"fy"`
	Fz          float64 `json:"fz"`
	Mx          float64 `json:"mx"`
	My          float64 `json:"my"`
	Mz          float64 `json:"mz"`
}

func (r *roller) loop(stop <-chan struct{}) {
	r.next = rollFirstID
	for {
		select {
		case <-stop:
			return
		default:
		}
		if err := r.round(); err != nil {
			r.l.fail(err.Error())
			return
		}
		r.mu.Lock()
		r.roundEnd = time.Now()
		r.mu.Unlock()
	}
}

// round is one round of work; an error is the scenario failing.
func (r *roller) round() error {
	lo := r.next
	nodes := make([]map[string]any, rollBatch)
	supports := make([]map[string]any, rollBatch)
	for i := range nodes {
		id := lo + int64(i)
		nodes[i] = map[string]any{"id": id, "x": id, "y": 0, "z": 5}
		supports[i] = map[string]any{"node": id, "restraintCode": "FFFFFF"}
	}
	for _, coll := range []struct {
		path  string
		items []map[string]any
	}{{"/job/structure/nodes/bulk", nodes}, {"/job/structure/node-restraints/bulk", supports}} {
		if err := r.create(coll.path, coll.items); err != nil {
			return err
		}
	}
	r.mu.Lock()
	for i := range rollBatch {
		r.confirmed = append(r.confirmed, lo+int64(i))
	}
	r.next += rollBatch
	r.mu.Unlock()

	var back []model.Node
	if err := r.get(fmt.Sprintf("/job/structure/nodes?nodes=%d-%d", lo, lo+rollBatch-1), &back); err != nil {
		return err
	}
	if len(back) != rollBatch {
		return fmt.Errorf("nodes %d-%d read back just after they were confirmed: %d of %d", lo, lo+rollBatch-1, len(back), rollBatch)
	}
	if err := r.analyse(); err != nil {
		return err
	}
	// A save writes the job file on the volume the replicas share: the
	// slowest request of the round, so the likeliest to be in flight when
	// a replica is told to stop. Not repeated on any failure. The first
	// save creates the file (201), the next ones replace it (200).
	if a := r.l.do(r.c, "POST", "/job/save", map[string]any{"filePath": "rolling", "overwrite": true}); a.status != http.StatusCreated && a.status != http.StatusOK {
		return fmt.Errorf("%s", a)
	}
	return nil
}

// create sends a bulk create of explicit ids, retrying where that is safe:
// no answer, or a 502 or 503. A retry refused as a duplicate means an
// earlier attempt stored the batch (all or nothing, ids of this client's
// own).
func (r *roller) create(path string, items []map[string]any) error {
	for attempt := 0; ; attempt++ {
		a := r.l.do(r.c, "POST", path, items)
		switch {
		case a.status == http.StatusOK:
			return nil
		case attempt > 0 && a.status == http.StatusConflict && a.code == "DUPLICATE_ENTITY":
			return nil
		case !safeRetry(a) || attempt >= 5:
			return fmt.Errorf("%s", a)
		}
		time.Sleep(time.Duration(100<<attempt) * time.Millisecond)
	}
}

// get reads path into out, retrying as create does (a GET is safe to
// repeat).
func (r *roller) get(path string, out any) error {
	for attempt := 0; ; attempt++ {
		a := r.l.do(r.c, "GET", path, nil)
		switch {
		case a.status == http.StatusOK:
			return json.Unmarshal(a.body, out)
		case !safeRetry(a) || attempt >= 5:
			return fmt.Errorf("%s", a)
		}
		time.Sleep(time.Duration(100<<attempt) * time.Millisecond)
	}
}

// safeRetry is an answer an idempotent request may be sent again after:
// no answer, or a 502 or 503. Every 5xx still counts against the
// scenario; retrying only lets the client carry on, so that one failure
// does not hide the rest.
func safeRetry(a answer) bool {
	return noAnswer(a) || a.status == http.StatusBadGateway || a.status == http.StatusServiceUnavailable
}

// analyse runs a linear static analysis and compares its reaction summary
// with the first run's. Starting a run is not repeated on any failure: a
// second POST could start a second run.
func (r *roller) analyse() error {
	a := r.l.do(r.c, "POST", "/job/analysis/static/run-linear", nil)
	if a.status != http.StatusAccepted {
		return fmt.Errorf("%s", a)
	}
	var run model.Run
	if err := json.Unmarshal(a.body, &run); err != nil {
		return err
	}
	deadline := time.Now().Add(rollLimit)
	for !run.Status.Finished() {
		if time.Now().After(deadline) {
			return fmt.Errorf("run %s still %s after %v", run.RunID, run.Status, rollLimit)
		}
		time.Sleep(pollEvery)
		if err := r.get("/job/analysis/runs/"+run.RunID, &run); err != nil {
			return err
		}
	}
	if run.Status != model.RunCompleted {
		return fmt.Errorf("run %s ended %s: %s", run.RunID, run.Status, run.ErrorMessage)
	}
	var sum struct {
		Results []summaryRow `json:"results"`
	}
	if err := r.get("/job/query/analysis/static/reaction-summary", &sum); err != nil {
		return err
	}
	if r.ref == nil {
		r.ref = sum.Results
		return nil
	}
	return sameSummary(r.ref, sum.Results)
}

// sameSummary compares two reaction summaries of the sample with more
// supported, unloaded nodes: the added supports carry nothing, so the
// rows match to 1e-9 of the largest value (a direct solver's rounding
// with the equations in another order is far smaller).
func sameSummary(want, got []summaryRow) error {
	if len(want) != len(got) {
		return fmt.Errorf("reaction summary: %d rows, the first run had %d", len(got), len(want))
	}
	big := 0.0
	for _, w := range want {
		for _, v := range []float64{w.Fx, w.Fy, w.Fz, w.Mx, w.My, w.Mz} {
			big = math.Max(big, math.Abs(v))
		}
	}
	for i, w := range want {
		g := got[i]
		d := []float64{g.Fx - w.Fx, g.Fy - w.Fy, g.Fz - w.Fz, g.Mx - w.Mx, g.My - w.My, g.Mz - w.Mz}
		for _, v := range d {
			if g.LoadCase != w.LoadCase || g.SummaryType != w.SummaryType || math.Abs(v) > 1e-9*big {
				return fmt.Errorf("reaction summary row %d: %+v, the first run had %+v", i, g, w)
			}
		}
	}
	return nil
}

// roundSince reports whether a round ended after t.
func (r *roller) roundSince(t time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.roundEnd.After(t)
}

// verify reads the client's nodes and supports at the end and checks that
// every confirmed one is there; it returns how many rows it checked.
func (r *roller) verify(t *testing.T, i int) int {
	t.Helper()
	var nodes []model.Node
	var supports []model.NodeRestraint
	r.c.must(t, http.StatusOK, "GET", "/job/structure/nodes", nil, &nodes)
	r.c.must(t, http.StatusOK, "GET", "/job/structure/node-restraints", nil, &supports)
	have := map[int64]model.Node{}
	for _, n := range nodes {
		have[n.ID] = n
	}
	fixed := map[int64]bool{}
	for _, s := range supports {
		fixed[s.Node] = s.RestraintCode == "FFFFFF"
	}
	missing := 0
	for _, id := range r.confirmed {
		if n, ok := have[id]; !ok || n.X != float64(id) || n.Z != 5 || !fixed[id] {
			missing++
			if missing <= 5 {
				t.Errorf("client %d: node %d was confirmed with its support, and at the end is %+v (present %v, fixed %v)", i, id, n, ok, fixed[id])
			}
		}
	}
	if missing > 0 {
		t.Errorf("client %d: %d of %d confirmed nodes or supports are missing", i, missing, len(r.confirmed))
	}
	return 2 * len(r.confirmed)
}

// execWorkspace creates a workspace and a key with gusset-admin run in a
// running api container (docker exec, which has REDIS_URL): well under a
// second each, where stk.workspace's `docker-compose run` starts a
// container for each command, several seconds on a loaded machine, and
// the scenario needs sixteen.
func execWorkspace(t *testing.T, api, name string) *client {
	t.Helper()
	admin := func(args ...string) string {
		out, err := stk.run(append([]string{"exec", api, "/usr/local/bin/gusset-admin"}, args...)...)
		if err != nil {
			t.Fatalf("gusset-admin %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	admin("workspace", "create", name)
	for _, line := range strings.Split(admin("key", "create", "--workspace", name, "--label", "compose test"), "\n") {
		if strings.HasPrefix(line, "gsk_") {
			return &client{base: stk.base, key: strings.TrimSpace(line), http: stk.http}
		}
	}
	t.Fatalf("gusset-admin key create printed no key")
	return nil
}

// upstreamErrors counts nginx's complaints about the API replicas by
// cause.
type upstreamErrors struct {
	refused, cut, other int
}

// proxyErrors reads nginx's error log since a moment and counts its
// upstream errors.
func proxyErrors(t *testing.T, since time.Time) upstreamErrors {
	t.Helper()
	id := stk.containers(t, "proxy")[0]
	var e upstreamErrors
	for _, line := range strings.Split(logsSince(t, id, since), "\n") {
		switch {
		case !strings.Contains(line, "[error]") || !strings.Contains(line, "upstream"):
		case strings.Contains(line, "Connection refused") && strings.Contains(line, "while connecting to upstream"):
			e.refused++
		case strings.Contains(line, "while reading response header from upstream"),
			strings.Contains(line, "while sending request to upstream"):
			e.cut++
		default:
			e.other++
		}
	}
	return e
}
