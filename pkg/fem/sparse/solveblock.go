package sparse

import "github.com/gusset/gusset/pkg/fem/sparse/kernel"

// Blocked supernodal triangular solves for a block of right-hand sides.
//
// A supernode's right-hand-side rows are gathered into a dense workspace W
// with one row per panel row (pivot rows first, then the off-diagonal
// rows) and hp values per row: the h right-hand sides, padded with zeros to
// a multiple of the micro-kernel's MR. Wᵀ is then a column-major matrix
// with leading dimension hp, and both sweeps read the factor panels where
// they lie, without packing:
//
//	forward, for each tile R of six panel rows (left-looking):
//	    W[R] −= L[R, 0:c]·W[0:c], c = min(first row of R, k),
//	    then the unit lower 6×6 diagonal block when R is in the pivot block;
//	backward, for each tile C of six pivot columns, the last first:
//	    W[C] −= L[C+6:m, C]ᵀ·W[C+6:m],
//	    then the unit upper 6×6 diagonal block of Lᵀ.
//
// In micro-kernel terms (C −= A·Bᵀ on C = W[tile]ᵀ, hp×6, one MR-row
// sliver at a time), A is Wᵀ over the shared rows and B is six rows
// (forward: bj = 1, bp = m) or six columns (backward: bj = m, bp = 1) of
// the panel. Each right-hand side (lane of W) is computed independently of
// the others, so padding never reaches the results.
//
// The parallel solve (solvepar.go) sweeps forward by panels instead
// (forwardPanels):
//
//	for each panel P of solvePanel pivot columns (right-looking):
//	    for each tile R of six rows inside P (left-looking within it):
//	        W[R] −= L[R, P₀:R₀]·W[P₀:R₀],
//	        then the unit lower 6×6 diagonal block;
//	    for each tile R of six rows below P:
//	        W[R] −= L[R, P]·W[P].

// solveNB is the tile width of the block-solve micro-kernels.
const solveNB = 6

// solvePanel is the number of pivot columns the forward sweep updates the
// rows below with in one pass (see forwardPanels). On grid-20 with 8 right-hand
// sides, 12 to 16 columns measured fastest, a third faster than the
// left-looking sweep; 6 or 24 and more were slower (too little reuse of a
// row tile, or too many streams).
const solvePanel = 16

// blockSolver holds the micro-kernel and workspace of one block solve.
type blockSolver struct {
	kern func(k int, a *float64, lda int, b *float64, bj, bp int, c *float64, ldc int)
	mr   int // rows of the micro-kernel
	hp   int // right-hand sides padded to a multiple of mr
	w    []float64
}

// newBlockSolver sizes the workspace for h right-hand sides on s, with
// the micro-kernel that goes with impl.
func newBlockSolver(s *Symbolic, h int, impl kernel.Impl) *blockSolver {
	kern, mr := solveKernel(impl)
	maxM := 0
	for S := 0; S < s.NSuper; S++ {
		_, m := s.supDims(S)
		maxM = max(maxM, m)
	}
	hp := (h + mr - 1) / mr * mr
	return &blockSolver{kern: kern, mr: mr, hp: hp, w: make([]float64, maxM*hp)}
}

// update computes W[tile]ᵀ −= A·Bᵀ for a tile of nt ≤ 6 workspace rows
// starting at c: A(·, p) = a[p·hp : p·hp+hp] and B(j, p) = b[p·bp + j·bj]
// for p < kk.
func (bs *blockSolver) update(kk int, a, b []float64, bj, bp int, c []float64, nt int) {
	if kk == 0 || nt == 0 {
		return
	}
	hp := bs.hp
	if nt == solveNB && bs.kern != nil {
		// The kernel reads and writes without bounds checks: check the
		// extreme elements here.
		_ = a[(kk-1)*hp+hp-1]
		_ = b[(kk-1)*bp+(solveNB-1)*bj]
		_ = c[solveNB*hp-1]
		for s := 0; s < hp; s += bs.mr {
			bs.kern(kk, &a[s], hp, &b[0], bj, bp, &c[s], hp)
		}
		return
	}
	solveUpdateGo(kk, hp, a, b, bj, bp, c, nt)
}

