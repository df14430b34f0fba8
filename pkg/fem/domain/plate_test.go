package domain_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/internal/platecase"
	"github.com/gusset/gusset/pkg/fem/shell"
)

// onePlate returns a model of one plate on corners at the given points,
// ids 1..4, the plate 7.
func onePlate(pts ...[3]float64) *domain.Model {
	m := &domain.Model{Materials: []domain.Material{platecase.Material(30e9, 0.2)}}
	var ids []int64
	for i, p := range pts {
		id := int64(i + 1)
		ids = append(ids, id)
		m.Nodes = append(m.Nodes, domain.Node{ID: id, X: p[0], Y: p[1], Z: p[2]})
	}
	m.Plates = []domain.Plate{{ID: 7, Nodes: ids, Material: platecase.MaterialID, Thickness: 0.2, Theory: shell.Mindlin}}
	return m
}

// TestPlateChecks: a plate that cannot be analysed fails the build with
// its ID and the reason a person can act on; a mildly distorted one
// builds and warns, naming it.
func TestPlateChecks(t *testing.T) {
	sq := [][3]float64{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}
	cases := []struct {
		name string
		m    func() *domain.Model
		err  string // substring of the error; "" builds
		warn string // substring of a warning
	}{
		{"coincident corners", func() *domain.Model { return onePlate(sq[0], sq[1], sq[1], sq[3]) }, "plate 7: plate: corners B and C coincide", ""},
		{"collinear triangle", func() *domain.Model { return onePlate(sq[0], sq[1], [3]float64{2, 0, 0}) }, "plate 7: plate: corners A, B and C are collinear", ""},
		{"re-entrant quad", func() *domain.Model { return onePlate(sq[0], sq[1], [3]float64{0.2, 0.2, 0}, sq[3]) }, "not convex", ""},
		{"badly warped", func() *domain.Model { return onePlate(sq[0], sq[1], [3]float64{1, 1, 0.3}, sq[3]) }, "plate 7: is warped too much", ""},
		{"mildly warped", func() *domain.Model { return onePlate(sq[0], sq[1], [3]float64{1, 1, 0.1}, sq[3]) }, "", "warped"},
		{"elongated", func() *domain.Model {
			return onePlate(sq[0], [3]float64{20, 0, 0}, [3]float64{20, 1, 0}, sq[3])
		}, "", "elongated (longest edge more than 10 times the shortest), which loses accuracy: 7"},
		{"zero thickness", func() *domain.Model { m := onePlate(sq...); m.Plates[0].Thickness = 0; return m }, "plate 7: thickness 0 m must be positive", ""},
		{"missing material", func() *domain.Model { m := onePlate(sq...); m.Plates[0].Material = 99; return m }, `plate 7: material "99" does not exist`, ""},
		{"missing node", func() *domain.Model { m := onePlate(sq...); m.Plates[0].Nodes[2] = 26; return m }, `plate 7: corner node "26" does not exist`, ""},
		{"repeated node", func() *domain.Model { m := onePlate(sq...); m.Plates[0].Nodes[2] = 1; return m }, "plate 7: corner node 1 is used twice", ""},
		{"direction normal", func() *domain.Model {
			m := onePlate(sq...)
			m.Plates[0].DirectionAxis = geom.ZAxis // the normal
			return m
		}, "plate 7: direction axis", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := domain.Build(context.Background(), tc.m(), domain.BuildOptions{})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(d.Warnings, "\n"), tc.warn) {
				t.Errorf("warnings %q, want one containing %q", d.Warnings, tc.warn)
			}
		})
	}
}
