// Package fem is the root of gusset's finite-element engine. It holds no
// code; this page is the map of the packages under it and of how an
// analysis uses them. The engine imports only the standard library, gonum
// and golang.org/x/sys, and knows nothing of HTTP, Redis or queues.
//
// # Units and conventions
//
// SI throughout (m, N, Pa, kg, s, rad, K). Every node has six DOFs in
// global axes, in the order ux uy uz rx ry rz; rotations follow the
// right-hand rule. Global DOF d of node n is 6·n + d. Member and plate
// local axes are defined in package geom.
//
// # The packages, from the bottom up
//
//	geom         vectors, rotations, member and plate local axes
//	transform    element matrices and vectors between local and global
//	             axes, rigid end offsets
//	element      pure element routines: frame stiffness, consistent mass,
//	             geometric stiffness, releases, fixed-end actions, stations;
//	             they write into buffers the caller owns
//	shell        pure flat-shell routines in the plate's own plane:
//	             membrane with drilling, DKT/DKQ and MITC3/MITC4 bending,
//	             mass, geometric stiffness, loads, resultants, stresses
//	sparse       the sparse symmetric solver and the one assembler
//	             (sparse.Assembler: a pattern once, then indexed adds)
//	sparse/kernel  dense kernels, chosen once from the CPU
//	linsys       Factorizer and its implementations; knows no element
//	dof          the DOF map: supports, master–slave elimination,
//	             equation numbering per state, u = C·x and Cᵀ·f
//	domain       the engine model (nodes, elements, supports, constraints,
//	             loads, cases), Build, the Element interface and the frame
//	             and shell families that implement it (mesh-quality
//	             checks of plates included), load resolution, combinations
//	eigen        block Lanczos for the extreme eigenpairs of an operator
//	static       linear static analysis with the tension/compression-only
//	             reversal loop, recovery and stations
//	modal        what the eigen analyses share: members subdivided, K,
//	             shifted factorizations with inertia, the Sturm count
//	dynamic      natural frequencies, participation, mode shapes
//	buckling     linearized buckling load factors, effective lengths
//	gridn        benchmark model generator (grid-n frames)
//	static/ccx   cross-check against CalculiX (build tag ccx)
//	internal/par the engine's data-parallel loops
//	internal/navier, internal/platecase
//	             plate reference series and test meshes (tests only)
//
// # How an analysis uses the parts
//
//  1. domain.Build checks and prepares a domain.Model once: node positions,
//     the elements with their matrices (Domain.Elements: the frames, then
//     the elements of any other family that BuildOptions.Elements builds,
//     all behind domain.Element), the DOF map (dof.Map) and the load-case
//     indexes. Analyses share the Domain and do not change it.
//  2. The analysis numbers the equations of a state with
//     Domain.DOF.Number (one-way supports switched off, or none), and does
//     the symbolic assembly once per numbering with Domain.NewAssembler:
//     package sparse forms the pattern of Cᵀ·K·C and every element's
//     place in it.
//  3. Each matrix it needs is a numeric assembly on that pattern:
//     Domain.Assemble (stiffness, mass), Domain.AssembleGeometric
//     (geometric stiffness of a displacement state), domain.AddSprings
//     (support springs), or Assembler.Add per element (a tangent). K and M
//     share a pattern, so K − σM needs no symbolic work (sparse.Shifted).
//  4. A linsys.Factorizer factors it (the default orders and analyses
//     each pattern once). Right-hand sides come from the resolved loads
//     (Domain.ResolveCase, Domain.Combined) through
//     dof.Numbering.Distribute (Cᵀ·f); prescribed displacements move to
//     the right-hand side with Domain.MulStiffness; dof.Numbering.Expand
//     turns solutions back into node displacements.
//  5. Recovery asks each element for its resisting forces (reactions,
//     residuals) and internal forces; a family's fuller results (frames:
//     end states and stations) come from its concrete type.
//
// A new element family implements domain.Element and is built through
// BuildOptions.Elements; the DOF map, the assembler and the analyses take
// it unchanged (static's TestElementFamilyPlugsIn does this with a
// test-only triangle).
//
// # Errors
//
// Every analysis (static.Analyze, Run and Stations, nonlinear.Analyze and
// Check, dynamic.Analyze, buckling.Analyze, modal.New, domain.Build)
// returns two kinds of error, told apart with errors.As, never by their
// text:
//
//   - Model errors, a *domain.ModelError somewhere in the chain: the user
//     must change the model or the settings. They are the references to
//     nodes, members, plates, sections, materials, load cases or
//     combinations that do not exist, ids defined twice or not positive,
//     bad support, release and constraint codes, members of zero length
//     or with non-positive properties, releases that leave a member (or
//     a load on it) unstable, plates that cannot be analysed, loads
//     outside their member, a mechanism (a zero pivot of K or of a
//     tangent, named by node and DOF — the factorizers' *SingularError
//     mapped back — or, in an eigen analysis, the member a subdivision
//     node lies in), settings out of range, what the non-linear analysis
//     does not support, a non-linear step that does not converge or is
//     past the critical load (nonlinear.NotConvergedError and
//     UnstableError, which are model errors too), a member or plate that
//     a diverging iteration collapses, and an eigen case with no mass, no
//     compression or no load factor in the range asked for. The model
//     error's Error is the message to show, with the context the engine
//     added (package domain, "Errors").
//   - Internal faults, any other error: a broken invariant or an
//     unexpected state of the engine — a factorizer failing otherwise
//     than on a zero pivot, an assembler refusing its pattern, a shift
//     that stays on an eigenvalue, a plugged-in element family's own
//     error, a domain built with MembersOnly given to an analysis. No
//     change to the model mends them; they are bugs to report. A
//     cancelled context is neither: it is returned wrapped, and callers
//     check their context first.
package fem
