//go:build capacity

package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/testutil/peak"
)

// combinedBodyLimit is MAX_BODY_BYTES of TestCapacityCombined: large
// enough for every scenario's uploads (the 1000-case grid-7 template is
// 2.7 MB), small enough that the stalled-upload scenario fills a's share
// of the body budget quickly.
const combinedBodyLimit = 8 << 20

// combinedRedisMemory is the maxmemory of TestCapacityCombined's Redis:
// room for the 1000-case run's results (about 210 MB) with a's and b's
// models beside them.
const combinedRedisMemory = 512 << 20

// combinedWorkerMemory is the workers' WORKER_MEMORY in
// TestCapacityCombined: room for the 1000-case grid-7 run of finding 6
// (an estimate of 1255 MiB), not for grid-30 (finding 3) or grid-6 with
// 3,000 cases (finding 4, about 0.75 MiB a case).
// combinedWorkerLimit is their hard limit, as a container's would be:
// the budget and the worker's own memory, the model it reads and the
// estimate's error (README, Sizing).
const (
	combinedWorkerMemory = 1536 << 20
	combinedWorkerLimit  = 2 << 30
)

// combinedAPIBound is the most resident memory the api may reach in
// TestCapacityCombined: the body budget (6 × MAX_BODY_BYTES here), the
// bounded reading of job files and result answers, and the Go runtime's
// own, with room for a loaded machine (README, Limits).
const combinedAPIBound = 768 << 20

// TestCapacityCombined is the capacity suite in one: while workspace a
// runs each scenario of the capacity review in turn (c is their
// bystander where one needs one), workspace b runs the README's
// portal-frame session (open the sample, run a linear analysis, read the
// node displacements, close) in a loop. Each of b's runs must complete
// with results equal to those of an undisturbed run before the
// scenarios, no process may exit, and the api's and the workers'
// resident memory must stay under their bounds. b's request latencies
// are printed (p50, p99) for the record, not asserted: the target, p99
// under 1 s, is for an idle machine.
func TestCapacityCombined(t *testing.T) {
	s := startCapStack(t, capOptions{Workers: 2, APIEnv: bodyshareEnv(combinedBodyLimit),
		RedisArgs:       []string{"--maxmemory", fmt.Sprint(combinedRedisMemory), "--maxmemory-policy", "noeviction"},
		WorkerEnv:       []string{fmt.Sprintf("WORKER_MEMORY=%d", combinedWorkerMemory)},
		WorkerHardLimit: combinedWorkerLimit})
	want, _, err := portalSession(s, "b")
	if err != nil {
		t.Fatalf("b's undisturbed session: %v", err)
	}
	loop := startPortalLoop(s, "b", want)
	peaks := startRSSPeaks(s)

	scenarios := []struct {
		name string
		run  func()
	}{
		{"workspace limits", func() { attackWorkspaceLimits(s, "c") }},
		{"finding 1: a job file's results entry declaring 1000 MiB", func() { attackLargeResultsEntry(s, "c") }},
		{"finding 5: bulk creates that would fill Redis", func() { attackFillRedis(s, "c", combinedRedisMemory) }},
		{"finding 9: a job file row of 63 MiB", func() { attackLongRow(s) }},
		{"finding 2: a result answer of 220 MB with no limit", func() { attackLargeAnswer(s) }},
		{"finding 2: a list of 500,000 nodes with no limit", func() { attackLargeList(s) }},
		{"finding 3: a model whose factor does not fit the worker", func() { attackMemory(s, "c", 30, 1, combinedWorkerMemory) }},
		{"finding 4: a small model with 3,000 load cases", func() { attackMemory(s, "c", 6, 3000, combinedWorkerMemory) }},
		{"finding 7: a stalled upload", func() { attackStalledUpload(s, "c", combinedBodyLimit) }},
		{"finding 8: a fan-out of 30 cases × 300 steps", func() { attackFanOut(s, "c") }},
		{"finding 6: a 1000-case run published on a busy machine", func() { attackLargePublish(s) }},
	}
	for _, sc := range scenarios {
		start, runs := time.Now(), loop.completed()
		sc.run()
		t.Logf("%s: done in %v; b completed %d sessions meanwhile", sc.name, time.Since(start).Round(time.Second), loop.completed()-runs)
		s.alive()
	}
	runs, failures, latencies := loop.stop()
	apiPeak, workerPeak := peaks.stop()
	s.alive()

	if runs == 0 {
		t.Error("b completed no session while the scenarios ran")
	}
	for _, f := range failures {
		t.Errorf("b's session: %s", f)
	}
	if apiPeak > combinedAPIBound {
		t.Errorf("the api's resident memory reached %s, over its bound %s", jobfileMiB(apiPeak), jobfileMiB(combinedAPIBound))
	}
	if workerPeak > combinedWorkerLimit {
		t.Errorf("a worker's resident memory reached %s, over its limit %s", jobfileMiB(workerPeak), jobfileMiB(combinedWorkerLimit))
	}
	t.Logf("b: %d sessions, %d requests: p50 %v, p99 %v, slowest %v; resident memory at most: api %s, a worker %s",
		runs, len(latencies), percentile(latencies, 0.50), percentile(latencies, 0.99), percentile(latencies, 1),
		jobfileMiB(apiPeak), jobfileMiB(workerPeak))
}

