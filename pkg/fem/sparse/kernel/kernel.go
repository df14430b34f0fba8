// Package kernel holds the dense kernels of the supernodal factorization:
// the rank-k update C −= A·diag(d)·Bᵀ on column-major panels (the Dgemm/Dsyrk
// of an LDLᵀ front), plus AXPY and DOT for the triangular solves.
//
// The update is organised like Goto's GEMM: B is packed into NR-column
// slivers and A, scaled by d, into MR-row slivers of a cache-sized block, and
// a register-blocked micro-kernel accumulates an MR×NR tile of C over the
// shared dimension. Micro-kernels exist in Go assembly for AVX-512F (16×14)
// and AVX2+FMA (8×6), and a pure-Go 4×4 kernel is the portable fallback.
//
// The CPU features come from golang.org/x/sys/cpu, read once when the
// package is initialised; Best returns the widest implementation they
// allow (x/sys/cpu honours GODEBUG, so cpu.avx512f=off or cpu.avx2=off
// narrows it). There is no package-wide current implementation: callers
// hold a *Kernels and pass it along, and For builds any other supported
// one, which is how tests run all implementations available on the machine
// against each other.
//
// All matrices are column-major: element (i, j) of X with leading dimension
// ldx is x[i+j*ldx].
package kernel

import (
	"fmt"
	"sync"
)

// Impl names a micro-kernel implementation, so that callers can ask For
// for a particular one and tell which one a Kernels runs.
type Impl int

// The available implementations, from the portable fallback to the widest.
const (
	ImplGeneric Impl = iota // pure Go, 4×4 tile
	ImplAVX2                // AVX2+FMA assembly, 8×6 tile
	ImplAVX512              // AVX-512F assembly, 16×14 tile
)

// String gives the short name used in test, benchmark and log output.
func (i Impl) String() string {
	switch i {
	case ImplAVX2:
		return "avx2"
	case ImplAVX512:
		return "avx512"
	}
	return "generic"
}

// hasAVX2, hasAVX512 and bestImpl are settled once, at package
// initialisation, and never written again: the choice of kernels is not
// switchable at run time, so concurrent factorizations cannot disturb each
// other.
var (
	hasAVX2, hasAVX512 = detect()
	bestImpl           = widest()
	portable           = build(ImplGeneric)
)

// widest returns the widest implementation this machine supports.
func widest() Impl {
	switch {
	case hasAVX512:
		return ImplAVX512
	case hasAVX2:
		return ImplAVX2
	}
	return ImplGeneric
}

// Kernels is one implementation of the dense kernels with its blocking
// parameters. It is a value chosen by the caller and passed along (package
// sparse keeps one per factor) rather than a package-wide setting, so that
// tests and benchmarks can run implementations side by side without
// affecting each other or a running factorization. A Kernels never changes
// after it is built; the zero value is the portable pure-Go implementation,
// so every Kernels is usable.
type Kernels struct {
	impl   Impl
	mr, nr int // micro-kernel tile
	mc, kc int // rows and depth of a packed block of A
	nc     int // columns of a packed block of B
	micro  func(k int, a, b, c []float64, ldc int)
	// pack packs one full MR-row sliver of A scaled by d (packA's
	// common case), or is nil for the portable loop.
	pack func(k int, a []float64, lda int, d, dst []float64)
	axpy func(alpha float64, x, y []float64)
	dot  func(x, y []float64) float64
}

// build returns the kernels of impl, which must be supported.
func build(impl Impl) Kernels {
	switch impl {
	case ImplAVX512:
		return Kernels{impl, 16, 14, 192, 256, 4200, microAVX512, packAVX512, axpyNegFast, dotFast}
	case ImplAVX2:
		return Kernels{impl, 8, 6, 128, 256, 4200, microAVX2, nil, axpyNegFast, dotFast}
	}
	return Kernels{ImplGeneric, 4, 4, 128, 256, 4096, microGeneric4x4, nil, axpyNegGeneric, dotGeneric}
}

// conf returns kn, or the portable kernels when kn is the zero value.
func (kn *Kernels) conf() *Kernels {
	if kn.micro == nil {
		return &portable
	}
	return kn
}

