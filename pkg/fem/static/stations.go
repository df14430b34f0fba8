package static

import (
	"context"
	"fmt"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/element"
	"github.com/gusset/gusset/pkg/fem/internal/par"
)

// MemberEnd is the stored end state of one member under one load case or
// combination: the fields of Analyze's MemberResult that, with the member
// loads, fix everything along the member.
type MemberEnd struct {
	Member     int64      // member id, as in the model
	EndA, EndB [6]float64 // MemberResult.EndA and EndB
	DispA      [6]float64 // MemberResult.DispA
	Inactive   bool       // MemberResult.Inactive: no stations
}

// Stations rebuilds the member results of the load case or combination
// id (combinations may nest) from stored end states, as Analyze's
// recovery computes them: one MemberResult per entry of ends, in order,
// with Member, EndA, EndB, DispA and Inactive copied, Axes from m's
// geometry and Stations evaluated at the same points (the Options.Divisions division points and
// both sides of every point load), from the same member loads, with the
// same evaluator and stress factors. Given Analyze's end states they equal
// Analyze's stations up to the order of floating-point sums. Only
// Options.Divisions and Options.SecondOrder are read: the end states of a
// second-order analysis get the moments of their axial force on the
// displaced member (SecondOrder).
//
// m may be the analysed model or a sub-model of it: the members of
// interest, their end and direction nodes, their sections and materials,
// and the load cases and combinations (same ids, cases in the same
// order) holding the loads of those members only. The caller filters the
// loads: a member, thermal or prestress load on a member that is not in m
// is an error naming it, as in Analyze. Self-weight acts on the members of
// m. Node loads and prescribed displacements act on members only through
// their end states and are ignored; supports and constraints are not
// read, and nothing is numbered, assembled or factored. Every member of m
// is checked and prepared (in parallel), so a sub-model costs in
// proportion to its size, not the analysed model's.
func Stations(ctx context.Context, m *domain.Model, opts Options, id int64, ends []MemberEnd) ([]MemberResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("stations: %w", err)
	}
	d, err := domain.Build(ctx, m, domain.BuildOptions{MembersOnly: true})
	if err != nil {
		return nil, fmt.Errorf("stations: %w", err)
	}
	a := &analysis{ctx: ctx, d: d, model: m, opts: opts, frames: d.Frames}
	idx := make([]int, len(ends))
	for i := range ends {
		mi, ok := d.Member(ends[i].Member)
		if !ok {
			return nil, fmt.Errorf("stations: %w", domain.ModelErrorf(domain.ModelError{Member: ends[i].Member},
				"member \"%d\" is not in the model", ends[i].Member))
		}
		idx[i] = mi
	}
	var cl *caseLoads
	if d.IsCase(id) {
		var l *domain.Loads
		l, err = d.ResolveCase(id)
		cl = &caseLoads{Loads: l}
	} else {
		// As Analyze recovers a combination: from its combined loads.
		cl, _, err = a.combined(id, map[int64]*caseLoads{})
	}
	if err != nil {
		return nil, fmt.Errorf("stations: %w", err)
	}
	out := make([]MemberResult, len(ends))
	div := a.divisions()
	par.Chunks(len(ends), recoverChunk, func(_, lo, hi int) {
		if ctx.Err() != nil {
			return
		}
		total := 0
		for i := lo; i < hi; i++ {
			if !ends[i].Inactive {
				total += stationCount(div, cl.Member[idx[i]])
			}
		}
		slab := make([]Station, 0, total)
		var pts []stationPoint
		var ev element.StationEvaluator
		for i := lo; i < hi; i++ {
			e, r := &ends[i], &out[i]
			mb, l := a.frames[idx[i]], cl.Member[idx[i]]
			*r = MemberResult{Member: e.Member, Inactive: e.Inactive, EndA: e.EndA, EndB: e.EndB, DispA: e.DispA, Axes: mb.Rot}
			if e.Inactive {
				continue
			}
			sc := newStressCoef(mb)
			pts = stationPoints(pts[:0], mb.Props.L, div, l)
			slab, r.Stations = appendStations(slab, &ev, mb.Props, &sc, l, &r.EndA, &r.DispA, pts)
			if opts.SecondOrder != FirstOrder {
				addSecondOrder(r.Stations, &ev, &sc, mb.Props.L, opts.SecondOrder, &r.EndA, &r.EndB, &r.DispA)
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("stations: %w", err)
	}
	return out, nil
}

// addSecondOrder adds to the moments of stations (evaluated by ev from
// the end state qA, uA on the initial geometry) the moments of the
// member's mean axial force n = (qB[0] − qA[0])/2 on the transverse
// displacements relative to end A: those of the displaced member
// (CurveSecondOrder) or of its chord (ChordSecondOrder). This is the
// free body from A to the station in its displaced position, with the
// end-A actions that already hold the geometric forces; with the axial
// force the geometric stiffness used (its mean), the stations close on
// end B's moments. The stresses follow the moments. Tension straightens (a compressed member's moments
// grow with its deflection).
func addSecondOrder(sts []Station, ev *element.StationEvaluator, sc *stressCoef, L float64, so SecondOrder, qA, qB, uA *[6]float64) {
	n := (qB[0] - qA[0]) / 2
	var uB [6]float64
	if so == ChordSecondOrder {
		var f [6]float64
		ev.At(L, false, &f, &uB)
	}
	for i := range sts {
		st := &sts[i]
		dv, dw := st.Disp[1]-uA[1], st.Disp[2]-uA[2]
		if so == ChordSecondOrder {
			t := st.X / L
			dv, dw = t*(uB[1]-uA[1]), t*(uB[2]-uA[2])
		}
		// Mz is positive for tension at −y and My for tension at +z
		// (Station): a tension n displaced by +v about the section
		// adds −n·v to Mz and +n·w to My.
		st.Forces[5] += n * dv
		st.Forces[4] -= n * dw
		sc.stress(&st.Forces, &st.Stress)
	}
}
