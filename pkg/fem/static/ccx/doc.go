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
// # Eigen decks: B31 with solid rectangles
//
// U1 has no mass and no geometric stiffness (ccx stops with "no dynamic
// or buckling calculation for this type of element"), so Frequency and
// Buckle decks (Options.Step) write each member as Divisions B31
// elements with SECTION=RECT, the 1-direction along local y, the sides
// from Options.Rect. ccx 2.20 expands each B31 element into one C3D8I
// brick (8 nodes, incompatible modes; not C3D20: its .frd has 4 nodes
// per section) and joins the end sections of the bricks at each beam
// node through that node (ccx's knots). What that solid is, in beam terms
// (RectSection gives the engine the same): A, Iy and Iz of the
// rectangle; the torsion constant 4·Iy·Iz/(Iy + Iz) of the brick's
// bilinear warping field (RectTorsionCCX; 17 % above Saint-Venant for
// 2:1), and a constant shear strain over the section, shear area ≈ A
// (cantilevers give 1.0–1.15·A). The brick's mass includes the rotary
// inertia of bending, which the engine's lacks. A Frequency deck writes
// *DENSITY as the density times the case's self-weight in g (package
// dynamic's mass) and a *FREQUENCY step without loads; a Buckle deck
// writes the case's node loads as the preload under *BUCKLE in the same
// step. Releases, offsets, property factors, member loads and lumped
// masses are errors.
//
// The bricks converge slowly near the member ends (error about h^1.6:
// each halving of the pieces removes two thirds of it), so the eigen
// test uses 32 pieces per member; see eigenDivisions in eigen_test.go.
//
// The test is not vacuous: TestSensitivity gives CalculiX a model without
// shear deformation, the release, the offsets or the load gradient and
// checks that each is missed by more than the 1 % tolerance;
// TestEigenSensitivity does the same with the rectangles turned by 90°.
//
// # Plates
//
// WritePlates writes a plates-only model as S4 shells (plate.go; triangles,
// offsets, thickness overrides, warped plates, in-plane pressures and
// thermal loads are errors), optionally refining each quad r × r for
// CalculiX. plate_test.go compares a simply supported plate, a cantilever
// plate and a folded plate, and TestPlateSensitivity shows a 2.5 % thinner
// plate or unjoined flanges miss by far more than the 2 % tolerance.
package ccx
