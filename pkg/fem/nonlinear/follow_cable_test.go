package nonlinear_test

import (
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
)

// TestCableLength: MemberResult.CableLength of a Cable member in the
// Large theory. The cable runs along X from a clamped node to node N1,
// whose rotations and transverse translations are held and whose ux is
// held by a spring k (0: none), under a force F along X. Closed forms (the
// cable law of the package doc, N = EA/L0·(chord − L0) when positive):
//
//   - taut, pretensioned (L0 = 0.98·L, no spring): N = F, so the
//     stretched length is L0·(1 + F/EA), also the current chord L + ux;
//   - slack under a push (L0 = L, spring): N = 0, the length is L0 = L;
//   - slack, too long to be taken up (L0 = 1.1·L, spring, F/k < 0.1·L):
//     N = 0, length L0;
//   - slack taken up (L0 = 1.01·L, spring): k·ux + EA/L0·(L + ux − L0) = F,
//     ux = (F + EA·(L0 − L)/L0)/(k + EA/L0), length L + ux.
//
// The analysis converges to 1e-10 of the load; the lengths are held to
// 1e-9·L (a relative error of ten times the tolerance).
func TestCableLength(t *testing.T) {
	const (
		L  = 4.0
		E  = 2e11
		A  = 1e-4
		EA = E * A
		k  = 1e6
	)
	for _, tc := range []struct {
		name      string
		l0, k, f  float64
		want, tau float64 // length, tension
	}{
		{"taut pretensioned", 0.98 * L, 0, 5e4, 0.98 * L * (1 + 5e4/EA), 5e4},
		{"slack pushed", 0, k, -1e3, L, 0},
		{"slack too long", 1.1 * L, k, 1e4, 1.1 * L, 0},
		{"slack taken up", 1.01 * L, k, 1e5, L + (1e5+EA*(0.01*L)/(1.01*L))/(k+EA/(1.01*L)), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := section{E: E, G: 8e10, A: A, J: 1e-8, Iy: 1e-8, Iz: 1e-8}
			m := chainModel(straight(L, 1), s, geom.YAxis, map[int][6]float64{1: {tc.f}})
			m.Members[0].Type = domain.Cable
			m.Members[0].CableLength = tc.l0
			// ux free ('R') or on the spring; the rest held.
			code := "RFFFFF"
			if tc.k > 0 {
				code = "SFFFFF"
			}
			m.Supports = append(m.Supports, domain.Support{Node: 2, Code: code, Springs: [6]float64{tc.k}})
			res := analyze(t, m, nonlinear.Options{Theory: nonlinear.Large, Steps: 2, MaxIterations: 50, Tolerance: 1e-10})
			mr := res.Members[0]
			n := mr.Forces[0]
			t.Logf("N = %.6g, chord %.12g, cable length %.12g, want %.12g", n, mr.Length, mr.CableLength, tc.want)
			if !near(mr.CableLength, tc.want, 1e-9*L) {
				t.Errorf("cable length %.12g, want %.12g", mr.CableLength, tc.want)
			}
			if tc.tau > 0 && !near(n, tc.tau, 1e-8*tc.tau) {
				t.Errorf("tension %g, want %g", n, tc.tau)
			}
			if n > 0 && !near(mr.CableLength, mr.Length, 1e-9*L) {
				t.Errorf("taut cable: length %.12g, chord %.12g", mr.CableLength, mr.Length)
			}
		})
	}
}
