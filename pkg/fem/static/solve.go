package static

import (
	"fmt"
	"time"

	"github.com/gusset/gusset/pkg/fem/element"
)

// runLinear solves every primary case needed in one block and superposes.
func (a *analysis) runLinear(names []string, res *Results) error {
	s, err := a.system(state{})
	if err != nil {
		return err
	}
	a.prog.begin(StageSolution)
	t0 := time.Now()
	base := map[string]*caseLoads{}
	factors := make([]map[string]float64, len(names))
	need := map[string]bool{}
	for i, n := range names {
		f := map[string]float64{}
		if err := a.expand(n, 1, f, map[string]bool{}); err != nil {
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
	col := map[string]int{}
	for i, n := range order {
		col[n] = i
	}
	t1 := time.Now()
	cls := make([]*caseLoads, len(names))
	for i, n := range names {
		if _, primary := a.caseIdx[n]; primary && len(factors[i]) == 1 && factors[i][n] == 1 {
			cls[i] = base[n]
			continue
		}
		if cls[i], _, err = a.combined(n, base); err != nil {
			return err
		}
	}
	t2 := time.Now()
	a.timings.Loads += t2.Sub(t1)
	nd := 6 * len(a.pos)
	us := make([][]float64, len(names))
	for i, n := range names {
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
	crs, err := a.recoverCases(names, s, cls, us)
	a.timings.Recovery += time.Since(t3)
	if err != nil {
		return err
	}
	a.prog.end()
	res.Cases = append(res.Cases, crs...)
	return nil
}

// resolveCases resolves the named primary load cases and their total node
// loads, one case per task in parallel; the first error in order wins.
func (a *analysis) resolveCases(names []string) ([]*caseLoads, error) {
	out := make([]*caseLoads, len(names))
	errs := make([]error, len(names))
	parallelChunks(len(names), 1, func(i, _, _ int) {
		cl, err := a.resolveCase(&a.model.LoadCases[a.caseIdx[names[i]]])
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
	nd, n := 6*len(a.pos), s.neq
	b := make([]float64, n*len(cases))
	full := make([][]float64, len(cases))
	ur := make([][]float64, len(cases))
	for c, cl := range cases {
		rhs := b[c*n : (c+1)*n]
		p, err := a.totalNodeLoads(cl)
		if err != nil {
			return nil, err
		}
		a.distribute(s, p, rhs, nil)
		ur[c] = a.prescribedVector(s, cl)
		if len(cl.presc) == 0 {
			continue
		}
		// Move K_fr·u_r to the right-hand side, element by element.
		u0 := a.expandDisp(s, nil, ur[c])
		fr := make([]float64, nd)
		var dofs []int
		for _, el := range a.elements(s.st) {
			var ne int
			ne, dofs = elementDOFs(el, dofs[:0])
			ue := make([]float64, ne)
			nz := false
			for i, g := range dofs {
				ue[i] = u0[g]
				nz = nz || ue[i] != 0
			}
			if !nz {
				continue
			}
			k := make([]float64, ne*ne)
			el.GlobalStiffness(k)
			for i, g := range dofs {
				f := 0.0
				for j := range ne {
					f += k[i*ne+j] * ue[j]
				}
				fr[g] -= f
			}
		}
		for g, kv := range s.spring {
			fr[g] -= kv * u0[g]
		}
		a.distribute(s, fr, rhs, nil)
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
		full[c] = a.expandDisp(s, b[c*n:(c+1)*n], ur[c])
	}
	a.timings.Solve += time.Since(t1)
	return full, nil
}

// distribute adds the per-global-DOF forces f to the equations they act
// on (eqOut) and to the restrained independent DOFs (rOut, may be nil),
// through the constraint dependences (virtual work: Cᵀ·f).
func (a *analysis) distribute(s *system, f, eqOut, rOut []float64) {
	for g, v := range f {
		if v == 0 {
			continue
		}
		for _, d := range a.deps[g] {
			switch e := s.eq[d.g]; {
			case e >= 0:
				eqOut[e] += d.c * v
			case rOut != nil:
				rOut[d.g] += d.c * v
			}
		}
	}
}

// expandDisp returns global displacements from equation values x (nil:
// zero) and prescribed values ur of restrained independent DOFs.
func (a *analysis) expandDisp(s *system, x, ur []float64) []float64 {
	u := make([]float64, len(a.deps))
	for g, ds := range a.deps {
		v := 0.0
		for _, d := range ds {
			if e := s.eq[d.g]; e >= 0 {
				if x != nil {
					v += d.c * x[e]
				}
			} else {
				v += d.c * ur[d.g]
			}
		}
		u[g] = v
	}
	return u
}

// prescribedVector returns the prescribed values of restrained DOFs.
func (a *analysis) prescribedVector(s *system, cl *caseLoads) []float64 {
	u := make([]float64, 6*len(a.pos))
	for g, v := range cl.presc {
		if s.fixed[g] {
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
	p := append([]float64(nil), cl.nodeF...)
	feIdx := make([]int32, len(a.members))
	// The loaded members, by index (one pass over the map), then the sums
	// in member order: deterministic.
	loads := make([]*element.MemberLoads, len(a.members))
	n := 0
	for i, l := range cl.member {
		if !l.Empty() {
			loads[i] = l
			n++
		}
	}
	fe := make([]memberFE, 0, n)
	var pe [12]float64
	for _, m := range a.members {
		feIdx[m.index] = -1
		l := loads[m.index]
		if l == nil {
			continue
		}
		feIdx[m.index] = int32(len(fe))
		fe = append(fe, memberFE{})
		f := &fe[len(fe)-1]
		if err := m.fixedEnd(l, f.qc[:], f.q0[:]); err != nil {
			return nil, err
		}
		m.nodeLoads(f.qc[:], pe[:])
		for e := range 2 {
			for d := range 6 {
				p[6*m.nodes[e]+d] += pe[6*e+d]
			}
		}
	}
	cl.total, cl.fe, cl.feIdx = p, fe, feIdx
	return p, nil
}
