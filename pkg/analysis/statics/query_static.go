package statics

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/analysis/query"
	"github.com/gusset/gusset/pkg/model"
)

// staticData is what every static query starts from.
type staticData struct {
	meta    *StaticMeta
	nodes   []int64
	members []columns.MemberRow
	// cases are the analysed cases the filter selects; notAnalysed the
	// selected model cases without results.
	cases       []int64
	notAnalysed string
	cols        query.ColumnReader
}

// view runs fn, a query, against one consistent set of static results:
// a run publishing or a model change clearing them while the query reads
// makes it start again, so it never mixes two sets (or finds a column
// gone).
func view[T any](q reader, ctx context.Context, ws string, f query.Filter, nodes, members bool, fn func(d *staticData) (query.Page[T], error)) (query.Page[T], error) {
	var out query.Page[T]
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
func (q reader) static(ctx context.Context, ws string, f query.Filter, raw json.RawMessage, cols query.ColumnReader, nodes, members bool) (*staticData, error) {
	meta, err := decodeStaticMeta(raw)
	if err != nil {
		return nil, err
	}
	if meta == nil {
		// Distinguish "no job" from "no results".
		if _, _, err := q.Source.Loads.Cases.Stats(ctx, ws); err != nil {
			return nil, err
		}
		return nil, query.ErrNoResults(staticName)
	}
	d := &staticData{meta: meta, cols: cols}
	all, err := q.ModelCases(ctx, ws)
	if err != nil {
		return nil, err
	}
	sel, err := query.SelectIDs("loadCases", "load case", all, f.LoadCases)
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
	d.notAnalysed = query.FormatIDs(missing)
	var names []string
	if nodes {
		names = append(names, columns.Nodes.Name())
	}
	if members {
		names = append(names, columns.Members.Name())
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
		case columns.Nodes.Name():
			d.nodes, err = columns.Nodes.Decode(raws[i], n)
		case columns.Members.Name():
			d.members, err = columns.Members.Decode(raws[i], n)
		}
		if err != nil {
			return nil, err
		}
	}
	return d, nil
}

// NodeDisplacements answers node-displacements.
func (q reader) NodeDisplacements(ctx context.Context, ws string, f query.Filter) (query.Page[model.NodeDisplacementRow], error) {
	return view(q, ctx, ws, f, true, false, func(d *staticData) (query.Page[model.NodeDisplacementRow], error) {
		var p query.Page[model.NodeDisplacementRow]
		p.Warnings.LoadCasesNotAnalyzed = d.notAnalysed
		idx, err := query.IndexOf("nodes", "node", d.nodes, f.Nodes)
		if err != nil {
			return p, err
		}
		cs := query.CasesIn(d.cases, len(idx), f.Offset, f.Limit)
		cols, err := query.ReadCaseRows(d.cols, cs, columns.Disp)
		if err != nil {
			return p, err
		}
		first := slices.Index(d.cases, firstOr(cs))
		p.Total = query.GridPage(len(d.cases), len(idx), f.Offset, f.Limit, func(c, i int) {
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
func (q reader) NodeReactions(ctx context.Context, ws string, f query.Filter) (query.Page[model.NodeReactionRow], error) {
	return view(q, ctx, ws, f, true, false, func(d *staticData) (query.Page[model.NodeReactionRow], error) {
		var p query.Page[model.NodeReactionRow]
		p.Warnings.LoadCasesNotAnalyzed = d.notAnalysed
		keep, err := query.SelectIDs("nodes", "node", d.nodes, f.Nodes)
		if err != nil {
			return p, err
		}
		cols, err := query.ReadCaseRows(d.cols, d.cases, columns.React)
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
		lo, hi := query.PageOf(p.Total, f.Offset, f.Limit)
		p.Rows = all[lo:hi]
		return p, nil
	})
}

// ReactionSummary answers reaction-summary: three rows per case.
func (q reader) ReactionSummary(ctx context.Context, ws string, f query.Filter) (query.Page[model.ReactionSummaryRow], error) {
	return view(q, ctx, ws, f, false, false, func(d *staticData) (query.Page[model.ReactionSummaryRow], error) {
		var p query.Page[model.ReactionSummaryRow]
		p.Warnings.LoadCasesNotAnalyzed = d.notAnalysed
		cols, err := query.ReadCaseRows(d.cols, d.cases, columns.Summary)
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
		lo, hi := query.PageOf(p.Total, f.Offset, f.Limit)
		p.Rows = all[lo:hi]
		return p, nil
	})
}

// MemberEndForces answers member-end-forces.
func (q reader) MemberEndForces(ctx context.Context, ws string, f query.Filter) (query.Page[model.MemberEndForcesRow], error) {
	return view(q, ctx, ws, f, false, true, func(d *staticData) (query.Page[model.MemberEndForcesRow], error) {
		var p query.Page[model.MemberEndForcesRow]
		p.Warnings.LoadCasesNotAnalyzed = d.notAnalysed
		idx, err := query.IndexOf("members", "member", columns.MemberIDs(d.members), f.Members)
		if err != nil {
			return p, err
		}
		cs := query.CasesIn(d.cases, len(idx), f.Offset, f.Limit)
		cols, err := query.ReadCaseRows(d.cols, cs, columns.End)
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
		cables, err := query.ReadCaseRows(d.cols, withCables, columns.Cable)
		if err != nil {
			return p, err
		}
		cableOf := map[int64][]float64{}
		for i, lc := range withCables {
			cableOf[lc] = cables[i]
		}
		first := slices.Index(d.cases, firstOr(cs))
		p.Total = query.GridPage(len(d.cases), len(idx), f.Offset, f.Limit, func(c, i int) {
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
