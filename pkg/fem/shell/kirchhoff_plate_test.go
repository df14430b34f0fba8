package shell

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gusset/gusset/pkg/fem/internal/navier"
)

// kirAssemble returns the global bending stiffness, 3 DOFs (w, θx, θy)
// per node.
func kirAssemble(t *testing.T, m *testMesh, db *Mat3) *mat.SymDense {
	t.Helper()
	nd := 3 * len(m.x)
	k := mat.NewSymDense(nd, nil)
	ke := make([]float64, 144)
	for e, nodes := range m.elems {
		p := m.plane(e)
		if err := p.Check(); err != nil {
			t.Fatalf("element %d: %v", e, err)
		}
		ne := 3 * p.N
		KirchhoffBending(&p, db, ke[:ne*ne])
		for a := range ne {
			ga := 3*nodes[a/3] + a%3
			for b := range ne {
				if gb := 3*nodes[b/3] + b%3; gb >= ga {
					k.SetSym(ga, gb, k.At(ga, gb)+ke[a*ne+b])
				}
			}
		}
	}
	return k
}

// kirSolve solves k·u = f for the DOFs not in fixed, which hold their
// prescribed values, by Cholesky on the free-free block.
func kirSolve(t *testing.T, k *mat.SymDense, f []float64, fixed map[int]float64) []float64 {
	t.Helper()
	nd := k.SymmetricDim()
	var free []int
	for i := range nd {
		if _, ok := fixed[i]; !ok {
			free = append(free, i)
		}
	}
	kff := mat.NewSymDense(len(free), nil)
	rhs := mat.NewVecDense(len(free), nil)
	for a, i := range free {
		r := f[i]
		for j, v := range fixed {
			r -= k.At(i, j) * v
		}
		rhs.SetVec(a, r)
		for b := a; b < len(free); b++ {
			kff.SetSym(a, b, k.At(i, free[b]))
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(kff) {
		t.Fatal("free-free stiffness is not positive definite")
	}
	var uf mat.VecDense
	if err := ch.SolveVecTo(&uf, rhs); err != nil {
		t.Fatal(err)
	}
	u := make([]float64, nd)
	for j, v := range fixed {
		u[j] = v
	}
	for a, i := range free {
		u[i] = uf.AtVec(a)
	}
	return u
}

// kirElemDofs gathers element e's bending DOFs from the global vector.
func kirElemDofs(m *testMesh, e int, u []float64) []float64 {
	ue := make([]float64, 0, 12)
	for _, n := range m.elems[e] {
		ue = append(ue, u[3*n:3*n+3]...)
	}
	return ue
}

// kirMoments returns m = Db·B·ue at (ξ, η) of element e.
func kirMoments(m *testMesh, e int, u []float64, db *Mat3, xi, eta float64) (kap, mom [3]float64) {
	p := m.plane(e)
	ue := kirElemDofs(m, e, u)
	nc := 3 * p.N
	b := make([]float64, 3*nc)
	KirchhoffCurvature(&p, xi, eta, b)
	for r := range 3 {
		for c := range nc {
			kap[r] += b[r*nc+c] * ue[c]
		}
	}
	for r := range 3 {
		mom[r] = db[r][0]*kap[0] + db[r][1]*kap[1] + db[r][2]*kap[2]
	}
	return kap, mom
}

// TestKirchhoffPatch is the multi-element bending patch test on an
// irregular mesh: with the exact quadratic field prescribed at the four
// boundary nodes (all three DOFs) and no load, the interior nodes must take
// the exact field too and every element must show the exact constant
// curvature and moment. Everything is exact but for rounding in the
// solve, observed at ≤ 1e-15 of the largest DOF and ≤ 3e-14 of the
// largest curvature or moment; 1e-12 relative keeps a margin of 30 and
// still fails any formulation that merely converges.
func TestKirchhoffPatch(t *testing.T) {
	db := kirProps.Db()
	f := kirField{w0: 1e-3, a: 2e-3, b: -1e-3, A: 0.5, B: 0.3, C: -0.2}
	wantK := f.kappa()
	var wantM [3]float64
	for r := range 3 {
		wantM[r] = db[r][0]*wantK[0] + db[r][1]*wantK[1] + db[r][2]*wantK[2]
	}
	kScale := 0.5 // the largest |κ|
	mScale := math.Max(math.Abs(wantM[0]), math.Max(math.Abs(wantM[1]), math.Abs(wantM[2])))
	for _, tri := range []bool{false, true} {
		name := map[bool]string{false: "quads", true: "triangles"}[tri]
		t.Run(name, func(t *testing.T) {
			m := macNealHarder(tri)
			k := kirAssemble(t, m, &db)
			fixed := map[int]float64{}
			for n := range 4 {
				w, tx, ty := f.at(m.x[n], m.y[n])
				fixed[3*n], fixed[3*n+1], fixed[3*n+2] = w, tx, ty
			}
			u := kirSolve(t, k, make([]float64, 3*len(m.x)), fixed)
			uScale := 0.0
			for n := range m.x {
				w, tx, ty := f.at(m.x[n], m.y[n])
				uScale = math.Max(uScale, math.Max(math.Abs(w), math.Max(math.Abs(tx), math.Abs(ty))))
			}
			for n := 4; n < len(m.x); n++ {
				w, tx, ty := f.at(m.x[n], m.y[n])
				kirClose(t, fmt.Sprintf("w at node %d", n), u[3*n], w, 1e-12*uScale)
				kirClose(t, fmt.Sprintf("θx at node %d", n), u[3*n+1], tx, 1e-12*uScale)
				kirClose(t, fmt.Sprintf("θy at node %d", n), u[3*n+2], ty, 1e-12*uScale)
			}
			for e := range m.elems {
				p := m.plane(e)
				for _, pt := range kirPoints(&p) {
					kap, mom := kirMoments(m, e, u, &db, pt[0], pt[1])
					for r := range 3 {
						kirClose(t, fmt.Sprintf("element %d κ%d at %v", e, r, pt), kap[r], wantK[r], 1e-12*kScale)
						kirClose(t, fmt.Sprintf("element %d m%d at %v", e, r, pt), mom[r], wantM[r], 1e-12*mScale)
					}
				}
			}
		})
	}
}

// kirSquare meshes the square [0, a]² with n×n quads, or with 2n² triangles
// whose diagonals alternate like a chessboard (so that the mesh has the
// symmetries of the square about its centre, and the centre node is a
// corner of eight triangles).
func kirSquare(a float64, n int, tri bool) *testMesh {
	m := &testMesh{}
	for j := range n + 1 {
		for i := range n + 1 {
			m.x = append(m.x, a*float64(i)/float64(n))
			m.y = append(m.y, a*float64(j)/float64(n))
		}
	}
	for j := range n {
		for i := range n {
			sw, se := j*(n+1)+i, j*(n+1)+i+1
			nw, ne := sw+n+1, se+n+1
			switch {
			case !tri:
				m.elems = append(m.elems, []int{sw, se, ne, nw})
			case (i+j)%2 == 0:
				m.elems = append(m.elems, []int{sw, se, ne}, []int{sw, ne, nw})
			default:
				m.elems = append(m.elems, []int{sw, se, nw}, []int{se, ne, nw})
			}
		}
	}
	return m
}

// TestKirchhoffSimplySupported is the convergence test on the simply
// supported square plate, a = 1, t = 0.01, ν = 0.3, with w = 0 on the four
// edges and the rotations free (soft support; for a thin plate it gives
// the hard support's answer). The uniform load goes on as consistent nodal
// forces ∫N·q dA with the bilinear or linear shape functions of w; the
// point load P on the w of the centre node. The references are
// Timoshenko & Woinowsky-Krieger's Table 8 for the uniform load,
// w = 0.0040624·q·a⁴/D and Mx = 0.04789·q·a² at the centre, and their
// Navier sum for the central point load, w = 0.01160·P·a²/D; the
// "reference" subtest re-sums the series to show these are right to the
// digits given.
//
// Mx at the centre is the average, over the elements that have the
// centre node as a corner (four quads or eight triangles), of each
// element's moment evaluated at that corner. The average of their
// centroid values is no estimate of the centre value to 1%: on 16×16
// quads the centroids lie h/2 off both axes, where the exact Mx is
// already 0.7% below its peak. Those centroid values are checked instead
// against the Navier Mx at the same centroids.
//
// Asserted on 16×16: |error| ≤ 1% for the uniform load (w and both Mx)
// and ≤ 2% for the point load; and every error shrinking from 4×4 to 8×8
// to 16×16.
func TestKirchhoffSimplySupported(t *testing.T) {
	const (
		a  = 1.0
		q  = 1.0
		pp = 1.0
		wq = 0.0040624 // ·q·a⁴/D
		mq = 0.04789   // ·q·a²
		wp = 0.01160   // ·P·a²/D
	)
	props := Props{E: 1e7, Nu: 0.3, Tm: 0.01, Tb: 0.01, Ts: 0.01}
	db := props.Db()
	d := db[0][0]
	t.Run("reference", func(t *testing.T) {
		w, m, p := navier.Kirchhoff(props.Nu, a/2, a/2)
		// Half a unit of the table's last digit, plus the truncation.
		kirClose(t, "Navier w·D/(q·a⁴)", w, wq, 0.6e-7)
		kirClose(t, "Navier Mx/(q·a²)", m, mq, 0.6e-5)
		kirClose(t, "Navier w·D/(P·a²)", p, wp, 0.6e-5)
	})
	for _, tri := range []bool{false, true} {
		name := map[bool]string{false: "DKQ", true: "DKT"}[tri]
		t.Run(name, func(t *testing.T) {
			var ew, em, ec, ep []float64
			for _, n := range []int{4, 8, 16} {
				mesh := kirSquare(a, n, tri)
				k := kirAssemble(t, mesh, &db)
				fixed := map[int]float64{}
				for i := range mesh.x {
					if mesh.x[i] == 0 || mesh.x[i] == a || mesh.y[i] == 0 || mesh.y[i] == a {
						fixed[3*i] = 0
					}
				}
				centre := (n/2)*(n+1) + n/2
				f := make([]float64, 3*len(mesh.x))
				for e, nodes := range mesh.elems {
					p := mesh.plane(e)
					for _, g := range p.Gauss() {
						j := p.At(g.Xi, g.Eta)
						for c, nd := range nodes {
							f[3*nd] += q * g.W * j.Det * j.N[c]
						}
					}
				}
				u := kirSolve(t, k, f, fixed)
				var mxNode, mxCent, mxNavier float64
				var around int
				for e, nodes := range mesh.elems {
					for c, nd := range nodes {
						if nd != centre {
							continue
						}
						p := mesh.plane(e)
						xi, eta := kirCorner(p.N, c)
						_, mom := kirMoments(mesh, e, u, &db, xi, eta)
						mxNode += mom[0]
						xi, eta = p.Centroid()
						_, mom = kirMoments(mesh, e, u, &db, xi, eta)
						mxCent += mom[0]
						var cx, cy float64
						for i := range p.N {
							cx += p.X[i] / float64(p.N)
							cy += p.Y[i] / float64(p.N)
						}
						_, m, _ := navier.Kirchhoff(props.Nu, cx, cy)
						mxNavier += m * q * a * a
						around++
					}
				}
				mxNode /= float64(around)
				fp := make([]float64, 3*len(mesh.x))
				fp[3*centre] = pp
				up := kirSolve(t, k, fp, fixed)
				ew = append(ew, u[3*centre]*d/(q*a*a*a*a)/wq-1)
				em = append(em, mxNode/(q*a*a)/mq-1)
				ec = append(ec, mxCent/mxNavier-1)
				ep = append(ep, up[3*centre]*d/(pp*a*a)/wp-1)
				t.Logf("%2d×%-2d: w %+.3f%%  Mx(centre) %+.3f%%  Mx(centroids) %+.3f%% [%d elements; their plain average is %+.3f%% off 0.04789]  w(P) %+.3f%%",
					n, n, 100*ew[len(ew)-1], 100*em[len(em)-1], 100*ec[len(ec)-1], around, 100*(mxCent/float64(around)/(mq*q*a*a)-1), 100*ep[len(ep)-1])
			}
			kirClose(t, "16×16 relative error of w (uniform)", ew[2], 0, 0.01)
			kirClose(t, "16×16 relative error of Mx at the centre (uniform)", em[2], 0, 0.01)
			kirClose(t, "16×16 relative error of Mx at the centroids (uniform)", ec[2], 0, 0.01)
			kirClose(t, "16×16 relative error of w (point)", ep[2], 0, 0.02)
			for _, e := range []struct {
				what string
				err  []float64
			}{{"w (uniform)", ew}, {"Mx at the centre (uniform)", em}, {"Mx at the centroids (uniform)", ec}, {"w (point)", ep}} {
				if !(math.Abs(e.err[1]) < math.Abs(e.err[0]) && math.Abs(e.err[2]) < math.Abs(e.err[1])) {
					t.Errorf("%s: errors %v do not shrink as the mesh refines", e.what, e.err)
				}
			}
		})
	}
}

// kirCorner returns the natural coordinates of corner c.
func kirCorner(n, c int) (xi, eta float64) {
	if n == 3 {
		return [3]float64{0, 1, 0}[c], [3]float64{0, 0, 1}[c]
	}
	return [4]float64{-1, 1, 1, -1}[c], [4]float64{-1, -1, 1, 1}[c]
}
