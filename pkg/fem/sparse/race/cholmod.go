//go:build cholmod

package race

/*
#cgo CFLAGS: -I/usr/include/suitesparse -O2
#cgo LDFLAGS: -lcholmod -lsuitesparseconfig
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <cholmod.h>

static cholmod_common *gs_start(void) {
	cholmod_common *c = malloc(sizeof *c);
	cholmod_start(c);
	return c;
}

static void gs_finish(cholmod_common *c) {
	cholmod_finish(c);
	free(c);
}

// gs_matrix copies a lower-triangular CSC matrix into CHOLMOD (stype -1).
static cholmod_sparse *gs_matrix(cholmod_common *c, int n, int nnz, const int *colptr, const int *rowidx, const double *val) {
	cholmod_sparse *a = cholmod_allocate_sparse(n, n, nnz, 1, 1, -1, CHOLMOD_REAL, c);
	if (a == NULL) return NULL;
	memcpy(a->p, colptr, (size_t)(n + 1) * sizeof(int));
	memcpy(a->i, rowidx, (size_t)nnz * sizeof(int));
	memcpy(a->x, val, (size_t)nnz * sizeof(double));
	return a;
}

static cholmod_dense *gs_dense(cholmod_common *c, int n, const double *b) {
	cholmod_dense *d = cholmod_allocate_dense(n, 1, n, CHOLMOD_REAL, c);
	if (d == NULL) return NULL;
	memcpy(d->x, b, (size_t)n * sizeof(double));
	return d;
}

static double *gs_dense_x(cholmod_dense *d) { return (double *)d->x; }

// gs_tried reports whether cholmod_analyze tried method k, and its ordering.
static int gs_tried(cholmod_common *c, int k) { return c->method[k].lnz >= 0; }
static int gs_method_ordering(cholmod_common *c, int k) { return c->method[k].ordering; }
static int gs_selected_ordering(cholmod_common *c) { return c->method[c->selected].ordering; }

// gs_order runs one ordering alone, to time it apart from the symbolic
// analysis. It returns 0 on failure.
static int gs_order(cholmod_common *c, cholmod_sparse *a, int ordering, int *perm) {
	switch (ordering) {
	case CHOLMOD_AMD: return cholmod_amd(a, NULL, 0, perm, c);
	case CHOLMOD_METIS: return cholmod_metis(a, NULL, 0, 1, perm, c);
	case CHOLMOD_NESDIS: {
		int n = (int)a->nrow;
		int *cp = malloc((size_t)(n + 1) * sizeof(int)), *cm = malloc((size_t)n * sizeof(int));
		long r = cholmod_nested_dissection(a, NULL, 0, perm, cp, cm, c);
		free(cp); free(cm);
		return r >= 0;
	}
	case CHOLMOD_NATURAL: for (int i = 0; i < (int)a->nrow; i++) perm[i] = i; return 1;
	}
	return 0;
}

// gs_stored_flops is Σ over supernodes of Σ_{i<k} (m−i)², the flops on
// the stored (amalgamated) structure of a supernodal L; the same count as
// sparse.Symbolic.FlopsStored.
static double gs_stored_flops(cholmod_factor *l) {
	if (!l->is_super) return -1;
	const int *super = l->super, *pi = l->pi;
	double fl = 0;
	for (size_t s = 0; s < l->nsuper; s++) {
		int k = super[s + 1] - super[s], m = pi[s + 1] - pi[s];
		for (int i = 0; i < k; i++) fl += (double)(m - i) * (double)(m - i);
	}
	return fl;
}

static double gs_stored_nnz(cholmod_factor *l) { return l->is_super ? (double)l->xsize : (double)l->nzmax; }

// The BLAS is found at run time, through the libblas.so.3 that CHOLMOD
// links: OpenBLAS tells its configuration and thread count.
static const char *gs_blas_config(void) {
	const char *(*f)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "openblas_get_config");
	return f ? f() : "";
}
static int gs_blas_threads(void) {
	int (*f)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
	return f ? f() : -1;
}

typedef void (*dgemm_fn)(const char *, const char *, const int *, const int *, const int *,
	const double *, const double *, const int *, const double *, const int *,
	const double *, double *, const int *);

// gs_dgemm computes C = C − A·Bᵀ (column-major m×k and n×k, C m×n) with
// the system BLAS; it returns 0 when no dgemm_ is loaded.
static int gs_dgemm(int m, int n, int k, const double *a, const double *b, double *cc) {
	dgemm_fn f = (dgemm_fn)dlsym(RTLD_DEFAULT, "dgemm_");
	if (!f) return 0;
	double alpha = -1, beta = 1;
	f("N", "T", &m, &n, &k, &alpha, a, &m, b, &n, &beta, cc, &m);
	return 1;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"time"
	"unsafe"
)

// CholmodVersion is the version of the CHOLMOD headers compiled against.
var CholmodVersion = fmt.Sprintf("CHOLMOD %d.%d.%d (%s)", C.CHOLMOD_MAIN_VERSION, C.CHOLMOD_SUB_VERSION, C.CHOLMOD_SUBSUB_VERSION, C.CHOLMOD_DATE)

// BLAS describes the BLAS that CHOLMOD runs on: OpenBLAS's configuration
// string and thread count, or "unknown BLAS" when it is not OpenBLAS.
func BLAS() string {
	cfg := C.GoString(C.gs_blas_config())
	if cfg == "" {
		return "unknown BLAS (not OpenBLAS)"
	}
	return fmt.Sprintf("%s, %d threads", cfg, int(C.gs_blas_threads()))
}

// Run is one solve of A·x = b: phase times, factor statistics, peak memory
// and the solution. Times are wall-clock.
type Run struct {
	Ordering    string // the ordering method used
	Order       time.Duration
	Symbolic    time.Duration // analysis minus ordering
	Numeric     time.Duration
	Solve       time.Duration
	NnzL        float64 // exact nonzeros of L
	Flops       float64 // Σ c_j²
	FlopsStored float64 // on the stored, amalgamated structure
	PeakRSS     float64 // growth of the resident set, bytes (set by the caller)
	PeakProc    float64 // the whole process's resident high-water mark during the run, bytes (set by the caller)
	// Residual and Backward are the relative residual and the normwise
	// backward error of X (set by the caller).
	Residual, Backward float64
	X                  []float64
}

// Total is the time from the matrix to the solution.
func (r *Run) Total() time.Duration { return r.Order + r.Symbolic + r.Numeric + r.Solve }

var orderingName = map[C.int]string{C.CHOLMOD_NATURAL: "natural", C.CHOLMOD_AMD: "AMD", C.CHOLMOD_METIS: "METIS", C.CHOLMOD_NESDIS: "NESDIS", C.CHOLMOD_GIVEN: "given"}

// Cholmod solves the lower-triangular CSC matrix (n, colPtr, rowIdx, val)
// with right-hand side b by cholmod_analyze, cholmod_factorize and
// cholmod_solve, all with CHOLMOD's defaults. The ordering time is that
// of running each ordering cholmod_analyze tried once more on its own; the
// symbolic time is the rest of the analysis.
func Cholmod(n int, colPtr []int, rowIdx []int32, val, b []float64) (*Run, error) {
	cp := make([]int32, len(colPtr))
	for i, v := range colPtr {
		if v > math.MaxInt32 {
			return nil, errors.New("cholmod: more than 2³¹ entries")
		}
		cp[i] = int32(v)
	}
	c := C.gs_start()
	defer C.gs_finish(c)
	a := C.gs_matrix(c, C.int(n), C.int(len(val)), (*C.int)(unsafe.Pointer(&cp[0])), (*C.int)(unsafe.Pointer(&rowIdx[0])), (*C.double)(unsafe.Pointer(&val[0])))
	if a == nil {
		return nil, errors.New("cholmod: allocate the matrix")
	}
	defer C.cholmod_free_sparse(&a, c)
	bd := C.gs_dense(c, C.int(n), (*C.double)(unsafe.Pointer(&b[0])))
	if bd == nil {
		return nil, errors.New("cholmod: allocate b")
	}
	defer C.cholmod_free_dense(&bd, c)
	t0 := time.Now()
	l := C.cholmod_analyze(a, c)
	analyse := time.Since(t0)
	if l == nil || c.status < 0 {
		return nil, fmt.Errorf("cholmod_analyze: status %d", int(c.status))
	}
	defer C.cholmod_free_factor(&l, c)
	r := &Run{Ordering: orderingName[C.gs_selected_ordering(c)], NnzL: float64(c.lnz), Flops: float64(c.fl)}
	t1 := time.Now()
	if C.cholmod_factorize(a, l, c) == 0 || c.status != C.CHOLMOD_OK {
		return nil, fmt.Errorf("cholmod_factorize: status %d", int(c.status))
	}
	r.Numeric = time.Since(t1)
	t2 := time.Now()
	x := C.cholmod_solve(C.CHOLMOD_A, l, bd, c)
	r.Solve = time.Since(t2)
	if x == nil {
		return nil, fmt.Errorf("cholmod_solve: status %d", int(c.status))
	}
	r.X = make([]float64, n)
	copy(r.X, unsafe.Slice((*float64)(unsafe.Pointer(C.gs_dense_x(x))), n))
	C.cholmod_free_dense(&x, c)
	r.FlopsStored = float64(C.gs_stored_flops(l))

	// Time the orderings the analysis tried, alone.
	perm := make([]C.int, n)
	var tried []string
	for k := 0; k <= C.CHOLMOD_MAXMETHODS; k++ {
		if C.gs_tried(c, C.int(k)) == 0 {
			continue
		}
		ord := C.gs_method_ordering(c, C.int(k))
		t := time.Now()
		if C.gs_order(c, a, ord, &perm[0]) == 0 {
			return nil, fmt.Errorf("cholmod: ordering %s alone: status %d", orderingName[ord], int(c.status))
		}
		r.Order += time.Since(t)
		tried = append(tried, orderingName[ord])
	}
	r.Order = min(r.Order, analyse)
	r.Symbolic = analyse - r.Order
	if len(tried) > 1 {
		r.Ordering = fmt.Sprintf("%s of %v", r.Ordering, tried)
	}
	return r, nil
}

// DGEMM times C −= A·Bᵀ (m×k by n×k, column-major) with the system BLAS
// and returns the rate in GFLOP/s, or 0 when no BLAS dgemm is loaded.
func DGEMM(m, n, k int, a, b, c []float64) float64 {
	t := time.Now()
	if C.gs_dgemm(C.int(m), C.int(n), C.int(k), (*C.double)(unsafe.Pointer(&a[0])), (*C.double)(unsafe.Pointer(&b[0])), (*C.double)(unsafe.Pointer(&c[0]))) == 0 {
		return 0
	}
	return 2 * float64(m) * float64(n) * float64(k) / time.Since(t).Seconds() / 1e9
}
