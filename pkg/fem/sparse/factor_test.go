package sparse

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestOrderingsSameSolution solves one system under every ordering and
// compares with the natural-order solution. The matrix has condition number
// ~1e2, so solutions agree to ~1e-13; 1e-10 leaves room for the different
// rounding of each elimination order.
func TestOrderingsSameSolution(t *testing.T) {
	a := laplace3D(t, 6, 5, 7, 6, 0.5)
	r := rand.New(rand.NewPCG(11, 12))
	b := randVec(r, a.N())
	ref := make([]float64, a.N())
	if err := factorize(t, a, AnalyzeOptions{Method: Natural}).Solve(ref, b); err != nil {
		t.Fatal(err)
	}
	for _, m := range allMethods {
		t.Run(m.String(), func(t *testing.T) {
			x := make([]float64, a.N())
			if err := factorize(t, a, AnalyzeOptions{Method: m, BlockSize: 6}).Solve(x, b); err != nil {
				t.Fatal(err)
			}
			if d := relDiff(x, ref); d > 1e-10 {
				t.Fatalf("solution differs from natural order by %g", d)
			}
		})
	}
}

func relDiff(x, y []float64) float64 {
	num, den := 0.0, 0.0
	for i := range x {
		num += (x[i] - y[i]) * (x[i] - y[i])
		den += y[i] * y[i]
	}
	return math.Sqrt(num / den)
}

// denseOf returns a as a dense symmetric matrix.
func denseOf(a *SymMatrix) *mat.SymDense {
	n := a.N()
	d := mat.NewSymDense(n, nil)
	p := a.Pat
	for j := 0; j < n; j++ {
		for q := p.ColPtr[j]; q < p.ColPtr[j+1]; q++ {
			d.SetSym(int(p.RowIdx[q]), j, a.Val[q])
		}
	}
	return d
}

// TestInertiaMatchesEigenvalues compares pivot sign counts with the signs
// of the eigenvalues from gonum's dense symmetric eigensolver (Sylvester's
// law of inertia). The matrices keep |λ| well above rounding, so counts
// must match exactly.
func TestInertiaMatchesEigenvalues(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	cases := []struct {
		name string
		a    *SymMatrix
	}{
		{"random-indef-80", randomSym(t, r, 80, 0.05, false)},
		{"random-indef-150", randomSym(t, r, 150, 0.03, false)},
		{"random-spd-100", randomSym(t, r, 100, 0.05, true)},
		{"shifted-laplace", laplace3D(t, 5, 4, 4, 3, -5.1)},
	}
	for _, c := range cases {
		var es mat.EigenSym
		if !es.Factorize(denseOf(c.a), false) {
			t.Fatal("eigen decomposition failed")
		}
		var want Inertia
		for _, l := range es.Values(nil) {
			switch {
			case l > 1e-9:
				want.Positive++
			case l < -1e-9:
				want.Negative++
			default:
				want.Zero++
			}
		}
		for _, m := range allMethods {
			t.Run(fmt.Sprintf("%s/%v", c.name, m), func(t *testing.T) {
				f := factorize(t, c.a, AnalyzeOptions{Method: m, Workers: 2})
				if got := f.Inertia(); got != want {
					t.Fatalf("inertia %+v, eigenvalues say %+v", got, want)
				}
			})
		}
	}
}

