package element_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gusset/gusset/pkg/fem/element"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// sample returns a member with distinct properties in every plane so that
// swapped indices show up; shear areas are set so that Φ is O(0.1..1).
func sample(shear bool) element.FrameProps {
	p := element.FrameProps{L: 2.5, E: 210e9, G: 81e9, A: 5e-3, J: 2e-6, Iy: 3e-5, Iz: 8e-6}
	if shear {
		p.Ay, p.Az = 1e-4, 2e-4
	}
	return p
}

// relClose reports |a−b| ≤ tol·max(|a|,|b|,floor).
func relClose(a, b, tol, floor float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Max(math.Abs(a), math.Abs(b)), floor)
}

func TestFrameStiffnessSymmetric(t *testing.T) {
	for _, shear := range []bool{false, true} {
		k := make([]float64, 144)
		element.FrameStiffness(sample(shear), k)
		for i := range 12 {
			for j := range 12 {
				// Exact: every coefficient is written from one expression.
				if k[i*12+j] != k[j*12+i] {
					t.Errorf("shear=%v: k[%d][%d]=%g k[%d][%d]=%g", shear, i, j, k[i*12+j], j, i, k[j*12+i])
				}
			}
		}
	}
}

// rigidModes returns the six rigid-body displacement vectors of a member
// along local x with length L: three translations and small rotations
// about A (u = θ × r with r = (L,0,0) at B).
func rigidModes(L float64) [6][12]float64 {
	var m [6][12]float64
	for d := range 3 {
		m[d][d], m[d][6+d] = 1, 1
	}
	m[3][3], m[3][9] = 1, 1               // about x
	m[4][4], m[4][10], m[4][8] = 1, 1, -L // about y: w_B = −θL
	m[5][5], m[5][11], m[5][7] = 1, 1, L  // about z: v_B = +θL
	return m
}

func TestFrameStiffnessRigidBody(t *testing.T) {
	for _, shear := range []bool{false, true} {
		p := sample(shear)
		k := make([]float64, 144)
		element.FrameStiffness(p, k)
		kmax := 0.0
		for _, v := range k {
			kmax = math.Max(kmax, math.Abs(v))
		}
		for mi, u := range rigidModes(p.L) {
			for i := range 12 {
				f := 0.0
				for j := range 12 {
					f += k[i*12+j] * u[j]
				}
				// Round-off only: forces relative to the largest stiffness
				// times a unit-order displacement.
				if math.Abs(f) > 1e-12*kmax*p.L {
					t.Errorf("shear=%v mode %d: force %d = %g", shear, mi, i, f)
				}
			}
		}
	}
}

// TestFrameStiffnessClosedForm checks coefficients against the textbook
// matrices (Przemieniecki 1968 eq. 5.116; McGuire, Gallagher & Ziemian,
// Matrix Structural Analysis 2nd ed. eq. 4.34 for Φ = 0).
func TestFrameStiffnessClosedForm(t *testing.T) {
	p := sample(true)
	k := make([]float64, 144)
	element.FrameStiffness(p, k)
	L, E, G := p.L, p.E, p.G
	py := 12 * E * p.Iz / (G * p.Ay * L * L)
	pz := 12 * E * p.Iy / (G * p.Az * L * L)
	cases := []struct {
		name string
		i, j int
		want float64
	}{
		{"EA/L", 0, 0, E * p.A / L},
		{"-EA/L", 0, 6, -E * p.A / L},
		{"GJ/L", 3, 3, G * p.J / L},
		{"-GJ/L", 3, 9, -G * p.J / L},
		{"12EIz", 1, 1, 12 * E * p.Iz / ((1 + py) * L * L * L)},
		{"6EIz", 1, 5, 6 * E * p.Iz / ((1 + py) * L * L)},
		{"6EIz B", 1, 11, 6 * E * p.Iz / ((1 + py) * L * L)},
		{"-12EIz", 1, 7, -12 * E * p.Iz / ((1 + py) * L * L * L)},
		{"(4+Φ)EIz", 5, 5, (4 + py) * E * p.Iz / ((1 + py) * L)},
		{"(2-Φ)EIz", 5, 11, (2 - py) * E * p.Iz / ((1 + py) * L)},
		{"12EIy", 2, 2, 12 * E * p.Iy / ((1 + pz) * L * L * L)},
		{"-6EIy", 2, 4, -6 * E * p.Iy / ((1 + pz) * L * L)},
		{"6EIy B", 4, 8, 6 * E * p.Iy / ((1 + pz) * L * L)},
		{"(4+Φ)EIy", 4, 4, (4 + pz) * E * p.Iy / ((1 + pz) * L)},
		{"(2-Φ)EIy", 4, 10, (2 - pz) * E * p.Iy / ((1 + pz) * L)},
		{"uncoupled", 0, 1, 0},
		{"uncoupled y-z", 1, 2, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Same formula evaluated in a different order: round-off only.
			if got := k[c.i*12+c.j]; !relClose(got, c.want, 1e-13, 1e-300) {
				t.Errorf("k[%d][%d] = %.15g, want %.15g", c.i, c.j, got, c.want)
			}
		})
	}
}

