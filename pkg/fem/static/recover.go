package static

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/gusset/gusset/pkg/fem/dof"
	"github.com/gusset/gusset/pkg/fem/domain"
	"github.com/gusset/gusset/pkg/fem/element"
	"github.com/gusset/gusset/pkg/fem/geom"
	"github.com/gusset/gusset/pkg/fem/internal/par"
)

// memberEnd recovers member m under the loads of cl (nil: unloaded),
// whose loads on m are l (cl.MemberLoads(m.Index)), and global
// displacements u into ms. The fixed-end actions come from cl's cache when
// totalNodeLoads has run on it.
func (a *analysis) memberEnd(ms *domain.FrameState, m *domain.FrameElement, cl *caseLoads, l *element.MemberLoads, u []float64) error {
	var ug [12]float64
	nodes := m.Nodes()
	copy(ug[:6], u[6*nodes[0]:6*nodes[0]+6])
	copy(ug[6:], u[6*nodes[1]:6*nodes[1]+6])
	var qc, q0 [12]float64
	if fe := cl.fixedEndOf(m.Index); fe != nil {
		qc, q0 = fe.qc, fe.q0
	} else if !l.Empty() {
		if err := m.FixedEnd(l, qc[:], q0[:]); err != nil {
			return err
		}
	}
	return m.End(&ug, &qc, &q0, ms)
}

// recoverChunk is the number of members one recovery task takes.
const recoverChunk = 256

// recover builds the results of one case from its loads and global
// displacements u on system s (see recoverCases).
func (a *analysis) recover(id int64, s *system, cl *caseLoads, u []float64) (*CaseResult, error) {
	crs, err := a.recoverCases([]int64{id}, s, []*caseLoads{cl}, [][]float64{u})
	if err != nil {
		return nil, err
	}
	return &crs[0], nil
}

// recoverCases builds the results of several cases (ids, with loads cls
// and global displacements us) on system s. Members are recovered in
// parallel chunks, every case of a member while its matrices are in cache,
// with one station allocation per chunk and case; the node results and
// summaries of the cases are then built in parallel, one task per case.
// Everything summed over members is summed in member order, so results do
// not depend on the number of workers. The first error in case order (and
// member order within it) is returned.
func (a *analysis) recoverCases(ids []int64, s *system, cls []*caseLoads, us [][]float64) ([]CaseResult, error) {
	if err := a.ctx.Err(); err != nil {
		return nil, fmt.Errorf("recover: %w", err)
	}
	nc, nm := len(ids), len(a.frames)
	// Total loads first: they also cache the fixed-end actions that member
	// recovery reads. One task per distinct caseLoads (an id may repeat).
	pTot := make([][]float64, nc)
	loads := make([][]*element.MemberLoads, nc) // per case, per member
	errs := make([]error, nc)
	first := make([]int, nc) // first case with the same caseLoads
	for i := range cls {
		first[i] = slices.Index(cls, cls[i])
	}
	par.Chunks(nc, 1, func(i, _, _ int) {
		if first[i] != i {
			return
		}
		pTot[i], errs[i] = a.totalNodeLoads(cls[i])
		loads[i] = make([]*element.MemberLoads, nm)
		for m, l := range cls[i].Member {
			loads[i][m] = l
		}
	})
	for i := range nc {
		if err := errs[i]; err != nil {
			return nil, domain.Wrapf("recover %d: %w", ids[i], err)
		}
		if j := first[i]; j != i {
			pTot[i], loads[i] = pTot[j], loads[j]
		}
	}
	crs := make([]CaseResult, nc)
	fNode := make([][]float64, nc) // forces nodes exert on each member, global, 12 per member
	for i := range crs {
		crs[i] = CaseResult{Case: ids[i], Members: make([]MemberResult, nm)}
		fNode[i] = make([]float64, 12*nm)
	}
	nChunks := (nm + recoverChunk - 1) / recoverChunk
	merrs := make([]error, nChunks*nc) // chunk-major, then case
	done := counter{r: a.prog, total: float64(nm)}
	par.Chunks(nm, recoverChunk, func(c, lo, hi int) {
		a.recoverMembers(s, cls, loads, us, crs, fNode, lo, hi, merrs[c*nc:(c+1)*nc])
		done.add(hi - lo)
	})
	for i := range nc {
		for c := range nChunks {
			if err := merrs[c*nc+i]; err != nil {
				return nil, domain.Wrapf("recover %d: %w", ids[i], err)
			}
		}
	}
	par.Chunks(nc, 1, func(i, _, _ int) {
		errs[i] = a.caseTotals(&crs[i], s, cls[i], us[i], fNode[i], pTot[i])
		if errs[i] == nil {
			crs[i].Elements, crs[i].Plates, errs[i] = a.recoverOthers(s, cls[i], us[i])
		}
	})
	for i, err := range errs {
		if err != nil {
			return nil, domain.Wrapf("recover %d: %w", ids[i], err)
		}
	}
	return crs, nil
}

