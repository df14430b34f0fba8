// Package eigen finds the extreme eigenpairs of a symmetric operator by
// block Lanczos with full reorthogonalization: the solver under the
// engine's natural-frequency and buckling analyses. It knows operators and
// vectors only, not elements or models.
//
// # The problem
//
// Op = F⁻¹·C is self-adjoint in the inner product ⟨x, y⟩ = xᵀ·W·y, with W
// symmetric positive semi-definite. The two engine uses:
//
//	frequencies  K·φ = λ·M·φ:  F = K − σ·M, C = W = M,  θ = 1/(λ − σ)
//	buckling     (K + λ·K_G)·φ = 0:  F = W = K, C = −K_G,  θ = 1/λ
//
// Shift-invert turns the eigenvalues λ nearest the shift σ into the θ of
// largest magnitude, which Lanczos finds first: one factorization of F,
// then one block solve per step. With W = M singular (massless rotations,
// say) the Lanczos vectors stay in the range of Op and the eigenvectors are
// purified by one step of inverse iteration, y = Op·(Q·s)/θ (Ericsson and
// Ruhe, Math. Comp. 35 (1980) 1251–1268; Nour-Omid, Parlett, Ericsson and
// Jensen, Math. Comp. 48 (1987) 663–673). The step is a real application
// of Op: the Lanczos relation offers it without a solve, but not once the
// basis has exhausted the range of Op, and less accurately for repeated
// eigenvalues.
// When C is W, the operator is applied to a basis block from the W·Q the
// basis keeps (Problem.FromW), without products with C.
//
// Blocks find repeated eigenvalues up to the block size at once; full
// reorthogonalization keeps the basis orthonormal, so no spurious copies
// appear: classical Gram–Schmidt in the W inner product, BLAS-3, first
// against the last two blocks (the recurrence's large components) and then
// against the whole basis, so that the blocks where cancellation happens
// are swept twice ("twice is enough"), the others, which hold round-off
// only, once. A Ritz pair (θ, y) is accepted when the residual
// ‖Op·y − θ·y‖_W, read from the block tridiagonal matrix without forming
// y, is below Tol·|θ|.
//
// Whether every eigenvalue in a range was found is not the solver's to
// prove: the caller counts them by Sylvester's law of inertia (the
// negative pivots of K − λ·M) and compares.
package eigen
