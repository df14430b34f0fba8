package linsys

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/sparse"
)

// spd returns the n×n tridiagonal matrix 4 on the diagonal, −1 beside it
// (diagonally dominant, so positive definite), on a pattern of its own.
func spd(t *testing.T, n int, scale float64) *sparse.SymMatrix {
	t.Helper()
	var r, c []int
	var v []float64
	for i := range n {
		r, c, v = append(r, i), append(c, i), append(v, 4*scale)
		if i > 0 {
			r, c, v = append(r, i), append(c, i-1), append(v, -scale)
		}
	}
	a, err := sparse.FromCOO(n, r, c, v)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestFactorizersAgree solves A·x = b with the sparse and the dense
// factorizer, two right-hand sides in one block, and checks the residual
// ‖A·x − b‖ against round-off.
func TestFactorizersAgree(t *testing.T) {
	const n = 40
	a := spd(t, n, 1)
	for _, fz := range []struct {
		name string
		f    Factorizer
	}{{"sparse", &SparseFactorizer{}}, {"dense", DenseFactorizer{}}} {
		t.Run(fz.name, func(t *testing.T) {
			f, err := fz.f.Factor(context.Background(), a, nil)
			if err != nil {
				t.Fatal(err)
			}
			b := make([]float64, 2*n)
			for i := range b {
				b[i] = math.Sin(float64(i))
			}
			x := append([]float64(nil), b...)
			if err := f.Solve(context.Background(), x, 2); err != nil {
				t.Fatal(err)
			}
			ax := make([]float64, n)
			for c := range 2 {
				a.MulVec(ax, x[c*n:(c+1)*n])
				for i := range n {
					if r := ax[i] - b[c*n+i]; !(math.Abs(r) <= 1e-13) {
						t.Fatalf("rhs %d row %d: residual %g", c, i, r)
					}
				}
			}
		})
	}
}

// TestSingularNamesTheEquation gives both factorizers a matrix whose
// equation 3 has no stiffness: each must answer a *SingularError of DOF 3.
func TestSingularNamesTheEquation(t *testing.T) {
	a := spd(t, 6, 1)
	for q := a.Pat.ColPtr[3]; q < a.Pat.ColPtr[4]; q++ {
		a.Val[q] = 0
	}
	for j := range 3 {
		for q := a.Pat.ColPtr[j]; q < a.Pat.ColPtr[j+1]; q++ {
			if a.Pat.RowIdx[q] == 3 {
				a.Val[q] = 0
			}
		}
	}
	for _, f := range []Factorizer{&SparseFactorizer{Orderings: []sparse.Method{sparse.Natural}}, DenseFactorizer{}} {
		_, err := f.Factor(context.Background(), a, nil)
		var se *SingularError
		if !errors.As(err, &se) || se.DOF != 3 {
			t.Errorf("%T: error %v, want a singular pivot at equation 3", f, err)
		}
	}
}

// TestSparseReusesTheAnalysis factors new values on the same pattern, and
// on an equal pattern from another assembly: one symbolic analysis serves
// all three factorizations.
func TestSparseReusesTheAnalysis(t *testing.T) {
	sf := &SparseFactorizer{}
	a := spd(t, 30, 1)
	b := &sparse.SymMatrix{Pat: a.Pat, Val: append([]float64(nil), a.Val...)}
	for i := range b.Val {
		b.Val[i] *= 2
	}
	c := spd(t, 30, 3) // equal pattern, another object
	for _, m := range []*sparse.SymMatrix{a, b, c} {
		if _, err := sf.Factor(context.Background(), m, nil); err != nil {
			t.Fatal(err)
		}
	}
	if st := sf.Stats(); st.Analyses != 1 || st.Factorizations != 3 {
		t.Errorf("%d analyses and %d factorizations, want 1 and 3", st.Analyses, st.Factorizations)
	}
	if _, err := sf.Factor(context.Background(), a, make([]int, 29)); err == nil {
		t.Error("a node map of the wrong length was accepted")
	}
}

// TestSparseRefactor factors A, then refactors its storage with A − σ·I
// for a σ inside A's spectrum: the solution solves the new matrix to
// round-off, the inertia counts its negative eigenvalues (those of the
// tridiagonal 4, −1 are 4 − 2·cos(jπ/(n+1)), known in closed form), the
// factorizer counts the refactorization, and a singular matrix or another
// pattern is refused.
func TestSparseRefactor(t *testing.T) {
	const n, sigma = 30, 3.2
	sf := &SparseFactorizer{}
	a := spd(t, n, 1)
	f, err := sf.Factor(context.Background(), a, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := f.(Refactorer)
	if !ok {
		t.Fatal("the sparse factorization is not a Refactorer")
	}
	shifted := &sparse.SymMatrix{Pat: a.Pat, Val: append([]float64(nil), a.Val...)}
	for j := range n {
		shifted.Val[a.Pat.ColPtr[j]] -= sigma // the diagonal comes first in its column
	}
	if err := r.Refactor(context.Background(), shifted); err != nil {
		t.Fatal(err)
	}
	b := make([]float64, n)
	for i := range b {
		b[i] = math.Cos(float64(i))
	}
	x := append([]float64(nil), b...)
	if err := r.Solve(context.Background(), x, 1); err != nil {
		t.Fatal(err)
	}
	ax := make([]float64, n)
	shifted.MulVec(ax, x)
	for i := range n {
		if d := ax[i] - b[i]; !(math.Abs(d) <= 1e-12) {
			t.Fatalf("row %d: residual %g", i, d)
		}
	}
	below := 0
	for j := 1; j <= n; j++ {
		if 4-2*math.Cos(float64(j)*math.Pi/(n+1)) < sigma {
			below++
		}
	}
	if got := r.(Inertial).Inertia().Negative; got != below || below == 0 {
		t.Errorf("%d negative pivots, want %d", got, below)
	}
	if st := sf.Stats(); st.Analyses != 1 || st.Factorizations != 2 {
		t.Errorf("%d analyses and %d factorizations, want 1 and 2", st.Analyses, st.Factorizations)
	}
	zero := &sparse.SymMatrix{Pat: a.Pat, Val: make([]float64, len(a.Val))}
	var se *SingularError
	if err := r.Refactor(context.Background(), zero); !errors.As(err, &se) {
		t.Errorf("zero matrix: error %v, want a SingularError", err)
	}
	if err := r.Refactor(context.Background(), spd(t, n+1, 1)); err == nil {
		t.Error("a matrix of another order was refactored")
	}
	rows := make([]int, n)
	vals := make([]float64, n)
	for i := range rows {
		rows[i], vals[i] = i, 1
	}
	diag, err := sparse.FromCOO(n, rows, rows, vals)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Refactor(context.Background(), diag); err == nil {
		t.Error("a matrix of another pattern was refactored")
	}
}

// TestSparseSolveParallel: the sparse factorization is a ParallelSolver,
// and its parallel block solve agrees with Solve to round-off, one
// right-hand side or several.
func TestSparseSolveParallel(t *testing.T) {
	const n = 200
	a := spd(t, n, 1)
	f, err := (&SparseFactorizer{}).Factor(context.Background(), a, nil)
	if err != nil {
		t.Fatal(err)
	}
	ps, ok := f.(ParallelSolver)
	if !ok {
		t.Fatal("the sparse factorization is not a ParallelSolver")
	}
	for _, h := range []int{1, 5} {
		b := make([]float64, n*h)
		for i := range b {
			b[i] = math.Sin(float64(3 * i))
		}
		want := append([]float64(nil), b...)
		if err := f.Solve(context.Background(), want, h); err != nil {
			t.Fatal(err)
		}
		if err := ps.SolveParallel(context.Background(), b, h); err != nil {
			t.Fatal(err)
		}
		for i, v := range b {
			if !(math.Abs(v-want[i]) <= 1e-13*(1+math.Abs(want[i]))) {
				t.Fatalf("%d right-hand sides, entry %d: %g, Solve gives %g", h, i, v, want[i])
			}
		}
	}
}
