package sparse

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Solve solves A·x = b for one right-hand side; x and b have length N and
// may be the same slice.
func (f *Factor) Solve(x, b []float64) error {
	s := f.Sym
	if len(x) != s.N || len(b) != s.N {
		return fmt.Errorf("sparse: solve: vectors of length %d, %d for order %d", len(x), len(b), s.N)
	}
	y := make([]float64, s.N)
	for k, d := range s.Perm {
		y[k] = b[d]
	}
	f.solvePermuted(y)
	for k, d := range s.Perm {
		x[d] = y[k]
	}
	return nil
}

// solvePermuted overwrites y with (L·D·Lᵀ)⁻¹·y in permuted numbering.
func (f *Factor) solvePermuted(y []float64) {
	s := f.Sym
	kern := f.kernels()
	axpyNeg, dot := kern.AxpyNegFunc(), kern.DotFunc()
	var wv []float64
	for S := 0; S < s.NSuper; S++ { // forward: L·z = y
		k, m := s.supDims(S)
		c0 := s.SupPtr[S]
		rows := s.Rows[s.RowPtr[S]+k : s.RowPtr[S+1]]
		panel := f.val[s.ValPtr[S]:s.ValPtr[S+1]]
		wv = gatherFront(wv, y, c0, k, rows)
		for j := 0; j < k; j++ {
			if yj := wv[j]; yj != 0 {
				axpyNeg(yj, panel[j*m+j+1:j*m+m], wv[j+1:m])
			}
		}
		copy(y[c0:c0+k], wv[:k])
		for i, r := range rows {
			y[r] = wv[k+i]
		}
	}
	for S := 0; S < s.NSuper; S++ { // diagonal
		k, m := s.supDims(S)
		c0 := s.SupPtr[S]
		panel := f.val[s.ValPtr[S]:]
		for j := 0; j < k; j++ {
			y[c0+j] /= panel[j*m+j]
		}
	}
	for S := s.NSuper - 1; S >= 0; S-- { // backward: Lᵀ·x = z
		k, m := s.supDims(S)
		c0 := s.SupPtr[S]
		rows := s.Rows[s.RowPtr[S]+k : s.RowPtr[S+1]]
		panel := f.val[s.ValPtr[S]:s.ValPtr[S+1]]
		wv = gatherFront(wv, y, c0, k, rows)
		for j := k - 1; j >= 0; j-- {
			wv[j] -= dot(panel[j*m+j+1:j*m+m], wv[j+1:m])
		}
		copy(y[c0:c0+k], wv[:k])
	}
}

// gatherFront collects the pivot entries (contiguous from c0) and the
// off-diagonal rows of a supernode into one dense work vector.
func gatherFront(wv, y []float64, c0, k int, rows []int32) []float64 {
	m := k + len(rows)
	if cap(wv) < m {
		wv = make([]float64, m)
	}
	wv = wv[:m]
	copy(wv[:k], y[c0:c0+k])
	for i, r := range rows {
		wv[k+i] = y[r]
	}
	return wv
}

// SolveMany solves A·X = B for a block of right-hand sides: B is N×nrhs, one
// load case per column (gonum's row-major Dense, so each DOF's values for all
// load cases are contiguous, which is what the blocked supernodal updates
// want). X must be N×nrhs as well and may be B itself.
//
// The order of its additions is fixed (one goroutine, the supernodes in
// order), so its results are reproducible bit for bit; SolveManyParallel
// is the faster variant without that guarantee.
func (f *Factor) SolveMany(x, b *mat.Dense) error {
	return f.solveManyWith(x, b, f.solveBlock)
}

