package shell

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Test helpers for the Mindlin plate tests: small plate meshes, a banded
// assemble-and-solve over the bending DOFs (w, θx, θy) of every node, and
// the Navier series the square-plate tests compare with.

// mindlinSquare meshes the square [0, a]² with n×n cells, node (i, j) at
// (i·a/n, j·a/n) numbered j·(n+1)+i. Each cell is a quad, or with tri two
// triangles split along the diagonal that runs towards the centre of the
// square (a "union jack" pattern, symmetric about both centre lines, so
// the centre results are not biased by one diagonal direction).
func mindlinSquare(a float64, n int, tri bool) *testMesh {
	m := &testMesh{}
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			m.x = append(m.x, a*float64(i)/float64(n))
			m.y = append(m.y, a*float64(j)/float64(n))
		}
	}
	id := func(i, j int) int { return j*(n+1) + i }
	for j := range n {
		for i := range n {
			n0, n1, n2, n3 := id(i, j), id(i+1, j), id(i+1, j+1), id(i, j+1)
			switch {
			case !tri:
				m.elems = append(m.elems, []int{n0, n1, n2, n3})
			case (i < n/2) == (j < n/2):
				// Diagonal n0–n2 points at the centre in the lower-left and
				// upper-right quarters.
				m.elems = append(m.elems, []int{n0, n1, n2}, []int{n0, n2, n3})
			default:
				m.elems = append(m.elems, []int{n0, n1, n3}, []int{n1, n2, n3})
			}
		}
	}
	return m
}

// mindlinPressure returns the consistent nodal loads ∫N_i·q dA of a
// uniform pressure q on the w DOFs, integrated with the element's own
// Gauss rule (exact for the linear and bilinear N on triangles and
// parallelograms).
func mindlinPressure(m *testMesh, q float64) []float64 {
	f := make([]float64, m.dofs())
	for e := range m.elems {
		p := m.plane(e)
		for _, g := range p.Gauss() {
			j := p.At(g.Xi, g.Eta)
			for i, n := range m.elems[e] {
				f[3*n] += j.N[i] * q * g.W * j.Det
			}
		}
	}
	return f
}

// mindlinSolve assembles the MindlinBending stiffness of every element,
// holds the DOFs in fixed at their values, solves K·u = f for the rest by
// a banded Cholesky factorisation and returns the whole DOF vector.
func mindlinSolve(t *testing.T, m *testMesh, db *Mat3, ds *Mat2, fixed map[int]float64, f []float64) []float64 {
	t.Helper()
	nd := m.dofs()
	eq := make([]int, nd) // equation number of a free DOF, −1 if fixed
	nf := 0
	for d := range nd {
		if _, ok := fixed[d]; ok {
			eq[d] = -1
			continue
		}
		eq[d] = nf
		nf++
	}
	if nf == 0 {
		t.Fatal("mindlinSolve: no free DOF")
	}
	bw := 0
	for _, c := range m.elems {
		lo, hi := nd, -1
		for _, n := range c {
			for k := range 3 {
				if r := eq[3*n+k]; r >= 0 {
					lo, hi = min(lo, r), max(hi, r)
				}
			}
		}
		bw = max(bw, hi-lo)
	}
	kb := mat.NewSymBandDense(nf, bw, nil)
	raw := kb.RawSymBand()
	rhs := make([]float64, nf)
	u := make([]float64, nd)
	for d, v := range fixed {
		u[d] = v
	}
	for d := range nd {
		if eq[d] >= 0 {
			rhs[eq[d]] = f[d]
		}
	}
	var ke [144]float64
	for e, c := range m.elems {
		p := m.plane(e)
		if err := p.Check(); err != nil {
			t.Fatalf("element %d: %v", e, err)
		}
		MindlinBending(&p, db, ds, ke[:])
		n := 3 * len(c)
		for a := range n {
			ra := eq[3*c[a/3]+a%3]
			if ra < 0 {
				continue
			}
			for b := range n {
				dof := 3*c[b/3] + b%3
				rb := eq[dof]
				if rb < 0 {
					rhs[ra] -= ke[a*n+b] * u[dof]
					continue
				}
				if rb >= ra {
					raw.Data[ra*raw.Stride+rb-ra] += ke[a*n+b]
				}
			}
		}
	}
	var ch mat.BandCholesky
	if !ch.Factorize(kb) {
		t.Fatal("mindlinSolve: stiffness is not positive definite")
	}
	var x mat.VecDense
	if err := ch.SolveVecTo(&x, mat.NewVecDense(nf, rhs)); err != nil {
		t.Fatalf("mindlinSolve: %v", err)
	}
	for d := range nd {
		if eq[d] >= 0 {
			u[d] = x.AtVec(eq[d])
		}
	}
	return u
}

