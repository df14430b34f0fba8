package element

import "slices"

// StationEvaluator evaluates the internal forces and displacements of one
// loaded member at any number of stations: the quantities of
// InternalForces and Displacements, for a few dozen flops per station.
//
// Between breakpoints (point loads and the ends of distributed loads) the
// load is linear, so the internal forces are polynomials of degree ≤ 3 and
// the displacements of degree ≤ 5 in t = x − s₀ (s₀ the segment start).
// Their coefficients follow from the member's differential relations,
// integrated exactly from the state at the segment start:
//
//	N' = −w_x    T' = −m_x    Vy' = −w_y    Vz' = −w_z
//	Mz' = −Vy − m_z           My' = Vz − m_y
//	ux' = N/EA + ε            rx' = T/GJ
//	rz' = Mz/EIz + κz         uy' = rz + Vy/(G·Ay)
//	ry' = My/EIy + κy         uz' = −ry + Vz/(G·Az)
//
// starting at end A from the forces −q_A and the displacements u_A; a point
// load P at a makes the forces jump by −P there. The same relations
// underlie the cantilever formulas of Displacements, so with end actions in
// equilibrium with the loads (as k·u plus fixed-end actions are) the two
// agree to rounding. Loads must lie on the member (0 ≤ X ≤ L).
//
// Stations are cheapest in ascending order of x (at equal x, the value
// before a point load first): the evaluator walks the segments forwards
// and restarts from end A only when x decreases. The zero value is ready
// for Reset; an evaluator reuses its storage across Resets and must not be
// shared between goroutines.
type StationEvaluator struct {
	rEA, rGJ   float64 // 1/(E·A), 1/(G·J)
	rEIz, rEIy float64 // 1/(E·Iz), 1/(E·Iy)
	rGAy, rGAz float64 // 1/(G·Ay), 1/(G·Az); 0 when shear-rigid
	length     float64
	loads      *MemberLoads
	qA, uA     [6]float64
	strain     InitialStrain
	dists      []distPoly
	bps        []float64 // segment boundaries: 0, breakpoints inside, L
	jump       []bool    // a point load acts at bps[i]

	seg    int        // current segment [bps[seg], bps[seg+1]] (seg+1 = len(bps): the point x = L)
	s0, s1 float64    // its ends
	fPre   [6]float64 // forces at s0 before the point loads there
	linear bool       // no distributed load on the segment: forces linear, displacements cubic
	fc     [6][4]float64
	uc     [6][6]float64
}

// distPoly is a distributed load as w(a) = α + β·a on [x1, x2].
type distPoly struct {
	x1, x2      float64
	alpha, beta [6]float64
}

// Reset prepares e for a member with properties p and loads l (may be
// nil) whose end-A action is qA (the forces the node exerts on the member,
// local) and whose own end-A displacements are uA. e keeps l and reads it
// until the next Reset.
func (e *StationEvaluator) Reset(p FrameProps, l *MemberLoads, qA, uA *[6]float64) {
	e.rEA, e.rGJ = 1/(p.E*p.A), 1/(p.G*p.J)
	e.rEIz, e.rEIy = 1/(p.E*p.Iz), 1/(p.E*p.Iy)
	e.rGAy, e.rGAz = 0, 0
	if p.Ay > 0 && p.G > 0 {
		e.rGAy = 1 / (p.G * p.Ay)
	}
	if p.Az > 0 && p.G > 0 {
		e.rGAz = 1 / (p.G * p.Az)
	}
	e.length, e.loads = p.L, l
	e.qA, e.uA = *qA, *uA
	e.strain = InitialStrain{}
	e.dists = e.dists[:0]
	e.bps = append(e.bps[:0], 0, p.L)
	if l != nil {
		e.strain = l.Strain
		for i := range l.Points {
			e.bps = append(e.bps, l.Points[i].X)
		}
		for i := range l.Dists {
			d := &l.Dists[i]
			if d.X2 <= d.X1 {
				continue // no length: no load
			}
			dp := distPoly{x1: d.X1, x2: d.X2}
			for c := range 6 {
				b := (d.W2[c] - d.W1[c]) / (d.X2 - d.X1)
				dp.beta[c] = b
				dp.alpha[c] = d.W1[c] - b*d.X1
			}
			e.dists = append(e.dists, dp)
			e.bps = append(e.bps, d.X1, d.X2)
		}
		if len(e.bps) > 2 {
			slices.Sort(e.bps)
			e.bps = slices.Compact(e.bps)
			lo, hi := 0, len(e.bps)
			for lo < hi && e.bps[lo] < 0 {
				lo++
			}
			for hi > lo && e.bps[hi-1] > p.L {
				hi--
			}
			e.bps = e.bps[lo:hi]
		}
	}
	e.jump = slices.Grow(e.jump[:0], len(e.bps))[:len(e.bps)]
	clear(e.jump)
	if l != nil {
		for i := range l.Points {
			if k, ok := slices.BinarySearch(e.bps, l.Points[i].X); ok {
				e.jump[k] = true
			}
		}
	}
	e.start()
}

// start places e on the first segment, with the end-A state.
func (e *StationEvaluator) start() {
	var f [6]float64
	for i := range 6 {
		f[i] = -e.qA[i]
	}
	e.enter(0, f, e.uA)
}