// portalSession is the README's portal-frame session as workspace ws:
// it returns the node displacements of every case and the latency of
// each request.
func portalSession(s *capStack, ws string) ([]byte, []time.Duration, error) {
	var lat []time.Duration
	call := func(want int, method, path, body string) ([]byte, error) {
		start := time.Now()
		st, b := s.json(ws, method, path, body)
		lat = append(lat, time.Since(start))
		if st != want {
			return nil, fmt.Errorf("%s %s: %d %.300s, want %d", method, path, st, b, want)
		}
		return b, nil
	}
	if _, err := call(200, "POST", "/job/open-sample", `{"fileName":"Portal frame"}`); err != nil {
		return nil, lat, err
	}
	// close runs whatever happened, so that the next session can open.
	defer func() { _, _ = call(200, "POST", "/job/close", "") }()
	b, err := call(202, "POST", "/job/analysis/static/run-linear", "")
	if err != nil {
		return nil, lat, err
	}
	var run model.Run
	if err := json.Unmarshal(b, &run); err != nil {
		return nil, lat, err
	}
	deadline := time.Now().Add(10 * time.Minute)
	for !run.Status.Finished() {
		if time.Now().After(deadline) {
			return nil, lat, fmt.Errorf("run %s still %s after 10 minutes", run.RunID, run.Status)
		}
		time.Sleep(20 * time.Millisecond)
		if b, err = call(200, "GET", "/job/analysis/runs/"+run.RunID, ""); err != nil {
			return nil, lat, err
		}
		if err := json.Unmarshal(b, &run); err != nil {
			return nil, lat, err
		}
	}
	if run.Status != model.RunCompleted {
		return nil, lat, fmt.Errorf("run %s ended %s: %q", run.RunID, run.Status, run.ErrorMessage)
	}
	if b, err = call(200, "GET", "/job/query/analysis/static/node-displacements", ""); err != nil {
		return nil, lat, err
	}
	var page struct {
		Results json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(b, &page); err != nil {
		return nil, lat, err
	}
	return page.Results, lat, nil
}

// portalLoop runs portalSession over and over until stopped.
type portalLoop struct {
	mu        sync.Mutex
	runs      int
	failures  []string
	latencies []time.Duration
	done      chan struct{}
	stopped   sync.WaitGroup
}

// startPortalLoop loops ws's session, each compared with want.
func startPortalLoop(s *capStack, ws string, want []byte) *portalLoop {
	l := &portalLoop{done: make(chan struct{})}
	l.stopped.Add(1)
	go func() {
		defer l.stopped.Done()
		for {
			select {
			case <-l.done:
				return
			default:
			}
			got, lat, err := portalSession(s, ws)
			l.mu.Lock()
			l.latencies = append(l.latencies, lat...)
			switch {
			case err != nil:
				l.failures = append(l.failures, err.Error())
			case !bytes.Equal(got, want):
				l.failures = append(l.failures, fmt.Sprintf("node displacements %.300s differ from the undisturbed run's %.300s", got, want))
			default:
				l.runs++
			}
			l.mu.Unlock()
		}
	}()
	return l
}

// completed is the number of sessions completed so far.
func (l *portalLoop) completed() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.runs
}

// stop ends the loop after its session under way and returns what it saw.
func (l *portalLoop) stop() (runs int, failures []string, latencies []time.Duration) {
	close(l.done)
	l.stopped.Wait()
	return l.runs, l.failures, l.latencies
}

// rssPeaks samples the resident memory of the api and of the workers
// (the largest of them) every 100 ms.
type rssPeaks struct{ api, worker *peak.Sampler }

// startRSSPeaks samples s's processes until stopped.
func startRSSPeaks(s *capStack) *rssPeaks {
	worker := func() (int64, bool) {
		var top int64
		for _, w := range s.workers {
			if n, ok := jobfileRSS(w.PID()); ok {
				top = max(top, n)
			}
		}
		return top, true
	}
	return &rssPeaks{
		api:    peak.Start(100*time.Millisecond, func() (int64, bool) { return jobfileRSS(s.api.PID()) }, 0, nil),
		worker: peak.Start(100*time.Millisecond, worker, 0, nil),
	}
}

// stop ends the sampling and returns the peaks.
func (p *rssPeaks) stop() (api, worker int64) { return p.api.Stop(), p.worker.Stop() }

// percentile returns the q-quantile of ds (1: the largest).
func percentile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q * float64(len(s)-1))
	return s[i].Round(time.Millisecond)
}
