package analysis

import (
	"context"

	"github.com/gusset/gusset/pkg/analysis/query"
	"github.com/gusset/gusset/pkg/model"
)

// HasResults reports whether the job has results of family f, read
// through q.
func (f *Family) HasResults(ctx context.Context, q *query.Query, ws string) (bool, error) {
	cases, err := f.resultCases(ctx, q, ws)
	return len(cases) > 0, err
}

// resultCases returns what the stored results of family f say about each
// of their load cases.
func (f *Family) resultCases(ctx context.Context, q *query.Query, ws string) ([]model.CaseResultsInfo, error) {
	raw, err := q.Results.Meta(ctx, ws, f.Name)
	if err != nil || raw == nil {
		return nil, err
	}
	return f.Cases(raw)
}

// Info answers, through q, the results info of family f for the model cases list
// selects (nil: all); ids not in the model are dropped, as the spec says.
func (f *Family) Info(ctx context.Context, q *query.Query, ws string, list *model.IDList) (model.ResultsInfo, error) {
	out := model.ResultsInfo{LoadCases: []model.CaseResultsInfo{}}
	cases, err := q.ModelCases(ctx, ws)
	if err != nil {
		return out, err
	}
	stored, err := f.resultCases(ctx, q, ws)
	if err != nil {
		return out, err
	}
	out.HasResults = len(stored) > 0
	byCase := map[int64]model.CaseResultsInfo{}
	for _, c := range stored {
		byCase[c.LoadCase] = c
	}
	var missing []int64
	for _, id := range cases {
		if list != nil && !list.Contains(id) {
			continue
		}
		c, ok := byCase[id]
		if !ok {
			c = model.CaseResultsInfo{LoadCase: id}
			missing = append(missing, id)
		}
		out.LoadCases = append(out.LoadCases, c)
	}
	out.NotAnalyzed = query.FormatIDs(missing)
	return out, nil
}
