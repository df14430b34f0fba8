package eigen

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// orthonormalBlocks returns a lanczos of order n with W = diag(w) whose
// basis holds nb random blocks of size k, W-orthonormal (modified
// Gram–Schmidt, twice, in the W inner product).
func orthonormalBlocks(rng *rand.Rand, n, nb, k int, w []float64) *lanczos {
	l := &lanczos{n: n, p: Problem{N: n, W: func(x, y []float64) {
		for i, v := range x {
			y[i] = w[i] * v
		}
	}}}
	var all [][]float64
	for range nb * k {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		for range 2 {
			for _, u := range all {
				h := 0.0
				for i := range v {
					h += u[i] * w[i] * v[i]
				}
				for i := range v {
					v[i] -= h * u[i]
				}
			}
		}
		norm := 0.0
		for i, x := range v {
			norm += x * w[i] * x
		}
		for i := range v {
			v[i] /= math.Sqrt(norm)
		}
		all = append(all, v)
	}
	for b := range nb {
		vb := vblock{q: make([]float64, k*n), wq: make([]float64, k*n), rows: k}
		for c := range k {
			for i, x := range all[b*k+c] {
				vb.q[c*n+i] = x
				vb.wq[c*n+i] = w[i] * x
			}
		}
		l.basis = append(l.basis, vb)
		l.m += k
	}
	return l
}

// TestExtendOrthogonal: a Lanczos step's vector has huge components on the
// last two blocks (the recurrence's α and β), round-off-sized ones on the
// older blocks and a small part of its own. extend must leave the new
// block W-orthogonal to the whole basis and W-orthonormal to round-off
// relative to that own part: one Gram–Schmidt pass over everything would
// leave about ε·10⁸ of it behind, and a pass over the last two blocks only
// the 1e-9 on the others. The order spans several chunks of both
// projections.
func TestExtendOrthogonal(t *testing.T) {
	const n, nb, k = 2*dotChunk + 100, 6, 3
	rng := rand.New(rand.NewPCG(4, 8))
	w := make([]float64, n)
	for i := range w {
		w[i] = 0.5 + rng.Float64()
	}
	l := orthonormalBlocks(rng, n, nb, k, w)
	if n <= dotChunk || n <= axpyChunk {
		t.Fatal("the vectors fit in one chunk")
	}
	r := make([]float64, n*k)
	for c := range k {
		rc := r[c*n : (c+1)*n]
		for i := range rc {
			rc[i] = rng.NormFloat64()
		}
		for b, vb := range l.basis {
			size := 1e-9
			if b >= nb-2 {
				size = 1e8
			}
			for j := range vb.rows {
				h := size * rng.NormFloat64()
				for i := range rc {
					rc[i] += h * vb.q[j*n+i]
				}
			}
		}
	}
	_, kept, err := l.extend(context.Background(), r, k)
	if err != nil || kept != k {
		t.Fatalf("kept %d of %d, error %v", kept, k, err)
	}
	nw := l.basis[len(l.basis)-1]
	for c := range k {
		q := nw.q[c*n : (c+1)*n]
		for b, vb := range l.basis {
			for j := range vb.rows {
				g := dot(vb.wq[j*n:(j+1)*n], q)
				want := 0.0
				if b == nb && j == c {
					want = 1
				}
				if !(math.Abs(g-want) <= 1e-13) {
					t.Errorf("new vector %d against block %d vector %d: %g, want %g", c, b, j, g, want)
				}
			}
		}
	}
}

// TestFromW: a problem offering Op from W·x (C = W) gets every Lanczos
// step through FromW, the random start only through Apply, and the same
// eigenpairs (against the dense reference, 1e-9) as through Apply alone;
// Apply also purifies the eigenvectors (one application each).
func TestFromW(t *testing.T) {
	const n = 80
	rng := rand.New(rand.NewPCG(13, 14))
	k := randomSPD(rng, n)
	m := mat.NewSymDense(n, nil)
	for i := range n {
		m.SetSym(i, i, 1+rng.Float64())
	}
	p := pencil(t, k, m, m)
	var ch mat.Cholesky
	if !ch.Factorize(k) {
		t.Fatal("K is not positive definite")
	}
	applied, fromW := 0, 0
	apply := p.Apply
	p.Apply = func(ctx context.Context, x, y []float64, nv int) error {
		applied += nv
		return apply(ctx, x, y, nv)
	}
	p.FromW = func(_ context.Context, wx, y []float64, nv int) error {
		fromW += nv
		for v := range nv {
			out := mat.NewVecDense(n, y[v*n:(v+1)*n])
			if err := ch.SolveVecTo(out, mat.NewVecDense(n, wx[v*n:(v+1)*n])); err != nil {
				return err
			}
		}
		return nil
	}
	res, err := Solve(context.Background(), p, Options{Wanted: 8, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkPairs(t, res, reference(t, k, m)[:8], k, m, m, 1e-9)
	if b, k := 6, len(res.Theta); applied != b+k || fromW != b*res.Steps || res.Applies != b*(res.Steps+1)+k {
		t.Errorf("Apply on %d vectors, FromW on %d, %d applies reported in %d steps; want %d, %d and %d",
			applied, fromW, res.Applies, res.Steps, b+k, b*res.Steps, b*(res.Steps+1)+k)
	}
}
