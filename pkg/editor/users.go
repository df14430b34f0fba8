package editor

import (
	"context"

	"github.com/gusset/gusset/pkg/model"
)

// This file finds the rows that still refer to a section, a material or a
// load category (Kind.Users). Deleting such a row would leave members
// without a section or loads in a category that no longer exists, which
// would only fail later, in an analysis; so the delete is a 409 naming the
// users.

// sectionUsers maps each section among ids to the members using it.
func (s *Structure) sectionUsers(ctx context.Context, ws string, ids map[int64]bool) (map[int64]error, error) {
	members, err := s.Members.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	users := usersOf(members, ids, func(m *model.Member) (int64, int64) { return m.Section, m.ID })
	return conflicts("section", "members", users), nil
}

// materialUsers maps each material among ids to the members, or else the
// plates, using it.
func (s *Structure) materialUsers(ctx context.Context, ws string, ids map[int64]bool) (map[int64]error, error) {
	members, err := s.Members.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	plates, err := s.Plates.All(ctx, ws)
	if err != nil {
		return nil, err
	}
	out := conflicts("material", "plates",
		usersOf(plates, ids, func(p *model.Plate) (int64, int64) { return p.Material, p.ID }))
	for id, e := range conflicts("material", "members",
		usersOf(members, ids, func(m *model.Member) (int64, int64) { return m.Material, m.ID })) {
		out[id] = e // members are named first when both use it
	}
	return out, nil
}

// categoryUsers maps each load category among ids to the first kind of
// load using it.
func (l *Loads) categoryUsers(ctx context.Context, ws string, ids map[int64]bool) (map[int64]error, error) {
	type source struct {
		noun string
		cats func() ([]int64, error)
	}
	sources := []source{
		{"node loads", categories(ctx, ws, l.NodeLoads, func(x *model.NodeLoad) int64 { return x.LoadCategory })},
		{"prescribed displacements", categories(ctx, ws, l.Prescribed, func(x *model.PrescribedDisplacement) int64 { return x.LoadCategory })},
		{"lumped masses", categories(ctx, ws, l.LumpedMasses, func(x *model.LumpedMassLoad) int64 { return x.LoadCategory })},
		{"member concentrated loads", categories(ctx, ws, l.Concentrated, func(x *model.MemberConcentratedLoad) int64 { return x.LoadCategory })},
		{"member distributed loads", categories(ctx, ws, l.Distributed, func(x *model.MemberDistributedLoad) int64 { return x.LoadCategory })},
		{"member distributed moments", categories(ctx, ws, l.Moments, func(x *model.MemberDistributedMoment) int64 { return x.LoadCategory })},
		{"member prestress loads", categories(ctx, ws, l.Prestress, func(x *model.MemberPrestressLoad) int64 { return x.LoadCategory })},
		{"plate pressure loads", categories(ctx, ws, l.Pressures, func(x *model.PlatePressureLoad) int64 { return x.LoadCategory })},
		{"self-weight loads", categories(ctx, ws, l.SelfWeight, func(x *model.SelfWeightLoad) int64 { return x.LoadCategory })},
		{"thermal loads", categories(ctx, ws, l.Thermal, func(x *model.ThermalLoad) int64 { return x.LoadCategory })},
	}
	out := map[int64]error{}
	for _, s := range sources {
		cats, err := s.cats()
		if err != nil {
			return nil, err
		}
		for _, c := range cats {
			if ids[c] && out[c] == nil {
				out[c] = model.E(model.KindConflict, "load category %d is used by %s; change or delete those loads first", c, s.noun)
			}
		}
	}
	return out, nil
}

// categories reads, when called, the category of every row of a load
// collection.
func categories[T any](ctx context.Context, ws string, c *Collection[T], cat func(*T) int64) func() ([]int64, error) {
	return func() ([]int64, error) {
		rows, err := c.All(ctx, ws)
		out := make([]int64, len(rows))
		for i := range rows {
			out[i] = cat(&rows[i])
		}
		return out, err
	}
}

// usersOf groups the ids of rows by the referenced id (among ids) that
// ref reads from each row.
func usersOf[T any](rows []T, ids map[int64]bool, ref func(*T) (target, user int64)) map[int64][]int64 {
	out := map[int64][]int64{}
	for i := range rows {
		if target, user := ref(&rows[i]); ids[target] {
			out[target] = append(out[target], user)
		}
	}
	return out
}

// conflicts words the users of each id as the conflict a delete answers.
func conflicts(noun, what string, users map[int64][]int64) map[int64]error {
	out := map[int64]error{}
	for id, u := range users {
		out[id] = model.E(model.KindConflict, "%s %d is used by %s %s; change or delete them first", noun, id, what, model.FormatIDs(u, nil))
	}
	return out
}
