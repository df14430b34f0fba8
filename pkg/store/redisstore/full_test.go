package redisstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// fullStores are the stores of one Redis that a test fills up.
type fullStores struct {
	jobs *redisstore.Jobs
	mdl  *redisstore.Model
	runs *redisstore.Runs
	res  *redisstore.Results
	fan  *redisstore.FanOut
}

// fillRedis creates 256 rows of 4 KiB (1 MiB) in workspace ws, then gives
// srv a maxmemory a quarter of that below what it uses: Redis is full, for
// a write of any size, and clearing ws brings it back under its limit.
// Before it sets the limit it calls then, which may store what the rows
// would have deleted (results). It returns the first id not created.
func fillRedis(t *testing.T, ctx context.Context, srv *redistest.Server, st fullStores, ws string, then func()) int64 {
	t.Helper()
	value := fmt.Appendf(nil, `{"pad":%q}`, strings.Repeat("x", 4<<10))
	const rows = 256
	for id := int64(1); id <= rows; id += 64 {
		var b store.Batch
		for i := id; i < id+64; i++ {
			b.Create("nodes", store.Key(i), value)
		}
		if _, err := st.mdl.Apply(ctx, ws, &b); err != nil {
			t.Fatal(err)
		}
	}
	then()
	srv.SetMaxMemory(t, -rows*4<<10/4)
	return rows + 1
}

