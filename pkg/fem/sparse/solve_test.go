package sparse

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

var allMethods = []Method{Natural, AMD, NestedDissection, RCM}

// TestSolveResidual checks ‖b − Ax‖/‖b‖ ≤ 1e-10 for SPD and indefinite
// matrices under every ordering and several worker counts. 1e-10 is the
// acceptance bound; these matrices have condition numbers ≤ 1e3, so backward
// stable LDLᵀ gives ~1e-14 and the bound has ample margin.
func TestSolveResidual(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	cases := []struct {
		name  string
		a     *SymMatrix
		block int
	}{
		{"laplace-spd", laplace3D(t, 7, 6, 5, 3, 0), 3},
		{"laplace-indef", laplace3D(t, 7, 6, 5, 3, -4.3), 3},
		{"random-spd", randomSym(t, r, 300, 0.02, true), 1},
		{"random-indef", randomSym(t, r, 200, 0.01, false), 1},
	}
	for _, c := range cases {
		for _, m := range allMethods {
			for _, workers := range []int{1, 2, 3} {
				t.Run(fmt.Sprintf("%s/%v/w%d", c.name, m, workers), func(t *testing.T) {
					f := factorize(t, c.a, AnalyzeOptions{Method: m, BlockSize: c.block, Workers: workers})
					b := randVec(r, c.a.N())
					x := make([]float64, c.a.N())
					res, err := f.SolveRefined(c.a, x, b, 2)
					if err != nil {
						t.Fatal(err)
					}
					if res > 1e-10 {
						t.Fatalf("relative residual %g > 1e-10", res)
					}
				})
			}
		}
	}
}
