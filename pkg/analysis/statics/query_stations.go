package statics

import (
	"context"
	"math"
	"slices"

	"github.com/gusset/gusset/pkg/analysis/adapter"
	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/analysis/query"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/static"
	"github.com/gusset/gusset/pkg/model"
)

// Station values are not stored: the stored end state of a member and its
// loads fix everything along it (exact piecewise polynomials), so the
// queries below rebuild the members of one page from the model and
// evaluate them (static.Stations).

// stationCases is how many load cases one model of a station query
// holds the loads of: building the members is most of a station query's
// work besides the stations, so a model serves the rows of many cases,
// while its loads stay those of a few.
const stationCases = 64

// stationStream resolves the members and the page of a station query,
// states the answer and calls emit with each (case, member) pair's
// results, in row order. It derives them BatchRows at a time, with the
// members of the page built once per stationCases cases (with the loads
// of those cases): an answer of any size costs the memory of one batch
// and one such model.
func stationStream[T any](q reader, ctx context.Context, ws string, f query.Filter, d *staticData, s *query.Stream[T],
	emit func(lc int64, member int64, r *static.MemberResult) error) error {
	ids := columns.MemberIDs(d.members)
	idx, err := query.IndexOf("members", "member", ids, f.Members)
	if err != nil {
		return err
	}
	n := int64(len(idx))
	total := int64(len(d.cases)) * n
	if err := s.Begin(total, d.warnings()); err != nil {
		return err
	}
	lo, hi := query.PageOf(total, f.Offset, f.Limit)
	var settings *model.Settings
	var m *domain.Model
	built := int64(-1)
	// modelOf returns the model of the group of cases case index c is in:
	// the members of the page's rows of those cases with their loads.
	modelOf := func(c int64) (*domain.Model, error) {
		if g := c / stationCases; g != built {
			if settings == nil {
				job, _, err := q.Jobs.Job(ctx, ws)
				if err != nil {
					return nil, err
				}
				settings = &job.Settings
			}
			k0, k1 := max(lo, g*stationCases*n), min(hi, min((g+1)*stationCases, int64(len(d.cases)))*n)
			var want []int64
			seen := map[int]bool{}
			for k := k0; k < k1 && len(want) < len(idx); k++ {
				if i := int(k % n); !seen[i] {
					seen[i] = true
					want = append(want, ids[idx[i]])
				}
			}
			var err error
			if m, err = q.stationModel(ctx, ws, *settings, d.meta, sortedCopy(want), d.cases[k0/n:(k1-1)/n+1]); err != nil {
				return nil, err
			}
			built = g
		}
		return m, nil
	}
	return query.GridRows(len(d.cases), len(idx), f, func(k0, k1 int64) error {
		ends, err := query.ReadCaseRows(d.cols, d.cases[k0/n:(k1-1)/n+1], columns.End)
		if err != nil {
			return err
		}
		// The rows of one case at a time.
		for lo := k0; lo < k1; {
			c := lo / n
			hi := min(k1, (c+1)*n)
			col := ends[c-k0/n]
			in := make([]static.MemberEnd, 0, hi-lo)
			for k := lo; k < hi; k++ {
				mi := idx[k%n]
				v := &col[mi]
				in = append(in, static.MemberEnd{Member: ids[mi], EndA: v.A, EndB: v.B, DispA: v.DispA,
					Inactive: v.IsInactive()})
			}
			lc := d.cases[c]
			m, err := modelOf(c)
			if err != nil {
				return err
			}
			res, err := static.Stations(ctx, m, d.meta.stationOptions(lc), lc, in)
			if err != nil {
				return err
			}
			for j := range res {
				member := in[j].Member
				if err := finiteStations(&res[j], member, lc); err != nil {
					return err
				}
				if err := emit(lc, member, &res[j]); err != nil {
					return err
				}
			}
			lo = hi
		}
		return nil
	})
}

// stationModel builds the members the stations of cases need
// (BuildMembers) with their loads. A Step load case has no loads of its
// own: it is the case it is a step of at the step's load factor, so it
// joins the model as a combination of that case alone, by that factor.
func (q reader) stationModel(ctx context.Context, ws string, settings model.Settings, meta *StaticMeta, members, cases []int64) (*domain.Model, error) {
	build := make([]int64, 0, len(cases))
	var steps []*columns.CaseMeta
	for _, lc := range cases {
		c := meta.Case(lc)
		if c == nil || c.StepOf == 0 {
			build = append(build, lc)
			continue
		}
		build = append(build, c.StepOf)
		steps = append(steps, c)
	}
	m, err := adapter.BuildMembers(ctx, q.Source, ws, settings, members, build)
	if err != nil {
		return nil, err
	}
	for _, c := range steps {
		m.Combinations = append(m.Combinations, domain.Combination{ID: c.LoadCase,
			Terms: []domain.Term{{Case: c.StepOf, Factor: c.LoadFactor}}})
	}
	return m, nil
}

// stationOptions returns the options that rebuild the stations of case
// lc's stored end states.
func (m *StaticMeta) stationOptions(lc int64) static.Options {
	if c := m.Case(lc); c != nil {
		switch c.SecondOrder {
		case secondOrderChord:
			return static.Options{SecondOrder: static.ChordSecondOrder}
		case secondOrderCurve:
			return static.Options{SecondOrder: static.CurveSecondOrder}
		}
	}
	return static.Options{}
}

