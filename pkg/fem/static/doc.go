// Package static is the linear static analysis of the engine. It knows
// nothing of HTTP or queues: build a domain.Model, call Analyze (or Build a
// domain.Domain once and call Run, so other analyses can share it), read
// Results. It is one analysis on the engine's shared parts (see package
// fem): the domain and its elements, the DOF map, the assembler and the
// factorizer.
//
// # Units
//
// SI throughout: m, N, Pa, kg/m³, rad, K. Self-weight accelerations are in
// units of standard gravity g = 9.80665 m/s² (the constant G).
//
// # DOFs and axes
//
// Every node has six DOFs in global axes, in the order ux uy uz rx ry rz;
// rotations follow the right-hand rule. Member local axes follow package
// geom: x from end A to end B, y "up" in the vertical plane through x
// for angle 0 (global +X for vertical members), z = x × y, the direction
// angle rotating y and z about x. A section's principal angle is added to
// the member's direction angle, so member local y and z are always the
// section's principal axes; release codes, rigid offsets and member loads
// in Local axes and all member results refer to them.
//
// # Sign conventions
//
//   - Node loads, displacements and reactions: global axes, positive along
//     the axes. A reaction is the force the support (or support spring)
//     exerts on the node.
//   - Member end actions (MemberResult.EndA/EndB): local axes, the forces
//     and moments the nodes exert on the member ends.
//   - Member end displacements (MemberResult.DispA): local axes, m and
//     rad, of the member's own end A, at the end of the flexible length
//     and past the releases (a released DOF moves apart from its node).
//   - Internal forces (Station.Forces = N Vy Vz T My Mz): the actions of
//     the part of the member beyond the station on the part before it,
//     local axes. N > 0 is tension. For a beam along +X with Y up and a
//     downward load, the sagging midspan moment Mz is positive.
//   - Stresses: σ = N/A + My·z/Iy − Mz·y/Iz, tension positive; shear
//     stresses are V divided by the shear area (A if none is given).
//   - Member load positions are measured from end A along the flexible
//     length (between rigid offsets), in m (Actual) or % (Percent).
//   - Thermal loads: ΔT uniform (K) and gradients along local +y and +z
//     (K/m); prestress is an axial force, tension positive.
//
// # Method
//
// Members are exact prismatic Timoshenko frame elements (package element,
// family domain.FrameElement); releases are condensed statically, rigid
// offsets and rotations applied blockwise (package transform). The DOF map
// (package dof) drops restrained DOFs and eliminates tied slave DOFs (u =
// C·u_independent, rigid-body kinematics); package sparse's Assembler
// forms Cᵀ·K·C on a lower-triangle pattern computed once per equation
// numbering, so numeric assembly is an indexed add. The stiffness is
// factored once by a linsys.Factorizer: by default a
// linsys.SparseFactorizer (supernodal LDLᵀ; the ordering follows
// Options.SolverType and Options.OptimizationMethod, see
// Options.Orderings), or linsys.DenseFactorizer, or any other through
// Options.Factorizer. All primary cases needed are solved as one
// multi-right-hand-side block; combinations (also nested) are superposed,
// and member diagrams of a combination use the combined member loads, so
// they are exact. Member results are recovered in parallel. Elements of
// other families take part through domain.Element alone: their load
// vectors enter the right-hand sides and their resisting forces the
// reactions and residuals.
//
// With Options.TensionCompressionOnly, one-way members (TensionOnly,
// Cable, CompressionOnly, Gap) and one-way supports (Support.Active) are
// resolved per case by a reversal loop; combinations are then solved from
// their combined loads instead of superposed. States that switch members
// off keep the pattern (it holds every member, switched off or not), so
// the sparse factorizer refactors them without a new ordering or symbolic
// analysis; so does a stabilization spring. Switching a one-way support
// off renumbers the equations and needs one new analysis per numbering.
//
// # Stations from stored end states
//
// A member's end-A action and displacements (MemberResult.EndA, DispA)
// and its loads fix everything along it. Stations uses that to rebuild
// the stations of chosen members of one case or combination from stored
// end states, without supports, equations or a factorization, on a
// sub-model holding only those members, their nodes, sections, materials
// and loads: it runs the code of Analyze's recovery (member set-up, load
// resolution, combined loads, station points, evaluator, stresses), so it
// returns Analyze's stations up to the order of floating-point sums.
//
// # Progress
//
// Options.Progress receives a Progress at the start (Fraction 0) and end
// (Fraction 1) of every stage of Analyze (setup, assembly,
// factorization, solution, recovery) and, at most about every
// sparse.ProgressInterval, the fraction done of long stages: members for
// setup and recovery, predicted flops for the sparse factorization,
// whose size (equations, ordering, nonzeros of L, flops) it also
// reports. The reversal loop runs stages again per case and iteration.
// Calls come one at a time; a callback may cancel the context, which the
// factorization honours within milliseconds.
//
// # Errors
//
// What the user must fix is a *domain.ModelError (errors.As finds it
// under the "analyze: " or "stations: " the entry point adds): a mechanism
// names the node and DOF (a Factorizer reports the equation of a zero
// pivot as *linsys.SingularError and the analysis maps it back), a
// missing section or material names the member, a load on a missing
// member or node names it, and so does a requested case that does not
// exist. Any other error (the factorizer failing otherwise, a domain
// built with MembersOnly) is an internal fault; see package fem.
package static
