package eigen

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomSPD returns Qᵀ·diag(d)·Q for a random rotation Q and eigenvalues
// d_i ≈ (i+1)², spread like a structure's stiffness over its modes
// (frequencies grow about linearly with the mode number).
func randomSPD(rng *rand.Rand, n int) *mat.SymDense {
	d := make([]float64, n)
	for i := range d {
		d[i] = float64((i+1)*(i+1)) * (1 + 0.2*rng.Float64())
	}
	return rotated(rng, d)
}

// rotated returns Qᵀ·diag(d)·Q for a random rotation Q.
func rotated(rng *rand.Rand, d []float64) *mat.SymDense {
	n := len(d)
	g := mat.NewDense(n, n, nil)
	for i := range n * n {
		g.RawMatrix().Data[i] = rng.NormFloat64()
	}
	var qr mat.QR
	qr.Factorize(g)
	var q, tmp, r mat.Dense
	qr.QTo(&q)
	tmp.Mul(q.T(), mat.NewDiagDense(n, d))
	r.Mul(&tmp, &q)
	s := mat.NewSymDense(n, nil)
	for i := range n {
		for j := 0; j <= i; j++ {
			s.SetSym(i, j, (r.At(i, j)+r.At(j, i))/2)
		}
	}
	return s
}

// pencil returns the Problem Op = K⁻¹·C in the inner product of W, with a
// dense Cholesky factor of K.
func pencil(t *testing.T, k, c, w *mat.SymDense) Problem {
	t.Helper()
	n := k.SymmetricDim()
	var ch mat.Cholesky
	if !ch.Factorize(k) {
		t.Fatal("K is not positive definite")
	}
	return Problem{
		N: n,
		Apply: func(_ context.Context, x, y []float64, nv int) error {
			for v := range nv {
				cx := mat.NewVecDense(n, nil)
				cx.MulVec(c, mat.NewVecDense(n, x[v*n:(v+1)*n]))
				out := mat.NewVecDense(n, y[v*n:(v+1)*n])
				if err := ch.SolveVecTo(out, cx); err != nil {
					return err
				}
			}
			return nil
		},
		W: func(x, y []float64) {
			mat.NewVecDense(n, y).MulVec(w, mat.NewVecDense(n, x))
		},
	}
}