// mindlinSimplySupported returns the "hard" simple support of the square
// [0, a]²: w = 0 on every edge, and the rotation about the edge's normal
// held, since w = 0 along the edge makes its tangential slope vanish: θx
// (= w,y for a thin plate) on the edges x = 0 and x = a, θy (= −w,x) on
// y = 0 and y = a.
func mindlinSimplySupported(m *testMesh, a float64) map[int]float64 {
	fixed := map[int]float64{}
	eps := 1e-9 * a
	for i := range m.x {
		onX := m.x[i] < eps || m.x[i] > a-eps
		onY := m.y[i] < eps || m.y[i] > a-eps
		if onX || onY {
			fixed[3*i] = 0
		}
		if onX {
			fixed[3*i+1] = 0
		}
		if onY {
			fixed[3*i+2] = 0
		}
	}
	return fixed
}

// mindlinNode returns the node at (x, y) of m, failing the test if none.
func mindlinNode(t *testing.T, m *testMesh, x, y float64) int {
	t.Helper()
	for i := range m.x {
		if math.Abs(m.x[i]-x) < 1e-12 && math.Abs(m.y[i]-y) < 1e-12 {
			return i
		}
	}
	t.Fatalf("no node at (%g, %g)", x, y)
	return -1
}

// mindlinNodeMoment returns the moments Db·κ at node n averaged over the
// elements meeting there, each evaluated at its corner n: the usual
// nodal averaging of recovered moments, free of the bias an off-centre
// sampling point would add.
func mindlinNodeMoment(m *testMesh, db *Mat3, u []float64, n int) [3]float64 {
	var sum [3]float64
	cnt := 0
	var b [36]float64
	corners4 := [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}
	corners3 := [3][2]float64{{0, 0}, {1, 0}, {0, 1}}
	for e, c := range m.elems {
		for i, node := range c {
			if node != n {
				continue
			}
			p := m.plane(e)
			xi, eta := corners4[i][0], corners4[i][1]
			if p.N == 3 {
				xi, eta = corners3[i][0], corners3[i][1]
			}
			MindlinCurvature(&p, xi, eta, b[:])
			ue := mindlinElemU(m, e, u)
			k := mindlinMul(b[:], 3, 3*p.N, ue[:])
			for r := range 3 {
				sum[r] += db[r][0]*k[0] + db[r][1]*k[1] + db[r][2]*k[2]
			}
			cnt++
		}
	}
	for r := range sum {
		sum[r] /= float64(cnt)
	}
	return sum
}

// mindlinElemU gathers element e's bending DOFs from the mesh vector u.
func mindlinElemU(m *testMesh, e int, u []float64) [12]float64 {
	var ue [12]float64
	for i, n := range m.elems[e] {
		copy(ue[3*i:3*i+3], u[3*n:3*n+3])
	}
	return ue
}

// mindlinMul returns the first rows (≤ 3) entries of b·ue for a row-major
// rows×cols matrix b.
func mindlinMul(b []float64, rows, cols int, ue []float64) [3]float64 {
	var s [3]float64
	for r := range rows {
		for k := range cols {
			s[r] += b[r*cols+k] * ue[k]
		}
	}
	return s
}