// solveUpdateGo is the portable form of update (and its edge tiles).
func solveUpdateGo(kk, hp int, a, b []float64, bj, bp int, c []float64, nt int) {
	for j := 0; j < nt; j++ {
		cj := c[j*hp : j*hp+hp]
		for p := 0; p < kk; p++ {
			v := b[p*bp+j*bj]
			if v == 0 {
				continue
			}
			ap := a[p*hp : p*hp+hp]
			for i := range cj {
				cj[i] -= v * ap[i]
			}
		}
	}
}

// gather loads the rows of supernode (pivot rows c0…c0+k−1, then rows)
// from the permuted row-major block y (h values per row) into W. With a
// top buffer (see solveSchedule), the rows of the top supernodes come
// from it instead.
func (bs *blockSolver) gather(y []float64, h, c0, k int, rows []int32, top *topBuffer) {
	w, hp := bs.w, bs.hp
	for i := 0; i < k; i++ {
		copy(w[i*hp:i*hp+h], y[(c0+i)*h:(c0+i+1)*h])
	}
	for i, r := range rows {
		src := y[int(r)*h : (int(r)+1)*h]
		if top != nil {
			if p := top.pos[r]; p >= 0 {
				src = top.buf[int(p)*h : (int(p)+1)*h]
			}
		}
		copy(w[(k+i)*hp:(k+i)*hp+h], src)
	}
}

// scatter stores the first k rows of W back to the pivot rows and, when
// rows is not nil, the others to rows (or to the top buffer, as gather).
func (bs *blockSolver) scatter(y []float64, h, c0, k int, rows []int32, top *topBuffer) {
	w, hp := bs.w, bs.hp
	for i := 0; i < k; i++ {
		copy(y[(c0+i)*h:(c0+i+1)*h], w[i*hp:i*hp+h])
	}
	for i, r := range rows {
		dst := y[int(r)*h : (int(r)+1)*h]
		if top != nil {
			if p := top.pos[r]; p >= 0 {
				dst = top.buf[int(p)*h : (int(p)+1)*h]
			}
		}
		copy(dst, w[(k+i)*hp:(k+i)*hp+h])
	}
}

// forward applies L⁻¹ of one supernode (m×k panel, unit lower) to W,
// left-looking by tiles of six rows: each tile's sum over all the columns
// before it is one micro-kernel call, the order of additions that
// SolveMany's results are reproducible in.
func (bs *blockSolver) forward(panel []float64, m, k int) {
	w, hp := bs.w, bs.hp
	for ib := 0; ib < k; ib += solveNB {
		nt := min(solveNB, k-ib)
		bs.update(ib, w, panel[ib:], 1, m, w[ib*hp:], nt)
		bs.tile(panel, m, ib, nt)
	}
	for ib := k; ib < m; ib += solveNB {
		bs.update(k, w, panel[ib:], 1, m, w[ib*hp:], min(solveNB, m-ib))
	}
}

// tile solves the unit lower triangle of the nt×nt diagonal tile at row
// and column ib of an m-row panel against W's rows ib to ib+nt, once the
// columns before ib have been applied to them.
func (bs *blockSolver) tile(panel []float64, m, ib, nt int) {
	w, hp := bs.w, bs.hp
	for j := 0; j < nt; j++ {
		wj := w[(ib+j)*hp : (ib+j+1)*hp]
		col := panel[(ib+j)*m+ib : (ib+j)*m+ib+nt]
		for i := j + 1; i < nt; i++ {
			if l := col[i]; l != 0 {
				wi := w[(ib+i)*hp : (ib+i+1)*hp]
				for t := range wi {
					wi[t] -= l * wj[t]
				}
			}
		}
	}
}

