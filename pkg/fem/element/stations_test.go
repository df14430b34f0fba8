package element_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gusset/gusset/pkg/fem/element"
)

// endState returns end actions in equilibrium with the loads l for the
// member end displacements u, as recovery has them: q = k·u + fixed-end
// actions.
func endState(p element.FrameProps, l *element.MemberLoads, u [12]float64) (qA, qB, uA [6]float64) {
	k := make([]float64, 144)
	element.FrameStiffness(p, k)
	q := make([]float64, 12)
	if l != nil {
		element.FixedEndActions(p, l, q, make([]float64, 144))
	}
	for i := range 12 {
		for j := range 12 {
			q[i] += k[i*12+j] * u[j]
		}
	}
	copy(qA[:], q[:6])
	copy(qB[:], q[6:])
	copy(uA[:], u[:6])
	return qA, qB, uA
}

// TestStationEvaluatorMatchesReference compares StationEvaluator with
// InternalForces and Displacements (Gauss quadrature of the cantilever
// kernels, exact) on random members and load sets: point loads (also at
// stations, both sides, and at the ends), full, partial, trapezoidal and
// zero-length distributed loads with every component, initial strains and
// random end displacements, with and without shear deformation; stations
// in ascending order as recovery asks for them, then again in random
// order. Both are exact, so they agree to rounding: 1e-12 of the largest
// value of each component along the member. At x = L the displacements
// must also return to the end-B displacements the end actions came from.
func TestStationEvaluatorMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vec := func(scale float64) [6]float64 {
		var v [6]float64
		for i := range v {
			if r.IntN(4) > 0 {
				v[i] = scale * (2*r.Float64() - 1)
			}
		}
		return v
	}
	var ev element.StationEvaluator // reused across members, as recovery does
	for trial := range 300 {
		p := sample(trial%2 == 0)
		p.L = 0.5 + 9*r.Float64()
		L := p.L
		var l *element.MemberLoads
		if trial%7 != 0 {
			l = &element.MemberLoads{}
			for range r.IntN(3) {
				// Clamped as static does: L·10/10 may round beyond L.
				l.Points = append(l.Points, element.PointLoad{X: min(L*float64(r.IntN(11))/10, L), F: vec(5e3)})
			}
			for range r.IntN(4) {
				x1, x2 := L*r.Float64(), L*r.Float64()
				switch r.IntN(4) {
				case 0:
					x1, x2 = 0, L
				case 1:
					x2 = x1 // no length
				}
				l.Dists = append(l.Dists, element.DistLoad{X1: min(x1, x2), X2: max(x1, x2), W1: vec(3e3), W2: vec(3e3)})
			}
			if r.IntN(3) == 0 {
				l.Strain = element.InitialStrain{Eps: 1e-4 * r.Float64(), KappaY: 1e-4 * r.Float64(), KappaZ: -1e-4 * r.Float64()}
			}
		}
		var u [12]float64
		for i := range u {
			u[i] = 1e-3 * (2*r.Float64() - 1)
		}
		if trial%5 == 0 {
			u = [12]float64{} // fixed-fixed: the end actions are the fixed-end actions
		}
		qA, qB, uA := endState(p, l, u)
		type station struct {
			x     float64
			right bool
		}
		var sts []station
		add := func(x float64) { sts = append(sts, station{x, false}, station{x, true}) }
		for i := 0; i <= 20; i++ {
			add(min(L*float64(i)/20, L))
		}
		if l != nil {
			for _, pl := range l.Points {
				add(pl.X)
			}
			for _, d := range l.Dists {
				add(d.X1)
				add(d.X2)
				add((d.X1 + d.X2) / 2)
			}
		}
		ascending := func(i, j int) bool {
			return sts[i].x < sts[j].x || (sts[i].x == sts[j].x && !sts[i].right && sts[j].right)
		}
		sortStations(len(sts), ascending, func(i, j int) { sts[i], sts[j] = sts[j], sts[i] })
		if trial%3 == 2 { // any order works, ascending is just cheaper
			r.Shuffle(len(sts), func(i, j int) { sts[i], sts[j] = sts[j], sts[i] })
		}
		ev.Reset(p, l, &qA, &uA)
		type row struct{ f, u, fr, ur [6]float64 }
		rows := make([]row, len(sts))
		var scaleF, scaleU [6]float64
		for k, st := range sts {
			rw := &rows[k]
			ev.At(st.x, st.right, &rw.f, &rw.u)
			rw.fr = element.InternalForces(l, &qA, st.x, st.right)
			rw.ur = element.Displacements(p, l, &uA, &qB, st.x)
			for i := range 6 {
				scaleF[i] = math.Max(scaleF[i], math.Abs(rw.fr[i]))
				scaleU[i] = math.Max(scaleU[i], math.Abs(rw.ur[i]))
			}
		}
		// Components that vanish along the member compare at a floor: the
		// largest of all components, the free thermal deformation and the
		// deflections the end actions alone would cause (round-off of the
		// terms that cancel, as for loads that go straight to a node).
		var allF, allU, strain, qMax float64
		for i := range 6 {
			qMax = math.Max(qMax, math.Max(math.Abs(qA[i]), math.Abs(qB[i])))
		}
		strain = 1e-3 * qMax * (L*L*L/(p.E*math.Min(p.Iy, p.Iz)) + L/(p.E*p.A) + L/(p.G*p.J))
		for i := range 6 {
			allF, allU = math.Max(allF, scaleF[i]), math.Max(allU, scaleU[i])
		}
		if l != nil {
			strain += (math.Abs(l.Strain.Eps) + (math.Abs(l.Strain.KappaY)+math.Abs(l.Strain.KappaZ))*L) * L
		}
		for i := range 6 {
			scaleF[i], scaleU[i] = math.Max(scaleF[i], 1e-6*allF), math.Max(scaleU[i], math.Max(1e-6*allU, strain))
		}
		for k, rw := range rows {
			for i := range 6 {
				where := fmt.Sprintf("trial %d station %d (x=%.4g right=%v) component %d", trial, k, sts[k].x, sts[k].right, i)
				if math.Abs(rw.f[i]-rw.fr[i]) > 1e-12*scaleF[i] {
					t.Fatalf("%s: force %.17g, reference %.17g", where, rw.f[i], rw.fr[i])
				}
				if math.Abs(rw.u[i]-rw.ur[i]) > 1e-12*scaleU[i] {
					t.Fatalf("%s: displacement %.17g, reference %.17g", where, rw.u[i], rw.ur[i])
				}
				if sts[k].x == L && math.Abs(rw.u[i]-u[6+i]) > 1e-12*math.Max(scaleU[i], 1e-3) {
					t.Fatalf("%s: displacement at B %.17g, end displacement %.17g", where, rw.u[i], u[6+i])
				}
			}
		}
	}
}

