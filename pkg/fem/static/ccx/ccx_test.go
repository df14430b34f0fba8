//go:build ccx

package ccx

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gusset/gusset/pkg/fem/domain"
)

// tolerance is the acceptance figure: 1 % of the largest displacement of
// the same kind. Both sides model the same Timoshenko members (see
// doc.go), so the differences left are CalculiX's discretisation of
// trapezoidal loads and round-off; 1 % is far above them and far below
// what a wrong sign, axis, release or offset would cause.
const tolerance = 0.01

// findCCX returns the ccx binary, installing the Debian package
// calculix-ccx first when it is missing and the test runs as root.
func findCCX(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("ccx"); err == nil {
		return p
	}
	if os.Geteuid() != 0 {
		t.Fatal("ccx is not installed and the test is not root: run `apt-get install calculix-ccx` first")
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		t.Fatal("ccx is not installed and apt-get is missing: install CalculiX ccx 2.20 by hand")
	}
	t.Log("installing calculix-ccx through apt")
	cmd := exec.Command("sh", "-c", "apt-get update -qq && apt-get install -y -qq calculix-ccx")
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("apt-get install calculix-ccx failed: %v\n%s", err, out)
	}
	p, err := exec.LookPath("ccx")
	if err != nil {
		t.Fatal("calculix-ccx installed but ccx is still not on PATH")
	}
	return p
}

func TestCrossCheck(t *testing.T) {
	ccx := findCCX(t)
	for _, tc := range []struct {
		name  string
		model *domain.Model
	}{
		{"grid-4", gridModel(4)},
		{"frame", frameModel()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			compare(t, ccx, tc.model)
		})
	}
}

// compare solves m's load case 1 with both solvers and checks every
// displacement of every model node.
//
// Normalisation: a component is judged against the largest absolute
// value of the same kind (translations, m; rotations, rad) over the whole
// model, from the engine. Component-wise relative errors would be
// meaningless for components that are zero up to round-off (uy of the
// grid under loads in x and z), and translations and rotations have
// different units, so they cannot share a scale.
func compare(t *testing.T, ccx string, m *domain.Model) {
	t.Helper()
	eng := engineDisp(t, m)
	deck, err := Write(m, 1, Options{Divisions: 8})
	if err != nil {
		t.Fatalf("write: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	got, err := Run(ctx, ccx, t.TempDir(), deck)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("ccx: %d lines of input, %.1f s", strings.Count(deck.Text, "\n"), time.Since(start).Seconds())

	var scale [2]float64
	for _, d := range eng {
		for i, v := range d {
			scale[i/3] = math.Max(scale[i/3], math.Abs(v))
		}
	}
	if !(scale[0] > 0 && scale[1] > 0) {
		t.Fatalf("degenerate test: largest translation %g, rotation %g", scale[0], scale[1])
	}
	var worst [2]float64
	var where [2]string
	names := [6]string{"ux", "uy", "uz", "rx", "ry", "rz"}
	for _, n := range m.Nodes {
		e, c := eng[n.ID], got[n.ID]
		for i := range 6 {
			rel := math.Abs(c[i]-e[i]) / scale[i/3]
			if rel > worst[i/3] {
				worst[i/3], where[i/3] = rel, fmt.Sprint(n.ID, " ", names[i])
			}
			if rel > tolerance {
				t.Errorf("node %d %s: engine %.6e, ccx %.6e (%.2f %% of the largest %s)",
					n.ID, names[i], e[i], c[i], 100*rel, [2]string{"translation", "rotation"}[i/3])
			}
		}
	}
	t.Logf("largest translation %.4e m, largest rotation %.4e rad", scale[0], scale[1])
	t.Logf("max difference: translations %.2g %% (%s), rotations %.2g %% (%s)",
		100*worst[0], where[0], 100*worst[1], where[1])
}
