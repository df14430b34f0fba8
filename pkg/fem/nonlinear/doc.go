// Package nonlinear is the large-displacement static analysis of frame
// models (the service's theory Finite/Large): the equilibrium of a
// domain.Domain under one load case, traced by load steps with Newton
// iterations on the co-rotational 3-D frame of package transform
// (transform.Corot with element.FrameBasicStiffness: the element stays
// linear elastic in a frame that follows its rigid-body motion; Crisfield,
// Non-linear Finite Element Analysis of Solids and Structures vol. 2,
// 1997, ch. 17).
//
// # Units, DOFs and signs
//
// Units are SI (N, m, N·m, rad) unless a model is given in another
// consistent set (the tests use kip and inch for the AISC benchmark): the
// analysis never converts. Every node has six DOFs in global axes, ux uy
// uz rx ry rz. Translations are measured from the initial positions; a
// node's rotation is its total "turning matrix" Q (package geom), updated
// by the spin Δθ of each iteration as Q ← geom.ExpMap(Δθ)·Q, never by
// adding angles; results report Q and its rotation vector geom.LogMap(Q)
// (angle ≤ π, right-hand rule about global axes). Forces and moments in
// global axes follow the global axes; member end forces are in the
// member's current element frame (see MemberResult).
//
// # Loads
//
// The load of a case is the reference vector P: its node loads
// (domain.Loads.NodeF) plus the equivalent node loads of its member loads
// (domain.Element.LoadVector) computed once, in the initial configuration.
// Step k applies λ_k·P. Loads are conservative: their directions stay
// fixed in space and member loads do not follow the member as it turns
// (loads in member axes rotating with the member — rotateLocalLoads — are
// not supported yet).
//
// # Solution
//
// Options gives the service's static settings: load steps, linear or
// parabolic stepping, iterations per step, relative tolerance, the
// convergence criterion (residuals, deflections or both) and the matrix
// (tangent: refactored every iteration; secant: factored once per step, at
// its start). Damping of the increments is not implemented.
//
// The tangent of each element is K = Bᵀ·kb·B + Kσ (transform.CorotConfig.
// Tangent), which is not symmetric: K − Kᵀ is −[m]ₓ on the spin block of
// each end. The engine's sparse factorizer is symmetric (LDLᵀ), so each
// element contributes the symmetric part (K + Kᵀ)/2. This keeps Newton's
// iterations convergent: assembled at a node, the skew parts sum to
// −[M]ₓ/2 with M the moment the elements take from the node, which at
// equilibrium is the applied moment. At nodes without applied moments the
// neglected part vanishes at the solution, so convergence stays
// quadratic; where moments are applied it is linear, with a rate of about
// |M| over the rotational stiffness of the node (a few per cent in the
// tests, where a cantilever rolls up into a full circle).
//
// Support springs act on the translations and on the components of the
// rotation vector geom.LogMap(Q), with their linear stiffness on the
// diagonal of the tangent: exact for translations and for rotations about
// one axis, an approximation for large rotations about several axes.
//
// # Not supported yet
//
// Analyze refuses, naming the member, plate, node or case: plates and
// other element families; one-way members (tension- or compression-only,
// cables, gaps); end releases; rigid end offsets; one-way supports and
// variable, plastic or friction supports; constraints (rigid links);
// prescribed displacements; thermal and prestress loads; combinations
// (one primary load case per analysis). Truss members are axial bars
// (co-rotational, no bending or torsion), so a node joined by trusses only
// has no rotational stiffness and is reported as a mechanism, as in the
// linear analysis.
package nonlinear