func sortedCopy(ids []int64) []int64 {
	out := append([]int64(nil), ids...)
	slices.Sort(out)
	return out
}

// MemberForces answers member-intermediate-forces.
func (q reader) MemberForces(ctx context.Context, ws string, f query.Filter, sink query.Sink[model.MemberForcesRow]) error {
	return view(q, ctx, ws, f, sink, false, true, func(d *staticData, s *query.Stream[model.MemberForcesRow]) error {
		return stationStream(q, ctx, ws, f, d, s, func(lc, member int64, r *static.MemberResult) error {
			n := len(r.Stations)
			row := model.MemberForcesRow{LoadCase: lc, Member: member, Station: make([]int, n), Location: make([]float64, n),
				Fx: make([]float64, n), Fy: make([]float64, n), Fz: make([]float64, n),
				Mx: make([]float64, n), My: make([]float64, n), Mz: make([]float64, n)}
			for i, s := range r.Stations {
				row.Station[i], row.Location[i] = i+1, s.X
				row.Fx[i], row.Fy[i], row.Fz[i] = s.Forces[0], s.Forces[1], s.Forces[2]
				row.Mx[i], row.My[i], row.Mz[i] = s.Forces[3], s.Forces[4], s.Forces[5]
			}
			return s.Add(row)
		})
	})
}

// MemberDisplacements answers member-intermediate-displacements.
func (q reader) MemberDisplacements(ctx context.Context, ws string, f query.Filter, sink query.Sink[model.MemberDisplacementsRow]) error {
	return view(q, ctx, ws, f, sink, false, true, func(d *staticData, s *query.Stream[model.MemberDisplacementsRow]) error {
		return stationStream(q, ctx, ws, f, d, s, func(lc, member int64, r *static.MemberResult) error {
			n := len(r.Stations)
			row := model.MemberDisplacementsRow{LoadCase: lc, Member: member, Station: make([]int, n), Location: make([]float64, n),
				TxGlobal: make([]float64, n), TyGlobal: make([]float64, n), TzGlobal: make([]float64, n),
				TxLocal: make([]float64, n), TyLocal: make([]float64, n), TzLocal: make([]float64, n)}
			ax := r.Axes
			for i, s := range r.Stations {
				row.Station[i], row.Location[i] = i+1, s.X
				u := s.Disp
				row.TxLocal[i], row.TyLocal[i], row.TzLocal[i] = u[0], u[1], u[2]
				// Rows of ax are the local axes in global coordinates.
				row.TxGlobal[i] = u[0]*ax[0][0] + u[1]*ax[1][0] + u[2]*ax[2][0]
				row.TyGlobal[i] = u[0]*ax[0][1] + u[1]*ax[1][1] + u[2]*ax[2][1]
				row.TzGlobal[i] = u[0]*ax[0][2] + u[1]*ax[1][2] + u[2]*ax[2][2]
			}
			return s.Add(row)
		})
	})
}

// MemberStresses answers member-stresses.
func (q reader) MemberStresses(ctx context.Context, ws string, f query.Filter, sink query.Sink[model.MemberStressesRow]) error {
	return view(q, ctx, ws, f, sink, false, true, func(d *staticData, s *query.Stream[model.MemberStressesRow]) error {
		return stationStream(q, ctx, ws, f, d, s, func(lc, member int64, r *static.MemberResult) error {
			n := len(r.Stations)
			col := func() []float64 { return make([]float64, n) }
			row := model.MemberStressesRow{LoadCase: lc, Member: member, Station: make([]int, n), Position: col(),
				N: col(), Vy: col(), Vz: col(), Mx: col(), MyTop: col(), MyBtm: col(), MzTop: col(), MzBtm: col(),
				NMyTop: col(), NMyBtm: col(), NMzTop: col(), NMzBtm: col()}
			for i, s := range r.Stations {
				st := s.Stress
				row.Station[i], row.Position[i] = i+1, s.X
				row.N[i], row.Vy[i], row.Vz[i] = st.Axial, st.ShearY, st.ShearZ
				row.MyTop[i], row.MyBtm[i] = st.BendingY[0], st.BendingY[1]
				row.MzTop[i], row.MzBtm[i] = st.BendingZ[0], st.BendingZ[1]
				row.NMyTop[i], row.NMyBtm[i] = st.Axial+st.BendingY[0], st.Axial+st.BendingY[1]
				row.NMzTop[i], row.NMzBtm[i] = st.Axial+st.BendingZ[0], st.Axial+st.BendingZ[1]
			}
			return s.Add(row)
		})
	})
}

// finiteStations refuses station values that are not finite numbers: an
// absurdly small section property (a shear area of 1e-300 mm² passes the
// rule "greater than zero") makes a stress overflow, and JSON cannot carry
// it. The model must be mended, so this is a conflict, not a failure.
func finiteStations(r *static.MemberResult, member, lc int64) error {
	for i := range r.Stations {
		s := &r.Stations[i]
		st := s.Stress
		vals := append(append(append([]float64{}, s.Forces[:]...), s.Disp[:]...), st.Axial, st.ShearY, st.ShearZ,
			st.BendingY[0], st.BendingY[1], st.BendingZ[0], st.BendingZ[1])
		for _, v := range vals {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return model.E(model.KindConflict, "member %d, load case %d: the results at %g m along the member are not finite numbers; "+
					"its section's properties (areas, shear areas, second moments) are too small for its forces: correct the section",
					member, lc, s.X)
			}
		}
	}
	return nil
}