// A Redis at its maxmemory with the noeviction policy answered every
// write, and POST /job/close, with an internal error (issue 35, finding
// 5). Now a write it refuses is KindStorageFull in every store, reads go
// on, and what frees storage works: deleting rows, ending a run (which
// drops the analysis lock), clearing and closing a job.
func TestFullRedisRefusesWritesAndFrees(t *testing.T) {
	ctx := context.Background()
	srv := redistest.StartSingle(t)
	rdb := srv.Client(t)
	st := fullStores{jobs: redisstore.NewJobs(rdb, []string{"nodes", "members"}), mdl: redisstore.NewModel(rdb),
		runs: redisstore.NewRuns(rdb), res: redisstore.NewResults(rdb), fan: redisstore.NewFanOut(rdb)}
	family := model.AnalysisFamily("static")
	for _, ws := range []string{"a", "b"} {
		if _, err := st.jobs.Open(ctx, ws, store.Snapshot{Job: model.NewJob()}, openState()); err != nil {
			t.Fatal(err)
		}
	}
	// a holds results; b has a run in progress, holding its lock.
	set := store.ResultSet{Meta: json.RawMessage(`{"cases":[]}`), Columns: map[string][]byte{"c": make([]byte, 64<<10)}}
	filled := fillRedis(t, ctx, srv, st, "a", func() {
		if err := st.runs.Start(ctx, "a", model.Run{RunID: "ra", Status: model.RunRunning}); err != nil {
			t.Fatal(err)
		}
		if err := st.res.Publish(ctx, "a", "ra", store.AnyAttempt, family, set, nil, nil, func(r *model.Run) { r.Status = model.RunCompleted }); err != nil {
			t.Fatal(err)
		}
		if err := st.runs.Start(ctx, "b", model.Run{RunID: "rb", Status: model.RunRunning}); err != nil {
			t.Fatal(err)
		}
	})

	refused := []struct {
		name string
		do   func() error
	}{
		{"create a row in the workspace that filled Redis", func() error {
			var b store.Batch
			b.Create("nodes", store.Key(filled+1000), []byte(`{"id":1}`))
			_, err := st.mdl.Apply(ctx, "a", &b)
			return err
		}},
		{"create a row in another workspace", func() error {
			var b store.Batch
			b.Create("nodes", store.Key(1), []byte(`{"id":1}`))
			_, err := st.mdl.Apply(ctx, "c-never-opened", &b)
			if model.KindOf(err) == model.KindNoJobOpen {
				// No job: then open one, which writes.
				_, err = st.jobs.Open(ctx, "c", store.Snapshot{Job: model.NewJob()}, openState())
			}
			return err
		}},
		{"update the job record", func() error {
			_, _, err := st.jobs.Update(ctx, "a", func(j *model.Job) error { j.Headings.Heading = "h"; return nil })
			return err
		}},
		{"start a run", func() error {
			return st.runs.Start(ctx, "a", model.Run{RunID: "ra2", Status: model.RunRunning})
		}},
		{"stage a fanned-out case", func() error { return st.fan.Stage(ctx, "b", "rb", 1, set) }},
		{"publish results", func() error {
			return st.res.Publish(ctx, "b", "rb", store.AnyAttempt, family, set, nil, nil, func(r *model.Run) { r.Status = model.RunCompleted })
		}},
	}
	for _, tc := range refused {
		t.Run("refused/"+tc.name, func(t *testing.T) {
			err := tc.do()
			if model.KindOf(err) != model.KindStorageFull || !strings.Contains(err.Error(), "storage is full") {
				t.Fatalf("%v, want KindStorageFull saying the storage is full", err)
			}
		})
	}
	reads := []struct {
		name string
		do   func() error
	}{
		{"snapshot (a save)", func() error { _, _, err := st.jobs.Snapshot(ctx, "a"); return err }},
		{"results view", func() error {
			return st.res.View(ctx, "a", family, func(meta json.RawMessage, cols func(...string) ([][]byte, error)) error {
				c, err := cols("c")
				if err == nil && len(c[0]) != len(set.Columns["c"]) {
					err = fmt.Errorf("column of %d bytes, want %d", len(c[0]), len(set.Columns["c"]))
				}
				return err
			})
		}},
		{"page of rows", func() error { _, err := st.mdl.Page(ctx, "a", "nodes", nil, 0, 10); return err }},
	}
	for _, tc := range reads {
		t.Run("read/"+tc.name, func(t *testing.T) {
			if err := tc.do(); err != nil {
				t.Fatal(err)
			}
		})
	}
	// Saving, before a close frees the job: the file is written by the
	// session, the store marks the job saved.
	t.Run("save", func(t *testing.T) {
		before, err := st.jobs.Slot(ctx, "a")
		if err != nil {
			t.Fatal(err)
		}
		sl, err := st.jobs.MarkSaved(ctx, "a", model.FileInfo{Path: "full.gsj"}, before.Rev)
		if err != nil {
			t.Fatal(err)
		}
		after, _ := st.jobs.Slot(ctx, "a")
		if sl.State.IsModified || after.State.IsModified || after.State.File.Path != "full.gsj" {
			t.Fatalf("slot after the save %+v, want saved as full.gsj and not modified", after.State)
		}
	})
	// Freeing, in an order where each step runs while Redis is still full.
	t.Run("free/delete rows under the write lease", func(t *testing.T) {
		// A cascade of deletes takes the lease first.
		token, err := st.mdl.Lease(ctx, "a", "")
		if err != nil {
			t.Fatal(err)
		}
		defer st.mdl.Release(ctx, "a", token)
		b := store.Batch{Lease: token}
		b.Delete("nodes", store.Key(1))
		b.Delete("nodes", store.Key(2))
		if _, err := st.mdl.Apply(ctx, "a", &b); err != nil {
			t.Fatal(err)
		}
		if got, _ := st.mdl.Exists(ctx, "a", "nodes", store.Key(1)); got[0] {
			t.Fatal("row 1 still there")
		}
	})
	t.Run("free/end a run, dropping its lock", func(t *testing.T) {
		if _, err := st.runs.Update(ctx, "b", "rb", store.AnyAttempt, func(r *model.Run) error { r.Status = model.RunFailed; return nil }); err != nil {
			t.Fatal(err)
		}
		if h, _ := st.runs.Holder(ctx, "b"); h != "" {
			t.Fatalf("lock still held by %q", h)
		}
	})
	t.Run("free/close another job", func(t *testing.T) {
		if _, err := st.jobs.Close(ctx, "b"); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("free/clear the job that filled Redis", func(t *testing.T) {
		before, _ := st.jobs.Slot(ctx, "a")
		sl, err := st.jobs.Clear(ctx, "a")
		if err != nil {
			t.Fatal(err)
		}
		if !sl.State.IsModified || sl.Rev != before.Rev+1 {
			t.Fatalf("slot after clear %+v (rev before %d), want modified at the next revision", sl, before.Rev)
		}
		if meta, _ := st.res.Meta(ctx, "a", family); meta != nil {
			t.Fatal("results survived the clear")
		}
	})
	t.Run("writes work again", func(t *testing.T) {
		// UNLINK frees a large collection in the background: Redis is
		// back under its limit once that is done, at once on an idle
		// machine, so the wait is a safety net for a loaded one.
		deadline := time.Now().Add(time.Minute)
		for {
			var b store.Batch
			b.Create("nodes", store.Key(1), []byte(`{"id":1}`))
			_, err := st.mdl.Apply(ctx, "a", &b)
			if err == nil {
				break
			}
			if model.KindOf(err) != model.KindStorageFull || time.Now().After(deadline) {
				t.Fatal(err)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if _, err := st.jobs.Close(ctx, "a"); err != nil {
			t.Fatal(err)
		}
	})
}
