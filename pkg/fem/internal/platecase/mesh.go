// Package platecase holds the plate verification cases that the engine's
// tests and benchmarks share: rectangular plate meshes with their
// supports. Only tests and benchmarks import it; it is a package so that
// the whole-engine tests (packages static, dynamic, buckling) and the
// benchmarks use one copy. The reference solutions are in package navier.
package platecase

import (
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/shell"
)

// MaterialID is the id of Material's material.
const MaterialID = 100

// Material returns the isotropic material MaterialID with Young's modulus
// e (Pa) and Poisson's ratio nu, density 2500 kg/m³ and expansion 1e-5/K.
func Material(e, nu float64) domain.Material {
	return domain.Material{ID: MaterialID, E: e, G: e / (2 * (1 + nu)), Density: 2500, Alpha: 1e-5}
}

// row spaces the ids of grid rows, so that an id reads as its row and
// column: node (i, j) is 1000000·j + i + 1.
const row = 1_000_000

// NodeID is the id of grid node (i, j).
func NodeID(i, j int) int64 { return int64(j)*row + int64(i) + 1 }

// PlateID is the id of the plate of grid cell (i, j): half 0 for a quad;
// with triangles, half 0 and 1 are the cell's first and second triangle.
func PlateID(i, j, half int) int64 { return 2*(int64(j)*row+int64(i)) + int64(half) + 1 }

// PlateCell is the inverse of PlateID.
func PlateCell(id int64) (i, j, half int) {
	c := (id - 1) / 2
	return int(c % row), int(c / row), int((id - 1) % 2)
}

// Grid returns an nx × ny mesh of quads over [0, a] × [0, b] in the global
// X-Y plane, normal +Z, of material MaterialID (E = 1 GPa, ν = 0.3),
// theory th and thickness t. With tri, each quad is split into two
// triangles along alternating diagonals. Node (i, j), NodeID(i, j), is at
// (i·a/nx, j·b/ny, 0); the plates of cell (i, j) are PlateID(i, j, half),
// in the model row by row from (0, 0).
func Grid(nx, ny int, a, b float64, tri bool, th shell.Theory, t float64) *domain.Model {
	m := &domain.Model{Materials: []domain.Material{Material(1e9, 0.3)}}
	m.Nodes = make([]domain.Node, 0, (nx+1)*(ny+1))
	for j := 0; j <= ny; j++ {
		for i := 0; i <= nx; i++ {
			m.Nodes = append(m.Nodes, domain.Node{ID: NodeID(i, j), X: float64(i) * a / float64(nx), Y: float64(j) * b / float64(ny)})
		}
	}
	add := func(id int64, ns ...int64) {
		m.Plates = append(m.Plates, domain.Plate{ID: id, Nodes: ns, Material: MaterialID, Theory: th, Thickness: t})
	}
	for j := range ny {
		for i := range nx {
			c := []int64{NodeID(i, j), NodeID(i+1, j), NodeID(i+1, j+1), NodeID(i, j+1)}
			switch {
			case !tri:
				add(PlateID(i, j, 0), c...)
			case (i+j)%2 == 0:
				add(PlateID(i, j, 0), c[0], c[1], c[2])
				add(PlateID(i, j, 1), c[0], c[2], c[3])
			default:
				add(PlateID(i, j, 0), c[0], c[1], c[3])
				add(PlateID(i, j, 1), c[1], c[2], c[3])
			}
		}
	}
	return m
}

// SimplySupport adds "hard" simple supports to the edges of a Grid: uz and
// the rotation about the edge's normal held (θx on the edges x = 0 and
// x = a, θy on y = 0 and y = b), and in-plane rigid motion held at two
// corners.
func SimplySupport(m *domain.Model, nx, ny int) {
	code := map[int64][]byte{}
	set := func(i, j int, d int) {
		id := NodeID(i, j)
		c, ok := code[id]
		if !ok {
			c = []byte("RRRRRR")
		}
		c[d] = 'F'
		code[id] = c
	}
	for j := 0; j <= ny; j++ {
		for _, i := range []int{0, nx} {
			set(i, j, 2)
			set(i, j, 3)
		}
	}
	for i := 0; i <= nx; i++ {
		for _, j := range []int{0, ny} {
			set(i, j, 2)
			set(i, j, 4)
		}
	}
	set(0, 0, 0)
	set(0, 0, 1)
	set(nx, 0, 1)
	for j := 0; j <= ny; j++ {
		for i := 0; i <= nx; i++ {
			if c, ok := code[NodeID(i, j)]; ok {
				m.Supports = append(m.Supports, domain.Support{Node: NodeID(i, j), Code: string(c)})
			}
		}
	}
}
