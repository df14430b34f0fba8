package gridn

import (
	"fmt"

	"github.com/gusset/gusset/pkg/fem/shell"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// Properties of the plate benchmark, SI units: a square concrete slab of
// side PlateSide, thickness PlateThickness, under PlatePressure downwards.
const (
	PlateSide      = 20.0 // m
	PlateThickness = 0.25 // m
	PlateE         = 30e9 // Pa
	PlateNu        = 0.2  // Poisson's ratio
	PlatePressure  = 10e3 // Pa, in −z
)

// GeneratePlate builds the plate benchmark: an n×n mesh of square
// Kirchhoff (DKQ) flat shell quads over [0, PlateSide]² in the global X-Y
// plane, so local and global axes coincide, with the drilling penalty the
// engine uses by default (G·t). The (n+1)² nodes are numbered with x
// fastest; every edge node is clamped (all six DOFs fixed) and the others
// carry six free DOFs in node order, as grid-n. The right-hand side is the
// uniform pressure. The returned Model has no Elements (they are quads,
// not members); Coords, DOF, NodeOf, K, RHS and Asm are set as for grid-n.
func GeneratePlate(n int) (*Model, error) {
	if n < 2 {
		return nil, fmt.Errorf("gridn: plate n = %d, want ≥ 2", n)
	}
	np := n + 1
	m := &Model{N: n, Coords: make([][3]float64, np*np), DOF: make([][6]int, np*np)}
	h := PlateSide / float64(n)
	free := 0
	for y := range np {
		for x := range np {
			v := x + np*y
			m.Coords[v] = [3]float64{h * float64(x), h * float64(y), 0}
			edge := x == 0 || y == 0 || x == n || y == n
			for c := range 6 {
				m.DOF[v][c] = -1
				if !edge {
					m.DOF[v][c] = free
					m.NodeOf = append(m.NodeOf, v)
					free++
				}
			}
		}
	}
	m.NFree = free
	quads := make([][4]int, 0, n*n)
	for y := range n {
		for x := range n {
			v := x + np*y
			quads = append(quads, [4]int{v, v + 1, v + 1 + np, v + np})
		}
	}
	elemDOFs := make([][]int, len(quads))
	for e, q := range quads {
		d := make([]int, 24)
		for i, v := range q {
			for c := range 6 {
				d[6*i+c] = m.DOF[v][c]
			}
		}
		elemDOFs[e] = d
	}
	asm, err := sparse.NewAssembler(m.NFree, elemDOFs)
	if err != nil {
		return nil, fmt.Errorf("gridn: plate: %w", err)
	}
	m.Asm, m.K, m.RHS = asm, asm.NewMatrix(), make([]float64, m.NFree)
	props := shell.Props{E: PlateE, Nu: PlateNu, Tm: PlateThickness, Tb: PlateThickness, Ts: PlateThickness}
	// Every quad is the same square in its own plane, centred on its
	// centroid as the engine places it: one stiffness serves them all.
	el := shell.Element{Props: props, Theory: shell.Kirchhoff, Gamma: props.G() * props.Tm,
		Plane: shell.Plane{N: 4, X: [4]float64{-h / 2, h / 2, h / 2, -h / 2}, Y: [4]float64{-h / 2, -h / 2, h / 2, h / 2}}}
	k := make([]float64, 24*24)
	if err := el.Stiffness(k); err != nil {
		return nil, fmt.Errorf("gridn: plate: %w", err)
	}
	f := make([]float64, 24)
	el.SurfaceLoads([3]float64{0, 0, -PlatePressure}, f)
	for e, d := range elemDOFs {
		asm.Add(m.K, e, k)
		for i, dof := range d {
			if dof >= 0 {
				m.RHS[dof] += f[i]
			}
		}
	}
	return m, nil
}