// Best returns the kernels to use unless there is a reason to compare: the
// widest implementation the CPU supports, chosen once when the package is
// initialised. Each call returns a fresh copy, so no caller can alter the
// choice for others.
func Best() *Kernels {
	k := build(bestImpl)
	return &k
}

// For returns the kernels of impl so that tests and benchmarks can run a
// particular implementation, or an error when this machine cannot run it.
func For(impl Impl) (*Kernels, error) {
	if !Supported(impl) {
		if impl < ImplGeneric || impl > ImplAVX512 {
			return nil, fmt.Errorf("kernel: unknown implementation %d", int(impl))
		}
		return nil, fmt.Errorf("kernel: %v not supported on this CPU", impl)
	}
	k := build(impl)
	return &k, nil
}

// Supported reports whether impl can run on this machine, so that tests can
// skip the implementations For would refuse.
func Supported(impl Impl) bool {
	switch impl {
	case ImplAVX512:
		return hasAVX512
	case ImplAVX2:
		return hasAVX2
	case ImplGeneric:
		return true
	}
	return false
}

// Impl reports which implementation these kernels run, for logs and for
// callers that pair it with micro-kernels of their own (package sparse's
// block solve).
func (kn *Kernels) Impl() Impl { return kn.impl }

// AxpyNeg computes y −= alpha·x over len(y) elements: the column update of
// an unblocked LDLᵀ and of the forward solve.
func (kn *Kernels) AxpyNeg(alpha float64, x, y []float64) { kn.conf().axpy(alpha, x, y) }

// AxpyNegFunc returns the function AxpyNeg calls, so that a loop making
// many short calls can fetch it once rather than on every iteration.
func (kn *Kernels) AxpyNegFunc() func(alpha float64, x, y []float64) { return kn.conf().axpy }

// Dot returns Σ x[i]·y[i] over len(x) elements: the row update of the
// backward solve.
func (kn *Kernels) Dot(x, y []float64) float64 { return kn.conf().dot(x, y) }

// DotFunc returns the function Dot calls, so that a loop making many short
// calls can fetch it once rather than on every iteration.
func (kn *Kernels) DotFunc() func(x, y []float64) float64 { return kn.conf().dot }

type workspace struct{ ap, bp, tmp []float64 }

var wsPool = sync.Pool{New: func() any { return new(workspace) }}

func (w *workspace) ensure(c *Kernels) {
	if na := c.mc * c.kc; len(w.ap) < na {
		w.ap = make([]float64, na)
	}
	if nb := (c.nc + c.nr) * c.kc; len(w.bp) < nb {
		w.bp = make([]float64, nb)
	}
	if len(w.tmp) < c.mr*c.nr {
		w.tmp = make([]float64, c.mr*c.nr)
	}
}

// UpdateNT computes C −= A·diag(d)·Bᵀ, where A is m×k, B is n×k, C is m×n.
// d may be nil, meaning the identity. With lower set, C is taken to be a
// block whose element (i, j) lies on or below the diagonal of a symmetric
// matrix exactly when i ≥ j: tiles strictly above that diagonal are skipped,
// and entries above it inside a tile that straddles it may be overwritten
// with meaningless values, so callers must not keep data there.
func (kn *Kernels) UpdateNT(m, n, k int, a []float64, lda int, d []float64, b []float64, ldb int, c []float64, ldc int, lower bool) {
	kn.updateNT(m, n, k, a, lda, d, b, ldb, c, ldc, lower, false)
}

// OverwriteNT is UpdateNT with C taken as zero: C = −A·diag(d)·Bᵀ, written
// without reading what C held. Each tile of C is cleared just before its
// micro-kernel runs, while it is in cache, which saves the separate pass
// over memory that clearing all of C first would cost. With lower, tiles
// strictly above the diagonal are left as they were.
func (kn *Kernels) OverwriteNT(m, n, k int, a []float64, lda int, d []float64, b []float64, ldb int, c []float64, ldc int, lower bool) {
	kn.updateNT(m, n, k, a, lda, d, b, ldb, c, ldc, lower, true)
}

