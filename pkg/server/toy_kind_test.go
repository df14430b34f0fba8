package server

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/analysis"
	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/analysis/kinds"
	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	results "github.com/gusset/gusset/pkg/analysis/query"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// A toy analysis kind, defined wholly in this file, registered beside
// the standard kinds: it runs through the same routes, queue, worker
// lifecycle, result store, queries and job files as they do, with
// nothing outside this file knowing it. Its analysis is statics a person
// can check by hand: for each load case, the sum of the node loads along
// the global axes, times the run's factor.

// toySettings is the toy family's settings record.
type toySettings struct {
	Factor    float64 `json:"factor" min:"0" exclusive:"true" doc:"multiplies the totals"`
	LoadCases string  `json:"loadCases" doc:"id list of the cases to total; empty: all"`
}

// Validate implements analysis.Settings.
func (s toySettings) Validate() error {
	var fields []model.FieldError
	if !(s.Factor > 0) || math.IsInf(s.Factor, 0) {
		fields = append(fields, model.FieldError{Field: "factor", Message: fmt.Sprintf("factor must be a finite number greater than 0, got %g", s.Factor)})
	}
	if _, _, err := model.ParseIDList("loadCases", s.LoadCases); err != nil {
		fields = append(fields, model.FieldError{Field: "loadCases", Message: err.Error()})
	}
	return model.FieldsError(fields)
}

// toyRow is a row of the toy's one query.
type toyRow struct {
	LoadCase int64   `json:"loadCase"`
	Fx       float64 `json:"fx" unit:"force" doc:"total of the node loads along global X"`
	Fy       float64 `json:"fy" unit:"force" doc:"total along global Y"`
	Fz       float64 `json:"fz" unit:"force" doc:"total along global Z"`
}

// toyMeta is the meta record of the toy's results; the column "totals"
// holds [loadCase, Fx, Fy, Fz] per case, as little-endian float64.
type toyMeta struct {
	Rev   int64   `json:"rev"`
	Cases []int64 `json:"cases"`
}

// toyWidth is the number of values of a row of the totals column.
const toyWidth = 4

// decodeToy reads a stored toy result set: its meta and its rows.
func decodeToy(meta []byte, totals []byte) (toyMeta, []toyRow, error) {
	var m toyMeta
	if err := json.Unmarshal(meta, &m); err != nil {
		return m, nil, fmt.Errorf("toy meta: %w", err)
	}
	if len(totals) != 8*toyWidth*len(m.Cases) {
		return m, nil, model.E(model.KindValidation, "the totals column holds %d bytes, not %d cases", len(totals), len(m.Cases))
	}
	rows := make([]toyRow, len(m.Cases))
	for i := range rows {
		v := func(k int) float64 {
			return math.Float64frombits(binary.LittleEndian.Uint64(totals[8*(toyWidth*i+k):]))
		}
		rows[i] = toyRow{LoadCase: int64(v(0)), Fx: v(1), Fy: v(2), Fz: v(3)}
		if rows[i].LoadCase != m.Cases[i] {
			return m, nil, model.E(model.KindValidation, "row %d is of case %d, not %d", i, rows[i].LoadCase, m.Cases[i])
		}
	}
	return m, rows, nil
}

// toyFamily is the toy's family: its settings, results and query.
var toyFamily = &analysis.Family{
	Name: "node-totals", QueryDir: "node-totals", Noun: "node load totals", SettingsName: "NodeTotalsSettings",
	SettingsDoc: "factor multiplies every total.", SettingsKey: "nodeTotals", Default: toySettings{Factor: 1},
	QueryDoc: "One row per load case.",
	Queries: []analysis.ResultQuery{analysis.NewResultQuery(analysis.ResultQuery{Name: "case-totals", Summary: "Node load totals",
		Doc: "Global axes.", Filters: []string{"loadCases"}},
		func(q *results.Query, ctx context.Context, ws string, f results.Filter) (results.Page[toyRow], error) {
			var page results.Page[toyRow]
			err := q.Results.View(ctx, ws, "node-totals", func(meta json.RawMessage, cols func(...string) ([][]byte, error)) error {
				page = results.Page[toyRow]{}
				if meta == nil {
					return model.E(model.KindConflict, "the job has no node load totals: run them first")
				}
				c, err := cols("totals")
				if err != nil {
					return err
				}
				_, rows, err := decodeToy(meta, c[0])
				for _, r := range rows {
					if f.LoadCases == nil || f.LoadCases.Contains(r.LoadCase) {
						page.Rows = append(page.Rows, r)
					}
				}
				page.Total = int64(len(page.Rows))
				lo := min(f.Offset, page.Total)
				hi := page.Total
				if f.Limit >= 0 {
					hi = min(lo+f.Limit, page.Total)
				}
				page.Rows = page.Rows[lo:hi]
				return err
			})
			return page, err
		})},
	Cases: func(meta []byte) ([]model.CaseResultsInfo, error) {
		var m toyMeta
		if err := json.Unmarshal(meta, &m); err != nil {
			return nil, err
		}
		out := make([]model.CaseResultsInfo, len(m.Cases))
		for i, lc := range m.Cases {
			out[i] = model.CaseResultsInfo{LoadCase: lc, HasResults: true}
		}
		return out, nil
	},
	Check: func(set store.ResultSet, _ map[string][]store.Row) error {
		_, _, err := decodeToy(set.Meta, set.Columns["totals"])
		return err
	},
}

