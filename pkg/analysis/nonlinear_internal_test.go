package analysis

import (
	"context"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/model"
)

// TestRotateWarning: a large-displacement run warns about rotateLocalLoads
// when a case it runs brings member loads in, through nested combinations
// too; the Small theory, the setting off, or cases without member loads
// do not warn.
func TestRotateWarning(t *testing.T) {
	m := &domain.Model{
		Materials: []domain.Material{{Name: "1", E: 2e11, G: 8e10}},
		Sections:  []domain.Section{{Name: "1", A: 1e-2, J: 1e-5, Iy: 1e-5, Iz: 1e-5}},
		Nodes:     []domain.Node{{ID: "1"}, {ID: "2", X: 1}},
		Members:   []domain.Member{{ID: "1", NodeA: "1", NodeB: "2", Section: "1", Material: "1"}},
		Supports:  []domain.Support{{Node: "1", Code: "FFFFFF"}},
		LoadCases: []domain.LoadCase{
			{Name: "1", Members: []domain.MemberLoad{{Member: "1", Type: domain.ConcentratedForce, Axes: domain.Local, Direction: geom.YAxis, A: 0.5, P1: -1}}},
			{Name: "2", NodeLoads: []domain.NodeLoad{{Node: "2", F: [6]float64{1}}}},
		},
		Combinations: []domain.Combination{
			{Name: "3", Terms: []domain.Term{{Case: "1", Factor: 1.2}}},
			{Name: "4", Terms: []domain.Term{{Case: "3", Factor: 1}, {Case: "2", Factor: 1}}},
		},
	}
	d, err := domain.Build(context.Background(), m, domain.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	finite := model.StaticSettings{Theory: model.TheoryFinite, RotateLocalLoads: true}
	for _, c := range []struct {
		name  string
		s     model.StaticSettings
		cases []string
		warns bool
	}{
		{"nested combination", finite, []string{"4"}, true},
		{"primary with member loads", finite, []string{"1"}, true},
		{"node loads only", finite, []string{"2"}, false},
		{"setting off", model.StaticSettings{Theory: model.TheoryFinite}, []string{"4"}, false},
		{"small theory", model.StaticSettings{Theory: model.TheorySmall, RotateLocalLoads: true}, []string{"4"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := rotateWarning(c.s, d, c.cases)
			if c.warns && !strings.Contains(w, "load case 1") || !c.warns && w != "" {
				t.Errorf("warning %q; want one naming load case 1: %v", w, c.warns)
			}
		})
	}
}