// solveManyWith permutes B into a row-major block, solves it with solve
// and permutes the result into X.
func (f *Factor) solveManyWith(x, b *mat.Dense, solve func(y []float64, h int)) error {
	s := f.Sym
	n, nrhs := b.Dims()
	if xr, xc := x.Dims(); n != s.N || xr != n || xc != nrhs {
		return fmt.Errorf("sparse: solve many: X %d×%d, B %d×%d for order %d", xr, xc, n, nrhs, s.N)
	}
	if nrhs == 0 {
		return nil
	}
	bm, xm := b.RawMatrix(), x.RawMatrix()
	y := make([]float64, n*nrhs) // permuted, row-major n×nrhs
	for k, d := range s.Perm {
		copy(y[k*nrhs:(k+1)*nrhs], bm.Data[d*bm.Stride:d*bm.Stride+nrhs])
	}
	solve(y, nrhs)
	for k, d := range s.Perm {
		copy(xm.Data[d*xm.Stride:d*xm.Stride+nrhs], y[k*nrhs:(k+1)*nrhs])
	}
	return nil
}

// RelResidual returns ‖b − A·x‖₂ / ‖b‖₂ (or ‖A·x‖₂ when b = 0).
func RelResidual(a *SymMatrix, x, b []float64) float64 {
	r := make([]float64, len(b))
	a.MulVec(r, x)
	num, den := 0.0, 0.0
	for i := range r {
		d := b[i] - r[i]
		num += d * d
		den += b[i] * b[i]
	}
	if den == 0 {
		return math.Sqrt(num)
	}
	return math.Sqrt(num / den)
}

// SolveRefined solves A·x = b and then applies up to steps rounds of
// iterative refinement (x += A⁻¹(b − A·x)), stopping early once the residual
// stops improving. a must be the matrix that was factored. It returns the
// final relative residual ‖b − A·x‖/‖b‖.
func (f *Factor) SolveRefined(a *SymMatrix, x, b []float64, steps int) (float64, error) {
	if a.N() != f.Sym.N {
		return 0, errors.New("sparse: solve refined: matrix order differs from the factor")
	}
	if err := f.Solve(x, b); err != nil {
		return 0, err
	}
	res := RelResidual(a, x, b)
	r := make([]float64, len(b))
	dx := make([]float64, len(b))
	xOld := make([]float64, len(x))
	for it := 0; it < steps && res > 0; it++ {
		a.MulVec(r, x)
		for i := range r {
			r[i] = b[i] - r[i]
		}
		if err := f.Solve(dx, r); err != nil {
			return res, err
		}
		copy(xOld, x)
		for i := range x {
			x[i] += dx[i]
		}
		nres := RelResidual(a, x, b)
		if !(nres < res) {
			copy(x, xOld) // refinement no longer helps: keep the better x
			break
		}
		res = nres
	}
	return res, nil
}

// SolveManyRefined is SolveMany followed by up to steps rounds of iterative
// refinement on the whole block; it returns the relative residual of every
// load case (column).
func (f *Factor) SolveManyRefined(a *SymMatrix, x, b *mat.Dense, steps int) ([]float64, error) {
	if err := f.SolveMany(x, b); err != nil {
		return nil, err
	}
	n, h := b.Dims()
	res := make([]float64, h)
	xc := make([]float64, n)
	bc := make([]float64, n)
	for j := 0; j < h; j++ {
		mat.Col(xc, j, x)
		mat.Col(bc, j, b)
		var err error
		if steps > 0 {
			if res[j], err = f.refineFrom(a, xc, bc, steps); err != nil {
				return nil, err
			}
			x.SetCol(j, xc)
		} else {
			res[j] = RelResidual(a, xc, bc)
		}
	}
	return res, nil
}

func (f *Factor) refineFrom(a *SymMatrix, x, b []float64, steps int) (float64, error) {
	res := RelResidual(a, x, b)
	r := make([]float64, len(b))
	dx := make([]float64, len(b))
	for it := 0; it < steps && res > 0; it++ {
		a.MulVec(r, x)
		for i := range r {
			r[i] = b[i] - r[i]
		}
		if err := f.Solve(dx, r); err != nil {
			return res, err
		}
		for i := range x {
			x[i] += dx[i]
		}
		nres := RelResidual(a, x, b)
		if !(nres < res) {
			for i := range x {
				x[i] -= dx[i]
			}
			break
		}
		res = nres
	}
	return res, nil
}
