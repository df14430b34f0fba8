package gridn

import (
	"fmt"
	"math"
	"testing"
)

// TestDOFCountAndLoads checks the free-DOF count 6·(n+1)²·n (52,920 for
// grid-20, 172,980 for grid-30, asserted by formula here to keep the test
// fast) and the load resultants of load case 1.
func TestDOFCountAndLoads(t *testing.T) {
	if FreeDOFs(20) != 52920 || FreeDOFs(30) != 172980 {
		t.Fatalf("FreeDOFs formula: %d, %d", FreeDOFs(20), FreeDOFs(30))
	}
	for _, n := range []int{1, 2, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			m, err := Generate(n)
			if err != nil {
				t.Fatal(err)
			}
			if m.NFree != FreeDOFs(n) || m.K.N() != FreeDOFs(n) {
				t.Fatalf("free DOFs %d, want %d", m.NFree, FreeDOFs(n))
			}
			if err := m.K.Pat.Validate(); err != nil {
				t.Fatal(err)
			}
			np := n + 1
			free := np * np * n
			var fx, fz float64
			for v := range m.DOF {
				if d := m.DOF[v][0]; d >= 0 {
					fx += m.RHS[d]
					fz += m.RHS[m.DOF[v][2]]
				}
			}
			// Members: beams 2·n·np per floor on n floors, columns np²·n;
			// the columns standing on the base lose the half lumped to
			// the fixed node.
			w := Rho * Area * Bay * Gravity
			beams := 2 * n * np * n
			cols := np * np * n
			wantFz := -(float64(beams+cols)*w - float64(np*np)*w/2)
			// Sums of a few hundred O(1e3..1e4) terms: 1e-9 relative.
			if math.Abs(fx-Lateral*float64(free)) > 1e-9*fx || math.Abs(fz-wantFz) > 1e-9*math.Abs(wantFz) {
				t.Fatalf("resultants Fx %v Fz %v, want %v %v", fx, fz, Lateral*float64(free), wantFz)
			}
			if len(m.Elements) != beams+cols {
				t.Fatalf("%d members, want %d", len(m.Elements), beams+cols)
			}
		})
	}
}
