package redisstore_test

import (
	"context"
	"encoding/json"
	"maps"
	"testing"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// The bytes a workspace stores by family follow every way results are
// stored or deleted: a run's publish (its dropped columns included), a
// job file's results, a model change, a settings change, a clear and a
// close; another workspace's results are not counted. Each expected
// figure is the length of the meta record plus the columns' lengths.
func TestResultBytesFollowTheResults(t *testing.T) {
	ctx := context.Background()
	rdb := redistest.Start(t).Client(t)
	jobs := redisstore.NewJobs(rdb, []string{"nodes"})
	runs, res, mdl := redisstore.NewRuns(rdb), redisstore.NewResults(rdb), redisstore.NewModel(rdb)
	static, eigen := model.AnalysisFamily("static"), model.AnalysisFamily("eigen")
	meta := json.RawMessage(`{"cases":[]}`) // 12 bytes
	set := func(cols map[string]int) store.ResultSet {
		s := store.ResultSet{Meta: meta, Columns: map[string][]byte{}}
		for name, n := range cols {
			s.Columns[name] = make([]byte, n)
		}
		return s
	}
	publish := func(t *testing.T, ws string, kind model.AnalysisFamily, s store.ResultSet, drop ...string) {
		t.Helper()
		if err := runs.Start(ctx, ws, model.Run{RunID: "r-" + string(kind), Status: model.RunRunning}); err != nil {
			t.Fatal(err)
		}
		if err := res.Publish(ctx, ws, "r-"+string(kind), store.AnyAttempt, kind, s, drop, nil, func(r *model.Run) { r.Status = model.RunCompleted }); err != nil {
			t.Fatal(err)
		}
	}
	for _, ws := range []string{"w", "other"} {
		if _, err := jobs.Open(ctx, ws, store.Snapshot{Job: model.NewJob()}, openState()); err != nil {
			t.Fatal(err)
		}
	}
	publish(t, "other", static, set(map[string]int{"a": 5000}))

	steps := []struct {
		name string
		do   func(t *testing.T)
		want map[model.AnalysisFamily]int64
	}{
		{"no results", func(*testing.T) {}, map[model.AnalysisFamily]int64{}},
		{"a static run", func(t *testing.T) { publish(t, "w", static, set(map[string]int{"1:disp": 100, "nodes": 30})) },
			map[model.AnalysisFamily]int64{static: 12 + 100 + 30}},
		{"an eigen run besides", func(t *testing.T) { publish(t, "w", eigen, set(map[string]int{"1:modes": 7})) },
			map[model.AnalysisFamily]int64{static: 142, eigen: 12 + 7}},
		{"a static run dropping a case and adding one", func(t *testing.T) {
			publish(t, "w", static, set(map[string]int{"2:disp": 40}), "1:disp")
		}, map[model.AnalysisFamily]int64{static: 12 + 30 + 40, eigen: 19}},
		{"a model change deletes them", func(t *testing.T) {
			var b store.Batch
			b.Create("nodes", store.Key(1), []byte(`{"id":1}`))
			if _, err := mdl.Apply(ctx, "w", &b); err != nil {
				t.Fatal(err)
			}
		}, map[model.AnalysisFamily]int64{}},
		{"a job file's results", func(t *testing.T) {
			if _, err := jobs.Close(ctx, "w"); err != nil {
				t.Fatal(err)
			}
			snap := store.Snapshot{Job: model.NewJob(), Results: map[model.AnalysisFamily]store.ResultSet{
				static: set(map[string]int{"nodes": 64}), eigen: set(map[string]int{"x": 1})}}
			if _, err := jobs.Open(ctx, "w", snap, openState()); err != nil {
				t.Fatal(err)
			}
		}, map[model.AnalysisFamily]int64{static: 12 + 64, eigen: 12 + 1}},
		{"a change of the job settings deletes them", func(t *testing.T) {
			if _, _, err := jobs.Update(ctx, "w", func(j *model.Job) error {
				j.Settings.VerticalAxis = map[model.VerticalAxis]model.VerticalAxis{
					model.VerticalY: model.VerticalZ, model.VerticalZ: model.VerticalY}[j.Settings.VerticalAxis]
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}, map[model.AnalysisFamily]int64{}},
		{"clearing deletes them", func(t *testing.T) {
			publish(t, "w", static, set(map[string]int{"nodes": 8}))
			if _, err := jobs.Clear(ctx, "w"); err != nil {
				t.Fatal(err)
			}
		}, map[model.AnalysisFamily]int64{}},
		{"closing deletes them", func(t *testing.T) {
			publish(t, "w", static, set(map[string]int{"nodes": 8}))
			if _, err := jobs.Close(ctx, "w"); err != nil {
				t.Fatal(err)
			}
		}, map[model.AnalysisFamily]int64{}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			st.do(t)
			got, err := res.Bytes(ctx, "w")
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, st.want) {
				t.Fatalf("bytes %v, want %v", got, st.want)
			}
		})
	}
	if got, _ := res.Bytes(ctx, "other"); got[static] != 12+5000 {
		t.Errorf("the other workspace's bytes %v, want its own %d", got, 12+5000)
	}
}