func (kn *Kernels) updateNT(m, n, k int, a []float64, lda int, d []float64, b []float64, ldb int, c []float64, ldc int, lower, over bool) {
	if m <= 0 || n <= 0 || k <= 0 {
		return
	}
	conf := kn.conf()
	ws := wsPool.Get().(*workspace)
	ws.ensure(conf)
	updateGen(conf, ws, m, n, k, a, lda, d, b, ldb, false, c, ldc, lower, over)
	wsPool.Put(ws)
}

// UpdateNTPar is UpdateNT split over workers goroutines by column blocks of
// C (balanced by the area each computes). It serves the large fronts near
// the root of the elimination tree, where tree parallelism has run out.
func (kn *Kernels) UpdateNTPar(m, n, k int, a []float64, lda int, d []float64, b []float64, ldb int, c []float64, ldc int, lower bool, workers int) {
	kn.updateNTPar(m, n, k, a, lda, d, b, ldb, c, ldc, lower, false, workers)
}

// OverwriteNTPar is OverwriteNT split over workers as UpdateNTPar.
func (kn *Kernels) OverwriteNTPar(m, n, k int, a []float64, lda int, d []float64, b []float64, ldb int, c []float64, ldc int, lower bool, workers int) {
	kn.updateNTPar(m, n, k, a, lda, d, b, ldb, c, ldc, lower, true, workers)
}

func (kn *Kernels) updateNTPar(m, n, k int, a []float64, lda int, d []float64, b []float64, ldb int, c []float64, ldc int, lower, over bool, workers int) {
	if workers <= 1 || int64(m)*int64(n)*int64(k) < 1<<21 {
		kn.updateNT(m, n, k, a, lda, d, b, ldb, c, ldc, lower, over)
		return
	}
	// Column split points: with lower, column j costs about m−j rows.
	cost := func(j int) float64 {
		if lower {
			return float64(m - j)
		}
		return float64(m)
	}
	total := 0.0
	for j := 0; j < n; j++ {
		total += cost(j)
	}
	split := []int{0}
	acc := 0.0
	for j := 0; j < n && len(split) < workers; j++ {
		acc += cost(j)
		if acc >= total*float64(len(split))/float64(workers) {
			split = append(split, j+1)
		}
	}
	split = append(split, n)
	var wg sync.WaitGroup
	for t := 0; t+1 < len(split); t++ {
		c0, c1 := split[t], split[t+1]
		if c1 <= c0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r0 := 0
			if lower {
				r0 = c0
			}
			if r0 >= m {
				return
			}
			kn.updateNT(m-r0, c1-c0, k, a[r0:], lda, d, b[c0:], ldb, c[r0+c0*ldc:], ldc, lower, over)
		}()
	}
	wg.Wait()
}

// updateGen is the blocked driver; bTrans selects B stored k×n (UpdateNN)
// instead of n×k, over that C is overwritten (each tile cleared before the
// first depth block reaches it).
func updateGen(conf *Kernels, ws *workspace, m, n, k int, a []float64, lda int, d []float64, b []float64, ldb int, bTrans bool, c []float64, ldc int, lower, over bool) {
	mr, nr, mc, kc0, nc0 := conf.mr, conf.nr, conf.mc, conf.kc, conf.nc
	for jc := 0; jc < n; jc += nc0 {
		nc := min(nc0, n-jc)
		for pc := 0; pc < k; pc += kc0 {
			kc := min(kc0, k-pc)
			if bTrans {
				packBT(nc, kc, nr, b[pc+jc*ldb:], ldb, ws.bp)
			} else {
				packB(nc, kc, nr, b[jc+pc*ldb:], ldb, ws.bp)
			}
			i0 := 0
			if lower {
				i0 = jc
			}
			for ic := i0; ic < m; ic += mc {
				mcur := min(mc, m-ic)
				var dd []float64
				if d != nil {
					dd = d[pc : pc+kc]
				}
				packA(conf, mcur, kc, a[ic+pc*lda:], lda, dd, ws.ap)
				for jr := 0; jr < nc; jr += nr {
					nrc := min(nr, nc-jr)
					bs := ws.bp[jr*kc:]
					for ir := 0; ir < mcur; ir += mr {
						mrc := min(mr, mcur-ir)
						if lower && ic+ir+mrc-1 < jc+jr {
							continue // tile strictly above the diagonal
						}
						as := ws.ap[ir*kc:]
						off := ic + ir + (jc+jr)*ldc
						first := over && pc == 0
						if mrc == mr && nrc == nr {
							if first {
								for j := 0; j < nr; j++ {
									clear(c[off+j*ldc : off+j*ldc+mr])
								}
							}
							conf.micro(kc, as, bs, c[off:], ldc)
							continue
						}
						t := ws.tmp[:mr*nr]
						clear(t)
						conf.micro(kc, as, bs, t, mr)
						for j := 0; j < nrc; j++ {
							cc := c[off+j*ldc : off+j*ldc+mrc]
							tt := t[j*mr : j*mr+mrc]
							if first {
								copy(cc, tt)
								continue
							}
							for i := range cc {
								cc[i] += tt[i]
							}
						}
					}
				}
			}
		}
	}
}

