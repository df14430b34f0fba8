package dof

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gusset/gusset/pkg/fem/geom"
)

// expandRigid returns the global displacements of every DOF of m for the
// independent values x (per global DOF, restrained DOFs included) by
// following the dependences.
func expandAll(m *Map, x []float64) []float64 {
	u := make([]float64, m.DOFs())
	for g := range u {
		for _, t := range m.Deps(g) {
			u[g] += t.C * x[t.DOF]
		}
	}
	return u
}

// TestRigidConstraintKinematics ties a slave fully to a master at offset r:
// the slave must translate by u_m + θ_m × r and rotate by θ_m (rigid-body
// kinematics), checked for random master motions to round-off.
func TestRigidConstraintKinematics(t *testing.T) {
	pos := []geom.Vec3{{1, 2, 3}, {2.5, -1, 4}}
	m, err := New(pos, []int64{1, 2}, nil, []Constraint{{Master: 0, Slaves: []int{1}, Tied: [6]bool{true, true, true, true, true, true}}})
	if err != nil {
		t.Fatal(err)
	}
	r := pos[1].Sub(pos[0])
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		x := make([]float64, 12)
		for i := range 6 {
			x[i] = rng.NormFloat64()
		}
		u := expandAll(m, x)
		th := geom.Vec3{x[3], x[4], x[5]}
		want := geom.Vec3{x[0], x[1], x[2]}.Add(th.Cross(r))
		for d := range 3 {
			if math.Abs(u[6+d]-want[d]) > 1e-12 || math.Abs(u[9+d]-th[d]) > 1e-12 {
				t.Fatalf("slave DOF %d: %g, want %g (rotation %g, want %g)", d, u[6+d], want[d], u[9+d], th[d])
			}
		}
	}
	for d := range 6 {
		if !m.Tied(6+d) || m.Tied(d) {
			t.Errorf("DOF %d: tied flags wrong", d)
		}
	}
}

// TestInclinedConstraint ties only the component along the first inclined
// axis: that component of the slave's translation equals the master's
// rigid motion along it, and the other two components are the slave's own
// unknowns.
func TestInclinedConstraint(t *testing.T) {
	c, s := math.Cos(0.3), math.Sin(0.3)
	R := geom.Rotation{{c, s, 0}, {-s, c, 0}, {0, 0, 1}}
	pos := []geom.Vec3{{0, 0, 0}, {2, 1, 0}}
	m, err := New(pos, []int64{1, 2}, nil, []Constraint{{Master: 0, Slaves: []int{1}, Tied: [6]bool{0: true}, Axes: &R}})
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0.1, -0.2, 0.05, 0.01, -0.02, 0.03, 0.7, 0.9, -0.4, 0, 0, 0}
	u := expandAll(m, x)
	rigid := geom.Vec3{x[0], x[1], x[2]}.Add(geom.Vec3{x[3], x[4], x[5]}.Cross(pos[1]))
	us := geom.Vec3{u[6], u[7], u[8]}
	if got, want := us.Dot(R.X()), rigid.Dot(R.X()); !(math.Abs(got-want) <= 1e-12) {
		t.Errorf("tied component %g, want %g", got, want)
	}
	// The released inclined components are the slave's own unknowns in
	// its DOF slots 1 and 2.
	if got := us.Dot(R.Y()); !(math.Abs(got-x[7]) <= 1e-12) {
		t.Errorf("released y component %g, want %g", got, x[7])
	}
	if got := us.Dot(R.Z()); !(math.Abs(got-x[8]) <= 1e-12) {
		t.Errorf("released z component %g, want %g", got, x[8])
	}
}

