// Package nonlinear is the non-linear static analysis of a domain.Domain
// under one load case, traced by load steps with Newton iterations, in
// one of the service's theories (Options.Theory):
//
//   - Finite and Large (the same analysis): large displacements and
//     rotations of frames and plates, each element linear elastic in a
//     frame that follows its rigid-body motion: members on the
//     co-rotational 3-D frame of package transform (transform.Corot with
//     element.FrameBasicStiffness; Crisfield, Non-linear Finite Element
//     Analysis of Solids and Structures vol. 2, 1997, ch. 17), plates on
//     its element-independent co-rotational shell (transform.CorotShell
//     around the linear shell element; see "Plates"). Most of this doc
//     is about them.
//   - Small, the service's default: second-order (P-Δ and P-δ) analysis
//     with small-displacement kinematics, through the generic
//     domain.Element interface (see "Small theory" below).
//
// # Units, DOFs and signs
//
// Units are SI (N, m, N·m, rad) unless a model is given in another
// consistent set (the tests use kip and inch for the AISC benchmark): the
// analysis never converts. Every node has six DOFs in global axes, ux uy
// uz rx ry rz. Translations are measured from the initial positions. In
// the large-displacement theories (Small: see below) a node's rotation is
// its total "turning matrix" Q (package geom), updated
// by the spin Δθ of each iteration as Q ← geom.ExpMap(Δθ)·Q, never by
// adding angles; results report Q and its rotation vector geom.LogMap(Q)
// (angle ≤ π, right-hand rule about global axes). Forces and moments in
// global axes follow the global axes; member end forces are in the
// member's current element frame (see MemberResult).
//
// # Loads
//
// The load of a case is the reference vector P: its node loads
// (domain.Loads.NodeF) plus the equivalent node loads of its member and
// plate loads (domain.Element.LoadVector: plate pressures and
// self-weight). Step k applies λ_k·P. Node loads, member loads in global
// axes, plate pressures and self-weight are conservative: their
// directions stay fixed in space, and their equivalent node loads are
// computed once, in the initial configuration (a projected load keeps
// its initial intensity too, and a pressure normal to a plate keeps the
// direction and total of the initial normal and area: no follower
// pressure). Without Options.FollowLocalLoads, member
// loads in member local axes are treated so as well, with the
// directions of the initial axes.
//
// With Options.FollowLocalLoads (the service's rotateLocalLoads; Finite
// and Large only — the Small theory never updates the geometry and
// ignores it), member loads in member local axes (domain.Local: forces,
// moments, concentrated or distributed) follow their member: their local
// fixed-end actions qc are computed once, and every assembly turns them
// into the member's current element frame e (transform.CorotConfig.
// Axes, rows e1 e2 e3), p_b = −eᵀ·qc_b for each end force and moment b.
// P then depends on the configuration. Its derivative is the load
// stiffness −∂(λ·p_b)/∂d = λ·[p_b]ₓ·eᵀ·Ω̄, Ω̄ the spin of the element
// frame per unit DOF increment; it is not symmetric. The tangent takes its
// symmetric part, and each solve adds the skew part by GMRES
// preconditioned with the factored symmetric tangent (follow_solve.go),
// so Newton's iterations keep their rate: the symmetric part alone stalls
// on the tests' cantilever under a tip follower force beyond PL²/EI ≈ 8.
// Positions along the member and the load's distribution stay those of
// the flexible length: the element frame, not the bent member, carries
// the loads, an error that falls with the members' size as the chord
// approaches the arc.
//
// The residual criterion's reference ‖P‖ is that of the initial
// configuration (followers in the initial local axes), taken once per
// Analyze call. Result.Applied and the reactions use P of the converged
// configuration. Member end forces stay in equilibrium with the node
// forces of P: the fixed-end actions of followers are added as they are
// in the current frame; those of the other member loads, computed on the
// initial local axes, are turned with them into the current frame
// (e·r0ᵀ, r0 the initial axes).
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
// Tangent; for plates B̄ᵀ·K̄·B̄ + Kσ, transform.CorotShellConfig.Tangent),
// which is not symmetric: K − Kᵀ is −[m]ₓ on the spin block of each end
// or corner. The engine's sparse factorizer is symmetric (LDLᵀ), so each
// element contributes the symmetric part (K + Kᵀ)/2. This keeps Newton's
// iterations convergent: assembled at a node, the skew parts sum to
// −[M]ₓ/2 with M the moment the elements take from the node, which at
// equilibrium is the applied moment. At nodes without applied moments the
// neglected part vanishes at the solution, so convergence stays
// quadratic; where moments are applied it is linear, with the rate
// ρ(K_s⁻¹·½[M]ₓ), K_s the symmetric tangent: about |M| over the
// rotational stiffness the node has about the axes normal to M. In planar
// problems that rate does not show (the neglected part couples only
// out-of-plane modes, which stay at zero), and a cantilever rolls up into
// a full circle at a few iterations per step. Where the out-of-plane
// modes are excited — a mesh of triangles, not symmetric about the
// strip's axis — it does: measured 0.25 at half the end moment that
// rolls a plate strip into a circle, 0.9 at 0.8 of it and above 1 at the
// full moment, where the iterations stall. Large applied moments about a
// fixed axis are thus the one load the symmetric tangent serves badly;
// an unsymmetric solve, or a low-rank (Sherman–Morrison–Woodbury)
// correction of the factored symmetric tangent by the known skew part
// −½[λ·M_applied]ₓ at the loaded nodes, would restore quadratic
// convergence.
//
// Support springs act on the translations and on the components of the
// rotation vector geom.LogMap(Q), with their linear stiffness on the
// diagonal of the tangent: exact for translations and for rotations about
// one axis, an approximation for large rotations about several axes.
//
// # Plates
//
// In the large-displacement theories each plate is an element-independent
// co-rotational (EICR) shell, transform.CorotShell (Rankin & Brogan, J.
// Pressure Vessel Technol. 108, 1986; Felippa & Haugen, Comput. Methods
// Appl. Mech. Eng. 194, 2005): the linear flat shell of the linear
// analysis (membrane with drilling, DKQ/DKT or MITC4/MITC3 bending,
// domain.ShellElement) keeps its stiffness K̄ — taken in the plate's
// initial local axes with the rigid links of its offset and of a warped
// quad's projection — and acts on the deformational displacements d̄ of
// the corners in a frame that follows the plate: the frame of the
// diagonals for a quad, of side 1→2 for a triangle (Battini & Pacoste,
// Commun. Numer. Methods Eng. 20, 2004), turned to be the plate's own
// axes initially; d̄ are the corners' translations about their mean in
// that frame and the rotation vectors log(R·Q·R₀ᵀ) of their turning
// relative to it. The global forces are B̄ᵀ·K̄·d̄ with B̄ = ∂d̄/∂d (the
// projector and the rotation-vector transformation J⁻ᵀ together), and
// the tangent is their exact derivative, symmetrized as above. The
// strains stay small within each element (the linear element), so a mesh
// must be fine enough that each element turns nearly as a rigid body;
// the rotations between elements and of the whole plate are unlimited.
//
// Plate results (PlateResult) are in the plate's current local axes, its
// initial axes carried by the frame: the resultants of its linear
// recovery (domain.ShellElement.Result; a Kirchhoff plate's shears are
// the in-element ones, not fitted over the patch) from d̄, and node
// forces that balance the nodes exactly — the global forces less the
// plate's share λ·p of the applied loads, turned to those axes. In the
// small-load limit all of them are the linear analysis's. Membrane forces
// carry an absolute round-off of about ε·E·t (the frame is known to ε, a
// strain of 1e-16), immaterial but visible next to tiny membrane forces.
// The tests run the strip benchmarks of Sze, Liu & Lo (Finite Elem. Anal.
// Des. 40, 2004): the end moment rolling a strip into a circle, exact to
// round-off on the quads, and the end shear, within 5e-4 of the length of
// the elastica on 16 elements.
//
// # Small theory
//
// The geometry is never updated and rotations add as plain vectors: the
// state is the equation values x, the global displacements
// u = C·x + λ·u_r (constraints C, prescribed displacements u_r of the
// case, as in the linear analysis). The internal forces are
//
//	F(u) = Σ_e [Resisting_e(u_e, λ·c) + K_G,e(u_e, λ·c)·u_e] + k_s·u
//
// (members with an axial law and support laws: see "Member laws" and
// "Support laws" below) with domain.Element's Resisting (K·u plus the
// fixed-end forces of the element's loads) and GeometricStiffness (the K_G of the stress state
// under u and the loads, as in a linearized buckling analysis: frames
// from their mean axial force, condensed over releases, through rigid
// offsets; plates from their membrane forces), c the case's loads and k_s
// the support springs. The residual is R = λ·P_node − F(u), gathered onto
// the equations through the constraints (the element loads are in F), and
// the tangent is K + K_G(u). It leaves out the derivative of the axial
// (membrane) forces with u, so it is not Newton's exact tangent: this is
// the usual P-Δ iteration, which converges in a few iterations when the
// axial forces depend little on the displacements (two when they do not
// at all: the first iteration, from u = 0 where N = 0 unless element
// loads or strains make it, is the linear solution). Loads stay fixed in
// direction, as the geometry does (Options.FollowLocalLoads has no
// effect). The consistent (cubic) geometric
// stiffness catches the P-δ effect within each member, with an error
// falling as about 1/n⁴ with n members per span in the tests.
//
// Steps, stepping, matrix (Secant factors K + K_G once per step) and the
// convergence criteria are those of the other theories; the residual
// criterion is relative to ‖R‖ of the undeformed state at λ = 1 (node
// loads, equivalent loads of the element loads and prescribed
// displacements moved to the right-hand side). A tangent with negative
// pivots means the load factor is past the critical (linearized buckling)
// factor of the current stress state, where the small-displacement
// equilibrium is unstable: Analyze returns an *UnstableError (with a
// factorizer that counts pivot signs, as the default does). Under
// compression the frame K_G carries the twist term N·(Iy + Iz)/A, so a
// section with little torsional stiffness can be reported unstable in
// torsion before it buckles in bending.
//
// Results: translations and rotation vectors u (Turning is
// geom.ExpMap of the rotation, for uniformity), reactions from F at the
// restrained DOFs (through the constraints) and −k_s·u at the springs;
// per member the 12 end actions in its local axes at its flexible ends
// (domain.FrameElement.End plus domain.FrameElement.GeometricEndForces),
// in equilibrium with its node forces; per plate its linear recovery
// (domain.ShellElement.Result) with the geometric node forces added.
//
// # Member laws
//
// Members of type TensionOnly, CompressionOnly, Cable and Gap and fuses
// (domain.Member.Fuse, on Frame or Truss members) follow a non-linear law
// N(e) of the elongation e of their chord, in every theory. In the Small
// theory e is the mechanical elongation N_el·L/EA, N_el the element's own
// mean axial force under u and its loads (so thermal and prestress strains
// are free strains), the element's forces gain (N − N_el)·b and its
// tangent (k_t − EA/L)·b·bᵀ, b the chord vector through the rigid offsets
// (domain.FrameElement.ChordVector), and its geometric stiffness and end
// forces are those of N. In the large-displacement theories e is the
// co-rotational chord elongation and N the basic axial force. With L the
// flexible length and EA/L the axial stiffness:
//
//   - TensionOnly: N = max(EA/L·e, 0); CompressionOnly: N = min(EA/L·e, 0).
//   - Cable: N = EA/L0·(L + e − L0) when positive, else 0, L0 the
//     unstressed length CableLength (0: L). A cable shorter than its
//     chord starts pretensioned, which gives a straight cable its
//     transverse stiffness. The results report its stretched length
//     L0·(1 + N/EA) (MemberResult.CableLength): the chord when taut, L0
//     when slack.
//   - Gap: nothing while −GapCompression ≤ e ≤ GapTension, elastic on the
//     excess beyond: N = EA/L·(e − GapTension) above, EA/L·(e +
//     GapCompression) below. GapTension 0 means the gap never acts in
//     tension, so a Gap without openings is compression-only, as in the
//     linear analysis; GapCompression 0 means it acts at once in
//     compression.
//   - PlasticFuse: elastic-perfectly-plastic, N = EA/L·(e − e_p) capped at
//     the tension limit FuseTension above and at −FuseCompression below,
//     the plastic elongation e_p growing while it yields; unloading is
//     elastic.
//   - BrittleFuse: elastic up to its limits; when N would pass one, the
//     fuse breaks and for the rest of the case takes no part at all: no
//     stiffness, no force, bending and torsion included (the fixed-end
//     forces of its own loads still reach its nodes).
//
// A fuse limit of 0 means no limit that way. The history (e_p, broken)
// is committed only when a step converges: every iteration derives it from
// the last committed state and its own displacements, so an iteration
// that overshoots leaves no trace. A slack one-way member has no axial
// stiffness, so a node held only by slack members is a mechanism
// (a *domain.ModelError naming it); the first tangent of the analysis uses the
// elastic stiffness of every law (EA/L0 for a cable), so that a structure
// whose one-way members start slack starts from the linear solution, as
// the linear analysis's reversal loop does. Newton's iterations switch
// the laws' branches as they go; a step whose branches do not settle in
// Options.MaxIterations fails with a *NotConvergedError.
//
// # Support laws
//
// In the Small theory supports act by their codes and active directions
// (domain.Support):
//
//   - One-way fixed DOFs (F with Active 'P' or 'N'): an exact active set.
//     A restrained DOF whose reaction would pull (the wrong sign) is freed;
//     a freed DOF that would penetrate (move against the side the support
//     pushes from) is restrained again at 0. Each switch renumbers the
//     equations (the numbering and symbolic assembly of each set are
//     cached) and the iteration goes on from the same displacements; a
//     step is not converged in an iteration that switched.
//   - One-way springs (S with an active direction) act while they push
//     the right way (direction·u ≤ 0) and not at all otherwise.
//   - Variable springs (V): the force is odd in the displacement,
//     F(−u) = −F(u), and F(|u|) integrates the table from 0: each
//     segment's Stiffness up to its Limit, the last one's beyond (the
//     service's table rows [x, k] give k from x to the next row's x). The
//     tangent is the stiffness of the segment reached. The linear
//     analysis uses the first segment's stiffness, the same at u = 0.
//   - Plastic DOFs (P): fixed (at the slip reached) while |R| ≤
//     PlasticLimit, then free under the reaction ±PlasticLimit, which
//     resists the slip; a slip that turns back is fixed again where it
//     stood at the last converged step. PlasticLimit 0 means no limit
//     (fixed, as in the linear analysis).
//   - Friction DOFs (N, translations only): as plastic DOFs, with the
//     limit μ·|R_n|, R_n the current reaction of the same node along
//     Friction.Normal, which must be supported (with Friction.Sign ±1
//     only a normal reaction of that sign presses; the other gives no
//     friction). R_n is taken from the current iteration (it enters the
//     limit, not the tangent).
//
// The slip of plastic and friction DOFs is committed with the member
// laws' history. Loads on the DOFs of these restraint laws count in the
// reference of the residual criterion (they may come free), so a case
// loaded only there still iterates.
//
// # Not supported yet
//
// The Small theory refuses pulleys (domain.Member.Pulley), fuses with an
// axial release or spring at an end, one-way plastic or friction
// supports, friction on rotations or without a supported normal axis,
// and prescribed displacements on plastic or friction DOFs. Element families other than
// frames and plates take part in its equilibrium through domain.Element,
// but only frames and plates have results.
//
// The large-displacement theories refuse, naming the member, plate, node
// or case: element families other than frames and plates; pulleys; end
// releases; rigid end offsets of members; one-way supports and variable,
// plastic or friction supports; constraints (rigid links); prescribed
// displacements; thermal loads on members and on plates (a plate's
// initial strains would put the load factor into its local forces); and
// prestress loads. Plates take part whole otherwise: quads and triangles,
// Kirchhoff and Mindlin, offsets, modified rigidities, drilling
// stiffness, pressures and self-weight. Truss members (one-way members included) are axial bars
// (co-rotational, no bending or torsion), so a node joined by trusses only
// has no rotational stiffness and is reported as a mechanism, as in the
// linear analysis.
package nonlinear