// mindlinKirchhoffNavier returns the thin-plate (Kirchhoff) deflection and
// moment Mx at (x, y) of the simply supported square [0, a]² under a
// uniform load q, from the Navier double sine series (Timoshenko &
// Woinowsky-Krieger, Theory of Plates and Shells, 2nd ed., §28):
//
//	w  = 16q/(π⁶D)·Σ sin αx·sin βy / (mn(m²+n²)²)·a⁴
//	Mx = 16q/π⁴·Σ (m² + νn²)/(mn(m²+n²)²)·a²·sin αx·sin βy
//
// over odd m, n ≤ terms, α = mπ/a, β = nπ/a.
func mindlinKirchhoffNavier(a, d, nu, q, x, y float64, terms int) (w, mx float64) {
	for m := 1; m <= terms; m += 2 {
		for n := 1; n <= terms; n += 2 {
			fm, fn := float64(m), float64(n)
			s := math.Sin(fm*math.Pi*x/a) * math.Sin(fn*math.Pi*y/a)
			den := fm * fn * (fm*fm + fn*fn) * (fm*fm + fn*fn)
			w += s / den
			mx += s * (fm*fm + nu*fn*fn) / den
		}
	}
	return w * 16 * q * math.Pow(a, 4) / (math.Pow(math.Pi, 6) * d), mx * 16 * q * a * a / math.Pow(math.Pi, 4)
}

// mindlinKirchhoffPointNavier returns the thin-plate deflection at the
// centre of the simply supported square [0, a]² under a load P there
// (Timoshenko & Woinowsky-Krieger §34, Navier solution):
// w = 4P·a²/(π⁴D)·Σ 1/(m²+n²)² over odd m, n.
func mindlinKirchhoffPointNavier(a, d, p float64, terms int) float64 {
	s := 0.0
	for m := 1; m <= terms; m += 2 {
		for n := 1; n <= terms; n += 2 {
			r := float64(m*m + n*n)
			s += 1 / (r * r)
		}
	}
	return 4 * p * a * a / (math.Pow(math.Pi, 4) * d) * s
}

// mindlinFSDTNavier returns the Mindlin (first-order shear deformation)
// deflection and moment Mx at (x, y) of the hard simply supported square
// [0, a]² under a uniform load q, by the Navier solution (Reddy, Theory
// and Analysis of Elastic Plates and Shells, 2nd ed., §10.2): with
// w = W·sin αx·sin βy, βx = X·cos αx·sin βy, βy = Y·sin αx·cos βy, each odd
// (m, n) solves
//
//	[ K(α²+β²)  Kα                 Kβ               ] [W]   [q_mn]
//	[ Kα        D(α²+(1−ν)β²/2)+K  D(1+ν)αβ/2       ] [X] = [ 0  ]
//	[ Kβ        D(1+ν)αβ/2         D((1−ν)α²/2+β²)+K] [Y]   [ 0  ]
//
// with q_mn = 16q/(π²mn) and K = k·G·h the shear rigidity (derived here
// from Qx,x + Qy,y + q = 0 and Mx,x + Mxy,y = Qx, Qx = K(w,x + βx), the
// same equations as Reddy's). Mx = −D(αX + νβY)·sin αx·sin βy.
func mindlinFSDTNavier(a, d, k, nu, q, x, y float64, terms int) (w, mx float64) {
	for m := 1; m <= terms; m += 2 {
		for n := 1; n <= terms; n += 2 {
			al, be := float64(m)*math.Pi/a, float64(n)*math.Pi/a
			qmn := 16 * q / (math.Pi * math.Pi * float64(m*n))
			s11 := k * (al*al + be*be)
			s12, s13 := k*al, k*be
			s22 := d*(al*al+(1-nu)*be*be/2) + k
			s23 := d * (1 + nu) * al * be / 2
			s33 := d*((1-nu)*al*al/2+be*be) + k
			// Eliminate X and Y: they answer W through the 2×2 block.
			det := s22*s33 - s23*s23
			xw := -(s33*s12 - s23*s13) / det // X per unit W
			yw := -(s22*s13 - s23*s12) / det // Y per unit W
			wmn := qmn / (s11 + s12*xw + s13*yw)
			s := math.Sin(al*x) * math.Sin(be*y)
			w += wmn * s
			mx += -d * (al*xw + nu*be*yw) * wmn * s
		}
	}
	return w, mx
}

// mindlinRel returns |got − want|/|want|.
func mindlinRel(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }
