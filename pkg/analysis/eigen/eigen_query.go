package eigen

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/analysis/query"
	"github.com/gusset/gusset/pkg/fem/modal"
	"github.com/gusset/gusset/pkg/model"
)

// MaxShapeEntries bounds one page of mode shapes: rows × nodes per row.
// Each entry is a node id and six numbers, about 150 bytes of JSON, so a
// page stays under about 40 MB.
const MaxShapeEntries = 250_000

// eigenData is what every buckling or dynamic-frequency query starts from.
type eigenData struct {
	meta    *EigenMeta
	nodes   []int64
	members []columns.MemberRow
	// cases are the analysed cases the filter selects, with their meta;
	// notAnalysed the selected model cases without results.
	cases       []EigenCaseMeta
	notAnalysed string
	cols        query.ColumnReader
}

// eigenView runs fn, a query, against one consistent set of results of
// kind (see the static view): fn states the answer and adds its rows.
func eigenView[T any](q reader, ctx context.Context, ws string, kind model.AnalysisFamily, f query.Filter, sink query.Sink[T],
	fn func(d *eigenData, s *query.Stream[T]) error) error {
	s := query.NewStream(sink, f)
	return q.Results.View(ctx, ws, kind, func(raw json.RawMessage, cols func(names ...string) ([][]byte, error)) error {
		if err := s.Start(raw); err != nil {
			return err
		}
		meta, err := decodeEigenMeta(raw)
		if err != nil {
			return err
		}
		if meta == nil {
			return q.NoResults(ctx, ws, kind, f)
		}
		d := &eigenData{meta: meta, cols: cols}
		all, err := q.ModelCases(ctx, ws)
		if err != nil {
			return err
		}
		sel, err := query.SelectIDs("loadCases", "load case", all, f.LoadCases)
		if err != nil {
			return err
		}
		var missing []int64
		for _, id := range sel {
			if c, ok := meta.has(id); ok {
				d.cases = append(d.cases, c)
			} else {
				missing = append(missing, id)
			}
		}
		d.notAnalysed = query.FormatIDs(missing)
		raws, err := cols(columns.Nodes.Name(), columns.Members.Name())
		if err != nil {
			return err
		}
		if d.nodes, err = columns.Nodes.Decode(raws[0], columns.Nodes.Name()); err != nil {
			return err
		}
		if d.members, err = columns.Members.Decode(raws[1], columns.Members.Name()); err != nil {
			return err
		}
		if err := fn(d, s); err != nil {
			return err
		}
		return s.Flush()
	})
}

