package nonlinear_test

import (
	"math"
	"testing"

	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/nonlinear"
)

// gridID names node (i, j) of plateSquare's grid.
func gridID(i, j int) int64 { return int64(1000*j + i + 1) }

// plateID is the id of the plate of cell (i, j) of plateSquare.
func plateID(i, j int) int64 { return int64(1000*j + i + 1) }

// plateSquare returns a simply supported square plate of side a and
// thickness tk on an n × n grid of quads in the X-Y plane (E = 1 GPa,
// ν = 0.3; the mesh and supports of buckling's TestPlateBuckling: uz held
// on every edge with the twist about the edge's normal, the edge x = 0
// held along x and two corners along y), compressed along x by nx (N/m,
// nodal forces on the edge x = a) and loaded by a uniform pressure q
// along −Z, case 1. Node (i, j) is gridID(i, j), the plate of cell (i,
// j) plateID(i, j). The plates are Kirchhoff plates (shell.Kirchhoff,
// the zero Theory) or, with mindlin, shell.Mindlin (the tests do not
// import package shell: the import rule of the package).
func plateSquare(a, tk float64, n int, mindlin bool, nx, q float64) *domain.Model {
	const e, nu = 1e9, 0.3
	m := &domain.Model{Materials: []domain.Material{{ID: 1, E: e, G: e / (2 * (1 + nu))}}}
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			m.Nodes = append(m.Nodes, domain.Node{ID: gridID(i, j), X: float64(i) * a / float64(n), Y: float64(j) * a / float64(n)})
		}
	}
	lc := domain.LoadCase{ID: 1}
	for j := range n {
		for i := range n {
			id := plateID(i, j)
			pl := domain.Plate{ID: id, Nodes: []int64{gridID(i, j), gridID(i+1, j), gridID(i+1, j+1), gridID(i, j+1)},
				Material: 1, Thickness: tk}
			if mindlin {
				pl.Theory = 1 // shell.Mindlin
			}
			m.Plates = append(m.Plates, pl)
			lc.Pressures = append(lc.Pressures, domain.PlatePressure{Plate: id, Axes: domain.Local, P: [3]float64{2: -q}})
		}
	}
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			c := []byte("RRRRRR")
			if i == 0 || i == n {
				c[2], c[3] = 'F', 'F'
			}
			if j == 0 || j == n {
				c[2], c[4] = 'F', 'F'
			}
			if i == 0 {
				c[0] = 'F'
			}
			if j == 0 && (i == 0 || i == n) {
				c[1] = 'F'
			}
			if string(c) != "RRRRRR" {
				m.Supports = append(m.Supports, domain.Support{Node: gridID(i, j), Code: string(c)})
			}
		}
	}
	for j := 0; j <= n; j++ {
		f := nx * a / float64(n)
		if j == 0 || j == n {
			f /= 2
		}
		lc.NodeLoads = append(lc.NodeLoads, domain.NodeLoad{Node: gridID(n, j), F: [6]float64{-f}})
	}
	m.LoadCases = []domain.LoadCase{lc}
	return m
}

// TestSmallPlateAmplification: a simply supported square plate under a
// uniform compression N_x along x and a small uniform pressure q. Its
// deflection is the Navier series w_mn = q_mn/(π⁴D(m²/a² + n²/b²)² −
// N_x·m²π²/a²), q_mn = 16q/(π²mn) (m, n odd; Timoshenko &
// Woinowsky-Krieger, Theory of Plates and Shells, 2nd ed., §80): at the
// centre, against N_x = 0, the amplification is 2.0211 at half the
// buckling load N_cr = 4π²D/a² (k = 4; Timoshenko & Gere, Theory of
// Elastic Stability, §9.2) — 1/(1 − N_x/N_cr) = 2 for the first term,
// the others amplified less. The plates take part through
// domain.Element: their geometric stiffness of the membrane forces and
// their resisting forces, pressures included. The amplification of the
// Small theory is held within 2 % of the series on a 12 × 12 mesh of each
// theory (the discretisation error of the buckled shape, as in buckling's
// TestPlateBuckling; measured −0.54 % Kirchhoff, −0.79 % Mindlin, whose
// first-order centre deflections are −0.02 % and −0.17 % from the
// series), in three iterations, and the node forces the plates
// report, geometric term included, balance the compression at the loaded
// edge.
func TestSmallPlateAmplification(t *testing.T) {
	const (
		a  = 1.0
		tk = 0.01
		n  = 12
		q  = 1.0 // N/m²
	)
	d := 1e9 * tk * tk * tk / (12 * (1 - 0.3*0.3))
	ncr := 4 * math.Pi * math.Pi * d / (a * a)
	nx := 0.5 * ncr
	series := func(nx float64) float64 {
		w := 0.0
		for m := 1; m < 200; m += 2 {
			for k := 1; k < 200; k += 2 {
				fm, fk := float64(m), float64(k)
				s := math.Sin(fm*math.Pi/2) * math.Sin(fk*math.Pi/2)
				den := math.Pow(math.Pi, 4)*d*math.Pow(fm*fm/(a*a)+fk*fk/(a*a), 2) - nx*fm*fm*math.Pi*math.Pi/(a*a)
				w += 16 * q / (math.Pi * math.Pi * fm * fk) * s / den
			}
		}
		return w
	}
	want := series(nx) / series(0)
	for _, mindlin := range []bool{false, true} {
		th := map[bool]string{false: "Kirchhoff", true: "Mindlin"}[mindlin]
		t.Run(th, func(t *testing.T) {
			opts := nonlinear.Options{Theory: nonlinear.Small, Tolerance: 1e-9, MaxIterations: 50}
			centre := (n/2)*(n+1) + n/2
			lin := analyze(t, plateSquare(a, tk, n, mindlin, 0, q), opts)
			res := analyze(t, plateSquare(a, tk, n, mindlin, nx, q), opts)
			w0, w := lin.Nodes[centre].Translation[2], res.Nodes[centre].Translation[2]
			amp := w / w0
			t.Logf("%s: centre w %.6g m (N_x = 0: %.6g, series %.6g), amplification %.4f, series %.4f (%+.2e); %d iterations",
				th, w, w0, -series(0), amp, want, amp/want-1, len(res.History))
			if !near(amp, want, 0.02*want) {
				t.Errorf("amplification %.4f, series %.4f", amp, want)
			}
			// The plates along the loaded edge: the x forces their nodes on
			// x = a exert on them sum to the compression −N_x·a (plate
			// local x is global X here).
			sum := 0.0
			for j := range n {
				pr := res.Plates[j*n+n-1]
				if pr.Plate != plateID(n-1, j) {
					t.Fatalf("plate %d at %d", pr.Plate, j*n+n-1)
				}
				sum += pr.NodeForces[6*1] + pr.NodeForces[6*2] // corners B and C are on x = a
			}
			if !near(sum, -nx*a, 1e-6*nx*a) {
				t.Errorf("edge forces on the plates sum to %g, want %g", sum, -nx*a)
			}
		})
	}
}