// TestCantileverTip solves the clamped-at-A member for a tip load and checks
// Timoshenko's cantilever deflection δ = PL³/(3EI) + PL/(G·As) and the tip
// rotation PL²/(2EI) (Roark's Formulas for Stress and Strain, 7th ed.,
// Table 8.1 case 1a; shear term from Timoshenko & Gere). The element is exact,
// so only solver round-off separates the numbers.
func TestCantileverTip(t *testing.T) {
	const P = 1e3
	for _, shear := range []bool{false, true} {
		p := sample(shear)
		k := make([]float64, 144)
		element.FrameStiffness(p, k)
		kb := mat.NewDense(6, 6, nil)
		for i := range 6 {
			for j := range 6 {
				kb.Set(i, j, k[(6+i)*12+6+j])
			}
		}
		f := mat.NewVecDense(6, []float64{0, P, P, 0, 0, 0})
		var u mat.VecDense
		if err := u.SolveVec(kb, f); err != nil {
			t.Fatal(err)
		}
		L := p.L
		dy := P * L * L * L / (3 * p.E * p.Iz)
		dz := P * L * L * L / (3 * p.E * p.Iy)
		if shear {
			dy += P * L / (p.G * p.Ay)
			dz += P * L / (p.G * p.Az)
		}
		checks := []struct {
			name      string
			got, want float64
		}{
			{"uy", u.AtVec(1), dy},
			{"uz", u.AtVec(2), dz},
			{"rz", u.AtVec(5), P * L * L / (2 * p.E * p.Iz)},
			{"ry", u.AtVec(4), -P * L * L / (2 * p.E * p.Iy)},
		}
		for _, c := range checks {
			if !relClose(c.got, c.want, 1e-9, 0) {
				t.Errorf("shear=%v %s = %.12g, want %.12g", shear, c.name, c.got, c.want)
			}
		}
	}
}

// TestRotationInvariance: rotating a member and its displacements together
// must rotate the end forces and keep the strain energy unchanged.
func TestRotationInvariance(t *testing.T) {
	p := sample(true)
	kl := make([]float64, 144)
	element.FrameStiffness(p, kl)
	a := geom.Vec3{1, 2, 3}
	dirs := []geom.Direction{
		{Kind: geom.DirectionAngle, Angle: 0.3},
		{Kind: geom.DirectionNode, Node: geom.Vec3{5, -1, 2}},
		{Kind: geom.DirectionAxis, Axis: geom.NegativeZAxis, Angle: -1.1},
	}
	ends := []geom.Vec3{{3, 2.5, 4}, {1, 2.5, 5.5}, {-1, 4, 2}}
	ul := [12]float64{1e-3, -2e-3, 3e-4, 1e-3, -4e-4, 2e-4, -5e-4, 1e-3, 2e-3, 3e-4, 1e-4, -1e-3}
	for i, b := range ends {
		for j, d := range dirs {
			r, err := geom.LocalAxes(a, b, d, geom.YAxis)
			if err != nil {
				t.Fatalf("end %d dir %d: %v", i, j, err)
			}
			kg := make([]float64, 144)
			transform.ToGlobalMatrix(r, 12, kl, kg)
			ug := make([]float64, 12)
			transform.ToGlobalVector(r, ul[:], ug)
			fg := matVec(kg, ug)
			fl := matVec(kl, ul[:])
			back := make([]float64, 12)
			transform.ToLocalVector(r, fg, back)
			scale := 0.0
			for _, v := range fl {
				scale = math.Max(scale, math.Abs(v))
			}
			for q := range 12 {
				if math.Abs(back[q]-fl[q]) > 1e-12*scale {
					t.Errorf("end %d dir %d: f[%d] = %g, want %g", i, j, q, back[q], fl[q])
				}
			}
			el, eg := dot(ul[:], fl), dot(ug, fg)
			if !relClose(el, eg, 1e-12, 0) {
				t.Errorf("energy %g vs %g", el, eg)
			}
		}
	}
}

func TestTrussStiffness(t *testing.T) {
	p := sample(true)
	k := make([]float64, 144)
	element.TrussStiffness(p, k)
	for i := range 12 {
		for j := range 12 {
			want := 0.0
			if (i == 0 || i == 6) && (j == 0 || j == 6) {
				want = p.E * p.A / p.L
				if i != j {
					want = -want
				}
			}
			if k[i*12+j] != want {
				t.Errorf("k[%d][%d] = %g, want %g", i, j, k[i*12+j], want)
			}
		}
	}
}

func matVec(k, u []float64) []float64 {
	n := len(u)
	f := make([]float64, n)
	for i := range n {
		for j := range n {
			f[i] += k[i*n+j] * u[j]
		}
	}
	return f
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
