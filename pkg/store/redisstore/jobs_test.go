package redisstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
	"github.com/gusset/gusset/pkg/testutil/redistest"
)

func newStore(t *testing.T, colls ...string) (*redisstore.Jobs, *redistest.Server) {
	t.Helper()
	srv := redistest.Start(t)
	return redisstore.NewJobs(srv.Client(t), colls), srv
}

func openState() model.State {
	now := time.Now().UTC()
	return model.State{IsNew: true, OpenedAt: &now, File: model.FileInfo{Source: model.SourceNewJob}}
}

func TestOpenCloseAndWorkspaces(t *testing.T) {
	ctx := context.Background()
	s, srv := newStore(t, "nodes")
	snap := store.Snapshot{Job: model.NewJob(), Collections: map[string][]store.Row{
		"nodes": {{Key: store.Key(2), Value: json.RawMessage(`{"x":2}`)}, {Key: store.Key(1), Value: json.RawMessage(`{"x":1}`)}},
	}}
	snap.Job.Headings.Heading = "A"
	if _, err := s.Open(ctx, "alpha", snap, openState()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, "alpha", store.Snapshot{Job: model.NewJob()}, openState()); model.KindOf(err) != model.KindJobAlreadyOpen {
		t.Fatalf("second open: %v, want JobAlreadyOpen", err)
	}
	// Another workspace has its own slot.
	if _, _, err := s.Job(ctx, "beta"); model.KindOf(err) != model.KindNoJobOpen {
		t.Fatalf("beta job: %v, want NoJobOpen", err)
	}
	if _, err := s.Open(ctx, "beta", store.Snapshot{Job: model.NewJob()}, openState()); err != nil {
		t.Fatal(err)
	}
	counts, _ := s.Counts(ctx, "beta")
	if counts["nodes"] != 0 {
		t.Errorf("beta sees alpha's nodes: %v", counts)
	}
	got, _, err := s.Snapshot(ctx, "alpha")
	if err != nil {
		t.Fatal(err)
	}
	if got.Job.Headings.Heading != "A" || len(got.Collections["nodes"]) != 2 || got.Collections["nodes"][0].Key != store.Key(1) {
		t.Errorf("snapshot = %+v (rows must come back in score order)", got)
	}
	// A job file with an unknown collection or a malformed key is refused
	// before anything is written.
	for _, bad := range []map[string][]store.Row{
		{"nodes:ids": {{Key: store.Key(1), Value: json.RawMessage(`{}`)}}},
		{"nodes": {{Key: "zzz", Value: json.RawMessage(`{}`)}}},
		{"nodes": {{Key: store.Key(1), Value: json.RawMessage(`"hello"`)}}},
		// Keys of different lengths in one collection would hide rows from
		// the sub-load index that numbering relies on.
		{"nodes": {{Key: store.Key(1), Value: json.RawMessage(`{}`)}, {Key: store.Key(1, 1, 5), Value: json.RawMessage(`{}`)}}},
	} {
		if _, err := s.Open(ctx, "gamma", store.Snapshot{Job: model.NewJob(), Collections: bad}, openState()); model.KindOf(err) != model.KindValidation {
			t.Errorf("open with %v: %v, want a validation error", bad, err)
		}
	}
	if sl, _ := s.Slot(ctx, "gamma"); sl.State.IsOpen {
		t.Error("a refused job file left a job open")
	}
	// Every key is under its workspace's hash tag.
	keys, _ := redistest.Keys(ctx, srv.Client(t), "*")
	for _, k := range keys {
		if !workspaceKey.MatchString(k) {
			t.Errorf("key %q is not scoped by workspace", k)
		}
	}
	before, err := s.Close(ctx, "alpha")
	if err != nil || !before.State.IsOpen {
		t.Fatalf("close: %+v %v", before, err)
	}
	if n, _ := srv.Client(t).Exists(ctx, "{ws:alpha}:m:nodes", "{ws:alpha}:m:nodes:ids", "{ws:alpha}:job").Result(); n != 0 {
		t.Errorf("close left %d model keys", n)
	}
	if sl, err := s.Close(ctx, "alpha"); err != nil || sl.State.IsOpen {
		t.Errorf("second close: %+v %v", sl, err)
	}
	if _, _, err := s.Job(ctx, "beta"); err != nil {
		t.Errorf("closing alpha affected beta: %v", err)
	}
	if _, err := s.Slot(ctx, "bad:name"); model.KindOf(err) != model.KindValidation {
		t.Errorf("workspace with a colon: %v", err)
	}
}