// TestSingularNamesDOF removes all stiffness of one DOF (an unsupported,
// unconnected rotation) and expects the typed error to name that DOF,
// whatever the ordering.
func TestSingularNamesDOF(t *testing.T) {
	for _, dof := range []int{0, 17, 131} {
		a := laplace3D(t, 4, 4, 3, 3, 0)
		p := a.Pat
		for j := 0; j < p.N; j++ {
			for q := p.ColPtr[j]; q < p.ColPtr[j+1]; q++ {
				if j == dof || int(p.RowIdx[q]) == dof {
					a.Val[q] = 0
				}
			}
		}
		for _, m := range allMethods {
			t.Run(fmt.Sprintf("dof%d/%v", dof, m), func(t *testing.T) {
				sym, err := Analyze(a.Pat, AnalyzeOptions{Method: m, BlockSize: 3})
				if err != nil {
					t.Fatal(err)
				}
				_, err = Factorize(context.Background(), sym, a, FactorOptions{})
				var se *SingularError
				if !errors.As(err, &se) {
					t.Fatalf("want *SingularError, got %v", err)
				}
				if se.DOF != dof {
					t.Fatalf("error names DOF %d, want %d", se.DOF, dof)
				}
				f, err := Factorize(context.Background(), sym, a, FactorOptions{AllowSingular: true})
				if err != nil {
					t.Fatal(err)
				}
				if z := f.Inertia().Zero; z != 1 {
					t.Fatalf("AllowSingular: %d zero pivots, want 1", z)
				}
			})
		}
	}
}

// denseLDL is the reference: unpivoted LDLᵀ of a dense matrix, row-major
// n×n, returning unit lower L (in the lower triangle) and D.
func denseLDL(a []float64, n int) ([]float64, []float64) {
	l := append([]float64(nil), a...)
	d := make([]float64, n)
	for j := 0; j < n; j++ {
		s := l[j*n+j]
		for p := 0; p < j; p++ {
			s -= l[j*n+p] * l[j*n+p] * d[p]
		}
		d[j] = s
		for i := j + 1; i < n; i++ {
			v := l[i*n+j]
			for p := 0; p < j; p++ {
				v -= l[i*n+p] * l[j*n+p] * d[p]
			}
			l[i*n+j] = v / s
		}
	}
	return l, d
}

// TestSupernodalMatchesDense compares every stored entry of L and D with
// the dense reference on the permuted matrix. Both compute the same
// unpivoted elimination in a different association order, so they agree to
// rounding relative to each entry's size; on the indefinite cases the
// unpivoted elimination shows element growth, which amplifies rounding
// about as max|L|²: hence 1e-10 relative up to max|L| = 1e2 (observed
// differences ~1e-12), growing with (max|L|/1e2)² beyond (AMD's order of
// laplace-indef meets a pivot of 4e-3 and max|L| = 619; observed 1.2e-10).
func TestSupernodalMatchesDense(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	cases := []struct {
		name  string
		a     *SymMatrix
		block int
	}{
		{"laplace", laplace3D(t, 4, 3, 5, 3, 0.2), 3},
		{"laplace-indef", laplace3D(t, 4, 3, 5, 3, -3.7), 3},
		{"random", randomSym(t, r, 90, 0.05, false), 1},
	}
	for _, c := range cases {
		for _, m := range allMethods {
			t.Run(fmt.Sprintf("%s/%v", c.name, m), func(t *testing.T) {
				f := factorize(t, c.a, AnalyzeOptions{Method: m, BlockSize: c.block, Workers: 2})
				s := f.Sym
				n := s.N
				dense := make([]float64, n*n)
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						dense[i*n+j] = c.a.At(s.Perm[i], s.Perm[j])
					}
				}
				l, d := denseLDL(dense, n)
				maxL := 0.0
				for _, v := range l {
					maxL = max(maxL, math.Abs(v))
				}
				tol := 1e-10 * max(1, (maxL/100)*(maxL/100))
				for S := 0; S < s.NSuper; S++ {
					k, mm := s.supDims(S)
					rows := s.Rows[s.RowPtr[S]:s.RowPtr[S+1]]
					panel := f.val[s.ValPtr[S]:]
					for jj := 0; jj < k; jj++ {
						j := s.SupPtr[S] + jj
						if got := panel[jj+jj*mm]; math.Abs(got-d[j]) > tol*math.Abs(d[j]) {
							t.Fatalf("D[%d] = %v, dense %v", j, got, d[j])
						}
						for ii := jj + 1; ii < mm; ii++ {
							i := int(rows[ii])
							if got := panel[ii+jj*mm]; math.Abs(got-l[i*n+j]) > tol*math.Max(1, math.Abs(l[i*n+j])) {
								t.Fatalf("L[%d,%d] = %v, dense %v", i, j, got, l[i*n+j])
							}
						}
					}
				}
			})
		}
	}
}

