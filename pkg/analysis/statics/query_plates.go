package statics

import (
	"context"
	"math"
	"slices"

	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/analysis/query"
	"github.com/gusset/gusset/pkg/fem/shell"
	"github.com/gusset/gusset/pkg/model"
)

// plateRow is one (case, plate) row of a plate query's page.
type plateRow struct {
	lc      int64
	corners *columns.PlateNodesRow
	v       *columns.PlateForcesRow
}

func (r *plateRow) plate() int64 { return r.corners.ID }

// resultants returns the stored resultants.
func (r *plateRow) resultants() shell.Resultants {
	return shell.Resultants{F: r.v.F, M: r.v.M, V: r.v.V}
}

// plateStream resolves the plates filter and the page of a plate query,
// states the answer and calls batch with its rows in order, at most
// query.BatchRows at a time. Results of a model without plates have no
// plates column: every query answers no rows.
func plateStream[T any](d *staticData, f query.Filter, s *query.Stream[T], batch func(rows []plateRow) error) error {
	raw, err := d.cols(columns.PlateNodes.Name())
	if err != nil {
		return err
	}
	var plates []columns.PlateNodesRow
	if raw[0] != nil {
		if plates, err = columns.PlateNodes.Decode(raw[0], columns.PlateNodes.Name()); err != nil {
			return err
		}
	}
	ids := make([]int64, len(plates))
	for i := range plates {
		ids[i] = plates[i].ID
	}
	idx, err := query.IndexOf("plates", "plate", ids, f.Plates)
	if err != nil {
		return err
	}
	n := int64(len(idx))
	if err := s.Begin(int64(len(d.cases))*n, d.warnings()); err != nil {
		return err
	}
	rows := make([]plateRow, 0, query.BatchRows)
	return query.GridBatches(len(d.cases), len(idx), f, func(c0, c1 int, k0, k1 int64) error {
		cols, err := query.ReadCaseRows(d.cols, d.cases[c0:c1], columns.PlateForces)
		if err != nil {
			return err
		}
		for k := k0; k < k1; k++ {
			c, p := int(k/n), idx[k%n]
			rows = append(rows, plateRow{lc: d.cases[c], corners: &plates[p], v: &cols[c-c0][p]})
			if len(rows) == query.BatchRows || k == k1-1 {
				if err := batch(rows); err != nil {
					return err
				}
				rows = rows[:0]
			}
		}
		return nil
	})
}