// Concurrent updates from many clients lose nothing: each bumps the
// revision once and each change lands.
func TestConcurrentUpdatesAreAtomic(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	sl, err := s.Open(ctx, "w", store.Snapshot{Job: model.NewJob()}, openState())
	if err != nil {
		t.Fatal(err)
	}
	const n = 40
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, _, err := s.Update(ctx, "w", func(j *model.Job) error {
				j.Headings.Notes += fmt.Sprintf("[%d]", i)
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	job, after, err := s.Job(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	if after.Rev != sl.Rev+n {
		t.Errorf("rev %d after %d updates from %d", after.Rev, n, sl.Rev)
	}
	for i := 0; i < n; i++ {
		if !contains(job.Headings.Notes, fmt.Sprintf("[%d]", i)) {
			t.Errorf("update %d was lost", i)
		}
	}
	if !after.State.IsModified {
		t.Error("updates did not mark the job modified")
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestUpdateErrorsChangeNothing(t *testing.T) {
	ctx := context.Background()
	s, srv := newStore(t)
	sl, _ := s.Open(ctx, "w", store.Snapshot{Job: model.NewJob()}, openState())
	_, _, err := s.Update(ctx, "w", func(j *model.Job) error {
		j.Headings.Heading = "half"
		return model.Invalid("heading", "no")
	})
	if model.KindOf(err) != model.KindValidation {
		t.Fatalf("err = %v", err)
	}
	job, after, _ := s.Job(ctx, "w")
	if job.Headings.Heading != "" || after.Rev != sl.Rev || after.State.IsModified {
		t.Errorf("a failed update changed the job: %+v %+v", job, after)
	}
	// While an analysis holds the lock, the model is read-only.
	srv.Client(t).Set(ctx, "{ws:w}:lock", "run-1", 0)
	if _, _, err := s.Update(ctx, "w", func(*model.Job) error { return nil }); model.KindOf(err) != model.KindAnalysisInProgress {
		t.Errorf("update under the analysis lock: %v", err)
	}
	if _, err := s.Clear(ctx, "w"); model.KindOf(err) != model.KindAnalysisInProgress {
		t.Errorf("clear under the analysis lock: %v", err)
	}
	if sl, _ := s.Slot(ctx, "w"); !sl.Analysing {
		t.Error("slot does not report the analysis")
	}
}

func TestMarkSavedKeepsLaterChangesModified(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	s.Open(ctx, "w", store.Snapshot{Job: model.NewJob()}, openState())
	_, sl, _ := s.Snapshot(ctx, "w")
	file := model.FileInfo{Name: "a", Path: "a.gsj", Source: model.SourceLocalFile}
	after, err := s.MarkSaved(ctx, "w", file, sl.Rev)
	if err != nil || after.State.IsModified || after.State.IsNew || after.State.File != file {
		t.Fatalf("mark saved at the current rev: %+v %v", after, err)
	}
	_, sl, _ = s.Snapshot(ctx, "w")
	s.Update(ctx, "w", func(j *model.Job) error { j.Headings.Notes = "later"; return nil })
	after, _ = s.MarkSaved(ctx, "w", file, sl.Rev)
	if !after.State.IsModified {
		t.Error("a change made during the save was marked saved")
	}
}

func TestErrorLogIsCapped(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	if err := s.AppendError(ctx, "w", store.ErrorRecord{Message: "no job"}); err != nil {
		t.Fatalf("append with no job: %v", err)
	}
	s.Open(ctx, "w", store.Snapshot{Job: model.NewJob()}, openState())
	recs, _ := s.Errors(ctx, "w")
	if len(recs) != 0 {
		t.Fatalf("an error logged with no job open leaked into the next job: %v", recs)
	}
	for i := 0; i < store.MaxErrorRecords+5; i++ {
		s.AppendError(ctx, "w", store.ErrorRecord{Message: fmt.Sprint(i)})
	}
	recs, _ = s.Errors(ctx, "w")
	if len(recs) != store.MaxErrorRecords || recs[0].Message != "5" {
		t.Errorf("log has %d records starting at %q", len(recs), recs[0].Message)
	}
}

// Large collections load in chunks and come back whole.
func TestLargeSnapshotRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, "nodes")
	rows := make([]store.Row, 12345)
	for i := range rows {
		rows[i] = store.Row{Key: store.Key(int64(i + 1)), Value: json.RawMessage(fmt.Sprintf(`{"id":%d}`, i+1))}
	}
	if _, err := s.Open(ctx, "w", store.Snapshot{Job: model.NewJob(), Collections: map[string][]store.Row{"nodes": rows}}, openState()); err != nil {
		t.Fatal(err)
	}
	got, _, err := s.Snapshot(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Collections["nodes"]) != len(rows) || got.Collections["nodes"][12344].Key != store.Key(12345) {
		t.Fatalf("got %d rows", len(got.Collections["nodes"]))
	}
	counts, _ := s.Counts(ctx, "w")
	if counts["nodes"] != int64(len(rows)) {
		t.Errorf("count %d", counts["nodes"])
	}
	if _, err := s.Clear(ctx, "w"); err != nil {
		t.Fatal(err)
	}
	counts, _ = s.Counts(ctx, "w")
	job, _, _ := s.Job(ctx, "w")
	if counts["nodes"] != 0 || job.Units != model.DefaultUnits() {
		t.Errorf("after clear: counts %v units %+v", counts, job.Units)
	}
}

// The analysis settings are stored as the analyses wrote them, and read
// back byte for byte: the store does not interpret them (an earlier
// record's drillingStiffness 0 is read as 1 by the analyses:
// analysis.TestStoredZeroDrillingStiffnessReadsAsOne).
func TestAnalysisSettingsStoredAsWritten(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	job := model.NewJob()
	job.Analysis["static"] = json.RawMessage(`{"drillingStiffness":0}`)
	job.Analysis["dynamicFrequency"] = json.RawMessage(`{"drillingStiffness":2.5}`)
	if _, err := s.Open(ctx, "w", store.Snapshot{Job: job}, openState()); err != nil {
		t.Fatal(err)
	}
	got, _, err := s.Job(ctx, "w")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Analysis, job.Analysis) {
		t.Errorf("analysis settings read back as %s, want %s", got.Analysis, job.Analysis)
	}
}

// workspaceKey matches a key under a workspace's hash tag.
var workspaceKey = regexp.MustCompile(`^\{ws:[^:{}]+\}:`)
