package shell_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gusset/gusset/pkg/fem/shell"
)

// patchNodes and patchQuads are the irregular patch of MacNeal and Harder
// ("A proposed standard set of problems to test finite element accuracy",
// Finite Elements in Analysis and Design 1, 1985, fig. 2): a 0.24 × 0.12
// rectangle whose four interior nodes make five distorted quads. Nodes 0–3
// are the rectangle's corners, 4–7 the interior.
var patchNodes = [8][2]float64{
	{0, 0}, {0.24, 0}, {0.24, 0.12}, {0, 0.12},
	{0.04, 0.02}, {0.18, 0.03}, {0.16, 0.08}, {0.08, 0.08},
}

var patchQuads = [][]int{{0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}, {4, 5, 6, 7}}

// patchTriangles splits each quad of the patch along a diagonal,
// alternating, so the triangles point several ways.
func patchTriangles() [][]int {
	var out [][]int
	for i, q := range patchQuads {
		if i%2 == 0 {
			out = append(out, []int{q[0], q[1], q[2]}, []int{q[0], q[2], q[3]})
		} else {
			out = append(out, []int{q[0], q[1], q[3]}, []int{q[1], q[2], q[3]})
		}
	}
	return out
}

// planeOf returns the local plane of the corners idx of pts.
func planeOf(pts [][2]float64, idx []int) shell.Plane {
	p := shell.Plane{N: len(idx)}
	for k, i := range idx {
		p.X[k], p.Y[k] = pts[i][0], pts[i][1]
	}
	return p
}

// steel is the material of the element tests: E = 200 GPa, ν = 0.3,
// t = 10 mm; any values would do, the checks being exact.
var steel = shell.Props{E: 200e9, Nu: 0.3, Tm: 0.01, Tb: 0.01, Ts: 0.01}

// solvePatch assembles the 6-DOF elements of a patch, holds the DOFs
// fixed[d] == true at their values in u and solves for the rest; it
// returns u completed.
func solvePatch(t *testing.T, nn int, els []*shell.Element, conn [][]int, fixed []bool, u []float64) []float64 {
	t.Helper()
	n := 6 * nn
	K := make([]float64, n*n)
	for e, el := range els {
		m := el.Size()
		k := make([]float64, m*m)
		if err := el.Stiffness(k); err != nil {
			t.Fatalf("element %d: %v", e, err)
		}
		for a, na := range conn[e] {
			for b, nb := range conn[e] {
				for i := range 6 {
					for j := range 6 {
						K[(6*na+i)*n+6*nb+j] += k[(6*a+i)*m+6*b+j]
					}
				}
			}
		}
	}
	var free []int
	for i := range n {
		if !fixed[i] {
			free = append(free, i)
		}
	}
	A := mat.NewDense(len(free), len(free), nil)
	rhs := mat.NewVecDense(len(free), nil)
	for r, i := range free {
		s := 0.0
		for j := range n {
			if fixed[j] {
				s -= K[i*n+j] * u[j]
			}
		}
		rhs.SetVec(r, s)
		for c, j := range free {
			A.Set(r, c, K[i*n+j])
		}
	}
	var x mat.VecDense
	if err := x.SolveVec(A, rhs); err != nil {
		t.Fatalf("solve: %v", err)
	}
	out := append([]float64(nil), u...)
	for r, i := range free {
		out[i] = x.AtVec(r)
	}
	return out
}

// eigenvalues returns the eigenvalues of the symmetric n×n matrix k in
// ascending order, failing the test if k is not symmetric to 1e-12 of its
// largest entry.
func eigenvalues(t *testing.T, n int, k []float64) []float64 {
	t.Helper()
	big := 0.0
	for _, v := range k {
		big = math.Max(big, math.Abs(v))
	}
	for i := range n {
		for j := range i {
			if !(math.Abs(k[i*n+j]-k[j*n+i]) <= 1e-12*big) {
				t.Fatalf("not symmetric: k[%d][%d] = %g, k[%d][%d] = %g", i, j, k[i*n+j], j, i, k[j*n+i])
			}
		}
	}
	var es mat.EigenSym
	if !es.Factorize(mat.NewSymDense(n, append([]float64(nil), k...)), false) {
		t.Fatal("eigen decomposition failed")
	}
	return es.Values(nil)
}

// countZero counts the eigenvalues below 1e-13 of the largest. The
// round-off of a symmetric eigensolve of order n ≤ 24 is about n·ε ≈ 5e-15
// of the largest eigenvalue, while the smallest true stiffness of the
// thinnest element tested (bending of a sliver at t = 1 mm, next to its
// membrane stiffness) is 3.6e-10 of it: the threshold separates the two.
func countZero(ev []float64) int {
	z := 0
	for _, v := range ev {
		if math.Abs(v) <= 1e-13*ev[len(ev)-1] {
			z++
		}
	}
	return z
}

