package analysis

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/gusset/gusset/pkg/model"
	"github.com/gusset/gusset/pkg/store"
)

// Query reads stored results for the result queries. Values are SI; the
// HTTP edge converts them.
type Query struct {
	Source  Source
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

// errNoResults answers a query before any analysis of its kind.
func errNoResults(kind model.AnalysisFamily) error {
	return model.E(model.KindConflict, "the job has no %s analysis results: run a %s analysis first", kind, kind)
}

// staticData is what every static query starts from.
type staticData struct {
	meta    *StaticMeta
	nodes   []int64
	members []memberRow
	// cases are the analysed cases the filter selects; notAnalysed the
	// selected model cases without results.
	cases       []int64
	notAnalysed string
	cols        columnReader
}

// columnReader reads results columns from one consistent set of results.
type columnReader func(names ...string) ([][]byte, error)

// view runs fn, a query, against one consistent set of static results:
// a run publishing or a model change clearing them while the query reads
// makes it start again, so it never mixes two sets (or finds a column
// gone).
func view[T any](q *Query, ctx context.Context, ws string, f Filter, nodes, members bool, fn func(d *staticData) (Page[T], error)) (Page[T], error) {
	var out Page[T]
	err := q.Results.View(ctx, ws, staticName, func(meta json.RawMessage, cols func(names ...string) ([][]byte, error)) error {
		d, err := q.static(ctx, ws, f, meta, cols, nodes, members)
		if err != nil {
			return err
		}
		out, err = fn(d)
		return err
	})
	return out, err
}

// static reads the meta record and resolves the load case filter; nodes
// and members are read when asked for.
func (q *Query) static(ctx context.Context, ws string, f Filter, raw json.RawMessage, cols columnReader, nodes, members bool) (*staticData, error) {
	meta, err := decodeStaticMeta(raw)
	if err != nil {
		return nil, err
	}
	if meta == nil {
		// Distinguish "no job" from "no results".
		if _, _, err := q.Source.Loads.Cases.Stats(ctx, ws); err != nil {
			return nil, err
		}
		return nil, errNoResults(staticName)
	}
	d := &staticData{meta: meta, cols: cols}
	all, err := q.modelCases(ctx, ws)
	if err != nil {
		return nil, err
	}
	sel, err := selectIDs("loadCases", "load case", all, f.LoadCases)
	if err != nil {
		return nil, err
	}
	var missing []int64
	for _, id := range sel {
		if meta.Has(id) {
			d.cases = append(d.cases, id)
		} else {
			missing = append(missing, id)
		}
	}
	d.notAnalysed = fmtIDs(missing)
	var names []string
	if nodes {
		names = append(names, colNodes)
	}
	if members {
		names = append(names, colMembers)
	}
	if len(names) == 0 {
		return d, nil
	}
	raws, err := cols(names...)
	if err != nil {
		return nil, err
	}
	for i, n := range names {
		switch n {
		case colNodes:
			d.nodes, err = nodesCol.decode(raws[i], n)
		case colMembers:
			d.members, err = membersCol.decode(raws[i], n)
		}
		if err != nil {
			return nil, err
		}
	}
	return d, nil
}

func fmtIDs(ids []int64) string { return model.FormatIDs(ids, nil) }

// modelCases returns the ids of the model's load cases and combinations.
func (q *Query) modelCases(ctx context.Context, ws string) ([]int64, error) {
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
func selectIDs(field, noun string, sorted []int64, list *model.IDList) ([]int64, error) {
	if list == nil {
		return sorted, nil
	}
	var out, missing []int64
	for _, r := range list.Ranges {
		lo := sort.Search(len(sorted), func(i int) bool { return sorted[i] >= r.Lo })
		hi := sort.Search(len(sorted), func(i int) bool { return sorted[i] > r.Hi })
		out = append(out, sorted[lo:hi]...)
		if int64(hi-lo) != r.Hi-r.Lo+1 && len(missing) < 10 {
			for id, i := r.Lo, lo; id <= r.Hi && len(missing) < 10; id++ {
				if i < hi && sorted[i] == id {
					i++
					continue
				}
				missing = append(missing, id)
			}
		}
	}
	if len(missing) > 0 {
		return nil, model.Invalid(field, "%s: the model has no %s %s", field, noun, fmtIDs(missing))
	}
	return out, nil
}

// indexOf returns the positions in sorted of the ids list selects.
func indexOf(field, noun string, sorted []int64, list *model.IDList) ([]int, error) {
	ids, err := selectIDs(field, noun, sorted, list)
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
func pageOf(total, offset, limit int64) (lo, hi int64) {
	lo = min(offset, total)
	hi = total
	if limit >= 0 && lo+limit < hi {
		hi = lo + limit
	}
	return lo, hi
}

// readCaseRows reads the rows of column c of each case in cs.
func readCaseRows[R columnRow](cols columnReader, cs []int64, c column[R]) ([][]R, error) {
	names := make([]string, len(cs))
	for i, lc := range cs {
		names[i] = c.of(lc)
	}
	raw, err := cols(names...)
	if err != nil {
		return nil, err
	}
	out := make([][]R, len(cs))
	for i := range cs {
		if raw[i] == nil {
			return nil, fmt.Errorf("the results of load case %d lack the column %s", cs[i], c.name)
		}
		if out[i], err = c.decode(raw[i], names[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// gridPage pages rows over cases × items and calls emit for each kept
// (case index, item index) in order; it returns the total.
func gridPage(nCases, nItems int, offset, limit int64, emit func(c, i int)) int64 {
	total := int64(nCases) * int64(nItems)
	lo, hi := pageOf(total, offset, limit)
	for k := lo; k < hi; k++ {
		emit(int(k/int64(nItems)), int(k%int64(nItems)))
	}
	return total
}

// casesIn returns the cases whose rows fall in the page [lo, hi) of a
// cases × nItems grid.
func casesIn(cs []int64, nItems int, offset, limit int64) []int64 {
	if nItems == 0 {
		return nil
	}
	lo, hi := pageOf(int64(len(cs))*int64(nItems), offset, limit)
	if lo >= hi {
		return nil
	}
	return cs[lo/int64(nItems) : (hi-1)/int64(nItems)+1]
}

// NodeDisplacements answers node-displacements.
func (q *Query) NodeDisplacements(ctx context.Context, ws string, f Filter) (Page[model.NodeDisplacementRow], error) {
	return view(q, ctx, ws, f, true, false, func(d *staticData) (Page[model.NodeDisplacementRow], error) {
		var p Page[model.NodeDisplacementRow]
		p.Warnings.LoadCasesNotAnalyzed = d.notAnalysed
		idx, err := indexOf("nodes", "node", d.nodes, f.Nodes)
		if err != nil {
			return p, err
		}
		cs := casesIn(d.cases, len(idx), f.Offset, f.Limit)
		cols, err := readCaseRows(d.cols, cs, dispCol)
		if err != nil {
			return p, err
		}
		first := slices.Index(d.cases, firstOr(cs))
		p.Total = gridPage(len(d.cases), len(idx), f.Offset, f.Limit, func(c, i int) {
			u := &cols[c-first][idx[i]].U
			p.Rows = append(p.Rows, model.NodeDisplacementRow{LoadCase: d.cases[c], Node: d.nodes[idx[i]],
				Tx: u[0], Ty: u[1], Tz: u[2], Rx: u[3], Ry: u[4], Rz: u[5]})
		})
		return p, nil
	})
}

func firstOr(cs []int64) int64 {
	if len(cs) == 0 {
		return 0
	}
	return cs[0]
}

// NodeReactions answers node-reactions: rows for supported nodes only.
func (q *Query) NodeReactions(ctx context.Context, ws string, f Filter) (Page[model.NodeReactionRow], error) {
	return view(q, ctx, ws, f, true, false, func(d *staticData) (Page[model.NodeReactionRow], error) {
		var p Page[model.NodeReactionRow]
		p.Warnings.LoadCasesNotAnalyzed = d.notAnalysed
		keep, err := selectIDs("nodes", "node", d.nodes, f.Nodes)
		if err != nil {
			return p, err
		}
		cols, err := readCaseRows(d.cols, d.cases, reactCol)
		if err != nil {
			return p, err
		}
		var all []model.NodeReactionRow
		for c, col := range cols {
			for r := range col {
				node, v := int64(col[r].Node), &col[r].F
				if f.Nodes != nil {
					if _, ok := slices.BinarySearch(keep, node); !ok {
						continue
					}
				}
				all = append(all, model.NodeReactionRow{LoadCase: d.cases[c], Node: node,
					Fx: v[0], Fy: v[1], Fz: v[2], Mx: v[3], My: v[4], Mz: v[5]})
			}
		}
		p.Total = int64(len(all))
		lo, hi := pageOf(p.Total, f.Offset, f.Limit)
		p.Rows = all[lo:hi]
		return p, nil
	})
}

// ReactionSummary answers reaction-summary: three rows per case.
func (q *Query) ReactionSummary(ctx context.Context, ws string, f Filter) (Page[model.ReactionSummaryRow], error) {
	return view(q, ctx, ws, f, false, false, func(d *staticData) (Page[model.ReactionSummaryRow], error) {
		var p Page[model.ReactionSummaryRow]
		p.Warnings.LoadCasesNotAnalyzed = d.notAnalysed
		cols, err := readCaseRows(d.cols, d.cases, summaryCol)
		if err != nil {
			return p, err
		}
		var all []model.ReactionSummaryRow
		for c, col := range cols {
			row := func(t string, x [6]float64) model.ReactionSummaryRow {
				return model.ReactionSummaryRow{LoadCase: d.cases[c], SummaryType: t, Fx: x[0], Fy: x[1], Fz: x[2], Mx: x[3], My: x[4], Mz: x[5]}
			}
			for _, s := range col { // one row
				var resid [6]float64
				for i := range resid {
					resid[i] = s.Load[i] + s.Reaction[i]
				}
				all = append(all, row(model.SummaryLoad, s.Load), row(model.SummaryReaction, s.Reaction), row(model.SummaryResidual, resid))
			}
		}
		p.Total = int64(len(all))
		lo, hi := pageOf(p.Total, f.Offset, f.Limit)
		p.Rows = all[lo:hi]
		return p, nil
	})
}

// MemberEndForces answers member-end-forces.
func (q *Query) MemberEndForces(ctx context.Context, ws string, f Filter) (Page[model.MemberEndForcesRow], error) {
	return view(q, ctx, ws, f, false, true, func(d *staticData) (Page[model.MemberEndForcesRow], error) {
		var p Page[model.MemberEndForcesRow]
		p.Warnings.LoadCasesNotAnalyzed = d.notAnalysed
		idx, err := indexOf("members", "member", memberIDs(d.members), f.Members)
		if err != nil {
			return p, err
		}
		cs := casesIn(d.cases, len(idx), f.Offset, f.Limit)
		cols, err := readCaseRows(d.cols, cs, endCol)
		if err != nil {
			return p, err
		}
		// Cable lengths, of the cases that have them.
		var withCables []int64
		for _, lc := range cs {
			if c := d.meta.Case(lc); c != nil && c.Cables {
				withCables = append(withCables, lc)
			}
		}
		cables, err := readCaseRows(d.cols, withCables, cableCol)
		if err != nil {
			return p, err
		}
		cableOf := map[int64][]float64{}
		for i, lc := range withCables {
			cableOf[lc] = cables[i]
		}
		first := slices.Index(d.cases, firstOr(cs))
		p.Total = gridPage(len(d.cases), len(idx), f.Offset, f.Limit, func(c, i int) {
			m := idx[i]
			v, mb := &cols[c-first][m], &d.members[m]
			length := []float64{}
			if l := cableOf[d.cases[c]]; l != nil && l[m] > 0 {
				length = []float64{l[m]}
			}
			p.Rows = append(p.Rows, model.MemberEndForcesRow{LoadCase: d.cases[c], Member: mb.ID,
				Node: []int64{mb.NodeA, mb.NodeB},
				Fx:   []float64{v.A[0], v.B[0]}, Fy: []float64{v.A[1], v.B[1]}, Fz: []float64{v.A[2], v.B[2]},
				Mx: []float64{v.A[3], v.B[3]}, My: []float64{v.A[4], v.B[4]}, Mz: []float64{v.A[5], v.B[5]},
				FinalCableLength: length})
		})
		return p, nil
	})
}

// memberIDs returns the ids of a members column.
func memberIDs(members []memberRow) []int64 {
	out := make([]int64, len(members))
	for i := range members {
		out[i] = members[i].ID
	}
	return out
}

// HasResults reports whether the job has results of family f.
func (q *Query) HasResults(ctx context.Context, ws string, f *Family) (bool, error) {
	cases, err := q.resultCases(ctx, ws, f)
	return len(cases) > 0, err
}

// resultCases returns what the stored results of family f say about each
// of their load cases.
func (q *Query) resultCases(ctx context.Context, ws string, f *Family) ([]model.CaseResultsInfo, error) {
	raw, err := q.Results.Meta(ctx, ws, f.Name)
	if err != nil || raw == nil {
		return nil, err
	}
	return f.Cases(raw)
}

// Info answers the results info of family f for the model cases list
// selects (nil: all); ids not in the model are dropped, as the spec says.
func (q *Query) Info(ctx context.Context, ws string, f *Family, list *model.IDList) (model.ResultsInfo, error) {
	out := model.ResultsInfo{LoadCases: []model.CaseResultsInfo{}}
	cases, err := q.modelCases(ctx, ws)
	if err != nil {
		return out, err
	}
	stored, err := q.resultCases(ctx, ws, f)
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
	out.NotAnalyzed = fmtIDs(missing)
	return out, nil
}