// TestSolveMany checks the blocked multi-RHS path against the acceptance
// residual 1e-10 (see TestSolveResidual for the margin) and against
// single-RHS solves.
func TestSolveMany(t *testing.T) {
	a := laplace3D(t, 6, 6, 5, 6, -2.3)
	r := rand.New(rand.NewPCG(41, 42))
	for _, m := range []Method{AMD, NestedDissection} {
		t.Run(m.String(), func(t *testing.T) {
			f := factorize(t, a, AnalyzeOptions{Method: m, BlockSize: 6})
			const h = 5
			b := mat.NewDense(a.N(), h, nil)
			for i := 0; i < a.N(); i++ {
				for j := 0; j < h; j++ {
					b.Set(i, j, r.Float64()-0.5)
				}
			}
			x := mat.NewDense(a.N(), h, nil)
			res, err := f.SolveManyRefined(a, x, b, 1)
			if err != nil {
				t.Fatal(err)
			}
			single := make([]float64, a.N())
			for j, rr := range res {
				if rr > 1e-10 {
					t.Fatalf("case %d residual %g", j, rr)
				}
				if err := f.Solve(single, mat.Col(nil, j, b)); err != nil {
					t.Fatal(err)
				}
				if d := relDiff(mat.Col(nil, j, x), single); d > 1e-10 {
					t.Fatalf("case %d differs from single solve by %g", j, d)
				}
			}
		})
	}
}

// TestAssemblerRefillAndShift assembles two random "elements" patterns
// twice (the second refill must reproduce the first) and checks K − σM.
func TestAssemblerRefillAndShift(t *testing.T) {
	elems := [][]int{{0, 1, 2, -1}, {2, 3, 4, 0}, {4, 5, -1, 1}, {5, 0, 3, 2}}
	as, err := NewAssembler(6, elems)
	if err != nil {
		t.Fatal(err)
	}
	if err := as.Pat.Validate(); err != nil {
		t.Fatal(err)
	}
	ke := make([]float64, 16)
	for i := 0; i < 4; i++ {
		for j := 0; j <= i; j++ {
			v := float64(1 + i + 2*j)
			if i == j {
				v += 20
			}
			ke[i*4+j], ke[j*4+i] = v, v
		}
	}
	k := as.NewMatrix()
	mm := as.NewMatrix()
	var ri, ci []int
	var vv []float64
	for e, dofs := range elems {
		as.Add(k, e, ke)
		as.Add(mm, e, ke)
		for a, da := range dofs {
			for b, db := range dofs {
				if da >= 0 && db >= 0 && da >= db {
					ri, ci, vv = append(ri, da), append(ci, db), append(vv, ke[a*4+b])
				}
			}
		}
	}
	want, err := FromCOO(6, ri, ci, vv)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			if k.At(i, j) != want.At(i, j) {
				t.Fatalf("K(%d,%d) = %v, want %v", i, j, k.At(i, j), want.At(i, j))
			}
		}
	}
	first := append([]float64(nil), k.Val...)
	k.Zero()
	for e := range elems {
		as.Add(k, e, ke)
	}
	for q := range first {
		if k.Val[q] != first[q] {
			t.Fatal("refill differs from the first assembly")
		}
	}
	sh, err := Shifted(k, 0.25, mm)
	if err != nil {
		t.Fatal(err)
	}
	if sh.Pat != k.Pat {
		t.Fatal("shifted matrix must share the pattern")
	}
	for q := range sh.Val {
		if sh.Val[q] != 0.75*first[q] {
			t.Fatal("K − σM wrong")
		}
	}
}
