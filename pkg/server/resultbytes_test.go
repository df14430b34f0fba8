package server

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/analysis/kinds"
	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/httpapi"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
	"github.com/gusset/gusset/pkg/store/redisstore"
)

// storedResultBytes reads GET /job/status's storage.
func (s *stack) storedResultBytes() httpapi.WorkspaceStorage {
	s.t.Helper()
	var st httpapi.Status
	s.must(200, "GET", "/job/status", nil).decode(s.t, &st)
	return st.Storage
}

// estimateResultBytes is what the kind of type kind estimates for a run
// with the open job's stored settings.
func (s *stack) estimateResultBytes(kind model.AnalysisType) int64 {
	s.t.Helper()
	ctx := context.Background()
	jobs := redisstore.NewJobs(s.redis.Client(s.t), editor.Collections())
	counts, err := jobs.Counts(ctx, store.DefaultWorkspace)
	if err != nil {
		s.t.Fatal(err)
	}
	job, _, err := jobs.Job(ctx, store.DefaultWorkspace)
	if err != nil {
		s.t.Fatal(err)
	}
	k := kinds.StandardKinds().Kind(kind)
	settings, err := k.Family().Settings(job.Analysis)
	if err != nil {
		s.t.Fatal(err)
	}
	// The cases a run may analyse: the model's, Step cases left out, as
	// the API admits a run.
	var cases []model.LoadCase
	s.must(200, "GET", "/job/loads/load-cases", nil).decode(s.t, &cases)
	var ids []int64
	for _, c := range cases {
		if c.StepOf == 0 {
			ids = append(ids, c.ID)
		}
	}
	return k.ResultBytes(settings, analysis.Admission{Cases: ids, Counts: counts})
}

// Each kind's estimate of its results, which MAX_RESULT_BYTES is held
// against before a run is queued, is at least what the run stores and
// not far above it, on the samples (frames, plates, Step cases, modes).
// The store's count (GET /job/status storage.resultBytes) is the length
// of every stored column and meta record; the estimate counts the
// columns exactly for the model's rows and allows 512 bytes of meta per
// case (about 250 used) and a reaction row per restraint, so it may pass
// the stored bytes by those allowances: the bound below is 25 % plus
// 1 KiB per case.
func TestResultBytesEstimates(t *testing.T) {
	s := startStack(t, 1)
	for _, tc := range []struct {
		name, sample, family, run string
		kind                      model.AnalysisType
		settings                  map[string]any
	}{
		{"linear static of a frame", "Multi-storey frame", "static", "static/run-linear", "LinearStaticAnalysis", nil},
		{"linear static of plates", "Flat slab on columns", "static", "static/run-linear", "LinearStaticAnalysis", nil},
		{"non-linear keeping Step cases", "Portal frame", "static", "static/run-non-linear", "NonLinearStaticAnalysis",
			map[string]any{"theory": "Small", "loadSteps": 3, "keepLoadSteps": true}},
		// The eigen runs name their cases: the sample's cases 5-10 are
		// combinations, which they refuse (and the estimate, reading
		// counts only, would count), and case 3 has no mass.
		{"buckling", "Multi-storey frame", "buckling", "buckling/run", "BucklingAnalysis",
			map[string]any{"modes": 3, "loadCases": "1-4"}},
		{"dynamic frequency", "Multi-storey frame", "dynamic-frequency", "dynamic-frequency/run", "DynamicFrequencyAnalysis",
			map[string]any{"modes": 4, "loadCases": "1-2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s.t = t
			s.call("POST", "/job/close", nil)
			s.must(200, "POST", "/job/open-sample", map[string]any{"fileName": tc.sample})
			if tc.settings != nil {
				s.must(200, "PATCH", "/job/analysis/"+tc.family+"/settings", tc.settings)
			}
			estimate := s.estimateResultBytes(tc.kind)
			var run model.Run
			s.must(202, "POST", "/job/analysis/"+tc.run, nil).decode(t, &run)
			if done := s.wait(run.RunID); done.Status != model.RunCompleted {
				t.Fatalf("run ended %s: %s", done.Status, done.ErrorMessage)
			}
			stored := s.storedResultBytes().ResultBytes
			var info model.ResultsInfo
			s.must(200, "GET", "/job/analysis/"+tc.family+"/info", nil).decode(t, &info)
			var cases int64
			for _, c := range info.LoadCases {
				if c.HasResults {
					cases++
				}
			}
			t.Logf("estimate %d bytes, stored %d for %d cases", estimate, stored, cases)
			if stored <= 0 || estimate < stored || estimate > stored+stored/4+cases<<10 {
				t.Errorf("estimate %d bytes, stored %d for %d cases: want at least the stored bytes, at most 25 %% + 1 KiB a case more",
					estimate, stored, cases)
			}
		})
	}
	s.t = t
}