// caseTotals fills the node results and the equilibrium summary of cr
// from the forces the nodes exert on the members (fNode) and on the other
// elements.
func (a *analysis) caseTotals(cr *CaseResult, s *system, cl *caseLoads, u, fNode, pTot []float64) error {
	nd := a.d.DOF.DOFs()
	fel := make([]float64, nd) // Σ forces nodes exert on members
	for _, m := range a.frames {
		fm := fNode[12*m.Index : 12*m.Index+12]
		for e, n := range m.Nodes() {
			for d := range 6 {
				fel[6*n+d] += fm[6*e+d]
			}
		}
	}
	if err := a.addOtherResisting(s, cl, u, fel); err != nil {
		return err
	}
	// Out-of-balance force of every DOF (members + support springs −
	// node loads), gathered onto equations (residuals) and restrained
	// DOFs (reactions) through the constraints.
	f := make([]float64, nd)
	for g := range nd {
		f[g] = fel[g] - cl.NodeF[g] + s.spring[g]*u[g]
	}
	resid := make([]float64, s.neq)
	react := make([]float64, nd)
	s.num.Distribute(f, resid, react)
	cr.Nodes = make([]NodeResult, len(a.d.Pos))
	for n := range a.d.Pos {
		nr := &cr.Nodes[n]
		nr.Node = a.model.Nodes[n].ID
		copy(nr.Disp[:], u[6*n:6*n+6])
		for d := range 6 {
			g := 6*n + d
			switch {
			case s.num.Eq[g] == dof.Restrained:
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
		geom.AddResultant(&sum.Load, a.d.Pos[n], f)
		geom.AddResultant(&sum.Reaction, a.d.Pos[n], r)
		for _, v := range f {
			sum.MaxLoad = math.Max(sum.MaxLoad, math.Abs(v))
		}
	}
	for _, v := range resid {
		sum.Residual = math.Max(sum.Residual, math.Abs(v))
	}
	return nil
}

// recoverMembers recovers members lo…hi−1 for every case c (loads cls[c],
// member loads loads[c], displacements us[c]) into crs[c].Members and the
// forces the nodes exert on them (global, 12 per member) into fNode[c].
// A member's error for case c goes to errs[c] and stops that case.
func (a *analysis) recoverMembers(s *system, cls []*caseLoads, loads [][]*element.MemberLoads, us [][]float64,
	crs []CaseResult, fNode [][]float64, lo, hi int, errs []error) {
	div := a.divisions()
	slabs := make([][]Station, len(cls))
	for c := range cls {
		if a.opts.EndsOnly {
			break
		}
		total := 0
		for _, l := range loads[c][lo:hi] {
			total += stationCount(div, l)
		}
		slabs[c] = make([]Station, 0, total)
	}
	var ms domain.FrameState
	var pts, divPts []stationPoint
	var ev element.StationEvaluator
	for i := lo; i < hi; i++ {
		m := a.frames[i]
		off := s.st.memberOff != nil && s.st.memberOff[i]
		divPts = stationPoints(divPts[:0], m.Props.L, div, nil)
		for c, cl := range cls {
			if errs[c] != nil {
				continue
			}
			l := loads[c][i]
			mr := &crs[c].Members[i]
			mr.Member, mr.Axes = m.MemberID, m.Rot
			fm := fNode[c][12*i : 12*i+12]
			if off {
				mr.Inactive = true
				// Its loads still reach the nodes (as in the load vector).
				if fe := cl.fixedEndOf(i); fe != nil {
					var pe [12]float64
					m.NodeLoads(fe.qc[:], pe[:])
					for k := range 12 {
						fm[k] = -pe[k]
					}
				}
				continue
			}
			if err := a.memberEnd(&ms, m, cl, l, us[c]); err != nil {
				errs[c] = err
				continue
			}
			copy(fm, ms.FNode[:])
			copy(mr.EndA[:], ms.Q[:6])
			copy(mr.EndB[:], ms.Q[6:])
			copy(mr.DispA[:], ms.UMem[:6])
			if a.opts.EndsOnly {
				continue
			}
			p := divPts
			if l != nil && len(l.Points) > 0 {
				pts = stationPoints(pts[:0], m.Props.L, div, l)
				p = pts
			}
			slabs[c], mr.Stations = appendStations(slabs[c], &ev, m.Props, &a.sc[i], l, &mr.EndA, &mr.DispA, p)
		}
	}
}

// stationCount is the number of stations of a member divided div times
// under loads l (may be nil): see stationPoints.
func stationCount(div int, l *element.MemberLoads) int {
	if l == nil {
		return div + 1
	}
	return div + 1 + 2*len(l.Points)
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

// appendStations evaluates the internal forces, displacements and
// stresses of m under loads l at pts (ascending) with ev, from the end-A
// action qA and the member's own end-A displacements uA (MemberResult's
// EndA and DispA). It appends the stations to slab and returns the grown
// slab and the member's stations, capped so that appending to them
// cannot overwrite the next member's.
func appendStations(slab []Station, ev *element.StationEvaluator, p element.FrameProps, sc *stressCoef, l *element.MemberLoads, qA, uA *[6]float64, pts []stationPoint) ([]Station, []Station) {
	ev.Reset(p, l, qA, uA)
	n := len(slab)
	slab = slices.Grow(slab, len(pts))[:n+len(pts)]
	for i, pt := range pts {
		st := &slab[n+i]
		st.X = pt.x
		ev.At(pt.x, pt.right, &st.Forces, &st.Disp)
		sc.stress(&st.Forces, &st.Stress)
	}
	return slab, slab[n:len(slab):len(slab)]
}

// stress evaluates section stresses from internal forces f into s.
func (c *stressCoef) stress(f *[6]float64, s *Stress) {
	*s = Stress{Axial: f[0] * c.rA, ShearY: f[1] * c.rAy, ShearZ: f[2] * c.rAz}
	if c.hasY {
		s.BendingY = [2]float64{f[4] * c.by[0], f[4] * c.by[1]}
	}
	if c.hasZ {
		s.BendingZ = [2]float64{f[5] * c.bz[0], f[5] * c.bz[1]}
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
}