// PlateForces answers plate-element-forces.
func (q reader) PlateForces(ctx context.Context, ws string, f query.Filter, sink query.Sink[model.PlateForcesRow]) error {
	return view(q, ctx, ws, f, sink, false, false, func(d *staticData, s *query.Stream[model.PlateForcesRow]) error {
		return plateStream(d, f, s, func(rows []plateRow) error {
			for i := range rows {
				r := rows[i].resultants()
				row := model.PlateForcesRow{LoadCase: rows[i].lc, Plate: rows[i].plate(),
					Fx: r.F[0], Fy: r.F[1], Fxy: r.F[2], Mx: r.M[0], My: r.M[1], Mxy: r.M[2], Vxz: r.V[0], Vyz: r.V[1]}
				row.MxTop, row.MyTop, row.MxBtm, row.MyBtm = shell.WoodArmer(r.M)
				if err := s.Add(row); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// PlateNodalForces answers plate-nodal-forces.
func (q reader) PlateNodalForces(ctx context.Context, ws string, f query.Filter, sink query.Sink[model.PlateNodalForcesRow]) error {
	return view(q, ctx, ws, f, sink, false, false, func(d *staticData, s *query.Stream[model.PlateNodalForcesRow]) error {
		return plateStream(d, f, s, func(rows []plateRow) error {
			for i := range rows {
				corners := rows[i].corners.Corners()
				n := len(corners)
				row := model.PlateNodalForcesRow{LoadCase: rows[i].lc, Plate: rows[i].plate(), Node: corners,
					Fx: make([]float64, n), Fy: make([]float64, n), Fz: make([]float64, n),
					Mx: make([]float64, n), My: make([]float64, n), Mz: make([]float64, n)}
				for k := range n {
					v := &rows[i].v.Corners[k]
					row.Fx[k], row.Fy[k], row.Fz[k], row.Mx[k], row.My[k], row.Mz[k] = v[0], v[1], v[2], v[3], v[4], v[5]
				}
				if err := s.Add(row); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// PlateStresses answers plate-element-stresses. Stresses are not stored:
// they follow from the stored resultants and the plate's thicknesses,
// which cannot have changed since (any model change deletes the results).
func (q reader) PlateStresses(ctx context.Context, ws string, f query.Filter, sink query.Sink[model.PlateStressesRow]) error {
	return view(q, ctx, ws, f, sink, false, false, func(d *staticData, s *query.Stream[model.PlateStressesRow]) error {
		return plateStream(d, f, s, func(rows []plateRow) error {
			props, err := q.plateProps(ctx, ws, rows)
			if err != nil {
				return err
			}
			for i := range rows {
				pr := props[rows[i].plate()]
				s2 := shell.StressesOf(rows[i].resultants(), pr.props, pr.t)
				row := model.PlateStressesRow{LoadCase: rows[i].lc, Plate: rows[i].plate(),
					SxTop: s2.Top.Sx, SyTop: s2.Top.Sy, TxyTop: s2.Top.Txy, SxpTop: s2.Top.S1, SypTop: s2.Top.S2,
					TmaxTop: s2.Top.Tmax, SvmTop: s2.Top.VonMises, PaTop: s2.Top.Angle,
					SxBtm: s2.Bottom.Sx, SyBtm: s2.Bottom.Sy, TxyBtm: s2.Bottom.Txy, SxpBtm: s2.Bottom.S1, SypBtm: s2.Bottom.S2,
					TmaxBtm: s2.Bottom.Tmax, SvmBtm: s2.Bottom.VonMises, PaBtm: s2.Bottom.Angle,
					Txz: s2.Txz, Tyz: s2.Tyz, SvmMax: s2.VonMisesMax}
				if err := finitePlateStresses(&row, pr); err != nil {
					return err
				}
				if err := s.Add(row); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// finitePlateStresses refuses stresses that are not finite numbers: a
// thickness that passes "greater than zero" can still be so small (a
// shear thickness of 1e-320 m, which a Kirchoff plate's stiffness never
// uses) that a stress overflows, and JSON cannot carry it. The plate must
// be mended, so this is a conflict, not a failure.
func finitePlateStresses(r *model.PlateStressesRow, pt plateThickness) error {
	for _, v := range []float64{r.SxTop, r.SyTop, r.TxyTop, r.SxpTop, r.SypTop, r.TmaxTop, r.SvmTop, r.PaTop,
		r.SxBtm, r.SyBtm, r.TxyBtm, r.SxpBtm, r.SypBtm, r.TmaxBtm, r.SvmBtm, r.PaBtm, r.Txz, r.Tyz, r.SvmMax} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return model.E(model.KindConflict, "plate %d, load case %d: its stresses are not finite numbers; its thicknesses "+
				"(membrane %g m, bending %g m, shear %g m) are too small for its forces: correct the plate",
				r.Plate, r.LoadCase, pt.props.Tm, pt.props.Tb, pt.props.Ts)
		}
	}
	return nil
}

// plateThickness is what the stresses of a plate need.
type plateThickness struct {
	props shell.Props // Tm, Tb, Ts
	t     float64     // the actual thickness
}

// plateProps reads the thicknesses of the plates of rows.
func (q reader) plateProps(ctx context.Context, ws string, rows []plateRow) (map[int64]plateThickness, error) {
	var ids []int64
	for i := range rows {
		ids = append(ids, rows[i].plate())
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	recs, err := q.Source.Structure.Plates.GetMany(ctx, ws, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]plateThickness, len(ids))
	for i, r := range recs {
		if r == nil {
			return nil, model.E(model.KindConflict, "plate %d of the results is no longer in the model: run the analysis again", ids[i])
		}
		ep, err := adapter.PlateOf(r)
		if err != nil {
			return nil, err
		}
		var pt plateThickness
		pt.props.Tm, pt.props.Tb, pt.props.Ts = ep.Rigidities()
		pt.t = ep.Thickness
		out[ids[i]] = pt
	}
	return out, nil
}
