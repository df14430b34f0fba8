//go:build capacity

package main_test

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Finding 1 of the capacity review: a job file of 1 MB whose results
// entry expands to 1000 MiB, uploaded three times at once by workspace
// a. The api sized a buffer by the entry's declared size and read it
// whole: its resident memory went from 40 MiB to 3.0 GiB for one upload
// and 6.1 GiB for three, and b's GET /job/status took 7-30 s. Now no
// buffer is sized from a declared length, and the results of a file the
// service did not sign are never read: the file opens with its model
// only. The api's memory must grow by less than 300 MiB during and
// after the uploads, and b's status must answer throughout (its
// latency is logged, not asserted).
func TestCapacityJobFileLargeResultsEntry(t *testing.T) {
	attackLargeResultsEntry(startCapStack(t, capOptions{}), "b")
}

// attackLargeResultsEntry is finding 1 by workspace a, with by as the
// bystander whose status is read throughout.
func attackLargeResultsEntry(s *capStack, by string) {
	t := s.t
	t.Helper()
	file := jobfileZip(t, []jobfileEntry{jobfileManifest(), {name: "results/static/meta.json", data: []byte(`{}`)},
		jobfileZeros(t, "results/static/1:disp.bin", 1000)})
	t.Logf("the job file is %s; its results entry declares and expands to 1000 MiB", jobfileMiB(int64(len(file))))

	s.must(200, by, "POST", "/job/new", "")
	before := rss(t, s.api)
	const bound = 300 << 20
	// Past 1 GiB more the scenario has failed: the api is stopped there,
	// so that a build that fails it leaves the machine its memory.
	var killed atomic.Bool
	stopPeak := jobfilePeak(s.api.PID(), before+1<<30, func() { killed.Store(true); s.api.Kill() })

	uploading := make(chan struct{})
	var statusMu sync.Mutex
	var latencies []time.Duration
	var statusFailures []string
	var bDone sync.WaitGroup
	bDone.Add(1)
	go func() {
		defer bDone.Done()
		// At least one request, started with the uploads, then one every
		// 100 ms until they have all been answered.
		for {
			start := time.Now()
			st, body := s.json(by, "GET", "/job/status", "")
			statusMu.Lock()
			latencies = append(latencies, time.Since(start))
			if st != 200 {
				statusFailures = append(statusFailures, fmt.Sprintf("%d %.200s", st, body))
			}
			statusMu.Unlock()
			select {
			case <-uploading:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()

	type answer struct {
		status int
		body   string
		took   time.Duration
	}
	answers := make([]answer, 3)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			st, body := s.jobfileUpload("a", file)
			answers[i] = answer{st, string(body), time.Since(start)}
		}()
	}
	wg.Wait()
	close(uploading)
	bDone.Wait()
	peak := stopPeak()

	for i, a := range answers {
		t.Logf("upload %d: %d in %v: %.200s", i+1, a.status, a.took.Round(time.Millisecond), a.body)
	}
	var slowest time.Duration
	for _, l := range latencies {
		slowest = max(slowest, l)
	}
	t.Logf("api resident memory: %s before, %s at most during the uploads; %s's GET /job/status answered %d times, the slowest in %v",
		jobfileMiB(before), jobfileMiB(peak), by, len(latencies), slowest.Round(time.Millisecond))

	if killed.Load() {
		t.Fatalf("the api's resident memory grew by more than 1 GiB (from %s) during three uploads of a 1 MB job file: "+
			"stopped it (bound %s)", jobfileMiB(before), jobfileMiB(bound))
	}
	if grew := peak - before; grew > bound {
		t.Errorf("the api's resident memory grew by %s during three uploads of a 1 MB job file, more than %s",
			jobfileMiB(grew), jobfileMiB(bound))
	}
	s.alive()
	if after := rss(t, s.api); after-before > bound {
		t.Errorf("after the uploads the api holds %s more than before, more than %s", jobfileMiB(after-before), jobfileMiB(bound))
	}
	if len(latencies) == 0 || len(statusFailures) > 0 {
		t.Errorf("%s's GET /job/status during the uploads: %d answers, failures %q", by, len(latencies), statusFailures)
	}
	opened := 0
	for _, a := range answers {
		switch {
		case a.status == 200:
			opened++
			if !strings.Contains(a.body, "results were not opened") {
				t.Errorf("the upload opened without a warning that its results were not: %.300s", a.body)
			}
		case a.status == 409 && strings.Contains(a.body, "JOB_ALREADY_OPEN"):
			// Another of the three opened first.
		default:
			t.Errorf("upload: %d %.300s, want 200 (the model only) or 409 (a job already open)", a.status, a.body)
		}
	}
	if opened != 1 {
		t.Errorf("%d of the three uploads opened, want 1", opened)
	}
	for _, ws := range []string{"a", by} {
		s.must(200, ws, "POST", "/job/close", "")
	}
}