// sortStations is an insertion sort (the test's lists are short).
func sortStations(n int, less func(i, j int) bool, swap func(i, j int)) {
	for i := 1; i < n; i++ {
		for j := i; j > 0 && less(j, j-1); j-- {
			swap(j, j-1)
		}
	}
}

// TestStationEvaluatorShortLoadFarFromA: a short partial load far from end
// A on a fixed-fixed member keeps full relative precision: the segment
// polynomials are in the distance from the segment start, so the internal
// forces at B equal the end-B actions and the displacements there vanish
// (the reference's moment about x, a difference of large numbers, loses
// digits here).
func TestStationEvaluatorShortLoadFarFromA(t *testing.T) {
	p := sample(true)
	p.L = 100
	w := [6]float64{0, -1e3, 2e3}
	l := &element.MemberLoads{Dists: []element.DistLoad{{X1: 99.999, X2: 100, W1: w, W2: w}}}
	qA, qB, uA := endState(p, l, [12]float64{})
	var ev element.StationEvaluator
	ev.Reset(p, l, &qA, &uA)
	var f, u [6]float64
	ev.At(p.L, true, &f, &u)
	// The displacements at B are differences of terms of the size of the
	// end actions' cantilever deflections.
	var qMax float64
	for _, v := range qB {
		qMax = math.Max(qMax, math.Abs(v))
	}
	terms := qMax * p.L * p.L * p.L / (p.E * math.Min(p.Iy, p.Iz))
	for i := range 6 {
		// q_A carries the round-off of statics (q_A = −loads − q_B), which
		// the moments at B see times L.
		if !relClose(f[i], qB[i], 1e-12, qMax*p.L) {
			t.Errorf("force %d at B: %g, want q_B = %g", i, f[i], qB[i])
		}
		if math.Abs(u[i]) > 1e-14*terms {
			t.Errorf("displacement %d at B: %g, want 0 (terms %g)", i, u[i], terms)
		}
	}
}
