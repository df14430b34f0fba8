//go:build ccx

package ccx

import (
	"fmt"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
)

// gravity is the acceleration of the grid-n definition, m/s². Self-weight
// is given in units of domain.G, so SelfWeight = −gravity/domain.G makes
// both solvers load the members with exactly ρ·A·9.81 N/m.
const gravity = 9.81

// steel is the grid-n material.
var steel = domain.Material{Name: "steel", E: 200e9, G: 79.3e9, Density: 7850}

// gridModel builds grid-n: n×n×n bays of 3 m, (n+1)³ nodes numbered with
// x fastest, base nodes fixed, beams along x and y on every floor above
// the base and columns along z, all with the grid-n section; load case 1
// is self-weight plus 10 kN in +x at every node above the base. It is a
// private copy so that this test does not depend on package gridn.
func gridModel(n int) *domain.Model {
	const bay = 3.0
	m := &domain.Model{
		VerticalAxis: geom.ZAxis,
		Materials:    []domain.Material{steel},
		Sections: []domain.Section{{Name: "grid", A: 1e-2, Ay: 5e-3, Az: 5e-3,
			J: 2e-4, Iy: 1e-4, Iz: 1e-4}},
	}
	id := func(i, j, k int) string { return fmt.Sprintf("N%d_%d_%d", i, j, k) }
	lc := domain.LoadCase{Name: "1", SelfWeight: [3]float64{0, 0, -gravity / domain.G}}
	for k := 0; k <= n; k++ {
		for j := 0; j <= n; j++ {
			for i := 0; i <= n; i++ {
				m.Nodes = append(m.Nodes, domain.Node{ID: id(i, j, k), X: bay * float64(i), Y: bay * float64(j), Z: bay * float64(k)})
				if k == 0 {
					m.Supports = append(m.Supports, domain.Support{Node: id(i, j, k), Code: "FFFFFF"})
				} else {
					lc.NodeLoads = append(lc.NodeLoads, domain.NodeLoad{Node: id(i, j, k), F: [6]float64{10e3}})
				}
			}
		}
	}
	mem := func(a, b string) {
		m.Members = append(m.Members, domain.Member{ID: a + "-" + b, NodeA: a, NodeB: b, Section: "grid", Material: "steel"})
	}
	for k := 1; k <= n; k++ {
		for j := 0; j <= n; j++ {
			for i := 0; i <= n; i++ {
				if i < n {
					mem(id(i, j, k), id(i+1, j, k))
				}
				if j < n {
					mem(id(i, j, k), id(i, j+1, k))
				}
				mem(id(i, j, k-1), id(i, j, k))
			}
		}
	}
	m.LoadCases = []domain.LoadCase{lc}
	return m
}

// frameModel is a two-bay portal (spans 6 m along x, columns 4 m along z)
// that exercises every written feature at once:
//
//   - column sections with Iy ≠ Iz and Ay ≠ Az (J = Iy + Iz, see doc.go);
//   - beam D–E with rigid offsets of 0.2 m at both ends (column faces)
//     and a trapezoidal load of 8 → 14 kN/m downward;
//   - beam E–F released for bending at F ("FFFFRR": a pin about local y
//     and z, torsion kept), with a 20 kN point load at 2.5 m (not on a
//     division point, so the writer must insert a station) and a local
//     point moment;
//   - node loads in x and, out of plane, in y, so both bending planes,
//     torsion and the offsets' θ × e terms all move;
//   - self-weight.
func frameModel() *domain.Model {
	m := &domain.Model{
		VerticalAxis: geom.ZAxis,
		Materials:    []domain.Material{steel},
		Sections: []domain.Section{
			{Name: "col", A: 8e-3, Ay: 3e-3, Az: 4e-3, Iy: 1.2e-4, Iz: 0.5e-4, J: 1.7e-4},
			{Name: "beam", A: 1e-2, Ay: 5e-3, Az: 5e-3, Iy: 2e-4, Iz: 0.6e-4, J: 2.6e-4},
		},
		Nodes: []domain.Node{
			{ID: "A", X: 0}, {ID: "B", X: 6}, {ID: "C", X: 12},
			{ID: "D", X: 0, Z: 4}, {ID: "E", X: 6, Z: 4}, {ID: "F", X: 12, Z: 4},
		},
		Supports: []domain.Support{{Node: "A", Code: "FFFFFF"}, {Node: "B", Code: "FFFFFF"}, {Node: "C", Code: "FFFFFF"}},
	}
	col := func(id, a, b string) domain.Member {
		return domain.Member{ID: id, NodeA: a, NodeB: b, Section: "col", Material: "steel"}
	}
	m.Members = []domain.Member{
		col("AD", "A", "D"), col("BE", "B", "E"), col("CF", "C", "F"),
		{ID: "DE", NodeA: "D", NodeB: "E", Section: "beam", Material: "steel",
			OffsetA: geom.Vec3{0.2, 0, 0}, OffsetB: geom.Vec3{-0.2, 0, 0}},
		{ID: "EF", NodeA: "E", NodeB: "F", Section: "beam", Material: "steel", ReleaseB: "FFFFRR"},
	}
	m.LoadCases = []domain.LoadCase{{
		Name:       "1",
		SelfWeight: [3]float64{0, 0, -gravity / domain.G},
		NodeLoads: []domain.NodeLoad{
			{Node: "D", F: [6]float64{15e3}},
			{Node: "F", F: [6]float64{0, 5e3}},
		},
		Members: []domain.MemberLoad{
			{Member: "DE", Type: domain.DistributedForce, Axes: domain.GlobalInclined, Direction: geom.NegativeZAxis, P1: 8e3, P2: 14e3},
			{Member: "EF", Type: domain.ConcentratedForce, Axes: domain.GlobalInclined, Direction: geom.NegativeZAxis, A: 2.5, P1: 20e3},
			{Member: "EF", Type: domain.ConcentratedMoment, Axes: domain.Local, Direction: geom.XAxis, A: 40, Position: domain.Percent, P1: 3e3},
		},
	}}
	return m
}

// gridRect is the solid rectangle of the eigen cross-checks' grid-4:
// 0.2 m along local y (vertical in the beams, global X in the columns)
// by 0.1 m along local z, so that sway along X and along Y differ by a
// factor of two in frequency and four in buckling load, and a section
// turned the wrong way cannot go unnoticed.
var gridRect = Rect{Y: 0.2, Z: 0.1}

// topLoad is the downward force at every top-floor node of the buckling
// case, N.
const topLoad = 100e3

// rectGridModel is grid-n (gridModel) with the solid rectangle gridRect
// for every member (RectSection: the properties CalculiX gives the
// rectangle) and two load cases instead of case 1: "mass", self-weight
// of exactly 1 g downward, so that the members' mass is ρ·A per unit
// length on both sides, and "top", topLoad downward at every node of the
// top floor, which compresses every column equally and leaves the beams
// without axial force.
func rectGridModel(n int) *domain.Model {
	m := gridModel(n)
	m.Sections = []domain.Section{RectSection("grid", gridRect)}
	top := domain.LoadCase{Name: "top"}
	for _, nd := range m.Nodes {
		if nd.Z == 3*float64(n) {
			top.NodeLoads = append(top.NodeLoads, domain.NodeLoad{Node: nd.ID, F: [6]float64{2: -topLoad}})
		}
	}
	m.LoadCases = []domain.LoadCase{{Name: "mass", SelfWeight: [3]float64{0, 0, -1}}, top}
	return m
}
