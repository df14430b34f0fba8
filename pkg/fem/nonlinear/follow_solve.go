package nonlinear

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/gusset/gusset/pkg/fem/linsys"
	"github.com/gusset/gusset/pkg/fem/sparse"
)

// The load stiffness of loads that follow their members is not symmetric,
// and its skew part matters: on the cantilever of the tests, the
// symmetric part alone stalls Newton's iterations past PL²/EI ≈ 8. The
// factorizer is symmetric, so the analysis factors the symmetric tangent
// K_s as before and solves with the whole K = K_s + K_a, K_a the skew
// part of the followers' load stiffness, by GMRES with K_s⁻¹ as its
// (right) preconditioner: K·K_s⁻¹ = I + K_a·K_s⁻¹ is the identity plus a
// term of the rank of the loaded members' DOFs, so a few Krylov vectors
// suffice.

// skewTerm is one entry K_a[i][j] of the skew part of the load stiffness,
// at the equations.
type skewTerm struct {
	i, j int
	v    float64
}

// addSkew records the skew part (kl − klᵀ)/2 of the load stiffness kl of
// member e (12×12, its DOFs) at the equations, for followFactorizer.
func (a *analysis) addSkew(e int, kl *[144]float64) {
	m := &a.members[e]
	eq := func(i int) int {
		n := m.a
		if i >= 6 {
			n = m.b
		}
		return a.num.Eq[6*n+i%6]
	}
	for r := range 12 {
		qr := eq(r)
		if qr < 0 {
			continue
		}
		for c := range 12 {
			if v := (kl[r*12+c] - kl[c*12+r]) / 2; v != 0 {
				if qc := eq(c); qc >= 0 {
					a.fol.skew = append(a.fol.skew, skewTerm{qr, qc, v})
				}
			}
		}
	}
}

// followFactorizer factors the symmetric tangent with inner and solves
// with the tangent plus the skew terms recorded by the assembly that made
// it (the last one with a matrix, which the driver factors next).
type followFactorizer struct {
	inner linsys.Factorizer
	fol   *followers
}

// Factor implements linsys.Factorizer.
func (f *followFactorizer) Factor(ctx context.Context, k *sparse.SymMatrix, nodeOf []int) (linsys.Factorization, error) {
	fact, err := f.inner.Factor(ctx, k, nodeOf)
	if err != nil || len(f.fol.skew) == 0 {
		return fact, err
	}
	ks := &sparse.SymMatrix{Pat: k.Pat, Val: slices.Clone(k.Val)}
	return &followSolve{fact: fact, ks: ks, skew: slices.Clone(f.fol.skew)}, nil
}

// followSolve solves K·x = b, K = K_s + K_a, by restarted GMRES
// preconditioned on the right with the factorization of K_s.
type followSolve struct {
	fact linsys.Factorization
	ks   *sparse.SymMatrix
	skew []skewTerm
}

// GMRES limits: Krylov vectors per cycle, cycles, and the relative
// residual ‖b − K·x‖/‖b‖ at which a solve stops. A solve that stops short
// of it returns its best x: the Newton iteration converges all the same,
// more slowly.
const (
	gmresKrylov = 40
	gmresCycles = 5
	gmresTol    = 1e-13
)

// Solve implements linsys.Factorization.
func (s *followSolve) Solve(ctx context.Context, b []float64, nrhs int) error {
	n := s.ks.N()
	for c := range nrhs {
		if err := s.solve1(ctx, b[c*n:(c+1)*n]); err != nil {
			return err
		}
	}
	return nil
}

// mul writes y = K·x.
func (s *followSolve) mul(y, x []float64) {
	s.ks.MulVec(y, x)
	for _, t := range s.skew {
		y[t.i] += t.v * x[t.j]
	}
}

// solve1 overwrites b with K⁻¹·b.
func (s *followSolve) solve1(ctx context.Context, b []float64) error {
	n := len(b)
	bn := norm(b)
	x := make([]float64, n)
	if bn == 0 {
		return nil
	}
	r := slices.Clone(b)
	beta := bn
	v := make([][]float64, gmresKrylov+1)
	z := make([][]float64, gmresKrylov)
	h := make([][]float64, gmresKrylov+1) // h[i][j], Hessenberg
	for i := range h {
		h[i] = make([]float64, gmresKrylov)
	}
	cs, sn, g := make([]float64, gmresKrylov), make([]float64, gmresKrylov), make([]float64, gmresKrylov+1)
	for range gmresCycles {
		v[0] = make([]float64, n)
		for i := range r {
			v[0][i] = r[i] / beta
		}
		clear(g)
		g[0] = beta
		j := 0
		for ; j < gmresKrylov; j++ {
			z[j] = slices.Clone(v[j])
			if err := s.fact.Solve(ctx, z[j], 1); err != nil {
				return fmt.Errorf("solve: %w", err)
			}
			w := make([]float64, n)
			s.mul(w, z[j])
			for i := 0; i <= j; i++ { // modified Gram–Schmidt
				h[i][j] = dot(w, v[i])
				for k := range w {
					w[k] -= h[i][j] * v[i][k]
				}
			}
			h[j+1][j] = norm(w)
			for i := range j { // the rotations so far
				h[i][j], h[i+1][j] = cs[i]*h[i][j]+sn[i]*h[i+1][j], -sn[i]*h[i][j]+cs[i]*h[i+1][j]
			}
			d := math.Hypot(h[j][j], h[j+1][j])
			if d == 0 { // K·z_j = 0 within the space: nothing to add
				break
			}
			cs[j], sn[j] = h[j][j]/d, h[j+1][j]/d
			hj1 := h[j+1][j]
			h[j][j], h[j+1][j] = d, 0
			g[j], g[j+1] = cs[j]*g[j], -sn[j]*g[j]
			if hj1 == 0 || math.Abs(g[j+1]) <= gmresTol*bn {
				j++
				break
			}
			v[j+1] = make([]float64, n)
			for k := range w {
				v[j+1][k] = w[k] / hj1
			}
		}
		// Back substitution for y, then x += Z·y.
		y := make([]float64, j)
		for i := j - 1; i >= 0; i-- {
			t := g[i]
			for k := i + 1; k < j; k++ {
				t -= h[i][k] * y[k]
			}
			y[i] = t / h[i][i]
		}
		for i := range j {
			for k := range x {
				x[k] += y[i] * z[i][k]
			}
		}
		s.mul(r, x)
		for k := range r {
			r[k] = b[k] - r[k]
		}
		if beta = norm(r); !(beta > gmresTol*bn) {
			break
		}
	}
	copy(b, x)
	return nil
}

// dot returns x·y.
func dot(x, y []float64) float64 {
	t := 0.0
	for i := range x {
		t += x[i] * y[i]
	}
	return t
}
