package domain

// Element is what every analysis needs from an element, whatever its
// family: its nodes and DOFs, its matrices and its force vectors, all in
// global axes at its nodes, for its current state. Frames (FrameElement)
// implement it now; a new family (a shell, say) implements it and is
// added to Domain.Elements, and the DOF map, the assembler and the
// analyses take it unchanged.
//
// Matrices are n×n row-major and vectors have n entries, n =
// len(Nodes())·DOFsPerNode(), in the order node by node, DOF by DOF (ux uy
// uz rx ry rz for six DOFs per node). Every method writes into buffers the
// caller owns, all of length n or n², and is safe for concurrent use.
// Element displacements u are global displacements gathered in that order.
type Element interface {
	// ID is the element's id in messages and results: the id of the
	// model's member or plate it is, or whatever a family numbers its
	// elements by.
	ID() int64
	// Nodes returns the indices of the element's nodes in Model.Nodes.
	Nodes() []int
	// DOFsPerNode is the number of DOFs of each node the element uses:
	// the first DOFsPerNode of the node's six (6 for frames and shells).
	DOFsPerNode() int
	// Stiffness writes the element's stiffness.
	Stiffness(k []float64)
	// Mass writes the element's consistent mass, kg and kg·m².
	Mass(m []float64)
	// GeometricStiffness writes the geometric stiffness of the stress
	// state the element is in under displacements u and its loads in
	// case c (nil: none), as for a linearized buckling analysis: K + λ·K_G
	// is the stiffness under λ times that state.
	GeometricStiffness(u []float64, c *Loads, kg []float64) error
	// Resisting writes the forces the nodes exert on the element under
	// displacements u and its loads in case c (nil: none): K·u plus the
	// fixed-end forces of the loads. In equilibrium it balances the node
	// loads; a non-linear analysis iterates on the difference.
	Resisting(u []float64, c *Loads, f []float64) error
	// LoadVector adds the equivalent node loads of the element's loads in
	// case c to p.
	LoadVector(c *Loads, p []float64) error
	// NumForces is the number of internal forces InternalForces writes.
	NumForces() int
	// InternalForces writes the element's internal forces under
	// displacements u and its loads in case c into q, in the element's
	// own axes and order: its basic recovery, which analyses report for
	// any family (a frame: the 12 end actions of FrameState.Q; a family's
	// fuller results come from its concrete type).
	InternalForces(u []float64, c *Loads, q []float64) error
}

// Size returns n, the number of DOFs of el's matrices and vectors.
func Size(el Element) int { return len(el.Nodes()) * el.DOFsPerNode() }

// Gather writes the DOFs of el from the global vector u (6 per node) into
// ue, in el's order.
func Gather(el Element, u, ue []float64) {
	dpn := el.DOFsPerNode()
	for i, n := range el.Nodes() {
		copy(ue[i*dpn:(i+1)*dpn], u[6*n:6*n+dpn])
	}
}

// DOFs appends the global DOF numbers of el, in its order, to dofs.
func DOFs(el Element, dofs []int) []int {
	dpn := el.DOFsPerNode()
	for _, n := range el.Nodes() {
		for d := range dpn {
			dofs = append(dofs, 6*n+d)
		}
	}
	return dofs
}
