package static

import (
	"fmt"
	"time"

	"github.com/gusset/gusset/pkg/fem/element"
	"github.com/gusset/gusset/pkg/fem/internal/par"
)

// runLinear solves every primary case needed in one block and superposes
// the cases and combinations ids.
func (a *analysis) runLinear(ids []int64, res *Results) error {
	s, err := a.system(state{})
	if err != nil {
		return err
	}
	a.prog.begin(StageSolution)
	t0 := time.Now()
	base := map[int64]*caseLoads{}
	factors := make([]map[int64]float64, len(ids))
	need := map[int64]bool{}
	for i, n := range ids {
		f, err := a.d.Factors(n)
		if err != nil {
			return err
		}
		factors[i] = f
		for c := range f {
			need[c] = true
		}
	}
	order := sortedKeys(need)
	loads, err := a.resolveCases(order)
	if err != nil {
		return err
	}
	for i, n := range order {
		base[n] = loads[i]
	}
	a.timings.Loads += time.Since(t0)
	disp, err := a.solve(s, loads)
	if err != nil {
		return err
	}
	// The factor (the largest allocation of the analysis) is not needed
	// any more: drop it so that recovery can reuse its memory.
	s.fact, a.fz = nil, nil
	col := map[int64]int{}
	for i, n := range order {
		col[n] = i
	}
	t1 := time.Now()
	cls := make([]*caseLoads, len(ids))
	for i, n := range ids {
		if a.d.IsCase(n) && len(factors[i]) == 1 && factors[i][n] == 1 {
			cls[i] = base[n]
			continue
		}
		if cls[i], _, err = a.combined(n, base); err != nil {
			return err
		}
	}
	t2 := time.Now()
	a.timings.Loads += t2.Sub(t1)
	nd := a.d.DOF.DOFs()
	us := make([][]float64, len(ids))
	for i, n := range ids {
		if cls[i] == base[n] {
			us[i] = disp[col[n]]
			continue
		}
		u := make([]float64, nd)
		for _, c := range order { // sorted: deterministic sums
			f, ok := factors[i][c]
			if !ok {
				continue
			}
			for g, v := range disp[col[c]] {
				u[g] += f * v
			}
		}
		us[i] = u
	}
	t3 := time.Now()
	a.timings.Solve += t3.Sub(t2)
	a.prog.end()
	a.prog.begin(StageRecovery)
	crs, err := a.recoverCases(ids, s, cls, us)
	a.timings.Recovery += time.Since(t3)
	if err != nil {
		return err
	}
	a.prog.end()
	res.Cases = append(res.Cases, crs...)
	return nil
}

// resolveCases resolves the primary load cases ids and their total node
// loads, one case per task in parallel; the first error in order wins.
func (a *analysis) resolveCases(ids []int64) ([]*caseLoads, error) {
	out := make([]*caseLoads, len(ids))
	errs := make([]error, len(ids))
	par.Chunks(len(ids), 1, func(i, _, _ int) {
		l, err := a.d.ResolveCase(ids[i])
		cl := &caseLoads{Loads: l}
		if err == nil {
			_, err = a.totalNodeLoads(cl)
		}
		out[i], errs[i] = cl, err
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// solve returns the full global displacement vector of each case: the
// right-hand sides of all cases form one block solved in one call.
func (a *analysis) solve(s *system, cases []*caseLoads) ([][]float64, error) {
	t0 := time.Now()
	nd, n := a.d.DOF.DOFs(), s.neq
	b := make([]float64, n*len(cases))
	full := make([][]float64, len(cases))
	ur := make([][]float64, len(cases))
	for c, cl := range cases {
		rhs := b[c*n : (c+1)*n]
		p, err := a.totalNodeLoads(cl)
		if err != nil {
			return nil, err
		}
		s.num.Distribute(p, rhs, nil)
		ur[c] = a.prescribedVector(s, cl)
		if len(cl.Presc) == 0 {
			continue
		}
		// Move K_fr·u_r to the right-hand side.
		u0 := s.num.Expand(nil, ur[c])
		fr := make([]float64, nd)
		a.d.MulStiffness(u0, s.st.active, s.spring, fr)
		for g := range fr {
			fr[g] = -fr[g]
		}
		s.num.Distribute(fr, rhs, nil)
	}
	t1 := time.Now()
	a.timings.Loads += t1.Sub(t0)
	a.timings.Equations = n
	if n > 0 {
		if err := s.fact.Solve(a.ctx, b, len(cases)); err != nil {
			return nil, fmt.Errorf("solve: %w", err)
		}
	}
	for c := range cases {
		full[c] = s.num.Expand(b[c*n:(c+1)*n], ur[c])
	}
	a.timings.Solve += time.Since(t1)
	return full, nil
}

// prescribedVector returns the prescribed values of restrained DOFs.
func (a *analysis) prescribedVector(s *system, cl *caseLoads) []float64 {
	u := make([]float64, a.d.DOF.DOFs())
	for g, v := range cl.Presc {
		if s.num.Fixed[g] {
			u[g] = v
		}
	}
	return u
}

// totalNodeLoads returns node loads plus equivalent node loads of member
// loads, global, per global DOF. The result is cached on cl and must not
// be modified.
func (a *analysis) totalNodeLoads(cl *caseLoads) ([]float64, error) {
	if cl.total != nil {
		return cl.total, nil
	}
	p := append([]float64(nil), cl.NodeF...)
	feIdx := make([]int32, len(a.frames))
	// The loaded members, by index (one pass over the map), then the sums
	// in member order: deterministic.
	loads := make([]*element.MemberLoads, len(a.frames))
	n := 0
	for i, l := range cl.Member {
		if !l.Empty() {
			loads[i] = l
			n++
		}
	}
	fe := make([]memberFE, 0, n)
	var pe [12]float64
	for _, m := range a.frames {
		feIdx[m.Index] = -1
		l := loads[m.Index]
		if l == nil {
			continue
		}
		feIdx[m.Index] = int32(len(fe))
		fe = append(fe, memberFE{})
		f := &fe[len(fe)-1]
		if err := m.FixedEnd(l, f.qc[:], f.q0[:]); err != nil {
			return nil, err
		}
		m.NodeLoads(f.qc[:], pe[:])
		for e, nd := range m.Nodes() {
			for d := range 6 {
				p[6*nd+d] += pe[6*e+d]
			}
		}
	}
	if err := a.addOtherLoads(cl, p); err != nil {
		return nil, err
	}
	cl.total, cl.fe, cl.feIdx = p, fe, feIdx
	return p, nil
}
