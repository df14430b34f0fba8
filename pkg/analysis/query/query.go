package query

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Query reads stored results for the result queries. Values are SI; the
// HTTP edge converts them.
type Query struct {
	Source  adapter.Source
	Results store.Results
	// Jobs gives the job settings (the vertical axis orients members).
	Jobs store.Jobs
}

// Filter selects the rows of a results query. A nil list means all;
// every id a list names must exist in the model.
type Filter struct {
	LoadCases, Nodes, Members, Plates *model.IDList
	// Modes selects modes by number (1 the first) in the eigen queries.
	Modes *model.IDList
	// Normalization scales mode shapes (see ParseNormalization).
	Normalization string
	// Offset and Limit page the rows (Limit < 0: all).
	Offset, Limit int64
}

// Page is one page of query rows with the envelope's warnings.
type Page[T any] struct {
	Rows     []T
	Total    int64
	Warnings model.ResultsWarnings
}

// ErrNoResults answers a query before any analysis of its kind.
func ErrNoResults(kind model.AnalysisFamily) error {
	return model.E(model.KindConflict, "the job has no %s analysis results: run a %s analysis first", kind, kind)
}

// maxMissing is how many ids the model lacks a filter error names.
const maxMissing = 10

// NoResults answers a query of kind that found no results: no job is
// the session's error; a filter naming ids the model lacks is the 400 it
// is once results exist, so that the answer to a bad filter does not
// depend on whether an analysis ran; anything else is ErrNoResults.
func (q *Query) NoResults(ctx context.Context, ws string, kind model.AnalysisFamily, f Filter) error {
	if _, _, err := q.Source.Loads.Cases.Stats(ctx, ws); err != nil {
		return err
	}
	if f.LoadCases != nil {
		all, err := q.ModelCases(ctx, ws)
		if err != nil {
			return err
		}
		if _, err := SelectIDs("loadCases", "load case", all, f.LoadCases); err != nil {
			return err
		}
	}
	st := q.Source.Structure
	for _, c := range []struct {
		field, noun string
		list        *model.IDList
		missing     func(context.Context, string, model.IDList, int) ([]int64, error)
	}{
		{"nodes", "node", f.Nodes, st.Nodes.Missing},
		{"members", "member", f.Members, st.Members.Missing},
		{"plates", "plate", f.Plates, st.Plates.Missing},
	} {
		if c.list == nil {
			continue
		}
		ids, err := c.missing(ctx, ws, *c.list, maxMissing)
		if err != nil {
			return err
		}
		if len(ids) > 0 {
			return missingErr(c.field, c.noun, ids)
		}
	}
	return ErrNoResults(kind)
}

// missingErr says that the filter field names ids the model lacks.
func missingErr(field, noun string, ids []int64) error {
	return model.Invalid(field, "%s: the model has no %s %s", field, noun, FormatIDs(ids))
}

// columnReader reads results columns from one consistent set of results.
type ColumnReader func(names ...string) ([][]byte, error)

func FormatIDs(ids []int64) string { return model.FormatIDs(ids, nil) }

// ModelCases returns the ids of the model's load cases and combinations.
func (q *Query) ModelCases(ctx context.Context, ws string) ([]int64, error) {
	cases, err := q.Source.Loads.Cases.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(cases))
	for i, c := range cases {
		ids[i] = c.ID
	}
	slices.Sort(ids)
	return ids, nil
}

// selectIDs returns the ids of sorted that list selects (all when list is
// nil). Every id list names must be in sorted: a filter naming an id the
// model does not have is a mistake the client should hear of.
func SelectIDs(field, noun string, sorted []int64, list *model.IDList) ([]int64, error) {
	if list == nil {
		return sorted, nil
	}
	var out, missing []int64
	for _, r := range list.Ranges {
		lo := sort.Search(len(sorted), func(i int) bool { return sorted[i] >= r.Lo })
		hi := sort.Search(len(sorted), func(i int) bool { return sorted[i] > r.Hi })
		out = append(out, sorted[lo:hi]...)
		if int64(hi-lo) != r.Hi-r.Lo+1 && len(missing) < maxMissing {
			for id, i := r.Lo, lo; id <= r.Hi && len(missing) < maxMissing; id++ {
				if i < hi && sorted[i] == id {
					i++
					continue
				}
				missing = append(missing, id)
			}
		}
	}
	if len(missing) > 0 {
		return nil, missingErr(field, noun, missing)
	}
	return out, nil
}

// indexOf returns the positions in sorted of the ids list selects.
func IndexOf(field, noun string, sorted []int64, list *model.IDList) ([]int, error) {
	ids, err := SelectIDs(field, noun, sorted, list)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(ids))
	for i, id := range ids {
		out[i], _ = slices.BinarySearch(sorted, id)
	}
	return out, nil
}

// pageOf returns the part [lo, hi) of total rows that offset and limit keep.
func PageOf(total, offset, limit int64) (lo, hi int64) {
	lo = min(offset, total)
	hi = total
	if limit >= 0 && lo+limit < hi {
		hi = lo + limit
	}
	return lo, hi
}

// readCaseRows reads the rows of column c of each case in cs.
func ReadCaseRows[R columns.Row](cols ColumnReader, cs []int64, c columns.Column[R]) ([][]R, error) {
	names := make([]string, len(cs))
	for i, lc := range cs {
		names[i] = c.Of(lc)
	}
	raw, err := cols(names...)
	if err != nil {
		return nil, err
	}
	out := make([][]R, len(cs))
	for i := range cs {
		if raw[i] == nil {
			return nil, fmt.Errorf("the results of load case %d lack the column %s", cs[i], c.Name())
		}
		if out[i], err = c.Decode(raw[i], names[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Method adapts a result query written as a method of a family's own
// reader type R (built from the Query by wrap, so that the family's
// helpers can be its methods) to the form analysis.NewStreamQuery takes.
func Method[R, T any](wrap func(*Query) R, m func(R, context.Context, string, Filter, Sink[T]) error) func(*Query, context.Context, string, Filter, Sink[T]) error {
	return func(q *Query, ctx context.Context, ws string, f Filter, sink Sink[T]) error {
		return m(wrap(q), ctx, ws, f, sink)
	}
}
