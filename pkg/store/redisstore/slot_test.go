package redisstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// crc16 is the CRC-16/XMODEM checksum (polynomial 0x1021, initial 0)
// Redis Cluster hashes keys with.
func crc16(s string) uint16 {
	var crc uint16
	for i := 0; i < len(s); i++ {
		crc ^= uint16(s[i]) << 8
		for b := 0; b < 8; b++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// keySlot is the cluster hash slot of key: of its hash tag (the text
// between the first '{' and the next '}', when not empty), else of the
// whole key.
func keySlot(key string) int {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			key = key[i+1 : i+1+j]
		}
	}
	return int(crc16(key) % 16384)
}

func TestKeySlotMatchesRedis(t *testing.T) {
	// The check value of CRC-16/XMODEM, and slots CLUSTER KEYSLOT gives.
	if got := crc16("123456789"); got != 0x31c3 {
		t.Fatalf("crc16 check value %#x, want 0x31c3", got)
	}
	for key, want := range map[string]int{"foo": 12182, "{user1000}.following": 3443, "{user1000}.followers": 3443,
		"foo{}{bar}": 8363, "foo{{bar}}zap": 4015, "foo{bar}{zap}": 5061} {
		if got := keySlot(key); got != want {
			t.Errorf("slot of %q: %d, want %d", key, got, want)
		}
	}
}

// Every key that the operations of a workspace write lies in the slot of
// its hash tag, so that the transactions and scripts spanning them run on
// one Redis Cluster node. The test drives each kind of write (open, model
// changes by script and by WATCH/MULTI, the write lease, the error log, a
// fanned-out run, results) and looks at every key on the server after
// each; under GUSSET_TEST_REDIS=cluster it also asks the cluster for the
// slots.
func TestEveryKeyOfAWorkspaceIsInOneSlot(t *testing.T) {
	ctx := context.Background()
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	colls := []string{"nodes", model.CollLoadCases}
	jobs := redisstore.NewJobs(rdb, colls)
	mdl, runs, res, fan := redisstore.NewModel(rdb), redisstore.NewRuns(rdb), redisstore.NewResults(rdb), redisstore.NewFanOut(rdb)

	seen := map[string]bool{}
	look := func(step string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		keys, err := redistest.Keys(ctx, rdb, "*")
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			seen[k] = true
		}
	}
	for _, ws := range []string{"w", "other-ws"} {
		snap := store.Snapshot{Job: model.NewJob(), Collections: map[string][]store.Row{
			"nodes": {{Key: store.Key(1), Value: json.RawMessage(`{"id":1}`)}}}}
		_, err := jobs.Open(ctx, ws, snap, openState())
		look("open", err)
		token, err := mdl.Lease(ctx, ws, "")
		look("lease", err)
		b := &store.Batch{Lease: token}
		b.Create("nodes", store.Key(2), []byte(`{"id":2}`))
		b.Put("nodes", store.Key(2, 1), []byte(`{"sub":1}`)) // a composite key: the :last index
		_, err = mdl.Apply(ctx, ws, b)
		look("apply by script", err)
		slot, err := jobs.Slot(ctx, ws)
		look("slot", err)
		big := &store.Batch{ExpectRev: slot.Rev, Lease: token}
		for i := 10; i < 310; i++ {
			big.Create("nodes", store.Key(int64(i)), fmt.Appendf(nil, `{"id":%d}`, i))
		}
		_, err = mdl.Apply(ctx, ws, big)
		look("apply by WATCH/MULTI", err)
		look("append error", jobs.AppendError(ctx, ws, store.ErrorRecord{Status: 500, Message: "x"}))
		look("start run", runs.Start(ctx, ws, model.Run{RunID: "r1", Status: model.RunRunning}))
		look("fan out", fan.Begin(ctx, ws, "r1", store.AnyAttempt, []int64{1, 2}))
		look("stage", fan.Stage(ctx, ws, "r1", 1, store.ResultSet{Meta: json.RawMessage(`{}`), Columns: map[string][]byte{"d": {1}}}))
		look("publish", res.Publish(ctx, ws, "r1", store.AnyAttempt, model.AnalysisFamily("static"),
			store.ResultSet{Meta: json.RawMessage(`{"cases":[]}`), Columns: map[string][]byte{"d": {1, 2}}}, nil, nil,
			func(r *model.Run) { r.Status = model.RunCompleted }))
		look("start second run", runs.Start(ctx, ws, model.Run{RunID: "r2", Status: model.RunRunning}))
	}

	// Each kind of key appeared, so the operations above covered them.
	for _, want := range []string{"job", "rev", "errors", "lock", "lease", `w:[0-9a-f]+`, "m:nodes", "m:nodes:ids",
		"m:nodes:last", "runs", "run:r1", "run:r2", "run:r1:pending", "run:r1:stage", "res:static:meta",
		"res:static:c:d", "res:keys"} {
		re := regexp.MustCompile(`^\{ws:w\}:` + want + `$`)
		found := false
		for k := range seen {
			found = found || re.MatchString(k)
		}
		if !found {
			t.Errorf("no key {ws:w}:%s was written: the test no longer covers it", want)
		}
	}
	cc, _ := rdb.(*redis.ClusterClient)
	for k := range seen {
		ws := ""
		if rest, ok := strings.CutPrefix(k, "{ws:"); ok {
			ws, _, _ = strings.Cut(rest, "}")
		}
		if ws == "" {
			t.Errorf("key %q is not under a workspace hash tag", k)
			continue
		}
		want := keySlot(redisstore.WorkspaceKey(ws, "job"))
		if got := keySlot(k); got != want {
			t.Errorf("key %q is in slot %d, its workspace's job in %d", k, got, want)
		}
		if cc != nil {
			if got, err := cc.ClusterKeySlot(ctx, k).Result(); err != nil || int(got) != want {
				t.Errorf("CLUSTER KEYSLOT %q = %d, %v; want %d", k, got, err, want)
			}
		}
	}
	if keySlot(redisstore.WorkspaceKey("w", "job")) == keySlot(redisstore.WorkspaceKey("other-ws", "job")) {
		t.Log("both workspaces share a slot: the test still checks each key, but not that they are apart")
	}
}
