package dynamic

import (
	"context"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/modal"
)

// TestSturmWarns gives the Sturm check the first three frequencies of a
// cantilever with the second left out, as a solver that missed it would:
// the count between the first and third is 3, and the warning names that
// range.
func TestSturmWarns(t *testing.T) {
	m := &domain.Model{
		Nodes:     []domain.Node{{ID: 4}, {ID: 5, X: 5}},
		Materials: []domain.Material{{ID: 3, E: 2.1e11, G: 8.1e10, Density: 7850}},
		Sections:  []domain.Section{{ID: 2, A: 0.01, J: 1e-2, Iy: 0.02, Iz: 2e-6}},
		Members:   []domain.Member{{ID: 1, NodeA: 4, NodeB: 5, Section: 2, Material: 3}},
		Supports:  []domain.Support{{Node: 4, Code: "FFFFFF"}},
		LoadCases: []domain.LoadCase{{ID: 6, SelfWeight: [3]float64{0, -1, 0}}},
	}
	ctx := context.Background()
	res, err := Analyze(ctx, m, Options{Settings: modal.Settings{Modes: 3}})
	if err != nil || len(res.Warnings) != 0 {
		t.Fatalf("analysis: %v, warnings %q", err, res.Warnings)
	}
	s, err := modal.New(ctx, m, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	mm, _, err := massOf(s, &s.D.Model.LoadCases[0])
	if err != nil {
		t.Fatal(err)
	}
	var lambda []float64
	for i, md := range res.Cases[0].Modes {
		if i != 1 {
			lambda = append(lambda, omega2(md.Frequency))
		}
	}
	w, err := sturm(ctx, s, mm, lambda, lambda, 0, 0, 0, &Results{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w, "counts 3 modes between 0 and") || !strings.Contains(w, "but 2 were found") {
		t.Errorf("warning %q, want one counting 3 modes where 2 were found", w)
	}
}