// forwardPanels is forward for the parallel solve, faster and equal to
// round-off: it goes right-looking by panels of solvePanel pivot columns:
// solve the panel's diagonal block (left-looking by tiles of six rows,
// inside the panel), then update every row below it from the panel's
// columns. The
// panel is read column by column, down the rows, as a few sequential
// streams; a left-looking sweep over the whole supernode would read each
// tile's six rows across all k columns instead, one short strided piece
// per column and page, which the hardware prefetchers cannot follow.
func (bs *blockSolver) forwardPanels(panel []float64, m, k int) {
	w, hp := bs.w, bs.hp
	for jb := 0; jb < k; jb += solvePanel {
		pw := min(solvePanel, k-jb)
		for ib := jb; ib < jb+pw; ib += solveNB {
			nt := min(solveNB, jb+pw-ib)
			bs.update(ib-jb, w[jb*hp:], panel[jb*m+ib:], 1, m, w[ib*hp:], nt)
			bs.tile(panel, m, ib, nt)
		}
		for ib := jb + pw; ib < m; ib += solveNB {
			bs.update(pw, w[jb*hp:], panel[jb*m+ib:], 1, m, w[ib*hp:], min(solveNB, m-ib))
		}
	}
}

// backward applies L⁻ᵀ of one supernode to the pivot rows of W, whose
// other rows hold the solution of the rows below.
func (bs *blockSolver) backward(panel []float64, m, k int) {
	w, hp := bs.w, bs.hp
	for ic := (k - 1) / solveNB * solveNB; ic >= 0; ic -= solveNB {
		nt := min(solveNB, k-ic)
		below := ic + nt
		bs.update(m-below, w[below*hp:], panel[ic*m+below:], m, 1, w[ic*hp:], nt)
		for i := nt - 1; i >= 0; i-- {
			wi := w[(ic+i)*hp : (ic+i+1)*hp]
			col := panel[(ic+i)*m+ic : (ic+i)*m+ic+nt]
			for p := i + 1; p < nt; p++ {
				if l := col[p]; l != 0 {
					wp := w[(ic+p)*hp : (ic+p+1)*hp]
					for t := range wi {
						wi[t] -= l * wp[t]
					}
				}
			}
		}
	}
}

// solveBlock overwrites y, the permuted row-major N×h block, with
// (L·D·Lᵀ)⁻¹·y: the sequential reference (see SolveMany).
func (f *Factor) solveBlock(y []float64, h int) {
	s := f.Sym
	bs := newBlockSolver(s, h, f.kernels().Impl())
	for S := 0; S < s.NSuper; S++ {
		k, m := s.supDims(S)
		c0 := s.SupPtr[S]
		rows := s.Rows[s.RowPtr[S]+k : s.RowPtr[S+1]]
		bs.gather(y, h, c0, k, rows, nil)
		bs.forward(f.val[s.ValPtr[S]:s.ValPtr[S+1]], m, k)
		bs.scatter(y, h, c0, k, rows, nil)
	}
	for S := 0; S < s.NSuper; S++ {
		k, m := s.supDims(S)
		c0 := s.SupPtr[S]
		panel := f.val[s.ValPtr[S]:]
		for j := 0; j < k; j++ {
			dj := panel[j*m+j]
			row := y[(c0+j)*h : (c0+j+1)*h]
			for t := range row {
				row[t] /= dj
			}
		}
	}
	for S := s.NSuper - 1; S >= 0; S-- {
		k, m := s.supDims(S)
		c0 := s.SupPtr[S]
		bs.gather(y, h, c0, k, s.Rows[s.RowPtr[S]+k:s.RowPtr[S+1]], nil)
		bs.backward(f.val[s.ValPtr[S]:s.ValPtr[S+1]], m, k)
		bs.scatter(y, h, c0, k, nil, nil)
	}
}
