package static

import (
	"fmt"
	"math"
	"sort"

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

// memberEnd recovers member m under loads l (may be nil) and global
// displacements u.
func (a *analysis) memberEnd(m *member, l *element.MemberLoads, u []float64) (*memberState, error) {
	ms := &memberState{}
	var ug [12]float64
	for e := range 2 {
		copy(ug[6*e:6*e+6], u[6*m.nodes[e]:6*m.nodes[e]+6])
	}
	var ue [12]float64
	transform.OffsetDisplacements(m.eA, m.eB, ug[:], ue[:])
	transform.ToLocalVector(m.rot, ue[:], ms.uNode[:])
	var qc, q0 [12]float64
	if !l.Empty() {
		if err := m.fixedEnd(l, qc[:], q0[:]); err != nil {
			return nil, err
		}
	}
	var scratch [156]float64
	if err := element.MemberEndDisplacements(m.k0[:], q0[:], &m.rel, ms.uNode[:], ms.uMem[:], scratch[:]); err != nil {
		return nil, fmt.Errorf("member %s: %w", m.id, err)
	}
	for i := range 12 {
		s := q0[i]
		for j := range 12 {
			s += m.k0[i*12+j] * ms.uMem[j]
		}
		ms.q[i] = s
	}
	// Node forces through the condensed matrix, so springs in releases
	// act on the node side exactly as assembled.
	var fl [12]float64
	for i := range 12 {
		s := qc[i]
		for j := range 12 {
			s += m.kc[i*12+j] * ms.uNode[j]
		}
		fl[i] = s
	}
	transform.ToGlobalVector(m.rot, fl[:], ms.fNode[:])
	transform.OffsetForces(m.eA, m.eB, ms.fNode[:], ms.fNode[:])
	return ms, nil
}

// recover builds the results of one case from its loads and global
// displacements u on system s.
func (a *analysis) recover(name string, s *system, cl *caseLoads, u []float64) (*CaseResult, error) {
	if err := a.ctx.Err(); err != nil {
		return nil, fmt.Errorf("recover %s: %w", name, err)
	}
	nd := 6 * len(a.pos)
	cr := &CaseResult{Name: name}
	fel := make([]float64, nd) // Σ forces nodes exert on members
	for _, m := range a.members {
		l := cl.member[m.index]
		mr := MemberResult{Member: m.id}
		if s.st.memberOff != nil && s.st.memberOff[m.index] {
			mr.Inactive = true
			// Its loads still reach the nodes (as in the load vector).
			if !l.Empty() {
				var qc, q0, pe [12]float64
				if err := m.fixedEnd(l, qc[:], q0[:]); err != nil {
					return nil, err
				}
				m.nodeLoads(qc[:], pe[:])
				for e := range 2 {
					for d := range 6 {
						fel[6*m.nodes[e]+d] -= pe[6*e+d]
					}
				}
			}
			cr.Members = append(cr.Members, mr)
			continue
		}
		ms, err := a.memberEnd(m, l, u)
		if err != nil {
			return nil, fmt.Errorf("recover %s: %w", name, err)
		}
		for e := range 2 {
			for d := range 6 {
				fel[6*m.nodes[e]+d] += ms.fNode[6*e+d]
			}
		}
		copy(mr.EndA[:], ms.q[:6])
		copy(mr.EndB[:], ms.q[6:])
		mr.Stations = a.stations(m, l, ms)
		cr.Members = append(cr.Members, mr)
	}

	pTot, err := a.totalNodeLoads(cl)
	if err != nil {
		return nil, fmt.Errorf("recover %s: %w", name, err)
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
	for n := range a.pos {
		nr := NodeResult{Node: a.model.Nodes[n].ID}
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
		cr.Nodes = append(cr.Nodes, nr)
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

// addMoment adds the force-moment f acting at p to the resultant about
// the origin.
func addMoment(acc *[6]float64, p transform.Vec3, f [6]float64) {
	m := p.Cross(transform.Vec3{f[0], f[1], f[2]})
	for i := range 3 {
		acc[i] += f[i]
		acc[3+i] += f[3+i] + m[i]
	}
}

// stations evaluates internal forces, displacements and stresses along m.
func (a *analysis) stations(m *member, l *element.MemberLoads, ms *memberState) []Station {
	div := a.opts.Divisions
	if div <= 0 {
		div = 10
	}
	L := m.props.L
	type pt struct {
		x     float64
		right bool
	}
	pts := make([]pt, 0, div+1)
	for i := 0; i <= div; i++ {
		pts = append(pts, pt{L * float64(i) / float64(div), true})
	}
	if l != nil {
		for _, p := range l.Points {
			pts = append(pts, pt{p.X, false}, pt{p.X, true})
		}
	}
	sort.SliceStable(pts, func(i, j int) bool {
		if pts[i].x != pts[j].x {
			return pts[i].x < pts[j].x
		}
		return !pts[i].right && pts[j].right
	})
	var qA, qB, uA [6]float64
	copy(qA[:], ms.q[:6])
	copy(qB[:], ms.q[6:])
	copy(uA[:], ms.uMem[:6])
	out := make([]Station, 0, len(pts))
	for i, p := range pts {
		if i > 0 && pts[i-1] == p {
			continue // a load at a division point: keep one of each side
		}
		st := Station{X: p.x}
		st.Forces = element.InternalForces(l, &qA, p.x, p.right)
		st.Disp = element.Displacements(m.props, l, &uA, &qB, p.x)
		st.Stress = m.stress(st.Forces)
		out = append(out, st)
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
	s.Max, s.Min = math.Inf(-1), math.Inf(1)
	for _, by := range s.BendingY {
		for _, bz := range s.BendingZ {
			v := s.Axial + by + bz
			s.Max, s.Min = math.Max(s.Max, v), math.Min(s.Min, v)
		}
	}
	return s
}
