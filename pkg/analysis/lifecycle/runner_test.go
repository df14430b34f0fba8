package lifecycle_test

import (
	"context"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/analysis/kinds"
	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

// A run cancelled while a worker takes its task ends Cancelled without
// being solved, and the workspace is free again; a task for a run the
// history no longer has is dropped; a task for a finished run does
// nothing.
func TestRunnerHonoursCancelBeforeStart(t *testing.T) {
	ctx := context.Background()
	r, runs := emptyJobRunner(t, "w")
	now := time.Now()

	if err := runs.Start(ctx, "w", model.Run{RunID: "r1", AnalysisType: model.AnalysisType("LinearStaticAnalysis"), Status: model.RunQueued, QueuedAt: now}); err != nil {
		t.Fatal(err)
	}
	if _, err := runs.Update(ctx, "w", "r1", store.AnyAttempt, func(run *model.Run) error { run.Status = model.RunCancelling; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := r.Run(ctx, lifecycle.Task{Workspace: "w", RunID: "r1", Kind: model.AnalysisType("LinearStaticAnalysis")}); err != nil {
		t.Fatalf("run: %v", err)
	}
	run, err := runs.Run(ctx, "w", "r1")
	if err != nil || run.Status != model.RunCancelled || run.CompletedAt == nil {
		t.Fatalf("run after the worker: %+v, %v", run, err)
	}
	if h, err := runs.Holder(ctx, "w"); h != "" || err != nil {
		t.Errorf("lock still held by %q (%v)", h, err)
	}
	for _, id := range []string{"r1", "gone"} {
		if err := r.Run(ctx, lifecycle.Task{Workspace: "w", RunID: id, Kind: model.AnalysisType("LinearStaticAnalysis")}); err != nil {
			t.Errorf("task for run %s: %v", id, err)
		}
	}
	if run2, _ := runs.Run(ctx, "w", "r1"); run2.Status != model.RunCancelled {
		t.Errorf("a second task changed a finished run: %s", run2.Status)
	}
}

// emptyJobRunner opens an empty job in workspace ws of a fresh
// redis-server and returns a Runner over it with the run store.
func emptyJobRunner(t *testing.T, ws string) (*lifecycle.Runner, *redisstore.Runs) {
	t.Helper()
	return emptyJobRunnerOn(t, redistest.Start(t), ws)
}

// emptyJobRunnerOn is emptyJobRunner on the redis-server srv (or a
// proxy in front of one).
func emptyJobRunnerOn(t *testing.T, srv redistest.Endpoint, ws string) (*lifecycle.Runner, *redisstore.Runs) {
	t.Helper()
	rdb := srv.Client(t)
	jobs := redisstore.NewJobs(rdb, editor.Collections())
	now := time.Now()
	if _, err := jobs.Open(context.Background(), ws, store.Snapshot{Job: model.NewJob()}, model.State{OpenedAt: &now}); err != nil {
		t.Fatal(err)
	}
	ed := editor.New(redisstore.NewModel(rdb), jobs)
	st := editor.NewStructure(ed)
	runs := redisstore.NewRuns(rdb)
	return &lifecycle.Runner{Kinds: kinds.StandardKinds(), Source: adapter.Source{Structure: st, Loads: editor.NewLoads(ed, st)}, Jobs: jobs, Runs: runs,
		Results: redisstore.NewResults(rdb)}, runs
}
