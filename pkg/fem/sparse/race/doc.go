// Package race races gusset's sparse solver (package sparse) against
// SuiteSparse CHOLMOD on identical matrices, in one process: the grid-n
// frames of package gridn and the plate mesh gridn.GeneratePlate, exactly
// as `gridgen -mtx` writes them (lower triangle, explicit zeros kept, so
// both solvers see the same pattern).
//
// Everything here is behind the build tag cholmod and uses cgo; it is a
// benchmark harness, never part of the service. Run it with
//
//	make bench-cholmod
//
// which installs libsuitesparse-dev and libopenblas-dev through apt when
// they are missing. CHOLMOD runs with its defaults (supernodal LLᵀ; AMD,
// then METIS when AMD's fill is poor) over the system BLAS; gusset runs
// with its nested dissection and its own kernels. The two alternate, run
// by run, so that drift of the machine hits both alike. Speed targets are
// reported, not asserted; accuracy and the memory limit of grid-40 (8 GiB
// resident for the whole process) are asserted.
//
// Units: seconds, bytes, flops as Σ c_j² over the columns of L (the count
// both libraries report), GFLOP/s of the numeric factorization.
package race
