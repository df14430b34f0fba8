// Package sparse is the sparse symmetric direct solver of gusset's analysis
// engine: storage and assembly, fill-reducing orderings, symbolic analysis,
// supernodal multifrontal LDLᵀ factorization and solves. It knows nothing of
// models or the service: it sees DOF indices, element→DOF maps and values.
//
// # Storage and DOF indexing
//
// A SymMatrix is a shared Pattern plus values: compressed columns of the
// lower triangle (row ≥ column), rows ascending, the diagonal first in every
// column and always present. DOFs are 0-based indices into [0, N); every
// index that crosses the API (SingularError.DOF, vectors, Perm) is the
// original, un-permuted DOF. Constrained DOFs are simply absent: the caller
// numbers the free DOFs. An Assembler does symbolic assembly once and
// then adds element matrices into fixed slots. NewReducedAssembler takes
// the elements' DOFs (an Incidence) and a Reduction, u = C·x, relating
// DOFs to equations (none for a restrained DOF, several weighted ones for
// a DOF tied to others), and forms Cᵀ·K·C element by element without ever
// forming C or K; NewAssembler is the identity case, an element→equation
// map with negative entries for constrained DOFs. Shifted forms K − σM on
// the same pattern.
//
// # Orderings
//
// Natural, AMD, NestedDissection and RCM (reverse Cuthill–McKee, for
// profile/wavefront use). All run on the node graph (AnalyzeOptions.NodeOf
// or BlockSize, 6 DOFs per node for frames) with DOF weights, and the
// result is expanded node by node to DOFs.
//
// AMD is the published approximate minimum degree algorithm (Amestoy,
// Davis and Duff) with its default parameters, down to its tie-breaking:
// on the benchmark grids it reproduces SuiteSparse AMD's nnz(L) exactly.
//
// NestedDissection splits every part above 200 nodes by the lightest of
// several vertex separators, from multilevel node bisection refined by
// vertex Fiduccia–Mattheyses (as METIS) and from breadth-first level
// structures (George–Liu); on 3-D frames and grids the latter are diagonal
// planes, a quarter lighter than axis planes. Constrained AMD then orders
// the leaves and separators within the dissection. The better of two
// dissections, run side by side, and plain AMD (which wins on slender
// structures) is kept, by flops. On grid-30 it needs 130 M nnz(L) and
// 3.85e11 flops against AMD's 223 M and 1.26e12 and METIS's (through
// CHOLMOD) 148 M and 5.46e11; use it for large models.
//
// # Factorization
//
// Analyze computes the elimination tree, column counts, fundamental
// supernodes with relaxed amalgamation, the supernode row structures, the
// exact nnz(L) and flop count, and a static schedule. Factorize performs a
// multifrontal LDLᵀ: each supernode's front collects A and its children's
// update matrices, its pivot block is factored without pivoting (recursive
// blocking, dense kernels of package kernel with AVX-512/AVX2 assembly), and
// its update matrix −L21·D·L21ᵀ goes to the parent. The update is written
// over its buffer (kernel.OverwriteNT) and the children's columns that
// belong to it are added afterwards, so no update matrix is cleared first;
// each worker scatters A into its own supernodes' panels. The factor's
// values are mapped from the system outside the Go heap, so their pages
// are first touched by the workers in parallel rather than zeroed on one
// core up front (on the 2-core virtual machine measured, the first touch
// cost 0.4–1.3 s per GiB on one core, half that on two); they are
// unmapped when the Factor is collected. The kernels are those of
// FactorOptions.Kernels, by default kernel.Best() (the widest the CPU
// supports, fixed at start-up); the Factor keeps them for its solves, so
// implementations can be compared side by side in one process. Independent
// subtrees run on separate goroutines; the top of the tree uses all workers
// inside the dense kernels. Without pivoting across (or within) supernodes
// the factor exists whenever the leading principal minors of P·A·Pᵀ are
// non-singular, which holds for SPD matrices and in practice for K − σM
// away from eigenvalues.
//
// # Inertia
//
// Inertia reports the numbers of positive, negative and zero pivots of D.
// By Sylvester's law they equal the numbers of positive, negative and zero
// eigenvalues of A; for A = K − σM, Negative is the number of eigenvalues of
// the pencil (K, M) below σ (the Sturm-sequence count). Zero is non-zero only
// with FactorOptions.AllowSingular.
//
// # Errors
//
// A pivot with |d| ≤ PivotTol·(largest |a| in the original row/column) is a
// *SingularError naming the original DOF (retrieve it with errors.As).
// Cancellation of the context is checked between supernodes and, inside
// large fronts, between chunks of bounded work, so Factorize returns within
// milliseconds of a cancel; the error wraps ctx.Err(), so errors.Is(err,
// context.Canceled) holds. All errors carry the failing operation.
// FactorOptions.Progress reports the fraction of the stored flops done,
// per finished supernode and at most every ProgressInterval; it may
// cancel the context.
//
// # Solves
//
// Factor.Solve takes one right-hand side; Factor.SolveMany a block given as
// a gonum *mat.Dense of N rows and one column per load case (row-major, so a
// DOF's values for all load cases are contiguous). The block solve reads
// the factor panels in place: blocked triangular solves over six-row (or
// six-column) tiles of each panel with register-blocked micro-kernels
// (AVX-512 or AVX2 assembly matching the implementation of the factor's
// kernels, portable Go otherwise), so ten right-hand sides cost about two
// single solves, in a fixed order: the same answer bit for bit every time.
// SolveManyParallel, for callers that need no such reproducibility (the
// eigen analyses), also runs disjoint subtrees of the elimination tree on
// separate goroutines (balanced by panel size, the data it streams) and
// the supernodes above them on one.
// SolveRefined and SolveManyRefined add iterative
// refinement and report the relative residual ‖b − A·x‖/‖b‖ (see
// RelResidual).
package sparse
