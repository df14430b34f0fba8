package redisstore_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// TestPublishWithRows: the model rows of a publish (the Step load cases
// of a non-linear run) land with the results in one transaction: written
// and removed, the revision moved on and the job modified, the results
// kept. A row of another kind is refused before anything is written.
func TestPublishWithRows(t *testing.T) {
	ctx := context.Background()
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	jobs := redisstore.NewJobs(rdb, []string{model.CollLoadCases})
	runs, res, mdl := redisstore.NewRuns(rdb), redisstore.NewResults(rdb), redisstore.NewModel(rdb)
	row := func(id int64, stepOf int64) store.Row {
		raw, _ := json.Marshal(model.LoadCase{ID: id, Title: "case", StepOf: stepOf})
		return store.Row{Key: store.Key(id), Value: raw}
	}
	snap := store.Snapshot{Job: model.NewJob(), Collections: map[string][]store.Row{
		model.CollLoadCases: {row(1, 0), row(7, 1)}}}
	if _, err := jobs.Open(ctx, "w", snap, openState()); err != nil {
		t.Fatal(err)
	}
	if err := runs.Start(ctx, "w", model.Run{RunID: "r", Status: model.RunRunning}); err != nil {
		t.Fatal(err)
	}
	_, before, err := jobs.Job(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	set := store.ResultSet{Meta: json.RawMessage(`{"cases":[]}`), Columns: map[string][]byte{"c": {1, 2, 3}}}
	complete := func(r *model.Run) { r.Status = model.RunCompleted }
	raw8, _ := json.Marshal(model.LoadCase{ID: 8, Title: "step", StepOf: 1})

	for _, bad := range []store.Op{
		{Kind: store.OpCreate, Coll: model.CollLoadCases, Key: store.Key(8), Value: raw8},
		{Kind: store.OpPut, Coll: model.CollLoadCases, Key: store.Key(1, 2), Value: raw8},
	} {
		err := res.Publish(ctx, "w", "r", store.AnyAttempt, model.AnalysisFamily("static"), set, nil, []store.Op{bad}, complete)
		if err == nil {
			t.Fatalf("row %c %s accepted", bad.Kind, bad.Key)
		}
		if meta, _ := res.Meta(ctx, "w", model.AnalysisFamily("static")); meta != nil {
			t.Fatalf("refused publish wrote results: %s", meta)
		}
		if run, _ := runs.Run(ctx, "w", "r"); run.Status != model.RunRunning {
			t.Fatalf("refused publish ended the run: %s", run.Status)
		}
	}

	rows := []store.Op{
		{Kind: store.OpPut, Coll: model.CollLoadCases, Key: store.Key(8), Value: raw8},
		{Kind: store.OpDeleteIfAny, Coll: model.CollLoadCases, Key: store.Key(7)},
	}
	if err := res.Publish(ctx, "w", "r", store.AnyAttempt, model.AnalysisFamily("static"), set, nil, rows, complete); err != nil {
		t.Fatal(err)
	}
	got, err := mdl.Get(ctx, "w", model.CollLoadCases, store.Key(1), store.Key(7), store.Key(8))
	if err != nil {
		t.Fatal(err)
	}
	if got[0] == nil || got[1] != nil || string(got[2]) != string(raw8) {
		t.Errorf("load cases 1, 7, 8 after the publish: %q", got)
	}
	_, after, err := jobs.Job(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	if after.Rev != before.Rev+1 || !after.State.IsModified {
		t.Errorf("revision %d → %d, modified %v: want one step on, modified", before.Rev, after.Rev, after.State.IsModified)
	}
	if meta, _ := res.Meta(ctx, "w", model.AnalysisFamily("static")); meta == nil {
		t.Error("the rows cleared the results they came with")
	}
	if cols, err := res.Columns(ctx, "w", model.AnalysisFamily("static"), "c"); err != nil || string(cols[0]) != "\x01\x02\x03" {
		t.Errorf("column c = %q, %v", cols, err)
	}
	if h, _ := runs.Holder(ctx, "w"); h != "" {
		t.Errorf("lock still held by %q", h)
	}
}
