package adapter

import (
	"context"
	"fmt"
	"slices"

	"github.com/gusset/gusset/pkg/editor"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/model"
)

// The loads of the model: load cases and combinations (adapter.go),
// and here every load of every primary case.

var globalAxes = [3]geom.Axis{geom.XAxis, geom.YAxis, geom.ZAxis}

// memberLoadKinds reads the axes and positionUnits of a member load.
func memberLoadKinds(what string, lc, member int64, axes, units string) (domain.LoadAxes, domain.PositionKind, error) {
	row := fmt.Sprintf("(loadCase %d, member %d)", lc, member)
	a, ok := loadAxesNames[axes]
	if !ok {
		return 0, 0, unknownValue(what, row, "axes", axes)
	}
	p, ok := positionKinds[units]
	if !ok {
		return 0, 0, unknownValue(what, row, "positionUnits", units)
	}
	return a, p, nil
}

// neededCases returns the test of which cases the model built holds: all
// of them, or for a subset the cases asked for and, through
// combinations, every case they are made of.
func (b *builder) neededCases(cases []model.LoadCase) func(int64) bool {
	if b.sub == nil {
		return func(int64) bool { return true }
	}
	byID := make(map[int64]*model.LoadCase, len(cases))
	for i := range cases {
		byID[cases[i].ID] = &cases[i]
	}
	need := map[int64]bool{}
	var visit func(id int64)
	visit = func(id int64) {
		if need[id] {
			return
		}
		need[id] = true
		if c, ok := byID[id]; ok {
			for _, it := range c.CombinationItems {
				visit(it.LoadCase)
			}
		}
	}
	for _, id := range b.sub.cases {
		visit(id)
	}
	var primary []int64
	for id := range need {
		if c, ok := byID[id]; ok && len(c.CombinationItems) == 0 {
			primary = append(primary, id)
		}
	}
	b.sub.loadCases = &model.IDList{}
	slices.Sort(primary)
	for _, id := range primary {
		b.sub.loadCases.Ranges = append(b.sub.loadCases.Ranges, model.IDRange{Lo: id, Hi: id})
	}
	return func(id int64) bool { return need[id] }
}

// all reads every row of a load collection, or for a subset the rows of
// the cases it needs.
func all[T any](b *builder, c *editor.Collection[T]) ([]T, error) {
	if b.sub == nil {
		return c.All(b.ctx, b.ws)
	}
	if len(b.sub.loadCases.Ranges) == 0 {
		return nil, nil
	}
	out, _, err := c.List(b.ctx, b.ws, editor.ListQuery[T]{IDs: b.sub.loadCases, Limit: -1})
	return out, err
}

// getMany reads the rows of ids that exist, in order.
func getMany[T any](ctx context.Context, c *editor.Collection[T], ws string, ids []int64) ([]T, error) {
	recs, err := c.GetMany(ctx, ws, ids)
	if err != nil {
		return nil, err
	}
	out := make([]T, 0, len(recs))
	for _, r := range recs {
		if r != nil {
			out = append(out, *r)
		}
	}
	return out, nil
}

