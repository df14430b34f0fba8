package statics

import (
	"context"
	"encoding/json"
	"fmt"
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
// makes it start again (query.Stream.Start), so it never mixes two sets
// (or finds a column gone). fn states the answer (Stream.Begin) and adds
// its rows.
func view[T any](q reader, ctx context.Context, ws string, f query.Filter, sink query.Sink[T], nodes, members bool,
	fn func(d *staticData, s *query.Stream[T]) error) error {
	s := query.NewStream(sink, f)
	return q.Results.View(ctx, ws, staticName, func(meta json.RawMessage, cols func(names ...string) ([][]byte, error)) error {
		if err := s.Start(meta); err != nil {
			return err
		}
		d, err := q.static(ctx, ws, f, meta, cols, nodes, members)
		if err != nil {
			return err
		}
		if err := fn(d, s); err != nil {
			return err
		}
		return s.Flush()
	})
}

// warnings are the warnings of every static query.
func (d *staticData) warnings() model.ResultsWarnings {
	return model.ResultsWarnings{LoadCasesNotAnalyzed: d.notAnalysed}
}

// static reads the meta record and resolves the load case filter; nodes
// and members are read when asked for.
func (q reader) static(ctx context.Context, ws string, f query.Filter, raw json.RawMessage, cols query.ColumnReader, nodes, members bool) (*staticData, error) {
	meta, err := decodeStaticMeta(raw)
	if err != nil {
		return nil, err
	}
	if meta == nil {
		return nil, q.NoResults(ctx, ws, staticName, f)
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
func (q reader) NodeDisplacements(ctx context.Context, ws string, f query.Filter, sink query.Sink[model.NodeDisplacementRow]) error {
	return view(q, ctx, ws, f, sink, true, false, func(d *staticData, s *query.Stream[model.NodeDisplacementRow]) error {
		idx, err := query.IndexOf("nodes", "node", d.nodes, f.Nodes)
		if err != nil {
			return err
		}
		if err := s.Begin(int64(len(d.cases))*int64(len(idx)), d.warnings()); err != nil {
			return err
		}
		return query.GridColumn(d.cols, d.cases, columns.Disp, len(idx), f, func(c, i int, col []columns.DispRow) error {
			u := &col[idx[i]].U
			return s.Add(model.NodeDisplacementRow{LoadCase: d.cases[c], Node: d.nodes[idx[i]],
				Tx: u[0], Ty: u[1], Tz: u[2], Rx: u[3], Ry: u[4], Rz: u[5]})
		})
	})
}

// reactionCases is how many cases' reaction columns NodeReactions reads
// at once: each holds a row per supported node.
const reactionCases = 16

// NodeReactions answers node-reactions: rows for supported nodes only.
// Their number per case follows from the stored columns, so it reads them
// twice: once to count the rows, then from the first case the page
// reaches to emit them.
func (q reader) NodeReactions(ctx context.Context, ws string, f query.Filter, sink query.Sink[model.NodeReactionRow]) error {
	return view(q, ctx, ws, f, sink, true, false, func(d *staticData, s *query.Stream[model.NodeReactionRow]) error {
		keep, err := query.SelectIDs("nodes", "node", d.nodes, f.Nodes)
		if err != nil {
			return err
		}
		kept := func(r *columns.ReactRow) bool {
			if f.Nodes == nil {
				return true
			}
			_, ok := slices.BinarySearch(keep, int64(r.Node))
			return ok
		}
		// each calls fn with each case from c0 on and its column.
		each := func(c0 int, fn func(c int, col []columns.ReactRow) (bool, error)) error {
			for lo := c0; lo < len(d.cases); lo += reactionCases {
				hi := min(lo+reactionCases, len(d.cases))
				cols, err := query.ReadCaseRows(d.cols, d.cases[lo:hi], columns.React)
				if err != nil {
					return err
				}
				for i, col := range cols {
					if more, err := fn(lo+i, col); !more || err != nil {
						return err
					}
				}
			}
			return nil
		}
		counts := make([]int64, len(d.cases))
		var total int64
		err = each(0, func(c int, col []columns.ReactRow) (bool, error) {
			for r := range col {
				if kept(&col[r]) {
					counts[c]++
				}
			}
			total += counts[c]
			return true, nil
		})
		if err != nil {
			return err
		}
		if err := s.Begin(total, d.warnings()); err != nil {
			return err
		}
		lo, hi := query.PageOf(total, f.Offset, f.Limit)
		if lo >= hi {
			return nil
		}
		// at is the row number of the first row of case c0.
		c0, at := 0, int64(0)
		for at+counts[c0] <= lo {
			at += counts[c0]
			c0++
		}
		return each(c0, func(c int, col []columns.ReactRow) (bool, error) {
			for r := range col {
				if !kept(&col[r]) {
					continue
				}
				if at >= lo {
					v := &col[r].F
					if err := s.Add(model.NodeReactionRow{LoadCase: d.cases[c], Node: int64(col[r].Node),
						Fx: v[0], Fy: v[1], Fz: v[2], Mx: v[3], My: v[4], Mz: v[5]}); err != nil {
						return false, err
					}
				}
				if at++; at >= hi {
					return false, nil
				}
			}
			return true, nil
		})
	})
}

// ReactionSummary answers reaction-summary: three rows per case, from
// its one summary row.
func (q reader) ReactionSummary(ctx context.Context, ws string, f query.Filter, sink query.Sink[model.ReactionSummaryRow]) error {
	return view(q, ctx, ws, f, sink, false, false, func(d *staticData, s *query.Stream[model.ReactionSummaryRow]) error {
		if err := s.Begin(3*int64(len(d.cases)), d.warnings()); err != nil {
			return err
		}
		return query.GridColumn(d.cols, d.cases, columns.Summary, 3, f, func(c, i int, col []columns.SummaryRow) error {
			if len(col) != 1 {
				return fmt.Errorf("the reaction summary of load case %d has %d rows, not 1", d.cases[c], len(col))
			}
			var x [6]float64
			t := []string{model.SummaryLoad, model.SummaryReaction, model.SummaryResidual}[i]
			switch t {
			case model.SummaryLoad:
				x = col[0].Load
			case model.SummaryReaction:
				x = col[0].Reaction
			default:
				for k := range x {
					x[k] = col[0].Load[k] + col[0].Reaction[k]
				}
			}
			return s.Add(model.ReactionSummaryRow{LoadCase: d.cases[c], SummaryType: t, Fx: x[0], Fy: x[1], Fz: x[2], Mx: x[3], My: x[4], Mz: x[5]})
		})
	})
}

// MemberEndForces answers member-end-forces.
func (q reader) MemberEndForces(ctx context.Context, ws string, f query.Filter, sink query.Sink[model.MemberEndForcesRow]) error {
	return view(q, ctx, ws, f, sink, false, true, func(d *staticData, s *query.Stream[model.MemberEndForcesRow]) error {
		idx, err := query.IndexOf("members", "member", columns.MemberIDs(d.members), f.Members)
		if err != nil {
			return err
		}
		if err := s.Begin(int64(len(d.cases))*int64(len(idx)), d.warnings()); err != nil {
			return err
		}
		var ends [][]columns.EndRow
		var first int
		// Cable lengths, of the cases that have them.
		cableOf := map[int64][]float64{}
		return query.GridCases(len(d.cases), len(idx), f, func(c0, c1 int) error {
			cs := d.cases[c0:c1]
			var err error
			first = c0
			if ends, err = query.ReadCaseRows(d.cols, cs, columns.End); err != nil {
				return err
			}
			var withCables []int64
			for _, lc := range cs {
				if c := d.meta.Case(lc); c != nil && c.Cables {
					withCables = append(withCables, lc)
				}
			}
			cables, err := query.ReadCaseRows(d.cols, withCables, columns.Cable)
			if err != nil {
				return err
			}
			clear(cableOf)
			for i, lc := range withCables {
				cableOf[lc] = cables[i]
			}
			return nil
		}, func(c, i int) error {
			m := idx[i]
			v, mb := &ends[c-first][m], &d.members[m]
			length := []float64{}
			if l := cableOf[d.cases[c]]; l != nil && l[m] > 0 {
				length = []float64{l[m]}
			}
			return s.Add(model.MemberEndForcesRow{LoadCase: d.cases[c], Member: mb.ID,
				Node: []int64{mb.NodeA, mb.NodeB},
				Fx:   []float64{v.A[0], v.B[0]}, Fy: []float64{v.A[1], v.B[1]}, Fz: []float64{v.A[2], v.B[2]},
				Mx: []float64{v.A[3], v.B[3]}, My: []float64{v.A[4], v.B[4]}, Mz: []float64{v.A[5], v.B[5]},
				FinalCableLength: length})
		})
	})
}