// A run whose estimated results would pass the workspace's resultBytes
// limit (MAX_RESULT_BYTES) is refused with a 403 LIMIT_EXCEEDED naming
// the limit and its value, before anything is queued;
// GET /job/status shows the bytes stored and the limit, and results of
// another family count against it.
func TestMaxResultBytes(t *testing.T) {
	s := startStack(t, 1)
	s.must(200, "POST", "/job/open-sample", map[string]any{"fileName": "Multi-storey frame"})
	static := s.estimateResultBytes("LinearStaticAnalysis")
	s.must(200, "PATCH", "/job/analysis/dynamic-frequency/settings", map[string]any{"modes": 4})
	dynamic := s.estimateResultBytes("DynamicFrequencyAnalysis")

	// A limit the static results fit, with room for three quarters of the
	// four-mode dynamic ones besides (one mode takes about a quarter: the
	// mode shapes are most of it).
	limit := static + dynamic*3/4
	s2 := startStackWith(t, 1, Config{Limits: model.Limits{ResultBytes: limit}}, io.Discard)
	s2.must(200, "POST", "/job/open-sample", map[string]any{"fileName": "Multi-storey frame"})
	s2.must(200, "PATCH", "/job/analysis/dynamic-frequency/settings", map[string]any{"modes": 4})
	if st := s2.storedResultBytes(); st.ResultBytes != 0 || st.MaxResultBytes != limit {
		t.Fatalf("status storage before any run %+v, want 0 of %d", st, limit)
	}
	run := s2.run(nil)
	if done := s2.wait(run.RunID); done.Status != model.RunCompleted {
		t.Fatalf("static run ended %s: %s", done.Status, done.ErrorMessage)
	}
	stored := s2.storedResultBytes().ResultBytes
	if stored <= 0 || stored > static {
		t.Fatalf("stored %d bytes after the static run, estimated %d", stored, static)
	}
	r := s2.call("POST", "/job/analysis/dynamic-frequency/run", nil)
	want := []string{"LIMIT_EXCEEDED", "resultBytes", "MAX_RESULT_BYTES", model.FormatCount(limit, true)}
	for _, w := range want {
		if r.status != 403 || !strings.Contains(string(r.body), w) {
			t.Fatalf("dynamic run over the limit: %d %s, want 403 naming %s", r.status, r.body, w)
		}
	}
	var runs []model.Run
	s2.must(200, "GET", "/job/analysis/runs", nil).decode(t, &runs)
	if len(runs) != 1 {
		t.Errorf("%d runs recorded, want the static one only: the refused run must not be queued", len(runs))
	}
	// The static family's own results do not count against a static run:
	// it replaces them.
	run = s2.run(nil)
	if done := s2.wait(run.RunID); done.Status != model.RunCompleted {
		t.Fatalf("second static run ended %s: %s", done.Status, done.ErrorMessage)
	}
	// Fewer modes fit.
	if r := s2.call("POST", "/job/analysis/dynamic-frequency/run", map[string]any{"modes": 1}); r.status != 202 {
		t.Errorf("dynamic run of one mode: %d %s, want 202", r.status, r.body)
	}
}
