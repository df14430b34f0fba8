// Package buckling is the linearized buckling analysis of the engine: for
// each load case, the smallest positive load factors λ with
// (K + λ·K_G)·φ = 0, their mode shapes, and the effective lengths of the
// members in compression.
//
// # Method
//
// The model is refined by subdividing its members (package modal), so a
// column modelled as one member gives its Euler load. A linear static
// analysis of the case (package static, on the refined model) gives the
// displacements from which every element forms its geometric stiffness K_G
// (frames: from their mean axial force, condensed over released ends). The
// load factors are the eigenvalues of K·φ = λ·(−K_G)·φ; block Lanczos
// (package eigen) finds the largest θ = 1/λ of K⁻¹·(−K_G) in the K inner
// product, with the one factorization of K. Negative load factors (the
// loads reversed) are not reported. A Sturm count of K + λ·K_G at the
// largest factor found checks that none was missed.
//
// # Effective lengths
//
// For member i with axial force N_i < 0 (compression; the most compressive
// value along it), mode j's critical force is Pcr = λ_j·|N_i| and its
// effective lengths about the section's principal axes are
// L_e = π·√(E·I/Pcr) with I = Iy (ly) and Iz (lz). Members in tension or
// without axial force get an exclusion reason instead.
//
// # Units
//
// SI: N, m. Load factors are dimensionless multipliers of the case's
// loads. Mode shapes are in global axes, DOF order ux uy uz rx ry rz,
// scaled as Options.Normalization says: φᵀ·K·φ = 1 by default, the
// largest translation 1 for modal.UnitNormalized.
package buckling
