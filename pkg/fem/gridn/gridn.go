// Package gridn generates the grid-n reference structure used to benchmark
// the sparse solver: n×n×n bays of 3 m, (n+1)³ nodes numbered with x
// fastest, then y, then z. Nodes at z = 0 are fully fixed. Every floor above
// the base has beams along x and y between neighbouring nodes, and columns
// join each node to the one above. Every member is steel: E = 200 GPa,
// G = 79.3 GPa, ρ = 7850 kg/m³, A = 1e-2 m², shear areas 5e-3 m²,
// J = 2e-4 m⁴, Iy = Iz = 1e-4 m⁴ (so the orientation of local y/z does not
// change the stiffness).
//
// DOFs are numbered node by node, 6 per free node (ux, uy, uz, rx, ry, rz),
// skipping the fixed base nodes: free DOF 6·(node − (n+1)²) + c. That gives
// 6·(n+1)²·n free DOFs.
//
// Load case 1 is self-weight (g = 9.81 m/s² in −z) plus 10 kN in +x at every
// node above the base. For the benchmark right-hand side each member's
// weight is lumped as nodal forces, half to each end node (no fixed-end
// moments); loads on fixed DOFs go to the supports and are dropped.
package gridn

import (
	"fmt"

	"github.com/gusset/gusset/pkg/fem/element"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/sparse"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// Member properties of the reference structure, SI units.
const (
	Bay     = 3.0    // m
	E       = 200e9  // Pa
	G       = 79.3e9 // Pa
	Rho     = 7850.0 // kg/m³
	Area    = 1e-2   // m²
	ShearA  = 5e-3   // m², both local axes
	J       = 2e-4   // m⁴
	I       = 1e-4   // m⁴, Iy = Iz
	Gravity = 9.81   // m/s²
	Lateral = 10e3   // N in +x at every free node
)

// StiffnessFunc writes the 12×12 local frame stiffness, row-major, DOF order
// ux,uy,uz,rx,ry,rz at end A then end B. It is the seam to the element
// package (element.FrameStiffness by default).
type StiffnessFunc func(p element.FrameProps, k []float64)

// Model is a generated grid-n structure with its assembled stiffness.
type Model struct {
	N        int
	Coords   [][3]float64 // (n+1)³ nodes, x fastest
	Elements [][2]int     // member end nodes
	// DOF[node][c] is the free DOF index of component c of node, or −1
	// where the DOF is fixed.
	DOF    [][6]int
	NFree  int
	NodeOf []int // free DOF → node, for ordering on the node graph
	K      *sparse.SymMatrix
	RHS    []float64 // load case 1
	Asm    *sparse.Assembler
}

// FreeDOFs returns 6·(n+1)²·n, the number of free DOFs of grid-n.
func FreeDOFs(n int) int { return 6 * (n + 1) * (n + 1) * n }

// Generate builds grid-n with element.FrameStiffness.
func Generate(n int) (*Model, error) { return GenerateWith(n, element.FrameStiffness) }

// GenerateWith builds grid-n with the given element stiffness function.
func GenerateWith(n int, stiff StiffnessFunc) (*Model, error) {
	if n < 1 {
		return nil, fmt.Errorf("gridn: n = %d, want ≥ 1", n)
	}
	np := n + 1
	nodes := np * np * np
	m := &Model{N: n, Coords: make([][3]float64, nodes), DOF: make([][6]int, nodes)}
	id := func(x, y, z int) int { return x + np*(y+np*z) }
	for z := 0; z < np; z++ {
		for y := 0; y < np; y++ {
			for x := 0; x < np; x++ {
				v := id(x, y, z)
				m.Coords[v] = [3]float64{Bay * float64(x), Bay * float64(y), Bay * float64(z)}
				for c := 0; c < 6; c++ {
					if z == 0 {
						m.DOF[v][c] = -1
					} else {
						m.DOF[v][c] = 6*(v-np*np) + c
					}
				}
			}
		}
	}
	m.NFree = 6 * np * np * n
	m.NodeOf = make([]int, m.NFree)
	for d := range m.NodeOf {
		m.NodeOf[d] = d/6 + np*np
	}
	for z := 0; z < np; z++ {
		for y := 0; y < np; y++ {
			for x := 0; x < np; x++ {
				v := id(x, y, z)
				if z > 0 && x+1 < np {
					m.Elements = append(m.Elements, [2]int{v, id(x+1, y, z)})
				}
				if z > 0 && y+1 < np {
					m.Elements = append(m.Elements, [2]int{v, id(x, y+1, z)})
				}
				if z+1 < np {
					m.Elements = append(m.Elements, [2]int{v, id(x, y, z+1)})
				}
			}
		}
	}
	elemDOFs := make([][]int, len(m.Elements))
	for e, el := range m.Elements {
		d := make([]int, 12)
		for c := 0; c < 6; c++ {
			d[c], d[6+c] = m.DOF[el[0]][c], m.DOF[el[1]][c]
		}
		elemDOFs[e] = d
	}
	asm, err := sparse.NewAssembler(m.NFree, elemDOFs)
	if err != nil {
		return nil, fmt.Errorf("gridn: %w", err)
	}
	m.Asm = asm
	m.K = asm.NewMatrix()
	m.RHS = make([]float64, m.NFree)
	kl := make([]float64, 144)
	kg := make([]float64, 144)
	props := element.FrameProps{L: Bay, E: E, G: G, A: Area, Ay: ShearA, Az: ShearA, J: J, Iy: I, Iz: I}
	stiff(props, kl) // all members are identical in local axes
	for e, el := range m.Elements {
		a, b := m.Coords[el[0]], m.Coords[el[1]]
		transform.ToGlobalMatrix(memberRotation(a, b), 12, kl, kg)
		asm.Add(m.K, e, kg)
		w := Rho * Area * Bay * Gravity / 2
		for _, v := range el {
			if d := m.DOF[v][2]; d >= 0 {
				m.RHS[d] -= w
			}
		}
	}
	for v := range m.DOF {
		if d := m.DOF[v][0]; d >= 0 {
			m.RHS[d] += Lateral
		}
	}
	return m, nil
}

// memberRotation returns right-handed local axes for an axis-aligned member
// from a to b: local x along the member.
func memberRotation(a, b [3]float64) geom.Rotation {
	switch {
	case b[0] != a[0]: // along global x
		return geom.Rotation{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	case b[1] != a[1]: // along global y
		return geom.Rotation{{0, 1, 0}, {-1, 0, 0}, {0, 0, 1}}
	default: // along global z
		return geom.Rotation{{0, 0, 1}, {0, 1, 0}, {-1, 0, 0}}
	}
}
