// Package dof numbers the equations of an analysis: it maps the six DOFs of
// every node (ux uy uz rx ry rz, global axes, right-hand rule; DOF d of node
// n is global DOF 6·n+d) to equations, eliminating restrained DOFs and the
// tied DOFs of master–slave constraints, and moves forces and displacements
// between the two. Every analysis uses it; it knows nodes and DOFs, not
// elements or loads.
//
// # Constraint elimination
//
// A tied slave DOF follows its master as a rigid body: u_s = u_m + θ_m ×
// (x_s − x_m) for translations, θ_s = θ_m for rotations, so constraint
// forces keep moment equilibrium. With inclined axes R the ties hold for
// the components along the rows of R, and a released inclined component is
// a new unknown stored in the slave's DOF slot of the same index. Every DOF
// is therefore a linear combination of independent DOFs, u = C·u_ind; the
// independent DOFs that are not restrained are the equations. C is handed
// to package sparse's assembler as a sparse.Reduction, which forms Cᵀ·K·C
// element by element; forces go the other way as Cᵀ·f (Distribute).
//
// # Supports and states
//
// A support makes a DOF fixed (restrained: no equation; its reaction is
// recovered), or adds a spring (N/m, N·m/rad) on its diagonal. One-way
// supports can be switched off per state (Number's off argument), which
// renumbers the equations; prescribed displacements act on fixed DOFs.
package dof
