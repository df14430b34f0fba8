package static

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/gusset/gusset/pkg/fem/element"
	"github.com/gusset/gusset/pkg/fem/transform"
)

// memberState is a member's recovered end state for one case.
type memberState struct {
	uNode [12]float64 // node-side local displacements
	uMem  [12]float64 // member's own end displacements (after releases)
	q     [12]float64 // end actions on the member, local
	fNode [12]float64 // forces the nodes exert on the member, global axes at the nodes
}

// memberEnd recovers member m under the loads of cl (nil: unloaded) and
// global displacements u into ms. The fixed-end actions come from cl's
// cache when totalNodeLoads has run on it.
func (a *analysis) memberEnd(ms *memberState, m *member, cl *caseLoads, u []float64) error {
	*ms = memberState{}
	var ug [12]float64
	for e := range 2 {
		copy(ug[6*e:6*e+6], u[6*m.nodes[e]:6*m.nodes[e]+6])
	}
	var ue [12]float64
	transform.OffsetDisplacements(m.eA, m.eB, ug[:], ue[:])
	transform.ToLocalVector(m.rot, ue[:], ms.uNode[:])
	var qc, q0 [12]float64
	if fe := cl.fixedEndOf(m.index); fe != nil {
		qc, q0 = fe.qc, fe.q0
	} else if cl != nil && !cl.member[m.index].Empty() {
		if err := m.fixedEnd(cl.member[m.index], qc[:], q0[:]); err != nil {
			return err
		}
	}
	var scratch [156]float64
	if err := element.MemberEndDisplacements(m.k0[:], q0[:], &m.rel, ms.uNode[:], ms.uMem[:], scratch[:]); err != nil {
		return fmt.Errorf("member %s: %w", m.id, err)
	}
	for i := range 12 {
		s := q0[i]
		for j := range 12 {
			s += m.k0[i*12+j] * ms.uMem[j]
		}
		ms.q[i] = s
	}
	// Node forces through the condensed matrix, so springs in releases
	// act on the node side exactly as assembled. Without releases that
	// is q itself.
	fl := ms.q
	if m.kc != nil {
		for i := range 12 {
			s := qc[i]
			for j := range 12 {
				s += m.kc[i*12+j] * ms.uNode[j]
			}
			fl[i] = s
		}
	}
	transform.ToGlobalVector(m.rot, fl[:], ms.fNode[:])
	transform.OffsetForces(m.eA, m.eB, ms.fNode[:], ms.fNode[:])
	return nil
}

// recoverChunk is the number of members one recovery task takes.
const recoverChunk = 512

// recover builds the results of one case from its loads and global
// displacements u on system s. Members are recovered in parallel chunks
// (each with one allocation for all its stations); everything summed over
// members is summed afterwards in member order, so results do not depend
// on the number of workers.
func (a *analysis) recover(name string, s *system, cl *caseLoads, u []float64) (*CaseResult, error) {
	if err := a.ctx.Err(); err != nil {
		return nil, fmt.Errorf("recover %s: %w", name, err)
	}
	nd := 6 * len(a.pos)
	// Total loads first: it also caches the fixed-end actions the
	// members' recovery reads.
	pTot, err := a.totalNodeLoads(cl)
	if err != nil {
		return nil, fmt.Errorf("recover %s: %w", name, err)
	}
	cr := &CaseResult{Name: name, Members: make([]MemberResult, len(a.members))}
	fNode := make([]float64, 12*len(a.members)) // forces nodes exert on each member, global
	errs := make([]error, (len(a.members)+recoverChunk-1)/recoverChunk)
	parallelChunks(len(a.members), recoverChunk, func(c, lo, hi int) {
		errs[c] = a.recoverMembers(s, cl, u, cr.Members[lo:hi], fNode[12*lo:12*hi], lo)
	})
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("recover %s: %w", name, err)
		}
	}
	fel := make([]float64, nd) // Σ forces nodes exert on members
	for _, m := range a.members {
		fm := fNode[12*m.index : 12*m.index+12]
		for e := range 2 {
			for d := range 6 {
				fel[6*m.nodes[e]+d] += fm[6*e+d]
			}
		}
	}
	// Out-of-balance force of every DOF (members + support springs −
	// node loads), gathered onto equations (residuals) and restrained
	// DOFs (reactions) through the constraints.
	f := make([]float64, nd)
	for g := range nd {
		f[g] = fel[g] - cl.nodeF[g] + s.spring[g]*u[g]
	}
	resid := make([]float64, s.neq)
	react := make([]float64, nd)
	a.distribute(s, f, resid, react)
	cr.Nodes = make([]NodeResult, len(a.pos))
	for n := range a.pos {
		nr := &cr.Nodes[n]
		nr.Node = a.model.Nodes[n].ID
		copy(nr.Disp[:], u[6*n:6*n+6])
		for d := range 6 {
			g := 6*n + d
			switch {
			case s.eq[g] == -1:
				nr.Reaction[d] = react[g]
				nr.HasReaction = true
			case s.spring[g] != 0:
				nr.Reaction[d] = -s.spring[g] * u[g]
				nr.HasReaction = true
			}
		}
	}
	sum := &cr.Summary
	for n, nr := range cr.Nodes {
		var f, r [6]float64
		copy(f[:], pTot[6*n:6*n+6])
		r = nr.Reaction
		addMoment(&sum.Load, a.pos[n], f)
		addMoment(&sum.Reaction, a.pos[n], r)
		for _, v := range f {
			sum.MaxLoad = math.Max(sum.MaxLoad, math.Abs(v))
		}
	}
	for _, v := range resid {
		sum.Residual = math.Max(sum.Residual, math.Abs(v))
	}
	return cr, nil
}