// loads converts every load of every primary case. Component loads of
// one record (fx, fy, fz) become one engine load per non-zero component.
func (b *builder) loads() error {
	l := b.src.Loads
	if b.sub == nil {
		if err := b.nodeLoads(); err != nil {
			return err
		}
	}
	cls, err := all(b, l.Concentrated)
	if err != nil {
		return err
	}
	for _, x := range cls {
		if !b.wants(x.Member) {
			continue
		}
		axes, pos, err := memberLoadKinds("member concentrated load", x.LoadCase, x.Member, x.Axes, x.PositionUnits)
		if err != nil {
			return err
		}
		c := b.loadCase(x.LoadCase)
		f := [6]float64{x.Fx, x.Fy, x.Fz, x.Mx, x.My, x.Mz}
		for i, v := range f {
			if v == 0 {
				continue
			}
			kind := domain.ConcentratedForce
			if i >= 3 {
				kind = domain.ConcentratedMoment
			}
			c.Members = append(c.Members, domain.MemberLoad{Member: x.Member, Type: kind, Axes: axes,
				Direction: globalAxes[i%3], Position: pos, A: x.Position, P1: v})
		}
	}
	dls, err := all(b, l.Distributed)
	if err != nil {
		return err
	}
	for _, x := range dls {
		if !b.wants(x.Member) {
			continue
		}
		if err := b.distributed("member distributed load", x.LoadCase, x.Member, domain.DistributedForce, x.Axes, x.PositionUnits, x.StartPosition, x.FinishPosition,
			[3][2]float64{{x.FxStart, x.FxFinish}, {x.FyStart, x.FyFinish}, {x.FzStart, x.FzFinish}}); err != nil {
			return err
		}
	}
	dms, err := all(b, l.Moments)
	if err != nil {
		return err
	}
	for _, x := range dms {
		if !b.wants(x.Member) {
			continue
		}
		if err := b.distributed("member distributed moment", x.LoadCase, x.Member, domain.DistributedMoment, x.Axes, x.PositionUnits, x.StartPosition, x.FinishPosition,
			[3][2]float64{{x.MxStart, x.MxFinish}, {x.MyStart, x.MyFinish}, {x.MzStart, x.MzFinish}}); err != nil {
			return err
		}
	}
	pss, err := all(b, l.Prestress)
	if err != nil {
		return err
	}
	for _, x := range pss {
		if !b.wants(x.Member) {
			continue
		}
		c := b.loadCase(x.LoadCase)
		c.Prestress = append(c.Prestress, domain.PrestressLoad{Member: x.Member, Force: x.Prestress})
	}
	sws, err := all(b, l.SelfWeight)
	if err != nil {
		return err
	}
	for _, x := range sws {
		b.loadCase(x.LoadCase).SelfWeight = [3]float64{x.AccelerationX / domain.G, x.AccelerationY / domain.G, x.AccelerationZ / domain.G}
	}
	ths, err := all(b, l.Thermal)
	if err != nil {
		return err
	}
	for _, x := range ths {
		if x.ElementType != "Member" && x.ElementType != "Plate" {
			return unknownValue("thermal load", fmt.Sprintf("(loadCase %d, element %d)", x.LoadCase, x.ElementID), "elementType", x.ElementType)
		}
		if b.sub != nil && (x.ElementType == "Plate" || !b.wants(x.ElementID)) {
			continue
		}
		if x.ElementType == "Plate" {
			b.plateThermal(x)
			continue
		}
		c := b.loadCase(x.LoadCase)
		c.Thermal = append(c.Thermal, domain.ThermalLoad{Member: x.ElementID, DT: x.ThermalLoad, DTy: x.YThermalGradient, DTz: x.ZThermalGradient})
	}
	b.yGradients()
	if b.sub != nil {
		return nil
	}
	return b.pressures()
}

// nodeLoads converts the node loads and prescribed displacements.
func (b *builder) nodeLoads() error {
	l := b.src.Loads
	nls, err := l.NodeLoads.All(b.ctx, b.ws)
	if err != nil {
		return err
	}
	for _, x := range nls {
		c := b.loadCase(x.LoadCase)
		c.NodeLoads = append(c.NodeLoads, domain.NodeLoad{Node: x.Node, F: [6]float64{x.Fx, x.Fy, x.Fz, x.Mx, x.My, x.Mz}})
	}
	pds, err := l.Prescribed.All(b.ctx, b.ws)
	if err != nil {
		return err
	}
	for _, x := range pds {
		v := [6]float64{x.Tx, x.Ty, x.Tz, x.Rx, x.Ry, x.Rz}
		p := domain.PrescribedDisplacement{Node: x.Node, Value: v}
		for i := range v {
			p.Set[i] = v[i] != 0
		}
		c := b.loadCase(x.LoadCase)
		c.Prescribed = append(c.Prescribed, p)
	}
	lms, err := l.LumpedMasses.All(b.ctx, b.ws)
	if err != nil {
		return err
	}
	for _, x := range lms {
		c := b.loadCase(x.LoadCase)
		c.Masses = append(c.Masses, domain.NodeMass{Node: x.Node, M: [6]float64{x.Tmx, x.Tmy, x.Tmz, x.Rmx, x.Rmy, x.Rmz}})
	}
	return nil
}

// distributed adds one engine load per non-zero component of a trapezoid.
func (b *builder) distributed(what string, lc, member int64, kind domain.MemberLoadType, axesName, units string, start, finish float64, w [3][2]float64) error {
	axes, pos, err := memberLoadKinds(what, lc, member, axesName, units)
	if err != nil {
		return err
	}
	c := b.loadCase(lc)
	for i, p := range w {
		if p[0] == 0 && p[1] == 0 {
			continue
		}
		c.Members = append(c.Members, domain.MemberLoad{Member: member, Type: kind, Axes: axes,
			Direction: globalAxes[i], Position: pos, A: start, B: finish, P1: p[0], P2: p[1]})
	}
	return nil
}