func TestMapErrors(t *testing.T) {
	pos := []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}
	ids := []int64{1, 2, 3}
	all := [6]bool{true, true, true, true, true, true}
	fixedB := make([]Support, 18)
	fixedB[6].Fixed = true
	skew := geom.Rotation{{1, 0, 0}, {1, 1, 0}, {0, 0, 1}}
	cases := []struct {
		name string
		sup  []Support
		cons []Constraint
		want string
	}{
		{"own master", nil, []Constraint{{Master: 0, Slaves: []int{0}, Tied: all}}, "node 1 is its own master"},
		{"slave twice", nil, []Constraint{{Master: 0, Slaves: []int{1}, Tied: all}, {Master: 2, Slaves: []int{1}, Tied: all}}, "node 2 is a slave twice"},
		{"master and slave", nil, []Constraint{{Master: 0, Slaves: []int{1}, Tied: all}, {Master: 1, Slaves: []int{2}, Tied: all}}, "node 2 is both a master and a slave"},
		{"support on a tied DOF", fixedB, []Constraint{{Master: 0, Slaves: []int{1}, Tied: all}}, "slave node 2 translation along X also has a support"},
		{"axes not a rotation", nil, []Constraint{{Master: 0, Slaves: []int{1}, Tied: all, Axes: &skew}}, "not orthonormal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(pos, ids, c.sup, c.cons)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// TestNumbering numbers a free node, a node fixed in ux with a spring on
// uy, and a slave; switching the fixed DOF off frees it.
func TestNumbering(t *testing.T) {
	pos := []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}
	sup := make([]Support, 18)
	sup[6] = Support{Fixed: true, OneWay: 1}
	sup[7] = Support{Spring: 5e3}
	m, err := New(pos, []int64{1, 2, 3}, sup, []Constraint{{Master: 0, Slaves: []int{2}, Tied: [6]bool{true, true, true, true, true, true}}})
	if err != nil {
		t.Fatal(err)
	}
	n := m.Number(nil)
	if n.Equations() != 11 || n.Eq[6] != Restrained || n.Eq[12] != Eliminated || n.Spring[7] != 5e3 || !n.Fixed[6] {
		t.Fatalf("numbering: %d equations, Eq[6]=%d Eq[12]=%d spring %g", n.Equations(), n.Eq[6], n.Eq[12], n.Spring[7])
	}
	for q, g := range n.EqDOF {
		if n.Eq[g] != q || n.NodeOf[q] != g/6 {
			t.Fatalf("equation %d: DOF %d maps back to %d, node %d", q, g, n.Eq[g], n.NodeOf[q])
		}
	}
	off := make([]bool, 18)
	off[6] = true
	if n2 := m.Number(off); n2.Equations() != 12 || n2.Eq[6] < 0 || n2.Fixed[6] {
		t.Fatalf("switched off: %d equations, Eq[6]=%d", n2.Equations(), n2.Eq[6])
	}
}

// TestDistributeIsTranspose checks virtual work: for u = Expand(x) and any
// forces f, f·u = Distribute(f)·x, with the restrained part through ur.
func TestDistributeIsTranspose(t *testing.T) {
	c, s := math.Cos(1.1), math.Sin(1.1)
	R := geom.Rotation{{1, 0, 0}, {0, c, s}, {0, -s, c}}
	pos := []geom.Vec3{{0, 0, 0}, {1, 2, 0}, {3, 1, 1}, {-1, 0, 2}}
	sup := make([]Support, 24)
	sup[0].Fixed, sup[4].Fixed = true, true
	m, err := New(pos, []int64{1, 2, 3, 4}, sup, []Constraint{
		{Master: 0, Slaves: []int{1}, Tied: [6]bool{true, false, true, false, true, true}},
		{Master: 3, Slaves: []int{2}, Tied: [6]bool{true, true, false, false, false, true}, Axes: &R},
	})
	if err != nil {
		t.Fatal(err)
	}
	n := m.Number(nil)
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, n.Equations())
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	ur := make([]float64, 24)
	ur[0], ur[4] = 0.3, -0.7
	f := make([]float64, 24)
	for i := range f {
		f[i] = rng.NormFloat64()
	}
	u := n.Expand(x, ur)
	eq := make([]float64, n.Equations())
	rr := make([]float64, 24)
	n.Distribute(f, eq, rr)
	lhs, rhs := 0.0, 0.0
	for g := range f {
		lhs += f[g] * u[g]
	}
	for q := range x {
		rhs += eq[q] * x[q]
	}
	for g := range ur {
		rhs += rr[g] * ur[g]
	}
	if !(math.Abs(lhs-rhs) <= 1e-12*math.Abs(lhs)) {
		t.Errorf("f·u = %.15g, Cᵀf·x = %.15g", lhs, rhs)
	}
}

// TestReductionDropsRestrainedMasters ties a slave at r = (0, 1, 0) to a
// master whose ux is fixed: u_sx = u_mx − θz·1, so the slave's ux follows
// only the master's θz equation, with coefficient −1, and the fixed ux
// leaves no term (its prescribed value enters through Expand's ur).
func TestReductionDropsRestrainedMasters(t *testing.T) {
	sup := make([]Support, 12)
	sup[0].Fixed = true
	m, err := New([]geom.Vec3{{0, 0, 0}, {0, 1, 0}}, []int64{1, 2}, sup,
		[]Constraint{{Master: 0, Slaves: []int{1}, Tied: [6]bool{0: true}}})
	if err != nil {
		t.Fatal(err)
	}
	n := m.Number(nil)
	r := n.Reduction()
	lo, hi := r.Ptr[6], r.Ptr[7]
	if hi-lo != 1 || int(r.Eq[lo]) != n.Eq[5] || r.Coef[lo] != -1 {
		t.Fatalf("slave ux terms: eq %v coef %v, want [%d] [-1]", r.Eq[lo:hi], r.Coef[lo:hi], n.Eq[5])
	}
	if r.Ptr[1] != r.Ptr[0] {
		t.Errorf("the fixed master ux has %d terms, want none", r.Ptr[1]-r.Ptr[0])
	}
	if r.N != n.Equations() || r.DOFs() != 12 {
		t.Errorf("reduction of %d equations over %d DOFs", r.N, r.DOFs())
	}
}

// TestTranslation: the equation values of a rigid translation expand to
// that translation on every unrestrained DOF, also for a slave tied along
// inclined axes with released components, whose unknowns are components
// along those axes.
func TestTranslation(t *testing.T) {
	c, s := math.Cos(math.Pi/4), math.Sin(math.Pi/4)
	R := geom.Rotation{{c, s, 0}, {-s, c, 0}, {0, 0, 1}}
	pos := []geom.Vec3{{0, 0, 0}, {2, 0, 0}, {2, 1, 0}}
	sup := make([]Support, 18)
	for d := range 6 {
		sup[d].Fixed = true
	}
	m, err := New(pos, []int64{1, 2, 3}, sup, []Constraint{{Master: 1, Slaves: []int{2}, Tied: [6]bool{0: true}, Axes: &R}})
	if err != nil {
		t.Fatal(err)
	}
	n := m.Number(nil)
	for d := range 3 {
		u := n.Expand(n.Translation(d), nil)
		for g := 6; g < 18; g++ {
			want := 0.0
			if g%6 == d {
				want = 1
			}
			if !(math.Abs(u[g]-want) <= 1e-12) {
				t.Errorf("translation %d: DOF %d = %g, want %g", d, g, u[g], want)
			}
		}
	}
}
