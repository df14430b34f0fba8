package sparse

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestReducedAssemblerIsCtKC assembles random symmetric element matrices
// through a Reduction with restrained DOFs, plain DOFs and DOFs tied to
// several equations with weights, and compares every entry with the dense
// product Cᵀ·(Σ element K)·C formed by the definition (tolerance:
// round-off of sums of a few dozen terms).
func TestReducedAssemblerIsCtKC(t *testing.T) {
	const nd, neq = 8, 5
	// DOF → equations: 0..2 plain, 3 restrained, 4 = 0.5·x3 − 2·x4,
	// 5 = x3, 6 restrained, 7 = x4 + 0.25·x0.
	red := &Reduction{N: neq,
		Ptr:  []int{0, 1, 2, 3, 3, 5, 6, 6, 8},
		Eq:   []int32{0, 1, 2, 3, 4, 3, 4, 0},
		Coef: []float64{1, 1, 1, 0.5, -2, 1, 1, 0.25}}
	in := &Incidence{Ptr: []int{0, 3, 7, 10, 13}, DOF: []int32{0, 1, 3, 1, 2, 4, 5, 4, 6, 7, 0, 2, 5}}
	as, err := NewReducedAssembler(in, red)
	if err != nil {
		t.Fatal(err)
	}
	if err := as.Pat.Validate(); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	a := as.NewMatrix()
	var k [nd][nd]float64
	for e := range in.Elements() {
		dofs := in.DOF[in.Ptr[e]:in.Ptr[e+1]]
		n := len(dofs)
		ke := make([]float64, n*n)
		for i := range n {
			for j := 0; j <= i; j++ {
				v := rng.NormFloat64()
				ke[i*n+j], ke[j*n+i] = v, v
			}
		}
		as.Add(a, e, ke)
		for i, di := range dofs {
			for j, dj := range dofs {
				k[di][dj] += ke[i*n+j]
			}
		}
	}
	var c [nd][neq]float64
	for d := range nd {
		for p := red.Ptr[d]; p < red.Ptr[d+1]; p++ {
			c[d][red.Eq[p]] += red.Coef[p]
		}
	}
	for i := range neq {
		for j := range neq {
			want := 0.0
			for p := range nd {
				for q := range nd {
					want += c[p][i] * k[p][q] * c[q][j]
				}
			}
			if got := a.At(i, j); !(math.Abs(got-want) <= 1e-12*(1+math.Abs(want))) {
				t.Errorf("(%d,%d) = %.15g, want %.15g", i, j, got, want)
			}
		}
	}
}

func TestReducedAssemblerRejects(t *testing.T) {
	red := &Reduction{N: 1, Ptr: []int{0, 1}, Eq: []int32{0}, Coef: []float64{1}}
	cases := []struct {
		name string
		in   *Incidence
		red  *Reduction
	}{
		{"DOF outside the reduction", &Incidence{Ptr: []int{0, 1}, DOF: []int32{1}}, red},
		{"equation outside", &Incidence{Ptr: []int{0, 1}, DOF: []int32{0}}, &Reduction{N: 1, Ptr: []int{0, 1}, Eq: []int32{3}, Coef: []float64{1}}},
		{"malformed", &Incidence{Ptr: []int{0, 1}, DOF: []int32{0}}, &Reduction{N: 1, Ptr: []int{0, 2}, Eq: []int32{0}, Coef: []float64{1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := NewReducedAssembler(c.in, c.red); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}