// enter makes segment seg current, with forces f (before the point loads
// at its start) and displacements u at its start.
func (e *StationEvaluator) enter(seg int, f, u [6]float64) {
	e.seg, e.fPre = seg, f
	e.s0 = e.bps[min(seg, len(e.bps)-1)]
	e.s1 = e.s0
	if seg+1 < len(e.bps) {
		e.s1 = e.bps[seg+1]
	}
	// Point loads at s0, and the distributed load on the segment as
	// W + B·t.
	var w, b [6]float64
	if l := e.loads; l != nil {
		for i := range l.Points {
			if pl := &l.Points[i]; pl.X == e.s0 {
				for c := range 6 {
					f[c] -= pl.F[c]
				}
			}
		}
		if e.s1 > e.s0 {
			for i := range e.dists {
				d := &e.dists[i]
				if d.x1 <= e.s0 && e.s1 <= d.x2 {
					for c := range 6 {
						w[c] += d.alpha[c] + d.beta[c]*e.s0
						b[c] += d.beta[c]
					}
				}
			}
		}
	}
	e.linear = w == [6]float64{} && b == [6]float64{}
	fc, uc := &e.fc, &e.uc
	for c := range 4 {
		fc[c] = [4]float64{f[c], -w[c], -b[c] / 2, 0}
	}
	fc[4] = [4]float64{f[4], f[2] - w[4], -(w[2] + b[4]) / 2, -b[2] / 6}
	fc[5] = [4]float64{f[5], -f[1] - w[5], (w[1] - b[5]) / 2, b[1] / 6}
	st := &e.strain
	// Axial and torsion: integrate N/EA + ε and T/GJ.
	uc[0] = [6]float64{u[0], mul(fc[0][0], e.rEA) + st.Eps, mul(fc[0][1], e.rEA) / 2, mul(fc[0][2], e.rEA) / 3}
	uc[3] = [6]float64{u[3], mul(fc[3][0], e.rGJ), mul(fc[3][1], e.rGJ) / 2, mul(fc[3][2], e.rGJ) / 3}
	// x-y plane: rz from Mz/EIz + κz, then uy from rz + Vy/(G·Ay).
	rz := [5]float64{u[5], mul(fc[5][0], e.rEIz) + st.KappaZ, mul(fc[5][1], e.rEIz) / 2, mul(fc[5][2], e.rEIz) / 3, mul(fc[5][3], e.rEIz) / 4}
	uc[5] = [6]float64{rz[0], rz[1], rz[2], rz[3], rz[4]}
	uc[1] = [6]float64{u[1], rz[0] + fc[1][0]*e.rGAy, (rz[1] + fc[1][1]*e.rGAy) / 2, (rz[2] + fc[1][2]*e.rGAy) / 3, rz[3] / 4, rz[4] / 5}
	// x-z plane: ry from My/EIy + κy, then uz from −ry + Vz/(G·Az).
	ry := [5]float64{u[4], mul(fc[4][0], e.rEIy) + st.KappaY, mul(fc[4][1], e.rEIy) / 2, mul(fc[4][2], e.rEIy) / 3, mul(fc[4][3], e.rEIy) / 4}
	uc[4] = [6]float64{ry[0], ry[1], ry[2], ry[3], ry[4]}
	uc[2] = [6]float64{u[2], -ry[0] + fc[2][0]*e.rGAz, (-ry[1] + fc[2][1]*e.rGAz) / 2, (-ry[2] + fc[2][2]*e.rGAz) / 3, -ry[3] / 4, -ry[4] / 5}
}

// mul returns c·r, or 0 when c is 0 (r may be +Inf for a zero stiffness
// that nothing loads, as for the torsion of a truss member).
func mul(c, r float64) float64 {
	if c == 0 {
		return 0
	}
	return c * r
}

// eval writes the forces and displacements at t into f and u.
func (e *StationEvaluator) eval(t float64, f, u *[6]float64) {
	if e.linear { // the higher coefficients are zero
		for c := range 6 {
			f[c] = e.fc[c][0] + t*e.fc[c][1]
		}
		uc := &e.uc
		u[0] = uc[0][0] + t*uc[0][1]
		u[3] = uc[3][0] + t*uc[3][1]
		u[4] = uc[4][0] + t*(uc[4][1]+t*uc[4][2])
		u[5] = uc[5][0] + t*(uc[5][1]+t*uc[5][2])
		u[1] = uc[1][0] + t*(uc[1][1]+t*(uc[1][2]+t*uc[1][3]))
		u[2] = uc[2][0] + t*(uc[2][1]+t*(uc[2][2]+t*uc[2][3]))
		return
	}
	for c := range 6 {
		p := &e.fc[c]
		f[c] = p[0] + t*(p[1]+t*(p[2]+t*p[3]))
	}
	for c := range 6 {
		p := &e.uc[c]
		u[c] = p[0] + t*(p[1]+t*(p[2]+t*(p[3]+t*(p[4]+t*p[5]))))
	}
}

// At writes the internal forces [N Vy Vz T My Mz] at x into f (as
// InternalForces: point loads at exactly x included when right is set)
// and the local displacements [ux uy uz rx ry rz] into u (as
// Displacements).
func (e *StationEvaluator) At(x float64, right bool, f, u *[6]float64) {
	if x < e.s0 {
		e.start()
	}
	// Move on while x lies beyond the segment, or at its end on the far
	// side of point loads there; past L (rounding of a station at L),
	// only across point loads at L.
	for {
		next := e.seg + 1
		if next >= len(e.bps) || !(x > e.s1 || (x == e.s1 && right && e.jump[next])) ||
			(next == len(e.bps)-1 && !e.jump[next]) {
			break
		}
		var fe, ue [6]float64
		e.eval(e.s1-e.s0, &fe, &ue)
		e.enter(next, fe, ue)
	}
	if x == e.s0 && !right {
		*f = e.fPre
		for c := range 6 {
			u[c] = e.uc[c][0]
		}
		return
	}
	e.eval(x-e.s0, f, u)
}
