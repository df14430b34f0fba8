package statics

import (
	"math"

	"github.com/gusset/gusset/pkg/analysis/columns"
	"github.com/gusset/gusset/pkg/analysis/lifecycle"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
	"github.com/gusset/gusset/pkg/fem/shell"
)

// nonlinearRows packs the converged state of one case into the columns of
// a static case (columns.go), so that every static query reads it:
// displacements are the total translations and rotation vectors, the
// member end actions those of the theory (nonlinear.MemberResult), and
// the cable column holds each Cable member's stretched length (0 for the
// other members; none without cables), the summary takes the moments of
// the loads and reactions about the origin at the displaced nodes, where the non-linear equilibrium holds.
// Kirchhoff plates get their shears from the patch fit, as in a linear
// analysis. Values that are not finite are refused with a message naming
// where to look.
func nonlinearRows(m *domain.Model, d *domain.Domain, res *nonlinear.Result) (caseRows, error) {
	var rows caseRows
	rows.disp = make([]columns.DispRow, len(res.Nodes))
	for n, nr := range res.Nodes {
		if !allStorable(nr.Translation[:], nr.Rotation[:], nr.Reaction[:]) {
			return rows, lifecycle.ModelError("the results at node %d are not finite numbers; check the properties of the members and supports there", nr.Node)
		}
		t, r := nr.Translation, nr.Rotation
		rows.disp[n] = columns.DispRow{U: [6]float64{t[0], t[1], t[2], r[0], r[1], r[2]}}
		at := d.Pos[n].Add(nr.Translation)
		if nr.HasReaction {
			rows.react = append(rows.react, columns.ReactRow{Node: float64(nr.Node), F: nr.Reaction})
			geom.AddResultant(&rows.sum.Reaction, at, nr.Reaction)
		}
		f := [6]float64(res.Applied[6*n : 6*n+6])
		geom.AddResultant(&rows.sum.Load, at, f)
		for _, v := range f {
			rows.sum.MaxLoad = math.Max(rows.sum.MaxLoad, math.Abs(v))
		}
	}
	rows.end = make([]columns.EndRow, len(res.Members))
	for i := range res.Members {
		mr := &res.Members[i]
		if !allStorable(mr.EndA[:], mr.EndB[:], mr.DispA[:]) {
			return rows, lifecycle.ModelError("the results of member %d are not finite numbers; check its section and material properties", mr.Member)
		}
		rows.end[i] = columns.NewEndRow(&mr.EndA, &mr.EndB, &mr.DispA, false)
		if m.Members[i].Type == domain.Cable {
			if rows.cable == nil {
				rows.cable = make([]float64, len(res.Members))
			}
			if !columns.Storable(mr.CableLength) {
				return rows, lifecycle.ModelError("the length of cable %d is not a finite number; check its section and material properties", mr.Member)
			}
			rows.cable[i] = mr.CableLength
		}
	}
	rows.sum.Residual = res.Residual
	if len(m.Plates) > 0 {
		plates := make([]domain.PlateResult, len(res.Plates))
		for i := range res.Plates {
			plates[i] = res.Plates[i].PlateResult
			r := plates[i].Resultants
			if !allStorable(r.F[:], r.M[:], r.V[:], plates[i].NodeForces) {
				return rows, lifecycle.ModelError("the results of plate %d are not finite numbers; check its thicknesses and material properties", res.Plates[i].Plate)
			}
		}
		fitShears(d, plates)
		rows.plate = plateValues(plates, func(p *domain.PlateResult) *domain.PlateResult { return p })
	}
	return rows, nil
}

// fitShears replaces the transverse shears of the Kirchhoff plates by
// those of the patch fit of the centroid moments (domain.Domain.
// ShearFitter); a plate whose patch gives no fit keeps its own.
func fitShears(d *domain.Domain, plates []domain.PlateResult) {
	m, f := make([][3]float64, len(plates)), make([][3]float64, len(plates))
	have := make([]bool, len(plates))
	for i := range plates {
		m[i], f[i], have[i] = plates[i].Resultants.M, plates[i].Resultants.F, true
	}
	fit := d.ShearFitter(m, f, have)
	for i := range plates {
		if v, how := fit(i); how != shell.FitNone {
			plates[i].Resultants.V = v
		}
	}
}
