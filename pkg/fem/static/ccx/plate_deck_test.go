//go:build ccx

package ccx

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/internal/platecase"
	"github.com/gusset/gusset/pkg/fem/shell"
)

// section returns the data lines of the first card of d that starts with
// head, up to the next card.
func section(d, head string) []string {
	i := strings.Index(d, head)
	if i < 0 {
		return nil
	}
	var out []string
	for _, l := range strings.Split(d[i:], "\n")[1:] {
		if strings.HasPrefix(l, "*") {
			break
		}
		out = append(out, l)
	}
	return out
}

// TestPlateDeck checks the refinement of WritePlates on a 2 × 1 grid
// (nodes n0_0 … n2_1, 6 model nodes), split 2 × 2: 15 nodes, the shared
// edge's midpoint made once, 8 elements with their parent's orientation,
// line supports on the edges' midpoints, pressures on every sub-element,
// and only the model nodes printed.
func TestPlateDeck(t *testing.T) {
	m := platecase.Grid(2, 1, 2, 1, false, shell.Mindlin, 0.1)
	for j := 0; j <= 1; j++ {
		m.Supports = append(m.Supports, domain.Support{Node: platecase.NodeID(0, j), Code: "FFFFFF"})
	}
	m.Supports = append(m.Supports, domain.Support{Node: platecase.NodeID(2, 0), Code: "RRFRRR"})
	m.LoadCases = []domain.LoadCase{{ID: 1, Pressures: []domain.PlatePressure{
		{Plate: platecase.PlateID(0, 0, 0), Axes: domain.Local, P: [3]float64{0, 0, -5}},
		{Plate: platecase.PlateID(1, 0, 0), Axes: domain.GlobalInclined, P: [3]float64{0, 0, 7}},
	}}}
	d, err := WritePlates(m, 1, PlateOptions{Refine: 2})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(section(d.Text, "*NODE, NSET=NALL")); n != 15 {
		t.Errorf("%d nodes, want 15", n)
	}
	els := section(d.Text, "*ELEMENT, TYPE=S4")
	if len(els) != 8 {
		t.Fatalf("%d elements, want 8", len(els))
	}
	// Plate p0_0 (nodes 1, 2, 5, 4) is refined point by point along A→B
	// then A→D: the midpoint of 4–1 is made first (node 7), then that of
	// 1–2 (8) and the centre (9). Its first sub-element is corner 1, the
	// midpoint of 1–2, the centre and the midpoint of 1–4.
	if els[0] != "1, 1, 8, 9, 7" {
		t.Errorf("first sub-element %q", els[0])
	}
	// The midpoint of the clamped edge n0_0–n0_1 (node 7) is clamped;
	// no other new node is held: n1_0, n1_1 and n2_1 are free.
	bnd := section(d.Text, "*BOUNDARY")
	for dof := 1; dof <= 6; dof++ {
		if !slices.Contains(bnd, fmt.Sprintf("7, %d, %d", dof, dof)) {
			t.Errorf("node 7 DOF %d not held: %q", dof, bnd)
		}
	}
	if len(bnd) != 6+6+1+6 {
		t.Errorf("%d boundary lines, want 19: %q", len(bnd), bnd)
	}
	dl := section(d.Text, "*DLOAD")
	if len(dl) != 8 || dl[0] != "1, P, -5.000000000000e+00" || dl[7] != "8, P, 7.000000000000e+00" {
		t.Errorf("pressures %q", dl)
	}
	if len(d.Nodes) != 6 || len(section(d.Text, "*NSET, NSET=NOUT")) != 1 {
		t.Errorf("printed nodes: %v", d.Nodes)
	}

	for name, mut := range map[string]func(*domain.Model){
		"triangle": func(m *domain.Model) { m.Plates[0].Nodes = m.Plates[0].Nodes[:3] },
		"offset":   func(m *domain.Model) { m.Plates[0].Offset = 0.01 },
		"in-plane pressure": func(m *domain.Model) {
			m.LoadCases[0].Pressures[0].P = [3]float64{1, 0, -5}
		},
		"projected pressure": func(m *domain.Model) { m.LoadCases[0].Pressures[1].Axes = domain.GlobalProjected },
		"self-weight":        func(m *domain.Model) { m.LoadCases[0].SelfWeight = [3]float64{0, 0, -1} },
		"spring":             func(m *domain.Model) { m.Supports[2].Springs[2] = 1e6 },
	} {
		mm := platecase.Grid(2, 1, 2, 1, false, shell.Mindlin, 0.1)
		mm.Supports = append([]domain.Support(nil), m.Supports...)
		mm.LoadCases = []domain.LoadCase{{ID: 1, Pressures: append([]domain.PlatePressure(nil), m.LoadCases[0].Pressures...)}}
		mut(mm)
		if _, err := WritePlates(mm, 1, PlateOptions{}); err == nil {
			t.Errorf("%s: written without an error", name)
		}
	}
}