// recoverMembers recovers the members from index lo on into out, and the
// forces the nodes exert on them (global, 12 per member) into fNode.
func (a *analysis) recoverMembers(s *system, cl *caseLoads, u []float64, out []MemberResult, fNode []float64, lo int) error {
	div := a.divisions()
	total := 0
	for i := range out {
		total += div + 1
		if l := cl.member[lo+i]; l != nil {
			total += 2 * len(l.Points)
		}
	}
	slab := make([]Station, 0, total)
	var ms memberState
	var pts []stationPoint
	for i := range out {
		m := a.members[lo+i]
		l := cl.member[m.index]
		mr := &out[i]
		mr.Member = m.id
		fm := fNode[12*i : 12*i+12]
		if s.st.memberOff != nil && s.st.memberOff[m.index] {
			mr.Inactive = true
			// Its loads still reach the nodes (as in the load vector).
			if fe := cl.fixedEndOf(m.index); fe != nil {
				var pe [12]float64
				m.nodeLoads(fe.qc[:], pe[:])
				for k := range 12 {
					fm[k] = -pe[k]
				}
			}
			continue
		}
		if err := a.memberEnd(&ms, m, cl, u); err != nil {
			return err
		}
		copy(fm, ms.fNode[:])
		copy(mr.EndA[:], ms.q[:6])
		copy(mr.EndB[:], ms.q[6:])
		pts = stationPoints(pts[:0], m.props.L, div, l)
		n := len(slab)
		slab = a.stations(slab, m, l, &ms, pts)
		mr.Stations = slab[n:len(slab):len(slab)]
	}
	return nil
}

// divisions returns the number of member divisions for stations.
func (a *analysis) divisions() int {
	if a.opts.Divisions <= 0 {
		return 10
	}
	return a.opts.Divisions
}

// stationPoint is a station position; right marks the value just past a
// point load there (division points are "right" values).
type stationPoint struct {
	x     float64
	right bool
}

// stationPoints appends the station positions of a member of length L:
// the division points and both sides of every point load, in order, each
// once.
func stationPoints(pts []stationPoint, L float64, div int, l *element.MemberLoads) []stationPoint {
	for i := 0; i <= div; i++ {
		pts = append(pts, stationPoint{L * float64(i) / float64(div), true})
	}
	if l == nil || len(l.Points) == 0 {
		return pts
	}
	for _, p := range l.Points {
		pts = append(pts, stationPoint{p.X, false}, stationPoint{p.X, true})
	}
	slices.SortStableFunc(pts, func(p, q stationPoint) int {
		switch {
		case p.x != q.x:
			return cmp.Compare(p.x, q.x)
		case p.right == q.right:
			return 0
		case !p.right:
			return -1
		}
		return 1
	})
	return slices.Compact(pts) // a load at a division point: keep one of each side
}

// addMoment adds the force-moment f acting at p to the resultant about
// the origin.
func addMoment(acc *[6]float64, p transform.Vec3, f [6]float64) {
	m := p.Cross(transform.Vec3{f[0], f[1], f[2]})
	for i := range 3 {
		acc[i] += f[i]
		acc[3+i] += f[3+i] + m[i]
	}
}

// stations appends to out the internal forces, displacements and stresses
// of m at pts.
func (a *analysis) stations(out []Station, m *member, l *element.MemberLoads, ms *memberState, pts []stationPoint) []Station {
	var qA, qB, uA [6]float64
	copy(qA[:], ms.q[:6])
	copy(qB[:], ms.q[6:])
	copy(uA[:], ms.uMem[:6])
	for _, p := range pts {
		out = append(out, Station{X: p.x})
		st := &out[len(out)-1]
		st.Forces = element.InternalForces(l, &qA, p.x, p.right)
		st.Disp = element.Displacements(m.props, l, &uA, &qB, p.x)
		st.Stress = m.stress(st.Forces)
	}
	return out
}

// stress evaluates section stresses from internal forces.
func (m *member) stress(f [6]float64) Stress {
	p, sec := m.props, m.sec
	s := Stress{Axial: f[0] / p.A}
	ay, az := p.Ay, p.Az
	if ay <= 0 {
		ay = p.A
	}
	if az <= 0 {
		az = p.A
	}
	s.ShearY, s.ShearZ = f[1]/ay, f[2]/az
	if !m.typ.axialOnly() {
		if p.Iy > 0 {
			s.BendingY = [2]float64{f[4] * sec.ZTop / p.Iy, -f[4] * sec.ZBottom / p.Iy}
		}
		if p.Iz > 0 {
			s.BendingZ = [2]float64{-f[5] * sec.YTop / p.Iz, f[5] * sec.YBottom / p.Iz}
		}
	}
	// The extreme corner combinations, without math.Max's NaN and ±0
	// handling (this runs for every station of every case).
	by0, by1 := s.BendingY[0], s.BendingY[1]
	if by1 > by0 {
		by0, by1 = by1, by0
	}
	bz0, bz1 := s.BendingZ[0], s.BendingZ[1]
	if bz1 > bz0 {
		bz0, bz1 = bz1, bz0
	}
	s.Max = s.Axial + by0 + bz0
	s.Min = s.Axial + by1 + bz1
	return s
}
