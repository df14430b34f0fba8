//go:build ccx

// Package ccx cross-checks the static engine against CalculiX (ccx), a
// finite element solver written elsewhere. It writes a domain.Model and
// one of its load cases as a CalculiX input deck, runs ccx and reads the
// node displacements back from the .dat file. It is compiled only with the
// build tag ccx; `make verify-ccx` runs its test.
//
// # Why U1 and not B31 or B32R
//
// The Debian/Ubuntu build of ccx 2.20 offers three beam routes, and only
// one of them can represent the engine's members:
//
//   - B31 and B32 are expanded into 3-D bricks and accept only solid RECT
//     and CIRC sections: no section with A = 1e-2 m², Iy = Iz = 1e-4 m⁴
//     and J = 2e-4 m⁴ exists among them. SECTION=GENERAL is rejected for
//     anything but the user element U1.
//   - B32R with SECTION=PIPE fits the properties (a thin tube), but the
//     expanded bricks carry no rotation DOFs (rotations are not printed
//     and *EQUATION terms on DOFs 4–6 of beam nodes are silently inert),
//     a point load on a lone beam node deforms the brick locally, and the
//     pipe's shear flexibility is a fraction of the A/2 shear area.
//   - U1 (*USER ELEMENT, SECTION=GENERAL) is a genuine two-node beam with
//     six DOFs per node. In ccx 2.20 (e_c3d_u1.f; the binary behaves
//     accordingly) its shear terms use (12EI − kGAL²)² where
//     (12EI + kGAL²)² belongs, which makes the element stiffer than
//     Euler–Bernoulli, and the x–z plane has a sign error in the uz–uz
//     coupling term s(3,9). In the limit k → ∞ the 1-plane is the exact
//     Euler–Bernoulli element, and with I22 = 0 the other plane is inert.
//
// So every member is split into Divisions pieces and each piece is built
// from exact parts: two overlaid U1 elements, one bending in the member's
// local x–y plane (1-direction = local y, I11 = Iz, I22 = 0) and one in
// the x–z plane (1-direction = local z, I11 = Iy), each with half the
// area and a huge shear coefficient; I22 = 0 switches the defective
// plane off. U1 takes the torsion constant as I11 + I22, so the pair has
// J = Iy + Iz and the writer requires sections with that J. Shear
// flexibility is added as a zero-length link at the middle of each piece
// (SPRING2 elements of stiffness G·Ay/ℓ and G·Az/ℓ along local y and z,
// *EQUATION ties on the other DOFs); with the link at mid-piece the
// midpoint rule integrates the shear strain V/(G·As) exactly for the
// linear shear of a uniform load, so the nodes see Timoshenko beams.
//
// Releases and rigid offsets are linear *EQUATION ties between the
// model node and a separate member-end node: u_end = u_node + θ_node × e
// and θ_end = θ_node, written in member local axes and only for the DOFs
// that are not released. U1 accepts no *DLOAD or gravity, so member loads
// and self-weight become consistent nodal loads of each Euler–Bernoulli
// piece (load ends and point loads are piece ends). For uniform loads the
// nodal displacements are then exact; a trapezoidal load leaves about
// 1e-5 of the largest displacement, from the midpoint rule above.
//
// The test is not vacuous: TestSensitivity gives CalculiX a model without
// shear deformation, the release, the offsets or the load gradient and
// checks that each is missed by more than the 1 % tolerance.
package ccx