// toyKind totals the node loads of each load case.
type toyKind struct{}

var _ analysis.Kind = toyKind{}

func (toyKind) Type() model.AnalysisType { return "NodeLoadTotalsAnalysis" }
func (toyKind) Family() *analysis.Family { return toyFamily }
func (toyKind) Describe() string         { return "node load totals" }
func (toyKind) Start() analysis.StartRoute {
	return analysis.StartRoute{Path: "node-totals/run", Summary: "Total the node loads"}
}

// Check refuses a factor above 100: a rule of the run, not of the
// stored settings.
func (toyKind) Check(s analysis.Settings) error {
	if ts, ok := s.(toySettings); !ok || ts.Factor > 100 {
		return model.Invalid("factor", "a run multiplies the totals by at most 100")
	}
	return nil
}

// ResultBytes is a column of one 8-byte total per load case, and a meta
// record of at most 1 KiB.
func (toyKind) ResultBytes(_ analysis.Settings, a analysis.Admission) int64 {
	return 1<<10 + 8*int64(len(a.Cases))
}

// toySteps are the steps of a toy run; the last is storing the results.
var toySteps = []string{"Reading the model", "Adding up", "Storing results"}

func (toyKind) Run(ctx context.Context, r *lifecycle.Runner, t lifecycle.Task) error {
	return r.Execute(ctx, t, toySteps, func(ctx context.Context, job model.Job, p *lifecycle.Progress) (lifecycle.Publisher, error) {
		s, err := analysis.RunSettings[toySettings](toyFamily, t, job)
		if err != nil {
			return nil, err
		}
		list, some, _ := model.ParseIDList("loadCases", s.LoadCases)
		in, err := adapter.Build(ctx, r.Source, t.Workspace, job.Settings)
		if err != nil {
			return nil, err
		}
		p.Stage(1, 0)
		meta := toyMeta{}
		var col []byte
		for _, lc := range in.Model.LoadCases {
			id := lc.ID
			if some && !list.Contains(id) {
				continue
			}
			row := [toyWidth]float64{float64(id)}
			for _, nl := range lc.NodeLoads {
				for k := range 3 {
					row[1+k] += s.Factor * nl.F[k]
				}
			}
			for _, v := range row {
				col = binary.LittleEndian.AppendUint64(col, math.Float64bits(v))
			}
			meta.Cases = append(meta.Cases, id)
		}
		p.Cases(len(meta.Cases), len(meta.Cases), 0)
		return func(ctx context.Context, rev int64, complete lifecycle.Completion) error {
			meta.Rev = rev
			raw, err := json.Marshal(meta)
			if err != nil {
				return err
			}
			return r.Publish(ctx, t, toyFamily.Name, store.ResultSet{Meta: raw, Columns: map[string][]byte{"totals": col}}, nil, nil, complete)
		}, nil
	})
}

