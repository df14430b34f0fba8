package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/editor"
)

// TestCascadingDeletesFinishUnderConcurrentWriters checks that a planned
// multi-row change completes while many single-row writers keep the model
// revision moving. A cascading delete reads the members and plates, then
// commits only if the revision did not move; with optimistic retries alone
// 48 writers made it fail with 409 "kept changing" most of the time, after
// up to 20 s. Each delete must now answer 200 within 2 s (the fairness
// requirement) and remove the members at the node.
func TestCascadingDeletesFinishUnderConcurrentWriters(t *testing.T) {
	if testing.Short() {
		t.Skip("48 concurrent writers")
	}
	const writers, victims, perVictim = 48, 12, 3
	e := newEnv(t, envOptions{})
	e.must(200, "POST", "/job/new", nil)
	e.must(201, "POST", sp+"/materials", map[string]any{"name": "steel", "youngsModulus": 200000, "poissonsRatio": 0.3})
	e.must(201, "POST", sp+"/sections", map[string]any{"name": "box", "a": 1e4, "j": 2e8, "iy": 1e8, "iz": 1e8, "ay": 5e3, "az": 5e3})
	// Victim nodes 1..12, each joined by members to three nodes of its own.
	var nodes []map[string]any
	for i := 1; i <= victims*(1+perVictim); i++ {
		nodes = append(nodes, map[string]any{"id": i, "x": float64(i), "y": 0, "z": 0})
	}
	e.must(200, "POST", sp+"/nodes/bulk", nodes)
	var members []map[string]any
	for v := 1; v <= victims; v++ {
		for j := 1; j <= perVictim; j++ {
			members = append(members, map[string]any{"nodeA": v, "nodeB": victims + (v-1)*perVictim + j, "section": 1, "material": 1})
		}
	}
	e.must(200, "POST", sp+"/members/bulk", members)

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: writers + 1}}
	send := func(ctx context.Context, method, path string, body any) (int, []byte, error) {
		var rd io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
		req, err := http.NewRequestWithContext(ctx, method, e.base+path, rd)
		if err != nil {
			return 0, nil, err
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := client.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		return res.StatusCode, b, err
	}

	// The writers: each creates nodes with ids of its own and moves them,
	// so every write commits and bumps the revision.
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var writes atomic.Int64
	failures := make(chan string, writers)
	for w := range writers {
		wg.Go(func() {
			for i := int64(0); ctx.Err() == nil; i++ {
				id := 1_000_000 + int64(w)*1_000_000 + i
				status, body, err := send(ctx, "POST", sp+"/nodes", map[string]any{"id": id, "x": 1, "y": float64(w), "z": float64(i)})
				if ctx.Err() != nil {
					return
				}
				if err != nil || status != 201 {
					failures <- fmt.Sprintf("writer %d: create node %d: %d %v %.200s", w, id, status, err, body)
					return
				}
				writes.Add(1)
				if status, body, err = send(ctx, "PATCH", fmt.Sprintf("%s/nodes/%d", sp, id), map[string]any{"x": 2}); ctx.Err() == nil && (err != nil || status != 200) {
					failures <- fmt.Sprintf("writer %d: move node %d: %d %v %.200s", w, id, status, err, body)
					return
				}
				writes.Add(1)
			}
		})
	}
	// Let the writers get going before the first delete, and measure
	// their pace.
	warm := time.Now()
	for deadline := warm.Add(10 * time.Second); writes.Load() < 4*writers && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	before := writes.Load()
	pace := float64(before) / time.Since(warm).Seconds() // writes per second
	deletes := time.Now()
	var slowest time.Duration
	for v := 1; v <= victims; v++ {
		start := time.Now()
		dctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		status, body, err := send(dctx, "DELETE", fmt.Sprintf("%s/nodes/%d", sp, v), nil)
		cancel()
		took := time.Since(start)
		slowest = max(slowest, took)
		if err != nil || status != 200 {
			t.Errorf("delete node %d under %d writers: %d %v %.300s (after %v)", v, writers, status, err, body, took)
			continue
		}
		if took > 2*time.Second {
			t.Errorf("delete node %d took %v under %d writers; want at most 2 s", v, took, writers)
		}
		var res editor.DeleteResult
		if err := json.Unmarshal(body, &res); err != nil || len(res.Members) != perVictim {
			t.Errorf("delete node %d removed members %v (%v), want %d", v, res.Members, err, perVictim)
		}
	}
	during := writes.Load() - before
	phase := time.Since(deletes)
	stop()
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	// Starvation shows as no write in a phase long enough for several at
	// the writers' own pace; a phase quicker than that proves nothing
	// either way (the deletes simply won).
	if expected := pace * phase.Seconds(); during == 0 && expected >= 5 {
		t.Errorf("no write committed while the deletes ran (%v; %.0f expected at the writers' pace): the writers were starved instead", phase, expected)
	}
	t.Logf("%d deletes under %d writers in %v: slowest %v; %d writes committed meanwhile (%.0f/s before)", victims, writers, phase, slowest, during, pace)
}
