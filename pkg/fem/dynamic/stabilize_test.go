package dynamic_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/dynamic"
	"github.com/gusset/gusset/pkg/fem/modal"
)

// A truss member along X, fixed at A, B free along X only: B's rotations
// have no stiffness. Without stabilizing that is a mechanism named by node
// and freedom; with it, the rotations get springs (and a warning naming
// them) and carry no mass, so the one mode is the bar's axial one. One
// two-node bar with consistent mass (K = EA/L, M = ρAL/3 at the free end;
// Cook, Malkus, Plesha and Witt, Concepts and Applications of Finite
// Element Analysis, 4th ed., §11.3) gives ω = √(3E/ρ)/L exactly for the
// discrete model (1e-9: round-off of the eigensolve).
func TestStabilizeUnrestrainedFreedoms(t *testing.T) {
	m := beam("FFFFFF", "RFFRRR", 1e-2)
	m.Members[0].Type = domain.Truss
	m.LoadCases[0].SelfWeight = [3]float64{-1, 0, 0}
	_, err := dynamic.Analyze(context.Background(), m, dynamic.Options{Settings: modal.Settings{Modes: 1}})
	if err == nil || !strings.Contains(err.Error(), "mechanism at node 5, rotation about X") {
		t.Fatalf("without stabilizing: %v, want the mechanism named", err)
	}
	res, err := dynamic.Analyze(context.Background(), m, dynamic.Options{Settings: modal.Settings{Modes: 1, Stabilize: true}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range res.Warnings {
		found = found || strings.Contains(w, "node 5 rotation about X")
	}
	if !found {
		t.Errorf("warnings %q do not name node 5's rotation", res.Warnings)
	}
	want := math.Sqrt(3*e/rho) / L / (2 * math.Pi)
	if c := res.Cases[0]; len(c.Modes) != 1 || !(math.Abs(c.Modes[0].Frequency-want) <= 1e-9*want) {
		t.Errorf("modes %+v, want one at %g Hz", c.Modes, want)
	}
}