// TestToyKindRunsEndToEnd registers the toy kind and drives it as a
// client would: settings, a run with an override, the results info, the
// query with filters and paging, its metadata, and a job file that keeps
// settings and results.
func TestToyKindRunsEndToEnd(t *testing.T) {
	reg := kinds.StandardKinds()
	reg.Register(toyKind{})
	s := startStackWith(t, 1, Config{Kinds: reg}, io.Discard)
	proppedCantilever(s)
	// Node loads in kN (a new job's force unit): by hand, case 1 totals
	// Fx = 3, Fy = −10; case 2 totals Fy = −4 − 6 = −10 (the load on the
	// supported node counts too), Fz = 2.
	for _, l := range []map[string]any{{"loadCase": 1, "node": 2, "fx": 3, "fy": -10}, {"loadCase": 2, "node": 2, "fy": -4},
		{"loadCase": 2, "node": 1, "fy": -6, "fz": 2}} {
		s.must(201, "POST", "/job/loads/node-loads", l)
	}
	const base = "/job/analysis/node-totals"

	var set toySettings
	s.must(200, "GET", base+"/settings", nil).decode(t, &set)
	if set != (toySettings{Factor: 1}) {
		t.Errorf("default settings %+v, want factor 1", set)
	}
	if r := s.call("PATCH", base+"/settings", map[string]any{"factor": 0}); r.status != 400 || !strings.Contains(string(r.body), "factor") {
		t.Errorf("factor 0 = %d %s, want a 400 naming factor", r.status, r.body)
	}
	s.must(200, "PATCH", base+"/settings", map[string]any{"factor": 2}).decode(t, &set)
	if set.Factor != 2 {
		t.Errorf("patched settings %+v", set)
	}
	// The kind's own run rule answers before anything is queued.
	if r := s.call("POST", base+"/run", map[string]any{"factor": 500}); r.status != 400 || !strings.Contains(string(r.body), "at most 100") {
		t.Errorf("factor 500 = %d %s, want the kind's 400", r.status, r.body)
	}

	// A run with an override: the stored factor 2 is replaced by 0.5.
	var run model.Run
	s.must(202, "POST", base+"/run", map[string]any{"factor": 0.5}).decode(t, &run)
	done := s.wait(run.RunID)
	if done.Status != model.RunCompleted || done.AnalysisType != "NodeLoadTotalsAnalysis" ||
		!strings.HasPrefix(done.Header, "NODE LOAD TOTALS") || done.Progress.CurrentStep != len(toySteps) {
		t.Fatalf("run %+v", done)
	}

	var info model.ResultsInfo
	s.must(200, "GET", base+"/info", nil).decode(t, &info)
	if !info.HasResults || len(info.LoadCases) != 3 || info.NotAnalyzed != "3" {
		// Case 3 is a combination: the engine model has it as a
		// combination, not a load case, so the toy does not total it.
		t.Errorf("info %+v, want cases 1 and 2 analysed and 3 not", info)
	}

	// Totals × 0.5, in kN; exact in binary floating point, so compared
	// to 1e-12 for the kN ↔ N round trip.
	want := map[int64]toyRow{1: {1, 1.5, -5, 0}, 2: {2, 0, -5, 1}}
	check := func(t *testing.T, rows []toyRow) {
		t.Helper()
		for _, r := range rows {
			w := want[r.LoadCase]
			if math.Abs(r.Fx-w.Fx) > 1e-12 || math.Abs(r.Fy-w.Fy) > 1e-12 || math.Abs(r.Fz-w.Fz) > 1e-12 {
				t.Errorf("case %d totals %+v, want %+v", r.LoadCase, r, w)
			}
		}
	}
	const q = "/job/query/analysis/node-totals/case-totals"
	var env struct{ Results []toyRow }
	page := s.must(200, "GET", q+"?limit=1&offset=1", nil)
	page.decode(t, &env)
	if len(env.Results) != 1 || env.Results[0].LoadCase != 2 || page.header.Get("Total-Count") != "2" {
		t.Errorf("second page %+v, Total-Count %q", env.Results, page.header.Get("Total-Count"))
	}
	check(t, env.Results)
	s.must(200, "GET", q+"?loadCases=1", nil).decode(t, &env)
	if len(env.Results) != 1 || env.Results[0].LoadCase != 1 {
		t.Errorf("loadCases=1 gave %+v", env.Results)
	}
	check(t, env.Results)
	// The rows follow the job's force unit.
	s.must(200, "PATCH", "/job/units", map[string]any{"force": "N"})
	s.must(200, "GET", q+"?loadCases=1", nil).decode(t, &env)
	if len(env.Results) != 1 || math.Abs(env.Results[0].Fy-(-5000)) > 1e-9 {
		t.Errorf("in N: %+v, want fy −5000", env.Results)
	}
	s.must(200, "PATCH", "/job/units", map[string]any{"force": "kN"})
	var md struct {
		ResourceType string `json:"resourceType"`
		Fields       []struct {
			JSONName string  `json:"jsonName"`
			Units    *string `json:"units"`
		} `json:"fields"`
	}
	s.must(200, "GET", q+"/metadata", nil).decode(t, &md)
	if md.ResourceType != "case-totals" || len(md.Fields) != 4 || md.Fields[2].Units == nil || *md.Fields[2].Units != "kN" {
		t.Errorf("metadata %+v", md)
	}

	// A job file keeps the settings and the results; they read back the
	// same after the job is closed and opened again.
	s.must(201, "POST", "/job/save", map[string]any{"filePath": "toy"})
	s.must(200, "POST", "/job/close", nil)
	s.must(200, "POST", "/job/open", map[string]any{"filePath": "toy.gsj"})
	s.must(200, "GET", base+"/settings", nil).decode(t, &set)
	if set.Factor != 2 {
		t.Errorf("settings after open %+v, want factor 2", set)
	}
	s.must(200, "GET", q, nil).decode(t, &env)
	var got []int64
	for _, r := range env.Results {
		got = append(got, r.LoadCase)
	}
	if !slices.Equal(got, []int64{1, 2}) {
		t.Errorf("cases after open %v, want 1 and 2", got)
	}
	check(t, env.Results)
}