// modes returns the modes of case c the filter selects (1-based,
// ascending) and, when some selected or requested are missing, a warning
// naming them.
func (c EigenCaseMeta) modes(list *model.IDList) ([]int, *model.ModesNotFound) {
	ranges := []model.IDRange{{Lo: 1, Hi: int64(max(c.Requested, c.Modes))}}
	if list != nil {
		ranges = list.Ranges
	}
	var out []int
	var missing []model.IDRange
	for _, r := range ranges {
		for m := r.Lo; m <= min(r.Hi, int64(c.Modes)); m++ {
			out = append(out, int(m))
		}
		if lo := max(r.Lo, int64(c.Modes)+1); lo <= r.Hi {
			missing = append(missing, model.IDRange{Lo: lo, Hi: r.Hi})
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	return out, &model.ModesNotFound{LoadCase: c.LoadCase, Modes: model.FormatIDs(nil, missing)}
}

// modeRows states the answer of a query with a row per selected mode
// and calls emit for each of its page, in order, reading the modes
// column of one case at a time.
func modeRows[T any](d *eigenData, f query.Filter, s *query.Stream[T], emit func(c EigenCaseMeta, mode int, row *columns.ModeRow, all []columns.ModeRow) error) error {
	cms, w := d.selectModes(f)
	if err := s.Begin(gridTotal(cms, 1), w); err != nil {
		return err
	}
	var col []columns.ModeRow
	return pageGrid(cms, 1, f, func(i int) error {
		cs, err := query.ReadCaseRows(d.cols, []int64{cms[i].c.LoadCase}, columns.Modes)
		if err == nil {
			col = cs[0]
		}
		return err
	}, func(i, mode, _ int) error {
		return emit(cms[i].c, mode, &col[mode-1], col)
	})
}

// axisName names global axis a (0, 1, 2) of the motion at node; "" when
// there is none (node 0).
func axisName(node, a float64) string {
	if node == 0 {
		return ""
	}
	return [...]string{model.AxisX, model.AxisY, model.AxisZ}[int(a)]
}

// modeWarning is the warning of a mode whose residual is above the
// tolerance its run asked for.
func modeWarning(c EigenCaseMeta, residual float64) string {
	if residual <= c.Tolerance*(1+1e-9) {
		return ""
	}
	return fmt.Sprintf("not converged: relative residual %.3g above the tolerance %.3g", residual, c.Tolerance)
}

// LoadFactors answers buckling/load-factors.
func (q reader) LoadFactors(ctx context.Context, ws string, f query.Filter, sink query.Sink[model.BucklingLoadFactorRow]) error {
	return eigenView(q, ctx, ws, bucklingName, f, sink, func(d *eigenData, s *query.Stream[model.BucklingLoadFactorRow]) error {
		return modeRows(d, f, s, func(c EigenCaseMeta, mode int, v *columns.ModeRow, _ []columns.ModeRow) error {
			return s.Add(model.BucklingLoadFactorRow{LoadCase: c.LoadCase, Mode: mode,
				Warning: modeWarning(c, v.Residual), LoadFactor: v.Value, Tolerance: v.Residual,
				Iterations: int(v.Iterations), NodeAtMaxTrans: int64(v.NodeT), TransAxis: axisName(v.NodeT, v.AxisT),
				NodeAtMaxRotn: int64(v.NodeR), RotnAxis: axisName(v.NodeR, v.AxisR)})
		})
	})
}

// NaturalFrequencies answers dynamic/natural-frequencies. Participation is
// shown in percent; its sums run over every mode up to the row's, whether
// the filter selects them or not.
func (q reader) NaturalFrequencies(ctx context.Context, ws string, f query.Filter, sink query.Sink[model.NaturalFrequencyRow]) error {
	return eigenView(q, ctx, ws, dynamicName, f, sink, func(d *eigenData, s *query.Stream[model.NaturalFrequencyRow]) error {
		return modeRows(d, f, s, func(c EigenCaseMeta, mode int, v *columns.ModeRow, all []columns.ModeRow) error {
			var sum [3]float64
			for k := range mode {
				for a := range sum {
					sum[a] += all[k].Part[a]
				}
			}
			return s.Add(model.NaturalFrequencyRow{LoadCase: c.LoadCase, Mode: mode,
				Warning: modeWarning(c, v.Residual), NaturalFrequency: v.Value, NaturalPeriod: v.Period,
				FrequencyTolerance: v.Residual, Iterations: int(v.Iterations),
				MassPartX: 100 * v.Part[0], MassPartY: 100 * v.Part[1], MassPartZ: 100 * v.Part[2],
				MassPartSumX: 100 * sum[0], MassPartSumY: 100 * sum[1], MassPartSumZ: 100 * sum[2]})
		})
	})
}

// caseModes is the modes a query shows of one case.
type caseModes struct {
	c     EigenCaseMeta
	modes []int
}

// selectModes returns the modes the filter selects of every selected
// case, and the warnings.
func (d *eigenData) selectModes(f query.Filter) ([]caseModes, model.ResultsWarnings) {
	w := model.ResultsWarnings{LoadCasesNotAnalyzed: d.notAnalysed}
	out := make([]caseModes, len(d.cases))
	for i, c := range d.cases {
		ms, miss := c.modes(f.Modes)
		if miss != nil {
			w.ModesNotAnalyzed = append(w.ModesNotAnalyzed, *miss)
		}
		out[i] = caseModes{c, ms}
	}
	return out, w
}

// gridTotal is the number of rows of the (case, mode, item) grid, items
// per mode alike.
func gridTotal(cms []caseModes, items int) int64 {
	var total int64
	for _, cm := range cms {
		total += int64(len(cm.modes)) * int64(items)
	}
	return total
}

// pageGrid pages rows over the (case, mode, item) grid, items per mode
// alike: it calls read for each case the page reaches, before emitting its
// rows, and emit for each kept row in order.
func pageGrid(cms []caseModes, items int, f query.Filter, read func(i int) error, emit func(i, mode, item int) error) error {
	lo, hi := query.PageOf(gridTotal(cms, items), f.Offset, f.Limit)
	var at int64
	for i, cm := range cms {
		n := int64(len(cm.modes)) * int64(items)
		if at+n <= lo || at >= hi {
			at += n
			continue
		}
		if err := read(i); err != nil {
			return err
		}
		for k := max(lo, at); k < min(hi, at+n); k++ {
			j := k - at
			if err := emit(i, cm.modes[j/int64(items)], int(j%int64(items))); err != nil {
				return err
			}
		}
		at += n
	}
	return nil
}

// EffectiveLengths answers buckling/member-effective-lengths: rows by load
// case, mode and member.
func (q reader) EffectiveLengths(ctx context.Context, ws string, f query.Filter, sink query.Sink[model.EffectiveLengthRow]) error {
	return eigenView(q, ctx, ws, bucklingName, f, sink, func(d *eigenData, s *query.Stream[model.EffectiveLengthRow]) error {
		idx, err := query.IndexOf("members", "member", columns.MemberIDs(d.members), f.Members)
		if err != nil {
			return err
		}
		cms, w := d.selectModes(f)
		if err := s.Begin(gridTotal(cms, len(idx)), w); err != nil {
			return err
		}
		var col []columns.EffLengthRow
		return pageGrid(cms, len(idx), f, func(i int) error {
			cs, err := query.ReadCaseRows(d.cols, []int64{cms[i].c.LoadCase}, columns.Lengths)
			if err == nil {
				col = cs[0]
			}
			return err
		}, func(i, mode, item int) error {
			c, m := cms[i].c, idx[item]
			v := &col[(mode-1)*len(d.members)+m]
			row := model.EffectiveLengthRow{LoadCase: c.LoadCase, Mode: mode, Member: d.members[m].ID,
				Pcr: v.Pcr, Length: v.Length, Ly: v.Ly, Lz: v.Lz}
			if code := int(v.Reason); code > 0 && code <= len(c.Reasons) {
				row.ExclusionReason = c.Reasons[code-1]
			}
			return s.Add(row)
		})
	})
}

// ParseNormalization reads the normalization of a mode-shapes query for
// kind: "" means the default (Mass for frequencies, Unit for buckling,
// whose shapes are stored so).
func ParseNormalization(kind model.AnalysisFamily, s string) (string, error) {
	switch {
	case s == "" && kind == bucklingName:
		return model.NormalizeUnit, nil
	case s == "":
		return model.NormalizeMass, nil
	case kind == bucklingName && s == model.NormalizeUnit:
		return s, nil
	case kind == bucklingName:
		return "", model.Invalid("normalization", "normalization of buckling mode shapes must be Unit (the largest translation 1), got %q", s)
	case s == model.NormalizeMass || s == model.NormalizeUnit || s == model.NormalizeNone:
		return s, nil
	}
	return "", model.Invalid("normalization", "normalization must be Mass, Unit or None, got %q", s)
}

// ModeShapes answers dynamic/mode-shapes (kind KindDynamic) and
// buckling/mode-shapes: one row per load case and mode, arrays over the
// selected nodes, scaled as f.Normalization says (see ParseNormalization).
func (q reader) ModeShapes(ctx context.Context, ws string, kind model.AnalysisFamily, f query.Filter, sink query.Sink[model.ModeShapeRow]) error {
	norm, err := ParseNormalization(kind, f.Normalization)
	if err != nil {
		return err
	}
	return eigenView(q, ctx, ws, kind, f, sink, func(d *eigenData, s *query.Stream[model.ModeShapeRow]) error {
		idx, err := query.IndexOf("nodes", "node", d.nodes, f.Nodes)
		if err != nil {
			return err
		}
		cms, w := d.selectModes(f)
		total := gridTotal(cms, 1)
		lo, hi := query.PageOf(total, f.Offset, f.Limit)
		if err := checkShapePage(hi-lo, int64(len(idx))); err != nil {
			return err
		}
		if err := s.Begin(total, w); err != nil {
			return err
		}
		var col []columns.DispRow
		return pageGrid(cms, 1, f, func(i int) error {
			cs, err := query.ReadCaseRows(d.cols, []int64{cms[i].c.LoadCase}, columns.Shapes)
			if err == nil {
				col = cs[0]
			}
			return err
		}, func(i, mode, _ int) error {
			n := len(d.nodes)
			shape := make([][6]float64, n)
			for k := range shape {
				shape[k] = col[(mode-1)*n+k].U
			}
			switch norm {
			case model.NormalizeMass:
				// φᵀ·M·φ = 1 as stored; the sign is made that of the
				// largest translation, so that reruns agree.
				modal.Normalize(shape, modal.MassNormalized)
				signLargest(shape)
			case model.NormalizeUnit:
				modal.Normalize(shape, modal.UnitNormalized)
			}
			row := model.ModeShapeRow{LoadCase: cms[i].c.LoadCase, Mode: mode, Normalization: norm, Node: make([]int64, len(idx))}
			arrays := []*[]float64{&row.Tx, &row.Ty, &row.Tz, &row.Rx, &row.Ry, &row.Rz}
			for a, arr := range arrays {
				*arr = make([]float64, len(idx))
				for j, k := range idx {
					(*arr)[j] = shape[k][a]
				}
			}
			for j, k := range idx {
				row.Node[j] = d.nodes[k]
			}
			return s.Add(row)
		})
	})
}

// checkShapePage refuses a page of rows mode shapes over nodes nodes
// each that would hold more than MaxShapeEntries node entries.
func checkShapePage(rows, nodes int64) error {
	if n := rows * nodes; n > MaxShapeEntries {
		return model.Invalid("limit", "this page of mode shapes would hold %d node entries (%d rows of %d nodes); "+
			"a page holds at most %d: ask for fewer rows with limit, or fewer nodes with nodes", n, rows, nodes, MaxShapeEntries)
	}
	return nil
}

// signLargest makes the component that scales shape (modal.Dominant)
// positive.
func signLargest(shape [][6]float64) {
	n, d := modal.Dominant(shape)
	if n < 0 || !(shape[n][d] < 0) {
		return
	}
	for i := range shape {
		for k := range 6 {
			shape[i][k] = -shape[i][k]
		}
	}
}