// TestMembraneRigidModes: the membrane matrix with its drilling term has
// exactly the three rigid in-plane modes (two translations and the
// rotation with θz = ω) as zero eigenvalues, so the drilling freedom adds
// no mechanism; a zero penalty leaves the drilling DOFs free (N more).
func TestMembraneRigidModes(t *testing.T) {
	shapes := map[string]shell.Plane{
		"distorted quad": planeOf(patchNodes[:], patchQuads[0]),
		"inner quad":     planeOf(patchNodes[:], patchQuads[4]),
		"triangle":       planeOf(patchNodes[:], patchTriangles()[3]),
	}
	for name, p := range shapes {
		t.Run(name, func(t *testing.T) {
			dm := steel.Dm()
			n := 3 * p.N
			k := make([]float64, n*n)
			shell.MembraneStiffness(&p, &dm, steel.G()*steel.Tm, k)
			if z := countZero(eigenvalues(t, n, k)); z != 3 {
				t.Errorf("%d zero eigenvalues, want 3 (rigid in-plane motion)", z)
			}
			shell.MembraneStiffness(&p, &dm, 0, k)
			if z := countZero(eigenvalues(t, n, k)); z != 3+p.N {
				t.Errorf("without drilling: %d zero eigenvalues, want %d", z, 3+p.N)
			}
		})
	}
}

// TestShellRigidModes: the whole 6N-DOF element, membrane, drilling and
// bending, has exactly the six rigid-body modes of a body in space as
// zero eigenvalues, for both theories, thick and thin.
func TestShellRigidModes(t *testing.T) {
	for _, th := range []shell.Theory{shell.Kirchhoff, shell.Mindlin} {
		for _, tk := range []float64{0.001, 0.05} {
			for _, idx := range [][]int{patchQuads[0], patchQuads[4], patchTriangles()[1], patchTriangles()[6]} {
				el := &shell.Element{Plane: planeOf(patchNodes[:], idx), Theory: th,
					Props: shell.Props{E: 200e9, Nu: 0.3, Tm: tk, Tb: tk, Ts: tk}}
				el.Gamma = el.Props.G() * tk
				t.Run(th.String(), func(t *testing.T) {
					n := el.Size()
					k := make([]float64, n*n)
					if err := el.Stiffness(k); err != nil {
						t.Fatal(err)
					}
					if z := countZero(eigenvalues(t, n, k)); z != 6 {
						t.Errorf("t = %g, corners %v: %d zero eigenvalues, want 6", tk, idx, z)
					}
				})
			}
		}
	}
}

// TestMembranePatch is the membrane patch test on the irregular patch:
// with u = a + b·x + c·y, v = d + e·x + f·y and θz = (e − c)/2 at the
// boundary nodes, the interior nodes must take the same linear field and
// every element the same constant strains, to round-off — quads and
// triangles alike. Bending DOFs are held at zero.
func TestMembranePatch(t *testing.T) {
	const a, b, c, d, e, f = 1e-3, 2e-3, -1e-3, 0.5e-3, 1.5e-3, 3e-3
	field := func(x, y float64) [6]float64 {
		return [6]float64{a + b*x + c*y, d + e*x + f*y, 0, 0, 0, (e - c) / 2}
	}
	for name, conn := range map[string][][]int{"quads": patchQuads, "triangles": patchTriangles()} {
		t.Run(name, func(t *testing.T) {
			els := make([]*shell.Element, len(conn))
			for i, idx := range conn {
				els[i] = &shell.Element{Plane: planeOf(patchNodes[:], idx), Props: steel, Theory: shell.Kirchhoff, Gamma: steel.G() * steel.Tm}
			}
			u := make([]float64, 6*8)
			fixed := make([]bool, 6*8)
			for i, p := range patchNodes {
				for k := range 6 {
					// The boundary (nodes 0–3) holds everything; the interior
					// holds its bending DOFs only.
					fixed[6*i+k] = i < 4 || (k >= 2 && k <= 4)
				}
				if i < 4 {
					v := field(p[0], p[1])
					copy(u[6*i:6*i+6], v[:])
				}
			}
			got := solvePatch(t, 8, els, conn, fixed, u)
			for i := 4; i < 8; i++ {
				want := field(patchNodes[i][0], patchNodes[i][1])
				for k := range 6 {
					// 1e-12 of the field's size (1e-3): round-off of a
					// 48-equation dense solve.
					if !(math.Abs(got[6*i+k]-want[k]) <= 1e-15) {
						t.Errorf("node %d DOF %d = %.17g, want %.17g", i, k, got[6*i+k], want[k])
					}
				}
			}
			wantF := mulD(steel.Dm(), [3]float64{b, f, c + e})
			for ei, el := range els {
				ul := make([]float64, el.Size())
				for k, n := range conn[ei] {
					copy(ul[6*k:6*k+6], got[6*n:6*n+6])
				}
				r := el.Resultants(ul, shell.Strains{})
				for k := range 3 {
					if !(math.Abs(r.F[k]-wantF[k]) <= 1e-9*math.Abs(wantF[0])) {
						t.Errorf("element %d: F[%d] = %g, want %g", ei, k, r.F[k], wantF[k])
					}
				}
			}
		})
	}
}

func mulD(d shell.Mat3, v [3]float64) [3]float64 {
	var r [3]float64
	for i := range 3 {
		r[i] = d[i][0]*v[0] + d[i][1]*v[1] + d[i][2]*v[2]
	}
	return r
}
