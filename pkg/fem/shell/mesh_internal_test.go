package shell

// Plate meshes shared by the element tests of both theories.

// testMesh is a flat plate mesh: node i at (x[i], y[i]), each element
// its corner nodes counter-clockwise (3 or 4 of them).
type testMesh struct {
	x, y  []float64
	elems [][]int
}

// plane returns element e as a Plane.
func (m *testMesh) plane(e int) Plane {
	c := m.elems[e]
	p := Plane{N: len(c)}
	for i, n := range c {
		p.X[i], p.Y[i] = m.x[n], m.y[n]
	}
	return p
}

// dofs returns the number of bending DOFs of the mesh, 3 per node.
func (m *testMesh) dofs() int { return 3 * len(m.x) }

// macNealHarder is the irregular patch of MacNeal & Harder (Finite
// Elem. Anal. Des. 1, 1985): the rectangle 0.24 × 0.12 with corners 0–3 and
// interior nodes 4–7 at (0.04, 0.02), (0.18, 0.03), (0.16, 0.08),
// (0.08, 0.08), meshed by five quads or, with tri, each quad split along
// its first diagonal into two triangles. Nodes 0–3 are the boundary.
func macNealHarder(tri bool) *testMesh {
	m := &testMesh{
		x: []float64{0, 0.24, 0.24, 0, 0.04, 0.18, 0.16, 0.08},
		y: []float64{0, 0, 0.12, 0.12, 0.02, 0.03, 0.08, 0.08},
	}
	quads := [][]int{{0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}, {4, 5, 6, 7}}
	for _, q := range quads {
		if tri {
			m.elems = append(m.elems, []int{q[0], q[1], q[2]}, []int{q[0], q[2], q[3]})
		} else {
			m.elems = append(m.elems, q)
		}
	}
	return m
}
