package static

import (
	"math"
	"time"

	"github.com/gusset/gusset/pkg/fem/domain"
)

// runReversal solves each requested case on its own with the reversal
// loop: one-way members and supports acting the wrong way are switched
// off, switched-off ones that would act again are switched back on, and
// the case is re-solved until nothing changes. Superposition does not hold
// for such models, so combinations are solved directly from their combined
// loads. Systems are cached per state, so cases that settle in the same
// state share one factorization.
func (a *analysis) runReversal(ids []int64, res *Results) error {
	maxIt := a.opts.ReversalIterations
	if maxIt <= 0 {
		maxIt = 20
	}
	base := map[int64]*caseLoads{}
	nd := a.d.DOF.DOFs()
	for _, name := range ids {
		a.prog.set(func(p *Progress) { p.Case = name })
		t0 := time.Now()
		cl, _, err := a.combined(name, base)
		a.timings.Loads += time.Since(t0)
		if err != nil {
			return err
		}
		st := state{memberOff: make([]bool, len(a.frames)), dofOff: make([]bool, nd)}
		var s *system
		var u []float64
		settled := false
		for it := 0; it < maxIt; it++ {
			a.prog.set(func(p *Progress) { p.Iteration = it + 1 })
			if s, err = a.system(st); err != nil {
				return err
			}
			a.prog.begin(StageSolution)
			disp, err := a.solve(s, []*caseLoads{cl})
			if err != nil {
				return err
			}
			u = disp[0]
			next, changed, err := a.reverse(s, cl, u)
			if err != nil {
				return err
			}
			a.prog.end()
			if !changed {
				settled = true
				break
			}
			st = next
		}
		if !settled {
			a.warn("load case %d: tension/compression-only reversal did not settle in %d iterations; results are from the last iteration", name, maxIt)
		}
		t1 := time.Now()
		a.prog.begin(StageRecovery)
		cr, err := a.recover(name, s, cl, u)
		a.timings.Recovery += time.Since(t1)
		if err != nil {
			return err
		}
		a.prog.end()
		res.Cases = append(res.Cases, *cr)
	}
	return nil
}

// reverse returns the next state after checking the one-way members and
// supports of the solution u.
func (a *analysis) reverse(s *system, cl *caseLoads, u []float64) (state, bool, error) {
	next := s.st.clone()
	changed := false
	// Members: axial force when active, elongation when switched off.
	for _, m := range a.frames {
		dir := m.Type.OneWay()
		if dir == 0 {
			continue
		}
		if !s.st.memberOff[m.Index] {
			ms := &domain.FrameState{}
			if err := a.memberEnd(ms, m, cl, cl.MemberLoads(m.Index), u); err != nil {
				return next, false, err
			}
			n := -ms.Q[0] // tension positive at end A
			tol := 1e-9 * math.Max(math.Abs(ms.Q[0]), math.Abs(ms.Q[6]))
			if float64(dir)*n < -tol {
				next.memberOff[m.Index] = true
				changed = true
			}
			continue
		}
		// Elongation of the chord between the member ends, local x.
		ms := &domain.FrameState{}
		if err := a.memberEnd(ms, m, nil, nil, u); err != nil {
			return next, false, err
		}
		elong := ms.UNode[6] - ms.UNode[0]
		if l := cl.Member[m.Index]; l != nil {
			elong -= l.Strain.Eps * m.Props.L // free strain causes no force
		}
		if float64(dir)*elong > 1e-12*m.Props.L {
			next.memberOff[m.Index] = false
			changed = true
		}
	}
	// Supports: reaction sign when active, displacement when off.
	if len(s.st.dofOff) > 0 {
		fel := make([]float64, len(u))
		for _, m := range a.frames {
			if s.st.memberOff[m.Index] {
				continue
			}
			ms := &domain.FrameState{}
			if err := a.memberEnd(ms, m, cl, cl.MemberLoads(m.Index), u); err != nil {
				return next, false, err
			}
			for e, n := range m.Nodes() {
				for d := range 6 {
					fel[6*n+d] += ms.FNode[6*e+d]
				}
			}
		}
		if err := a.addOtherResisting(s, cl, u, fel); err != nil {
			return next, false, err
		}
		f := make([]float64, len(u))
		for g := range f {
			f[g] = fel[g] - cl.NodeF[g]
		}
		react := make([]float64, len(u))
		s.num.Distribute(f, make([]float64, s.neq), react)
		for g := range a.d.DOF.DOFs() {
			sd := a.d.DOF.Support(g)
			if sd.OneWay == 0 || (!sd.Fixed && sd.Spring == 0) {
				continue
			}
			if !s.st.dofOff[g] {
				var r float64
				if s.num.Fixed[g] {
					r = react[g]
				} else {
					r = -sd.Spring * u[g]
				}
				if float64(sd.OneWay)*r < 0 && math.Abs(r) > 1e-12*(1+math.Abs(fel[g])) {
					next.dofOff[g] = true
					changed = true
				}
				continue
			}
			// A support that pushes +axis resists motion in −axis.
			if float64(sd.OneWay)*u[g] < 0 {
				next.dofOff[g] = false
				changed = true
			}
		}
	}
	return next, changed, nil
}