// reference returns the eigenvalues μ of C·φ = μ·K·φ by the definition,
// through K = L·Lᵀ and the symmetric L⁻¹·C·L⁻ᵀ (gonum), sorted by
// decreasing |μ|.
func reference(t *testing.T, k, c *mat.SymDense) []float64 {
	t.Helper()
	n := k.SymmetricDim()
	var ch mat.Cholesky
	if !ch.Factorize(k) {
		t.Fatal("K is not positive definite")
	}
	var l mat.TriDense
	ch.LTo(&l)
	var li mat.TriDense
	if err := li.InverseTri(&l); err != nil {
		t.Fatal(err)
	}
	var tmp, s mat.Dense
	tmp.Mul(&li, c)
	s.Mul(&tmp, li.T())
	sym := mat.NewSymDense(n, nil)
	for i := range n {
		for j := 0; j <= i; j++ {
			sym.SetSym(i, j, (s.At(i, j)+s.At(j, i))/2)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(sym, false) {
		t.Fatal("reference eigen decomposition failed")
	}
	v := es.Values(nil)
	sort.Slice(v, func(i, j int) bool { return math.Abs(v[i]) > math.Abs(v[j]) })
	return v
}

// checkPairs checks θ against the reference, and every vector's residual
// C·y − θ·K·y and W-orthonormality, to tol (relative).
func checkPairs(t *testing.T, res *Result, want []float64, k, c, w *mat.SymDense, tol float64) {
	t.Helper()
	n := k.SymmetricDim()
	if len(res.Theta) != len(want) {
		t.Fatalf("%d eigenvalues, want %d", len(res.Theta), len(want))
	}
	for i, th := range res.Theta {
		if !(math.Abs(th-want[i]) <= tol*math.Abs(want[i])) {
			t.Errorf("θ%d = %.15g, want %.15g", i, th, want[i])
		}
		y := mat.NewVecDense(n, res.Vectors[i*n:(i+1)*n])
		var cy, ky mat.VecDense
		cy.MulVec(c, y)
		ky.MulVec(k, y)
		cy.AddScaledVec(&cy, -th, &ky)
		if r := mat.Norm(&cy, 2) / (math.Abs(th) * mat.Norm(&ky, 2)); !(r <= 1e3*tol) {
			t.Errorf("pair %d: residual %g", i, r)
		}
		for j := 0; j <= i; j++ {
			var wy mat.VecDense
			wy.MulVec(w, y)
			g := mat.Dot(&wy, mat.NewVecDense(n, res.Vectors[j*n:(j+1)*n]))
			want := 0.0
			if i == j {
				want = 1
			}
			if !(math.Abs(g-want) <= 1e-8) {
				t.Errorf("⟨y%d, y%d⟩_W = %g, want %g", i, j, g, want)
			}
		}
	}
}

// TestFrequencyPencil: K·φ = λ·M·φ through Op = K⁻¹·M with the M inner
// product (σ = 0), for M positive definite and for M with massless DOFs
// (singular): the 8 largest θ = 1/λ agree with the dense reference to
// 1e-9, the vectors satisfy the pencil and are M-orthonormal.
func TestFrequencyPencil(t *testing.T) {
	const n = 80
	for _, massless := range []int{0, 12} {
		rng := rand.New(rand.NewPCG(7, uint64(massless)))
		k := randomSPD(rng, n)
		m := mat.NewSymDense(n, nil)
		for i := range n {
			if i%7 != 3 || i/7 >= massless {
				m.SetSym(i, i, 1+rng.Float64())
			}
		}
		res, err := Solve(context.Background(), pencil(t, k, m, m), Options{Wanted: 8, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		checkPairs(t, res, reference(t, k, m)[:8], k, m, m, 1e-9)
	}
}

// TestRepeatedEigenvalues: K = diag(1, 1, 2, 3, 3, 3, 4, …), M = I: the
// double and triple eigenvalues at the low end appear as often as they
// are repeated, with block size 3.
func TestRepeatedEigenvalues(t *testing.T) {
	const n = 60
	diag := []float64{1, 1, 2, 3, 3, 3}
	for len(diag) < n {
		diag = append(diag, float64(len(diag))+0.5)
	}
	m := mat.NewSymDense(n, nil)
	for i := range n {
		m.SetSym(i, i, 1)
	}
	// A rotation hides the diagonal structure from the solver.
	ks := rotated(rand.New(rand.NewPCG(3, 3)), diag)
	res, err := Solve(context.Background(), pencil(t, ks, m, m), Options{Wanted: 6, Block: 3, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := make([]float64, len(res.Theta))
	for i, th := range res.Theta {
		got[i] = 1 / th
	}
	slices.Sort(got)
	for i, want := range diag[:6] {
		if !(math.Abs(got[i]-want) <= 1e-9*want) {
			t.Errorf("λ%d = %.12g, want %.12g (all: %v)", i, got[i], want, got)
		}
	}
}

// TestBucklingPencil: (K + λ·K_G)·φ = 0 as C·φ = θ·K·φ with C = −K_G
// indefinite, W = K, accepting θ > 0 only (compressive load factors): the
// 5 smallest positive λ = 1/θ agree with the reference to 1e-9.
func TestBucklingPencil(t *testing.T) {
	const n = 70
	rng := rand.New(rand.NewPCG(11, 12))
	k := randomSPD(rng, n)
	g := mat.NewSymDense(n, nil)
	for i := range n {
		for j := 0; j <= i; j++ {
			g.SetSym(i, j, rng.NormFloat64())
		}
	}
	res, err := Solve(context.Background(), pencil(t, k, g, k),
		Options{Wanted: 5, Accept: func(th float64) bool { return th > 0 }, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var want []float64
	for _, v := range reference(t, k, g) {
		if v > 0 && len(want) < 5 {
			want = append(want, v)
		}
	}
	checkPairs(t, res, want, k, g, k, 1e-9)
}

// TestNothingAccepted: when no eigenvalue is acceptable (here C has rank
// 5 and only negative θ are asked for, of which there are none), Solve
// exhausts the range of Op and returns no pairs instead of looping.
func TestNothingAccepted(t *testing.T) {
	const n = 40
	rng := rand.New(rand.NewPCG(5, 5))
	k := randomSPD(rng, n)
	c := mat.NewSymDense(n, nil)
	for i := range 5 {
		c.SetSym(i, i, 1)
	}
	res, err := Solve(context.Background(), pencil(t, k, c, k), Options{Wanted: 3, Accept: func(th float64) bool { return th < 0 }})
	if err != nil || len(res.Theta) != 0 {
		t.Fatalf("%d pairs, error %v; want none and no error", len(res.Theta), err)
	}
}

// TestLowRankMass: M with rank r (massless DOFs everywhere else) has only
// r finite eigenvalues; blocks that do not divide r must shrink, not lose
// directions. Every pair must match the reference to 1e-9, including when
// more are wanted than exist (then all r come back, with no error).
func TestLowRankMass(t *testing.T) {
	const n = 40
	for _, c := range []struct{ rank, block, wanted int }{
		{4, 3, 3}, {5, 2, 4}, {7, 4, 5}, {8, 3, 8}, {3, 2, 6}, {1, 2, 2},
	} {
		t.Run(fmt.Sprintf("rank %d block %d wanted %d", c.rank, c.block, c.wanted), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c.rank), uint64(c.block)))
			k := randomSPD(rng, n)
			m := mat.NewSymDense(n, nil)
			for i := range c.rank {
				m.SetSym(3*i, 3*i, 1+rng.Float64())
			}
			res, err := Solve(context.Background(), pencil(t, k, m, m), Options{Wanted: c.wanted, Block: c.block, Seed: 9})
			if err != nil {
				t.Fatal(err)
			}
			want := reference(t, k, m)[:min(c.wanted, c.rank)]
			checkPairs(t, res, want, k, m, m, 1e-9)
		})
	}
}
