//go:build ccx

package ccx

import (
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
)

// gravity is the acceleration of the grid-n definition, m/s². Self-weight
// is given in units of domain.G, so SelfWeight = −gravity/domain.G makes
// both solvers load the members with exactly ρ·A·9.81 N/m.
const gravity = 9.81

// steel is the grid-n material.
var steel = domain.Material{ID: 1, E: 200e9, G: 79.3e9, Density: 7850}

// gridModel builds grid-n: n×n×n bays of 3 m, (n+1)³ nodes numbered with
// x fastest, base nodes fixed, beams along x and y on every floor above
// the base and columns along z, all with the grid-n section; load case 1
// is self-weight plus 10 kN in +x at every node above the base. It is a
// private copy so that this test does not depend on package gridn. Node
// (i, j, k) is 10000k + 100j + i + 1, the members are numbered from 1 in
// the order they are made, the section is 1.
func gridModel(n int) *domain.Model {
	const bay = 3.0
	m := &domain.Model{
		VerticalAxis: geom.ZAxis,
		Materials:    []domain.Material{steel},
		Sections: []domain.Section{{ID: 1, A: 1e-2, Ay: 5e-3, Az: 5e-3,
			J: 2e-4, Iy: 1e-4, Iz: 1e-4}},
	}
	id := func(i, j, k int) int64 { return int64(10000*k + 100*j + i + 1) }
	lc := domain.LoadCase{ID: 1, SelfWeight: [3]float64{0, 0, -gravity / domain.G}}
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
	mem := func(a, b int64) {
		m.Members = append(m.Members, domain.Member{ID: int64(len(m.Members) + 1), NodeA: a, NodeB: b, Section: 1, Material: 1})
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
//
// Nodes A–F are 1–6, the members AD, BE, CF, DE and EF 1–5, the sections
// col and beam 1 and 2.
func frameModel() *domain.Model {
	m := &domain.Model{
		VerticalAxis: geom.ZAxis,
		Materials:    []domain.Material{steel},
		Sections: []domain.Section{
			{ID: 1, A: 8e-3, Ay: 3e-3, Az: 4e-3, Iy: 1.2e-4, Iz: 0.5e-4, J: 1.7e-4},
			{ID: 2, A: 1e-2, Ay: 5e-3, Az: 5e-3, Iy: 2e-4, Iz: 0.6e-4, J: 2.6e-4},
		},
		Nodes: []domain.Node{
			{ID: 1, X: 0}, {ID: 2, X: 6}, {ID: 3, X: 12},
			{ID: 4, X: 0, Z: 4}, {ID: 5, X: 6, Z: 4}, {ID: 6, X: 12, Z: 4},
		},
		Supports: []domain.Support{{Node: 1, Code: "FFFFFF"}, {Node: 2, Code: "FFFFFF"}, {Node: 3, Code: "FFFFFF"}},
	}
	col := func(id, a, b int64) domain.Member {
		return domain.Member{ID: id, NodeA: a, NodeB: b, Section: 1, Material: 1}
	}
	m.Members = []domain.Member{
		col(1, 1, 4), col(2, 2, 5), col(3, 3, 6),
		{ID: 4, NodeA: 4, NodeB: 5, Section: 2, Material: 1,
			OffsetA: geom.Vec3{0.2, 0, 0}, OffsetB: geom.Vec3{-0.2, 0, 0}},
		{ID: 5, NodeA: 5, NodeB: 6, Section: 2, Material: 1, ReleaseB: "FFFFRR"},
	}
	m.LoadCases = []domain.LoadCase{{
		ID:         1,
		SelfWeight: [3]float64{0, 0, -gravity / domain.G},
		NodeLoads: []domain.NodeLoad{
			{Node: 4, F: [6]float64{15e3}},
			{Node: 6, F: [6]float64{0, 5e3}},
		},
		Members: []domain.MemberLoad{
			{Member: 4, Type: domain.DistributedForce, Axes: domain.GlobalInclined, Direction: geom.NegativeZAxis, P1: 8e3, P2: 14e3},
			{Member: 5, Type: domain.ConcentratedForce, Axes: domain.GlobalInclined, Direction: geom.NegativeZAxis, A: 2.5, P1: 20e3},
			{Member: 5, Type: domain.ConcentratedMoment, Axes: domain.Local, Direction: geom.XAxis, A: 40, Position: domain.Percent, P1: 3e3},
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
// rectangle) and two load cases instead of case 1: 2 ("mass"), self-weight
// of exactly 1 g downward, so that the members' mass is ρ·A per unit
// length on both sides, and 3 ("top"), topLoad downward at every node of the
// top floor, which compresses every column equally and leaves the beams
// without axial force.
func rectGridModel(n int) *domain.Model {
	m := gridModel(n)
	m.Sections = []domain.Section{RectSection(1, gridRect)}
	top := domain.LoadCase{ID: 3}
	for _, nd := range m.Nodes {
		if nd.Z == 3*float64(n) {
			top.NodeLoads = append(top.NodeLoads, domain.NodeLoad{Node: nd.ID, F: [6]float64{2: -topLoad}})
		}
	}
	m.LoadCases = []domain.LoadCase{{ID: 2, SelfWeight: [3]float64{0, 0, -1}}, top}
	return m
}
