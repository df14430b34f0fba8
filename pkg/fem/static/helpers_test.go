package static_test

import (
	"context"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/static"
)

const (
	E  = 200e9
	Gm = 80e9
)

// steel is the id of base's material.
const steel = 1

// base returns a model with one steel material and the given sections.
func base(secs ...domain.Section) *domain.Model {
	return &domain.Model{
		Materials: []domain.Material{{ID: steel, E: E, G: Gm, Density: 7850, Alpha: 1.2e-5}},
		Sections:  secs,
	}
}

// sec is a Euler–Bernoulli section (no shear areas) with the given area
// and equal inertias about both axes.
func sec(id int64, a, i float64) domain.Section {
	return domain.Section{ID: id, A: a, J: 2 * i, Iy: i, Iz: i}
}

func node(id int64, x, y, z float64) domain.Node { return domain.Node{ID: id, X: x, Y: y, Z: z} }

func frame(id, a, b, s int64) domain.Member {
	return domain.Member{ID: id, NodeA: a, NodeB: b, Section: s, Material: steel}
}

func run(t *testing.T, m *domain.Model, opts static.Options) *static.Results {
	t.Helper()
	res, err := static.Analyze(context.Background(), m, opts)
	if err != nil {
		t.Fatalf("analyze: %v", err)
	}
	for _, c := range res.Cases {
		checkEquilibrium(t, c)
	}
	return res
}

// checkEquilibrium is the acceptance row "any model": the resultants of
// loads and reactions cancel to 1e-9 relative, and the largest residual is
// at most 1e-9 of the largest load. Both are round-off bounds: the solve
// is direct and the element exact.
func checkEquilibrium(t *testing.T, c static.CaseResult) {
	t.Helper()
	s := c.Summary
	// A case driven only by prescribed displacements has no load: judge
	// its residual against the largest reaction instead.
	ref := s.MaxLoad
	for _, n := range c.Nodes {
		for _, r := range n.Reaction {
			if s.MaxLoad == 0 {
				ref = math.Max(ref, math.Abs(r))
			}
		}
	}
	if !(ref > 0) {
		t.Errorf("case %d: no load or reaction, the equilibrium check would be vacuous", c.Case)
	}
	scale := 0.0
	for i := range 6 {
		scale = math.Max(scale, math.Max(math.Abs(s.Load[i]), math.Abs(s.Reaction[i])))
	}
	scale = math.Max(scale, ref) // self-equilibrated cases have tiny resultants
	for i := range 6 {
		if d := math.Abs(s.Load[i] + s.Reaction[i]); d > 1e-9*scale {
			t.Errorf("case %d: load %g + reaction %g = %g (component %d)", c.Case, s.Load[i], s.Reaction[i], d, i)
		}
	}
	if s.Residual > 1e-9*ref {
		t.Errorf("case %d: residual %g > 1e-9 × max load %g", c.Case, s.Residual, ref)
	}
}

func caseByName(t *testing.T, r *static.Results, id int64) static.CaseResult {
	t.Helper()
	for _, c := range r.Cases {
		if c.Case == id {
			return c
		}
	}
	t.Fatalf("case %d not in results", id)
	return static.CaseResult{}
}

func nodeRes(t *testing.T, c static.CaseResult, id int64) static.NodeResult {
	t.Helper()
	for _, n := range c.Nodes {
		if n.Node == id {
			return n
		}
	}
	t.Fatalf("node %d not in case %d", id, c.Case)
	return static.NodeResult{}
}

func memberRes(t *testing.T, c static.CaseResult, id int64) static.MemberResult {
	t.Helper()
	for _, m := range c.Members {
		if m.Member == id {
			return m
		}
	}
	t.Fatalf("member %d not in case %d", id, c.Case)
	return static.MemberResult{}
}

// stationAt returns the last station at x (the value just past any load).
func stationAt(t *testing.T, m static.MemberResult, x float64) static.Station {
	t.Helper()
	var st *static.Station
	for i := range m.Stations {
		if math.Abs(m.Stations[i].X-x) < 1e-12 {
			st = &m.Stations[i]
		}
	}
	if st == nil {
		t.Fatalf("member %d: no station at %g", m.Member, x)
	}
	return *st
}

type check struct {
	name      string
	got, want float64
	tol       float64 // relative
}

func verify(t *testing.T, checks []check) {
	t.Helper()
	for _, c := range checks {
		// Written so that a NaN result fails rather than passes.
		if d := math.Abs(c.got - c.want); !(d <= c.tol*math.Abs(c.want)) {
			t.Errorf("%s = %.10g, want %.10g (rel err %.2g > %.1g)", c.name, c.got, c.want, d/math.Abs(c.want), c.tol)
		}
	}
}
