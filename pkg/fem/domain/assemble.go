package domain

import (
	"fmt"

	"github.com/gusset/gusset/pkg/fem/dof"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// Incidence returns the global DOFs of every element of d, in element
// order, for package sparse's assembler.
func (d *Domain) Incidence() *sparse.Incidence {
	in := &sparse.Incidence{Ptr: make([]int, 1, len(d.Elements)+1)}
	var dofs []int
	for _, el := range d.Elements {
		dofs = DOFs(el, dofs[:0])
		for _, g := range dofs {
			in.DOF = append(in.DOF, int32(g))
		}
		in.Ptr = append(in.Ptr, len(in.DOF))
	}
	return in
}

// NewAssembler performs the symbolic assembly of every element of d on
// numbering n: one pattern, and each element's place in it, shared by
// every matrix of that numbering (stiffness of any state, mass, geometric
// stiffness).
func (d *Domain) NewAssembler(n *dof.Numbering) (*sparse.Assembler, error) {
	return sparse.NewReducedAssembler(d.Incidence(), n.Reduction())
}

// Matrix selects an element matrix for Assemble.
type Matrix int

// The matrices every element gives.
const (
	StiffnessMatrix Matrix = iota
	MassMatrix
)

// Assemble adds the chosen matrix of every element e of d with active(e)
// (nil: all) into a, which must be on as's pattern.
func (d *Domain) Assemble(as *sparse.Assembler, a *sparse.SymMatrix, which Matrix, active func(e int) bool) {
	var k []float64
	for e, el := range d.Elements {
		if active != nil && !active(e) {
			continue
		}
		n := Size(el)
		if cap(k) < n*n {
			k = make([]float64, n*n)
		}
		k = k[:n*n]
		switch which {
		case StiffnessMatrix:
			el.Stiffness(k)
		case MassMatrix:
			el.Mass(k)
		default:
			panic(fmt.Sprintf("domain: assemble: unknown matrix %d", which))
		}
		as.Add(a, e, k)
	}
}

// AssembleGeometric adds the geometric stiffness of every element e of d
// with active(e) (nil: all) into a, for the stress state of global
// displacements u (6 per node) under loads c (nil: none): K + λ·K_G is
// then the stiffness under λ times that state, as a linearized buckling
// analysis needs.
func (d *Domain) AssembleGeometric(as *sparse.Assembler, a *sparse.SymMatrix, u []float64, c *Loads, active func(e int) bool) error {
	var k, ue []float64
	for e, el := range d.Elements {
		if active != nil && !active(e) {
			continue
		}
		n := Size(el)
		if cap(k) < n*n {
			k, ue = make([]float64, n*n), make([]float64, n)
		}
		k, ue = k[:n*n], ue[:n]
		Gather(el, u, ue)
		if err := el.GeometricStiffness(ue, c, k); err != nil {
			return err
		}
		as.Add(a, e, k)
	}
	return nil
}

// AddSprings adds spring stiffnesses per global DOF (support springs:
// dof.Numbering.Spring) on the diagonal of a, for the DOFs that are
// equations of n.
func AddSprings(as *sparse.Assembler, a *sparse.SymMatrix, n *dof.Numbering, spring []float64) {
	for g, kv := range spring {
		if q := n.Eq[g]; kv != 0 && q >= 0 {
			as.AddDiagonal(a, q, kv)
		}
	}
}

// MulStiffness adds K·u to f (both per global DOF, 6 per node): the
// stiffness of every element e with active(e) (nil: all) times the
// displacements u, element by element without assembling, plus the
// springs (per global DOF; nil: none). Elements whose displacements are
// all zero are skipped. An analysis moves prescribed displacements to the
// right-hand side with it (K_fr·u_r).
func (d *Domain) MulStiffness(u []float64, active func(e int) bool, spring []float64, f []float64) {
	var k, ue []float64
	var dofs []int
	for e, el := range d.Elements {
		if active != nil && !active(e) {
			continue
		}
		dofs = DOFs(el, dofs[:0])
		n := len(dofs)
		if cap(ue) < n {
			ue = make([]float64, n)
		}
		ue = ue[:n]
		nz := false
		for i, g := range dofs {
			ue[i] = u[g]
			nz = nz || ue[i] != 0
		}
		if !nz {
			continue
		}
		if cap(k) < n*n {
			k = make([]float64, n*n)
		}
		k = k[:n*n]
		el.Stiffness(k)
		for i, g := range dofs {
			s := 0.0
			for j := range n {
				s += k[i*n+j] * ue[j]
			}
			f[g] += s
		}
	}
	for g, kv := range spring {
		f[g] += kv * u[g]
	}
}