// packA copies the m×k block of A, scaled column-wise by d, into MR-row
// slivers: sliver s holds rows s·MR… as ap[s·MR·k + p·MR + i], zero padded.
func packA(conf *Kernels, m, k int, a []float64, lda int, d []float64, ap []float64) {
	mr := conf.mr
	for s := 0; s < m; s += mr {
		rows := min(mr, m-s)
		dst := ap[s*k : s*k+mr*k]
		if rows == mr && d != nil && conf.pack != nil {
			conf.pack(k, a[s:], lda, d, dst)
			continue
		}
		for p := 0; p < k; p++ {
			col := a[s+p*lda : s+p*lda+rows]
			out := dst[p*mr : p*mr+mr]
			if d != nil {
				dp := d[p]
				for i, v := range col {
					out[i] = v * dp
				}
			} else {
				copy(out, col)
			}
			for i := rows; i < mr; i++ {
				out[i] = 0
			}
		}
	}
}

// packScaledGeneric is the portable form of a Kernels' pack: one full
// mr-row sliver of A scaled by d.
func packScaledGeneric(mr, k int, a []float64, lda int, d, dst []float64) {
	for p := 0; p < k; p++ {
		out := dst[p*mr : p*mr+mr]
		for i, v := range a[p*lda : p*lda+mr] {
			out[i] = v * d[p]
		}
	}
}

// packB copies the n×k block of B into NR-column slivers:
// bp[s·NR·k + p·NR + j] = B(s·NR + j, p), zero padded.
func packB(n, k, nr int, b []float64, ldb int, bp []float64) {
	for s := 0; s < n; s += nr {
		cols := min(nr, n-s)
		dst := bp[s*k : s*k+nr*k]
		for p := 0; p < k; p++ {
			out := dst[p*nr : p*nr+nr]
			src := b[s+p*ldb : s+p*ldb+cols]
			copy(out, src)
			for j := cols; j < nr; j++ {
				out[j] = 0
			}
		}
	}
}

// UpdateNN computes C −= A·B with A m×k, B k×n and C m×n (the transposed
// counterpart of UpdateNT, used by the blocked backward solve).
func (kn *Kernels) UpdateNN(m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	if m <= 0 || n <= 0 || k <= 0 {
		return
	}
	conf := kn.conf()
	ws := wsPool.Get().(*workspace)
	ws.ensure(conf)
	updateGen(conf, ws, m, n, k, a, lda, nil, b, ldb, true, c, ldc, false, false)
	wsPool.Put(ws)
}

// packBT is packB for B stored transposed (k×n): B(j, p) = b[p+j·ldb].
func packBT(n, k, nr int, b []float64, ldb int, bp []float64) {
	for s := 0; s < n; s += nr {
		cols := min(nr, n-s)
		dst := bp[s*k : s*k+nr*k]
		for j := 0; j < nr; j++ {
			if j >= cols {
				for p := 0; p < k; p++ {
					dst[p*nr+j] = 0
				}
				continue
			}
			src := b[(s+j)*ldb : (s+j)*ldb+k]
			for p, v := range src {
				dst[p*nr+j] = v
			}
		}
	}
}
