package domain

import (
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/shell"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// ShellElement is a plate prepared for analysis: the shell element family.
// It joins the pure routines of package shell, which work in the plate's
// own plane, with the transforms of package transform: each corner node is
// joined by a rigid link along the normal to its point on the reference
// surface (the mean plane of a warped quad, moved by the plate's offset),
// and the local axes turn the element to global axes.
type ShellElement struct {
	Index   int   // in Model.Plates
	PlateID int64 // Model.Plates[Index].ID
	nodes   []int
	// El is the element in its local plane: corners, rigidities, theory.
	El shell.Element
	// Rot are the plate's local axes (rows x, y, z in global coordinates).
	Rot geom.Rotation
	// Geom is the plate's geometry as the geometry query reports it.
	Geom geom.PlateGeom
	// Thickness is the actual thickness, m.
	Thickness float64
	Mat       *Material
	// ecc are the rigid links from the nodes to the reference surface,
	// local axes: (0, 0, offset − height of the corner above the mean
	// plane).
	ecc    []geom.Vec3
	linked bool // some link is not zero
	// centre is the mean of the corners, the origin of the local plane
	// and the point where the resultants are reported.
	centre geom.Vec3
	// patch are the other plates of the shear patch, nearest first (see
	// linkPatches); nil for a Mindlin plate.
	patch []int32
}

var _ Element = (*ShellElement)(nil)

// ID implements Element: the plate's id.
func (s *ShellElement) ID() int64 { return s.PlateID }

// Nodes returns the corner nodes' indices in Model.Nodes.
func (s *ShellElement) Nodes() []int { return s.nodes }

// DOFsPerNode is 6: a flat shell has all six DOFs at each corner.
func (s *ShellElement) DOFsPerNode() int { return 6 }

// size is the order of the element's matrices, 6 per corner.
func (s *ShellElement) size() int { return 6 * len(s.nodes) }

// toGlobal turns a local matrix on the reference surface into global axes
// at the nodes: Tᵀ·Hᵀ·k·H·T.
func (s *ShellElement) toGlobal(k []float64) {
	if s.linked {
		transform.OffsetMatrix(s.ecc, k)
	}
	transform.ToGlobalMatrix(s.Rot, s.size(), k, k)
}

// Stiffness writes the stiffness in global axes at the nodes.
func (s *ShellElement) Stiffness(k []float64) {
	// The plane was checked when the domain was built, so the only error
	// Stiffness can return cannot happen here.
	_ = s.El.Stiffness(k)
	s.toGlobal(k)
}

// Mass writes the consistent mass in global axes at the nodes.
func (s *ShellElement) Mass(m []float64) {
	s.El.Mass(s.Mat.Density, s.Thickness, m)
	s.toGlobal(m)
}

// local writes the displacements of the reference surface in local axes,
// H·T·u, for global node displacements u.
func (s *ShellElement) local(u, ul []float64) {
	transform.ToLocalVector(s.Rot, u, ul)
	if s.linked {
		transform.OffsetDisplacements(s.ecc, ul, ul)
	}
}

// strains returns the initial strains of the plate's loads in c.
func (s *ShellElement) strains(c *Loads) shell.Strains {
	if l := c.PlateLoads(s.Index); l != nil {
		return l.Strain
	}
	return shell.Strains{}
}

// GeometricStiffness writes the geometric stiffness of the membrane
// forces at the centroid under u and the loads in c.
func (s *ShellElement) GeometricStiffness(u []float64, c *Loads, kg []float64) error {
	ul := make([]float64, s.size())
	s.local(u, ul)
	r := s.El.Resultants(ul, s.strains(c))
	s.El.GeometricStiffness(r.F, kg)
	s.toGlobal(kg)
	return nil
}

// localLoads writes the nodal forces of the loads in c on the reference
// surface, local axes: pressures, self-weight and initial strains.
func (s *ShellElement) localLoads(c *Loads, f []float64) {
	clear(f)
	if c == nil {
		return
	}
	var q geom.Vec3
	if l := c.PlateLoads(s.Index); l != nil {
		q = l.Pressure
	}
	if sw := c.SelfWeight; sw != ([3]float64{}) {
		w := s.Mat.Density * s.Thickness * G
		q = q.Add(s.Rot.Apply(geom.Vec3{sw[0] * w, sw[1] * w, sw[2] * w}))
	}
	if q != (geom.Vec3{}) {
		s.El.SurfaceLoads(q, f)
	}
	s.El.StrainLoads(s.strains(c), f)
}

// loadsAtNodes writes the nodal loads of c in global axes at the nodes.
func (s *ShellElement) loadsAtNodes(c *Loads, f []float64) {
	s.localLoads(c, f)
	if s.linked {
		transform.OffsetForces(s.ecc, f, f)
	}
	transform.ToGlobalVector(s.Rot, f, f)
}

// LoadVector adds the equivalent nodal loads of the plate's loads in c to
// p, global axes.
func (s *ShellElement) LoadVector(c *Loads, p []float64) error {
	f := make([]float64, s.size())
	s.loadsAtNodes(c, f)
	for i, v := range f {
		p[i] += v
	}
	return nil
}

// Resisting writes K·u minus the equivalent nodal loads of c: the forces
// the nodes exert on the plate, global axes.
func (s *ShellElement) Resisting(u []float64, c *Loads, f []float64) error {
	s.localForces(u, c, make([]float64, s.size()), f)
	transform.ToGlobalVector(s.Rot, f, f)
	return nil
}

// localForces writes the reference surface's displacements ul (H·T·u, as
// local) and the forces the nodes exert on the plate in local axes at the
// nodes, f = Hᵀ·(k·ul − loads): T·(K·u − P) with K = Tᵀ·Hᵀ·k·H·T, without
// turning the matrix to global axes.
func (s *ShellElement) localForces(u []float64, c *Loads, ul, f []float64) {
	n := s.size()
	k := make([]float64, n*n)
	_ = s.El.Stiffness(k) // the plane was checked by Build
	s.local(u, ul)
	s.localLoads(c, f)
	for i := range n {
		v := -f[i]
		for j := range n {
			v += k[i*n+j] * ul[j]
		}
		f[i] = v
	}
	if s.linked {
		transform.OffsetForces(s.ecc, f, f)
	}
}

// NumForces is 8 resultants plus 6 forces per corner.
func (s *ShellElement) NumForces() int { return 8 + s.size() }

// InternalForces writes the stress resultants at the centroid (Fx, Fy,
// Fxy, Mx, My, Mxy, Vxz, Vyz; see package shell), then the forces the
// nodes exert on the plate, corner by corner (Fx Fy Fz Mx My Mz), both in
// plate local axes. Like Result it sees one plate, so a Kirchhoff plate's
// shears are the in-element ones (see ShearFitter).
func (s *ShellElement) InternalForces(u []float64, c *Loads, q []float64) error {
	r := s.Result(u, c)
	copy(q, r.Resultants.F[:])
	copy(q[3:], r.Resultants.M[:])
	copy(q[6:], r.Resultants.V[:])
	copy(q[8:], r.NodeForces)
	return nil
}

// PlateResult is what recovery reports for a plate: the stress
// resultants at the centroid and the nodal forces, local axes.
type PlateResult struct {
	Resultants shell.Resultants
	// NodeForces are the forces the nodes exert on the plate, six per
	// corner (N, N·m), in plate local axes at the nodes.
	NodeForces []float64
}

// Result recovers the plate under global node displacements u and the
// loads in c, by itself: a Kirchhoff plate's shears are the in-element
// ones of shell.Element.Resultants, which do not converge; an analysis
// replaces them once every plate is recovered (ShearFitter).
func (s *ShellElement) Result(u []float64, c *Loads) PlateResult {
	n := s.size()
	ul, f := make([]float64, n), make([]float64, n)
	s.localForces(u, c, ul, f)
	return PlateResult{Resultants: s.El.Resultants(ul, s.strains(c)), NodeForces: f}
}

// Stresses returns the plate's stresses for resultants r.
func (s *ShellElement) Stresses(r shell.Resultants) shell.Stresses {
	return shell.StressesOf(r, s.El.Props, s.Thickness)
}
